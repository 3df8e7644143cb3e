# NumPy's side of bitwise-numpy.test: `make DIR N SEED` writes x.npy and y.npy (i16, N
# elements over the whole i16 range), `check DIR` compares the z.npy tilec --run wrote
# with Inputs/bits_1d.tile's arithmetic done by NumPy in i16 (C's wrapping `<<` and
# arithmetic `>>`).
import sys

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    n, seed = int(sys.argv[3]), int(sys.argv[4])
    rng = np.random.default_rng(seed)
    x = rng.integers(-32768, 32768, n, dtype=np.int16)
    y = rng.integers(-32768, 32768, n, dtype=np.int16)
    np.save(f"{where}/x.npy", x)
    np.save(f"{where}/y.npy", y)
else:
    a, b, z = (np.load(f"{where}/{name}.npy") for name in "xyz")
    c = b & np.int16(15)
    t = (a ^ b) | (a & b)
    u = ~((t << c) ^ (a >> c)) | np.int16(0x0100)
    want = ((u ^ np.int16(0x5A5A)) << np.int16(2)) >> np.int16(1)
    assert want.dtype == np.int16 and z.dtype == np.int16 and z.shape == want.shape, (z.dtype, z.shape, want.shape)
    bad = np.flatnonzero(z != want)
    assert bad.size == 0, f"{bad.size} of {z.size} elements differ, first at {bad[0]}: {z[bad[0]]} != {want[bad[0]]}"
    print(f"z == bitwise(...) for N = {z.size}")
