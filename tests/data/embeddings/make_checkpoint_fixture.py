#!/usr/bin/python3
"""Writes TensorFlow V2 checkpoints (tensor bundles) for projector embeddings named by `tensor_name`.

TensorFlow is not a Debian package, so the bundle is written here from its documented format:
- `<prefix>.data-00000-of-00001` holds every tensor's little-endian bytes back to back, in the order the
  tensors are added (BundleWriter's default alignment of 1: no padding).
- `<prefix>.index` is a LevelDB-format table (tensorflow/core/lib/io/table_builder.cc, uncompressed as
  BundleWriter asks): data blocks of prefix-compressed entries with a restart point every 16 entries, an
  empty metaindex block, an index block (restart interval 1) whose keys are LevelDB's short separators and
  successor, each block followed by a type byte (0) and the masked CRC-32C of block + type byte, then the
  48-byte footer (two varint block handles padded to 40 bytes, magic 0xdb4775248b80fb57).
- The key "" maps to BundleHeaderProto {num_shards = 1, endianness = 2 (LITTLE = 0), version = 3
  (VersionDef.producer = 1)}; each tensor name maps to BundleEntryProto {dtype = 1, shape = 2
  (TensorShapeProto.dim = 2, Dim.size = 1), shard_id = 3, offset = 4, size = 5, crc32c = 6 (fixed32, the
  masked CRC-32C of the tensor's bytes)}, keys in byte order.
- The `checkpoint` state file is the text-format CheckpointState tf.train.Checkpoint writes.

Usage:
  make_checkpoint_fixture.py OUTPUT_FOLDER            the fixture (checkpoint/)
  make_checkpoint_fixture.py --cases OUTPUT_FOLDER    a bundle of odd and damaged entries (checkpoint_cases/)
  make_checkpoint_fixture.py --oracle FOLDER NAME     prints JSON {rows, dims, values} of NAME, read with
                                                      numpy from the data file at the offset this script
                                                      lays the tensor at (not from the index)
"""
import json
import os
import struct
import sys

import numpy as np

DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_STRING, DT_INT64 = 1, 2, 3, 4, 5, 6, 7, 9
DT_BFLOAT16, DT_HALF = 14, 19
MAGIC = 0xDB4775248B80FB57
PREFIX = "model.ckpt-100"

# ---- CRC-32C (Castagnoli), masked as LevelDB and TensorFlow store it ----------------------------------------

_CRC_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


# ---- protobuf wire format -----------------------------------------------------------------------------------


def varint(v):
    out = bytearray()
    v &= (1 << 64) - 1
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(number, v):
    return varint(number << 3) + varint(v)


def field_bytes(number, payload):
    return varint((number << 3) | 2) + varint(len(payload)) + payload


def field_fixed32(number, v):
    return varint((number << 3) | 5) + struct.pack("<I", v)


def header_proto():
    return field_varint(1, 1) + field_bytes(3, field_varint(1, 1))  # endianness LITTLE (0) is the default


def entry_proto(dtype, shape, offset, size, crc):
    shape_bytes = b"".join(field_bytes(2, field_varint(1, d)) for d in shape)
    out = field_varint(1, dtype) + field_bytes(2, shape_bytes)
    # shard_id 0 is proto3's default and not written.
    if offset:
        out += field_varint(4, offset)
    out += field_varint(5, size)
    if crc is not None:
        out += field_fixed32(6, crc)
    return out


# ---- LevelDB table ------------------------------------------------------------------------------------------


def block(entries, restart_interval):
    out = bytearray()
    restarts = [0]
    last = b""
    for i, (key, value) in enumerate(entries):
        if i and i % restart_interval == 0:
            restarts.append(len(out))
            last = b""
        shared = 0
        while shared < min(len(last), len(key)) and last[shared] == key[shared]:
            shared += 1
        out += varint(shared) + varint(len(key) - shared) + varint(len(value)) + key[shared:] + value
        last = key
    for r in restarts:
        out += struct.pack("<I", r)
    out += struct.pack("<I", len(restarts))
    return bytes(out)


def short_separator(start, limit):
    """LevelDB's BytewiseComparator::FindShortestSeparator."""
    n = min(len(start), len(limit))
    i = 0
    while i < n and start[i] == limit[i]:
        i += 1
    if i < n:
        b = start[i]
        if b < 0xFF and b + 1 < limit[i]:
            return start[: i] + bytes([b + 1])
    return start


