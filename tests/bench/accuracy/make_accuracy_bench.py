#!/usr/bin/python3
"""Writes the two dumps of bench_accuracycompare: BENCH and TARGET folders of `step_0/{module}.{kind}.npy`
files (the torch-style module dump RunLens reads), the same names on both sides.

  make_accuracy_bench.py --out DIR [--tensors N] [--mib M] [--seed S]

N tensors per side (modules layers.0 ... of four kinds each: input, weight, bias, output), M MiB of data per
side in float32, about M/N MiB each with sizes varying by a few percent. The target is a copy of the bench
with, per tensor:
  - most: the lowest mantissa bit of a quarter of the elements flipped (float32 rounding noise: pass);
  - one in 25: relative noise of 1e-3 (real differences: warning or error);
  - one in 40: stored as float16 after scaling a share of values below float16's smallest normal number
    (half-precision rounding: non-zero underflow, and overflow where values exceed 65504);
  - one in 100: a NaN on both sides at the same place, and one in 500 a NaN on the target only.
Deterministic for given arguments. Writes DIR/bench, DIR/target and, last, DIR/complete (the parameters), so
an interrupted run is not mistaken for a finished one.
"""
import argparse
import json
import os

import numpy as np

KINDS = ("input", "weight", "bias", "output")
WIDTH = 512


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    parser.add_argument("--tensors", type=int, default=2000)
    parser.add_argument("--mib", type=int, default=4096)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    bench_dir = os.path.join(args.out, "bench", "step_0")
    target_dir = os.path.join(args.out, "target", "step_0")
    os.makedirs(bench_dir, exist_ok=True)
    os.makedirs(target_dir, exist_ok=True)
    marker = os.path.join(args.out, "complete")
    if os.path.exists(marker):
        os.remove(marker)

    # Rows of WIDTH float32 per tensor, varying +-2.3 % around the mean so the total stays M MiB.
    mean_rows = max(1, args.mib * 1024 * 1024 // 4 // WIDTH // max(1, args.tensors))
    spread = max(0, mean_rows * 23 // 1000)
    counts = {"tensors": 0, "bytes_bench": 0, "bytes_target": 0, "noisy": 0, "half": 0, "nan_both": 0,
              "nan_target": 0}
    for i in range(args.tensors):
        rng = np.random.default_rng([args.seed, i])
        rows = mean_rows + (int(rng.integers(-spread, spread + 1)) if spread else 0)
        name = "layers.%d.%s" % (i // len(KINDS), KINDS[i % len(KINDS)])
        bench = rng.standard_normal((rows, WIDTH), dtype=np.float32)
        target = bench.copy()
        if i % 25 == 7:
            target += bench * rng.standard_normal(bench.shape, dtype=np.float32) * np.float32(1e-3)
            counts["noisy"] += 1
        elif i % 40 == 13:
            # Small activations: a tenth of the values scaled below float16's smallest normal (6.1e-5), a few
            # above its largest finite value.
            bench[: rows // 10] *= np.float32(1e-5)
            bench[rows // 10, :8] = np.float32(7e4)
            with np.errstate(over="ignore"):
                target = bench.astype(np.float16)
            counts["half"] += 1
        else:
            bits = target.view(np.uint32)
            bits[:, ::4] ^= np.uint32(1)
        if i % 100 == 3:
            bench[0, 5] = np.float32("nan")
            target[0, 5] = np.nan
            counts["nan_both"] += 1
        if i % 500 == 11:
            target[1, 9] = np.nan
            counts["nan_target"] += 1
        np.save(os.path.join(bench_dir, name + ".npy"), bench)
        np.save(os.path.join(target_dir, name + ".npy"), target)
        counts["tensors"] += 1
        counts["bytes_bench"] += bench.nbytes
        counts["bytes_target"] += target.nbytes

    with open(marker, "w") as f:
        json.dump(dict(vars(args), **counts), f)
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
