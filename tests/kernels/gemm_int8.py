# gemm_int8.tile: c = a @ b in int32 from int8 operands over the full int8 range, exact.
# M, N and K are multiples of 32 (the kernel's blocks).
import numpy as np

SIZES = {"M": [32, 64, 96], "N": [32, 64, 96], "K": [32, 64, 128]}


def inputs(rng, M, N, K):
    return {"a": rng.integers(-128, 128, (M, K), dtype=np.int8),
            "b": rng.integers(-128, 128, (K, N), dtype=np.int8)}


def reference(a, b, M, N, K):
    return {"c": a.astype(np.int32) @ b.astype(np.int32)}
