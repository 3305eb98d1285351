#!/usr/bin/env python3
"""Trains small PyTorch models into the conditions the Advisor's accuracy rules look for, each the way it comes
about in real training, and writes every one as a run folder in the layout of make_broken_runs.py:

  OUT/<run>/tb/events.out.tfevents.<time>.<host>.<pid>.0   the loss as a TensorBoard scalar ("train/loss")
  OUT/<run>/dump/step_N/<module>.<kind>.npy                 weights and biases as the step starts, their
                                                            gradients after backward, module outputs (act)

Runs (each a few steps of plain SGD on synthetic data):
  exploding          raw features in the thousands (never normalised) into a deep regression, trained with a
                     learning rate that suits normalised inputs: the gradient norm is huge from the first step
                     and the gradients overflow to Inf/NaN a few steps later
  sigmoid_vanishing  a fourteen-layer sigmoid MLP: the gradients of the first layers are below 1e-9
  bad_init           fc1 initialised with std sqrt(fan_in) instead of 1/sqrt(fan_in); fc2 (weights and biases)
                     and fc3's weights zeroed: fc2's outputs are all zero, so neither layer ever gets a gradient
  zero_head          the classifier head zeroed on purpose (as zero-initialised heads and LoRA's B are): it gets a
                     gradient at once and its units learn apart
  tiny_lr            a learning rate of 1e-4 for SGD: a step moves the weights by 1e-6 to 1e-4 of their size
  dead_relu          fc1's biases initialised to -2 for inputs of unit scale: almost no ReLU of relu1 fires
  tanh_saturation    raw 16-bit sensor readings (0..65535) into a tanh layer: its outputs are all +-1
  fp16_gradients     the gradients as training in float16 without loss scaling holds them (each gradient
                     rounded to float16, the rest in float32; this torch has no float16 matmul on the CPU)
  half_precision     mixed precision as it is dumped: the weights stored as float16 under their plain names (as
                     after model.half()), each gradient in float32 with its float16 copy beside it
                     (<module>.<kind>_grad_fp16.npy); inputs of scale 1e-5 make fc1's gradients small enough that
                     many of them underflow to zero in the copy, and fc1 is initialised with std sqrt(fan_in)

What each run measured is not written here: accuracy/dump_oracle.py reads it back from the dumped files with
numpy. Usage: make_rule_runs.py OUT [--runs exploding,tiny_lr,...]. Needs python3-torch and python3-numpy.
"""
import argparse
import math
import os
import sys

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_broken_runs import EventWriter, Mlp, record_outputs  # noqa: E402  (the same writer and module naming)


def train(out, run, model, batches, lr, steps, regression=False, gradient_dtype=np.float32, weight_dtype=np.float32,
          gradient_copies=False):
    """SGD over `batches(step)` -> (x, y), dumping every step; `gradient_copies` adds a float16 copy of each
    gradient."""
    folder = os.path.join(out, run)
    writer = EventWriter(os.path.join(folder, "tb"))
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    outputs = record_outputs(model, model.order)

    losses = []
    for step in range(steps):
        dump = os.path.join(folder, "dump", "step_%d" % step)
        os.makedirs(dump, exist_ok=True)
        for name, p in model.named_parameters():
            np.save(os.path.join(dump, name + ".npy"), p.detach().numpy().astype(weight_dtype))
        x, y = batches(step)
        optimizer.zero_grad()
        prediction = model(x)
        loss = nn.functional.mse_loss(prediction, y) if regression else nn.functional.cross_entropy(prediction, y)
        loss.backward()
        losses.append(float(loss.item()))
        writer.scalar("train/loss", float(loss.item()), step)
        for name, value in outputs.items():
            np.save(os.path.join(dump, name + ".act.npy"), value)
        for name, p in model.named_parameters():
            module, kind = name.rsplit(".", 1)
            grad = p.grad.detach().numpy().astype(gradient_dtype)
            np.save(os.path.join(dump, "%s.%s_grad.npy" % (module, kind)), grad)
            if gradient_copies:
                np.save(os.path.join(dump, "%s.%s_grad_fp16.npy" % (module, kind)), grad.astype(np.float16))
        optimizer.step()
    writer.close()
    return losses


def classes(generator, size, inputs, count=4, scale=1.0, offset=0.0):
    """Gaussian inputs (times `scale`, plus `offset`) with labels from a fixed random linear rule."""
    weights = torch.randn(inputs, count, generator=torch.Generator().manual_seed(99))

    def batch(step):
        x = torch.randn(size, inputs, generator=generator)
        return x * scale + offset, (x @ weights).argmax(dim=1)

    return batch


