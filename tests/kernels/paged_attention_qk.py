# paged_attention_qk.tile: per request b, scores[b rows, keys < context_lens[b]] =
# q_b @ K_b^T, K_b the rows of the blocks block_table[b] names, in order; the columns past the
# context stay as the output starts (zeros). Products of f16 values are exact in f32; the
# interpreter rounds the 64-term sums once, so a few f32 ulps from the f64 reference.
import numpy as np

BLOCK_SIZE, Q_TILE, HEAD_DIM, MAX_BLOCKS = 16, 16, 64, 4
SIZES = {"B": [1, 2, 3, 5], "NB": [7, 9, 13, 20]}
TOLERANCE = {"scores": (1e-5, 1e-5)}


def inputs(rng, B, NB):
    # Context lengths from one key to every block full, the block numbers a random draw from the
    # pool that repeats blocks across requests (shared prefixes) and uses the first and last.
    lens = rng.integers(1, MAX_BLOCKS * BLOCK_SIZE + 1, size=B).astype(np.int32)
    lens[0] = MAX_BLOCKS * BLOCK_SIZE
    lens[-1] = 1 if B > 1 else lens[-1]
    table = rng.integers(0, NB, size=(B, MAX_BLOCKS)).astype(np.int32)
    table[0, 0], table[0, -1] = 0, NB - 1
    return {"query": rng.standard_normal((B * Q_TILE, HEAD_DIM)).astype(np.float16),
            "key_cache": rng.standard_normal((NB * BLOCK_SIZE, HEAD_DIM)).astype(np.float16),
            "block_table": table, "context_lens": lens}


def keys(cache, table_row, length):
    rows = np.concatenate([cache[blk * BLOCK_SIZE:(blk + 1) * BLOCK_SIZE] for blk in table_row])
    return rows[:length].astype(np.float64)


def reference(query, key_cache, block_table, context_lens, B, NB):
    scores = np.zeros((B * Q_TILE, MAX_BLOCKS * BLOCK_SIZE))
    for b in range(B):
        n = int(context_lens[b])
        q = query[b * Q_TILE:(b + 1) * Q_TILE].astype(np.float64)
        scores[b * Q_TILE:(b + 1) * Q_TILE, :n] = q @ keys(key_cache, block_table[b], n).T
    return {"scores": scores}
