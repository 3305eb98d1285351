#!/usr/bin/python3
"""numpy oracle of the accuracy comparison metrics (runlens compare), written from the definitions in the
README, independently of the C++ code.

  accuracy_oracle.py pairs BENCH TARGET [BENCH TARGET ...]   metrics of .npy/.pt pairs (FILE:MEMBER for a
                                                             checkpoint's tensor), one JSON object each
  accuracy_oracle.py cases OUTDIR                            writes edge-case and random pairs as .npy, prints
                                                             [{"name", "bench", "target", "metrics"}]
  accuracy_oracle.py stats BENCH_DUMP TARGET_DUMP NAMES.json statistics mode: for [[bench_row, target_row]...]
                                                             the largest |diff| and |diff / bench| of Max/Min/Mean/Norm
Prints JSON with null for values that are absent or not finite.
"""
import json
import math
import os
import sys

import numpy as np

EPS = 2.220446049250313e-16


def load(path):
    member = None
    for ext in (".pt:", ".npz:"):
        if ext in path:
            path, member = path.split(ext, 1)[0] + ext[:-1], path.split(ext, 1)[1]
    if path.endswith(".npz"):
        return np.load(path, allow_pickle=False)[member]
    if path.endswith(".pt"):
        import torch
        t = torch.load(path)
        if member is not None:
            t = t[member]
        if t.dtype == torch.bfloat16:
            t = t.float()
        return t.numpy()
    return np.load(path, allow_pickle=False)


def num(v):
    return float(v) if v is not None and math.isfinite(float(v)) else None


def metrics(b_raw, n_raw):
    if b_raw.shape != n_raw.shape or b_raw.size == 0:
        return None
    b = b_raw.astype(np.float64).ravel()
    n = n_raw.astype(np.float64).ravel()
    out = {}
    if n_raw.dtype == np.float16:
        tiny = float(np.finfo(np.float16).tiny)
        fb = np.isfinite(b)
        out["underflow"] = int(np.sum(fb & (b != 0) & np.isfinite(n) & (np.abs(n) < tiny)))
        out["overflow"] = int(np.sum(fb & np.isinf(n)))
    else:
        out["underflow"] = 0
        out["overflow"] = 0
    nfb = ~np.isfinite(b)
    nfn = ~np.isfinite(n)
    with np.errstate(invalid="ignore"):
        same = nfb & nfn & ((np.isnan(b) & np.isnan(n)) | (np.isinf(b) & (b == n)))
    mismatch = (nfb | nfn) & ~same
    out["nan_mismatch"] = int(np.sum(mismatch))
    keep = ~mismatch
    bb = np.where(same, 0.0, b)[keep]
    nn = np.where(same, 0.0, n)[keep]
    size = b.size
    d = nn - bb
    ad = np.abs(d)
    with np.errstate(divide="ignore", invalid="ignore"):
        re = np.where(bb == 0, np.abs(nn) / EPS, ad / np.abs(np.where(bb == 0, 1.0, bb)))
    out["within_1e-3"] = float(np.sum(re < 0.001)) / size
    out["within_5e-3"] = float(np.sum(re < 0.005)) / size
    if bb.size == 0:
        for k in ("cosine", "max_abs", "max_rel", "mean_abs", "rmse", "rel_euclidean"):
            out[k] = None
        return out
    out["max_abs"] = num(ad.max())
    out["max_rel"] = num(re.max())
    out["mean_abs"] = num(ad.mean())
    out["rmse"] = num(math.sqrt(float(np.mean(d * d))))
    bn = float(np.linalg.norm(bb))
    nnorm = float(np.linalg.norm(nn))
    sq = float(np.sum(d * d))
    out["rel_euclidean"] = num(math.sqrt(sq) / bn) if bn > 0 else (0.0 if sq == 0 else None)
    if size <= 1:
        out["cosine"] = None
    elif bn <= EPS and nnorm <= EPS:
        out["cosine"] = 1.0
    elif bn <= EPS or nnorm <= EPS:
        out["cosine"] = None
    else:
        out["cosine"] = num(float(np.dot(nn, bb)) / (bn * nnorm))
    return out


