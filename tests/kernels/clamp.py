# clamp.tile: output = min(max(input, min_val), max_val) in f16, exact (bounds given as f16 values).
import numpy as np

SIZES = {"S": [1, 15, 16, 17, 300]}


def inputs(rng, S):
    return {"input": ((rng.random(S) - 0.5) * 20000).astype(np.float16), "min_val": -2500.0, "max_val": 7000.0}


def reference(input, min_val, max_val, S):
    return {"output": np.minimum(np.maximum(input, np.float16(min_val)), np.float16(max_val))}
