# gemm_int8_dequant.tile: f16(f32(a @ b) * scale) with the int32 product exact, then one
# f32 multiply and a round to nearest even, so the result is compared bit for bit.
import numpy as np

SIZES = {"M": [16, 17, 33], "N": [32, 15, 64], "K": [32, 40, 96]}


def inputs(rng, M, N, K):
    return {"a": rng.integers(-128, 128, (M, K), dtype=np.int8),
            "b": rng.integers(-128, 128, (K, N), dtype=np.int8),
            "scale": rng.uniform(1e-4, 1e-2, (1, N)).astype(np.float32)}


def reference(a, b, scale, M, N, K):
    product = (a.astype(np.int32) @ b.astype(np.int32)).astype(np.float32)
    return {"c": (product * scale).astype(np.float16)}
