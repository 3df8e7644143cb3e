# bitwise_and.tile: y = x1 & x2 on int16 over the whole int16 range, exact.
import numpy as np

SIZES = {"N": [1, 15, 16, 17, 100, 1000]}


def inputs(rng, N):
    return {name: rng.integers(-32768, 32767, N, dtype=np.int16, endpoint=True) for name in ("x1", "x2")}


def reference(x1, x2, N):
    return {"y": x1 & x2}
