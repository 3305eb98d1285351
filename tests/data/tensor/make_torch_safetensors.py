"""Writes torch_model.safetensors, the state dict of a small torch model, and torch_model_expected.tsv.

  /usr/bin/python3 make_torch_safetensors.py [DIR]    (DIR defaults to this script's folder)

Debian 12 packages no safetensors library, so the tensors come from python3-torch (a seeded nn.Sequential
in float32, one layer cast to bfloat16 and float16, an int64 buffer) and the container is laid out here the
way the safetensors library lays it out: an 8-byte little-endian header length, a compact JSON header with
__metadata__ {"format": "pt"} padded with spaces to a multiple of 8, tensors ordered by descending dtype
size then name, data contiguous in that order.

torch_model_expected.tsv: name, safetensors dtype, shape, element count, sum of the values as float64
(computed by torch), for the test to compare with what RunLens reads.
"""
import json
import os
import struct
import sys

import torch

DTYPES = {
    torch.float64: ("F64", 8),
    torch.float32: ("F32", 4),
    torch.float16: ("F16", 2),
    torch.bfloat16: ("BF16", 2),
    torch.int64: ("I64", 8),
    torch.int32: ("I32", 4),
    torch.uint8: ("U8", 1),
    torch.bool: ("BOOL", 1),
}


def state():
    torch.manual_seed(17)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU(), torch.nn.Flatten(),
        torch.nn.Linear(4 * 6 * 6, 10))
    model(torch.randn(2, 1, 8, 8))  # one training step of BatchNorm: running stats and num_batches_tracked
    tensors = {k: v.detach().clone() for k, v in model.state_dict().items()}
    tensors["4.weight_bf16"] = tensors["4.weight"].to(torch.bfloat16)
    tensors["0.weight_f16"] = tensors["0.weight"].to(torch.float16)
    return tensors


def raw(t):
    t = t.contiguous()
    return t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    tensors = state()
    order = sorted(tensors, key=lambda k: (-DTYPES[tensors[k].dtype][1], k))
    header = {"__metadata__": {"format": "pt"}}
    data = b""
    for name in order:
        t = tensors[name]
        b = raw(t)
        header[name] = {"dtype": DTYPES[t.dtype][0], "shape": list(t.shape),
                        "data_offsets": [len(data), len(data) + len(b)]}
        data += b
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(os.path.join(out, "torch_model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)
    with open(os.path.join(out, "torch_model_expected.tsv"), "w") as f:
        for name in order:
            t = tensors[name]
            f.write("%s\t%s\t%s\t%d\t%r\n" % (name, DTYPES[t.dtype][0], ",".join(map(str, t.shape)), t.numel(),
                                            float(t.to(torch.float64).sum())))


if __name__ == "__main__":
    main()
