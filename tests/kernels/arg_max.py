# arg_max.tile: y = argmax(x, axis=1) as i32, exact. Inputs are small integers, so rows have
# ties, whose first index wins (no NaN: row_argmax skips NaN where numpy.argmax returns it,
# docs/language.md). R <= 32 and C <= 64 (the kernel's one tile).
import numpy as np

SIZES = {"R": [1, 15, 16, 17, 32], "C": [1, 15, 16, 17, 64]}


def inputs(rng, R, C):
    return {"x": rng.integers(-4, 5, size=(R, C)).astype(np.float32)}


def reference(x, R, C):
    return {"y": x.argmax(axis=1).astype(np.int32).reshape(R, 1)}
