#!/usr/bin/env python3
"""Trains small, healthy PyTorch models on synthetic data to convergence and writes each as a run folder the way
a user's training script would, for checking that the Advisor raises no accuracy alarm on them:

  OUT/<run>/tb/events.out.tfevents.<time>.<host>.<pid>.0   train/loss, train/lr, train/grad_norm per step
  OUT/<run>/dump/step_N/<module>.<kind>.npy                 every DUMP_EVERY steps: weights and biases as the
                                                            step starts, their gradients after backward, and
                                                            the outputs (act) of activation modules
  OUT/<run>/state_dict.npz                                  the trained weights (no step)
  OUT/<run>/run_facts.json                                  what numpy measured: losses, parameters whose
                                                            gradient is identically zero, update ratios

Runs:
  mlp          a ReLU MLP on Gaussian clusters with 10 % label noise, trained long enough that the loss falls and
               then plateaus at the noise floor. It has a residual branch `skip` switched off by a zero gate (a
               buffer), so skip.weight and skip.bias receive a gradient that is zero by construction.
  cnn          a small conv net telling horizontal from vertical bars in noisy 12x12 images.
  transformer  a two-layer transformer encoder deciding whether a token sequence contains token 1. Its embedding
               has a padding row (padding_idx=0), whose gradient is zero, while the rest of the table learns.

Every batch is drawn fresh from the distribution, so the models cannot memorise it and the loss settles where
the data allow. Usage: make_healthy_runs.py OUT [--runs mlp,cnn,transformer]. Needs python3-torch and
python3-numpy (Debian).
"""
import argparse
import json
import math
import os
import sys

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_broken_runs import EventWriter, record_outputs  # noqa: E402  (the same minimal TensorBoard writer)

DUMP_EVERY = 10


# --- models ------------------------------------------------------------------------------------------------

class Mlp(nn.Module):
    def __init__(self, inputs=16, hidden=32, classes=4):
        super().__init__()
        self.fc1 = nn.Linear(inputs, hidden)
        self.relu1 = nn.ReLU()
        self.fc2 = nn.Linear(hidden, hidden)
        self.relu2 = nn.ReLU()
        self.fc3 = nn.Linear(hidden, classes)
        # A residual head switched off by a constant zero gate: it is computed, but its gradient is zero.
        self.skip = nn.Linear(hidden, classes)
        self.register_buffer("skip_gate", torch.zeros(()))
        self.activations = ["relu1", "relu2"]

    def forward(self, x):
        h = self.relu2(self.fc2(self.relu1(self.fc1(x))))
        return self.fc3(h) + self.skip_gate * self.skip(h)


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.relu2 = nn.ReLU()
        self.fc = nn.Linear(16, 2)
        self.activations = ["relu1", "relu2"]

    def forward(self, x):
        h = self.relu2(self.conv2(self.pool(self.relu1(self.conv1(x)))))
        return self.fc(h.mean(dim=(2, 3)))


