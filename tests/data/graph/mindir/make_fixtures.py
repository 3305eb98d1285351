"""Writes the MindIR fixtures beside this script, laid out as MindSpore's exporter lays them out.

No public .mindir small enough to commit was found, and MindSpore is not packaged for Debian, so the files are
written here with google.protobuf from importers/graph/proto/mind_ir.proto (MindSpore's field numbers). What
the exporter does (mindspore/ccsrc/transform/express_ir/mindir_exporter.cc and mindspore.export in
mindspore/train/serialization.py) and what this script copies:
- ModelProto: ir_version "0.1.1", producer_name "MindSpore", model_version the MindSpore version,
  little_endian, mind_ir_version; `graph` is the top graph, every graph it calls is in `functions`, and every
  primitive used is once in `primitives` under a unique name "<op>:<n>".
- Names: a graph is "<id>_<name>.<n>"; a parameter or input "<graph>:<name>"; a CNode "<graph>:<label>:<n>";
  `domain` holds the node's full name with scope ("Default/conv1-Conv2d/Conv2D-op0").
- op_type: "REF::<primitive unique name>" for a primitive call, "REF::<graph name>" for a call of a graph,
  "Constant" for a value node (its value in the attribute "value").
- Every CNode has an attribute "shape" with its abstract (type TENSORS, one TensorProto with dims and type).
- The top graph's weights are `parameter` TensorProtos; the Python side fills `raw_data`, or, for models over
  1 GB, writes the bytes to "<prefix>_variables/data_<k>" (64-byte aligned) and records
  external_data {location "<prefix>_variables/data_0", offset, length}, naming the graph "<prefix>_graph.mindir".

Run: /usr/bin/python3 make_fixtures.py (needs protoc on PATH and python3-protobuf).
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "importers", "graph", "proto"))


def load_schema():
    out = tempfile.mkdtemp()
    subprocess.check_call(["protoc", "--python_out=" + out, "-I", PROTO_DIR, os.path.join(PROTO_DIR, "mind_ir.proto")])
    sys.path.insert(0, out)
    import mind_ir_pb2
    return mind_ir_pb2


pb = load_schema()

FLOAT, INT64, STRING, BOOL, TENSORS, TUPLE, LIST = 1, 7, 8, 9, 19, 20, 21
F32 = 1


class Builder:
    def __init__(self, model):
        self.model = model
        self.unique = 0
        self.prims = {}

    def next_id(self):
        self.unique += 1
        return self.unique

    def primitive(self, op, attrs, instance=""):
        name = "%s:%d" % (op, self.next_id())
        p = self.model.primitives.add()
        p.name = name.encode()
        p.op_type = op.encode()
        p.instance_name = instance.encode()
        p.prim_type = 1
        for key, value in attrs:
            a = p.attribute.add()
            a.name = key.encode()
            set_value(a, value)
        return "REF::" + name


def set_scalar_seq_elem(a, v):
    # Sequence elements use the repeated fields (SetScalarToAttributeProto_irs).
    if isinstance(v, bool):
        a.type = BOOL
        a.ints.append(int(v))
    elif isinstance(v, int):
        a.type = INT64
        a.ints.append(v)
    elif isinstance(v, float):
        a.type = FLOAT
        a.floats.append(v)
    else:
        a.type = STRING
        a.strings.append(v.encode())


def set_value(a, v):
    if isinstance(v, bool):
        a.type = BOOL
        a.i = int(v)
    elif isinstance(v, int):
        a.type = INT64
        a.i = v
    elif isinstance(v, float):
        a.type = FLOAT
        a.f = v
    elif isinstance(v, str):
        a.type = STRING
        a.s = v.encode()
    elif isinstance(v, (tuple, list)):
        a.type = TUPLE if isinstance(v, tuple) else LIST
        for item in v:
            set_scalar_seq_elem(a.values.add(), item)
    else:
        raise TypeError(v)


def set_shape(node, dims, dtype=F32):
    a = node.attribute.add()
    a.name = b"shape"
    a.type = TENSORS
    t = a.tensors.add()
    t.data_type = dtype
    t.dims.extend(dims)


def add_input(graph, name, dims):
    i = graph.input.add()
    i.name = name.encode()
    t = i.tensor.add()
    t.data_type = F32
    t.dims.extend(dims)


def add_node(b, graph, op_type, inputs, label, scope_name, dims):
    n = graph.node.add()
    name = "%s:%s:%d" % (graph.name.decode(), label, b.next_id())
    n.name = name.encode()
    n.output.append(name.encode())
    n.op_type = op_type.encode()
    n.domain = scope_name.encode()
    set_shape(n, dims)
    n.input.extend(x.encode() for x in inputs)
    return name


def lenet(external_prefix=None, weights_file=None):
    rng = np.random.default_rng(22)
    model = pb.ModelProto()
    model.ir_version = b"0.1.1"
    model.producer_name = b"MindSpore"
    model.model_version = b"2.2.14"
    model.little_endian = True
    model.mind_ir_version = 2
    b = Builder(model)

    main = model.graph
    main.name = b"3_construct_wrapper.12"
    fn = model.functions.add()
    fn.name = b"5_construct.13"
    g = main.name.decode()
    f = fn.name.decode()

    add_input(main, g + ":x", [1, 1, 32, 32])
    weights = [("conv1.weight", [6, 1, 5, 5]), ("conv2.weight", [16, 6, 5, 5]), ("fc1.weight", [32, 400]),
               ("fc1.bias", [32]), ("fc2.weight", [10, 32]), ("fc2.bias", [10])]
    blobs = []
    for name, dims in weights:
        p = main.parameter.add()
        p.name = ("%s:%s" % (g, name)).encode()
        p.data_type = F32
        p.dims.extend(dims)
        data = rng.standard_normal(int(np.prod(dims))).astype("<f4").tobytes()
        blobs.append((p, data))
    if external_prefix is None:
        for p, data in blobs:
            p.raw_data = data
    else:
        offset = 0
        location = external_prefix + "_variables/data_0"
        with open(weights_file, "wb") as out:
            for p, data in blobs:
                pad = (64 - len(data) % 64) % 64
                p.external_data.location = location.encode()
                p.external_data.offset = offset
                p.external_data.length = len(data)
                out.write(data + bytes(pad))
                offset += len(data) + pad

    net = "Default/network-LeNet5"
    conv = lambda c, s: b.primitive("Conv2D", [("kernel_size", (5, 5)), ("mode", 1), ("out_channel", c),
                                               ("pad_mode", "valid"), ("pad", (0, 0, 0, 0)), ("stride", (1, 1, 1, 1)),
                                               ("dilation", (1, 1, 1, 1)), ("group", 1), ("groups", 1),
                                               ("format", "NCHW"), ("input_names", ["x", "w"]),
                                               ("output_names", ["output"])], s)
    relu = lambda: b.primitive("ReLU", [("input_names", ["x"]), ("output_names", ["output"])])
    pool = lambda: b.primitive("MaxPool", [("kernel_size", (1, 1, 2, 2)), ("strides", (1, 1, 2, 2)),
                                           ("pad_mode", 2), ("format", "NCHW"), ("input_names", ["x"]),
                                           ("output_names", ["output"])])

    c1 = add_node(b, main, conv(6, "conv1.conv2d"), [g + ":x", g + ":conv1.weight"], "CNode_4",
                  net + "/conv1-Conv2d/Conv2D-op0", [1, 6, 28, 28])
    r1 = add_node(b, main, relu(), [c1], "CNode_5", net + "/relu-ReLU/ReLU-op1", [1, 6, 28, 28])
    p1 = add_node(b, main, pool(), [r1], "CNode_6", net + "/max_pool2d-MaxPool2d/MaxPool-op2", [1, 6, 14, 14])
    c2 = add_node(b, main, conv(16, "conv2.conv2d"), [p1, g + ":conv2.weight"], "CNode_7",
                  net + "/conv2-Conv2d/Conv2D-op3", [1, 16, 10, 10])
    r2 = add_node(b, main, relu(), [c2], "CNode_8", net + "/relu-ReLU/ReLU-op4", [1, 16, 10, 10])
    p2 = add_node(b, main, pool(), [r2], "CNode_9", net + "/max_pool2d-MaxPool2d/MaxPool-op5", [1, 16, 5, 5])

    # Reshape's target shape is a value node, exported as a Constant.
    const = main.node.add()
    const_name = "%s:ValueNode_%d" % (g, b.next_id())
    const.name = const_name.encode()
    const.output.append(const_name.encode())
    const.op_type = b"Constant"
    v = const.attribute.add()
    v.name = b"value"
    set_value(v, (1, 400))
    flat = add_node(b, main, b.primitive("Reshape", [("input_names", ["tensor", "shape"]),
                                                     ("output_names", ["output"])]),
                    [p2, const_name], "CNode_10", net + "/flatten-Flatten/Reshape-op6", [1, 400])

    # The dense layers are a reused cell: a graph of their own, called twice with different weights.
    add_input(fn, f + ":x", [1, -1])
    add_input(fn, f + ":weight", [-1, -1])
    add_input(fn, f + ":bias", [-1])
    mm = add_node(b, fn, b.primitive("MatMul", [("transpose_a", False), ("transpose_b", True),
                                                ("input_names", ["x1", "x2"]), ("output_names", ["output"])]),
                  [f + ":x", f + ":weight"], "CNode_11", "Default/network-LeNet5/fc-Dense/MatMul-op7", [1, -1])
    ba = add_node(b, fn, b.primitive("BiasAdd", [("format", "NCHW"), ("data_format", "NCHW"),
                                                 ("input_names", ["x", "b"]), ("output_names", ["output"])]),
                  [mm, f + ":bias"], "CNode_12", "Default/network-LeNet5/fc-Dense/BiasAdd-op8", [1, -1])
    out = fn.output.add()
    out.name = ba.encode()
    t = out.tensor.add()
    t.data_type = F32
    t.dims.extend([1, -1])
    fn_attr = fn.attribute.add()
    fn_attr.name = b"cell_reuse"
    set_value(fn_attr, True)

    d1 = add_node(b, main, "REF::" + f, [flat, g + ":fc1.weight", g + ":fc1.bias"], "CNode_13",
                  net + "/fc1-Dense/construct-op9", [1, 32])
    r3 = add_node(b, main, relu(), [d1], "CNode_14", net + "/relu-ReLU/ReLU-op10", [1, 32])
    d2 = add_node(b, main, "REF::" + f, [r3, g + ":fc2.weight", g + ":fc2.bias"], "CNode_15",
                  net + "/fc2-Dense/construct-op11", [1, 10])
    out = main.output.add()
    out.name = d2.encode()
    t = out.tensor.add()
    t.data_type = F32
    t.dims.extend([1, 10])
    return model


def main():
    with open(os.path.join(HERE, "lenet.mindir"), "wb") as out:
        out.write(lenet().SerializeToString())
    os.makedirs(os.path.join(HERE, "lenet_split_variables"), exist_ok=True)
    model = lenet("lenet_split", os.path.join(HERE, "lenet_split_variables", "data_0"))
    with open(os.path.join(HERE, "lenet_split_graph.mindir"), "wb") as out:
        out.write(model.SerializeToString())


if __name__ == "__main__":
    main()
