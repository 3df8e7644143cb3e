# NumPy's side of oned-numpy.test: `make DIR N SEED` writes x.npy and y.npy (f32, N
# elements, values that make every sum round), `check DIR` compares the z.npy tilec --run
# wrote with NumPy's f32 x + y, element for element.
import sys

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    n, seed = int(sys.argv[3]), int(sys.argv[4])
    rng = np.random.default_rng(seed)
    np.save(f"{where}/x.npy", (rng.standard_normal(n) * 1000).astype(np.float32))
    np.save(f"{where}/y.npy", (rng.standard_normal(n) / 3).astype(np.float32))
else:
    x, y, z = (np.load(f"{where}/{name}.npy") for name in "xyz")
    want = x + y
    assert z.dtype == np.float32 and z.shape == want.shape, (z.dtype, z.shape, want.shape)
    bad = np.flatnonzero(z != want)
    assert bad.size == 0, f"{bad.size} of {z.size} elements differ, first at {bad[0]}: {z[bad[0]]} != {want[bad[0]]}"
    print(f"z == x + y for N = {z.size}")
