#!/usr/bin/env python3
"""Records a short training run whose dataset is deliberately slow, with PyTorch's profiler.

The dataset sleeps in __getitem__ and the DataLoader has num_workers=0, so every batch is read in the
training process while the model waits: the Advisor should name the data loader as the bottleneck with
its share of the step time. Writes performance/slow_loader.pt.trace.json.gz next to this script.

Debian's python3-torch (1.13) is built without Kineto: torch.profiler falls back to the autograd
profiler, whose Chrome trace has CPU ops only and no ProfilerStep#N markers (prof.step() is a no-op
there). The loop therefore opens its own ProfilerStep#N record_function per iteration, the name Kineto
gives its step markers, so both kinds of torch produce a trace with steps. With a Kineto-enabled torch
the profiler's own markers are used instead.
Usage: python3 make_slow_loader_trace.py [--sleep-ms 4] [--steps 6]
"""

import argparse
import contextlib
import gzip
import json
import pathlib
import tempfile
import time

import torch
from torch.utils.data import DataLoader, Dataset


class SlowDataset(Dataset):
    def __init__(self, size, sleep_s):
        self.size = size
        self.sleep_s = sleep_s

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        time.sleep(self.sleep_s)  # a slow disk or decoder
        generator = torch.Generator().manual_seed(index)
        return torch.randn(3, 16, 16, generator=generator), index % 10


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sleep-ms", type=float, default=4.0)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch", type=int, default=8)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Flatten(), torch.nn.Linear(768, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10)
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(SlowDataset(args.steps * args.batch, args.sleep_ms / 1000.0), batch_size=args.batch,
                        num_workers=0)
    kineto = torch.autograd.kineto_available()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        batches = iter(loader)
        for step in range(args.steps):
            marker = contextlib.nullcontext() if kineto else torch.autograd.profiler.record_function(
                "ProfilerStep#%d" % step)
            with marker:
                x, y = next(batches)
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            prof.step()

    with tempfile.TemporaryDirectory() as folder:
        raw = pathlib.Path(folder) / "trace.json"
        prof.export_chrome_trace(str(raw))
        events = json.loads(raw.read_text())
    out = pathlib.Path(__file__).resolve().parent / "performance" / "slow_loader.pt.trace.json.gz"
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(out, "wb", mtime=0) as f:
        f.write(json.dumps(events, separators=(",", ":")).encode("utf-8"))
    print("%s: %d bytes, torch %s, kineto %s" % (out, out.stat().st_size, torch.__version__, kineto))


if __name__ == "__main__":
    main()
