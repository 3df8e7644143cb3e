# The inputs and hand-computed results of scan-edges.test. `make DIR` writes x.npy (f32
# [3, 8] with NaN and +-inf), w.npy (i8 [3, 32]) and t.npy (f32 [8, 8]); `check DIR KERNEL`
# compares what tilec --run wrote with the values written out below, bit for bit (NaN
# equal to NaN).
import sys

import numpy as np

nan, inf = float("nan"), float("inf")
X = [[3, 1, 5, -2, -2, 7, nan, 0],
     [1, -inf, 2, inf, 0, -1, 5, 5],
     [0.5, 0.25, 1, -1, 2, 2, -0.75, 4]]
# Along each row: a NaN stays from where it is seen (torch's cummax and cummin too);
# -inf + inf is NaN.
FLOATS = {
    "sr": [[3, 4, 9, 7, 5, 12, nan, nan],
           [1, -inf, -inf, nan, nan, nan, nan, nan],
           [0.5, 0.75, 1.75, 0.75, 2.75, 4.75, 4, 8]],
    "mr": [[3, 3, 5, 5, 5, 7, nan, nan],
           [1, 1, 2, inf, inf, inf, inf, inf],
           [0.5, 0.5, 1, 1, 2, 2, 2, 4]],
    "nr": [[3, 1, 1, -2, -2, -2, nan, nan],
           [1, -inf, -inf, -inf, -inf, -inf, -inf, -inf],
           [0.5, 0.25, 0.25, -1, -1, -1, -1, -1]],
    # Down each column.
    "sc": [[3, 1, 5, -2, -2, 7, nan, 0],
           [4, -inf, 7, inf, -2, 6, nan, 5],
           [4.5, -inf, 8, inf, 0, 8, nan, 9]],
    "mc": [[3, 1, 5, -2, -2, 7, nan, 0],
           [3, 1, 5, inf, 0, 7, nan, 5],
           [3, 1, 5, inf, 2, 7, nan, 5]],
    "nc": [[3, 1, 5, -2, -2, 7, nan, 0],
           [1, -inf, 2, -2, -2, -1, nan, 0],
           [0.5, -inf, 1, -2, -2, -1, nan, 0]],
}
W = [[100, -100, 127, -128, 1, -1, 0, 64],
     [100, -100, 1, -1, 127, -128, 0, 64],
     [100, -100, 0, 0, 0, -1, -1, 64]]
# i8 two's complement: 200 is -56, 300 is 44, -200 is 56, -300 is -44, 128 is -128.
WRAP = {
    "s": [[100, -100, 127, -128, 1, -1, 0, 64],
          [-56, 56, -128, 127, -128, 127, 0, -128],
          [44, -44, -128, 127, -128, 126, -1, -64]],
    "m": [[100, -100, 127, -128, 1, -1, 0, 64],
          [100, -100, 127, -1, 127, -1, 0, 64],
          [100, -100, 127, 0, 127, -1, 0, 64]],
    "n": [[100, -100, 127, -128, 1, -1, 0, 64],
          [100, -100, 1, -128, 1, -128, 0, 64],
          [100, -100, 0, -128, 0, -128, -1, 64]],
}
T = np.arange(64, dtype=np.float32).reshape(8, 8) / 4
THIN = {
    "row": [[0, 0.25, 0.75, 1.5, 2.5, 3.75, 5.25, 7]],
    "col": [[0], [2], [6], [12], [20], [30], [42], [56]],
    "same": [[0], [2], [4], [6], [8], [10], [12], [14]],
}


def check(where, table, dtype, tiles):
    for name, want in table.items():
        got, want = np.load(f"{where}/{name}.npy"), np.array(want * tiles, dtype=dtype)
        assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape)
        same = (got == want) | (np.isnan(got) & np.isnan(want)) if dtype == np.float32 else got == want
        assert same.all(), f"{name}: got {got.tolist()}, want {want.tolist()}"
    print(sys.argv[3], "matches")


mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    np.save(f"{where}/x.npy", np.array(X, dtype=np.float32))
    np.save(f"{where}/w.npy", np.tile(np.array(W, dtype=np.int8), (1, 4)))
    np.save(f"{where}/t.npy", T)
elif sys.argv[3] == "floats":
    check(where, FLOATS, np.float32, 1)
elif sys.argv[3] == "wrap":
    for name in WRAP:  # four copies of the eight columns side by side
        WRAP[name] = [row * 4 for row in WRAP[name]]
    check(where, WRAP, np.int8, 1)
else:
    check(where, THIN, np.float32, 1)
