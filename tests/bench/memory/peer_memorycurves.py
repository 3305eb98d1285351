"""Peer of bench_memorycurves: the same job in plain Python (json.load, per-device curves of the
[memory] instants, the peak of each), so the benchmark can print how we compare on this machine.

Timed inside Python, interpreter start-up and imports excluded: REPEAT runs, one JSON line with every
run's seconds.

    peer_memorycurves.py TRACE [REPEAT]
"""
import json
import sys
import time


def curves(path):
    with open(path) as f:
        doc = json.load(f)
    devices = {}
    for e in doc['traceEvents']:
        if e.get('name') != '[memory]':
            continue
        a = e['args']
        curve = devices.setdefault((a.get('Device Type'), a.get('Device Id')), ([], []))
        curve[0].append(e['ts'])
        curve[1].append(a.get('Total Allocated', 0))
    peaks = []
    for key, (xs, ys) in devices.items():
        order = sorted(range(len(xs)), key=xs.__getitem__)
        xs = [xs[i] for i in order]
        ys = [ys[i] for i in order]
        peak = max(range(len(ys)), key=ys.__getitem__)
        peaks.append([str(key), len(xs), ys[peak], xs[peak]])
    return peaks


def main():
    path = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    seconds = []
    peaks = None
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        peaks = curves(path)
        seconds.append(time.perf_counter() - start)
    print(json.dumps({"seconds": seconds, "peaks": peaks}))


if __name__ == "__main__":
    main()
