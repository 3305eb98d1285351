#!/usr/bin/env python3
"""Writes the pickle fixtures of tests/importers/memory and the values the tests expect of them.

Run from anywhere with the system python3 (no torch needed): python3 tests/data/memory/make_fixtures.py
The expected values are computed here, independently of the C++ readers, and stored as JSON next to the
fixtures. Nothing below is ever unpickled by the tests' reader except through its data-only decoder.
"""
import json
import os
import pickle

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def plain_values():
    shared = ["shared", 1]
    return {
        "none": None,
        "true": True,
        "false": False,
        "small": 7,
        "byte": 200,
        "short": 40000,
        "negative": -5,
        "int32": -2147483648,
        "int64": 2**62 + 3,
        "negative64": -(2**40) - 1,
        "big": 2**70,
        "float": 3.25,
        "negative_float": -1.5e-3,
        "text": "Grüße, 内存",
        "empty": "",
        "bytes": b"\x00\x01\xff",
        "tuple1": (1,),
        "tuple2": (1, "two"),
        "tuple3": (1, 2, 3),
        "tuple5": (1, 2, 3, 4, 5),
        "empty_tuple": (),
        "list": list(range(2500)),  # over 1000 items: several APPENDS batches
        "nested": {"a": [{"b": [1, 2, {"c": None}]}]},
        "shared_a": shared,
        "shared_b": shared,
        "set": {1, 2, 3},
        "frozenset": frozenset({4, 5}),
    }


def expected_plain():
    v = plain_values()
    # Integers as strings: JSON readers hold numbers as doubles, which would round the 64-bit ones.
    return {
        "small": "7", "byte": "200", "short": "40000", "negative": "-5", "int32": "-2147483648",
        "int64": str(2**62 + 3), "negative64": str(-(2**40) - 1), "big_approx": float(2**70),
        "float": 3.25, "negative_float": -1.5e-3, "text": v["text"], "list_len": 2500,
        "list_sum": sum(v["list"]), "keys": len(v),
    }


class Evil:
    """Unpickling an instance runs os.system: what a malicious file does."""

    def __reduce__(self):
        return (os.system, ("touch /tmp/runlens_pickle_was_executed",))


