#!/usr/bin/env python3
"""Writes offset_buffers.tflite: a FULLY_CONNECTED model whose constant buffers follow the flatbuffer, located
by Buffer.offset/size as converters write models over 2 GB (a real one is far too big to keep here). It is
written from the published format with flatc (Debian flatbuffers-compiler) and the reader's own schema
(importers/graph/schema/tflite.fbs, upstream field ids). The buffers hold float32, int8 (quantized, with
scale and zero point), int32, float16 and int64 elements, and "wrong_length" is a hostile float32 [3] tensor
whose buffer holds 8 bytes: a length that is not elements x element size.

Usage: make_offset_buffers.py  (run from anywhere; needs /usr/bin/python3 with numpy)."""
import json
import os
import subprocess
import tempfile

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "importers", "graph", "schema", "tflite.fbs"))
rng = numpy.random.default_rng(22)
PAYLOADS = [
    rng.standard_normal((3, 4)).astype("<f4").tobytes(),  # weights, float32 [3, 4]
    rng.integers(-128, 127, size=(3, 4), dtype=numpy.int8).tobytes(),  # quantized weights, int8 [3, 4]
    numpy.array([5, -7, 11], "<i4").tobytes(),  # bias, int32 [3]
    rng.standard_normal(6).astype("<f2").tobytes(),  # half, float16 [2, 3]
    numpy.array([1, -2, 1 << 40], "<i8").tobytes(),  # shape-like, int64 [3]
    numpy.array([1.5, 2.5], "<f4").tobytes(),  # wrong_length: 8 bytes for float32 [3]
]
TENSORS = [
    {"name": "input", "type": 0, "shape": [1, 4]},
    {"name": "dense/kernel", "type": 0, "shape": [3, 4], "buffer": 1},
    {"name": "dense/kernel_int8", "type": 9, "shape": [3, 4], "buffer": 2,
     "quantization": {"scale": [0.05], "zero_point": [-3]}},
    {"name": "dense/bias", "type": 2, "shape": [3], "buffer": 3},
    {"name": "half", "type": 1, "shape": [2, 3], "buffer": 4},
    {"name": "wide", "type": 4, "shape": [3], "buffer": 5},
    {"name": "wrong_length", "type": 0, "shape": [3], "buffer": 6},
    {"name": "output", "type": 0, "shape": [1, 3]},
    {"name": "sink", "type": 0, "shape": [3]},
]


def model(offsets):
    buffers = [{}] + [{"offset": o, "size": len(p)} for o, p in zip(offsets, PAYLOADS)]
    return {
        "version": 3,
        "description": "RunLens fixture: constant buffers after the flatbuffer (Buffer.offset/size).",
        "operator_codes": [{"deprecated_builtin_code": 9, "builtin_code": 9}, {"deprecated_builtin_code": 0}],
        "subgraphs": [{
            "name": "main",
            "tensors": TENSORS,
            "inputs": [0],
            "outputs": [7, 8],
            "operators": [{"opcode_index": 0, "inputs": [0, 1, 3], "outputs": [7]},
                          {"opcode_index": 1, "inputs": [2, 4, 5, 6], "outputs": [8]}],
        }],
        "buffers": buffers,
    }


def flatbuffer(offsets, tmp):
    path = os.path.join(tmp, "offset_buffers.json")
    with open(path, "w") as f:
        json.dump(model(offsets), f)
    subprocess.run(["flatc", "--binary", "-o", tmp, SCHEMA, path], check=True)
    with open(os.path.join(tmp, "offset_buffers.tflite"), "rb") as f:
        return f.read()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        # Offsets are fixed-size fields: the flatbuffer's length does not depend on their values.
        size = len(flatbuffer([1 << 20] * len(PAYLOADS), tmp))
        offsets, at = [], (size + 15) // 16 * 16
        for p in PAYLOADS:
            offsets.append(at)
            at = (at + len(p) + 15) // 16 * 16
        head = flatbuffer(offsets, tmp)
        assert len(head) == size
    out = bytearray(head)
    for o, p in zip(offsets, PAYLOADS):
        out += bytes(o - len(out)) + p
    with open(os.path.join(HERE, "offset_buffers.tflite"), "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
