#!/usr/bin/python3
"""Independent figures of memory files for the memory tests, computed with the standard library only.

memory_oracle.py kineto TRACE      per (Device Type, Device Id) of the [memory] instants: event count,
                                   peak Total Allocated and its time, the innermost CPU op at the peak,
                                   running sum of Bytes (final and max), OOM count
memory_oracle.py timeline RAW      torch export_memory_timeline raw tuples: count, peak total, its time,
                                   per-category bytes at the peak
Prints one JSON object.
"""
from decimal import Decimal
import gzip
import json
import sys


def load(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return json.loads(data)


def kineto(path):
    doc = load(path)
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    base = int(doc.get('baseTimeNanoseconds', 0)) if isinstance(doc, dict) else 0
    def ns(ts):
        # Exact decimal arithmetic: µs timestamps of 2022 are beyond what a double holds to the ns.
        if isinstance(ts, int):
            return ts * 1000 + base
        return int((Decimal(repr(ts)) * 1000).to_integral_value()) + base
    ops = {}
    devices = {}
    for seq, e in enumerate(events):
        if not isinstance(e, dict):
            continue
        name = e.get('name')
        if e.get('ph') == 'X' and e.get('cat') in ('cpu_op', 'Operator'):
            ops.setdefault((e.get('pid'), e.get('tid')), []).append((ns(e['ts']), ns(e['ts']) + (ns(e.get('dur', 0)) - base), name))
        if name not in ('[memory]', '[OutOfMemory]'):
            continue
        a = e.get('args', {})
        key = (a.get('Device Type', 0), a.get('Device Id', -1))
        d = devices.setdefault(key, {'events': [], 'ooms': 0})
        if name == '[OutOfMemory]':
            d['ooms'] += 1
            continue
        d['events'].append((ns(e['ts']), a.get('Ev Idx', seq), seq, a, (e.get('pid'), e.get('tid'))))
    out = []
    for (dtype, did), d in sorted(devices.items()):
        evs = sorted(d['events'], key=lambda x: (x[0], x[1]))
        r = {'type': dtype, 'id': did, 'events': len(evs), 'ooms': d['ooms'], 'capacity': 0}
        if isinstance(doc, dict):
            for props in doc.get('deviceProperties', doc.get('computeProperties', [])):
                if dtype != 0 and props.get('id') == did:
                    r['capacity'] = props.get('totalGlobalMem', 0)
        if isinstance(doc, dict) and isinstance(doc.get('distributedInfo'), dict):
            r['rank'] = doc['distributedInfo'].get('rank', -1)
        totals = [(x[0], x[3]['Total Allocated'], x[4]) for x in evs if 'Total Allocated' in x[3]]
        if totals:
            peak = max(t[1] for t in totals)
            t, _, thread = next(t for t in totals if t[1] == peak)
            r['peak'] = peak
            r['peak_ns'] = t
            inner = None
            for (s, end, n) in ops.get(thread, []):
                if s <= t < end and (inner is None or s > inner[0] or (s == inner[0] and end < inner[1])):
                    inner = (s, end, n)
            r['peak_op'] = inner[2] if inner else ''
            r['reserved_peak'] = max((x[3].get('Total Reserved', -1) for x in evs), default=-1)
        # Self amounts per op name: the innermost CPU op containing each event on its thread (sweep).
        selfs = {}
        for thread in set(x[4] for x in evs):
            items = [(s0, 0, -(e0 - s0), e0, n) for (s0, e0, n) in ops.get(thread, []) if e0 > s0]
            items += [(x[0], 1, 0, x[3].get('Bytes', 0), None) for x in evs if x[4] == thread]
            items.sort(key=lambda i: (i[0], i[1], i[2]))
            stack = []
            for (t0, kind, _, value, n) in items:
                while stack and stack[-1][0] <= t0:
                    stack.pop()
                if kind == 0:
                    stack.append((value, n))
                elif stack:
                    row = selfs.setdefault(stack[-1][1], [0, 0, 0, 0])
                    if value >= 0:
                        row[0] += 1
                        row[1] += value
                    else:
                        row[2] += 1
                        row[3] -= value
        r['self'] = selfs
        running = 0
        best = None
        for x in evs:
            running += x[3].get('Bytes', 0)
            best = running if best is None else max(best, running)
        r['final_sum'] = running
        r['max_sum'] = best
        out.append(r)
    return {'devices': out}


def timeline(path):
    tuples = load(path)
    real = [t[0] for t in tuples if t[0] >= 0]
    first = min(real) if real else 0
    rows = sorted(([first if t[0] < 0 else t[0]] + list(t[1:]) for t in tuples), key=lambda t: t[0])
    cats = [0] * 8
    peak = None
    for i, (ts, action, size, cat) in enumerate(rows):
        cats[cat if cat is not None and 0 <= cat < 8 else 7] += size
        if i + 1 < len(rows) and rows[i + 1][0] == ts:
            continue
        total = sum(cats)
        if peak is None or total > peak[0]:
            peak = (total, ts, list(cats))
    return {'tuples': len(tuples), 'peak': peak[0], 'peak_ns': peak[1], 'categories': peak[2],
            'final': sum(cats), 'first_ns': first}


if __name__ == '__main__':
    mode, path = sys.argv[1], sys.argv[2]
    print(json.dumps(kineto(path) if mode == 'kineto' else timeline(path)))
