# per_channel_dequant.tile: y = f16(f32(x) * scale) with the scale row broadcast down the rows;
# exact (one f32 multiply, then round to nearest even into f16, as NumPy's astype does).
import numpy as np

SIZES = {"R": [1, 15, 16, 17, 37]}


def inputs(rng, R):
    return {"x": rng.integers(-20000, 20000, (R, 64)).astype(np.int32),
            "w_scale": rng.uniform(1e-4, 1e-2, (1, 64)).astype(np.float32)}


def reference(x, w_scale, R):
    return {"y": (x.astype(np.float32) * w_scale).astype(np.float16)}
