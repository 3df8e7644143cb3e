# matmul_bias_relu.tile: relu(a @ b + bias) in f32 from f16 operands. The cube core sums
# the products in f32 in its own order, so the comparison allows f32 rounding.
import numpy as np

SIZES = {"M": [16, 17, 33], "N": [32, 15, 64], "K": [32, 40, 96]}
TOLERANCE = {"c": (1e-5, 1e-4)}


def inputs(rng, M, N, K):
    return {"a": rng.uniform(-1, 1, (M, K)).astype(np.float16),
            "b": rng.uniform(-1, 1, (K, N)).astype(np.float16),
            "bias": rng.uniform(-1, 1, (1, N)).astype(np.float32)}


def reference(a, b, bias, M, N, K):
    product = a.astype(np.float32) @ b.astype(np.float32)
    return {"c": np.maximum(product + bias, 0).astype(np.float32)}
