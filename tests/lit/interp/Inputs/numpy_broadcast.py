# NumPy's side of broadcast-numpy.test: `make DIR R N SEED` writes x.npy [R, N] and g.npy,
# b.npy [1, N] (f32; g has no zeros, x has a NaN when it has room for one); `check DIR
# KERNEL` compares the outputs tilec --run wrote with NumPy's broadcasting of the same
# expressions: bit for bit where the arithmetic is exact (forms), within 1e-4 relative for
# layernorm (its sums and square roots round in another order, in f32).
import sys

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    r, n, seed = (int(a) for a in sys.argv[3:6])
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((r, n)) * 10).astype(np.float32)
    if r * n > 4:
        x[r // 2, n // 2] = np.nan
    g = (rng.uniform(0.5, 2.0, (1, n)) * rng.choice([-1, 1], (1, n))).astype(np.float32)
    np.save(f"{where}/x.npy", x)
    np.save(f"{where}/g.npy", g)
    np.save(f"{where}/b.npy", rng.standard_normal((1, n)).astype(np.float32))
    sys.exit(0)

kernel = sys.argv[3]
x, g, b = (np.load(f"{where}/{name}.npy") for name in "xgb")
with np.errstate(invalid="ignore"):
    m = np.max(x, axis=1, keepdims=True)  # NaN in a row with a NaN, as row_max gives
    if kernel == "forms":
        want = {"mul": g * x, "rsub": g - x, "div": x / g, "mx": np.maximum(g, x), "mn": np.minimum(x, g),
                "csub": x - m, "cadd": m + x}
    else:
        d = x.astype(np.float64) - np.mean(x, axis=1, keepdims=True, dtype=np.float64)
        var = np.mean(d * d, axis=1, keepdims=True)
        want = {"y": (d / np.sqrt(var + 1e-5) * g + b).astype(np.float32)}
for name, w in want.items():
    z = np.load(f"{where}/{name}.npy")
    assert z.dtype == np.float32 and z.shape == w.shape, (name, z.dtype, z.shape, w.shape)
    same = (z == w) | (np.isnan(z) & np.isnan(w))
    if kernel != "forms":
        same |= np.isclose(z, w, rtol=1e-4, atol=1e-4)
    bad = np.flatnonzero(~same)
    assert bad.size == 0, f"{name}: {bad.size} of {z.size} differ, first at {bad[0]}: {z.flat[bad[0]]} != {w.flat[bad[0]]}"
print(f"{kernel} == NumPy for R, N = {x.shape[0]}, {x.shape[1]}")
