# paged_attention_pv.tile: per request b, out[b rows] = P_b[:, :n] @ V_b[:n], n = context_lens[b],
# V_b the rows of the blocks block_table[b] names, in order; P rows are softmax rows (positive,
# summing to 1 over the context) in f16. Products of f16 values are exact in f32; the
# interpreter rounds each block's sum and then the running sum, a few f32 ulps from f64.
import numpy as np

BLOCK_SIZE, Q_TILE, HEAD_DIM, MAX_BLOCKS = 16, 16, 64, 4
SIZES = {"B": [1, 2, 3, 5], "NB": [7, 9, 13, 20]}
TOLERANCE = {"output": (1e-5, 1e-6)}


def inputs(rng, B, NB):
    lens = rng.integers(1, MAX_BLOCKS * BLOCK_SIZE + 1, size=B).astype(np.int32)
    lens[0] = MAX_BLOCKS * BLOCK_SIZE
    lens[-1] = 1 if B > 1 else lens[-1]
    table = rng.integers(0, NB, size=(B, MAX_BLOCKS)).astype(np.int32)
    table[0, 0], table[0, -1] = 0, NB - 1
    probs = np.zeros((B * Q_TILE, MAX_BLOCKS * BLOCK_SIZE), np.float32)
    for b in range(B):
        e = np.exp(rng.standard_normal((Q_TILE, int(lens[b]))))
        probs[b * Q_TILE:(b + 1) * Q_TILE, :lens[b]] = e / e.sum(axis=1, keepdims=True)
    return {"probs": probs.astype(np.float16),
            "value_cache": rng.standard_normal((NB * BLOCK_SIZE, HEAD_DIM)).astype(np.float16),
            "block_table": table, "context_lens": lens}


def reference(probs, value_cache, block_table, context_lens, B, NB):
    out = np.zeros((B * Q_TILE, HEAD_DIM))
    for b in range(B):
        n = int(context_lens[b])
        v = np.concatenate([value_cache[blk * BLOCK_SIZE:(blk + 1) * BLOCK_SIZE] for blk in block_table[b]])
        p = probs[b * Q_TILE:(b + 1) * Q_TILE, :n].astype(np.float64)
        out[b * Q_TILE:(b + 1) * Q_TILE] = p @ v[:n].astype(np.float64)
    return {"output": out}
