#!/usr/bin/env python3
"""Python peer of bench_summaryimport: loads scalars and histograms from an event file the way
TensorBoard's Python event accumulator does.

Per record: framing and both masked CRC-32Cs (the `crc32c` C extension), decoding of the payload as an
Event with classes that protoc generates from RunLens's own .proto files (as the event-file peer does),
then per value: a scalar becomes a (step, wall_time, value) tuple appended to its tag's list (all kept,
like RunLens's desktop default); a histogram becomes a tuple of its statistics with its bucket limits and
counts as lists, offered to a per-tag reservoir of `--histogram-limit` items with TensorBoard's rule
(fill, then replace a uniformly drawn slot or else the last one, so the latest value is always kept).
Reads the whole file `--repeat` times in one process, each pass timed inside Python (interpreter start-up,
imports and the protoc run excluded); prints one JSON line with every pass's time, peak RSS included (the
first pass's peak: later passes reuse the memory the previous one freed).
"""

import argparse
import json
import os
import random
import resource
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from peer_eventfile import compile_protos  # noqa: E402


def peak_rss_kb():
    """VmHWM of this process: unlike ru_maxrss it starts afresh at exec, so the parent's size is not in it."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class Reservoir:
    """A uniform sample of at most `size` items that always holds the latest one (0: keep all)."""

    def __init__(self, size, rng):
        self.size = size
        self.rng = rng
        self.items = []
        self.seen = 0

    def add(self, item):
        if self.size == 0 or len(self.items) < self.size:
            self.items.append(item)
        else:
            slot = self.rng.randint(0, self.seen)
            if slot < self.size:
                self.items.pop(slot)
                self.items.append(item)
            else:
                self.items[-1] = item
        self.seen += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--file", required=True)
    parser.add_argument("--proto-root", required=True, help="directory that holds summary/proto/*.proto")
    parser.add_argument("--protoc", default="protoc")
    parser.add_argument("--repeat", type=int, default=1, help="timed passes over the whole file")
    parser.add_argument("--histogram-limit", type=int, default=500, help="histogram values kept per tag")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="runlens-peer-") as out_dir:
        compile_protos(args.protoc, args.proto_root, out_dir)
        import crc32c
        from google.protobuf.internal import api_implementation
        from summary.proto import tb_event_pb2

        def masked_crc(data):
            crc = crc32c.crc32c(data)
            return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF

        unpack_length = struct.Struct("<Q").unpack
        unpack_crc = struct.Struct("<I").unpack
        def read_once():
            event = tb_event_pb2.Event()
            rng = random.Random(0)
            scalars = {}
            histograms = {}
            records = 0
            bad = 0
            consumed = 0
            with open(args.file, "rb") as f:
                while True:
                    header = f.read(12)
                    if len(header) < 12:
                        break
                    (length,) = unpack_length(header[:8])
                    if masked_crc(header[:8]) != unpack_crc(header[8:])[0]:
                        raise SystemExit("bad length CRC at offset %d" % consumed)
                    payload = f.read(length)
                    footer = f.read(4)
                    if len(payload) < length or len(footer) < 4:
                        break
                    records += 1
                    consumed += 16 + length
                    if masked_crc(payload) != unpack_crc(footer)[0]:
                        bad += 1
                        continue
                    event.ParseFromString(payload)
                    if not event.HasField("summary"):
                        continue
                    step = event.step
                    wall_time = event.wall_time
                    for value in event.summary.value:
                        if value.HasField("simple_value"):
                            scalars.setdefault(value.tag, []).append((step, wall_time, value.simple_value))
                        elif value.HasField("histo"):
                            histo = value.histo
                            item = (step, wall_time, histo.min, histo.max, histo.num, histo.sum, histo.sum_squares,
                                    list(histo.bucket_limit), list(histo.bucket))
                            reservoir = histograms.get(value.tag)
                            if reservoir is None:
                                reservoir = histograms[value.tag] = Reservoir(args.histogram_limit, rng)
                            reservoir.add(item)
            return scalars, histograms, records, bad, consumed

        peak_before = peak_rss_kb()
        seconds = []
        cpu_seconds = []
        peak_first = None
        for _ in range(max(1, args.repeat)):
            start = time.perf_counter()
            cpu_start = time.thread_time()
            scalars, histograms, records, bad, consumed = read_once()
            seconds.append(time.perf_counter() - start)
            cpu_seconds.append(time.thread_time() - cpu_start)
            if peak_first is None:
                peak_first = peak_rss_kb()
            counts = {
                "scalar_points": sum(len(points) for points in scalars.values()),
                "scalar_tags": len(scalars),
                "histogram_tags": len(histograms),
                "histogram_values": sum(r.seen for r in histograms.values()),
                "histogram_kept": sum(len(r.items) for r in histograms.values()),
            }
            del scalars, histograms  # freed outside the timed part, as RunLens frees its stores

        print(json.dumps(dict(counts, **{
            "records": records,
            "bytes": consumed,
            "seconds": seconds,
            "cpu_seconds": cpu_seconds,
            "bad_records": bad,
            "peak_rss_before_kb": peak_before,
            "peak_rss_kb": peak_first,
            "protobuf_implementation": api_implementation.Type(),
            "python": sys.version.split()[0],
        })))


if __name__ == "__main__":
    main()
