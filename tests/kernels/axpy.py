# axpy.tile: b = b + 2 a, in place; exact in f32.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37], "N": [1, 15, 64, 65, 100]}


def inputs(rng, M, N):
    return {name: rng.standard_normal((M, N)).astype(np.float32) for name in "ab"}


def reference(a, b, M, N):
    return {"b": b + a * np.float32(2.0)}
