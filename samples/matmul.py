# matmul.tile: a @ b in f32 from f16 operands, against NumPy in f64. The cube core sums the
# products in f32 in its own order, so the comparison allows f32 rounding. The largest size
# combination (the one run.py also runs at --blocks=1, 3 and 24) has 3 x 3 tiles of 16 x 32,
# the bottom ones with 1 valid row and the right ones with 6 valid columns, and K = 40 (a slice
# of 8 last).
import numpy as np

SIZES = {"M": [33, 16, 17, 64], "N": [32, 70, 15, 64], "K": [48, 32, 40, 1]}
TOLERANCE = {"c": (1e-5, 1e-4)}


def inputs(rng, M, N, K):
    return {"a": rng.uniform(-1, 1, (M, K)).astype(np.float16),
            "b": rng.uniform(-1, 1, (K, N)).astype(np.float16)}


def reference(a, b, M, N, K):
    return {"c": (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)}
