#!/usr/bin/python3
"""Writes W&B run files (`run-<id>.wandb`) from the documented format, with protobuf encoded by hand.

Format (W&B's wandb/sdk/internal/datastore.py and wandb/proto/wandb_internal.proto): a 7-byte header
(`:W&B`, magic 0xBEE1 little-endian, version 0), then LevelDB log framing in 32,768-byte blocks counted from
the start of the file: each fragment is crc32 (zlib, of the type byte and the data, little-endian), length
(uint16 LE), type (1 full, 2 first, 3 middle, 4 last) and the data; fewer than 7 bytes left in a block are
zero padding. Each logical record is a protobuf `Record`.

    gen_wandb.py            the fixture wandb-binary/wandb/offline-run-20261127_101010-abc123/run-abc123.wandb
                            (~50 history records, one of them split first/middle/last over three blocks)
    gen_wandb.py seed       the small corrupt-input seed wandb-seed/run-seed.wandb (one record split
                            first/last over the first block boundary)
"""
import json
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
BLOCK = 32768
FULL, FIRST, MIDDLE, LAST = 1, 2, 3, 4


def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(num, value):
    return varint(num << 3) + varint(value)


def field_bytes(num, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(num << 3 | 2) + varint(len(data)) + data


def item(key, value, nested=None):
    body = b""
    if nested:
        for part in nested:
            body += field_bytes(2, part)
    else:
        body += field_bytes(1, key)
    return body + field_bytes(16, json.dumps(value))


def timestamp(seconds, nanos=0):
    return field_varint(1, seconds) + (field_varint(2, nanos) if nanos else b"")


def record(num, kind, body):
    return field_varint(1, num) + field_bytes(kind, body)


class Writer:
    def __init__(self):
        self.data = bytearray(b":W&B" + struct.pack("<HB", 0xBEE1, 0))
        self.types = []

    def fragment(self, kind, chunk):
        crc = zlib.crc32(bytes([kind]) + chunk) & 0xFFFFFFFF
        self.data += struct.pack("<IHB", crc, len(chunk), kind) + chunk
        self.types.append(kind)

    def write(self, payload):
        first = True
        while True:
            left = BLOCK - len(self.data) % BLOCK
            if left < 7:
                self.data += b"\0" * left
                continue
            room = left - 7
            if len(payload) <= room:
                self.fragment(FULL if first else LAST, payload)
                return
            self.fragment(FIRST if first else MIDDLE, payload[:room])
            payload = payload[room:]
            first = False


T0 = 1795774210  # 2026-11-27 10:10:10 UTC


def run_file(history_count, big_at, big_chars, display_name, run_id):
    w = Writer()
    n = 0

    def put(kind, body):
        nonlocal n
        n += 1
        w.write(record(n, kind, body))

    put(21, b"")  # HeaderRecord: not read, skipped as an unknown field
    config = b"".join(field_bytes(1, item(k, v)) for k, v in
                      [("lr", 0.001), ("batch_size", 64), ("optimizer", "adamw"), ("layers", [64, 32]),
                       ("_wandb", {"python_version": "3.11"})])
    run = (field_bytes(1, run_id) + field_bytes(2, "team") + field_bytes(3, "runlens-demo") + field_bytes(4, config)
           + field_bytes(7, "train") + field_bytes(8, display_name) + field_bytes(10, "baseline")
           + field_bytes(10, "fp16") + field_bytes(13, "node-01") + field_bytes(17, timestamp(T0)))
    put(17, run)
    put(11, field_bytes(1, b"\x10\x01"))  # TelemetryRecord: skipped
    put(5, field_bytes(1, item("warmup_steps", 100)) + field_bytes(1, item("dropout", 0.1)))
    sent = recv = 0
    for i in range(history_count):
        items = [item("_step", i), item("_timestamp", T0 + 2.0 * i + 0.5), item("_runtime", 2.0 * i),
                 item("loss", round(2.0 / (1 + 0.1 * i), 6)), item("accuracy", round(0.5 + 0.009 * i, 6))]
        if i % 10 == 9:
            items.append(item(None, round(1.5 / (1 + 0.1 * i), 6), nested=["eval", "loss"]))
        if i == big_at:
            items.append(item("sample_text", "x" * big_chars))
        put(2, b"".join(field_bytes(1, it) for it in items) + field_bytes(2, field_varint(1, i)))
        if i % 5 == 4:
            sent += 1048576 * (3 + i % 4)
            recv += 2097152
            stats = [("cpu", 40.0 + i), ("memory", 30.5), ("gpu.0.gpu", 80 + i % 7),
                     ("gpu.0.memoryAllocatedBytes", 4294967296 + 1048576 * i), ("gpu.0.powerWatts", 250.25),
                     ("network.sent", sent), ("network.recv", recv), ("proc.memory.rssMB", 2048.5)]
            put(7, field_varint(1, 0) + field_bytes(2, timestamp(T0 + 2 * i + 1, 250000000))
                + b"".join(field_bytes(3, field_bytes(1, k) + field_bytes(16, json.dumps(v))) for k, v in stats))
    summary = [("loss", round(2.0 / (1 + 0.1 * (history_count - 1)), 6)), ("best_accuracy", 0.941),
               ("status", "done"), ("_runtime", 2.0 * history_count)]
    put(3, b"".join(field_bytes(1, item(k, v)) for k, v in summary))
    put(18, field_varint(1, 0) + field_varint(2, 2 * history_count))
    return w


def main():
    if sys.argv[1:] == ["seed"]:
        w = run_file(10, 6, 31000, "seed-run", "seed")
        path = os.path.join(HERE, "wandb-seed/run-seed.wandb")
    else:
        w = run_file(50, 25, 70000, "bright-fox-7", "abc123")
        path = os.path.join(HERE, "wandb-binary/wandb/offline-run-20261127_101010-abc123/run-abc123.wandb")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(w.data)
    print(path, len(w.data), "bytes, fragments:", {t: w.types.count(t) for t in (FULL, FIRST, MIDDLE, LAST)})


if __name__ == "__main__":
    main()