def cases(outdir):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((6, 7)).astype(np.float32)
    small = (rng.random(50).astype(np.float32) * 1e-4)
    nan = np.float32("nan")
    inf = np.float32("inf")
    table = [
        ("identical", x, x.copy()),
        ("noise", x, (x + rng.standard_normal(x.shape).astype(np.float32) * 1e-3).astype(np.float32)),
        ("scaled", x, (x * 1.5).astype(np.float32)),
        ("half_target", x, x.astype(np.float16)),
        ("half_underflow", small, small.astype(np.float16)),
        ("half_overflow", np.array([1e5, 2.0, -7e4, 3.0], np.float32),
         np.array([1e5, 2.0, -7e4, 3.0], np.float32).astype(np.float16)),
        ("both_zero", np.zeros(5, np.float32), np.zeros(5, np.float32)),
        ("bench_zero", np.zeros(5, np.float32), np.array([0, 1, 0, 2, 0], np.float32)),
        ("target_zero", np.array([0, 1, 0, 2, 0], np.float32), np.zeros(5, np.float32)),
        ("both_nan", np.array([1, nan, 3, 4], np.float32), np.array([1, nan, 3.5, 4], np.float32)),
        ("nan_mismatch", np.array([1, nan, 3, 4], np.float32), np.array([1, 2, 3, nan], np.float32)),
        ("inf_inf", np.array([inf, -inf, 2, 3], np.float32), np.array([inf, -inf, 2, 3.25], np.float32)),
        ("inf_opposite", np.array([inf, 1, 2], np.float32), np.array([-inf, 1, 2], np.float32)),
        ("one_element", np.array([2.0], np.float32), np.array([2.5], np.float32)),
        ("float64_int", np.arange(12, dtype=np.float64).reshape(3, 4), np.arange(12, dtype=np.int32).reshape(3, 4)),
        ("strided_source", np.ascontiguousarray(x.T), np.ascontiguousarray((x * 0.999).T)),
    ]
    os.makedirs(outdir, exist_ok=True)
    result = []
    for name, b, n in table:
        bp = os.path.join(outdir, name + ".bench.npy")
        tp = os.path.join(outdir, name + ".target.npy")
        np.save(bp, b)
        np.save(tp, n)
        result.append({"name": name, "bench": bp, "target": tp, "metrics": metrics(b, n)})
    return result


def record(data, row):
    """The record of a statistics row `{entry}.{input|output|parameters}.{path}` in dump.json's data."""
    for entry in data:
        if not row.startswith(entry + "."):
            continue
        parts = row[len(entry) + 1:].split(".")
        rec = data[entry]
        role, path = parts[0], parts[1:]
        if role == "input":
            if path and path[0].isdigit():
                node = rec.get("input_args", rec.get("input"))
            else:
                node = rec.get("input_kwargs", {})
        elif role == "parameters":
            node = rec.get("parameters", {})
        else:
            node = rec.get(role)
        for p in path:
            node = node[int(p)] if isinstance(node, list) else node[p]
        return node
    raise KeyError(row)


def stats(bench_dump, target_dump, names_file):
    b = json.load(open(bench_dump))["data"]
    t = json.load(open(target_dump))["data"]
    out = []
    for bench_row, target_row in json.load(open(names_file)):
        rb, rt = record(b, bench_row), record(t, target_row)
        diffs, rels = [], []
        for k in ("Max", "Min", "Mean", "Norm"):
            if not isinstance(rb, dict) or not isinstance(rt, dict):
                continue
            vb, vt = rb.get(k), rt.get(k)
            if not isinstance(vb, (int, float)) or not isinstance(vt, (int, float)):
                continue
            diff = float(vt) - float(vb)
            if math.isnan(diff):
                continue
            diffs.append(abs(diff))
            if vb != 0:
                rels.append(abs(diff / float(vb)))
        out.append({"max_abs": num(max(diffs)) if diffs else None, "max_rel": num(max(rels)) if rels else None})
    return out


def main():
    mode = sys.argv[1]
    if mode == "pairs":
        args = sys.argv[2:]
        print(json.dumps([metrics(load(args[i]), load(args[i + 1])) for i in range(0, len(args), 2)]))
    elif mode == "cases":
        print(json.dumps(cases(sys.argv[2])))
    elif mode == "stats":
        print(json.dumps(stats(sys.argv[2], sys.argv[3], sys.argv[4])))


if __name__ == "__main__":
    main()
