# The inputs and hand-computed results of take-along-edges.test. `make DIR` writes the inputs
# (and bad.npy, bad_low.npy: indices of `rows` with one outside [0, 6)); `check DIR KERNEL`
# compares what tilec --run wrote with the values written out below, bit for bit (NaN equal
# to NaN, -0.0 not equal to 0.0).
import sys

import numpy as np

nan, inf = float("nan"), float("inf")
X = [[1.5, -0.0, nan, inf, -inf, 7],
     [10, 11, 12, 13, 14, 15],
     [-1, -2, -3, -4, -5, -6]]
IDX = [[0, 5, 2, 2, 1, 3, 4, 0],     # 0 and 5 (the last valid column), a repeat, NaN, -0.0, +-inf
       [5, 5, 5, 5, 0, 0, 0, 0],     # one column many times
       [3, 1, 4, 1, 5, 0, 2, 5]]
ROWS = {"y": [[1.5, 7, nan, nan, -0.0, inf, -inf, 1.5],
              [15, 15, 15, 15, 10, 10, 10, 10],
              [-4, -2, -5, -2, -6, -1, -3, -6]]}
W = [[0.5, -0.0, nan, 65504, -1.25]]
IDX2 = [[4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 4, 4, 0, 0, 2, 2],
        [0] * 16,
        [4] * 16,
        [2, 1, 2, 1, 3, 3, 4, 0, 1, 1, 1, 1, 2, 3, 4, 0]]
SHARED = {"y": [[-1.25, 65504, nan, -0.0, 0.5, 0.5, -0.0, nan, 65504, -1.25, -1.25, -1.25, 0.5, 0.5, nan, nan],
                [0.5] * 16,
                [-1.25] * 16,
                [nan, -0.0, nan, -0.0, 65504, 65504, -1.25, 0.5, -0.0, -0.0, -0.0, -0.0, nan, 65504, -1.25, 0.5]]}
V = [0.25 * k for k in range(10)]
VI = [9, 0, 9, 3, 3, 7, 1, 8]
FLAT = {"o": [2.25, 0, 2.25, 0.75, 0.75, 1.75, 0.25, 2]}
F = [[1, 2, 3, 4, 5, 6, 7, 8]]
FI = [[7, 6, 5, 4, 3, 2, 1, 0]]
FEW = {"y": [[8, 7, 6, 5, 4, 3, 2, 1]]}


def same(got, want):
    if got.dtype.kind != "f":
        return got == want
    bits = {2: np.uint16, 4: np.uint32}[got.dtype.itemsize]
    return (np.isnan(got) & np.isnan(want)) | (got.view(bits) == want.view(bits))


def check(where, table, dtype):
    for name, want in table.items():
        got, want = np.load(f"{where}/{name}.npy"), np.array(want, dtype=dtype)
        assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape)
        assert same(got, want).all(), f"{name}: got {got.tolist()}, want {want.tolist()}"
    print(sys.argv[3], "matches")


mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    np.save(f"{where}/x.npy", np.array(X, dtype=np.float32))
    np.save(f"{where}/idx.npy", np.array(IDX, dtype=np.int32))
    bad = np.array(IDX, dtype=np.int32)
    bad[1, 2] = 6  # one past the valid columns, inside the 8 of the buffer
    np.save(f"{where}/bad.npy", bad)
    bad[1, 2], bad[2, 7] = 5, -1
    np.save(f"{where}/bad_low.npy", bad)
    np.save(f"{where}/w.npy", np.array(W, dtype=np.float16))
    np.save(f"{where}/idx2.npy", np.array(IDX2, dtype=np.int32))
    np.save(f"{where}/v.npy", np.array(V, dtype=np.float32))
    np.save(f"{where}/vi.npy", np.array(VI, dtype=np.int32))
    np.save(f"{where}/f.npy", np.array(F, dtype=np.float32))
    np.save(f"{where}/fi.npy", np.array(FI, dtype=np.int32))
else:
    kernel = sys.argv[3]
    table, dtype = {"rows": (ROWS, np.float32), "shared": (SHARED, np.float16), "flat": (FLAT, np.float32),
                    "few": (FEW, np.float32)}[kernel]
    check(where, table, dtype)