def short_successor(key):
    for i, b in enumerate(key):
        if b != 0xFF:
            return key[:i] + bytes([b + 1])
    return key


def table(entries, block_size=96):
    """The whole .index file. TF's default block size is 256 KiB; a smaller one here gives the small
    fixture several data blocks, which the reader must walk through the index block."""
    out = bytearray()
    index = []

    def write(contents):
        handle = varint(len(out)) + varint(len(contents))
        out.extend(contents)
        out.append(0)
        out.extend(struct.pack("<I", masked(crc32c(contents + b"\x00"))))
        return handle

    pending = []
    size = 0
    for i, (key, value) in enumerate(entries):
        pending.append((key, value))
        size += len(key) + len(value) + 3
        last = i == len(entries) - 1
        if size >= block_size or last:
            handle = write(block(pending, 16))
            sep = short_successor(key) if last else short_separator(key, entries[i + 1][0])
            index.append((sep, handle))
            pending, size = [], 0
    meta_handle = write(block([], 16))
    index_handle = write(block(index, 1))
    footer = (meta_handle + index_handle).ljust(40, b"\x00")
    footer += struct.pack("<II", MAGIC & 0xFFFFFFFF, MAGIC >> 32)
    out.extend(footer)
    return bytes(out)


# ---- bundles ------------------------------------------------------------------------------------------------


def write_bundle(folder, prefix, tensors):
    """`tensors`: list of (name, dtype, shape, raw bytes, extra) in the order they go into the data file;
    extra may override 'size', 'crc', 'offset' in the entry (damaged entries). Returns the layout."""
    data = bytearray()
    layout = {}
    for name, dtype, shape, raw, extra in tensors:
        offset = len(data)
        data.extend(raw)
        crc = masked(crc32c(raw))
        entry = dict(dtype=dtype, shape=list(shape), offset=offset, size=len(raw), crc=crc)
        entry.update(extra)
        layout[name] = entry
    entries = [(b"", header_proto())]
    for name in sorted(layout, key=lambda n: n.encode()):
        e = layout[name]
        entries.append((name.encode(), entry_proto(e["dtype"], e["shape"], e["offset"], e["size"], e["crc"])))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, prefix + ".index"), "wb") as f:
        f.write(table(entries))
    with open(os.path.join(folder, prefix + ".data-00000-of-00001"), "wb") as f:
        f.write(data)
    return layout


def bf16_bytes(values):
    """bfloat16: the upper half of each float32 (rounded to nearest even as TF does)."""
    bits = np.asarray(values, dtype="<f4").view("<u4").astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype("<u2").tobytes()


def fixture_tensors():
    rng = np.random.default_rng(20261128)
    centres = rng.normal(0.0, 6.0, size=(3, 16))
    labels = np.repeat(np.arange(3), 20)
    points = (centres[labels] + rng.normal(0.0, 1.0, size=(60, 16))).astype("<f4")
    words = rng.normal(0.0, 1.0, size=(24, 5)).astype("<f8")
    bias = rng.normal(0.0, 0.1, size=(16,)).astype("<f4")
    step = np.array(100, dtype="<i8")
    # Added in the order a TF1 Saver and a TF2 Checkpoint would see them; the data file keeps that order
    # while the index is sorted, so offsets are not the index order.
    return [
        ("embedding/weights", DT_FLOAT, points.shape, points.tobytes(), {}),
        ("embedding/bias", DT_FLOAT, bias.shape, bias.tobytes(), {}),
        ("word_embedding/embeddings/.ATTRIBUTES/VARIABLE_VALUE", DT_DOUBLE, words.shape, words.tobytes(), {}),
        ("global_step", DT_INT64, (), step.tobytes(), {}),
    ], labels


