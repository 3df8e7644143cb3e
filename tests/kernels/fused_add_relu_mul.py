# fused_add_relu_mul.tile: y = max(x + bias, 0) * scale with scalar bias and scale, exact in f32.
import numpy as np

SIZES = {"N": [1, 15, 16, 17, 37]}


def inputs(rng, N):
    return {"x": rng.standard_normal((N, 256)).astype(np.float32), "bias": 0.25, "scale": 1.5}


def reference(x, bias, scale, N):
    return {"y": np.maximum(x + np.float32(bias), np.float32(0)) * np.float32(scale)}
