#!/usr/bin/python3
"""Writes the accuracy-comparison fixtures: one small model run three times and dumped three ways.

Runs (same seed, same input):
  fp32      the reference
  fp16      layers.2 computed in half precision (inputs and weights rounded to float16, result rounded to
            float16; CPU torch has no half matmul). Its weights are small, so part of its outputs fall below
            float16's smallest normal number: the half layer underflows.
  perturbed layers.0.weight[0, 0] moved by 0.5 before the forward pass.

Each run is written as
  {run}/npy/step_0/{module}.{input|output|weight|bias}.npy   (torch-style module dump)
  {run}/msprobe/step0/rank/dump.json + dump_tensor_data/*.pt  (msprobe tensor task, level L0, torch.save files)
  {run}/model.pt, {run}/model.npz                              (state dict checkpoints)
Run with Debian's /usr/bin/python3 (numpy and torch from apt): python3 make_accuracy_runs.py [OUT_DIR]
"""
import json
import os
import shutil
import sys

import numpy as np
import torch

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs")


def make_model():
    torch.manual_seed(7)
    model = torch.nn.Sequential(
        torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    with torch.no_grad():
        model[2].weight.mul_(1e-3)  # small activations: float16 underflows here
        model[2].bias.mul_(1e-3)
        model[4].weight.mul_(1e3)
    return model


def forward(model, x, half_layer):
    """Runs the model module by module, recording (module name, class, input, output, params)."""
    records = []
    for i, layer in enumerate(model):
        name = "layers.%d" % i
        params = {k: v.detach().clone() for k, v in layer.named_parameters()}
        if i == half_layer:
            xh = x.half().float()
            y = torch.nn.functional.linear(xh, layer.weight.half().float(), layer.bias.half().float()).half()
            y_out = y
            x_next = y.float()
        else:
            y_out = layer(x)
            x_next = y_out
        records.append((name, type(layer).__name__, x.detach().clone(), y_out.detach().clone(), params))
        x = x_next
    return records


def stats(t):
    f = t.float()
    return {"Max": f.max().item(), "Min": f.min().item(), "Mean": f.mean().item(), "Norm": f.norm().item()}


def tensor_record(t, data_name):
    r = {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape)}
    r.update(stats(t))
    r["requires_grad"] = False
    r["data_name"] = data_name
    return r


def write_run(run, half_layer=-1, perturb=False):
    model = make_model()
    if perturb:
        with torch.no_grad():
            model[0].weight[0, 0] += 0.5
    torch.manual_seed(11)
    x = torch.randn(4, 8)
    records = forward(model, x, half_layer)
    root = os.path.join(OUT, run)
    npy = os.path.join(root, "npy", "step_0")
    ms = os.path.join(root, "msprobe", "step0", "rank")
    tensors = os.path.join(ms, "dump_tensor_data")
    os.makedirs(npy)
    os.makedirs(tensors)
    data = {}
    construct = {}
    for name, cls, xin, yout, params in records:
        np.save(os.path.join(npy, name + ".input.npy"), xin.numpy())
        np.save(os.path.join(npy, name + ".output.npy"), yout.numpy())
        for k, v in params.items():
            np.save(os.path.join(npy, "%s.%s.npy" % (name, k)), v.numpy())
        entry = "Module.%s.%s.forward.0" % (name, cls)
        construct[entry] = None
        rec = {"input_args": [], "input_kwargs": {}, "output": [], "parameters": {}}
        stem = entry + ".input.0"
        torch.save(xin.contiguous(), os.path.join(tensors, stem + ".pt"))
        rec["input_args"].append(tensor_record(xin, stem + ".pt"))
        for k, v in params.items():
            stem = "%s.parameters.%s" % (entry, k)
            torch.save(v.contiguous(), os.path.join(tensors, stem + ".pt"))
            rec["parameters"][k] = tensor_record(v, stem + ".pt")
        stem = entry + ".output.0"
        torch.save(yout.contiguous(), os.path.join(tensors, stem + ".pt"))
        rec["output"].append(tensor_record(yout, stem + ".pt"))
        data[entry] = rec
    with open(os.path.join(ms, "dump.json"), "w") as f:
        json.dump({"task": "tensor", "level": "L0", "framework": "pytorch", "dump_data_dir": None, "data": data},
                  f, indent=1)
    with open(os.path.join(ms, "construct.json"), "w") as f:
        json.dump(construct, f, indent=1)
    state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    torch.save(state, os.path.join(root, "model.pt"))
    np.savez(os.path.join(root, "model.npz"), **{k: v.numpy() for k, v in state.items()})


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    write_run("fp32")
    write_run("fp16", half_layer=2)
    write_run("perturbed", perturb=True)


if __name__ == "__main__":
    main()
