# flash_attention.tile: softmax(Q K^T / 8) V for L queries over S keys, against the plain
# (not online) formula in f64. The kernel rounds P to f16 before P V, as flash attention
# kernels on Ascend do, so the tolerance is f16's. The largest size combination (the one run.py
# also runs at --blocks=1, 3 and 24) has 4 query blocks and S = 300 (a last block of 44 keys).
import numpy as np

SIZES = {"L": [256, 64, 128], "S": [64, 300, 1024, 17]}
TOLERANCE = {"o": (5e-3, 2e-3)}


def inputs(rng, L, S):
    return {"q": rng.uniform(-1, 1, (L, 64)).astype(np.float16),
            "k": rng.uniform(-1, 1, (S, 64)).astype(np.float16),
            "v": rng.uniform(-1, 1, (S, 64)).astype(np.float16)}


def reference(q, k, v, L, S):
    s = q.astype(np.float64) @ k.astype(np.float64).T / 8.0
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return {"o": ((p @ v.astype(np.float64)) / p.sum(axis=1, keepdims=True)).astype(np.float32)}
