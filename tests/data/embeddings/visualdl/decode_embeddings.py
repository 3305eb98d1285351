#!/usr/bin/python3
"""The oracle of tst_visualdlreader: prints, as JSON, every add_embeddings value of the VisualDL logs given
as arguments, decoded by python3-protobuf with VisualDL's field numbers (see vdlembeddings.py):
{"<file>": [{"tag", "step", "points", "dims", "header", "labels", "values"}]}."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vdlembeddings  # noqa: E402

out = {}
for path in sys.argv[1:]:
    sets = []
    with open(path, "rb") as f:
        data = f.read()
    for payload in vdlembeddings.frames(data):
        record = vdlembeddings.Record()
        record.ParseFromString(payload)
        for value in record.values:
            if not value.HasField("embeddings"):
                continue
            points = value.embeddings.embeddings
            sets.append({
                "tag": value.tag,
                "step": value.id,
                "points": len(points),
                "dims": len(points[0].vectors) if points else 0,
                "header": list(value.embeddings.label_meta),
                "labels": [list(p.label) for p in points],
                "values": [[float(v) for v in p.vectors] for p in points],
            })
    out[os.path.basename(path)] = sets
json.dump(out, sys.stdout)
