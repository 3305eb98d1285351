#!/usr/bin/env python3
"""Peer of bench_clusterload: the same aggregation with Python's csv and json modules.

Per rank: the average row ('-') of step_trace_raw_{id}_detail_time.csv (ticks of 10 ns to ms),
the FLOPS of flops_summary_{id}.json; per link: the average row of every hccl_raw_{id}.csv, links
reported by both ends averaged; then the slow ranks (step interval > 20 % above the mean) and slow
links (bandwidth > 20 % below the mean of their type). Prints the counts it found.

    peer_clusterload.py DIR
"""
import csv
import json
import os
import re
import sys


def main(folder):
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
    print("ranks %d links %d slow ranks %d slow links %d" % (len(ranks), len(mean_links), len(slow), len(slow_links)))


if __name__ == "__main__":
    main(sys.argv[1])
