#!/usr/bin/env python3
"""Oracle for the Tensors panel's SavedModel and checkpoint weights: reads a checkpoint's `.index` (a
LevelDB-style sorted table: footer, index block, data blocks, each plain or Snappy-compressed; Snappy is
decoded here) with python, its BundleHeaderProto/BundleEntryProto values with google.protobuf (RunLens's own
protos compiled by protoc, see protos.py), and the bytes of every whole numeric entry with numpy from its
data shard. Prints JSON: {"entries": N, "listed": {key: {"count", "sum", "first", "last", "name"}}}, where
"name" is the variable op of the SavedModel's "serve" meta graph the entry belongs to (the key itself in TF1,
the SavedVariable the key's object path reaches in a TF2 object graph), or the key when no op stands for it.

Usage: checkpoint_oracle.py PREFIX [SAVED_MODEL.pb]  (PREFIX.index and PREFIX.data-*)."""
import json
import struct
import sys

import numpy

import protos

saved_model_pb2, _ = protos.load()

# TensorFlow DataType values whose checkpoint bytes are plain elements, as numpy reads them.
NUMPY = {1: "f4", 2: "f8", 3: "i4", 4: "u1", 5: "i2", 6: "i1", 8: "c8", 9: "i8", 10: "?", 14: "bfloat16",
         17: "u2", 18: "c16", 19: "f2", 22: "u4", 23: "u8"}


def varint(b, i):
    shift = value = 0
    while True:
        c = b[i]
        i += 1
        value |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            return value, i


def snappy(b):
    size, i = varint(b, 0)
    out = bytearray()
    while i < len(b):
        tag = b[i]
        i += 1
        kind = tag & 3
        if kind == 0:
            n = tag >> 2
            if n >= 60:
                extra = n - 59
                n = int.from_bytes(b[i:i + extra], "little")
                i += extra
            n += 1
            out += b[i:i + n]
            i += n
            continue
        if kind == 1:
            n, off = 4 + ((tag >> 2) & 7), ((tag >> 5) << 8) | b[i]
            i += 1
        elif kind == 2:
            n, off = (tag >> 2) + 1, int.from_bytes(b[i:i + 2], "little")
            i += 2
        else:
            n, off = (tag >> 2) + 1, int.from_bytes(b[i:i + 4], "little")
            i += 4
        for _ in range(n):  # byte by byte: a copy may overlap what it writes
            out.append(out[-off])
    assert len(out) == size
    return bytes(out)


def block(data, handle):
    offset, i = varint(handle, 0)
    size, _ = varint(handle, i)
    raw, kind = data[offset:offset + size], data[offset + size]
    return snappy(raw) if kind == 1 else raw


def entries(b):
    restarts = struct.unpack_from("<I", b, len(b) - 4)[0]
    end = len(b) - 4 - 4 * restarts
    i, key = 0, b""
    while i < end:
        shared, i = varint(b, i)
        unshared, i = varint(b, i)
        length, i = varint(b, i)
        key = key[:shared] + b[i:i + unshared]
        i += unshared
        yield key, b[i:i + length]
        i += length


def summary(flat):
    if numpy.iscomplexobj(flat):
        flat = flat.real
    flat = flat.astype(numpy.float64)
    return {"count": int(flat.size), "sum": float(flat.sum()), "first": [float(v) for v in flat[:8]],
            "last": float(flat[-1]) if flat.size else 0.0}


def variable_names(path):
    """Checkpoint key -> variable op name, for the serve meta graph of a SavedModel."""
    model = saved_model_pb2.SavedModel()
    model.ParseFromString(open(path, "rb").read())
    meta = next((m for m in model.meta_graphs if "serve" in m.meta_info_def.tags), model.meta_graphs[0])
    ops = {n.name for n in meta.graph_def.node if n.op in ("VariableV2", "Variable", "VarHandleOp", "VarHandleOpV2")}
    names = {name: name for name in ops}
    nodes = meta.object_graph_def.nodes
    paths, queue = {0: ""}, [0] if len(nodes) else []
    for at in queue:  # breadth first from the root: the first path to an object names it
        obj = nodes[at]
        if obj.HasField("variable") and obj.variable.name in ops and paths[at]:
            names.setdefault(paths[at] + "/.ATTRIBUTES/VARIABLE_VALUE", obj.variable.name)
        for child in obj.children:
            if child.node_id not in paths:
                local = child.local_name.replace(".", "..").replace("/", ".S")
                paths[child.node_id] = local if not paths[at] else paths[at] + "/" + local
                queue.append(child.node_id)
    return names


def main():
    prefix = sys.argv[1]
    names = variable_names(sys.argv[2]) if len(sys.argv) > 2 else {}
    data = open(prefix + ".index", "rb").read()
    footer = data[-48:]
    assert struct.unpack_from("<Q", footer, 40)[0] == 0xdb4775248b80fb57
    _, i = varint(footer, 0)  # the metaindex handle: offset, size
    _, i = varint(footer, i)
    index_block = block(data, footer[i:])
    header = saved_model_pb2.BundleHeaderProto()
    little = True
    shards = 1
    listed = {}
    count = 0
    for _, handle in entries(index_block):
        for key, value in entries(block(data, handle)):
            if key == b"":
                header.ParseFromString(value)
                little = header.endianness == 0
                shards = max(header.num_shards, 1)
                continue
            count += 1
            e = saved_model_pb2.BundleEntryProto()
            e.ParseFromString(value)
            dims = [d.size for d in e.shape.dim]
            if (e.dtype not in NUMPY or e.slices or not little or e.shape.unknown_rank or any(d < 0 for d in dims)
                    or e.size <= 0):
                continue
            n = int(numpy.prod(dims, dtype=numpy.int64))
            with open("%s.data-%05d-of-%05d" % (prefix, e.shard_id, shards), "rb") as f:
                f.seek(e.offset)
                buf = f.read(e.size)
            if NUMPY[e.dtype] == "bfloat16":
                if len(buf) != 2 * n:
                    continue
                values = (numpy.frombuffer(buf, "<u2").astype(numpy.uint32) << 16).view(numpy.float32)
            else:
                dtype = numpy.dtype("<" + NUMPY[e.dtype])
                if len(buf) != dtype.itemsize * n or e.size != dtype.itemsize * n:
                    continue
                values = numpy.frombuffer(buf, dtype)
            key = key.decode("utf-8", "replace")
            listed[key] = dict(summary(values), name=names.get(key, key))
    print(json.dumps({"entries": count, "listed": listed}, sort_keys=True))


if __name__ == "__main__":
    main()