def exploding(out):
    # House-price style data: twelve raw features in the thousands and a target in the thousands. The learning
    # rate would be fine for standardised inputs; here each update overshoots more than the last.
    torch.manual_seed(1)
    generator = torch.Generator().manual_seed(2)
    model = Mlp([12, 32, 32, 32, 32, 1], nn.ReLU)
    coefficients = torch.rand(12, 1, generator=generator)

    def batch(step):
        x = 2000.0 + 800.0 * torch.randn(32, 12, generator=generator)
        return x, x @ coefficients

    return train(out, "exploding", model, batch, lr=1e-3, steps=6, regression=True)


def sigmoid_vanishing(out):
    torch.manual_seed(3)
    model = Mlp([16] + [16] * 13 + [4], nn.Sigmoid)
    return train(out, "sigmoid_vanishing", model, classes(torch.Generator().manual_seed(4), 32, 16), lr=0.1, steps=5)


def bad_init(out):
    torch.manual_seed(5)
    model = Mlp([64, 64, 64, 4], nn.ReLU)
    with torch.no_grad():
        # A He/Xavier formula written upside down: std = sqrt(fan_in) where 1/sqrt(fan_in) was meant.
        nn.init.normal_(model.fc1.weight, std=math.sqrt(model.fc1.in_features))
        nn.init.zeros_(model.fc2.weight)
        nn.init.zeros_(model.fc2.bias)
        nn.init.zeros_(model.fc3.weight)
    return train(out, "bad_init", model, classes(torch.Generator().manual_seed(6), 32, 64), lr=0.01, steps=4)


def zero_head(out):
    torch.manual_seed(13)
    model = Mlp([16, 32, 32, 4], nn.ReLU)
    with torch.no_grad():
        nn.init.zeros_(model.fc3.weight)
    return train(out, "zero_head", model, classes(torch.Generator().manual_seed(14), 32, 16), lr=0.1, steps=4)


def tiny_lr(out):
    torch.manual_seed(7)
    model = Mlp([16, 32, 32, 4], nn.ReLU)
    return train(out, "tiny_lr", model, classes(torch.Generator().manual_seed(8), 64, 16), lr=1e-4, steps=5)


def dead_relu(out):
    torch.manual_seed(9)
    model = Mlp([16, 64, 32, 4], nn.ReLU)
    with torch.no_grad():
        nn.init.constant_(model.fc1.bias, -2.0)
    return train(out, "dead_relu", model, classes(torch.Generator().manual_seed(10), 256, 16), lr=0.05, steps=4)


def tanh_saturation(out):
    torch.manual_seed(11)
    generator = torch.Generator().manual_seed(12)
    model = Mlp([64, 128, 4], nn.Tanh)
    rule = classes(torch.Generator().manual_seed(13), 256, 64)

    def batch(step):
        _, labels = rule(step)
        return torch.randint(0, 65536, (256, 64), generator=generator).float(), labels

    return train(out, "tanh_saturation", model, batch, lr=0.01, steps=4)


def fp16_gradients(out):
    torch.manual_seed(14)
    model = Mlp([16, 32, 32, 4], nn.ReLU)
    return train(out, "fp16_gradients", model, classes(torch.Generator().manual_seed(15), 256, 16), lr=0.1, steps=4,
                 gradient_dtype=np.float16)


def half_precision(out):
    torch.manual_seed(16)
    model = Mlp([16, 32, 32, 4], nn.ReLU)
    with torch.no_grad():
        nn.init.normal_(model.fc1.weight, std=math.sqrt(model.fc1.in_features))
    return train(out, "half_precision", model, classes(torch.Generator().manual_seed(17), 64, 16, scale=1e-5), lr=0.1,
                 steps=3, weight_dtype=np.float16, gradient_copies=True)


RUNS = {f.__name__: f for f in (exploding, sigmoid_vanishing, bad_init, zero_head, tiny_lr, dead_relu, tanh_saturation,
                                fp16_gradients, half_precision)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--runs", default=",".join(RUNS))
    args = parser.parse_args()
    torch.set_num_threads(1)
    for name in args.runs.split(","):
        losses = RUNS[name](args.out)
        print(name, "losses:", " ".join("%.4g" % v for v in losses))


if __name__ == "__main__":
    main()