def case_tensors():
    rng = np.random.default_rng(7)
    base = rng.normal(0.0, 2.0, size=(5, 3)).astype("<f4")
    ints = np.arange(-4, 4, dtype="<i4").reshape(4, 2)
    square = rng.normal(size=(4, 4)).astype("<f4")
    return [
        ("half", DT_HALF, (5, 3), base.astype("<f2").tobytes(), {}),
        ("bf16", DT_BFLOAT16, (5, 3), bf16_bytes(base), {}),
        ("int32", DT_INT32, (4, 2), ints.tobytes(), {}),
        ("uint8", DT_UINT8, (4, 2), np.arange(8, dtype="u1").tobytes(), {}),
        ("bias", DT_FLOAT, (7,), rng.normal(size=7).astype("<f4").tobytes(), {}),
        ("cube", DT_FLOAT, (2, 3, 4), np.zeros((2, 3, 4), "<f4").tobytes(), {}),
        ("bad_size", DT_FLOAT, (4, 4), square.tobytes()[:60], {}),
        ("bad_crc", DT_FLOAT, (4, 4), square.tobytes(), {"crc": 0x12345678}),
        ("huge", DT_FLOAT, (1 << 40, 1 << 20), b"", {"size": (1 << 62)}),
        ("wide", DT_FLOAT, (2, 100000), b"", {"size": 800000}),
        ("beyond", DT_FLOAT, (8, 8), b"", {"size": 256, "offset": 1 << 20}),
        ("names", DT_STRING, (2, 2), b"\x01\x01\x01\x01abcd", {}),
        ("no_crc", DT_FLOAT, (4, 4), square.tobytes(), {"crc": None}),
    ]


def write_fixture(folder):
    tensors, labels = fixture_tensors()
    layout = write_bundle(folder, PREFIX, tensors)
    with open(os.path.join(folder, "checkpoint"), "w") as f:
        f.write('model_checkpoint_path: "%s"\nall_model_checkpoint_paths: "%s"\n' % (PREFIX, PREFIX))
    with open(os.path.join(folder, "metadata.tsv"), "w") as f:
        f.write("cluster\tindex\n")
        for i, label in enumerate(labels):
            f.write("cluster%d\t%d\n" % (label, i))
    with open(os.path.join(folder, "words.tsv"), "w") as f:
        f.writelines("word%d\n" % i for i in range(24))
    with open(os.path.join(folder, "projector_config.pbtxt"), "w") as f:
        f.write('embeddings {\n  tensor_name: "embedding/weights"\n  metadata_path: "metadata.tsv"\n}\n'
                'embeddings {\n  tensor_name: "word_embedding/embeddings"\n  metadata_path: "words.tsv"\n}\n')
    return layout


def write_cases(folder):
    tensors = case_tensors()
    layout = write_bundle(folder, PREFIX, tensors)
    with open(os.path.join(folder, "checkpoint"), "w") as f:
        f.write('model_checkpoint_path: "%s"\n' % PREFIX)
    names = [t[0] for t in tensors] + ["absent"]
    with open(os.path.join(folder, "projector_config.pbtxt"), "w") as f:
        # A relative prefix: read beside the config.
        f.write('model_checkpoint_path: "%s"\n' % PREFIX)
        for name in names:
            f.write('embeddings { tensor_name: "%s" }\n' % name)
    return layout


def oracle(folder, name):
    """Reads NAME's values with numpy at the offset this script lays it at, independently of the index."""
    tensors = fixture_tensors()[0] if os.path.basename(os.path.normpath(folder)) == "checkpoint" else case_tensors()
    offset = 0
    for tname, dtype, shape, raw, extra in tensors:
        if tname == name or tname == name + "/.ATTRIBUTES/VARIABLE_VALUE":
            break
        offset += len(raw)
    else:
        raise SystemExit("no tensor " + name)
    np_type = {DT_FLOAT: "<f4", DT_DOUBLE: "<f8", DT_INT32: "<i4", DT_UINT8: "u1", DT_HALF: "<f2"}.get(dtype)
    count = int(np.prod(shape))
    path = os.path.join(folder, PREFIX + ".data-00000-of-00001")
    if dtype == DT_BFLOAT16:
        half = np.fromfile(path, dtype="<u2", count=count, offset=offset)
        values = (half.astype("<u4") << 16).view("<f4")
    else:
        values = np.fromfile(path, dtype=np_type, count=count, offset=offset).astype(np.float64)
    rows = shape[0]
    dims = shape[1] if len(shape) > 1 else 1
    print(json.dumps({"rows": int(rows), "dims": int(dims), "offset": offset,
                      "values": [float(v) for v in values.astype(np.float32)]}))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--oracle":
        oracle(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "--cases":
        write_cases(sys.argv[2])
    elif len(sys.argv) == 2:
        write_fixture(sys.argv[1])
    else:
        raise SystemExit(__doc__)
