#!/usr/bin/env python3
"""Independent oracle for the summary readers: decodes a TFRecord-framed TensorBoard or MindSpore event file
with its own protobuf wire-format decoder (no protobuf module, no generated code, nothing of RunLens) and
prints one JSON object describing every tag:

    python3 summary_sample_decode.py FILE [--flavor=tensorboard|mindspore]

    {"file": ..., "flavor": ..., "records": N, "crc_errors": 0,
     "tags": {"TAG": {"kind": "scalar|histogram|image|text|pr_curve|hparams|tensor|...", "plugin": "...",
                      "steps": [...], "values": [...]}}}

The flavor follows the file name (`..._MS` is MindSpore) unless given. Values per kind:
- scalar: the number (float32 simple_value, or a one-element tensor of the scalars plugin);
- histogram (TensorBoard HistogramProto): min, max, num, sum, sum_squares, the raw bucket_limit and bucket
  lists, and `buckets`: [left, right, count] after the rule documented in importers/summary/summaryvalues.h
  (empty buckets at both ends dropped; the first bucket's left edge is min(min, its limit), the previous
  limit otherwise; the last bucket's right edge is max clamped into [left, limit]);
- histogram (TF2 `[k, 3]` tensor): `buckets` as written;
- ms_histogram: buckets [left, width, count] in file order, nan/pos_inf/neg_inf counts, min, max, sum, count;
- image: declared width, height, colorspace; per image its byte length, sha256, and the width and height its
  PNG/GIF/JPEG header states;
- text: shape and strings; pr_curve: shape and the six rows (TP, FP, TN, FN, precision, recall);
- hparams: the decoded HParamsPluginData (experiment, session_start_info, session_end_info);
- ms_tensor: dims, data_type and float_data; tensor: dtype, shape and values.
Non-finite numbers are written as the strings "nan", "inf" and "-inf" (JSON has no literal for them).

Field numbers: ../../shared/research/tensorboard-pytorch.md and mindinsight.md (TensorBoard event.proto,
summary.proto, tensor.proto, hparams plugin_data.proto/api.proto; MindSpore summary.proto).
"""
import hashlib
import json
import math
import struct
import sys

# --- CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), table driven --------------------------------------

_CRC_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data):
    crc = 0xFFFFFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data):
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def records(blob):
    """Yields (payload, crc_ok) for each complete TFRecord: u64 length, u32 masked CRC of the length bytes,
    payload, u32 masked CRC of the payload (all little-endian)."""
    pos = 0
    while pos + 12 <= len(blob):
        header = blob[pos:pos + 8]
        (length,) = struct.unpack_from("<Q", blob, pos)
        (length_crc,) = struct.unpack_from("<I", blob, pos + 8)
        if masked_crc(header) != length_crc:
            raise ValueError("length checksum fails at offset %d" % pos)
        end = pos + 12 + length + 4
        if end > len(blob):
            return  # an incomplete tail
        payload = blob[pos + 12:pos + 12 + length]
        (data_crc,) = struct.unpack_from("<I", blob, pos + 12 + length)
        yield payload, masked_crc(payload) == data_crc
        pos = end


# --- protobuf wire format --------------------------------------------------------------------------------------

VARINT, FIXED64, BYTES, FIXED32 = 0, 1, 2, 5


def read_varint(buf, pos):
    result = 0
    shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


