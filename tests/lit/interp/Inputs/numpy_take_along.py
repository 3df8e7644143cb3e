# NumPy's side of take-along-numpy.test: `make DIR R SEED` writes x.npy (f32 [R, 64] with NaN
# and -0.0), w.npy (f16 [1, 64]) and idx.npy (i32 [R, 48], columns 0 to 63, repeats
# included); `check DIR` compares what tilec --run wrote with np.take_along_axis along the
# last axis (w's one row broadcast to every index row), bit for bit.
import sys

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    r, seed = int(sys.argv[3]), int(sys.argv[4])
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((r, 64)).astype(np.float32)
    x[rng.random((r, 64)) < 0.02] = np.nan
    x[rng.random((r, 64)) < 0.02] = -0.0
    np.save(f"{where}/x.npy", x)
    np.save(f"{where}/w.npy", rng.standard_normal((1, 64)).astype(np.float16))
    np.save(f"{where}/idx.npy", rng.integers(0, 64, (r, 48)).astype(np.int32))
else:
    x, w, idx = np.load(f"{where}/x.npy"), np.load(f"{where}/w.npy"), np.load(f"{where}/idx.npy")
    for name, want in [("y", np.take_along_axis(x, idx, axis=-1)),
                       ("z", np.take_along_axis(np.broadcast_to(w, (idx.shape[0], 64)), idx, axis=-1))]:
        got = np.load(f"{where}/{name}.npy")
        assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape, want.shape)
        bits = {2: np.uint16, 4: np.uint32}[got.dtype.itemsize]
        bad = np.flatnonzero(~((got.view(bits) == want.view(bits)) | (np.isnan(got) & np.isnan(want))))
        assert bad.size == 0, f"{name}: {bad.size} of {got.size} differ, first at {bad[0]}: {got.flat[bad[0]]} != {want.flat[bad[0]]}"
    print(f"gathers match NumPy for R = {x.shape[0]}")
