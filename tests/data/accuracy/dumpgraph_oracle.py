"""Independent reading of an msprobe dump folder for tst_dumpgraph.

Prints one JSON document: every dump.json entry in file order with its direction, its module ancestors
(root first) from construct.json (a backward entry construct.json leaves without a parent takes its forward
twin's parent renamed to backward, as msprobe's visualisation does), its tensor rows with their statistics,
and its stack: the number of frames outside msprobe and the first frame written by the user.
"""
import json
import math
import os
import re
import sys

folder = sys.argv[1]


def finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def parts_of(name):
    p = name.split(".")
    if p[0] in ("Module", "Cell"):
        if "parameters_grad" in p[-2:]:
            return {"module": True, "direction": "parameters_grad", "cls": p[p.index("parameters_grad") - 1]}
        return {"module": True, "direction": p[-2], "cls": p[-3], "counter": int(p[-1]),
                "scope": ".".join(p[:-2])}
    return {"module": False, "direction": p[-1], "counter": int(p[-2]), "scope": ".".join(p[:-2])}


def twin(name, direction):
    q = parts_of(name)
    if q["direction"] not in ("forward", "backward"):
        return name
    if q["module"]:
        return "%s.%s.%d" % (q["scope"], direction, q["counter"])
    return "%s.%d.%s" % (q["scope"], q["counter"], direction)


with open(os.path.join(folder, "dump.json")) as f:
    data = json.load(f)["data"]
construct = {}
if os.path.exists(os.path.join(folder, "construct.json")):
    with open(os.path.join(folder, "construct.json")) as f:
        construct = {k: (v[0] if isinstance(v, list) else v) or "" for k, v in json.load(f).items()}


def parent(name):
    if construct.get(name):
        return construct[name]
    q = parts_of(name)
    if q["direction"] == "backward":
        fwd = twin(name, "forward")
        if fwd in construct:
            return twin(construct[fwd], "backward") if construct[fwd] else ""
    return ""


def ancestors(name):
    out = []
    p = parent(name)
    while p and p not in out:
        out.insert(0, p)
        p = parent(p)
    return out


def rows_of(name, record):
    rows = []

    def walk(value, label):
        if isinstance(value, dict) and not isinstance(value.get("type"), str):
            for key, item in value.items():
                walk(item, label + "." + key)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, label + "." + str(index))
        elif isinstance(value, dict) and "dtype" in value and "shape" in value:
            row = {"label": label, "dtype": value["dtype"], "shape": value["shape"]}
            for key in ("Max", "Min", "Mean", "Norm", "md5"):
                if value.get(key) is not None and not isinstance(value.get(key), bool):
                    row[key] = finite(value[key])
            rows.append(row)

    for key, section in (("input_args", "input"), ("input_kwargs", "input"), ("input", "input"),
                         ("parameters", "parameters"), ("output", "output")):
        if record.get(key) is not None:
            walk(record[key], section)
    return rows


stacks = {}
if os.path.exists(os.path.join(folder, "stack.json")):
    with open(os.path.join(folder, "stack.json")) as f:
        raw = json.load(f)
    if "0" in raw:
        for names, frames in raw.values():
            for owner in names:
                stacks[owner] = frames
    else:
        stacks = raw
frame_re = re.compile(r"File (.*), line (\d+), in (.*?), \n (.*)", re.S)


def stack_of(name):
    frames = stacks.get(name)
    if frames is None and parts_of(name)["direction"] == "backward":
        frames = stacks.get(twin(name, "forward"))
    if frames is None:
        return {"frames": 0}
    files = [(m.group(1), int(m.group(2))) if m else ("", 0) for m in (frame_re.match(f) for f in frames)]
    kept = [f for f in files if "/msprobe/" not in f[0]]
    user = [f for f in kept if f[0] and not any(s in f[0] for s in ("/site-packages/", "/dist-packages/",
                                                                    "/lib/python"))]
    first = user[0] if user else (kept[0] if kept else ("", 0))
    return {"frames": len(kept), "file": first[0], "line": first[1]}


entries = []
for name, record in data.items():
    q = parts_of(name)
    entry = {"name": name, "direction": q["direction"], "module": q["module"], "ancestors": [
        dict(name=a, cls=parts_of(a)["cls"] if parts_of(a)["module"] else "", counter=parts_of(a).get("counter", -1))
        for a in ancestors(name)], "rows": rows_of(name, record)}
    if q["module"] and q["direction"] != "parameters_grad":
        entry["cls"], entry["counter"] = q["cls"], q["counter"]
    entry["stack"] = stack_of(name)
    entries.append(entry)
print(json.dumps({"entries": entries}))
