"""Oracle for tst_savedmodel: reads a saved_model.pb (or a .meta MetaGraphDef) with google.protobuf and prints
what the Graph panel should show, as JSON: per meta graph in file order its tags, the number of GraphDef
nodes, the library functions with their node counts, and the signatures with their inputs and outputs
(tensor name, dtype, shape; -1 for an unknown dimension, null for an unknown rank)."""
import json
import sys

import protos

saved_model_pb2, graph_pb2 = protos.load()

# TensorFlow's DataType numbers (types.proto) to the names numpy and RunLens use.
DTYPES = {1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8", 7: "string",
          8: "complex64", 9: "int64", 10: "bool", 14: "bfloat16", 17: "uint16", 18: "complex128",
          19: "float16", 20: "resource", 21: "variant", 22: "uint32", 23: "uint64"}


def tensor(info):
    shape = None
    if info.HasField("tensor_shape") and not info.tensor_shape.unknown_rank:
        shape = [d.size if d.size >= 0 else -1 for d in info.tensor_shape.dim]
    return {"name": info.name, "dtype": DTYPES.get(info.dtype, ""), "shape": shape}


def meta_graph(meta):
    return {
        "tags": list(meta.meta_info_def.tags),
        "tensorflow_version": meta.meta_info_def.tensorflow_version,
        "nodes": len(meta.graph_def.node),
        "ops": sorted({n.op for n in meta.graph_def.node}),
        "variables": sorted(n.name for n in meta.graph_def.node if n.op in ("VariableV2", "Variable", "VarHandleOp")),
        "functions": {f.signature.name: len(f.node_def) for f in meta.graph_def.library.function},
        "calls": sorted(n.name for n in meta.graph_def.node
                        if n.op in {f.signature.name for f in meta.graph_def.library.function}
                        or any(a.func.name for a in n.attr.values())),
        "signatures": {
            name: {
                "method": sig.method_name,
                "inputs": {k: tensor(v) for k, v in sig.inputs.items()},
                "outputs": {k: tensor(v) for k, v in sig.outputs.items()},
            }
            for name, sig in meta.signature_def.items()
        },
    }


def main():
    path = sys.argv[1]
    data = open(path, "rb").read()
    if path.endswith(".meta"):
        meta = saved_model_pb2.MetaGraphDef()
        meta.ParseFromString(data)
        out = {"schema_version": None, "meta_graphs": [meta_graph(meta)]}
    else:
        model = saved_model_pb2.SavedModel()
        model.ParseFromString(data)
        out = {"schema_version": model.saved_model_schema_version,
               "meta_graphs": [meta_graph(m) for m in model.meta_graphs]}
    print(json.dumps(out, sort_keys=True))


main()
