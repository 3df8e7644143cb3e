# batch_gemm.tile: c = a @ b per batch, f16 operands, f32 result: within a few f32 ulps of the
# f64 product (each K step rounds its partial sum once).
import numpy as np

SIZES = {"M": [32, 64, 32], "N": [32, 32, 64], "K": [32, 64, 96]}
B = 2  # the kernel's constant
TOLERANCE = {"c": (1e-5, 1e-5)}


def inputs(rng, M, N, K):
    return {"a": rng.standard_normal((B, M, K)).astype(np.float16),
            "b": rng.standard_normal((B, K, N)).astype(np.float16)}


def reference(a, b, M, N, K):
    return {"c": a.astype(np.float64) @ b.astype(np.float64)}
