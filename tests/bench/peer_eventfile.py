#!/usr/bin/env python3
"""Python peer of bench_eventfile: reads a TFRecord event file the way TensorBoard's Python loader does.

Per record: read the 12-byte header, check the masked CRC-32C of the length, read the payload and its CRC,
check it, decode the payload as an Event with classes that protoc generates from RunLens's own .proto
files, and collect the scalar values per tag. CRCs use the `crc32c` C extension (TensorBoard's own
fallback is pure Python and far slower), so this is a favourable lower bound for the Python side.
Reads the whole file `--repeat` times in one process, timing each pass inside Python (interpreter start-up,
imports and the protoc run excluded), and prints one JSON line with every pass's time.
"""

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time


def compile_protos(protoc, proto_root, out_dir):
    protos = [os.path.join(proto_root, "summary", "proto", name)
              for name in ("tb_tensor.proto", "tb_summary.proto", "tb_event.proto")]
    subprocess.check_call([protoc, "-I", proto_root, "--python_out=" + out_dir] + protos)
    sys.path.insert(0, out_dir)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--file", required=True)
    parser.add_argument("--proto-root", required=True, help="directory that holds summary/proto/*.proto")
    parser.add_argument("--protoc", default="protoc")
    parser.add_argument("--repeat", type=int, default=1, help="timed passes over the whole file")
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
        unpack_float = struct.Struct("<f").unpack

        def read_once():
            event = tb_event_pb2.Event()
            series = {}
            scalar_tags = set()
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
                    for value in event.summary.value:
                        if value.HasField("simple_value"):
                            number = value.simple_value
                        elif value.HasField("tensor"):
                            if (value.HasField("metadata")
                                    and value.metadata.plugin_data.plugin_name == b"scalars"):
                                scalar_tags.add(value.tag)
                            if value.tag not in scalar_tags:
                                continue
                            tensor = value.tensor
                            number = (unpack_float(tensor.tensor_content)[0] if tensor.tensor_content
                                      else tensor.float_val[0])
                        else:
                            continue
                        series.setdefault(value.tag, []).append((event.step, event.wall_time, number))
            return series, records, bad, consumed

        seconds = []
        cpu_seconds = []
        for _ in range(max(1, args.repeat)):
            start = time.perf_counter()
            cpu_start = time.thread_time()
            series, records, bad, consumed = read_once()
            seconds.append(time.perf_counter() - start)
            cpu_seconds.append(time.thread_time() - cpu_start)
            points = sum(len(points) for points in series.values())
            tags = len(series)
            del series  # freed outside the timed part, as RunLens frees its result

        print(json.dumps({
            "records": records,
            "bytes": consumed,
            "seconds": seconds,
            "cpu_seconds": cpu_seconds,
            "points": points,
            "tags": tags,
            "bad_records": bad,
            "protobuf_implementation": api_implementation.Type(),
            "python": sys.version.split()[0],
        }))


if __name__ == "__main__":
    main()
