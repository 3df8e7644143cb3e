# The inputs and hand-computed results of bitwise-edges.test. `make DIR` writes x.npy and
# c.npy (i8 [1, 32]: eight values around the wrap and eight counts, four times), u.npy
# (u16 [1, 32]) and the i16 t.npy and k.npy (k holds a count of 16); `check DIR KERNEL`
# compares what tilec --run wrote with the values written out below, bit for bit.
import sys

import numpy as np

X = [-128, -1, 0, 1, 64, 127, -65, 85]
C = [0, 7, 1, 7, 1, 1, 3, 2]
# In i8, two's complement: << drops the bits shifted out, >> copies the sign bit in.
EDGES8 = {
    "shl1": [0, -2, 0, 2, -128, -2, 126, -86],      # -256 -> 0, 128 -> -128, 254 -> -2, -130 -> 126, 170 -> -86
    "shr7": [-1, -1, 0, 0, 0, 0, -1, 0],
    "inv": [127, 0, -1, -2, -65, -128, 64, -86],
    "flip": [0, 127, -128, -127, -64, -1, 63, -43],  # 0x80 ^ each
    "shl": [-128, -128, 0, -128, -128, -2, -8, 84],  # 0xff << 7 -> 0x80, -65 << 3 = -520 -> -8, 340 -> 84
    "shr": [-128, -1, 0, 0, 32, 63, -9, 21],         # -65 >> 3 = -9 (rounds down)
}
U = [65535, 32768, 1, 32769, 0, 255, 4096, 43690]
LOGICAL = {
    "shr15": [1, 1, 0, 1, 0, 0, 0, 1],
    "inv": [0, 32767, 65534, 32766, 65535, 65280, 61439, 21845],
}


def tiled(row, dtype):
    return np.array([row * 4], dtype=dtype)


mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    np.save(f"{where}/x.npy", tiled(X, np.int8))
    np.save(f"{where}/c.npy", tiled(C, np.int8))
    np.save(f"{where}/u.npy", tiled(U, np.uint16))
    np.save(f"{where}/t.npy", tiled([1] * 8, np.int16))
    np.save(f"{where}/k.npy", tiled([0, 1, 2, 15, 16, 3, 4, 5], np.int16))
else:
    kernel = sys.argv[3]
    expected, dtype = (EDGES8, np.int8) if kernel == "edges8" else (LOGICAL, np.uint16)
    for name, row in expected.items():
        got, want = np.load(f"{where}/{name}.npy"), tiled(row, dtype)
        assert got.dtype == want.dtype and np.array_equal(got, want), f"{kernel} {name}: {got[0, :8]} != {row}"
    print(f"{kernel} matches")
