#!/usr/bin/python3
"""Which rows msprobe's cross-framework compare would pair, computed from two dump.json files on its rules.

Usage: msprobe_match_oracle.py BENCH_DUMP_JSON TARGET_DUMP_JSON API_TABLE_JSON
Prints JSON {"api": [[bench_row, target_row], ...], "cell": [...], "target_rows": N, "bench_rows": N}.

Rules (research note accuracy-compare.md, sections 3.1 and 3.2):
* rows: each entry flattened into `{entry}.{input|output|parameters}.{path}` (input_args and input_kwargs
  both `.input`, list index or dict key per level, a dict with a string `type` is a leaf, a null leaf is a
  row, an empty list/dict no row); shape as text (`None` for a null leaf, `[]` for a non-tensor value,
  torch.Size its value);
* `-am` (API compare): the target's row name has its `Prefix.api` (first two fields) translated: Mint ->
  Torch, MintFunctional -> Functional, else the built-in table; no Cell -> Module;
* `-cm` (cell compare): `Cell` -> `Module` (first occurrence), rows outside forward/backward/parameters_grad
  get no key; API names stay;
* pairs: equal key and equal shape text (the outer join on name and shape), then the dtype gate across
  frameworks: int*/uint* -> int, float*/bf16 -> float, bool, complex; other dtypes must be equal.
"""
import json
import sys


def flatten(value, name, out, params_grad=False, depth=0):
    if value is None:
        out.append((name, "None", None))
        return
    if isinstance(value, list):
        for i, v in enumerate(value):
            flatten(v, name if params_grad else "%s.%d" % (name, i), out, params_grad, depth + 1)
        return
    if isinstance(value, dict):
        if isinstance(value.get("type"), str):
            dtype = value.get("dtype")
            if dtype:
                shape = str(value.get("shape"))
            elif value.get("type") == "torch.Size":
                dtype, shape = "torch.Size", str(value.get("value"))
            elif value.get("type") == "torch.ProcessGroup":
                dtype, shape = "torch.ProcessGroup", "[]"
            else:
                dtype, shape = str(type(value.get("value"))), "[]"
            data_name = value.get("data_name")
            out.append((data_name.rsplit(".", 1)[0] if data_name else name, shape, dtype))
            return
        for k, v in value.items():
            flatten(v, "%s.%s" % (name, k), out, params_grad, depth + 1)


def rows_of(path):
    with open(path) as f:
        data = json.load(f).get("data", {})
    rows = []
    for entry, record in data.items():
        fields = entry.split(".")
        if fields[-1] == "parameters_grad" or (len(fields) >= 2 and fields[-2] == "parameters_grad"):
            flatten(record, entry, rows, params_grad=True)
            continue
        for key, io in (("input_args", "input"), ("input_kwargs", "input"), ("input", "input"),
                        ("output", "output"), ("parameters", "parameters")):
            if key in record:
                flatten(record[key], entry + "." + io, rows)
    return rows


def dtype_class(d):
    d = str(d)
    low = d.lower().replace("torch.", "")
    if low.startswith("int") or low.startswith("uint"):
        return "int"
    if low.startswith("float") or low.startswith("bfloat"):
        return "float"
    if low == "bool":
        return "bool"
    if low.startswith("complex"):
        return "complex"
    return d


def main():
    bench = rows_of(sys.argv[1])
    target = rows_of(sys.argv[2])
    with open(sys.argv[3]) as f:
        table = json.load(f)["apis"]

    def api_key(name):
        fields = name.split(".")
        api = fields[0] + "." + fields[1]
        if fields[0] == "Mint":
            return name.replace("Mint", "Torch")
        if fields[0] == "MintFunctional":
            return name.replace("MintFunctional", "Functional")
        if api in table:
            return name.replace(api, table[api])
        return name

    def cell_key(name):
        fields = name.split(".")
        if ".forward." not in name and ".backward." not in name and "parameters_grad" not in fields:
            return None
        return name.replace("Cell", "Module", 1)

    by_key = {}
    for b in bench:
        by_key.setdefault((b[0], b[1]), []).append(b)

    def pairs(key_of):
        out = []
        for t in target:
            key = key_of(t[0])
            if key is None:
                continue
            for b in by_key.get((key, t[1]), []):
                if b[2] == t[2] or dtype_class(b[2]) == dtype_class(t[2]):
                    out.append([b[0], t[0]])
        return out

    print(json.dumps({"api": pairs(api_key), "cell": pairs(cell_key), "target_rows": len(target),
                      "bench_rows": len(bench)}))


if __name__ == "__main__":
    main()
