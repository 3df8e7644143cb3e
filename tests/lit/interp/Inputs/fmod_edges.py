# The inputs and hand-computed results of fmod-edges.test. `make DIR` writes the inputs of
# Inputs/fmod_edges.tile's kernels; `check DIR KERNEL` compares what tilec --run wrote with the
# values written out below: the same NaNs, every other element bit for bit (so -0.0 is not 0.0).
import sys

import numpy as np

inf, nan = float("inf"), float("nan")
H = 1638 / 16384  # 0.1 in f16: 0.0999755859375
U = 1 / 16384     # 2^-14, f16's smallest normal; the f16 results below are multiples of it

A32 = [5.5, -5.5, 5.5, -5.5, 1, inf, -inf, 3, -3, nan, 0.0, -0.0, -6, 1e10, 7.25, -0.75]
B32 = [2, 2, -2, -2, 0, 3, 3, inf, inf, 1, nan, 1, 3, 3, 0.5, 0.25]
EDGES32 = {
    # C's fmod: the dividend's sign; x fmod 0, inf fmod y and NaN are NaN; x fmod inf is x;
    # 1e10 fmod 3 is 1 (1e10 is an f32 integer; 1e10 / 3 rounded would lose the 1).
    "r": [1.5, -1.5, 1.5, -1.5, nan, nan, nan, 3, -3, nan, nan, -0.0, -0.0, 1, 0.25, -0.0],
    "rs": [0.5, -0.5, 0.5, -0.5, 1, nan, nan, 0.5, -0.5, nan, 0.0, -0.0, -1, 0.0, 2.25, -0.75],
    # lrelu: x where x > 0, else x * slope; so 0 * -0.5 is -0.0 and -0.0 * -0.5 is 0.0.
    "lr": [5.5, -1.375, 5.5, -1.375, 1, inf, -inf, 3, -0.75, nan, 0.0, -0.0, -1.5, 1e10, 7.25, -0.1875],
    "ln": [5.5, 2.75, 5.5, 2.75, 1, inf, inf, 3, 1.5, nan, -0.0, 0.0, 3, 1e10, 7.25, 0.375],
}
A16 = [1, -1, 0.5, 3, -3, 65504, -0.0, inf, nan, 0.25, -0.25, 2, H, -H, U, 1000]
EDGES16 = {
    # fmod by 0.1 rounded to f16 (H): 1 - 10 H = 4 U; 65504 = 655199 H + 1574 U.
    "rs": [4 * U, -4 * U, 2 * U, 12 * U, -12 * U, 1574 * U, -0.0, nan, nan, 820 * U, -820 * U, 8 * U, 0.0, -0.0, U,
           724 * U],
    # lrelu by H, the product rounded to f16: -3 H = -1228.5 * 4 U rounds to even, -1228 * 4 U;
    # -H * H = -1310.08 * 2^-17 rounds to -1310 * 2^-17.
    "lr": [1, -H, 0.5, 3, -4912 * U, 65504, -0.0, inf, nan, 0.25, -0.25 * H, 2, H, -1310 * 2.0**-17, U, 1000],
}
A16I = [7, -7, 7, -7, -32768, -32768, 32767, 0, 5, -1, 32767, -32768, 100, -100, 1, -1]
B16I = [2, 2, -2, -2, -1, 32767, -32768, 5, 7, 3, 1, 1, -7, 7, -32768, 32767]
INTS16 = {  # C's %: truncated, the dividend's sign; MIN % -1 is 0
    "r": [1, -1, 1, -1, 0, -1, 32767, 0, 5, -1, 0, 0, 2, -2, 1, -1],
    "r3": [1, -1, 1, -1, -2, -2, 1, 0, 2, -1, 1, -2, 1, -1, 1, -1],
    "rm": [0] * 16,
}
A32I = [2147483647, -2147483648, -2147483648, 2147483647, -7, 7, 0, -2147483648]
B32I = [-1, -1, 2147483647, -2147483648, 3, -3, -5, 2]
INTS32 = {
    "r": [0, 0, -1, 2147483647, -1, 1, 0, 0],
    "r3": [1, -2, -2, 1, -1, 1, 0, -2],
}
KERNELS = {
    "edges32": (EDGES32, np.float32),
    "edges16": (EDGES16, np.float16),
    "ints16": (INTS16, np.int16),
    "ints32": (INTS32, np.int32),
}


def row(values, dtype):
    return np.array([values], dtype=dtype)


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype.kind != "f":
        return np.array_equal(got, want)
    nan = np.isnan(want)
    return np.array_equal(np.isnan(got), nan) and got[~nan].tobytes() == want[~nan].tobytes()


mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    np.save(f"{where}/a32.npy", row(A32, np.float32))
    np.save(f"{where}/b32.npy", row(B32, np.float32))
    np.save(f"{where}/a16.npy", row(A16, np.float16))
    np.save(f"{where}/a16i.npy", row(A16I, np.int16))
    np.save(f"{where}/b16i.npy", row(B16I, np.int16))
    np.save(f"{where}/a32i.npy", row(A32I, np.int32))
    np.save(f"{where}/b32i.npy", row(B32I, np.int32))
    np.save(f"{where}/zero.npy", row([1, 2, 0, 4, 5, 6, 7, 8], np.int32))
else:
    kernel = sys.argv[3]
    expected, dtype = KERNELS[kernel]
    for name, values in expected.items():
        got, want = np.load(f"{where}/{name}.npy"), row(values, dtype)
        assert same(got, want), f"{kernel} {name}: {got[0]} != {want[0]}"
    print(f"{kernel} matches")
