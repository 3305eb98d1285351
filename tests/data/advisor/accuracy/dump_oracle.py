#!/usr/bin/env python3
"""Reads the torch-style dump of a run folder (RUN/dump/step_N/<module>.<kind>.npy) back with numpy and prints,
as JSON, what the Advisor's tensor measurements of it should be. Kinds: "weight", "bias", "<x>_grad" (gradients)
and "act" (module outputs; an activation when the module's name says relu, sigmoid or tanh). A tensor stored as
float16 is a half-precision tensor. Per tensor name ("fc1.weight_grad"):

- gradient_nonfinite_first: the first gradient with NaN or Inf in execution order: the earliest step, then the
  last layer (backward runs from the output; layers in natural name order, fc2 before fc10), then the name
- global_norm: per step, the L2 norm over the gradients whose values are all finite, and how many they are
- gradient_abs_mean: per gradient that is not zero at every step, the lower median over the steps of mean|g|
  (NaN left out; a step with an infinity does not count)
- init_zero_share: per weight at step 0, the percentage of zeros
- init_zero_stays: per weight recorded at step 0, whether no later step has values that differ from each other
- init_abs_max: per weight and bias at step 0, max(|min|, |max|) and min, max
- update_ratio: per weight and bias, the mean over consecutive dumps that numpy.allclose(prev, cur, rtol=1e-5,
  atol=1e-8) does not call equal (and whose prev is not all zero, and that did not overflow) of
  mean(|cur - prev|) / (mean(|prev|) + 1e-9) / (step gap); unchanged: how many it calls equal;
  unchanged_last: whether it calls the last pair equal
- dead_share: per ReLU output, the highest percentage over the steps of values in [-1, 0] (and its first step)
- saturation_share: per sigmoid or tanh output, the highest percentage over the steps of values at or beyond
  the function at -8.8 / 8.8 (tanh) or -16.2 / 16.2 (sigmoid), and its first step
- fp16_share: per float16 tensor, the highest percentage over the steps of its non-zero values that are
  infinite, below the smallest float16 normal 2**-14 or above 65504, and its first step. A float16 copy named
  <name>_fp16 beside a float32 <name> also counts the values that are non-zero in <name> and exactly zero in the
  copy (they underflowed): outside + underflowed over non-zero + underflowed; "underflow" is the percentage of
  <name>'s non-zero values that underflowed at that step, "master" is <name>
- A tensor's dtype does not change its kind: float16 weights (after model.half()) are weights

Usage: dump_oracle.py RUN.
"""
import json
import math
import os
import re
import sys

import numpy as np

FP16_MIN_NORMAL = 2.0 ** -14
FP16_MAX = 65504.0


def natural_key(text):
    return [(0, int(part), "") if part.isdigit() else (1, 0, part.lower()) for part in re.split(r"(\d+)", text) if part]


def activation_of(module):
    lower = module.lower()
    if any(word in lower for word in ("leaky", "prelu", "logsigmoid", "hsigmoid", "hardsigmoid", "hardtanh")):
        return None
    for kind in ("relu", "sigmoid", "tanh"):
        if kind in lower:
            return kind
    return None


def load(run):
    """{name: [(step, array)]} in step order, and {name: (module, kind)}."""
    series = {}
    where = {}
    root = os.path.join(run, "dump")
    for folder in os.listdir(root):
        match = re.fullmatch(r"step_(\d+)", folder)
        if not match:
            continue
        for file in os.listdir(os.path.join(root, folder)):
            if not file.endswith(".npy"):
                continue
            name = file[:-4]
            module, kind = name.rsplit(".", 1)
            where[name] = (module, kind)
            series.setdefault(name, []).append((int(match.group(1)), np.load(os.path.join(root, folder, file))))
    for versions in series.values():
        versions.sort(key=lambda v: v[0])
    return series, where


def percent(part, whole):
    return 100.0 * part / whole if whole > 0 else 0.0


def worst(per_step):
    """The highest value over (step, value) pairs and the first step that has it."""
    best = None
    for step, value in per_step:
        if math.isfinite(value) and (best is None or value > best["value"]):
            best = {"value": value, "step": step}
    return best


