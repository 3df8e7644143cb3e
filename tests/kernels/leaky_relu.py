# leaky_relu.tile: y = x if x > 0 else x * negative_slope, in f32 (exact: one rounding of the
# product), with zeros and a negative zero among the inputs.
import numpy as np

SIZES = {"N": [1, 15, 16, 17, 100, 1000]}


def inputs(rng, N):
    x = rng.standard_normal(N).astype(np.float32)
    x[::7] = 0.0
    x[3::11] = -0.0
    return {"x": x, "negative_slope": 0.01}


def reference(x, negative_slope, N):
    return {"y": np.where(x > 0, x, x * np.float32(negative_slope))}
