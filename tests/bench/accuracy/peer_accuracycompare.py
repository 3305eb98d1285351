#!/usr/bin/python3
"""Peer of bench_accuracycompare: the accuracy metrics of `runlens compare` computed by a numpy loop over the
same two `step_0/{module}.{kind}.npy` folders, with the definitions of the README (Modes) and
models/accuracy/accuracymetrics.cpp.

Per pair of files with the same name: np.load of both, float64 copies, then cosine, max_abs, max_rel,
mean_abs, rmse, rel_euclidean, within_1e-3, within_5e-3, nan_mismatch, underflow and overflow (float16
target). Pairs where every element is finite on both sides take numpy's direct path; the others first set
NaN/Inf at the same place on both sides to 0 and leave mismatched elements out, as msprobe does. The rows
are written as JSON (`{"rows": [{"name", ...metrics}]}`, null for values not finite) to OUT.

  peer_accuracycompare.py BENCH TARGET OUT [--repeat N]

Each of the N passes (listing, every pair, the JSON written) is timed inside Python (start-up and imports
excluded); prints one JSON line with the seconds of each pass and the peak RSS.
"""
import argparse
import json
import math
import os
import resource
import time

import numpy as np

EPS = 2.220446049250313e-16
F16_TINY = float(np.finfo(np.float16).tiny)


def num(v):
    v = float(v)
    return v if math.isfinite(v) else None


def pair_metrics(b_raw, n_raw):
    size = b_raw.size
    b = b_raw.astype(np.float64).ravel()
    n = n_raw.astype(np.float64).ravel()
    out = {"underflow": 0, "overflow": 0, "nan_mismatch": 0}
    fb = np.isfinite(b)
    fn = np.isfinite(n)
    if n_raw.dtype == np.float16:
        out["underflow"] = int(np.count_nonzero(fb & (b != 0) & fn & (np.abs(n) < F16_TINY)))
        out["overflow"] = int(np.count_nonzero(fb & np.isinf(n)))
    if not (fb.all() and fn.all()):
        with np.errstate(invalid="ignore"):
            same = ~fb & ~fn & ((np.isnan(b) & np.isnan(n)) | (np.isinf(b) & (b == n)))
        mismatch = ~(fb & fn) & ~same
        out["nan_mismatch"] = int(np.count_nonzero(mismatch))
        keep = ~mismatch
        b = np.where(same, 0.0, b)[keep]
        n = np.where(same, 0.0, n)[keep]
    d = n - b
    ad = np.abs(d)
    ab = np.abs(b)
    zero = ab == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        re = ad / ab
    if zero.any():
        re[zero] = np.abs(n[zero]) / EPS
    out["within_1e-3"] = np.count_nonzero(re < 0.001) / size
    out["within_5e-3"] = np.count_nonzero(re < 0.005) / size
    if b.size == 0:
        out.update(dict.fromkeys(("cosine", "max_abs", "max_rel", "mean_abs", "rmse", "rel_euclidean")))
        return out
    sq = float(np.dot(d, d))
    bn = math.sqrt(float(np.dot(b, b)))
    nn = math.sqrt(float(np.dot(n, n)))
    out["max_abs"] = num(ad.max())
    out["max_rel"] = num(re.max())
    out["mean_abs"] = num(ad.mean())
    out["rmse"] = num(math.sqrt(sq / b.size))
    out["rel_euclidean"] = num(math.sqrt(sq) / bn) if bn > 0 else (0.0 if sq == 0 else None)
    if size <= 1 or (bn <= EPS) != (nn <= EPS):
        out["cosine"] = None
    elif bn <= EPS:
        out["cosine"] = 1.0
    else:
        out["cosine"] = num(float(np.dot(n, b)) / (bn * nn))
    return out


def compare(bench, target, out_path):
    rows = []
    bench_step = os.path.join(bench, "step_0")
    target_step = os.path.join(target, "step_0")
    for name in sorted(os.listdir(bench_step)):
        if not name.endswith(".npy"):
            continue
        b = np.load(os.path.join(bench_step, name))
        n = np.load(os.path.join(target_step, name))
        row = {"name": name[:-4]}
        if b.shape == n.shape and b.size > 0:
            row.update(pair_metrics(b, n))
        rows.append(row)
    with open(out_path, "w") as f:
        json.dump({"rows": rows}, f)
    return len(rows)


def peak_rss_kb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bench")
    parser.add_argument("target")
    parser.add_argument("out")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    seconds = []
    rows = 0
    for _ in range(max(1, args.repeat)):
        start = time.perf_counter()
        rows = compare(args.bench, args.target, args.out)
        seconds.append(time.perf_counter() - start)
    print(json.dumps({"seconds": seconds, "rows": rows, "peak_rss_kb": peak_rss_kb(), "numpy": np.__version__}))


if __name__ == "__main__":
    main()
