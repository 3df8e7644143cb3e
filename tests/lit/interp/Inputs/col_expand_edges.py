# col-expand-edges.test's inputs and hand-computed results: `make DIR` writes the inputs,
# `check DIR floats|bytes` compares tilec --run's outputs with the values written out below
# (not computed by NumPy): NaN where either operand is NaN, the sign of zero kept, i8
# wrapping around like the hardware.
import sys

import numpy as np

nan, inf = np.nan, np.inf
X = [[1, -2, nan, inf, 0, 5, -0.0, 3], [4, 8, 1, 2, -3, nan, 7, -1]]
W = [[2, 0, 1, -inf, nan, -1, 1, 0.5]]
MUL = [[2, -0.0, nan, -inf, nan, -5, -0.0, 1.5], [8, 0, 1, -inf, nan, nan, 7, -0.5]]
MAX = [[2, 0, nan, inf, nan, 5, 1, 3], [4, 8, 1, 2, nan, nan, 7, 0.5]]
XB = [[100, -128, 127, 5] * 8, [-100, 64, 1, 0] * 8]
WB = [[3, 1, 2, -2] * 8]
MULB = [[44, -128, -2, -10] * 8, [-44, 64, 2, 0] * 8]  # 300, 254 and -300 wrap
SUBB = [[97, 127, 125, 7] * 8, [-103, 63, -1, 2] * 8]  # -128 - 1 wraps

mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    np.save(f"{where}/xf.npy", np.array(X, np.float32))
    np.save(f"{where}/wf.npy", np.array(W, np.float32))
    np.save(f"{where}/xb.npy", np.array(XB, np.int8))
    np.save(f"{where}/wb.npy", np.array(WB, np.int8))
    sys.exit(0)
kernel = sys.argv[3]
want = {"mul": MUL, "mx": MAX} if kernel == "floats" else {"mul": MULB, "sub": SUBB}
for name, values in want.items():
    z = np.load(f"{where}/{name}.npy")
    w = np.array(values, z.dtype)
    same = np.array_equal(z, w, equal_nan=True) and np.all((np.signbit(z) == np.signbit(w)) | np.isnan(w))
    assert same, f"{kernel} {name}: {z.tolist()} != {w.tolist()}"
print(f"{kernel}: as computed by hand")
