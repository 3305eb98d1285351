#!/usr/bin/env python3
"""Peer of bench_clusterload: the same aggregation with Python's csv and json modules.

Per rank: the average row ('-') of step_trace_raw_{id}_detail_time.csv (ticks of 10 ns to ms),
the FLOPS of flops_summary_{id}.json; per link: the average row of every hccl_raw_{id}.csv, links
reported by both ends averaged; then the slow ranks (step interval > 20 % above the mean) and slow
links (bandwidth > 20 % below the mean of their type).

Timed inside Python, as RunLens is timed inside its process: interpreter start-up and imports are not in
the times. WARMUP untimed runs first (as many as RunLens makes), then REPEAT timed runs;
prints one JSON line with every run's seconds and the counts it found.

    peer_clusterload.py [--repeat N] [--warmup W] DIR
    peer_clusterload.py --kineto ORACLE [--repeat N] [--warmup W] TRACE [TRACE ...]

The second form times the Python oracle of the cluster tests (kineto_cluster_oracle.py: json.load of each
trace, the temporal breakdown, overlap and stragglers) the same way, its JSON output written to memory.
"""
import argparse
import contextlib
import csv
import importlib.util
import io
import json
import os
import re
import sys
import time


def aggregate(folder):
    ranks = {}
    links = {}
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        m = re.match(r"^step_trace_raw_(\d+)_detail_time\.csv$", name)
        if m:
            with open(path, newline="") as f:
                for row in csv.DictReader(f):
                    if row["step_num"] == "-":
                        ranks.setdefault(int(m.group(1)), {})["interval"] = float(row["iteration_interval"]) / 1e5
                        ranks[int(m.group(1))]["total"] = float(row["total"]) / 1e5
            continue
        m = re.match(r"^flops_summary_(\d+)\.json$", name)
        if m:
            with open(path) as f:
                ranks.setdefault(int(m.group(1)), {})["flops"] = json.load(f).get("FLOPS")
            continue
        m = re.match(r"^hccl_raw_(\d+)\.csv$", name)
        if m:
            with open(path, newline="") as f:
                for row in csv.DictReader(f):
                    if row["step_num"] != "-":
                        continue
                    for key, types in json.loads(row["link_info"]).items():
                        src, dst = (int(x) for x in key.split("-"))
                        for kind, values in types.items():
                            links.setdefault((src, dst, kind), []).append(values)
    mean_links = {k: [sum(v[i] for v in vs) / len(vs) for i in range(3)] for k, vs in links.items()}
    intervals = [r["interval"] for r in ranks.values() if "interval" in r]
    mean = sum(intervals) / len(intervals) if intervals else 0
    slow = [k for k, r in ranks.items() if "interval" in r and mean > 0 and r["interval"] / mean - 1 > 0.2]
    by_type = {}
    for (src, dst, kind), v in mean_links.items():
        if src != dst:
            by_type.setdefault(kind, []).append(v[2])
    slow_links = [k for k, v in mean_links.items()
                  if k[0] != k[1] and v[2] < 0.8 * sum(by_type[k[2]]) / len(by_type[k[2]])]
    return {"ranks": len(ranks), "links": len(mean_links), "slow_ranks": len(slow), "slow_links": len(slow_links)}


def kineto_runner(oracle, traces):
    spec = importlib.util.spec_from_file_location("kineto_cluster_oracle", oracle)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def run():
        saved = sys.argv
        sys.argv = [oracle] + traces
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                module.main()
        finally:
            sys.argv = saved
        return {"ranks": len(json.loads(out.getvalue())["ranks"])}
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs first")
    parser.add_argument("--kineto", metavar="ORACLE")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    run = kineto_runner(args.kineto, args.paths) if args.kineto else (lambda: aggregate(args.paths[0]))
    found = None
    for _ in range(args.warmup):
        found = run()
    seconds = []
    for _ in range(max(1, args.repeat)):
        start = time.perf_counter()
        found = run()
        seconds.append(time.perf_counter() - start)
    print(json.dumps(dict(found, seconds=seconds)))


if __name__ == "__main__":
    main()
