#!/usr/bin/python3
"""Collects seed inputs for every fuzz target from ../shared/samples and tests/data into OUT/<target>/.

The seeds are raw material: libFuzzer's -merge=1 keeps the ones that add coverage into tests/fuzz/corpus
(see README.md). Targets whose first byte picks a variant (a file name or a decoder) get that byte
prepended. Summary values and binary GraphDefs are cut out of real event files and text GraphDefs with
the project's own .proto files (compiled here with protoc), so this needs python3-protobuf and protoc.

usage: seed_corpora.py OUT [--samples DIR]
"""

import argparse
import gzip
import hashlib
import os
import pathlib
import struct
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
MAX_SEED = 64 * 1024  # larger files make slow seeds; their heads still seed the text formats


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--samples", type=pathlib.Path, default=ROOT.parent / "shared" / "samples")
    args = parser.parse_args()
    seeds = Seeds(args.out)
    samples = args.samples
    if not samples.is_dir():
        sys.exit(f"{samples}: no samples folder")

    tb_events = sorted(samples.glob("summaries/tensorboard/*/events.out.tfevents.*")) + sorted(
        samples.glob("graphs/torch_add_graph_event/*")) + sorted(DATA.glob("advisor/accuracy/runs/*/tb/*"))
    ms_summaries = sorted(samples.glob("summaries/mindspore_generated/*/*_MS"))
    lineages = sorted(samples.glob("summaries/mindspore_generated/*/*_lineage"))
    for path in tb_events + ms_summaries + lineages:
        seeds.add("tfrecord", path)
    for path in tb_events:
        seeds.add("eventfile", path)
    for path in ms_summaries:
        seeds.add("mssummary", path)
    for path in lineages:
        seeds.add("lineage", path)
    seeds.add("visualdl", DATA / "visualdl" / "vdlrecords.1700000000.log")
    # VisualDL's own ROC demo log: ROC_Curve records (field 11).
    seeds.add("visualdl", DATA / "visualdl" / "roc" / "vdlrecords.1609220805.log")
    # add_embeddings values (field 7): the start of VisualDL's hidi demo log and a log with a metadata header.
    for path in sorted(DATA.glob("embeddings/visualdl/*/vdlrecords.*.log")):
        seeds.add("visualdl", path)
    # The projector's checkpoint variant (byte 4): the index's length, the index, then the data shard.
    for folder in ("checkpoint", "checkpoint_cases"):
        index = (DATA / "embeddings" / folder / "model.ckpt-100.index").read_bytes()
        shard = (DATA / "embeddings" / folder / "model.ckpt-100.data-00000-of-00001").read_bytes()
        seeds.add_bytes("projector", b"\x04" + struct.pack("<I", len(index)) + index + shard, folder)

    protos = compile_protos()
    summary_values(seeds, protos, tb_events, ms_summaries)

    for path in sorted(samples.glob("graphs/onnx/**/*.onnx")) + sorted(DATA.glob("*.onnx")):
        seeds.add("onnx", path)
    for path in sorted(samples.glob("graphs/tensorflow/*.pbtxt")):
        seeds.add("tfgraphtext", path, head=16 * 1024)
        seeds.add_bytes("tfgraph", text_graph_to_binary(protos, path.read_bytes()), path.name + ".pb")
    for path in tb_events:
        for graph in event_graphs(protos, path):
            seeds.add_bytes("tfgraph", graph, path.name + ".graph_def")
    for path in sorted(samples.glob("graphs/mindspore_debug_graph_pb/*.pb")) + sorted(DATA.glob("graph_anf_*.pb")):
        seeds.add("anfir", path)
    for path in sorted(samples.glob("graphs/mindspore_ir/*")):
        seeds.add("mindsporeir", path)
    for path in sorted(samples.glob("graphs/*dot/*.dot")) + sorted(DATA.glob("*.dot")):
        seeds.add("dot", path)
    for path in sorted(samples.glob("graphs/torchscript/*")):
        seeds.add("torchscript", path)
    for path in sorted(DATA.glob("graph_*strategy*.json")):
        seeds.add("parallelstrategy", path)
    for path in sorted(DATA.glob("paddle/**/*.pdmodel")) + sorted(DATA.glob("paddle/**/__model__")):
        seeds.add("paddle", path)
    for path in sorted(DATA.glob("paddle/pir/*.json")):
        seeds.add("paddle", path)
    for path in sorted(DATA.glob("paddle/**/*.pdiparams")):
        seeds.add("paddleparams", path)
    for path in sorted(DATA.glob("graph/mindir/*.mindir")):
        seeds.add("mindir", path)
        seeds.add_bytes("mindir", path.read_bytes()[:4096], path.name + ".head")
    for path in sorted(DATA.glob("paddle/**/vdlgraph.*")):
        seeds.add("visualdlgraph", path)
    for path in sorted(DATA.glob("graph/savedmodel/**/saved_model.pb")) + sorted(DATA.glob("graph/savedmodel/**/*.meta")):
        seeds.add("savedmodel", path)
    for path in sorted(DATA.glob("graph/savedmodel/**/*.index")):
        seeds.add("tfcheckpointindex", path)

    seeds.add("chrometrace", DATA / "tiny.pt.trace.json")
    seeds.add("chrometrace", DATA / "memory" / "small_memory_trace.json")
    for path in sorted(samples.glob("traces/kineto/*/*.json.gz")):
        if path.stat().st_size <= 8 * 1024:
            seeds.add("chrometrace", path)
            seeds.add_bytes("chrometrace", gzip.decompress(path.read_bytes())[:64 * 1024], path.name + ".json")
    for path in sorted(samples.glob("profiler/mindspore/profiler_misc/*timeline_display*.json")):
        seeds.add("chrometrace", path)
    timeline = samples / "traces" / "memory_timeline" / "memory_timeline.raw.gz"
    if timeline.exists():
        seeds.add("memorytimeline", timeline)
        seeds.add_bytes("memorytimeline", gzip.decompress(timeline.read_bytes())[:16 * 1024], "raw-head.json")
    seeds.add_bytes("memorytimeline", b"[[0, 1000, 2000], [[10, 20, 30], [0, 5, 0]]]", "plain.json")

    memory_seeds(seeds)
    for path in sorted(DATA.glob("memory/*.pickle")):
        seeds.add("pickle", path)
    seeds.add("cudasnapshot", DATA / "memory" / "snapshot.pickle")

    npys = sorted(DATA.glob("advisor/accuracy/runs/frozen_layer/dump/step_0/*.npy"))[:6]
    npys += [p for p in sorted(samples.glob("runs/pytorch_cnn_baseline/dump/step_0/*.npy")) if p.stat().st_size < 4096]
    for path in npys:
        seeds.add("npy", path)
        seeds.add("npyheader", path, head=128)
    for path in sorted(DATA.glob("tensor/*.npz")):
        seeds.add("npz", path)
    for path in sorted(DATA.glob("tensor/*.safetensors")):
        seeds.add("safetensors", path)
    for pattern in ("torchsave/*.pt", "torchsave/*.pth"):
        for path in sorted(DATA.glob(pattern)):
            seeds.add("pt", path)

    profiler_seeds(seeds, samples)
    for side in ("pytorch_data", "mindspore_data"):
        folder = samples / "accuracy" / "msprobe" / side
        for variant, name in enumerate(("dump.json", "construct.json", "stack.json")):
            if (folder / name).exists():
                seeds.add("msprobe", folder / name, prefix=bytes([variant]))
    loggers = DATA / "loggers"
    for path in sorted(loggers.glob("**/*")):
        if path.suffix in (".csv", ".jsonl", ".txt"):
            seeds.add("loggers", path, prefix=bytes([0]))
    seeds.add("loggers", loggers / "hf" / "out" / "trainer_state.json", prefix=bytes([1]))
    for path in sorted(loggers.glob("mlflow/mlruns/*/*/metrics/**/*")):
        if path.is_file():
            seeds.add("loggers", path, prefix=bytes([2]))
    for path in sorted(loggers.glob("**/*.yaml")):
        seeds.add("loggers", path, prefix=bytes([3]))
    wandb_seed = loggers / "wandb-seed" / "run-seed.wandb"
    if wandb_seed.exists():
        run_file = wandb_seed.read_bytes()
        seeds.add_bytes("wandbrun", b"\x00" + run_file, "file")
        seeds.add_bytes("wandbrun", b"\x01" + run_file[7:], "records")
        seeds.add_bytes("wandbrun", b"\x02" + wandb_fragments(run_file[:2048]), "fragments")
    for path in sorted(DATA.glob("accuracy/*.yaml")) + [ROOT / "models" / "accuracy" / "apimapping.json"]:
        seeds.add("comparemapping", path)

    sniffer_names = ["events.out.tfevents.1700000000.host", "events.summary.1700000000.0.host_MS",
                     "events.summary.1700000000.0.host_lineage", "vdlrecords.1700000000.log",
                     "host_123.1700000000.pt.trace.json", "model.onnx", "graph.pb", "graph.pbtxt",
                     "kernel_graph_0.ir", "aicore_intermediate_0_type.csv", "memory_snapshot.pickle", "tensor.npy"]
    heads = [tb_events[0], ms_summaries[0], lineages[0], DATA / "visualdl" / "vdlrecords.1700000000.log",
             DATA / "tiny.pt.trace.json", samples / "graphs" / "onnx" / "mnist-8.onnx",
             DATA / "graph_anf_model.pb", samples / "graphs" / "tensorflow" / "graphdef_foo.pbtxt",
             samples / "graphs" / "mindspore_ir" / "mindir.md.ex1_18_execute_0161.ir",
             samples / "profiler" / "mindspore" / "profiler_misc" / "aicore_intermediate_1_type.csv",
             DATA / "memory" / "snapshot.pickle", npys[0]]
    for variant, path in enumerate(heads):
        if path.exists():
            seeds.add("sniffer", path, head=4096, prefix=bytes([variant]))
    # The last variant takes the file name from the input: a length byte and the name.
    name = b"rank-3.Apr_03_18_51_38.1102.pt.trace.json"
    seeds.add_bytes("sniffer", bytes([len(heads), len(name)]) + name + (DATA / "tiny.pt.trace.json").read_bytes(),
                    "named-trace")
    seeds.report()


