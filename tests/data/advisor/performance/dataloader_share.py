#!/usr/bin/env python3
"""Independent data-loader share of a Kineto trace, as the PyTorch profiler plugin's overview defines it.

Steps are the ProfilerStep#N spans, stretched to the device work their runtime calls launched (joined by
the `correlation` arg) and clipped so that steps do not overlap. Within the steps, time belongs to the
highest-priority activity running: kernels, copies, sets, runtime calls, then the DataLoader spans. The
share is the DataLoader time over the summed step time, printed as a percentage.
Usage: dataloader_share.py TRACE[.json.gz]
"""

import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def union(intervals):
    out = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return out


def clip(intervals, start, end):
    return [(max(a, start), min(b, end)) for a, b in intervals if b > start and a < end]


def length(intervals):
    return sum(b - a for a, b in intervals)


def subtract(intervals, holes):
    out = []
    holes = union(holes)
    for a, b in intervals:
        cursor = a
        for ha, hb in holes:
            if hb <= cursor or ha >= b:
                continue
            if ha > cursor:
                out.append((cursor, ha))
            cursor = max(cursor, hb)
        if cursor < b:
            out.append((cursor, b))
    return out


def main():
    events = [e for e in load(sys.argv[1]) if e.get("ph") == "X" and "dur" in e]
    span = lambda e: (float(e["ts"]), float(e["ts"]) + float(e["dur"]))
    device_cats = {"kernel", "memcpy", "memset", "gpu_memcpy", "gpu_memset"}
    device = [e for e in events if str(e.get("cat", "")).lower() in device_cats]
    runtime = [e for e in events if str(e.get("cat", "")).lower() in ("runtime", "cuda_runtime")]
    by_correlation = {}
    for e in device:
        c = e.get("args", {}).get("correlation")
        if c is not None:
            by_correlation.setdefault(c, []).append(span(e))
    steps = sorted(span(e) for e in events if str(e.get("name", "")).startswith("ProfilerStep#"))
    ranges = []
    for cpu_start, cpu_end in steps:
        start, end = cpu_start, cpu_end
        for r in runtime:
            rs, re_ = span(r)
            if rs >= cpu_start and re_ <= cpu_end:
                for ds, de in by_correlation.get(r.get("args", {}).get("correlation"), []):
                    start, end = min(start, ds), max(end, de)
        if ranges:
            start = max(start, ranges[-1][1])
        ranges.append((start, end))
    busy = union([span(e) for e in device] + [span(r) for r in runtime])
    loader = union([span(e) for e in events if str(e.get("name", "")).startswith("enumerate(DataLoader)")])
    loader_time = 0.0
    total = 0.0
    for start, end in ranges:
        total += end - start
        loader_time += length(subtract(clip(loader, start, end), clip(busy, start, end)))
    print("%.6f" % (100.0 * loader_time / total if total else 0.0))


if __name__ == "__main__":
    main()
