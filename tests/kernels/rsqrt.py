# rsqrt.tile: b = 1 / sqrt(a) against f64, NaN where a < 0 (the comparison takes NaN as equal to
# NaN, so a NaN where a number is expected, or the reverse, fails).
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37], "N": [1, 15, 64, 65, 100]}
TOLERANCE = {"b": (1e-6, 0)}


def inputs(rng, M, N):
    return {"a": rng.standard_normal((M, N)).astype(np.float32)}


def reference(a, M, N):
    with np.errstate(invalid="ignore"):
        return {"b": 1 / np.sqrt(a.astype(np.float64))}
