# layer_norm_triton.tile: y = (x - mean) / sqrt(var + 1e-5) * w + b over a runtime width N <= 64,
# against f64.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37], "N": [1, 15, 16, 17, 64]}
TOLERANCE = {"y": (2e-5, 2e-6)}


def inputs(rng, M, N):
    return {"x": (rng.standard_normal((M, N)) * 3 + 1).astype(np.float32),
            "w": rng.uniform(0.5, 1.5, (1, N)).astype(np.float32),
            "b": rng.uniform(-1, 1, (1, N)).astype(np.float32)}


def reference(x, w, b, M, N):
    x64 = x.astype(np.float64)
    c = x64 - x64.mean(axis=1, keepdims=True)
    return {"y": c / np.sqrt((c * c).mean(axis=1, keepdims=True) + 1e-5) * w + b}
