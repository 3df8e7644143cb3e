# The inputs and hand-computed results of compare-edges.test. `make DIR` writes x.npy and
# y.npy (f32 [4, 32]: each row eight columns of ties, NaN, signed zeros and infinities,
# four times) and w.npy (i8 [1, 32] around the wrap); `check DIR KERNEL` compares what
# tilec --run wrote with the values written out below, bit for bit.
import sys

import numpy as np

NAN, INF = float("nan"), float("inf")
X = [1.0, 2.0, NAN, NAN, -0.0, INF, -INF, 3.0]
Y = [1.0, 3.0, 1.0, NAN, 0.0, INF, 1.0, 2.0]
# x op y per column: IEEE, so NaN is unordered (only != holds) and -0.0 == 0.0.
PREDICATES = {
    "lt": [0, 1, 0, 0, 0, 0, 1, 0],
    "le": [1, 1, 0, 0, 1, 1, 1, 0],
    "gt": [0, 0, 0, 0, 0, 0, 0, 1],
    "ge": [1, 0, 0, 0, 1, 1, 0, 1],
    "eq": [1, 0, 0, 0, 1, 1, 0, 0],
    "ne": [0, 1, 1, 1, 0, 0, 1, 1],
    "nonpositive": [0, 0, 0, 0, 1, 0, 1, 0],  # 0.0 >= x
}
# where(x > y, x, y): y wherever x > y fails, so NaN stays NaN only from y, and the tie
# of -0.0 and 0.0 gives y's +0.0.
PARTIAL = [1.0, 3.0, 1.0, NAN, 0.0, INF, 1.0, 3.0]
W = [-128, -1, 0, 99, 100, 127, 64, -65]
# where(w < 100, w + w, w) in i8, two's complement: -256 -> 0, 198 -> -58, 128 -> -128.
WRAP = [0, -2, 0, -58, 100, 127, -128, 126]


def tiled(row, rows):
    return np.array([row * 4] * rows, dtype=np.float32)


def same_bits(got, want, name):
    assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape, want.shape)
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), f"{name}: {got.ravel()[:8]} != {want.ravel()[:8]}"
    print(f"{name} matches")


mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    np.save(f"{where}/x.npy", tiled(X, 4))
    np.save(f"{where}/y.npy", tiled(Y, 4))
    np.save(f"{where}/w.npy", np.array([W * 4], dtype=np.int8))
elif sys.argv[3] == "predicates":
    for name, row in PREDICATES.items():
        same_bits(np.load(f"{where}/{name}.npy"), tiled(row, 4), name)
elif sys.argv[3] == "partial":
    same_bits(np.load(f"{where}/z.npy"), np.ascontiguousarray(tiled(PARTIAL, 3)[:, :20]), "partial")
else:
    same_bits(np.load(f"{where}/z.npy"), np.array([WRAP * 4], dtype=np.int8), "wrap")
