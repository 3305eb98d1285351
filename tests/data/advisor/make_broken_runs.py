#!/usr/bin/env python3
"""Trains three small, deliberately broken PyTorch models on random data and writes each as a run folder
the way a user's training script would:

  OUT/<run>/tb/events.out.tfevents.<time>.<host>.<pid>.0   the loss as a TensorBoard scalar ("train/loss")
  OUT/<run>/dump/step_N/<module>.<kind>.npy                 weights and biases as the step starts, their
                                                            gradients after backward, module outputs (act)
  OUT/<run>/run_facts.json                                  what went wrong, measured here with numpy

Runs:
  lr_nan        learning rate far too high: the loss overflows to Inf/NaN after a few steps
  frozen_layer  fc2 has requires_grad=False, so its weights never change
  sigmoid_deep  a ten-layer sigmoid MLP whose first layers' gradients vanish

Usage: make_broken_runs.py OUT [--steps N]. Needs python3-torch and python3-numpy (Debian); writes the
event file with its own TFRecord writer because torch.utils.tensorboard needs the tensorboard package.
"""
import argparse
import json
import os
import socket
import struct
import time

import numpy as np
import torch
from torch import nn


# --- a minimal TensorBoard event file writer (TFRecord framing, Event/Summary protobuf by hand) ---------

def _crc32c(data):
    try:
        import crc32c  # python3-crc32c

        return crc32c.crc32c(data)
    except ImportError:
        crc = 0xFFFFFFFF
        for byte in data:
            crc ^= byte
            for _ in range(8):
                crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
        return crc ^ 0xFFFFFFFF


def _masked_crc(data):
    crc = _crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(value):
    out = bytearray()
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(bits | 0x80)
        else:
            out.append(bits)
            return bytes(out)


def _field(number, wire, payload):
    return _varint((number << 3) | wire) + payload


def _length_delimited(number, data):
    return _field(number, 2, _varint(len(data)) + data)


def _event(wall_time, step=None, file_version=None, summary=None):
    out = _field(1, 1, struct.pack("<d", wall_time))  # Event.wall_time
    if step is not None:
        out += _field(2, 0, _varint(step))  # Event.step
    if file_version is not None:
        out += _length_delimited(3, file_version.encode())  # Event.file_version
    if summary is not None:
        out += _length_delimited(5, summary)  # Event.summary
    return out


def _scalar_summary(tag, value):
    summary_value = _length_delimited(1, tag.encode()) + _field(2, 5, struct.pack("<f", value))
    return _length_delimited(1, summary_value)  # Summary.value (tag = 1, simple_value = 2)


class EventWriter:
    def __init__(self, folder):
        os.makedirs(folder, exist_ok=True)
        name = "events.out.tfevents.%d.%s.%d.0" % (int(time.time()), socket.gethostname(), os.getpid())
        self.file = open(os.path.join(folder, name), "wb")
        self._write(_event(time.time(), file_version="brain.Event:2"))

    def _write(self, data):
        header = struct.pack("<Q", len(data))
        self.file.write(header + struct.pack("<I", _masked_crc(header)) + data + struct.pack("<I", _masked_crc(data)))

    def scalar(self, tag, value, step):
        self._write(_event(time.time(), step=step, summary=_scalar_summary(tag, value)))

    def close(self):
        self.file.close()


# --- models ------------------------------------------------------------------------------------------------

class Mlp(nn.Module):
    """Linear layers fc1..fcN with an activation module (relu1, ...) between them, in forward order."""

    def __init__(self, sizes, activation):
        super().__init__()
        self.order = []
        for i in range(len(sizes) - 1):
            setattr(self, "fc%d" % (i + 1), nn.Linear(sizes[i], sizes[i + 1]))
            self.order.append("fc%d" % (i + 1))
            if i < len(sizes) - 2:
                # Named after the activation ("relu1", "sigmoid3"), as dumps of real models are.
                name = "%s%d" % (activation.__name__.lower(), i + 1)
                setattr(self, name, activation())
                self.order.append(name)

    def forward(self, x):
        for name in self.order:
            x = getattr(self, name)(x)
        return x


def record_outputs(model, names, order=None):
    """Forward hooks keeping each named module's latest output as a numpy array, in the returned dict; the
    names are appended to `order` (when given) the first time each module runs."""
    outputs = {}

    def hook(name):
        def record(module, args, output):
            outputs[name] = output.detach().numpy().copy()
            if order is not None and name not in order:
                order.append(name)

        return record

    for name in names:
        getattr(model, name).register_forward_hook(hook(name))
    return outputs


