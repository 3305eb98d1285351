#!/usr/bin/env python3
"""Decodes a MindSpore lineage file with a self-contained protobuf wire-format walker (no generated code,
no RunLens), printing the values tst_lineagereader expects from the sample:

    python3 lineage_sample_decode.py .../run_a/events.out.events.summary.1700000000.0.helperhost_lineage

Field numbers (MindSpore lineage.proto): LineageEvent 1 wall_time, 6 train, 7 evaluation, 9 dataset graph,
10 user defined info. The CRCs are checked with an independent CRC-32C implementation.
"""
import json
import struct
import sys


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(buf, pos):
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def fields(buf):
    """(number, wire type, value) of each field: ints for varints, bytes for length-delimited, raw for fixed."""
    pos, out = 0, []
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            size, pos = varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError("wire type %d" % wire)
        out.append((number, wire, value))
    return out


def one(buf, number):
    found = [v for n, _, v in fields(buf) if n == number]
    return found[-1] if found else None


def f32(raw):
    return struct.unpack("<f", raw)[0]


def map_entries(buf, number):
    out = {}
    for n, _, entry in fields(buf):
        if n == number:
            out[one(entry, 1).decode()] = one(entry, 2)
    return out


def dataset_ops(node):
    ops = []
    for n, _, child in fields(node):
        if n == 1:
            ops += dataset_ops(child)
    param = one(node, 2) or b""
    strings = {k: v.decode() for k, v in map_entries(param, 1).items()}
    ints = map_entries(param, 4)
    bools = map_entries(param, 3)
    ops.append((strings.pop("op_type", ""), strings, ints, bools))
    return ops


def main(path):
    data = open(path, "rb").read()
    pos = 0
    while pos < len(data):
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[pos + 8:pos + 12])[0] == masked(crc32c(header)), "length crc"
        payload = data[pos + 12:pos + 12 + length]
        assert struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])[0] == masked(crc32c(payload))
        print("record at %d, %d bytes" % (pos, length))
        event = fields(payload)
        for number, _, value in event:
            if number == 6:
                hyper, dataset, algorithm, model = (one(value, i) for i in (1, 2, 3, 4))
                print("  optimizer", one(hyper, 1).decode(), "learning_rate(float)", repr(f32(one(hyper, 2))),
                      "loss_function", one(hyper, 3).decode(), "epoch", one(hyper, 4),
                      "parallel_mode", one(hyper, 5).decode(), "device_num", one(hyper, 6),
                      "batch_size", one(hyper, 8))
                print("  train dataset", one(dataset, 1).decode(), one(dataset, 2))
                print("  network", one(algorithm, 1).decode(), "loss(float)", repr(f32(one(algorithm, 2))))
                print("  model", one(model, 3).decode(), one(model, 4))
            elif number == 7:
                print("  metric", json.loads(one(value, 2).decode()))
                valid = one(value, 3)
                print("  valid dataset", one(valid, 1).decode(), one(valid, 2))
            elif number == 9:
                for op in dataset_ops(value):
                    print("  dataset op", op)
            elif number == 10:
                print("  user defined info", value)
        pos += 16 + length


if __name__ == "__main__":
    main(sys.argv[1])
