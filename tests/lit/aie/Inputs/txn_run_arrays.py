"""Arrays for the txn-run tests (tests/lit/aie/txn-run-*.test).

  txn_run_arrays.py make FILE.npy DTYPE DIMS SEED   random elements (DIMS like 128,256)
  txn_run_arrays.py nonzero FILE.npy                 fails when every byte of the data is 0

bf16 arrays are finite values written as their 16 bits ('|V2', as plain NumPy has no bf16).
"""
import sys

import numpy as np


def make(path, dtype, dims, seed):
    rng = np.random.default_rng(int(seed))
    shape = tuple(int(d) for d in dims.split(","))
    if dtype == "bf16":
        bits = rng.standard_normal(shape).astype(np.float32).view(np.uint32) >> 16
        array = bits.astype(np.uint16).view("V2")
    else:
        info = np.iinfo(dtype)
        array = rng.integers(info.min, info.max, shape, dtype=np.int64, endpoint=True).astype(dtype)
    np.save(path, array)


def nonzero(path):
    data = np.load(path)
    if not data.view(np.uint8).any():
        sys.exit(f"{path}: every byte is 0")


if __name__ == "__main__":
    {"make": make, "nonzero": nonzero}[sys.argv[1]](*sys.argv[2:])
