# sigmoid.tile: b = 1 / (1 + exp(-a)); exp and recip round differently from NumPy's.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37], "N": [1, 15, 16, 17, 37]}
TOLERANCE = {"b": (1e-5, 1e-7)}


def inputs(rng, M, N):
    return {"a": (rng.standard_normal((M, N)) * 3).astype(np.float32)}


def reference(a, M, N):
    x = a.astype(np.float64)
    return {"b": 1 / (1 + np.exp(-x))}
