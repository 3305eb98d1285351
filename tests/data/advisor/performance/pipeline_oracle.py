#!/usr/bin/env python3
"""What MindInsight's data-pipeline checks say about one rank of a MindSpore profiler folder, computed
straight from its files: the share of host-queue samples that were empty (device_queue_profiling, type-1
lines "1 capacity step size"), the busy CPU (100 - mean idle_utilization of minddata_cpu_utilization),
and the source ops whose output queue is used below 60 % (minddata_pipeline_raw), as Type_id labels.
Usage: pipeline_oracle.py FOLDER RANK
"""

import csv
import json
import pathlib
import sys

folder, rank = pathlib.Path(sys.argv[1]), sys.argv[2]
sizes = []
for line in (folder / ("device_queue_profiling_%s.txt" % rank)).read_text().split("\n"):
    fields = line.split()
    if len(fields) >= 4 and fields[0] == "1":
        sizes.append(float(fields[3]))
empty = 100.0 * sum(1 for s in sizes if s == 0) / len(sizes)
idle = json.loads((folder / ("minddata_cpu_utilization_%s.json" % rank)).read_text())["device_info"]["idle_utilization"]
busy = 100.0 - sum(idle) / len(idle)
slow_sources = []
with open(folder / ("minddata_pipeline_raw_%s.csv" % rank), newline="") as f:
    for row in csv.DictReader(f):
        is_source = not row["children_id"].strip()
        usage = row["output_queue_usage_rate"].strip()
        if is_source and usage and float(usage) < 0.6:
            slow_sources.append("%s_%s" % (row["op_type"], row["op_id"]))
print("%.6f %.6f %s" % (empty, busy, ",".join(sorted(slow_sources))))