def train(out, run, model, lr, steps, seed, inputs=16, classes=4, batch=16, regression=False):
    torch.manual_seed(seed)
    folder = os.path.join(out, run)
    writer = EventWriter(os.path.join(folder, "tb"))
    optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=lr)
    data = torch.randn(batch * 4, inputs) * 3
    if regression:
        target = torch.randn(batch * 4, classes) * 3
    else:
        target = torch.randint(0, classes, (batch * 4,))
    forward_order = []
    outputs = record_outputs(model, model.order, forward_order)

    facts = {"run": run, "steps": steps, "lr": lr, "first_nonfinite_step": None, "origin_layer": None,
             "losses": [], "frozen": [], "update_ratio": {}, "depth_ratio": {}}
    previous = {}
    for step in range(steps):
        dump = os.path.join(folder, "dump", "step_%d" % step)
        os.makedirs(dump, exist_ok=True)
        begin = (step % 4) * batch
        x, y = data[begin:begin + batch], target[begin:begin + batch]
        weights = {n: p.detach().numpy().copy() for n, p in model.named_parameters()}
        for name, value in weights.items():
            np.save(os.path.join(dump, name + ".npy"), value)
        optimizer.zero_grad()
        prediction = model(x)
        loss = nn.functional.mse_loss(prediction, y) if regression else nn.functional.cross_entropy(prediction, y)
        loss.backward()
        # Strict JSON has no Infinity or NaN: non-finite losses are written as the strings "inf", "nan".
        facts["losses"].append(float(loss.item()) if np.isfinite(loss.item()) else str(float(loss.item())))
        writer.scalar("train/loss", float(loss.item()), step)
        for name, value in outputs.items():
            np.save(os.path.join(dump, name + ".act.npy"), value)
        grads = {}
        for name, p in model.named_parameters():
            if p.grad is not None:
                grads[name] = p.grad.detach().numpy().copy()
                module, kind = name.rsplit(".", 1)
                np.save(os.path.join(dump, "%s.%s_grad.npy" % (module, kind)), grads[name])

        # The oracle: the first step with a non-finite tensor, and within it the first in execution order
        # (weights as the step starts, then module outputs in forward order, then gradients backwards).
        if facts["first_nonfinite_step"] is None:
            candidates = [(n.rsplit(".", 1)[0], v) for n, v in weights.items()]
            candidates += [(n, outputs[n]) for n in forward_order]
            candidates += [(n.rsplit(".", 1)[0], grads[n]) for n in reversed(list(grads))]
            for layer, value in candidates:
                if not np.all(np.isfinite(value)):
                    facts["first_nonfinite_step"] = step
                    facts["origin_layer"] = layer
                    break
        weight_grads = [model.order.index(n.rsplit(".", 1)[0]) for n in grads if n.endswith(".weight")]
        if len(weight_grads) >= 3 and all(np.all(np.isfinite(g)) for g in grads.values()):
            first = "fc1.weight"
            last = "fc%d.weight" % (max(weight_grads) // 2 + 1)
            rms = lambda g: float(np.sqrt(np.mean(g.astype(np.float64) ** 2)))
            if rms(grads[last]) > 0:
                facts["depth_ratio"][str(step)] = rms(grads[first]) / rms(grads[last])
        for name, value in weights.items():
            if name in previous and np.allclose(previous[name], value, rtol=1e-5, atol=1e-8):
                if name not in facts["frozen"]:
                    facts["frozen"].append(name)
        previous = weights
        optimizer.step()
    writer.close()
    with open(os.path.join(folder, "run_facts.json"), "w") as f:
        json.dump(facts, f, indent=1)
    return facts


LR_NAN = 2.0  # a regression whose updates grow each step until they overflow


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args()
    torch.manual_seed(0)
    facts = [train(args.out, "lr_nan", Mlp([16, 16, 16, 4], nn.LeakyReLU), lr=LR_NAN, steps=args.steps, seed=1,
                   regression=True)]
    torch.manual_seed(0)
    frozen = Mlp([16, 16, 16, 4], nn.ReLU)
    for p in frozen.fc2.parameters():
        p.requires_grad_(False)
    facts.append(train(args.out, "frozen_layer", frozen, lr=0.1, steps=args.steps, seed=2))
    torch.manual_seed(0)
    facts.append(train(args.out, "sigmoid_deep", Mlp([16] + [16] * 9 + [4], nn.Sigmoid), lr=0.1,
                       steps=args.steps, seed=3))
    for f in facts:
        print(f["run"], "first non-finite step:", f["first_nonfinite_step"], "origin:", f["origin_layer"],
              "frozen:", f["frozen"], "losses:", f["losses"])


if __name__ == "__main__":
    main()
