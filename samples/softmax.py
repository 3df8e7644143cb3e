# softmax.tile: the row softmax of x against NumPy's in f64. The largest size (the one run.py
# also runs at --blocks=1, 3 and 24) has 7 steps of 16 rows, the last with 4: a tail, and
# more steps than 3 blocks.
import numpy as np

SIZES = {"M": [100, 1, 16, 17, 64]}
TOLERANCE = {"y": (1e-5, 1e-7)}


def inputs(rng, M):
    return {"x": rng.uniform(-4, 4, (M, 128)).astype(np.float32)}


def reference(x, M):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"y": (e / e.sum(axis=1, keepdims=True)).astype(np.float32)}
