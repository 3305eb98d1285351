#!/usr/bin/python3
"""Independent oracle for VisualDL ROC records.

Reads a vdlrecords log (8-byte little-endian length, then a `Record` payload) with a hand-written protobuf
wire-format decoder and prints JSON: {tag: [{"step", "tp", "fp", "tn", "fn", "tpr", "fpr", "auc"}]}.
Field numbers are those of VisualDL's record.proto: Record.values = 1; Value.id = 1, tag = 2,
timestamp = 3, roc_curve = 11; ROC_Curve TP..FN = 1..4 (int64), tpr = 5, fpr = 6 (double).

The rates come from the counts (VisualDL's stored tpr divides by the negatives). The AUC is the
trapezoid rule over FPR of the points sorted by (FPR, TPR), closed with (0, 0) and (1, 1), leaving out
entries without both classes.
"""
import json
import struct
import sys


def varint(buf, pos):
    value = 0
    shift = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def fields(buf):
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 1:
            value = buf[pos:pos + 8]
            pos += 8
        elif wire == 2:
            length, pos = varint(buf, pos)
            value = buf[pos:pos + length]
            pos += length
        elif wire == 5:
            value = buf[pos:pos + 4]
            pos += 4
        else:
            raise ValueError("wire type %d" % wire)
        yield number, wire, value


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def ints(wire, value):
    if wire == 0:
        return [signed(value)]
    out = []
    pos = 0
    while pos < len(value):
        v, pos = varint(value, pos)
        out.append(signed(v))
    return out


def auc(tpr, fpr):
    points = sorted([(0.0, 0.0)] + list(zip(fpr, tpr)) + [(1.0, 1.0)])
    area = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        area += (x1 - x0) * (y0 + y1) / 2.0
    return area


def main(path):
    data = open(path, "rb").read()
    pos = 0
    result = {}
    while pos + 8 <= len(data):
        (length,) = struct.unpack_from("<Q", data, pos)
        payload = data[pos + 8:pos + 8 + length]
        pos += 8 + length
        for number, _, value in fields(payload):
            if number != 1:
                continue
            step, tag, roc = 0, b"", None
            for n, w, v in fields(value):
                if n == 1:
                    step = signed(v)
                elif n == 2:
                    tag = v
                elif n == 11:
                    roc = v
            if roc is None:
                continue
            counts = {1: [], 2: [], 3: [], 4: []}
            for n, w, v in fields(roc):
                if n in counts:
                    counts[n] += ints(w, v)
            tp, fp, tn, fn = counts[1], counts[2], counts[3], counts[4]
            tpr, fpr = [], []
            for i in range(len(tp)):
                if tp[i] + fn[i] > 0 and fp[i] + tn[i] > 0:
                    tpr.append(tp[i] / (tp[i] + fn[i]))
                    fpr.append(fp[i] / (fp[i] + tn[i]))
            result.setdefault(tag.decode("utf-8"), []).append(
                {"step": step, "tp": tp, "fp": fp, "tn": tn, "fn": fn, "tpr": tpr, "fpr": fpr,
                 "auc": auc(tpr, fpr)})
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