class Transformer(nn.Module):
    def __init__(self, vocab=12, length=10, width=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, width, padding_idx=0)
        self.pos = nn.Embedding(length, width)
        layer = nn.TransformerEncoderLayer(width, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(width, 2)
        self.activations = []

    def forward(self, tokens):
        positions = torch.arange(tokens.shape[1]).unsqueeze(0)
        h = self.encoder(self.embed(tokens) + self.pos(positions))
        return self.head(h.mean(dim=1))


# --- data ----------------------------------------------------------------------------------------------------

def cluster_batch(generator, centres, size, noise):
    labels = torch.randint(0, len(centres), (size,), generator=generator)
    x = centres[labels] + torch.randn(size, centres.shape[1], generator=generator)
    flip = torch.rand(size, generator=generator) < noise
    labels = torch.where(flip, torch.randint(0, len(centres), (size,), generator=generator), labels)
    return x, labels


def bars_batch(generator, size):
    labels = torch.randint(0, 2, (size,), generator=generator)
    images = 0.3 * torch.randn(size, 1, 12, 12, generator=generator)
    where = torch.randint(1, 11, (size,), generator=generator)
    for i in range(size):
        if labels[i] == 0:
            images[i, 0, where[i], :] += 1.0
        else:
            images[i, 0, :, where[i]] += 1.0
    return images, labels


def tokens_batch(generator, size, vocab=12, length=10):
    tokens = torch.randint(2, vocab, (size, length), generator=generator)
    labels = torch.randint(0, 2, (size,), generator=generator)
    at = torch.randint(0, length, (size,), generator=generator)
    tokens[labels == 1, at[labels == 1]] = 1
    # Sequences are padded at the end to a random length; padding never decides the label.
    lengths = torch.randint(length - 3, length + 1, (size,), generator=generator)
    for i in range(size):
        if labels[i] == 1 and at[i] >= lengths[i]:
            lengths[i] = length
        tokens[i, lengths[i]:] = 0
    return tokens, labels


# --- training --------------------------------------------------------------------------------------------------

def train(out, run, model, optimizer, batches, steps, schedule=None):
    folder = os.path.join(out, run)
    writer = EventWriter(os.path.join(folder, "tb"))
    outputs = record_outputs(model, model.activations)

    facts = {"run": run, "steps": steps, "losses": [], "zero_gradient": [], "update_ratio": {}}
    ever_nonzero = {}
    previous = {}
    for step in range(steps):
        x, y = batches()
        dumping = step % DUMP_EVERY == 0 or step == steps - 1
        dump = os.path.join(folder, "dump", "step_%d" % step)
        weights = {n: p.detach().numpy().copy() for n, p in model.named_parameters()}
        if dumping:
            os.makedirs(dump, exist_ok=True)
            for name, value in weights.items():
                np.save(os.path.join(dump, name + ".npy"), value)
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        norm = math.sqrt(sum(float((p.grad.double() ** 2).sum()) for p in model.parameters() if p.grad is not None))
        lr = optimizer.param_groups[0]["lr"]
        writer.scalar("train/loss", float(loss.item()), step)
        writer.scalar("train/lr", lr, step)
        writer.scalar("train/grad_norm", norm, step)
        facts["losses"].append(float(loss.item()))
        for name, p in model.named_parameters():
            nonzero = p.grad is not None and bool(torch.any(p.grad != 0))
            ever_nonzero[name] = ever_nonzero.get(name, False) or nonzero
        if dumping:
            for name, value in outputs.items():
                np.save(os.path.join(dump, name + ".act.npy"), value)
            for name, p in model.named_parameters():
                if p.grad is not None:
                    module, kind = name.rsplit(".", 1)
                    np.save(os.path.join(dump, "%s.%s_grad.npy" % (module, kind)), p.grad.detach().numpy())
            for name, value in weights.items():
                if name in previous:
                    before, at = previous[name]
                    ratio = float(np.mean(np.abs(value - before)) / (np.mean(np.abs(before)) + 1e-9) / (step - at))
                    facts["update_ratio"].setdefault(name, []).append(ratio)
                previous[name] = (value, step)
        optimizer.step()
        if schedule is not None:
            schedule.step()
    writer.close()
    np.savez(os.path.join(folder, "state_dict.npz"),
             **{n: t.detach().numpy() for n, t in model.state_dict().items()})
    facts["zero_gradient"] = sorted(n for n, nonzero in ever_nonzero.items() if not nonzero)
    with open(os.path.join(folder, "run_facts.json"), "w") as f:
        json.dump(facts, f, indent=1)
    return facts


def train_mlp(out):
    torch.manual_seed(10)
    generator = torch.Generator().manual_seed(11)
    centres = 2.5 * torch.randn(4, 16, generator=generator)
    model = Mlp()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    return train(out, "mlp", model, optimizer, lambda: cluster_batch(generator, centres, 64, 0.1), steps=400)


def train_cnn(out):
    torch.manual_seed(20)
    generator = torch.Generator().manual_seed(21)
    model = Cnn()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    return train(out, "cnn", model, optimizer, lambda: bars_batch(generator, 32), steps=250)


def train_transformer(out):
    torch.manual_seed(30)
    generator = torch.Generator().manual_seed(31)
    model = Transformer()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    warmup = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / 20))
    return train(out, "transformer", model, optimizer, lambda: tokens_batch(generator, 32), steps=200,
                 schedule=warmup)


RUNS = {"mlp": train_mlp, "cnn": train_cnn, "transformer": train_transformer}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--runs", default=",".join(RUNS))
    args = parser.parse_args()
    torch.set_num_threads(1)
    for name in args.runs.split(","):
        facts = RUNS[name](args.out)
        losses = facts["losses"]
        print(name, "loss %.4f -> %.4f (mean of the last 50: %.4f)" % (losses[0], losses[-1], np.mean(losses[-50:])),
              "zero gradient:", facts["zero_gradient"])


if __name__ == "__main__":
    main()
