#!/usr/bin/env python3
"""Independent reading of a .tflite model for the graph reader's tests.

flatc (Debian flatbuffers-compiler) decodes the flatbuffer to JSON with the schema in
importers/graph/schema/tflite.fbs, whose field ids are upstream's; this script only counts what flatc
printed. The builtin options unions are printed as their raw type values (the schema's unions list only
the control-flow members, and flatc refuses to print a union member it does not know).

Usage: tflite_oracle.py MODEL.tflite SCHEMA.fbs  ->  JSON on stdout.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy


def oracle_schema(schema_text):
    # builtin_options:BuiltinOptions (id: 4)  ->  builtin_options_type:ubyte (id: 3); builtin_options:uint (id: 4);
    def field(match):
        name, number = match.group(1), int(match.group(3))
        return "  %s_type:ubyte (id: %d); %s:uint (id: %d);" % (name, number - 1, name, number)

    text = re.sub(r"^  (builtin_options(_2)?):BuiltinOptions2? \(id: (\d+)\);.*$", field, schema_text, flags=re.M)
    return re.sub(r"(?ms)^union \w+ \{.*?^\}", "", text)


def builtin_names(schema_text):
    body = re.search(r"enum BuiltinOperator : int \{(.*?)\}", schema_text, re.S).group(1)
    names = {}
    for name, value in re.findall(r"(\w+) = (\d+)", body):
        names[int(value)] = name
    return names


# numpy's reading of the TensorType values whose buffers hold plain little-endian elements.
NUMPY = {"float32": "<f4", "float16": "<f2", "int32": "<i4", "uint8": "u1", "int64": "<i8", "bool": "?",
         "int16": "<i2", "complex64": "<c8", "int8": "i1", "float64": "<f8", "complex128": "<c16",
         "uint64": "<u8", "uint32": "<u4", "uint16": "<u2", "bfloat16": "bfloat16"}


def summary(flat):
    """What the tests compare of a weight's values: count, sum, the first eight and the last (complex: real parts)."""
    if numpy.iscomplexobj(flat):
        flat = flat.real
    flat = flat.astype(numpy.float64)
    return {"count": int(flat.size), "sum": float(flat.sum()), "first": [float(v) for v in flat[:8]],
            "last": float(flat[-1]) if flat.size else 0.0}


def values(buf, type_name, shape):
    """The values of a buffer's bytes as elements of the tensor's type and shape, or None when they are not."""
    if type_name not in NUMPY or any(d < 0 for d in shape) or not buf:
        return None
    count = int(numpy.prod(shape, dtype=numpy.int64))
    if NUMPY[type_name] == "bfloat16":  # the upper half of a float32
        if len(buf) != 2 * count:
            return None
        return summary((numpy.frombuffer(buf, "<u2").astype(numpy.uint32) << 16).view(numpy.float32))
    dtype = numpy.dtype(NUMPY[type_name])
    if len(buf) != dtype.itemsize * count:
        return None
    return summary(numpy.frombuffer(buf, dtype))


def main():
    model, schema = sys.argv[1], sys.argv[2]
    with open(schema) as f:
        schema_text = f.read()
    names = builtin_names(schema_text)
    with tempfile.TemporaryDirectory() as tmp:
        fbs = os.path.join(tmp, "oracle.fbs")
        with open(fbs, "w") as f:
            f.write(oracle_schema(schema_text))
        subprocess.run(["flatc", "--json", "--strict-json", "--raw-binary", "-o", tmp, fbs, "--", model],
                       check=True, stdout=subprocess.DEVNULL)
        base = os.path.splitext(os.path.basename(model))[0]
        with open(os.path.join(tmp, base + ".json")) as f:
            data = json.load(f)

    def code_name(code):
        value = code.get("builtin_code", 0)
        if isinstance(value, str):  # flatc prints enum names
            value = {v: k for k, v in names.items()}[value]
        value = max(value, code.get("deprecated_builtin_code", 0))
        if value == 32 and code.get("custom_code"):
            return code["custom_code"]
        return names.get(value, "BUILTIN_%d" % value)

    codes = [code_name(c) for c in data.get("operator_codes", [])]
    buffers = data.get("buffers", [])
    out = {"subgraphs": [], "signatures": [s.get("signature_key", "") for s in data.get("signature_defs", [])],
           "description": data.get("description", ""), "version": data.get("version", 0)}
    for sg in data.get("subgraphs", []):
        tensors = sg.get("tensors", [])
        ops = sg.get("operators", [])
        op_types = {}
        for op in ops:
            t = codes[op.get("opcode_index", 0)]
            op_types[t] = op_types.get(t, 0) + 1
        produced = {t for op in ops for t in op.get("outputs", [])} | set(sg.get("inputs", []))
        weights = {}
        for op in ops:
            for t in op.get("inputs", []):
                if t < 0 or t in produced:
                    continue
                tensor = tensors[t]
                buffer = buffers[tensor["buffer"]] if tensor.get("buffer", 0) else {}
                data_bytes = len(buffer.get("data", [])) or (buffer.get("size", 0) if buffer.get("offset", 0) > 1 else 0)
                if data_bytes or tensor.get("is_variable", False):
                    weights[tensor.get("name", "")] = data_bytes
        # Constants the Tensors panel lists, their bytes taken from flatc's buffer (or, for models over 2 GB,
        # from the file at the buffer's offset).
        listed = {}
        with open(model, "rb") as f:
            file_bytes = f.read()
        for tensor in tensors:
            index = tensor.get("buffer", 0)
            if not index or index >= len(buffers):
                continue
            buffer = buffers[index]
            buf = bytes(buffer.get("data", []))
            if not buf and buffer.get("offset", 0) > 1 and buffer.get("size", 0) > 0:
                buf = file_bytes[buffer["offset"]:buffer["offset"] + buffer["size"]]
            t = tensor.get("type", "FLOAT32")
            v = values(buf, t.lower() if isinstance(t, str) else "", tensor.get("shape_signature") or tensor.get("shape", []))
            if v is not None:
                listed[tensor.get("name", "")] = v
        out_tensors = {}
        for tensor in tensors:
            shape = tensor.get("shape_signature") or tensor.get("shape", [])
            t = tensor.get("type", "FLOAT32")
            q = tensor.get("quantization", {})
            out_tensors[tensor.get("name", "")] = {
                "type": t.lower() if isinstance(t, str) else t,
                "shape": shape,
                "scale": q.get("scale", []),
                "zero_point": q.get("zero_point", []),
            }
        out["subgraphs"].append({
            "name": sg.get("name", ""),
            "operators": len(ops),
            "op_types": op_types,
            "first_outputs": [tensors[op["outputs"][0]].get("name", "") if op.get("outputs") else "" for op in ops],
            "inputs": [tensors[t].get("name", "") for t in sg.get("inputs", [])],
            "outputs": [tensors[t].get("name", "") for t in sg.get("outputs", [])],
            "tensors": out_tensors,
            "weights": weights,
            "listed": listed,
        })
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