def main(run):
    series, where = load(run)
    out = {"gradient_nonfinite_first": None, "global_norm": {}, "gradient_abs_mean": {}, "init_zero_share": {}, "init_zero_stays": {},
           "init_abs_max": {}, "update_ratio": {}, "unchanged": {}, "unchanged_last": {}, "dead_share": {}, "saturation_share": {},
           "fp16_share": {}}
    saturation = {"tanh": (math.tanh(-8.8), math.tanh(8.8)),
                  "sigmoid": (1.0 / (1.0 + math.exp(16.2)), 1.0 / (1.0 + math.exp(-16.2)))}
    overflows = []
    norms = {}
    for name, versions in sorted(series.items()):
        module, kind = where[name]
        half = versions[0][1].dtype == np.float16
        gradient = kind.endswith("_grad")
        weight = kind in ("weight", "bias")
        activation = activation_of(module) if kind == "act" else None
        values = [(step, a.astype(np.float64)) for step, a in versions]
        if gradient:
            bad = [(step, a) for step, a in values if not np.all(np.isfinite(a))]
            if bad:
                step, a = bad[0]
                overflows.append((step, module, name, int(np.sum(np.isnan(a))), int(np.sum(np.isinf(a)))))
            for step, a in values:
                if np.all(np.isfinite(a)):
                    total, count = norms.get(step, (0.0, 0))
                    norms[step] = (total + float(np.sum(a * a)), count + 1)
            if not (len(values) >= 2 and all(not np.any(a) for _, a in values)):
                means = []
                for step, a in values:
                    # NaN is left out (numpy's nanmean); an infinity makes the mean infinite, and that step
                    # does not count.
                    present = np.abs(a[~np.isnan(a)])
                    if present.size and np.all(np.isfinite(present)):
                        means.append((float(np.mean(present)), step))
                if means:
                    means.sort()
                    value, step = means[(len(means) - 1) // 2]
                    out["gradient_abs_mean"][name] = {"value": value, "step": step, "steps": len(means)}
        if weight and values[0][0] == 0:
            a = values[0][1]
            finite = a[np.isfinite(a)]
            if kind == "weight":
                out["init_zero_share"][name] = percent(int(np.sum(a == 0)), a.size)
                # Zeros at step 0 are a fault only while they last: a later step whose values differ from one
                # another shows the units learnt apart (LoRA's B, a zero-initialised head).
                out["init_zero_stays"][name] = not any(
                    step > 0 and np.any(b != 0) and b[np.isfinite(b)].min() != b[np.isfinite(b)].max()
                    for step, b in values)
            low, high = float(finite.min()), float(finite.max())
            out["init_abs_max"][name] = {"value": max(abs(low), abs(high)), "min": low, "max": high}
        if weight:
            ratios = []
            same = 0
            last_same = False
            for (s0, a), (s1, b) in zip(values, values[1:]):
                last_same = bool(np.allclose(a, b, rtol=1e-5, atol=1e-8))
                if last_same:
                    same += 1
                    continue
                difference, magnitude = np.mean(np.abs(b - a)), np.mean(np.abs(a))
                # A pair that overflowed has no ratio.
                if np.isfinite(difference) and np.isfinite(magnitude) and magnitude > 0:
                    ratios.append(difference / (magnitude + 1e-9) / (s1 - s0))
            out["unchanged"][name] = same
            out["unchanged_last"][name] = last_same
            if ratios:
                out["update_ratio"][name] = float(np.mean(ratios))
        if activation == "relu":
            out["dead_share"][name] = worst(
                [(step, percent(int(np.sum((a >= -1.0) & (a <= 0.0))), a.size)) for step, a in values])
        if activation in saturation:
            low, high = saturation[activation]
            out["saturation_share"][name] = worst(
                [(step, percent(int(np.sum((a <= low) | (a >= high))), a.size)) for step, a in values])
        if half:
            master = name[:-len("_fp16")] if name.endswith("_fp16") else None
            full = dict(series.get(master, [])) if master else {}
            shares = []
            lost_share = {}
            for step, a in values:
                magnitude = np.abs(a)
                nonzero = magnitude > 0
                outside = np.isinf(a) | (nonzero & ((magnitude < FP16_MIN_NORMAL) | (magnitude > FP16_MAX)))
                part, whole = int(np.sum(outside)), int(np.sum(nonzero))
                m = full.get(step)
                if m is not None and m.dtype != np.float16 and m.size == a.size:
                    m = m.astype(np.float64).reshape(a.shape)
                    present = np.isfinite(m) & (m != 0)
                    lost = int(np.sum(present & (a == 0)))
                    if np.any(present):
                        lost_share[step] = percent(lost, int(np.sum(present)))
                        part, whole = part + lost, whole + lost
                shares.append((step, percent(part, whole)))
            out["fp16_share"][name] = worst(shares)
            if out["fp16_share"][name] and out["fp16_share"][name]["step"] in lost_share:
                out["fp16_share"][name]["underflow"] = lost_share[out["fp16_share"][name]["step"]]
                out["fp16_share"][name]["master"] = master
    if overflows:
        # Earliest step; within it backward order: the last layer first, then the name.
        layers = sorted({module for module, _ in where.values()}, key=natural_key)
        step, module, name, nan, inf = min(overflows, key=lambda o: (o[0], -layers.index(o[1]), natural_key(o[2])))
        out["gradient_nonfinite_first"] = {"tensor": name, "layer": module, "step": step, "nan": nan, "inf": inf}
    out["global_norm"] = {str(step): {"value": math.sqrt(total), "tensors": count}
                          for step, (total, count) in sorted(norms.items())}
    json.dump(out, sys.stdout, indent=1, allow_nan=False)


if __name__ == "__main__":
    main(sys.argv[1])
