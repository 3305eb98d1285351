"""Writes the .npz and .safetensors fixtures of the container tests and what numpy says they hold.

  make_container_fixtures.py [DIR]    (DIR defaults to this script's folder)

Outputs, all named container_*:
  container_stored.npz       np.savez: assorted dtypes, both byte orders, Fortran order, 0-d and empty arrays
  container_deflated.npz     np.savez_compressed of the same arrays
  container_with_text.npz    one array and a text member that is not an array
  container_tensors.safetensors  every safetensors dtype RunLens reads, written by hand (header length,
                             JSON header with __metadata__, little-endian data), since the safetensors
                             package is not installed
  container_expected.tsv     one line per tensor: kind, file, member, dtype name, shape, all values in C order;
                             and one per metadata entry: kind, file, key, value

Values of the 8-bit floats and bfloat16 are decoded here from their bit patterns by the formulas of the
OCP FP8 and bfloat16 definitions, independently of RunLens.
"""
import json
import math
import os
import struct
import sys
import zipfile

import numpy as np


def npz_arrays():
    return {
        "f32": np.arange(12, dtype="<f4").reshape(3, 4) / 4 - 1,
        "f64be": np.array([1.5, -2.25, 1e300, -0.0, 7.0], dtype=">f8"),
        "i16_fortran": np.asfortranarray(np.arange(6, dtype="<i2").reshape(2, 3) * -3),
        "u8": np.array([[0, 1, 255], [128, 7, 9]], dtype="u1"),
        "bool": np.array([True, False, True, True]),
        "scalar": np.array(3.5, dtype="<f8"),
        "empty": np.zeros((0, 3), dtype="<f4"),
        "i64be": np.array([[-(2**40), 3], [5, 2**50]], dtype=">i8"),
        "f16": np.array([0.5, -1.0, 65504.0, 6.1035156e-05], dtype="<f2"),
        "u32_3d": np.arange(24, dtype="<u4").reshape(2, 3, 4),
        "c64": np.array([1 + 2j, -3 - 4j], dtype="<c8"),
        "layer1.0.conv1.weight": np.linspace(-1, 1, 18, dtype="<f4").reshape(2, 1, 3, 3),
    }


def numpy_name(array):
    return array.dtype.newbyteorder("=").name


def values_text(values):
    return ",".join(repr(float(v)) for v in values)


def e4m3(bits):
    sign = -1.0 if bits & 0x80 else 1.0
    exponent = (bits >> 3) & 0xF
    mantissa = bits & 0x7
    if exponent == 0xF and mantissa == 0x7:
        return math.nan
    if exponent == 0:
        return sign * mantissa / 8 * 2.0**-6
    return sign * (1 + mantissa / 8) * 2.0 ** (exponent - 7)


def e5m2(bits):
    sign = -1.0 if bits & 0x80 else 1.0
    exponent = (bits >> 2) & 0x1F
    mantissa = bits & 0x3
    if exponent == 0x1F:
        return math.nan if mantissa else sign * math.inf
    if exponent == 0:
        return sign * mantissa / 4 * 2.0**-14
    return sign * (1 + mantissa / 4) * 2.0 ** (exponent - 15)


def bf16(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def safetensors_entries():
    """name -> (safetensors dtype, RunLens dtype name, shape, little-endian bytes, values in C order)."""
    entries = {}

    def add(name, st_dtype, array):
        a = np.array(array, order="C")
        entries[name] = (st_dtype, numpy_name(a), list(a.shape), a.astype(a.dtype.newbyteorder("<")).tobytes(),
                         [float(v) for v in a.ravel()])

    add("mask", "BOOL", np.array([[True, False], [False, True]]))
    add("bytes", "U8", np.array([0, 17, 200, 255], dtype="u1"))
    add("small", "I8", np.array([-128, -1, 0, 127], dtype="i1"))
    add("model.layers.0.i16", "I16", np.array([[-32768, 5, 300], [1, 2, 32767]], dtype="<i2"))
    add("i32", "I32", np.arange(-3, 3, dtype="<i4").reshape(3, 2))
    add("i64", "I64", np.array([-(2**62), 0, 2**53 + 2], dtype="<i8"))
    add("half", "F16", np.array([[0.5, -2.0], [1024.0, -6.0e-8]], dtype="<f2"))
    add("float", "F32", np.arange(24, dtype="<f4").reshape(2, 3, 4) * 0.5 - 3)
    add("double", "F64", np.array([math.pi, -1e-300, 2.0**60], dtype="<f8"))
    add("scalar", "F32", np.array(-7.25, dtype="<f4"))
    add("empty", "F32", np.zeros((0, 4), dtype="<f4"))

    bf_bits = [0x3F80, 0xC020, 0x3E20, 0x7F7F, 0x0001, 0xFF80]
    entries["bf"] = ("BF16", "bfloat16", [2, 3], b"".join(struct.pack("<H", b) for b in bf_bits),
                     [bf16(b) for b in bf_bits])
    e4_bits = [0x00, 0x38, 0xB8, 0x7E, 0x01, 0x7F, 0x40, 0xD5]
    entries["f8_e4m3"] = ("F8_E4M3", "float8_e4m3fn", [8], bytes(e4_bits), [e4m3(b) for b in e4_bits])
    e5_bits = [0x3C, 0x7C, 0xFC, 0x7E, 0x01, 0x7B]
    entries["f8_e5m2"] = ("F8_E5M2", "float8_e5m2", [3, 2], bytes(e5_bits), [e5m2(b) for b in e5_bits])
    return entries


def write_safetensors(path, entries, metadata):
    header = {"__metadata__": metadata}
    data = b""
    for name, (st_dtype, _, shape, raw, _) in entries.items():
        header[name] = {"dtype": st_dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the reference writer pads the header to a multiple of 8 bytes
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


def main(folder):
    arrays = npz_arrays()
    np.savez(os.path.join(folder, "container_stored.npz"), **arrays)
    np.savez_compressed(os.path.join(folder, "container_deflated.npz"), **arrays)
    with zipfile.ZipFile(os.path.join(folder, "container_with_text.npz"), "w") as z:
        with z.open("weights.npy", "w") as f:
            np.lib.format.write_array(f, np.array([1, 2, 3], dtype="<i4"))
        z.writestr("notes.txt", "not an array\n")

    entries = safetensors_entries()
    metadata = {"format": "pt", "step": "1200", "note": "written by make_container_fixtures.py"}
    write_safetensors(os.path.join(folder, "container_tensors.safetensors"), entries, metadata)

    lines = []
    for archive in ("container_stored.npz", "container_deflated.npz"):
        # Read back through numpy so the expectations are numpy's reading of the files written.
        with np.load(os.path.join(folder, archive), allow_pickle=False) as npz:
            for key in npz.files:
                a = npz[key]
                shape = ",".join(map(str, a.shape))
                values = np.real(a).ravel(order="C") if a.dtype.kind == "c" else a.ravel(order="C")
                lines.append(["tensor", archive, key, numpy_name(a), shape, values_text(values)])
    lines.append(["tensor", "container_with_text.npz", "weights", "int32", "3", "1.0,2.0,3.0"])
    for name, (_, dtype_name, shape, _, values) in entries.items():
        lines.append(["tensor", "container_tensors.safetensors", name, dtype_name, ",".join(map(str, shape)),
                      values_text(values)])
    for key, value in metadata.items():
        lines.append(["metadata", "container_tensors.safetensors", key, value])
    with open(os.path.join(folder, "container_expected.tsv"), "w") as f:
        for line in lines:
            f.write("\t".join(line) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
