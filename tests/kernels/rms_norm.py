# rms_norm.tile: y = x / sqrt(mean(x^2) + 1e-6) * gamma, against f64 (rsqrt and the sum round).
import numpy as np

SIZES = {"R": [1, 15, 16, 17, 37]}
TOLERANCE = {"y": (2e-5, 1e-6)}


def inputs(rng, R):
    return {"x": rng.standard_normal((R, 64)).astype(np.float32),
            "gamma": rng.uniform(0.5, 1.5, (1, 64)).astype(np.float32)}


def reference(x, gamma, R):
    x64 = x.astype(np.float64)
    return {"y": x64 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True) + 1e-6) * gamma}
