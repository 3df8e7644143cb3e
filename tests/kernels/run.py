# The kernel corpus (README.md): every K.tile here is run with `tilec --run` on seeded random
# inputs at awkward sizes, for a2a3 and a5, with and without --verify-semantics, and before any
# pass (--passes=verify), and each output is compared with the NumPy reference in K.py. In those
# five runs the launch is the one the compiler chooses (distribute-blocks: one block for a kernel
# without parallel loops or block queries, else up to the target's cores). A kernel whose source
# (comments aside) has a `parallel` loop or asks for its block (block_idx(), block_num(),
# subblock_idx(), subblock_num()) runs eight more ways at its largest size combination (the
# greatest product of the sizes, the first on ties: the one with the most steps to spread),
# without --verify-semantics to keep the suite quick: --blocks=1, 3 and 24 on a2a3 and on a5,
# and --blocks=3 --shuffle-blocks=SEED on both (SEED the case's input seed). Its result must
# not depend on the launch nor on the order the blocks run in, and the interpreter refuses two
# blocks touching one element, one writing (E0804).
#
#   /usr/bin/python3 run.py --tilec PATH [--workdir DIR] [--jobs N] [--only REGEX] [--each-path-once]
#
# --each-path-once (the sanitizer build, ten times slower) keeps the runs that reach every
# code path: the two --verify-semantics configurations (each compiles its target's pipeline
# and runs the frontend's IR and every pass's) and, for a kernel using blocks, the shuffled
# three-block launch on a2a3.
#
# K.py defines:
#   SIZES      {size: [values]} for the kernel's `where S: dyn` sizes (omit when it has none);
#              the runner runs len(values) combinations, size j of combination i taking
#              values[(i + j) % len(values)], so every value meets several values of the others
#   inputs(rng, **sizes) -> {parameter: array or number}: tensors (.npy) and scalars (--arg)
#   reference(**inputs, **sizes) -> {output tensor: expected array}
#   TOLERANCE  {output: (rtol, atol)}: |got - want| <= atol + rtol * |want| element for element;
#              an output not named here must have the expected dtype and be equal bit for bit
#              (NaN equals NaN)
# tilec writes bf16 outputs as 16-bit words (dtype BF16 here; from_bf16 widens them); give bf16
# inputs as f32 arrays of bf16 values (from_bf16(to_bf16(x))), which tilec rounds exactly, since
# NumPy saves 16-bit words as '|V2' and tilec reads '<V2' only (README.md, "Found"). Exit status
# 0 when every run matched.
import argparse
import concurrent.futures
import importlib.util
import math
import os
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
# The samples with a NumPy reference beside them (S.tile and S.py) run like the corpus.
SAMPLES = HERE.parent.parent / "samples"
BF16 = np.dtype("<V2")

# (label, extra tilec flags): the two PTO pipelines with and without the interpreter checking
# every pass, and the IR as the frontend built it.
CONFIGS = [
    ("a2a3", ["--target=a2a3"]),
    ("a5", ["--target=a5"]),
    ("a2a3 --verify-semantics", ["--target=a2a3", "--verify-semantics"]),
    ("a5 --verify-semantics", ["--target=a5", "--verify-semantics"]),
    ("--passes=verify", ["--passes=verify"]),
]
# A kernel that uses blocks also runs at these launches, at its largest size combination only
# ("{seed}" is the case's input seed). A mismatch's configuration names the block count.
BLOCK_COUNTS = [1, 3, 24]
BLOCK_CONFIGS = [(f"{t} --blocks={n}", [f"--target={t}", f"--blocks={n}"])
                 for n in BLOCK_COUNTS for t in ("a2a3", "a5")]
BLOCK_CONFIGS += [(f"{t} --blocks=3 --shuffle-blocks={{seed}}", [f"--target={t}", "--blocks=3", "--shuffle-blocks={seed}"])
                  for t in ("a2a3", "a5")]
# A parallel loop or a block query, in a source without its comments.
USES_BLOCKS = re.compile(r"\bparallel\b|\b(?:sub)?block_(?:idx|num)\s*\(")


