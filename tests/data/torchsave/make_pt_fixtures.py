#!/usr/bin/env python3
"""Writes the torch.save fixtures of tests/importers/tensor/tst_ptfile and the values torch itself reads
from them (expected.json).

Run with Debian's python3 and python3-torch: /usr/bin/python3 tests/data/torchsave/make_pt_fixtures.py
The hostile files are written byte by byte; nothing in them is ever unpickled here or by the tests.
"""
import collections
import io
import json
import os
import struct
import zipfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def describe(t):
    """What a reader must find: dtype, shape and the values in C order as doubles."""
    c = t.detach().contiguous()
    values = c.to(torch.float64).reshape(-1).tolist() if c.dtype != torch.bool else c.reshape(-1).double().tolist()
    return {
        "dtype": str(c.dtype).replace("torch.", ""),
        "shape": list(c.shape),
        "values": values,
        "sum": float(sum(values)),
    }


def flatten(value, prefix, out):
    if isinstance(value, torch.Tensor):
        out[prefix] = describe(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            flatten(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            flatten(v, f"{prefix}.{i}" if prefix else str(i), out)


def save(name, obj, expected):
    torch.save(obj, path(name))
    # What torch reads back, not what was meant to be written.
    loaded = torch.load(path(name))
    out = {}
    flatten(loaded, "", out)
    expected[name] = out


def unicode(text):
    data = text.encode()
    return b"X" + struct.pack("<I", len(data)) + data


def integer(value):
    if 0 <= value < 2**31:
        return b"J" + struct.pack("<i", value)
    return b"\x8a\x08" + struct.pack("<q", value)


def tensor_ops(key, numel, offset, size, stride, storage=b"FloatStorage", dtype=None):
    """The opcodes torch.save writes for one tensor: _rebuild_tensor_v2 of a persistent storage id, or with a
    `dtype` (torch 2.x, for dtypes without a legacy storage type) _rebuild_tensor_v3 of an untyped storage
    whose size `numel` counts bytes."""
    sizes = b"(" + b"".join(integer(v) for v in size) + b"t"
    strides = b"(" + b"".join(integer(v) for v in stride) + b"t"
    storage_id = b"(" + unicode("storage") + b"ctorch\n" + storage + b"\n" + unicode(key) + unicode("cpu") + integer(numel)
    version = b"_rebuild_tensor_v3" if dtype else b"_rebuild_tensor_v2"
    return (
        b"ctorch._utils\n" + version + b"\n("
        + storage_id
        + b"tQ"
        + integer(offset)
        + sizes
        + strides
        + b"\x89ccollections\nOrderedDict\n)R"
        + (b"ctorch\n" + dtype + b"\n" if dtype else b"")
        + b"tR"
    )


def hand_made(name, entries, storages, byteorder="little"):
    """A torch.save archive whose data.pkl is a dict of hand-written tensors: (name, tensor_ops) pairs."""
    pickle = b"\x80\x02}(" + b"".join(unicode(k) + ops for k, ops in entries) + b"u."
    folder = os.path.splitext(name)[0]
    with zipfile.ZipFile(path(name), "w", zipfile.ZIP_STORED) as z:
        z.writestr(folder + "/data.pkl", pickle)
        z.writestr(folder + "/byteorder", byteorder)
        for key, data in storages.items():
            z.writestr(f"{folder}/data/{key}", data)
        z.writestr(folder + "/version", "3\n")


def hostile():
    """Files that lie about their tensors; each keeps one good tensor "ok" = [1, 2, 3, 4] beside the lie."""
    four = struct.pack("<4f", 1, 2, 3, 4)
    ok = ("ok", tensor_ops("0", 4, 0, [4], [1]))
    hand_made("huge_shape.pt", [ok, ("huge", tensor_ops("0", 4, 0, [2**40, 2**40], [2**40, 1]))], {"0": four})
    hand_made("missing_storage.pt", [ok, ("lost", tensor_ops("7", 4, 0, [4], [1]))], {"0": four})
    hand_made("stride_overflow.pt", [ok, ("wrap", tensor_ops("0", 4, 0, [3], [2**62]))], {"0": four})
    # Written on a big-endian machine: refused as a whole, not read with swapped bytes.
    hand_made("big_endian.pt", [("be", tensor_ops("0", 4, 0, [4], [1]))], {"0": struct.pack(">4f", 1, 2, 3, 4)}, "big")
    hand_made(
        "idle_strides.pt",
        [
            ("ok", tensor_ops("0", 4, 0, [4, 1], [1, 2**62])),
            ("empty", tensor_ops("0", 4, 4, [0, 3], [2**62, 2**62])),
        ],
        {"0": four},
    )
    hand_made("short_storage.pt", [ok, ("short", tensor_ops("1", 4, 0, [4], [1]))], {"0": four, "1": four[:8]})
    # A view that repeats one value a hundred thousand squared times: valid, but too big to copy out.
    hand_made("expanded_view.pt", [ok, ("expanded", tensor_ops("0", 4, 0, [100000, 100000], [0, 0]))], {"0": four})


def rebuild_v3(expected):
    """What torch 2.x writes for uint16 and float8 tensors (torch 1.13 here has neither dtype): the values are
    decoded by hand below, independently of the reader."""
    u16 = [1, 65535, 300]
    f8 = bytes([0x38, 0xC0, 0x01])  # e4m3fn: 1.0, -2.0, the smallest subnormal 2^-9
    hand_made(
        "rebuild_v3.pt",
        [
            ("u16", tensor_ops("0", 6, 0, [3], [1], storage=b"UntypedStorage", dtype=b"uint16")),
            ("f8", tensor_ops("1", 3, 0, [3], [1], storage=b"UntypedStorage", dtype=b"float8_e4m3fn")),
        ],
        {"0": struct.pack("<3H", *u16), "1": f8},
    )
    expected["rebuild_v3.pt"] = {
        "u16": {"dtype": "uint16", "shape": [3], "values": [float(v) for v in u16], "sum": float(sum(u16))},
        "f8": {"dtype": "float8_e4m3fn", "shape": [3], "values": [1.0, -2.0, 2.0**-9], "sum": -1.0 + 2.0**-9},
    }


def main():
    torch.manual_seed(0)
    expected = {}

    save("single.pt", torch.arange(12, dtype=torch.float32).reshape(3, 4) * 0.5 - 1.0, expected)

    model = torch.nn.Sequential(
        collections.OrderedDict(
            [
                ("fc", torch.nn.Linear(4, 3)),
                ("conv", torch.nn.Conv2d(1, 2, 3)),
                ("bn", torch.nn.BatchNorm2d(2)),
            ]
        )
    )
    model.bn.running_mean.uniform_()
    model.bn.num_batches_tracked += 5
    save("model_state.pth", model.state_dict(), expected)

    save(
        "halves.pt",
        {
            "half": torch.tensor([1.5, -2.25, 65504.0, 1e-4], dtype=torch.float16),
            "bfloat": torch.tensor([[1.5, -3.0], [0.1, 1e30]], dtype=torch.bfloat16),
        },
        expected,
    )

    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    save("transposed.pt", x.t(), expected)

    t = torch.arange(10, dtype=torch.float64)
    save("shared.pt", {"w": t[3:], "b": t, "every_other": t[::2]}, expected)

    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(torch.zeros(1, 4)) if False else None
    for p in model.parameters():
        p.grad = torch.ones_like(p)
    optimizer.step()
    save(
        "checkpoint.pt",
        {"model": model.state_dict(), "epoch": 3, "optimizer": optimizer.state_dict(), "losses": [0.5, 0.25]},
        expected,
    )

    # A file in the format before torch 1.6: a pickled magic number, not a zip archive.
    torch.save(torch.ones(2), path("legacy.pt"), _use_new_zipfile_serialization=False)

    # A zip laid out like torch.save whose data.pkl calls os.system: GLOBAL 'os system', a string, REDUCE.
    evil = b"\x80\x02cos\nsystem\nq\x00X\x0b\x00\x00\x00echo pwnedq\x01\x85q\x02Rq\x03."
    with zipfile.ZipFile(path("forbidden_global.pt"), "w", zipfile.ZIP_STORED) as z:
        z.writestr("forbidden_global/data.pkl", evil)
        z.writestr("forbidden_global/version", "3\n")

    hostile()
    rebuild_v3(expected)

    with open(path("expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
