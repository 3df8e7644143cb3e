# rope_interleaved.tile: interleaved RoPE of q and k, computed in f32 as the kernel does (each
# column's pair j ^ 1 gathered, sin times [-1, 1, -1, 1, ...]), each output rounded once to f16
# (nearest even): exact.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37]}


def inputs(rng, M):
    angle = np.repeat(rng.uniform(0, 2 * np.pi, (M, 32)), 2, axis=1)  # each angle in 2i and 2i + 1
    return {"q": rng.standard_normal((M, 64)).astype(np.float16),
            "k": rng.standard_normal((M, 64)).astype(np.float16),
            "cos": np.cos(angle).astype(np.float16), "sin": np.sin(angle).astype(np.float16)}


def rotate(x, c, s):
    x = x.astype(np.float32)
    partner = np.arange(64) ^ 1
    sign = np.where(np.arange(64) % 2 == 0, -1, 1).astype(np.float32)
    return (x * c + x[:, partner] * (s * sign)).astype(np.float16)


def reference(q, k, cos, sin, M):
    c, s = cos.astype(np.float32), sin.astype(np.float32)
    return {"q_out": rotate(q, c, s), "k_out": rotate(k, c, s)}
