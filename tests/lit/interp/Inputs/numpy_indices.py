# NumPy's side of indices-numpy.test.
#   make DIR R C SEED   writes x.npy: f32 [R, C] of small integers, so that rows and columns
#                       hold ties (the first index must win, as in numpy.argmax)
#   rows DIR            mx.npy/mn.npy == argmax/argmin of x along axis 1, as [R, 1] i32
#   cols DIR            mx.npy/mn.npy == argmax/argmin of x along axis 0, as [1, C] i32
#   ramp DIR N          up.npy == arange(N), down.npy == arange(N)[::-1], i32
import sys

import numpy as np


def same(name, got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape, want.shape)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{name}: {bad.size} of {got.size} differ, first at {bad[0]}: {got.flat[bad[0]]} != {want.flat[bad[0]]}"


mode, where = sys.argv[1], sys.argv[2]
load = lambda name: np.load(f"{where}/{name}.npy")
if mode == "make":
    r, c, seed = (int(a) for a in sys.argv[3:6])
    rng = np.random.default_rng(seed)
    np.save(f"{where}/x.npy", rng.integers(-4, 5, size=(r, c)).astype(np.float32))
elif mode in ("rows", "cols"):
    x = load("x")
    axis = 1 if mode == "rows" else 0
    for name, f in (("mx", np.argmax), ("mn", np.argmin)):
        same(name, load(name), np.expand_dims(f(x, axis=axis), axis).astype(np.int32))
    print(f"{mode}: argmax and argmin of [{x.shape[0]}, {x.shape[1]}] match numpy")
else:
    n = int(sys.argv[3])
    same("up", load("up"), np.arange(n, dtype=np.int32))
    same("down", load("down"), np.arange(n, dtype=np.int32)[::-1])
    print(f"ramp: arange({n}) up and down match numpy")
