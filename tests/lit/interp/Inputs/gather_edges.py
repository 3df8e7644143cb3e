# gather-edges.test's inputs and hand-computed results: `make DIR` writes the inputs,
# `check DIR rows|blocks` compares tilec --run's outputs with the values written out below (not
# computed by NumPy). table[r, c] = 10 r + c; ids pick the first row, the last, one twice in a
# row and the first again; D = 5 is one partial chunk, D = 21 a full one and a partial one.
import sys

import numpy as np

IDS = [0, 3, 2, 2, 0]
ROWS5 = [[0, 1, 2, 3, 4], [30, 31, 32, 33, 34], [20, 21, 22, 23, 24], [20, 21, 22, 23, 24], [0, 1, 2, 3, 4]]
ROWS21 = [[10 * r + c for c in range(21)] for r in IDS]
COUNTS, TABLE = [2, 0, 1], [[1, 1], [0, 0], [2, 0]]
POOL = [[100 * p + c for c in range(8)] for p in range(3)]
BLOCKS = [[100, 101, 102, 103, 104, 105, 106, 107, 100, 101, 102, 103, 104, 105, 106, 107], [0] * 16,
          [200, 201, 202, 203, 204, 205, 206, 207] + [0] * 8]

mode, where = sys.argv[1], sys.argv[2]
if mode == "make":
    np.save(f"{where}/ids.npy", np.array(IDS, np.int32))
    for d in (5, 21):
        np.save(f"{where}/table{d}.npy", np.array([[10 * r + c for c in range(d)] for r in range(4)], np.float32))
    for name, bad in (("past", 4), ("negative", -1)):
        np.save(f"{where}/{name}.npy", np.array([0, bad], np.int32))
    np.save(f"{where}/counts.npy", np.array(COUNTS, np.int64))
    np.save(f"{where}/over.npy", np.array([2, 3, 1], np.int64))
    np.save(f"{where}/block_table.npy", np.array(TABLE, np.int64))
    np.save(f"{where}/pool.npy", np.array(POOL, np.float32))
    sys.exit(0)
kernel = sys.argv[3]
want = {"rows5": ROWS5, "rows21": ROWS21, "blocks": BLOCKS}[kernel]
got = np.load(f"{where}/y.npy")
if got.dtype != np.float32 or got.tolist() != np.array(want, np.float32).tolist():
    print(f"{kernel}: got {got.tolist()}, want {want}")
    sys.exit(1)
print(f"{kernel}: as computed by hand")
