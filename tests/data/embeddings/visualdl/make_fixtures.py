#!/usr/bin/python3
"""Writes the VisualDL embeddings fixtures of this folder (run with Debian's /usr/bin/python3: protobuf).

- hidi/vdlrecords.1618468473.log: the start of VisualDL's demo log
  frontend/packages/demo/logs/hidi-new/vdlrecords.1618468473.log (VisualDL repository, Apache-2.0): its
  meta_data record, then its `default` add_embeddings record cut to the first 40 of its 3000 points
  (25 dimensions, one label each, no header). The kept points are the upstream bytes as VisualDL wrote
  them; only the enclosing lengths are recomputed. Needs the upstream log as argument 1.
- header/vdlrecords.1700000100.log: written here, for what the demo lacks: a metadata header with two
  columns (add_embeddings' `metadata_header`), the five points of VisualDL's own add_embeddings example,
  and a second tag `words` with a single label column.

Regenerate with: /usr/bin/python3 make_fixtures.py <path to hidi-new/vdlrecords.1618468473.log>
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vdlembeddings  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
KEPT_POINTS = 40


def varint(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def encode_varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def fields(data):
    """(field number, wire type, raw bytes of the whole field, payload) of each field, in order."""
    at = 0
    while at < len(data):
        start = at
        key, at = varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, at = varint(data, at)
            payload = None
        elif wire == 1:
            at += 8
            payload = None
        elif wire == 5:
            at += 4
            payload = None
        elif wire == 2:
            length, at = varint(data, at)
            payload = data[at:at + length]
            at += length
        else:
            raise ValueError("wire type %d" % wire)
        yield number, wire, data[start:at], payload


def delimited(number, payload):
    return encode_varint((number << 3) | 2) + encode_varint(len(payload)) + payload


def trim_embeddings_record(payload):
    """Keeps the first KEPT_POINTS Embedding entries of each embeddings value, byte for byte."""
    out = b""
    for number, wire, raw, value in fields(payload):
        if number != 1 or wire != 2:
            out += raw
            continue
        new_value = b""
        for vnumber, vwire, vraw, vpayload in fields(value):
            if vnumber == 7 and vwire == 2:
                kept = b""
                points = 0
                for enumber, ewire, eraw, _ in fields(vpayload):
                    if enumber == 1 and ewire == 2:
                        points += 1
                        if points > KEPT_POINTS:
                            continue
                    kept += eraw
                new_value += delimited(7, kept)
            else:
                new_value += vraw
        out += delimited(1, new_value)
    return out


def write_hidi(upstream):
    with open(upstream, "rb") as f:
        data = f.read()
    payloads = list(vdlembeddings.frames(data))[:2]
    os.makedirs(os.path.join(HERE, "hidi"), exist_ok=True)
    with open(os.path.join(HERE, "hidi", "vdlrecords.1618468473.log"), "wb") as f:
        f.write(vdlembeddings.frame(payloads[0]))
        f.write(vdlembeddings.frame(trim_embeddings_record(payloads[1])))


def write_header():
    mat = [[1.3561076367500755, 1.3116267195134017, 1.6785401875616097],
           [1.1039614644440658, 1.8891609992484688, 1.32030488587171],
           [1.9924524852447711, 1.9358920727142739, 1.2124401279391606],
           [1.4129542689796446, 1.7372166387197474, 1.7317806077076527],
           [1.3913371800587777, 1.4684674577930312, 1.5214136352476377]]
    columns = [["label_a_1", "label_a_2", "label_a_3", "label_a_4", "label_a_5"],
               ["label_b_1", "label_b_2", "label_b_3", "label_b_4", "label_b_5"]]
    header = ["label_a", "label_b"]
    words = {"cat": [0.5, -1.0], "dog": [0.25, -0.75], "car": [-2.0, 3.0], "bus": [-1.5, 2.5]}

    out = b""
    meta = vdlembeddings.Record()
    value = meta.values.add(id=0, tag="meta_data_tag", timestamp=1700000100000)
    value.meta_data.display_name = "header"
    out += vdlembeddings.frame(meta.SerializeToString())

    record = vdlembeddings.Record()
    value = record.values.add(id=0, tag="default", timestamp=1700000100001)
    value.embeddings.label_meta.extend(header)
    for i, row in enumerate(mat):
        point = value.embeddings.embeddings.add()
        point.label.extend([column[i] for column in columns])
        point.vectors.extend(row)
    out += vdlembeddings.frame(record.SerializeToString())

    record = vdlembeddings.Record()
    value = record.values.add(id=3, tag="words", timestamp=1700000100002)
    for word, vector in words.items():
        point = value.embeddings.embeddings.add()
        point.label.append(word)
        point.vectors.extend(vector)
    out += vdlembeddings.frame(record.SerializeToString())

    os.makedirs(os.path.join(HERE, "header"), exist_ok=True)
    with open(os.path.join(HERE, "header", "vdlrecords.1700000100.log"), "wb") as f:
        f.write(out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    write_hidi(sys.argv[1])
    write_header()
