# embedding.tile: out[t] = weight[ids[t]], a copy, so exact. The ids cover the first and the
# last row and repeat some rows (a vocabulary smaller than the tokens for T = 37).
import numpy as np

SIZES = {"T": [1, 15, 16, 17, 37], "V": [1, 15, 16, 17, 5], "D": [1, 15, 64, 65, 100]}


def inputs(rng, T, V, D):
    ids = rng.integers(0, V, size=T).astype(np.int32)
    ids[0] = V - 1
    ids[-1] = 0
    return {"ids": ids, "weight": rng.standard_normal((V, D)).astype(np.float32)}


def reference(ids, weight, T, V, D):
    return {"output": weight[ids]}