class Message:
    """The fields of one serialized message: number -> [(wire type, raw value)] in file order."""

    def __init__(self, buf):
        self.fields = {}
        pos = 0
        while pos < len(buf):
            key, pos = read_varint(buf, pos)
            number, wire = key >> 3, key & 7
            if wire == VARINT:
                value, pos = read_varint(buf, pos)
            elif wire == FIXED64:
                value, pos = bytes(buf[pos:pos + 8]), pos + 8
            elif wire == BYTES:
                size, pos = read_varint(buf, pos)
                value, pos = bytes(buf[pos:pos + size]), pos + size
            elif wire == FIXED32:
                value, pos = bytes(buf[pos:pos + 4]), pos + 4
            else:
                raise ValueError("unsupported wire type %d" % wire)
            if pos > len(buf):
                raise ValueError("field %d runs past the end of its message" % number)
            self.fields.setdefault(number, []).append((wire, value))

    def has(self, number):
        return number in self.fields

    def raw(self, number):
        """The last occurrence (proto semantics for a singular field), or None."""
        entries = self.fields.get(number)
        return entries[-1] if entries else None

    def message(self, number):
        entry = self.raw(number)
        return Message(entry[1]) if entry else None

    def messages(self, number):
        return [Message(v) for _, v in self.fields.get(number, [])]

    def bytes_(self, number, default=b""):
        entry = self.raw(number)
        return entry[1] if entry else default

    def string(self, number, default=""):
        return self.bytes_(number, default.encode()).decode("utf-8", "replace")

    def strings(self, number):
        return [v for _, v in self.fields.get(number, [])]

    def uint(self, number, default=0):
        entry = self.raw(number)
        return entry[1] if entry else default

    def int64(self, number, default=0):
        value = self.uint(number, default)
        return value - (1 << 64) if value >= 1 << 63 else value

    def int32(self, number, default=0):
        value = self.int64(number, default)
        return value - (1 << 32) if value >= 1 << 31 else value

    def double(self, number, default=0.0):
        entry = self.raw(number)
        return struct.unpack("<d", entry[1])[0] if entry else default

    def float_(self, number, default=0.0):
        entry = self.raw(number)
        return struct.unpack("<f", entry[1])[0] if entry else default

    def repeated(self, number, kind):
        """A repeated scalar field, packed (one length-delimited run) or not (one entry per element).
        kind: 'd' double, 'f' float, 'q' int64, 'i' int32, 'Q' uint64, 'I' uint32, '?' bool."""
        out = []
        for wire, value in self.fields.get(number, []):
            if wire == BYTES:
                if kind in "df":
                    width = 8 if kind == "d" else 4
                    out.extend(struct.unpack("<%d%s" % (len(value) // width, kind), value))
                else:
                    pos = 0
                    while pos < len(value):
                        v, pos = read_varint(value, pos)
                        out.append(_varint_as(v, kind))
            elif kind == "d":
                out.append(struct.unpack("<d", value)[0])
            elif kind == "f":
                out.append(struct.unpack("<f", value)[0])
            else:
                out.append(_varint_as(value, kind))
        return out


def _varint_as(value, kind):
    if kind == "q":
        return value - (1 << 64) if value >= 1 << 63 else value
    if kind == "i":
        value &= 0xFFFFFFFFFFFFFFFF
        value = value - (1 << 64) if value >= 1 << 63 else value
        return value
    if kind == "I":
        return value & 0xFFFFFFFF
    if kind == "?":
        return bool(value)
    return value


# --- images ----------------------------------------------------------------------------------------------------


def image_header_size(data):
    """(width, height) stated by a PNG, GIF or baseline/progressive JPEG header, or None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return struct.unpack("<HH", data[6:10])
    if data[:2] == b"\xff\xd8":
        pos = 2
        while pos + 4 <= len(data):
            if data[pos] != 0xFF:
                return None
            marker = data[pos + 1]
            (size,) = struct.unpack(">H", data[pos + 2:pos + 4])
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
                return width, height
            pos += 2 + size
    return None


def image_entry(data):
    size = image_header_size(data)
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
            "header_width": size[0] if size else None, "header_height": size[1] if size else None}


# --- TensorBoard -----------------------------------------------------------------------------------------------

DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_STRING, DT_INT64, DT_BOOL = 1, 2, 3, 4, 5, 6, 7, 9, 10
_CONTENT_FORMAT = {DT_FLOAT: "f", DT_DOUBLE: "d", DT_INT32: "i", DT_UINT8: "B", DT_INT16: "h", DT_INT8: "b",
                   DT_INT64: "q", DT_BOOL: "?"}
_VALUE_FIELD = {DT_FLOAT: (5, "f"), DT_DOUBLE: (6, "d"), DT_INT32: (7, "i"), DT_UINT8: (7, "i"), DT_INT16: (7, "i"),
                DT_INT8: (7, "i"), DT_INT64: (10, "q"), DT_BOOL: (11, "?")}


def tensor_shape(tensor):
    shape = tensor.message(2)
    return [dim.int64(1) for dim in shape.messages(2)] if shape else []


def tensor_values(tensor):
    """(dtype, shape, flat values) of a numeric TensorProto; a short typed list repeats its last value."""
    dtype = tensor.int32(1)
    shape = tensor_shape(tensor)
    count = math.prod(shape)
    content = tensor.bytes_(4)
    if content:
        fmt = _CONTENT_FORMAT[dtype]
        values = list(struct.unpack("<%d%s" % (count, fmt), content))
    else:
        number, kind = _VALUE_FIELD[dtype]
        values = tensor.repeated(number, kind)
        if values and len(values) < count:
            values += [values[-1]] * (count - len(values))
    return dtype, shape, values


def legacy_histogram(histo):
    out = {"min": histo.double(1), "max": histo.double(2), "num": histo.double(3), "sum": histo.double(4),
           "sum_squares": histo.double(5), "bucket_limit": histo.repeated(6, "d"), "bucket": histo.repeated(7, "d")}
    limits, counts = out["bucket_limit"], out["bucket"]
    first, last = 0, len(counts) - 1
    while first <= last and counts[first] == 0:
        first += 1
    while last >= first and counts[last] == 0:
        last -= 1
    buckets = []
    for i in range(first, last + 1):
        right = limits[i]
        if i == first and math.isfinite(out["min"]):
            left = min(out["min"], right)
        else:
            left = limits[i - 1] if i > 0 else right
        if i == last and math.isfinite(out["max"]):
            right = max(left, min(out["max"], right))
        buckets.append([left, right, counts[i]])
    out["buckets"] = buckets
    return out


def param_value(value):
    """google.protobuf.Value: 1 null, 2 number, 3 string, 4 bool, 5 struct, 6 list."""
    if value.has(2):
        return value.double(2)
    if value.has(3):
        return value.string(3)
    if value.has(4):
        return bool(value.uint(4))
    if value.has(6):
        return [param_value(v) for v in value.message(6).messages(1)]
    return None


def hparams_data(content):
    data = Message(content)
    out = {"version": data.int32(1)}
    experiment = data.message(2)
    if experiment is not None:
        infos = []
        for info in experiment.messages(4):
            entry = {"name": info.string(1), "display_name": info.string(2), "description": info.string(3),
                     "type": info.int32(4)}
            if info.has(5):
                entry["domain_discrete"] = [param_value(v) for v in info.message(5).messages(1)]
            if info.has(6):
                interval = info.message(6)
                entry["domain_interval"] = [interval.double(1), interval.double(2)]
            infos.append(entry)
        metrics = []
        for info in experiment.messages(5):
            name = info.message(1) or Message(b"")
            metrics.append({"group": name.string(1), "tag": name.string(2), "display_name": info.string(3),
                            "description": info.string(4), "dataset_type": info.int32(5)})
        out["experiment"] = {"name": experiment.string(6), "description": experiment.string(1),
                             "user": experiment.string(2), "time_created_secs": experiment.double(3),
                             "hparam_infos": infos, "metric_infos": metrics}
    start = data.message(3)
    if start is not None:
        values = {}
        for entry in start.messages(1):
            values[entry.string(1)] = param_value(entry.message(2) or Message(b""))
        out["session_start_info"] = {"hparams": values, "model_uri": start.string(2), "monitor_url": start.string(3),
                                     "group_name": start.string(4), "start_time_secs": start.double(5)}
    end = data.message(4)
    if end is not None:
        out["session_end_info"] = {"status": end.int32(1), "end_time_secs": end.double(2)}
    return out


def tensorboard_value(value, plugin):
    """(kind, decoded value) of one Summary.Value of a TensorBoard event."""
    if value.has(2):
        return "scalar", value.float_(2)
    if value.has(5):
        return "histogram", legacy_histogram(value.message(5))
    if value.has(4):
        image = value.message(4)
        return "image", {"height": image.int32(1), "width": image.int32(2), "colorspace": image.int32(3),
                         "images": [image_entry(image.bytes_(4))]}
    if plugin == "hparams":
        metadata = value.message(9)
        return "hparams", hparams_data(metadata.message(1).bytes_(2))
    if not value.has(8):
        return "other", None
    tensor = value.message(8)
    if plugin == "scalars":
        _, _, values = tensor_values(tensor)
        return "scalar", values[0]
    if plugin == "histograms":
        _, shape, values = tensor_values(tensor)
        return "histogram", {"buckets": [values[i:i + 3] for i in range(0, len(values), 3)], "shape": shape}
    if plugin == "images":
        strings = tensor.strings(8)
        return "image", {"width": int(strings[0]), "height": int(strings[1]), "colorspace": 0,
                         "images": [image_entry(s) for s in strings[2:]]}
    if plugin == "text":
        return "text", {"shape": tensor_shape(tensor),
                        "strings": [s.decode("utf-8", "replace") for s in tensor.strings(8)]}
    if plugin == "pr_curves":
        _, shape, values = tensor_values(tensor)
        n = shape[1]
        return "pr_curve", {"shape": shape, "rows": [values[r * n:(r + 1) * n] for r in range(6)]}
    dtype, shape, values = tensor_values(tensor)
    return "tensor", {"dtype": dtype, "shape": shape, "values": values}


def decode_events(blob, flavor):
    """(records, checksum errors, file version, tags) of a whole file."""
    tags, metadata = {}, {}
    count = crc_errors = 0
    file_version = ""
    for payload, crc_ok in records(blob):
        count += 1
        if not crc_ok:
            crc_errors += 1
            continue
        event = Message(payload)
        if event.has(3):
            file_version = event.string(3)
        step = event.int64(2)
        summary = event.message(5)
        if summary is None:
            continue
        for value in summary.messages(1):
            tag = value.string(1)
            if flavor == "mindspore":
                plugin = ""
                kind, decoded = mindspore_value(value)
            else:
                if tag not in metadata and value.has(9):
                    plugin_data = value.message(9).message(1)
                    metadata[tag] = plugin_data.string(1) if plugin_data else ""
                plugin = metadata.get(tag, "")
                kind, decoded = tensorboard_value(value, plugin)
            entry = tags.setdefault(tag, {"kind": kind, "plugin": plugin, "steps": [], "values": []})
            entry["steps"].append(step)
            entry["values"].append(decoded)
    return count, crc_errors, file_version, tags


# --- MindSpore -------------------------------------------------------------------------------------------------


def mindspore_value(value):
    """(kind, decoded value) of one Summary.Value of a MindSpore event."""
    if value.has(3):
        return "scalar", value.float_(3)
    if value.has(4):
        image = value.message(4)
        return "image", {"height": image.int32(1), "width": image.int32(2), "colorspace": image.int32(3),
                         "images": [image_entry(image.bytes_(4))]}
    if value.has(8):
        tensor = value.message(8)
        return "ms_tensor", {"dims": tensor.repeated(1, "q"), "data_type": tensor.int32(2),
                             "float_data": tensor.repeated(3, "f")}
    if value.has(9):
        histogram = value.message(9)
        return "ms_histogram", {
            "buckets": [[b.double(1), b.double(2), b.int64(3)] for b in histogram.messages(1)],
            "nan_count": histogram.int64(2), "pos_inf_count": histogram.int64(3), "neg_inf_count": histogram.int64(4),
            "max": histogram.double(5), "min": histogram.double(6), "sum": histogram.double(7),
            "count": histogram.int64(8)}
    return "other", None


# --- output ----------------------------------------------------------------------------------------------------


def finite_json(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite_json(v) for v in value]
    return value


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--flavor")]
    flavors = [a.split("=", 1)[1] for a in argv[1:] if a.startswith("--flavor=")]
    if len(args) != 1:
        sys.stderr.write("usage: summary_sample_decode.py FILE [--flavor=tensorboard|mindspore]\n")
        return 2
    path = args[0]
    flavor = flavors[0] if flavors else ("mindspore" if path.endswith("_MS") else "tensorboard")
    with open(path, "rb") as f:
        blob = f.read()
    count, crc_errors, file_version, tags = decode_events(blob, flavor)
    out = {"file": path, "flavor": flavor, "records": count, "crc_errors": crc_errors, "file_version": file_version,
           "tags": tags}
    json.dump(finite_json(out), sys.stdout, indent=1, allow_nan=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
