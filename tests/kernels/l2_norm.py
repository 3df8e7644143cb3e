# l2_norm.tile: sqrt(sum(x * x)) of a 1-D tensor, against f64.
import numpy as np

SIZES = {"N": [1, 15, 16, 17, 64, 65, 1000]}
TOLERANCE = {"y": (1e-5, 1e-6)}


def inputs(rng, N):
    return {"x": rng.standard_normal(N).astype(np.float32)}


def reference(x, N):
    x64 = x.astype(np.float64)
    return {"y": np.sqrt(np.array([np.sum(x64 * x64)]))}
