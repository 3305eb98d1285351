#!/usr/bin/python3
"""Reference reading of the logger fixtures with Python's csv and json modules only.

Prints {"file": {"tag": [[step, wall_time, value], ...]}} as JSON; non-finite values as the strings "nan",
"inf" and "-inf". The rules are the documented ones of each logger (see README.md), written independently of
the C++ reader so that the test compares two readings of the same files.
"""
import csv
import datetime
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MIB = 1024.0 * 1024.0


def num(v):
    if v is None or v == "":
        return None
    try:
        return float(v)
    except ValueError:
        return None


def add(out, tag, step, wall, value):
    out.setdefault(tag, []).append([int(step), wall, value])


def csv_table(path, step_col, wall_col=None, text_cols=()):
    out = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            step = int(float(row[step_col]))
            wall = float(row[wall_col]) if wall_col else 0.0
            for key, cell in row.items():
                if key in (step_col, wall_col) or key in text_cols:
                    continue
                v = num(cell)
                if v is not None:
                    add(out, key, step, wall, v)
    return out


def jsonl(path, step_key, wall_key, system=False):
    out = {}
    counters = {}
    with open(path) as f:
        for row, line in enumerate(f):
            if not line.strip():
                continue
            obj = json.loads(line)

            def flat(prefix, o):
                for k, v in o.items():
                    if isinstance(v, dict):
                        yield from flat(prefix + k + "/", v)
                    else:
                        yield prefix + k, v
            items = dict(flat("", obj))
            step = int(items.get(step_key, row))
            wall = float(items.get(wall_key, 0.0))
            for k, v in items.items():
                if k in (step_key, wall_key) or k.startswith("_") or isinstance(v, (str, bool)):
                    continue
                if system:
                    k, v = WANDB[k](v)
                    if k.endswith("_per_s"):
                        # a byte counter since the start: the rate since the previous sample
                        last = counters.get(k)
                        counters[k] = (wall, v)
                        if last is not None and wall > last[0]:
                            add(out, k, step, wall, (v - last[1]) / (wall - last[0]))
                        continue
                add(out, k, step, wall, float(v))
    return out


WANDB = {
    "system.gpu.0.gpu": lambda v: ("system/gpu0_util_percent", v),
    "system.gpu.0.memoryAllocatedBytes": lambda v: ("system/gpu0_mem_used_MiB", v / MIB),
    "system.gpu.0.temp": lambda v: ("system/gpu0_temperature_C", v),
    "system.gpu.0.powerWatts": lambda v: ("system/gpu0_power_W", v),
    "system.cpu": lambda v: ("system/cpu_busy_percent", v),
    "system.memory": lambda v: ("system/mem_used_percent", v),
    "system.proc.memory.rssMB": lambda v: ("system/process_rss_MiB", v),
    "system.network.sent": lambda v: ("system/net_total_tx_MiB_per_s", v / MIB),
    "system.network.recv": lambda v: ("system/net_total_rx_MiB_per_s", v / MIB),
}


def trainer_state(path):
    out = {}
    with open(path) as f:
        state = json.load(f)
    for entry in state["log_history"]:
        for k, v in entry.items():
            if k == "step":
                continue
            tag = "eval/" + k[5:] if k.startswith("eval_") else "test/" + k[5:] if k.startswith("test_") else "train/" + k
            add(out, tag, entry["step"], 0.0, float(v))
    return out


MLFLOW_SYSTEM = {
    "system/gpu_0_utilization_percentage": ("system/gpu0_util_percent", 1.0),
    "system/gpu_0_memory_usage_megabytes": ("system/gpu0_mem_used_MiB", 1e6 / MIB),
    "system/cpu_utilization_percentage": ("system/cpu_busy_percent", 1.0),
    "system/network_receive_megabytes": ("system/net_total_rx_MiB_per_s", 1e6 / MIB),
}


