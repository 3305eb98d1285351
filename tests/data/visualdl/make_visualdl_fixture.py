#!/usr/bin/env python3
"""Writes vdlrecords.1700000000.log and expected.json: a VisualDL log as VisualDL's LogWriter lays it out,
and what a reader must find in it.

Independent of RunLens's .proto: the protobuf wire format is written by hand from VisualDL's field numbers
(visualdl/proto/record.proto: Record.values = 1; Value id = 1, tag = 2, timestamp = 3, value = 4,
image = 5, histogram = 8, pr_curve = 9, meta_data = 10, text = 12; Image.encoded_image_string = 4;
Histogram hist = 1, bin_edges = 2 (packed doubles); PRCurve TP/FP/TN/FN = 1..4 (packed int64),
precision = 5, recall = 6 (packed doubles); MetaData.display_name = 1; Text.encoded_text_string = 1).
Histograms follow numpy.histogram(values, bins=n) and PR curves VisualDL's compute_curve, both redone in
plain Python. Framing: 8-byte little-endian length, then the payload, no checksum.

Run from this folder: python3 make_visualdl_fixture.py
"""
import json
import random
import struct
import zlib


def varint(n):
    n &= (1 << 64) - 1  # negative int64 as two's complement, like protobuf
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint((field << 3) | wire)


def field_varint(field, n):
    return key(field, 0) + varint(n)


def field_bytes(field, data):
    return key(field, 2) + varint(len(data)) + data


def field_float(field, x):
    return key(field, 5) + struct.pack("<f", x)


def packed_doubles(field, xs):
    return field_bytes(field, b"".join(struct.pack("<d", x) for x in xs))


def packed_int64(field, xs):
    return field_bytes(field, b"".join(varint(x) for x in xs))


def value(step, tag, ms, oneof):
    return field_varint(1, step) + field_bytes(2, tag.encode()) + field_varint(3, ms) + oneof


def record(*values):
    payload = b"".join(field_bytes(1, v) for v in values)
    return struct.pack("<Q", len(payload)) + payload


def histogram(values, bins):
    """numpy.histogram(values, bins): equal-width bins over [min, max], the last bin closed."""
    lo, hi = min(values), max(values)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    edges = [lo + (hi - lo) * i / bins for i in range(bins)] + [hi]  # numpy.linspace ends on `stop` exactly
    counts = [0.0] * bins
    for v in values:
        i = int((v - lo) / (hi - lo) * bins)
        counts[min(i, bins - 1)] += 1.0
    return counts, edges


def compute_curve(labels, predictions, num_thresholds):
    """VisualDL's compute_curve: reverse cumulative sums of per-bucket positives and negatives."""
    tp_b = [0.0] * num_thresholds
    fp_b = [0.0] * num_thresholds
    for label, p in zip(labels, predictions):
        i = int(p * (num_thresholds - 1))
        if label:
            tp_b[i] += 1.0
        else:
            fp_b[i] += 1.0
    tp = [sum(tp_b[i:]) for i in range(num_thresholds)]
    fp = [sum(fp_b[i:]) for i in range(num_thresholds)]
    tn = [fp[0] - x for x in fp]
    fn = [tp[0] - x for x in tp]
    precision = [t / max(1e-7, t + f) for t, f in zip(tp, fp)]
    recall = [t / max(1e-7, t + f) for t, f in zip(tp, fn)]
    return {"tp": [int(x) for x in tp], "fp": [int(x) for x in fp], "tn": [int(x) for x in tn],
            "fn": [int(x) for x in fn], "precision": precision, "recall": recall}


def png(width, height, shade):
    """A greyscale PNG of width x height whose pixel (x, y) is (shade + x + y) % 256."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes((shade + x + y) % 256 for x in range(width)) for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def main():
    rng = random.Random(7)
    base_ms = 1700000000000
    out = bytearray()
    expected = {"display_name": "paddle-fixture", "scalars": {}, "histograms": {}, "images": {}, "texts": {},
                "pr_curves": {}}
    out += record(value(0, "meta_data_tag", base_ms, field_bytes(10, field_bytes(1, b"paddle-fixture"))))
    for step in range(0, 50, 10):
        ms = base_ms + step * 1000 + 3
        loss = 1.0 / (step + 1)
        out += record(value(step, "train/loss", ms, field_float(4, loss)))
        expected["scalars"].setdefault("train/loss", []).append(
            {"step": step, "wall_time": ms / 1000.0, "value": struct.unpack("<f", struct.pack("<f", loss))[0]})

        weights = [rng.gauss(0.1 * step, 1.0) for _ in range(200)]
        counts, edges = histogram(weights, 10)
        out += record(value(step, "fc.weight", ms + 1,
                            field_bytes(8, packed_doubles(1, counts) + packed_doubles(2, edges))))
        expected["histograms"].setdefault("fc.weight", []).append(
            {"step": step, "wall_time": (ms + 1) / 1000.0, "min": min(weights), "max": max(weights),
             "count": 200.0, "buckets": [[edges[i], edges[i + 1], counts[i]] for i in range(10)]})

        image = png(6 + step // 10, 4, step)
        out += record(value(step, "input/sample", ms + 2, field_bytes(5, field_bytes(4, image))))
        expected["images"].setdefault("input/sample", []).append(
            {"step": step, "wall_time": (ms + 2) / 1000.0, "png_hex": image.hex(), "width": 6 + step // 10,
             "height": 4})

        text = "step %d: **ünïcode** ok" % step
        out += record(value(step, "notes", ms + 3, field_bytes(12, field_bytes(1, text.encode()))))
        expected["texts"].setdefault("notes", []).append(
            {"step": step, "wall_time": (ms + 3) / 1000.0, "text": text})

        labels = [rng.randint(0, 1) for _ in range(100)]
        predictions = [min(0.999, max(0.0, 0.5 * l + 0.5 * rng.random())) for l in labels]
        curve = compute_curve(labels, predictions, 11)
        body = (packed_int64(1, curve["tp"]) + packed_int64(2, curve["fp"]) + packed_int64(3, curve["tn"])
                + packed_int64(4, curve["fn"]) + packed_doubles(5, curve["precision"])
                + packed_doubles(6, curve["recall"]))
        out += record(value(step, "pr/eval", ms + 4, field_bytes(9, body)))
        curve.update({"step": step, "wall_time": (ms + 4) / 1000.0})
        expected["pr_curves"].setdefault("pr/eval", []).append(curve)
    # The histogram's min and max are the outer edges (numpy's default range is the data's range).
    for item in expected["histograms"]["fc.weight"]:
        assert item["buckets"][0][0] == item["min"] and item["buckets"][-1][1] == item["max"]
        assert sum(b[2] for b in item["buckets"]) == item["count"]
    with open("vdlrecords.1700000000.log", "wb") as f:
        f.write(out)
    with open("expected.json", "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
