# gather-numpy.test: `make DIR T V D` writes random ids (the first and the last row among them)
# and a random f32 table; `check DIR T V D` compares y.npy with NumPy's table[ids], bit for bit.
import sys

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
T, V, D = (int(a) for a in sys.argv[3:6])
if mode == "make":
    rng = np.random.default_rng(T * 10007 + V * 101 + D)
    ids = rng.integers(0, V, size=T).astype(np.int32)
    ids[0], ids[-1] = V - 1, 0 if T > 1 else V - 1
    np.save(f"{where}/ids.npy", ids)
    np.save(f"{where}/table.npy", rng.standard_normal((V, D)).astype(np.float32))
    sys.exit(0)
want = np.load(f"{where}/table.npy")[np.load(f"{where}/ids.npy")]
got = np.load(f"{where}/y.npy")
if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
    print(f"y != table[ids] for T = {T}, V = {V}, D = {D}")
    sys.exit(1)
print(f"y == table[ids] for T = {T}, V = {V}, D = {D}")
