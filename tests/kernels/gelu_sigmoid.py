# gelu_sigmoid.tile: y = x * sigmoid(1.702 x), against f64.
import numpy as np

SIZES = {"R": [1, 15, 16, 17, 37]}
TOLERANCE = {"y": (1e-5, 1e-6)}


def inputs(rng, R):
    return {"x": (rng.standard_normal((R, 128)) * 3).astype(np.float32)}


def reference(x, R):
    x = x.astype(np.float64)
    return {"y": x / (1 + np.exp(-1.702 * x))}