def wandb_fragments(data):
    """The fragments of a W&B run file's first block as the fuzz target's third variant takes them: type byte,
    16-bit length, data (the target adds the checksums)."""
    out, pos = bytearray(), 7
    while pos + 7 <= len(data):
        length, kind = struct.unpack("<HB", data[pos + 4:pos + 7])
        chunk = data[pos + 7:pos + 7 + length]
        if len(chunk) < length:
            break
        out += struct.pack("<BH", kind, length) + chunk
        pos += 7 + length
    return bytes(out)


class Seeds:
    def __init__(self, out):
        self.out = out
        self.count = {}

    def add(self, target, path, head=MAX_SEED, prefix=b""):
        if not path.exists():
            print(f"missing {path}", file=sys.stderr)
            return
        self.add_bytes(target, prefix + path.read_bytes()[:head], path.name)

    def add_bytes(self, target, data, label):
        if len(data) > MAX_SEED:
            return
        folder = self.out / target
        folder.mkdir(parents=True, exist_ok=True)
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        self.count[target] = self.count.get(target, 0) + 1

    def report(self):
        for target, n in sorted(self.count.items()):
            print(f"{target}: {n} seeds")


def compile_protos():
    out = pathlib.Path(tempfile.mkdtemp(prefix="runlens-protos-"))
    importers = ROOT / "importers"
    files = [str(p.relative_to(importers)) for p in sorted(importers.glob("*/proto/*.proto"))]
    subprocess.run(["protoc", f"--python_out={out}", "-I", str(importers)] + files, check=True)
    sys.path.insert(0, str(out))
    import importlib
    return {name: importlib.import_module(module) for name, module in [
        ("tb_event", "summary.proto.tb_event_pb2"), ("ms_summary", "summary.proto.ms_summary_pb2"),
        ("tf_graph", "graph.proto.tf_graph_pb2")]}


