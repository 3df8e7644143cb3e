# fused_add_scale.tile: c = (a + b) * 2, exact in f32.
import numpy as np

SIZES = {"R": [1, 15, 16, 17, 37]}


def inputs(rng, R):
    return {name: rng.standard_normal((R, 128)).astype(np.float32) for name in "ab"}


def reference(a, b, R):
    return {"c": (a + b) * np.float32(2.0)}