def mlflow(run_dir):
    out = {}
    metrics = os.path.join(run_dir, "metrics")
    for root, _, files in os.walk(metrics):
        for name in files:
            tag = os.path.relpath(os.path.join(root, name), metrics)
            tag, factor = MLFLOW_SYSTEM.get(tag, (tag, 1.0))
            with open(os.path.join(root, name)) as f:
                rows = [line.split() for line in f if line.strip()]
            last = None
            for ts, value, step in rows:
                wall, v = int(ts) / 1000.0, float(value) * factor
                if tag.endswith("_per_s"):
                    # megabytes since the start: the rate since the previous sample
                    if last is not None and wall > last[0]:
                        add(out, tag, int(step), wall, (v - last[1]) / (wall - last[0]))
                    last = (wall, v)
                    continue
                add(out, tag, int(step), wall, v)
    return out


SMI_TAGS = {"utilization.gpu": "util_percent", "memory.used": "mem_used_MiB", "memory.total": "mem_total_MiB",
            "power.draw": "power_W", "clocks.sm": "sm_clock_MHz", "temperature.gpu": "temperature_C"}


QUERY = ["timestamp", "index", "utilization.gpu", "memory.used", "memory.total", "power.draw", "clocks.sm",
         "temperature.gpu"]


def nvidia_smi(path, noheader=False):
    out = {}
    counts = {}
    with open(path, newline="") as f:
        reader = csv.reader(f, skipinitialspace=True)
        header = QUERY if noheader else [h.split(" [")[0] for h in next(reader)]
        for row in reader:
            cells = dict(zip(header, row))
            gpu = cells["index"]
            step = counts.get(gpu, 0)
            counts[gpu] = step + 1
            wall = datetime.datetime.strptime(cells["timestamp"], "%Y/%m/%d %H:%M:%S.%f").timestamp()
            for prop, tag in SMI_TAGS.items():
                v = num(cells[prop].split(" ")[0]) if cells[prop] != "[N/A]" else None
                if v is not None:
                    add(out, "system/gpu%s_%s" % (gpu, tag), step, wall, v)
    return out


DCGM_TAGS = {"GPUTL": "util_percent", "POWER": "power_W", "SMCLK": "sm_clock_MHz", "GTEMP": "temperature_C",
             "FBUSD": "mem_used_MiB"}


def dcgmi(path):
    out = {}
    counts = {}
    fields = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0].startswith("#"):
                fields = [p for p in line.lstrip("#").split()][1:]
                continue
            if parts[0] != "GPU":
                continue
            gpu = parts[1]
            step = counts.get(gpu, 0)
            counts[gpu] = step + 1
            for field, cell in zip(fields, parts[2:]):
                v = num(cell)
                if v is not None:
                    add(out, "system/gpu%s_%s" % (gpu, DCGM_TAGS[field]), step, 0.0, v)
    return out


W = "wandb/wandb/offline-run-20240115_102345-abc123de/files/"
FILES = {
    "lightning/lightning_logs/version_0/metrics.csv": lambda p: csv_table(p, "step"),
    "keras/history.csv": lambda p: csv_table(p, "epoch"),
    "plain/metrics.csv": lambda p: csv_table(p, "iteration", "time", ("phase",)),
    "plain/metrics.jsonl": lambda p: jsonl(p, "global_step", "timestamp"),
    "hf/out/trainer_state.json": trainer_state,
    "mlflow/mlruns/0/5f2a9c1b3d4e4f6a8b7c6d5e4f3a2b1c/meta.yaml": lambda p: mlflow(os.path.dirname(p)),
    W + "wandb-history.jsonl": lambda p: jsonl(p, "_step", "_timestamp"),
    W + "wandb-events.jsonl": lambda p: jsonl(p, "_step", "_timestamp", system=True),
    "gpu/nvidia-smi.csv": nvidia_smi,
    "gpu/nvidia-smi-nounits.csv": nvidia_smi,
    "gpu/nvidia-smi-noheader.csv": lambda p: nvidia_smi(p, noheader=True),
    "gpu/dcgmi-dmon.txt": dcgmi,
}


def encode(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def main():
    result = {}
    for rel, read in FILES.items():
        series = read(os.path.join(HERE, rel))
        result[rel] = {tag: [[s, w, encode(v)] for s, w, v in points] for tag, points in series.items()}
    json.dump(result, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
