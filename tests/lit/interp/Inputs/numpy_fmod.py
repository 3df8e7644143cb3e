# NumPy's side of fmod-numpy.test: `make DIR N SEED` writes x.npy and y.npy (f32, N elements:
# magnitudes from 1e-3 to 1e6 of both signs, so quotients reach past 2^24, with zeros, -0.0,
# infinities and NaN among them); `check DIR` compares r, rs and lr, which tilec --run wrote
# for Inputs/fmod_1d.tile, with np.fmod and np.where in f32: the same NaNs, every other
# element bit for bit.
import sys

import numpy as np


def values(rng, n):
    v = (10.0 ** rng.uniform(-3, 6, n) * rng.choice([-1.0, 1.0], n)).astype(np.float32)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float32)
    at = rng.random(n) < 0.1
    v[at] = rng.choice(specials, int(at.sum()))
    return v


def same(name, got, want):
    nan = np.isnan(want)
    bad = np.flatnonzero((np.isnan(got) != nan) | (~nan & (got.view(np.uint32) != want.view(np.uint32))))
    assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape)
    assert bad.size == 0, f"{name}: {bad.size} of {got.size} differ, first at {bad[0]}: {got[bad[0]]} != {want[bad[0]]}"


mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    n, seed = int(sys.argv[3]), int(sys.argv[4])
    rng = np.random.default_rng(seed)
    np.save(f"{where}/x.npy", values(rng, n))
    np.save(f"{where}/y.npy", values(rng, n))
else:
    x, y = np.load(f"{where}/x.npy"), np.load(f"{where}/y.npy")
    with np.errstate(all="ignore"):
        same("r", np.load(f"{where}/r.npy"), np.fmod(x, y))
        same("rs", np.load(f"{where}/rs.npy"), np.fmod(x, np.float32(0.375)))
        same("lr", np.load(f"{where}/lr.npy"), np.where(x > 0, x, x * np.float32(0.1)))
    print(f"r, rs, lr == np.fmod, np.where for N = {x.size}")
