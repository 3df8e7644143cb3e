# rope_half.tile: rotate-half RoPE of q and k, computed in f32 as the kernel does, each output
# rounded once to f16 (nearest even): exact.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37]}


def inputs(rng, M):
    angle = rng.uniform(0, 2 * np.pi, (M, 32))
    return {"q": rng.standard_normal((M, 64)).astype(np.float16),
            "k": rng.standard_normal((M, 64)).astype(np.float16),
            "cos": np.cos(angle).astype(np.float16), "sin": np.sin(angle).astype(np.float16)}


def rotate(x, c, s):
    x1, x2 = x[:, :32].astype(np.float32), x[:, 32:].astype(np.float32)
    return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=1).astype(np.float16)


def reference(q, k, cos, sin, M):
    c, s = cos.astype(np.float32), sin.astype(np.float32)
    return {"q_out": rotate(q, c, s), "k_out": rotate(k, c, s)}
