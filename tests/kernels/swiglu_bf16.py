# swiglu_bf16.tile: y = bf16(x / (1 + exp(-x)) * gate) computed in f32 from bf16 inputs (given
# as f32 arrays of bf16 values: tilec rounds them to bf16, exactly). exp may
# differ from NumPy's in the last f32 bit, which can move the bf16 rounding by one unit
# (2^-8 relative): the tolerance is one bf16 unit.
import numpy as np

from run import from_bf16, to_bf16

SIZES = {"M": [1, 15, 16, 17, 37], "N": [1, 15, 64, 65, 100]}
TOLERANCE = {"y": (2**-7, 1e-30)}


def inputs(rng, M, N):
    return {name: from_bf16(to_bf16(rng.standard_normal((M, N)) * 3)) for name in ("x", "gate")}


def reference(x, gate, M, N):
    y = x / (np.exp(-x) + np.float32(1)) * gate
    return {"y": from_bf16(to_bf16(y))}
