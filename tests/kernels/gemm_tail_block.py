# gemm_tail_block.tile: c = a @ b, f16 operands, f32 result. Products of f16 values are exact in
# f32 and the interpreter sums them exactly and rounds once per matmul, then once per K step, so
# against an f64 product the error is a few f32 ulps of the partial sums.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37], "N": [1, 15, 16, 17, 37], "K": [1, 15, 16, 17, 100]}
TOLERANCE = {"c": (1e-5, 1e-5)}


def inputs(rng, M, N, K):
    return {"a": rng.standard_normal((M, K)).astype(np.float16),
            "b": rng.standard_normal((K, N)).astype(np.float16)}


def reference(a, b, M, N, K):
    return {"c": a.astype(np.float64) @ b.astype(np.float64)}