def records(path):
    data = path.read_bytes()
    at = 0
    while at + 12 <= len(data):
        (length,) = struct.unpack_from("<Q", data, at)
        if at + 16 + length > len(data):
            return
        yield data[at + 12:at + 12 + length]
        at += 16 + length


def event_graphs(protos, path):
    for record in records(path):
        event = protos["tb_event"].Event()
        event.ParseFromString(record)
        if event.HasField("graph_def"):
            yield event.graph_def


def text_graph_to_binary(protos, text):
    from google.protobuf import text_format
    graph = protos["tf_graph"].GraphDef()
    text_format.Parse(text, graph, allow_unknown_field=True)
    return graph.SerializeToString()


def summary_values(seeds, protos, tb_events, ms_summaries):
    # Byte 0 picks the decoder: 0 numeric tensor, 1 scalar, 2 histogram proto, 3 histogram tensor,
    # 4 MindSpore histogram, 5 images, 6 text, 7 PR curve, 8 hparams plugin data, 9 MindSpore tensor.
    for path in tb_events:
        for record in records(path):
            event = protos["tb_event"].Event()
            event.ParseFromString(record)
            for value in event.summary.value:
                plugin = value.metadata.plugin_data.plugin_name
                if value.HasField("histo"):
                    seeds.add_bytes("summaryvalues", b"\x02" + value.histo.SerializeToString(), "histo")
                if value.HasField("tensor"):
                    tensor = value.tensor.SerializeToString()
                    decoders = {"pr_curves": [7], "images": [5], "text": [6], "histograms": [3]}.get(plugin, [0, 1])
                    for decoder in decoders:
                        seeds.add_bytes("summaryvalues", bytes([decoder]) + tensor, plugin)
                if plugin == "hparams":
                    seeds.add_bytes("summaryvalues", b"\x08" + value.metadata.plugin_data.content, "hparams")
    for path in ms_summaries[:1]:
        for record in records(path):
            event = protos["ms_summary"].Event()
            event.ParseFromString(record)
            for value in event.summary.value:
                if value.HasField("histogram"):
                    seeds.add_bytes("summaryvalues", b"\x04" + value.histogram.SerializeToString(), "ms-histogram")
                if value.HasField("tensor"):
                    seeds.add_bytes("summaryvalues", b"\x09" + value.tensor.SerializeToString(), "ms-tensor")


