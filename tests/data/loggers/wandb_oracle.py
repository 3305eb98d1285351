#!/usr/bin/python3
"""Reference reading of a W&B run file (`run-<id>.wandb`), written from the documented format independently of
the C++ reader (and of gen_wandb.py): LevelDB log framing checked fragment by fragment, protobuf decoded with a
generic wire-format walker. Prints {"fragments": {...}, "display_name": ..., "hparams": {...},
"scalars": {"tag": [[step, wall_time, value], ...]}} as JSON. Usage: wandb_oracle.py FILE
"""
import json
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import WANDB  # noqa: E402  the system metric names of wandb-events.jsonl

BLOCK = 32768


def records(data):
    assert data[:4] == b":W&B" and struct.unpack("<HB", data[4:7]) == (0xBEE1, 0), "bad header"
    pos, pending, kinds = 7, None, {}
    while pos < len(data):
        left = BLOCK - pos % BLOCK
        if left < 7:
            pos += left
            continue
        if len(data) - pos < 7:
            break
        crc, length, kind = struct.unpack("<IHB", data[pos:pos + 7])
        chunk = data[pos + 7:pos + 7 + length]
        assert len(chunk) == length and zlib.crc32(bytes([kind]) + chunk) & 0xFFFFFFFF == crc, "bad fragment"
        kinds[kind] = kinds.get(kind, 0) + 1
        pos += 7 + length
        if kind == 1:
            yield chunk
        elif kind == 2:
            pending = chunk
        elif kind == 3:
            pending += chunk
        elif kind == 4:
            yield pending + chunk
            pending = None
    records.kinds = kinds


def fields(buf):
    """(number, value) pairs of one protobuf message: ints for varints, bytes for length-delimited."""
    pos = 0
    while pos < len(buf):
        key, pos = uvarint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = uvarint(buf, pos)
        elif wire == 2:
            length, pos = uvarint(buf, pos)
            value, pos = buf[pos:pos + length], pos + length
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError("wire type %d" % wire)
        yield num, value


def uvarint(buf, pos):
    shift = result = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, pos


def one(buf, num, default=None):
    for n, v in fields(buf):
        if n == num:
            default = v
    return default


def item_key(it):
    nested = [v.decode() for n, v in fields(it) if n == 2]
    return "/".join(nested) if nested else one(it, 1, b"").decode()


def item_value(it):
    return json.loads(one(it, 16, b"null"))


def timestamp(buf):
    return one(buf, 1, 0) + one(buf, 2, 0) / 1e9


def plain(v):
    return isinstance(v, (int, float, str)) and not isinstance(v, bool)


def main(path):
    with open(path, "rb") as f:
        data = f.read()
    scalars, config, summary, run = {}, {}, {}, {}
    counters = {}
    stats_row = 0
    history_row = 0

    def add(tag, step, wall, value):
        scalars.setdefault(tag, []).append([int(step), wall, float(value)])

    def read_config(buf):
        for n, it in fields(buf):
            if n == 1:
                k, v = item_key(it), item_value(it)
                if not k.startswith("_") and plain(v):
                    config[k] = v

    def read_summary(buf):
        for n, it in fields(buf):
            if n == 1:
                k, v = item_key(it), item_value(it)
                if not k.startswith("_") and plain(v):
                    summary["summary/" + k] = v

    for rec in records(data):
        for kind, body in fields(rec):
            if kind == 2:
                items = {item_key(it): item_value(it) for n, it in fields(body) if n == 1}
                step_msg = one(body, 2)
                step = one(step_msg, 1, 0) if step_msg is not None else items.get("_step", history_row)
                wall = items.get("_timestamp", 0.0)
                for k, v in items.items():
                    if not k.startswith("_") and plain(v) and not isinstance(v, str):
                        add(k, step, wall, v)
                history_row += 1
            elif kind == 7:
                wall = timestamp(one(body, 2, b""))
                for n, it in fields(body):
                    if n != 3:
                        continue
                    tag, v = WANDB["system." + one(it, 1).decode()](json.loads(one(it, 16)))
                    if tag.endswith("_per_s"):
                        last = counters.get(tag)
                        counters[tag] = (wall, v)
                        if last is not None and wall > last[0]:
                            add(tag, stats_row, wall, (v - last[1]) / (wall - last[0]))
                        continue
                    add(tag, stats_row, wall, v)
                stats_row += 1
            elif kind == 5:
                read_config(body)
            elif kind == 3:
                read_summary(body)
            elif kind == 17:
                names = {1: "run_id", 2: "entity", 3: "project", 7: "job_type", 8: "display_name", 13: "host"}
                tags = []
                for n, v in fields(body):
                    if n in names:
                        run["wandb." + names[n]] = v.decode()
                    elif n == 4:
                        read_config(v)
                    elif n == 5:
                        read_summary(v)
                    elif n == 10:
                        tags.append(v.decode())
                if tags:
                    run["wandb.tags"] = ", ".join(tags)
            elif kind == 18:
                run["wandb.exit_code"] = one(body, 1, 0)
                run["wandb.runtime"] = one(body, 2, 0)
    hparams = dict(config)
    hparams.update(summary)
    hparams.update(run)
    json.dump({"fragments": {str(k): v for k, v in sorted(records.kinds.items())},
               "display_name": run.get("wandb.display_name", ""), "hparams": hparams, "scalars": scalars},
              sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
