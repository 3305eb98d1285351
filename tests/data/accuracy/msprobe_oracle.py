"""Independent reading of an msprobe dump folder for tst_msprobedumpreader.

Prints one JSON document: the header, every entry in file order with its name parts (taken apart from the
right) and its rows flattened as msprobe's compare does, the construct.json parents and, per stack owner,
the number of frames and the first frame's file and line. Non-finite numbers are printed as strings so the
output is strict JSON.
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


def is_leaf(value):
    return isinstance(value, dict) and isinstance(value.get("type"), str)


def parts_of(name):
    p = name.split(".")
    out = {"prefix": p[0], "counter": -1, "direction": "unknown", "api": "", "path": "", "cls": ""}
    if p[0] in ("Module", "Cell"):
        if p[-1] == "parameters_grad":
            out.update(cls=p[-2], path=".".join(p[1:-2]), direction="parameters_grad")
        elif p[-2] == "parameters_grad":
            out.update(cls=p[-3], path=".".join(p[1:-3]), direction="parameters_grad", counter=int(p[-1]))
        else:
            out.update(cls=p[-3], path=".".join(p[1:-3]), direction=p[-2], counter=int(p[-1]))
    else:
        out.update(api=".".join(p[1:-2]), direction=p[-1], counter=int(p[-2]))
    return out


def rows_of(name, record):
    rows = []

    def walk(value, prefix):
        if isinstance(value, dict) and not is_leaf(value):
            for key, item in value.items():
                walk(item, prefix + "." + key)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, prefix + "." + str(index))
        else:
            row = {"name": prefix}
            if isinstance(value, dict):
                if value.get("data_name") and value["data_name"] != "-1":
                    row["name"] = os.path.splitext(value["data_name"])[0]
                for key in ("dtype", "shape", "Max", "Min", "Mean", "Norm", "requires_grad", "md5", "type"):
                    if key in value:
                        row[key] = finite(value[key])
                if "value" in value:
                    row["value"] = finite(value["value"])
            rows.append(row)

    if parts_of(name)["direction"] == "parameters_grad":
        for key, item in record.items():
            walk(item[0] if isinstance(item, list) and len(item) == 1 else item, name + "." + key)
    else:
        for key, section in (("input_args", "input"), ("input_kwargs", "input"), ("input", "input"),
                             ("parameters", "parameters"), ("output", "output")):
            if record.get(key) is not None:
                walk(record[key], name + "." + section)
    return rows


with open(os.path.join(folder, "dump.json")) as f:
    dump = json.load(f)
result = {key: dump.get(key) for key in ("task", "level", "framework")}
result["entries"] = [dict(name=name, parts=parts_of(name), rows=rows_of(name, record))
                     for name, record in dump["data"].items()]

construct_path = os.path.join(folder, "construct.json")
if os.path.exists(construct_path):
    with open(construct_path) as f:
        result["parents"] = {child: parent or "" for child, parent in json.load(f).items()}

stack_path = os.path.join(folder, "stack.json")
if os.path.exists(stack_path):
    with open(stack_path) as f:
        stacks = json.load(f)
    owners = {}
    if "0" in stacks:
        for names, frames in stacks.values():
            for owner in names:
                owners[owner] = frames
    else:
        owners = stacks
    frame = re.compile(r"File (.*), line (\d+), in (.*?), \n (.*)", re.S)
    result["stacks"] = {}
    for owner, frames in owners.items():
        first = frame.match(frames[0]) if frames else None
        result["stacks"][owner] = {"frames": len(frames), "file": first.group(1) if first else "",
                                   "line": int(first.group(2)) if first else -1}

print(json.dumps(result))
