#!/usr/bin/env python3
"""Writes a small torch-style dump folder (OUT/dump/step_N/<layer>.<kind>.npy) and prints, as JSON, what
numpy says the weight and gradient measurements of the Advisor should be:

- update_ratio: per weight, the mean over consecutive dumps that changed of
  mean(|cur - prev|) / (mean(|prev|) + 1e-9) / (step gap); dumps whose previous value is all zero are skipped
- unchanged: per weight, how many consecutive dumps numpy.allclose(prev, cur, rtol=1e-5, atol=1e-8) calls equal
- global_norm: per step, the L2 norm over every gradient tensor
- depth_ratio: per step, RMS(first layer's weight gradient) / RMS(last layer's weight gradient)
- depth_ratio_median: the lower median of depth_ratio over the steps (the pattern the run typically shows)
- abs_mean_median: per gradient, the lower median of mean(|g|) over the steps
"""
import json
import os
import sys

import numpy as np

STEPS = [0, 1, 2, 5]
SHAPES = {"fc1": (20, 10), "fc2": (10, 20), "fc3": (5, 10)}
UPDATE_SCALE = {"fc1": 0.2, "fc2": 1e-4, "fc3": 0.0}  # fc3 is frozen
GRAD_SCALE = {"fc1": 1e-6, "fc2": 1e-3, "fc3": 1e-1}


def main(out):
    rng = np.random.default_rng(7)
    weights = {k: (rng.standard_normal(s) * 0.1).astype(np.float32) for k, s in SHAPES.items()}
    biases = {k: np.zeros(s[0], np.float32) for k, s in SHAPES.items()}
    history = {}
    norms = {}
    depth = {}
    abs_means = {}
    for step in STEPS:
        folder = os.path.join(out, "dump", "step_%d" % step)
        os.makedirs(folder, exist_ok=True)
        if step != STEPS[0]:
            for k in SHAPES:
                weights[k] = (weights[k] + rng.standard_normal(SHAPES[k]) * UPDATE_SCALE[k] * 0.1).astype(np.float32)
                biases[k] = (biases[k] + rng.standard_normal(SHAPES[k][0]) * UPDATE_SCALE[k] * 0.1).astype(np.float32)
        total = 0.0
        rms = {}
        for k in SHAPES:
            np.save(os.path.join(folder, k + ".weight.npy"), weights[k])
            np.save(os.path.join(folder, k + ".bias.npy"), biases[k])
            history.setdefault(k + ".weight", []).append((step, weights[k].copy()))
            history.setdefault(k + ".bias", []).append((step, biases[k].copy()))
            gw = (rng.standard_normal(SHAPES[k]) * GRAD_SCALE[k]).astype(np.float32)
            gb = (rng.standard_normal(SHAPES[k][0]) * GRAD_SCALE[k]).astype(np.float32)
            np.save(os.path.join(folder, k + ".weight_grad.npy"), gw)
            np.save(os.path.join(folder, k + ".bias_grad.npy"), gb)
            for name, g in ((k + ".weight_grad", gw), (k + ".bias_grad", gb)):
                g64 = g.astype(np.float64)
                total += float(np.sum(g64 * g64))
                m = float(np.mean(np.abs(g64)))
                abs_means.setdefault(name, []).append(m)
            rms[k] = float(np.sqrt(np.mean(gw.astype(np.float64) ** 2)))
        norms[str(step)] = float(np.sqrt(total))
        depth[str(step)] = rms["fc1"] / rms["fc3"]

    ratios = {}
    unchanged = {}
    for name, versions in history.items():
        values = []
        same = 0
        for (s0, a), (s1, b) in zip(versions, versions[1:]):
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            if np.allclose(a64, b64, rtol=1e-5, atol=1e-8):
                same += 1
                continue
            if not np.any(a64):
                continue
            values.append(np.mean(np.abs(b64 - a64)) / (np.mean(np.abs(a64)) + 1e-9) / (s1 - s0))
        unchanged[name] = same
        if values:
            ratios[name] = float(np.mean(values))
    lower_median = lambda values: sorted(values)[(len(values) - 1) // 2]
    json.dump({"update_ratio": ratios, "unchanged": unchanged, "global_norm": norms, "depth_ratio": depth,
               "depth_ratio_median": lower_median(list(depth.values())),
               "abs_mean_median": {name: lower_median(values) for name, values in abs_means.items()}}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
