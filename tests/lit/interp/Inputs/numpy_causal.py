# NumPy's side of triangular-numpy.test: `make DIR N SEED` writes s.npy (f32 [N, 32]),
# `check DIR` compares the p.npy tilec --run wrote with np.where(np.tril(ones) > 0.5, s, -1000).
import sys

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    n, seed = int(sys.argv[3]), int(sys.argv[4])
    np.save(f"{where}/s.npy", np.random.default_rng(seed).standard_normal((n, 32)).astype(np.float32))
else:
    s, p = np.load(f"{where}/s.npy"), np.load(f"{where}/p.npy")
    want = np.where(np.tril(np.ones(s.shape, dtype=np.float32)) > 0.5, s, np.float32(-1000)).astype(np.float32)
    assert p.dtype == np.float32 and p.shape == want.shape, (p.dtype, p.shape, want.shape)
    bad = np.flatnonzero(p != want)
    assert bad.size == 0, f"{bad.size} of {p.size} elements differ, first at {bad[0]}"
    print(f"p == causal(s) for N = {s.shape[0]}")
