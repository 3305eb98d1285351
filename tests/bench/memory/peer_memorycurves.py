"""Peer of bench_memorycurves: the same job in plain Python (json.load, per-device curves of the
[memory] instants, the peak of each), so the benchmark can print how we compare on this machine."""
import json
import sys

doc = json.load(open(sys.argv[1]))
devices = {}
for e in doc['traceEvents']:
    if e.get('name') != '[memory]':
        continue
    a = e['args']
    curve = devices.setdefault((a.get('Device Type'), a.get('Device Id')), ([], []))
    curve[0].append(e['ts'])
    curve[1].append(a.get('Total Allocated', 0))
for key, (xs, ys) in devices.items():
    order = sorted(range(len(xs)), key=xs.__getitem__)
    xs = [xs[i] for i in order]
    ys = [ys[i] for i in order]
    peak = max(range(len(ys)), key=ys.__getitem__)
    print('peer', key, len(xs), ys[peak], xs[peak])
