#!/usr/bin/env python3
"""Independent computation of the Kineto cluster figures, for tst_kinetocluster.

Reads each trace (plain or gzip JSON) with the standard library only and prints JSON with, per rank,
HTA's temporal breakdown over the device streams, the communication/computation overlap and the
per-step figures over tb_plugin's device-stretched step ranges, then the straggler of each step.
Times in the output are milliseconds.

    kineto_cluster_oracle.py TRACE [TRACE ...]
"""
import bisect
import gzip
import json
import re
import sys
from decimal import ROUND_HALF_EVEN, Decimal

DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver", "runtime", "hip_runtime"}
MAX_NS = 7 * 24 * 3600 * 10**9


def load(path):
    with open(path, "rb") as f:
        head = f.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        return json.load(f)


def ns(value):
    # Exact decimal arithmetic: epoch microseconds times 1000 do not fit a double's 53 bits.
    if isinstance(value, int):
        return value * 1000
    return int((Decimal(repr(float(value))) * 1000).to_integral_value(ROUND_HALF_EVEN))


def is_comm(name):
    return (name.startswith("nccl") or name.startswith("hccl") or name.startswith("rccl")
            or "ncclKernel" in name or "ncclDevKernel" in name)


def merge(intervals):
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(merged):
    return sum(e - s for s, e in merged)


def intersect(a, b):
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if s < e:
            out.append([s, e])
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def within(merged, ends, t0, t1):
    """Length of a merged list inside [t0, t1); `ends` are the intervals' ends (sorted like them)."""
    total = 0
    for i in range(bisect.bisect_right(ends, t0), len(merged)):
        s, e = merged[i]
        if s >= t1:
            break
        total += min(e, t1) - max(s, t0)
    return total


def analyse(path):
    doc = load(path)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    base = int(doc.get("baseTimeNanoseconds", 0)) if isinstance(doc, dict) else 0
    info = doc.get("distributedInfo", {}) if isinstance(doc, dict) else {}
    rank = info.get("rank", -1)

    device, comp, comm, comm_starts = [], [], [], []
    kernels_by_corr = {}
    runtimes = []
    steps = []
    for e in events:
        if e.get("ph") != "X":
            continue
        cat = str(e.get("cat", "")).lower()
        name = str(e.get("name", ""))
        start = base + ns(e["ts"])
        dur = ns(e.get("dur", 0))
        end = start + dur
        args = e.get("args") or {}
        if cat == "user_annotation" and re.match(r"^ProfilerStep#(\d+)$", name):
            steps.append([int(name.split("#")[1]), start, end])
            continue
        if dur <= 0 or dur > MAX_NS:
            continue
        if cat in DEVICE_CATS:
            device.append((start, end))
            if cat == "kernel":
                if is_comm(name):
                    comm.append((start, end))
                    comm_starts.append(start)
                else:
                    comp.append((start, end))
            if "correlation" in args:
                kernels_by_corr.setdefault(args["correlation"], []).append((start, end))
        elif cat in RUNTIME_CATS and "correlation" in args:
            runtimes.append((start, end, args["correlation"]))

    device, comp, comm = merge(device), merge(comp), merge(comm)
    comm_starts.sort()
    result = {"rank": rank, "path": path}
    span = device[-1][1] - device[0][0]
    busy = length(device)
    overlap = intersect(comm, comp)
    result["temporal"] = {
        "span": span / 1e6, "compute": length(comp) / 1e6, "non_compute": (busy - length(comp)) / 1e6,
        "idle": (span - busy) / 1e6, "communication": length(comm) / 1e6, "overlap": length(overlap) / 1e6,
    }

    # tb_plugin's device steps: stretch each CPU step to the device work its runtime calls launched.
    steps.sort(key=lambda s: s[1])
    dev_min = [None] * len(steps)
    dev_max = [None] * len(steps)
    starts = [s[1] for s in steps]
    for hs, he, corr in runtimes:
        k = bisect.bisect_right(starts, hs) - 1
        if k < 0 or he > steps[k][2]:
            continue
        for ks, ke in kernels_by_corr.get(corr, []):
            dev_min[k] = ks if dev_min[k] is None else min(dev_min[k], ks)
            dev_max[k] = ke if dev_max[k] is None else max(dev_max[k], ke)
    device_ends, comp_ends = [x[1] for x in device], [x[1] for x in comp]
    comm_ends, overlap_ends = [x[1] for x in comm], [x[1] for x in overlap]
    out_steps = []
    previous_end = None
    for k, (number, cpu_start, cpu_end) in enumerate(steps):
        s = cpu_start if dev_min[k] is None else min(cpu_start, dev_min[k])
        if previous_end is not None:
            s = max(s, previous_end)
        e = cpu_end if dev_max[k] is None else max(cpu_end, dev_max[k])
        e = max(e, s)
        previous_end = e
        c = within(comm, comm_ends, s, e)
        o = within(overlap, overlap_ends, s, e)
        i = bisect.bisect_left(comm_starts, e)
        last = [comm_starts[i - 1]] if i > 0 and comm_starts[i - 1] >= s else []
        out_steps.append({
            "step": number, "step_time": (e - s) / 1e6, "computation": within(comp, comp_ends, s, e) / 1e6,
            "communication": (c - o) / 1e6, "overlapped": o / 1e6, "idle": (e - s - within(device, device_ends, s, e)) / 1e6,
            "share": c / (e - s), "last_offset": (last[-1] - s) / 1e6 if last else None,
        })
    result["steps"] = out_steps
    return result


def main():
    ranks = [analyse(p) for p in sys.argv[1:]]
    by_step = {}
    for r in ranks:
        for s in r["steps"]:
            if s["last_offset"] is not None:
                by_step.setdefault(s["step"], []).append((r["rank"], s["last_offset"]))
    stragglers = []
    for step in sorted(by_step):
        entries = by_step[step]
        if len(entries) < 2:
            continue
        latest = max(entries, key=lambda x: x[1])
        others = sorted(x[1] for x in entries if x is not latest)
        n = len(others)
        med = others[n // 2] if n % 2 else (others[n // 2 - 1] + others[n // 2]) / 2
        stragglers.append({"step": step, "rank": latest[0], "lateness": latest[1] - med})
    json.dump({"ranks": ranks, "stragglers": stragglers}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
