# dequant.tile: b = f16(f32(a) * scale), each step rounded to nearest even as NumPy does: exact.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37], "N": [1, 15, 16, 17, 37]}


def inputs(rng, M, N):
    return {"a": rng.integers(-100000, 100000, (M, N), dtype=np.int32), "scale": 0.0078125}


def reference(a, scale, M, N):
    return {"b": (a.astype(np.float32) * np.float32(scale)).astype(np.float16)}