def memory_seeds(seeds):
    # Byte 0 picks the file name (see fuzzMindSporeMemory).
    files = [
        b'{"capacity": 31.5, "allocations": 120, "deallocations": 120, "peak_mem": 2.25, "static_mem": 0.5}',
        b'{"1": {"graph_id": 1, "static_mem": 0.5, "lines": [0.75, 0.9375, 0.625], "nodes": ['
        b'{"node_id": 0, "name": "Conv2D-op1", "fullname": "Default/conv1/Conv2D-op1", "size": 0.25,'
        b' "allocations": 1, "allocated": 0.25}, {"node_id": 1, "name": "MatMul-op2", "fullname":'
        b' "Default/fc/MatMul-op2", "size": 0.1875, "allocations": 2, "allocated": 0.1875}],'
        b' "fp_start": 0, "bp_end": 1, "breakdowns": [{"tensor_name": "Conv2D-op1:0", "tensor_id": 7,'
        b' "size": 0.25, "type": "output", "shape": [32, 64, 56, 56], "format": "NC1HWC0",'
        b' "data_type": "float16", "life_start": 0, "life_end": 1}, {"tensor_name": "MatMul-op2:0",'
        b' "tensor_id": 8, "size": 0.125, "type": "output", "shape": "32,1000", "life_start": 1,'
        b' "life_end": 1}]}}',
        b"Timestamp(ns),Total Allocated,Total Reserved,Total Active\n1700000000000000100,1024,4096,1024\n"
        b"1700000000000000200,3072,4096,2048\n",
        b"Device Type,Total Reserved(MB),Component,Timestamp(us),Total Allocated(MB)\r\n"
        b"NPU:0,100,APP,1700000000000001.5,40.5\r\nNPU:1,8,PTA,1700000000000002,2\r\n",
        b"Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(MB),"
        b"Allocation Total Reserved(MB),Release Total Allocated(MB),Release Total Reserved(MB),Device\n"
        b"Default/network/Conv2D-op12,1024,1700000000000000.5,250.25,10,20,9,20,NPU:0\n"
        b"\"Default/net/Add-op1,fused\",0.5,1700000000000100,,10,20,,,NPU:0\n",
    ]
    for variant, data in enumerate(files):
        seeds.add_bytes("msmemory", bytes([variant]) + data, f"memory-{variant}")
    seeds.add_bytes("msmemory", bytes([5]) + files[4], "memory-5")


