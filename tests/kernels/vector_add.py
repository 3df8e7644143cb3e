# vector_add.tile: z = x + y, exact in f32.
import numpy as np

SIZES = {"N": [1, 15, 16, 17, 100, 1000]}


def inputs(rng, N):
    return {"x": rng.standard_normal(N).astype(np.float32), "y": rng.standard_normal(N).astype(np.float32)}


def reference(x, y, N):
    return {"z": x + y}
