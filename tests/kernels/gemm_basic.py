# gemm_basic.tile: c = a @ b_dn.T, f16 operands, f32 result, against f64 (one f32 rounding per
# K step). M, N and K are multiples of 32, 64 and 32 (the kernel's base blocks).
import numpy as np

SIZES = {"M": [32, 64, 96], "N": [64, 128, 64], "K": [32, 96, 128]}
TOLERANCE = {"c": (1e-5, 1e-5)}


def inputs(rng, M, N, K):
    return {"a": rng.standard_normal((M, K)).astype(np.float16),
            "b_dn": rng.standard_normal((N, K)).astype(np.float16)}


def reference(a, b_dn, M, N, K):
    return {"c": a.astype(np.float64) @ b_dn.astype(np.float64).T}
