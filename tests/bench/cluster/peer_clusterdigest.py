#!/usr/bin/env python3
"""Peer of bench_clusterdigest: a rank digest per Kineto trace with json.load, then the cluster of them.

Per trace (json.load of the whole file, one trace per worker process at a time): the device steps
(ProfilerStep#N stretched to the device work its runtime calls launched, as tb_plugin does), and per step the
computation, communication not overlapped, overlap and idle time over the device streams (HTA's temporal
breakdown), the data loading time (DataLoader ops where no device work, communication or runtime call runs,
the priority of RunLens's step breakdown), the start of the step's last collective; every collective with its
name, size in bytes and process group; the kernels' total time by name. Then across ranks: the straggler of
each step (the rank whose last collective started latest).

Timed inside Python as RunLens is timed inside its process: interpreter start-up and imports are not in the
times. Prints one JSON line: every run's seconds, and the totals over all ranks and steps (ms) that the
benchmark compares with RunLens's digests.

    peer_clusterdigest.py [--jobs N] [--repeat R] TRACE [TRACE ...]
"""
import argparse
import bisect
import json
import multiprocessing
import re
import time

DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver", "runtime", "hip_runtime"}
DTYPE_BYTES = {"Float": 4, "Double": 8, "Half": 2, "BFloat16": 2, "Int": 4, "Long": 8, "Short": 2, "Char": 1,
               "Byte": 1, "Bool": 1, "ComplexFloat": 8, "ComplexDouble": 16, "Float8_e4m3fn": 1, "Float8_e5m2": 1}
MAX_NS = 7 * 24 * 3600 * 10**9
STEP = re.compile(r"^ProfilerStep#(\d+)$")


def is_comm(name):
    return (name.startswith("nccl") or name.startswith("gloo:") or name.startswith("hccl")
            or "ncclKernel" in name or "ncclDevKernel" in name)


def merge(intervals):
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return out


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


def subtract(a, b):
    """a minus b, both merged."""
    out, j = [], 0
    for s, e in a:
        while j < len(b) and b[j][1] <= s:
            j += 1
        k, cur = j, s
        while k < len(b) and b[k][0] < e:
            if b[k][0] > cur:
                out.append([cur, b[k][0]])
            cur = max(cur, b[k][1])
            k += 1
        if cur < e:
            out.append([cur, e])
    return out


def within(merged, ends, t0, t1):
    total = 0
    for i in range(bisect.bisect_right(ends, t0), len(merged)):
        s, e = merged[i]
        if s >= t1:
            break
        total += min(e, t1) - max(s, t0)
    return total