def profiler_seeds(seeds, samples):
    misc = samples / "profiler" / "mindspore" / "profiler_misc"
    fixture = samples / "profiler" / "mindspore" / "minddata_pipeline_fixture"
    run1 = samples / "profiler" / "mindspore" / "run_1_profiler"
    for path in sorted(misc.glob("*.csv")) + sorted(fixture.glob("*.csv")) + sorted(misc.glob("*.txt")):
        seeds.add("csvtable", path, head=16 * 1024)
    # Byte 0 picks the file name (see fuzzProfiler).
    profiler = [(0, misc / "aicore_intermediate_1_type.csv"), (1, misc / "aicore_intermediate_1_detail.csv"),
                (2, misc / "framework_raw_0.csv"), (8, misc / "flops_0.txt"),
                (9, misc / "step_trace_raw_0_detail_time.csv"), (10, run1 / "step_trace_point_info.json")]
    for variant, path in profiler:
        seeds.add("profiler", path, head=16 * 1024, prefix=bytes([variant]))
    seeds.add_bytes("profiler", bytes([11]) + b'{"ms_version": "2.2.0", "rank_id": 0, "rank_size": 1,'
                    b' "device_type": "ascend", "parallel_mode": "data_parallel"}', "profiler_info")
    seeds.add_bytes("profiler", bytes([12]) + b"Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,"
                    b"Start Time(us),Duration(us),Wait Time(us),Block Dim,Input Shapes,Input Data Types,"
                    b"Input Formats,Output Shapes,Output Data Types,Output Formats\n"
                    b"1,4294967295,1,2,Default/Conv2D-op1,Conv2D,AI_CORE,1700000000000001.5,12.5,0,8,"
                    b"\"32,3,224,224\",FLOAT16,NC1HWC0,\"32,64,112,112\",FLOAT16,NC1HWC0\n", "kernel_details")
    seeds.add_bytes("profiler", bytes([13]) + b"Model Name,OP Type,Core Type,Count,Total Time(us),Min Time(us),"
                    b"Avg Time(us),Max Time(us),Ratio(%)\nnet,Conv2D,AI_CORE,3,30.0,9.0,10.0,11.0,60.0\n",
                    "op_statistic")
    seeds.add_bytes("profiler", bytes([14]) + b"Step,Computing,Communication(Not Overlapped),Overlapped,"
                    b"Communication,Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive),"
                    b"Preparing\n1,100.5,20,5,25,3,0,0,20,1\n2,101,21,5,26,2,0,0,21,0\n", "step_trace_time")
    # Byte 0 picks the parser (see fuzzPipeline).
    pipeline = [(0, misc / "minddata_pipeline_raw_0.csv"), (1, misc / "pipeline_profiling_0.json"),
                (2, misc / "device_queue_profiling_0.txt"), (5, misc / "minddata_cpu_utilization_0.json")]
    for variant, path in pipeline:
        seeds.add("pipeline", path, prefix=bytes([variant]))
    seeds.add_bytes("pipeline", b"\x03GetNext_dequeue_wait 1700000000000 1700000000100 3\n"
                    b"GetNext_dequeue_wait 1700000000200 1700000000300 2\n", "aicpu")
    seeds.add_bytes("pipeline", b"\x04GetNext_dequeue_wait 1700000000000000 1700000000100000 3\n", "getnext")
    seeds.add_bytes("pipeline", b'\x06{"op_ids": [0, 1], "op_names": ["Batch", "Map"], "num_workers": [4, 8],'
                    b' "queue_average_size": [10, 2], "queue_utilization_pct": [50, 10],'
                    b' "queue_empty_freq_pct": [0, 60], "children_ids": [[1], []], "parent_id": [-1, 0],'
                    b' "avg_cpu_pct": [30, 80], "bottleneck_warning": ["Map is slow"],'
                    b' "bottleneck_suggestion": ["raise num_parallel_workers"]}', "summary-json")
    seeds.add_bytes("pipeline", b"\x07op_ids,0,1\nop_names,Batch,Map\nnum_workers,4,8\nqueue_average_size,10,2\n"
                    b"children_ids,[1],[]\nparent_id,-1,0\navg_cpu_pct,30,80\n", "summary-csv")
    # Byte 0 picks the file name (see fuzzCluster).
    seeds.add_bytes("cluster", b"\x00computation_time,communication_alone_time,stage_time,receive_alone_time,"
                    b"collective_communication_alone_time\n10.5,2,12.5,1.5,0.5\n10,2,12,1.5,0.5\n", "analyse")
    seeds.add("cluster", misc / "step_trace_raw_0_detail_time.csv", prefix=b"\x01")
    seeds.add_bytes("cluster", b"\x02step_num,communication_cost,wait_cost,link_info,communication_operator_cost\n"
                    b"1,5.0,1.0,\"{\"\"0-1\"\": {\"\"HCCS\"\": [1.5, 100.0, 66.7]}}\",\"{}\"\n"
                    b"-,5.0,1.0,\"{\"\"0-1\"\": {\"\"HCCS\"\": [1.5, 100.0, 66.7]}}\",\"{}\"\n", "hccl")
    seeds.add("cluster", misc / "flops_summary_0.json", prefix=b"\x03")
    seeds.add_bytes("cluster", b'\x04{"config": {"rankId": 0, "stageId": 1, "parallelType": "semi_auto_parallel",'
                    b' "stageDevices": [[0, 1], [2, 3]]}}', "strategy")
    seeds.add_bytes("cluster", b'\x05{"rank_id": 0, "rank_size": 4, "parallel_mode": "semi_auto_parallel",'
                    b' "stage_num": 2}', "profiler_info")
    rank_digest_seeds(seeds)


