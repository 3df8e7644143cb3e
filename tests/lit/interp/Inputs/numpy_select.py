# NumPy's side of compare-numpy.test: `make DIR N SEED` writes x.npy and y.npy (f32, N
# elements; every third y equals its x, so ties occur), `check DIR` compares the z.npy
# tilec --run wrote with np.where(x > y, x - y, np.where(x <= -0.25, y, 0.5)) in f32.
import sys

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    n, seed = int(sys.argv[3]), int(sys.argv[4])
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    y[::3] = x[::3]
    np.save(f"{where}/x.npy", x)
    np.save(f"{where}/y.npy", y)
else:
    x, y, z = (np.load(f"{where}/{name}.npy") for name in "xyz")
    want = np.where(x > y, x - y, np.where(x <= np.float32(-0.25), y, np.float32(0.5))).astype(np.float32)
    assert z.dtype == np.float32 and z.shape == want.shape, (z.dtype, z.shape, want.shape)
    bad = np.flatnonzero(z != want)
    assert bad.size == 0, f"{bad.size} of {z.size} elements differ, first at {bad[0]}: {z[bad[0]]} != {want[bad[0]]}"
    print(f"z == where(...) for N = {z.size}")