def snapshot():
    """A small snapshot with the schema of torch.cuda.memory._snapshot() (PyTorch 2.1+)."""
    frames_fc = [
        {"filename": "/opt/torch/nn/functional.py", "line": 1500, "name": "linear"},
        {"filename": "/home/u/train.py", "line": 42, "name": "forward"},
    ]
    frames_opt = [{"filename": "/home/u/train.py", "line": 77, "name": "step"}]
    frames_cpp = [{"filename": "??", "line": 0, "name": "c10::cuda::CUDACachingAllocator::malloc"},
                  {"filename": "/home/u/model.py", "line": 9, "name": "block"}]
    mb = 1 << 20
    segments = [
        {"device": 0, "address": 0x7F0000000000, "total_size": 20 * mb, "stream": 0, "segment_type": "large",
         "allocated_size": 12 * mb, "active_size": 12 * mb, "requested_size": 12 * mb,
         "blocks": [
             {"address": 0x7F0000000000, "size": 8 * mb, "requested_size": 8 * mb, "state": "active_allocated",
              "frames": frames_fc},
             {"address": 0x7F0000800000, "size": 4 * mb, "requested_size": 4 * mb - 100,
              "state": "active_allocated", "frames": frames_opt},
             {"address": 0x7F0000C00000, "size": 8 * mb, "requested_size": 0, "state": "inactive", "frames": []},
         ]},
        {"device": 0, "address": 0x7F1000000000, "total_size": 2 * mb, "stream": 0, "segment_type": "small",
         "allocated_size": 512, "active_size": 1024,
         "blocks": [
             {"address": 0x7F1000000000, "size": 512, "requested_size": 500, "state": "active_allocated",
              "frames": frames_cpp},
             {"address": 0x7F1000000200, "size": 512, "requested_size": 512, "state": "active_awaiting_free",
              "frames": []},
             {"address": 0x7F1000000400, "size": 2 * mb - 1024, "requested_size": 0, "state": "inactive",
              "frames": []},
         ]},
        {"device": 1, "address": 0x7E0000000000, "total_size": 2 * mb, "stream": 0, "segment_type": "small",
         "allocated_size": 0, "active_size": 0,
         "blocks": [{"address": 0x7E0000000000, "size": 2 * mb, "requested_size": 0, "state": "inactive",
                     "frames": []}]},
    ]
    t0 = 1_700_000_000_000_000  # time_us

    def entry(action, addr, size, dt, **extra):
        e = {"action": action, "addr": addr, "size": size, "stream": 0, "frames": frames_fc, "time_us": t0 + dt}
        e.update(extra)
        return e

    trace0 = [
        entry("segment_alloc", 0x7F0000000000, 20 * mb, 0),
        entry("alloc", 0x7F0000000000, 8 * mb, 10),
        entry("alloc", 0x7F0000C00000, 8 * mb, 20),
        entry("alloc", 0x7F0000800000, 4 * mb, 30),
        entry("free_requested", 0x7F0000C00000, 8 * mb, 40),
        entry("free_completed", 0x7F0000C00000, 8 * mb, 45),
        {"action": "oom", "size": 64 * mb, "stream": 0, "device_free": 3 * mb, "frames": frames_fc,
         "time_us": t0 + 50},
        entry("alloc", 0x7F1000000200, 512, 60),
        entry("free_requested", 0x7F1000000200, 512, 70),
        entry("snapshot", 0, 0, 80),
    ]
    trace1 = [
        entry("segment_alloc", 0x7E0000000000, 2 * mb, 5),
        entry("alloc", 0x7E0000000000, 1024, 15),
        entry("free_requested", 0x7E0000000000, 1024, 25),
        entry("free_completed", 0x7E0000000000, 1024, 26),
    ]
    return {"segments": segments, "device_traces": [trace0, trace1],
            "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1}}


def replay(snap):
    """Curves of each device as the reader should build them: final state from the segments, start value =
    final minus the trace's net change, then the trace replayed (allocated: alloc/free_requested, active:
    alloc/free_completed, reserved: segment_alloc/segment_free)."""
    out = {}
    devices = sorted({s["device"] for s in snap["segments"]} | set(range(len(snap["device_traces"]))))
    for d in devices:
        segs = [s for s in snap["segments"] if s["device"] == d]
        final = {"allocated": sum(s["allocated_size"] for s in segs),
                 "active": sum(s["active_size"] for s in segs),
                 "reserved": sum(s["total_size"] for s in segs)}
        trace = snap["device_traces"][d] if d < len(snap["device_traces"]) else []
        rules = {"allocated": {"alloc": 1, "free_requested": -1}, "active": {"alloc": 1, "free_completed": -1},
                 "reserved": {"segment_alloc": 1, "segment_free": -1}}
        curves = {}
        for name, rule in rules.items():
            net = sum(rule.get(e["action"], 0) * e.get("size", 0) for e in trace)
            value = final[name] - net
            xs = [trace[0]["time_us"] * 1000 if trace else 0]
            ys = [value]
            for e in trace:
                sign = rule.get(e["action"], 0)
                if sign:
                    value += sign * e["size"]
                    xs.append(e["time_us"] * 1000)
                    ys.append(value)
            # x as strings: ns since the epoch do not fit a double exactly.
            curves[name] = {"x": [str(x) for x in xs], "bytes": ys}
        live = [b for s in segs for b in s["blocks"] if b["state"] != "inactive"]
        out["cuda:%d" % d] = {
            "curves": curves,
            "ooms": [{"x": str(e["time_us"] * 1000), "bytes": e["size"], "device_free": e["device_free"]}
                     for e in trace if e["action"] == "oom"],
            "events": sum(1 for e in trace if e["action"] in ("alloc", "free_requested")),
            "live_blocks": len(live),
            "live_bytes": sum(b["size"] for b in live),
        }
    return out


def main():
    # Protocol 2 pickles bytes through _codecs.encode and protocols 2-3 sets through builtins.set (code
    # opcodes a data-only decoder refuses): those values are left out of the older protocols' fixtures.
    kept = {}
    for protocol in (2, 3, 4, 5):
        values = plain_values()
        if protocol < 4:
            del values["set"], values["frozenset"]
        if protocol < 3:
            del values["bytes"]
        kept[str(protocol)] = len(values)
        write("values_p%d.pickle" % protocol, pickle.dumps(values, protocol=protocol))
    write("values_set_p2.pickle", pickle.dumps({"set": {1, 2}}, protocol=2))
    expected = expected_plain()
    expected["keys"] = kept
    with open(os.path.join(HERE, "values_expected.json"), "w") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False)

    # Pickles that reach for code: a module function, and a reduce payload, in old and new protocols.
    write("code_global_p2.pickle", pickle.dumps(os.system, protocol=2))
    write("code_stack_global_p4.pickle", pickle.dumps(os.system, protocol=4))
    write("code_reduce_p2.pickle", pickle.dumps({"segments": [Evil()]}, protocol=2))
    write("code_reduce_p4.pickle", pickle.dumps({"segments": [], "device_traces": [[Evil()]]}, protocol=4))

    snap = snapshot()
    write("snapshot.pickle", pickle.dumps(snap, protocol=4))
    with open(os.path.join(HERE, "snapshot_expected.json"), "w") as f:
        json.dump(replay(snap), f, indent=1)


if __name__ == "__main__":
    main()
