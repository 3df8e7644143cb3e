# dynamic_quant.tile: scale = max(max|x| / 127, 1e-12) per row (f32 arithmetic as the kernel
# does it: one f32 multiply by the f32 constant 1/127), y = x / scale rounded half away from
# zero (rmode round). Exact in f32, except the division: x / scale is compared after rounding.
import numpy as np

SIZES = {"R": [1, 15, 16, 17, 37]}


def inputs(rng, R):
    x = rng.standard_normal((R, 64)).astype(np.float32) * 3
    if R > 2:
        x[2, :] = 0.0  # a row of zeros: the floor keeps the scale positive
    return {"x": x}


def reference(x, R):
    s = np.maximum(np.abs(x).max(axis=1, keepdims=True) * np.float32(1.0 / 127.0), np.float32(1e-12))
    v = x / s
    return {"y": (np.sign(v) * np.floor(np.abs(v) + np.float32(0.5))).astype(np.int8), "scale": s.astype(np.float32)}
