# gelu_tanh.tile: b = GELU(a) with the tanh approximation, against the tanh formula in f64.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37], "N": [1, 15, 16, 17, 37]}
TOLERANCE = {"b": (1e-5, 1e-6)}


def inputs(rng, M, N):
    return {"a": (rng.standard_normal((M, N)) * 3).astype(np.float32)}


def reference(a, M, N):
    x = a.astype(np.float64)
    return {"b": 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))}
