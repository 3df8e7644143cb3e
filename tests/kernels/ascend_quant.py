# ascend_quant.tile: y = round(x * scale + offset) (half away from zero), in f32 as the kernel
# computes it; the values stay inside int8's range. Exact.
import numpy as np

SIZES = {"R": [1, 15, 16, 17, 37]}


def inputs(rng, R):
    return {"x": rng.uniform(-60, 60, (R, 64)).astype(np.float32), "scale": 2.0, "offset": 0.5}


def reference(x, scale, offset, R):
    v = x * np.float32(scale) + np.float32(offset)
    return {"y": (np.sign(v) * np.floor(np.abs(v) + np.float32(0.5))).astype(np.int8)}