def digest(path):
    with open(path, "rb") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    base = int(doc.get("baseTimeNanoseconds", 0)) if isinstance(doc, dict) else 0
    rank = (doc.get("distributedInfo") or {}).get("rank", -1) if isinstance(doc, dict) else -1

    device, comp, comm, comm_starts, higher, loader = [], [], [], [], [], []
    kernels_by_corr, runtimes, steps, collectives, kernel_stats = {}, [], [], [], {}
    for e in events:
        if e.get("ph") != "X":
            continue
        cat = str(e.get("cat", "")).lower()
        name = str(e.get("name", ""))
        start = base + int(round(float(e["ts"]) * 1000))
        dur = int(round(float(e.get("dur", 0)) * 1000))
        end = start + dur
        args = e.get("args") or {}
        if cat == "user_annotation":
            m = STEP.match(name)
            if m:
                steps.append([int(m.group(1)), start, end])
                continue
        if dur <= 0 or dur > MAX_NS:
            continue
        if name.startswith("enumerate(DataLoader)") or name.startswith("enumerate(DataPipe)"):
            loader.append((start, end))
        elif cat in DEVICE_CATS:
            device.append((start, end))
            higher.append((start, end))
            if cat == "kernel":
                stat = kernel_stats.setdefault(name, [0, 0, 0])
                stat[0] += 1
                stat[1] += dur
                stat[2] = max(stat[2], dur)
                if is_comm(name):
                    comm.append((start, end))
                    comm_starts.append(start)
                    nelems, size = args.get("In msg nelems"), DTYPE_BYTES.get(args.get("dtype"), 0)
                    group = args.get("Process Group Name")
                    group = str(group) if group is not None else ""
                    if args.get("Process Group Description"):
                        group = "%s (%s)" % (group, args["Process Group Description"]) if group else \
                            args["Process Group Description"]
                    collectives.append({
                        "name": args.get("Collective name") or name, "start": start, "end": end,
                        "bytes": nelems * size if isinstance(nelems, (int, float)) and size else None,
                        "group": group, "group_size": args.get("Group size", -1),
                        "group_ranks": args.get("Process Group Ranks", "")})
                else:
                    comp.append((start, end))
            if "correlation" in args:
                kernels_by_corr.setdefault(args["correlation"], []).append((start, end))
        elif cat in RUNTIME_CATS:
            higher.append((start, end))
            if "correlation" in args:
                runtimes.append((start, end, args["correlation"]))
        elif is_comm(name):
            higher.append((start, end))

    device, comp, comm = merge(device), merge(comp), merge(comm)
    overlap = intersect(comm, comp)
    loading = subtract(merge(loader), merge(higher))
    comm_starts.sort()
    collectives.sort(key=lambda c: c["start"])

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
    ends = {name: [x[1] for x in lst] for name, lst in
            (("device", device), ("comp", comp), ("comm", comm), ("overlap", overlap), ("loading", loading))}
    out_steps, previous_end = [], None
    for k, (number, cpu_start, cpu_end) in enumerate(steps):
        s = cpu_start if dev_min[k] is None else min(cpu_start, dev_min[k])
        if previous_end is not None:
            s = max(s, previous_end)
        e = cpu_end if dev_max[k] is None else max(cpu_end, dev_max[k])
        e = max(e, s)
        previous_end = e
        if e <= s:
            continue
        c = within(comm, ends["comm"], s, e)
        o = within(overlap, ends["overlap"], s, e)
        i = bisect.bisect_left(comm_starts, e)
        out_steps.append({
            "step": number, "start": s, "end": e, "computation": within(comp, ends["comp"], s, e) / 1e6,
            "communication": (c - o) / 1e6, "overlapped": o / 1e6,
            "idle": (e - s - within(device, ends["device"], s, e)) / 1e6,
            "data_loading": within(loading, ends["loading"], s, e) / 1e6,
            "last_offset": (comm_starts[i - 1] - s) / 1e6 if i > 0 and comm_starts[i - 1] >= s else None})
    top = sorted(kernel_stats.items(), key=lambda kv: -kv[1][1])[:50]
    return {"rank": rank, "path": path, "steps": out_steps, "collectives": collectives,
            "kernels": [{"name": n, "count": v[0], "total": v[1] / 1e6, "max": v[2] / 1e6} for n, v in top]}


def cluster(digests):
    by_step = {}
    for d in digests:
        for s in d["steps"]:
            if s["last_offset"] is not None:
                by_step.setdefault(s["step"], []).append((d["rank"], s["last_offset"]))
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
    return stragglers


def run(paths, jobs):
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            digests = pool.map(digest, paths, chunksize=1)
    else:
        digests = [digest(p) for p in paths]
    return digests, cluster(digests)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes, one trace each at a time")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    seconds = []
    for _ in range(max(1, args.repeat)):
        start = time.perf_counter()
        digests, stragglers = run(args.paths, args.jobs)
        seconds.append(time.perf_counter() - start)
    totals = {"ranks": len(digests), "steps": 0, "computation": 0.0, "communication": 0.0, "overlapped": 0.0,
              "idle": 0.0, "data_loading": 0.0, "collectives": 0, "collective_bytes": 0.0,
              "stragglers": len(stragglers)}
    for d in digests:
        totals["steps"] += len(d["steps"])
        for s in d["steps"]:
            for key in ("computation", "communication", "overlapped", "idle", "data_loading"):
                totals[key] += s[key]
        totals["collectives"] += len(d["collectives"])
        totals["collective_bytes"] += sum(c["bytes"] or 0 for c in d["collectives"])
    print(json.dumps({"seconds": seconds, "totals": totals}))


if __name__ == "__main__":
    main()
