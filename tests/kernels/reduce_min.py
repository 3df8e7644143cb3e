# reduce_min.tile: b = min(a, axis=1), exact.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37]}


def inputs(rng, M):
    return {"a": rng.standard_normal((M, 256)).astype(np.float32)}


def reference(a, M):
    return {"b": a.min(axis=1)}
