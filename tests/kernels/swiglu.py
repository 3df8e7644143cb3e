# swiglu.tile: y = gate * sigmoid(gate) * up, against f64.
import numpy as np

SIZES = {"R": [1, 15, 16, 17, 37]}
TOLERANCE = {"y": (1e-5, 1e-6)}


def inputs(rng, R):
    return {name: (rng.standard_normal((R, 128)) * 3).astype(np.float32) for name in ("gate", "up")}


def reference(gate, up, R):
    g = gate.astype(np.float64)
    return {"y": g / (1 + np.exp(-g)) * up}