def to_bf16(x):
    """f32 values rounded to bf16 (nearest, ties to even), as 16-bit words."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16).view(BF16)


def from_bf16(words):
    return (words.view(np.uint16).astype(np.uint32) << 16).view(np.float32)


def shown(tile):
    """The kernel's name in messages: samples/S.tile for a sample (the corpus has a softmax too)."""
    return tile.name if tile.parent == HERE else f"{tile.parent.name}/{tile.name}"


def load_reference(tile):
    name = f"reference_{shown(tile).replace('/', '_').replace('.', '_')}"
    spec = importlib.util.spec_from_file_location(name, tile.with_suffix(".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def largest(combinations):
    """The index of the combination with the greatest product of sizes (the first on ties)."""
    return max(range(len(combinations)), key=lambda i: (math.prod(combinations[i].values()), -i))


def size_combinations(sizes):
    if not sizes:
        return [{}]
    names = list(sizes)
    count = max(len(v) for v in sizes.values())
    return [{n: sizes[n][(i + j) % len(sizes[n])] for j, n in enumerate(names)} for i in range(count)]


def first_mismatch(got, want, tolerance):
    """None when got matches want, else a sentence naming the first element that does not."""
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    if got.dtype == BF16:
        got = from_bf16(got)
    both_nan = np.isnan(got) & np.isnan(want) if got.dtype.kind == "f" else np.zeros(got.shape, bool)
    if tolerance is None:
        if got.dtype != want.dtype:
            return f"dtype {got.dtype}, expected {want.dtype}"
        bad = (got != want) & ~both_nan
        rule = "exact"
    else:
        rtol, atol = tolerance
        with np.errstate(invalid="ignore", over="ignore"):
            err = np.abs(got.astype(np.float64) - want.astype(np.float64))
            bad = ~(err <= atol + rtol * np.abs(want.astype(np.float64))) & ~both_nan
        rule = f"rtol={rtol} atol={atol}"
    if not bad.any():
        return None
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return (f"{int(bad.sum())} of {bad.size} elements differ ({rule}), first at {list(index)}: "
            f"got {got[index]!r}, expected {want[index]!r}")


def uses_blocks(tile):
    return bool(USES_BLOCKS.search(re.sub(r"//[^\n]*", "", tile.read_text())))


def check_compare():
    """The comparison must see a wrong element, or every run below would pass vacuously."""
    want = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    wrong = want.copy()
    wrong[2, 1] += 0.5
    assert first_mismatch(want, want, None) is None and first_mismatch(want, want, (1e-6, 0)) is None
    assert "[2, 1]" in first_mismatch(wrong, want, None)
    assert "[2, 1]" in first_mismatch(wrong, want, (1e-3, 1e-3))
    assert "dtype" in first_mismatch(want.astype(np.float16), want, None)
    # The block runs must find a kernel's loop however it is written, and not its comments.
    assert USES_BLOCKS.search("parallel(cyclic) for i in 0 .. 4 {") and USES_BLOCKS.search("let b = block_idx();")
    assert not USES_BLOCKS.search("for i in 0 .. 4 { let b = my_block_index; }")
    assert largest([{"M": 1, "N": 15}, {"M": 17, "N": 37}, {"M": 37, "N": 1}, {"M": 37, "N": 17}]) == 1


def run_case(tilec, tile, module, sizes, workdir, configs):
    """Runs one kernel at one size combination under every configuration; returns failures."""
    label = " ".join(f"{k}={v}" for k, v in sizes.items()) or "static"
    where = workdir / shown(tile).replace("/", ".") / (label.replace(" ", ".").replace("=", "") or "static")
    where.mkdir(parents=True, exist_ok=True)
    seed = zlib.crc32(f"{tile.stem} {label}".encode())
    params = module.inputs(np.random.default_rng(seed), **sizes)
    want = module.reference(**params, **sizes)
    args = [f"{k}={v}" for k, v in sizes.items()]
    for name, value in params.items():
        if isinstance(value, np.ndarray):
            np.save(where / f"in_{name}.npy", value)
            args.append(f"{name}={where / f'in_{name}.npy'}")
        else:
            args.append(f"{name}={value!r}")
    tolerances = getattr(module, "TOLERANCE", {})
    env = {k: v for k, v in os.environ.items() if k != "TILEC_VERIFY_SEMANTICS"}
    failures = []
    for config, flags in configs:
        config, flags = config.format(seed=seed), [f.format(seed=seed) for f in flags]
        outs = {name: where / f"out_{name}.{re.sub(r'[^a-z0-9]+', '_', config)}.npy" for name in want}
        for path in outs.values():
            path.unlink(missing_ok=True)
        cmd = [str(tilec), str(tile), *flags, "--run"]
        cmd += [f"--arg={a}" for a in args] + [f"--out={n}={p}" for n, p in outs.items()]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        head = f"FAIL {shown(tile)} [{config}] {label}"
        if proc.returncode != 0:
            failures.append(f"{head}: tilec exited {proc.returncode}\n  {' '.join(cmd)}\n{proc.stderr}")
            continue
        for name, path in outs.items():
            problem = first_mismatch(np.load(path), np.asarray(want[name]), tolerances.get(name))
            if problem:
                failures.append(f"{head}: {name}: {problem}\n  {' '.join(cmd)}")
    if not failures:
        shutil.rmtree(where)
    return label, failures


def main():
    parser = argparse.ArgumentParser(description="Runs the kernel corpus against NumPy.")
    parser.add_argument("--tilec", required=True)
    parser.add_argument("--workdir", default="/tmp/tilec-kernels")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", default="", help="run only the kernels whose name matches")
    parser.add_argument("--each-path-once", action="store_true", help="only the runs that reach every code path")
    opts = parser.parse_args()
    configs, block_configs = CONFIGS, BLOCK_CONFIGS
    if opts.each_path_once:
        configs = [c for c in CONFIGS if "--verify-semantics" in c[1]]
        block_configs = [c for c in BLOCK_CONFIGS if "--shuffle-blocks={seed}" in c[1]][:1]
    check_compare()
    samples = [t for t in SAMPLES.glob("*.tile") if t.with_suffix(".py").exists()]
    tiles = sorted((t for t in list(HERE.glob("*.tile")) + samples if re.search(opts.only, t.stem)),
                   key=lambda t: t.stem)
    orphans = sorted(p.name for d in (HERE, SAMPLES) for p in d.glob("*.py") if p != Path(__file__).resolve()
                     and not p.with_suffix(".tile").exists())
    missing = [t.name for t in tiles if not t.with_suffix(".py").exists()]
    if orphans or missing or not tiles:
        print(f"FAIL: kernels without a reference {missing}, references without a kernel {orphans}"
              f"{'' if tiles else ', no kernel matches'}")
        return 1
    workdir = Path(opts.workdir)
    modules = {t: load_reference(t) for t in tiles}
    cases = []
    for t in tiles:
        combinations = size_combinations(getattr(modules[t], "SIZES", {}))
        blocked = largest(combinations) if uses_blocks(t) else -1
        cases += [(t, s, configs + (block_configs if i == blocked else [])) for i, s in enumerate(combinations)]
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        futures = [pool.submit(run_case, opts.tilec, t, modules[t], s, workdir, c) for t, s, c in cases]
        for (tile, _, cfgs), future in zip(cases, futures):
            label, failures = future.result()
            for failure in failures:
                print(failure)
            failed += bool(failures)
            if not failures:
                extra = f" (also {len(cfgs) - len(configs)} launches of blocks)" if len(cfgs) > len(configs) else ""
                print(f"ok   {shown(tile)} {label}{extra}")
    runs = sum(len(c) for _, _, c in cases)
    blocked = sum(uses_blocks(t) for t in tiles)
    print(f"{len(tiles)} kernels ({blocked} using blocks), {len(cases)} size combinations, {runs} runs: "
          f"{'all match NumPy' if not failed else f'{failed} combinations failed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
