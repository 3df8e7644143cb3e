# NumPy's side of topk-numpy.test.
#   make DIR R C SEED   writes x.npy: f32 [R, C] of small integers (rows full of ties) with
#                       about one element in eight -inf
#   rows DIR K          v.npy/ix.npy == the K largest values of each row of x and their
#                       columns: a stable argsort of -x, so equal values keep the smaller
#                       column first (tsort32's rule)
#   edges DIR           writes x.npy of the edges kernel, or with "check" compares its outputs
#                       with hand-computed values
import sys

import numpy as np


def same(name, got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape, want.shape)
    equal = (got == want) | (np.isnan(got) & np.isnan(want)) if got.dtype.kind == "f" else got == want
    if got.dtype.kind == "f":
        equal &= np.signbit(got) == np.signbit(want)  # -0.0 and 0.0 stay what they were
    bad = np.flatnonzero(~equal)
    assert bad.size == 0, f"{name}: {bad.size} of {got.size} differ, first at {bad[0]}: {got.flat[bad[0]]} != {want.flat[bad[0]]}"


INF, NAN = np.inf, np.nan
EDGES = np.array([[1, 7, 7, 2, -0.0, 0, 7, -1],                    # ties: the smaller column first
                  [-INF, 3, -INF, -INF, 5, -1, 3, -INF],           # -inf, tied, sorts last by column
                  [2, NAN, 9, NAN, -3, INF, 0, 1],                 # NaN ranks above +inf
                  [5, 5, 5, 5, 5, 5, 5, 5]], dtype=np.float32)     # all equal: columns in order
EDGE_ORDER = [[1, 2, 6, 3, 0, 4, 5, 7],
              [4, 1, 6, 5, 0, 2, 3, 7],
              [1, 3, 5, 2, 0, 7, 6, 4],
              [0, 1, 2, 3, 4, 5, 6, 7]]
PART_ORDER = [[1, 2, 3], [4, 1, 0], [1, 3, 2]]  # the valid [3, 5] part, top 3

mode, where = sys.argv[1], sys.argv[2]
load = lambda name: np.load(f"{where}/{name}.npy")
if mode == "make":
    r, c, seed = (int(a) for a in sys.argv[3:6])
    rng = np.random.default_rng(seed)
    x = rng.integers(-4, 5, size=(r, c)).astype(np.float32)
    x[rng.random((r, c)) < 0.125] = -INF
    np.save(f"{where}/x.npy", x)
elif mode == "rows":
    x, k = load("x"), int(sys.argv[3])
    order = np.argsort(-x, axis=1, kind="stable")[:, :k]
    same("ix", load("ix"), order.astype(np.int32))
    same("v", load("v"), np.take_along_axis(x, order, axis=1))
    print(f"rows: top {k} of [{x.shape[0]}, {x.shape[1]}] match numpy")
elif len(sys.argv) < 4:
    np.save(f"{where}/x.npy", EDGES)
else:
    order, part = np.array(EDGE_ORDER), np.array(PART_ORDER)
    same("ix", load("ix"), order.astype(np.int32))
    same("v", load("v"), np.take_along_axis(EDGES, order, axis=1))
    same("i1", load("i1"), order[:, :1].astype(np.int32))
    same("v1", load("v1"), np.take_along_axis(EDGES, order[:, :1], axis=1))
    same("pi", load("pi"), part.astype(np.int32))
    same("pv", load("pv"), np.take_along_axis(EDGES[:3], part, axis=1))
    print("edges: ties, -0.0, -inf, NaN, k = 1, k = 8 and a partial tile match the hand-computed values")