def rank_digest_seeds(seeds):
    """Byte 0 picks what follows (see fuzzRankDigest): 0 a whole .rldigest file, 1 a version 1 JSON body alone,
    2 a version 2 binary body alone."""
    import json
    import zlib
    body = json.dumps({
        "format": "runlens-rank-digest", "rank": 3, "world_size": 4, "host": "node1", "device": "NVIDIA H100 (0)",
        "file": "/data/job/rank3.pt.trace.json", "file_size": 123456, "file_mtime_ms": 1759276800000,
        "peak_memory_bytes": 6.5e9,
        "temporal": {"span": 17, "compute": 8, "non_compute": 6, "idle": 3, "communication": 8, "overlap": 2},
        "means": {"step_time": 10, "computation": 4, "communication": 3, "overlapped": 1, "idle": 3,
                  "communication_share": 0.4},
        "steps": [[1, 1759276800001000000, 1759276800011000000, 10, 4, 3, 1, 3, 0.4, 4, 0.1],
                  [2, 1759276800011000000, 1759276800021000000, 10, 4, 3, 1, 3, 0.4, None, None]],
        "collectives": [["allreduce", 1759276800005000000, 1759276800008000000, 4194304, "0 (default_pg)", 4,
                         "[0, 1, 2, 3]"]],
        "kernels": [["sm90_xmma_gemm_f16f16_f32", 12, 2.4, 0.2]],
        "operators": [["aten::mm", 12, 0.12, 0.01]],
    }, separators=(",", ":")).encode()
    def framed(version, data):
        return b"RLDIGEST" + struct.pack("<IIQ", version, 0, len(data)) + zlib.compress(data, 9)
    seeds.add_bytes("rankdigest", b"\x00" + framed(1, body), "digest")
    seeds.add_bytes("rankdigest", b"\x00" + framed(2, body), "newer")
    seeds.add_bytes("rankdigest", b"\x00" + framed(1, b'{"format":"runlens-rank-digest","rank":0}'), "minimal")
    seeds.add_bytes("rankdigest", b"\x01" + body, "body")
    binary = rank_digest_binary_body()
    seeds.add_bytes("rankdigest", b"\x00" + b"RLDIGEST" + struct.pack("<IIQ", 2, 0, len(binary)) + binary, "digest v2")
    seeds.add_bytes("rankdigest", b"\x02" + binary, "binary body")


def rank_digest_binary_body():
    """The digest of rank_digest_seeds as a version 2 body (importers/cluster/rankdigestbinary.h)."""
    nan = float("nan")
    strings = ["node1", "NVIDIA H100 (0)", "/data/job/rank3.pt.trace.json", "allreduce", "0 (default_pg)",
               "[0, 1, 2, 3]", "sm90_xmma_gemm_f16f16_f32", "aten::mm"]
    out = struct.pack("<I", len(strings))
    for s in strings:
        data = s.encode()
        out += struct.pack("<I", len(data)) + data
    out += struct.pack("<IIIII", 3, 4, 0, 1, 2)
    out += struct.pack("<qqd", 123456, 1759276800000, 6.5e9)
    out += struct.pack("<I6d", 1, 17, 8, 6, 3, 8, 2)
    out += struct.pack("<6d", 10, 4, 3, 1, 3, 0.4)
    steps = [(1, 1759276800001000000, 1759276800011000000, 10, 4, 3, 1, 3, 0.4, 4, 0.1),
             (2, 1759276800011000000, 1759276800021000000, 10, 4, 3, 1, 3, 0.4, nan, nan)]
    out += struct.pack("<I", len(steps))
    for step in steps:
        out += struct.pack("<qqq8d", *step)
    out += struct.pack("<I", 1) + struct.pack("<Iqqdiii", 3, 1759276800005000000, 1759276800008000000, 4194304, 4,
                                              4, 5)
    out += struct.pack("<I", 1) + struct.pack("<IQdd", 6, 12, 2.4, 0.2)
    out += struct.pack("<I", 1) + struct.pack("<IQdd", 7, 12, 0.12, 0.01)
    return out


if __name__ == "__main__":
    main()
