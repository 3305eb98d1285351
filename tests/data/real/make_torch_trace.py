"""Records torch113_cpu.pt.trace.json: Debian's python3-torch profiler on a tiny CPU model.

  /usr/bin/python3 make_torch_trace.py [DIR]    (DIR defaults to this script's folder)

torch.profiler.profile with a schedule of 1 wait, 1 warmup and 3 active steps, record_shapes on, over a
small convolutional model trained with SGD on random data; prof.export_chrome_trace writes the file as
Kineto writes it for any PyTorch user, ProfilerStep#N markers included.
"""
import os
import sys

import torch


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.ReLU(), torch.nn.Flatten(),
                                torch.nn.Linear(4 * 6 * 6, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.randn(8, 1, 8, 8)
    labels = torch.randint(0, 10, (8,))
    schedule = torch.profiler.schedule(wait=1, warmup=1, active=3, repeat=1)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], schedule=schedule,
                                record_shapes=True) as prof:
        for _ in range(5):
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(data), labels)
            loss.backward()
            optimizer.step()
            prof.step()
    prof.export_chrome_trace(os.path.join(out, "torch113_cpu.pt.trace.json"))


if __name__ == "__main__":
    main()
