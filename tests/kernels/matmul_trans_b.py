# matmul_trans_b.tile: c = a @ b.T in f32 (the interpreter sums exactly, rounds once), against f64.
import numpy as np

TOLERANCE = {"c": (1e-6, 1e-6)}


def inputs(rng):
    return {name: rng.standard_normal((64, 64)).astype(np.float32) for name in "ab"}


def reference(a, b):
    return {"c": a.astype(np.float64) @ b.astype(np.float64).T}
