#!/usr/bin/env python3
"""Peak of `Total Allocated` of the [memory] events of one CUDA device in a Kineto trace, as a percentage
of that device's totalGlobalMem from deviceProperties.
Usage: memory_peak.py TRACE[.json.gz] DEVICE_ID
"""

import gzip
import json
import sys

path, device = sys.argv[1], int(sys.argv[2])
with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
    doc = json.load(f)
capacity = next(p["totalGlobalMem"] for p in doc["deviceProperties"] if p["id"] == device)
peak = max(
    e["args"]["Total Allocated"]
    for e in doc["traceEvents"]
    if e.get("name") == "[memory]" and e["args"].get("Device Type") == 1 and e["args"].get("Device Id") == device
)
print("%.9f %d %d" % (100.0 * peak / capacity, peak, capacity))
