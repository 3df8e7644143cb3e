# NumPy's side of scan-numpy.test: `make DIR R C SEED` writes x.npy (f32 [R, 64]) and y.npy
# (f32 [16, C]): small integers and halves, so there are ties, with a few NaN; `check DIR`
# compares what tilec --run wrote with NumPy's accumulate along the same axis, bit for bit:
# np.add.accumulate sums in order in f32, and np.maximum/minimum.accumulate keep a NaN once
# seen, as torch.cumsum, torch.cummax and torch.cummin do.
import sys

import numpy as np


def values(rng, shape):
    v = (rng.integers(-8, 9, shape) / 2 + rng.standard_normal(shape) * (rng.random(shape) < 0.5)).astype(np.float32)
    v[rng.random(shape) < 0.01] = np.nan
    return v


mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    r, c, seed = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    rng = np.random.default_rng(seed)
    np.save(f"{where}/x.npy", values(rng, (r, 64)))
    np.save(f"{where}/y.npy", values(rng, (16, c)))
else:
    x, y = np.load(f"{where}/x.npy"), np.load(f"{where}/y.npy")
    for name, src, axis, ufunc in [("sr", x, 1, np.add), ("mr", x, 1, np.maximum), ("nr", x, 1, np.minimum),
                                   ("sc", y, 0, np.add), ("mc", y, 0, np.maximum), ("nc", y, 0, np.minimum)]:
        got, want = np.load(f"{where}/{name}.npy"), ufunc.accumulate(src, axis=axis, dtype=np.float32)
        assert got.dtype == np.float32 and got.shape == want.shape, (name, got.dtype, got.shape, want.shape)
        bad = np.flatnonzero(~((got == want) | (np.isnan(got) & np.isnan(want))))
        assert bad.size == 0, f"{name}: {bad.size} of {got.size} differ, first at {bad[0]}: {got.flat[bad[0]]} != {want.flat[bad[0]]}"
    print(f"scans match NumPy for R = {x.shape[0]}, C = {y.shape[1]}")
