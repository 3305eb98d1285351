#!/usr/bin/python3
"""Writes the generated Paddle fixtures of this folder (see README).

No Paddle or VisualDL is installed here, so the files are written from the documented formats: the
ProgramDesc protobuf (our importers/graph/proto/paddle_framework.proto, compiled on the fly with protoc) and
the JSON VisualDL's LogWriter.add_graph writes (visualdl/component/graph/graph_component.py analyse_model:
{"version", "nodes", "vars", "edges"}). Run from this folder: /usr/bin/python3 make_fixtures.py
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.path.join(HERE, '..', '..', '..', 'importers', 'graph', 'proto')

with tempfile.TemporaryDirectory() as out:
    subprocess.check_call(['protoc', '--python_out=' + out, '-I', PROTO_DIR,
                           os.path.join(PROTO_DIR, 'paddle_framework.proto')])
    sys.path.insert(0, out)
    import paddle_framework_pb2 as pb

# VarType.Type and AttrType values (framework.proto).
FP32, INT64, BOOL, LOD_TENSOR, FEED, FETCH = 5, 3, 0, 7, 9, 10
A_INT, A_FLOAT, A_STRING, A_INTS, A_STRINGS, A_BOOLEAN, A_BLOCK = 0, 1, 2, 3, 5, 6, 8


def add_var(block, name, dims=None, dtype=FP32, persistable=False, kind=LOD_TENSOR):
    v = block.vars.add()
    v.name = name.encode()
    v.type.type = kind
    if kind == LOD_TENSOR:
        v.type.lod_tensor.tensor.data_type = dtype
        v.type.lod_tensor.tensor.dims.extend(dims or [])
    v.persistable = persistable
    return v


def add_op(block, op_type, inputs, outputs, attrs=(), scope='/', line=0):
    op = block.ops.add()
    op.type = op_type.encode()
    for slot, args in sorted(inputs.items()):
        var = op.inputs.add()
        var.parameter = slot.encode()
        var.arguments.extend(a.encode() for a in args)
    for slot, args in sorted(outputs.items()):
        var = op.outputs.add()
        var.parameter = slot.encode()
        var.arguments.extend(a.encode() for a in args)
    for name, kind, value in list(attrs) + [('op_namescope', A_STRING, scope)]:
        a = op.attrs.add()
        a.name = name
        a.type = kind
        if kind == A_INT:
            a.i = value
        elif kind == A_FLOAT:
            a.f = value
        elif kind == A_STRING:
            a.s = value.encode()
        elif kind == A_INTS:
            a.ints.extend(value)
        elif kind == A_STRINGS:
            a.strings.extend(s.encode() for s in value)
        elif kind == A_BOOLEAN:
            a.b = value
        elif kind == A_BLOCK:
            a.block_idx = value
    if line:
        a = op.attrs.add()
        a.name = 'op_callstack'
        a.type = A_STRINGS
        # Innermost frame first, as Paddle stores it.
        a.strings.extend([('  File "cnn.py", line %d, in forward\n    x = self.layer(x)\n' % line).encode(),
                          b'  File "train.py", line 40, in <module>\n    paddle.jit.save(net, "cnn")\n'])
    return op


def small_cnn():
    """A static program as paddle.jit.save writes one for a small CNN, with a while loop (block 1) and a
    conditional_block (block 2) as to_static makes of Python control flow."""
    prog = pb.ProgramDesc()
    prog.version.version = 2005000
    b0 = prog.blocks.add()
    b0.idx, b0.parent_idx = 0, -1
    add_var(b0, 'feed', kind=FEED, persistable=True)
    add_var(b0, 'fetch', kind=FETCH, persistable=True)
    add_var(b0, 'image', [-1, 3, 32, 32])
    for name, dims in [('conv2d_0.w_0', [16, 3, 3, 3]), ('conv2d_0.b_0', [16]),
                       ('batch_norm_0.w_0', [16]), ('batch_norm_0.b_0', [16]),
                       ('batch_norm_0.w_1', [16]), ('batch_norm_0.w_2', [16]),
                       ('linear_0.w_0', [4096, 10]), ('linear_0.b_0', [10])]:
        add_var(b0, name, dims, persistable=True)
    for name, dims in [('conv2d_0.tmp_0', [-1, 16, 32, 32]), ('conv2d_0.tmp_1', [-1, 16, 32, 32]),
                       ('batch_norm_0.tmp_0', [16]), ('batch_norm_0.tmp_1', [16]),
                       ('batch_norm_0.tmp_2', [-1, 16, 32, 32]), ('relu_0.tmp_0', [-1, 16, 32, 32]),
                       ('pool2d_0.tmp_0', [-1, 16, 16, 16]), ('flatten_0.tmp_0', [-1, 4096]),
                       ('linear_0.tmp_0', [-1, 10]), ('linear_0.tmp_1', [-1, 10]),
                       ('tmp_0', [-1, 10]), ('softmax_0.tmp_0', [-1, 10])]:
        add_var(b0, name, dims)
    add_var(b0, 'i', [1], INT64)
    add_var(b0, 'n', [1], INT64)
    add_var(b0, 'cond_0.tmp_0', [1], BOOL)
    add_var(b0, 'cond_1.tmp_0', [1], BOOL)
    add_var(b0, '_generated_var_0', [], kind=11)  # STEP_SCOPES

    add_op(b0, 'feed', {'X': ['feed']}, {'Out': ['image']}, [('col', A_INT, 0)])
    add_op(b0, 'conv2d', {'Input': ['image'], 'Filter': ['conv2d_0.w_0']}, {'Output': ['conv2d_0.tmp_0']},
           [('strides', A_INTS, [1, 1]), ('paddings', A_INTS, [1, 1]), ('dilations', A_INTS, [1, 1]),
            ('groups', A_INT, 1), ('data_format', A_STRING, 'NCHW'), ('padding_algorithm', A_STRING, 'EXPLICIT')],
           line=12)
    add_op(b0, 'elementwise_add', {'X': ['conv2d_0.tmp_0'], 'Y': ['conv2d_0.b_0']}, {'Out': ['conv2d_0.tmp_1']},
           [('axis', A_INT, 1)], line=12)
    add_op(b0, 'batch_norm',
           {'X': ['conv2d_0.tmp_1'], 'Scale': ['batch_norm_0.w_0'], 'Bias': ['batch_norm_0.b_0'],
            'Mean': ['batch_norm_0.w_1'], 'Variance': ['batch_norm_0.w_2']},
           {'Y': ['batch_norm_0.tmp_2'], 'MeanOut': ['batch_norm_0.w_1'], 'VarianceOut': ['batch_norm_0.w_2'],
            'SavedMean': ['batch_norm_0.tmp_0'], 'SavedVariance': ['batch_norm_0.tmp_1']},
           [('epsilon', A_FLOAT, 1e-5), ('momentum', A_FLOAT, 0.9), ('is_test', A_BOOLEAN, True),
            ('data_layout', A_STRING, 'NCHW')], line=13)
    add_op(b0, 'relu', {'X': ['batch_norm_0.tmp_2']}, {'Out': ['relu_0.tmp_0']}, line=14)
    add_op(b0, 'pool2d', {'X': ['relu_0.tmp_0']}, {'Out': ['pool2d_0.tmp_0']},
           [('pooling_type', A_STRING, 'max'), ('ksize', A_INTS, [2, 2]), ('strides', A_INTS, [2, 2])], line=15)
    add_op(b0, 'flatten_contiguous_range', {'X': ['pool2d_0.tmp_0']}, {'Out': ['flatten_0.tmp_0']},
           [('start_axis', A_INT, 1), ('stop_axis', A_INT, -1)], line=16)
    add_op(b0, 'matmul_v2', {'X': ['flatten_0.tmp_0'], 'Y': ['linear_0.w_0']}, {'Out': ['linear_0.tmp_0']},
           [('trans_x', A_BOOLEAN, False), ('trans_y', A_BOOLEAN, False)], line=17)
    add_op(b0, 'elementwise_add', {'X': ['linear_0.tmp_0'], 'Y': ['linear_0.b_0']}, {'Out': ['linear_0.tmp_1']},
           [('axis', A_INT, -1)], line=17)
    # for _ in range(n): x = x * 0.5  -> while over block 1
    add_op(b0, 'fill_constant', {}, {'Out': ['i']}, [('value', A_FLOAT, 0.0), ('dtype', A_INT, INT64),
                                                       ('shape', A_INTS, [1])])
    add_op(b0, 'fill_constant', {}, {'Out': ['n']}, [('value', A_FLOAT, 3.0), ('dtype', A_INT, INT64),
                                                       ('shape', A_INTS, [1])])
    add_op(b0, 'less_than', {'X': ['i'], 'Y': ['n']}, {'Out': ['cond_0.tmp_0']}, [('axis', A_INT, -1)])
    add_op(b0, 'assign', {'X': ['linear_0.tmp_1']}, {'Out': ['tmp_0']})
    add_op(b0, 'while', {'X': ['tmp_0', 'i', 'n'], 'Condition': ['cond_0.tmp_0']},
           {'Out': ['tmp_0', 'i', 'cond_0.tmp_0'], 'StepScopes': ['_generated_var_0']},
           [('sub_block', A_BLOCK, 1), ('is_test', A_BOOLEAN, True)], line=19)
    # if training: x = dropout(x) -> conditional_block over block 2
    add_op(b0, 'fill_constant', {}, {'Out': ['cond_1.tmp_0']}, [('value', A_FLOAT, 0.0), ('dtype', A_INT, BOOL),
                                                                 ('shape', A_INTS, [1])])
    add_op(b0, 'conditional_block', {'Cond': ['cond_1.tmp_0'], 'Input': ['tmp_0']},
           {'Out': ['tmp_0'], 'Scope': ['_generated_var_0']},
           [('sub_block', A_BLOCK, 2), ('is_scalar_condition', A_BOOLEAN, True)], line=22)
    add_op(b0, 'softmax', {'X': ['tmp_0']}, {'Out': ['softmax_0.tmp_0']}, [('axis', A_INT, -1)], line=24)
    add_op(b0, 'fetch', {'X': ['softmax_0.tmp_0']}, {'Out': ['fetch']}, [('col', A_INT, 0)])

    b1 = prog.blocks.add()
    b1.idx, b1.parent_idx = 1, 0
    add_var(b1, 'tmp_1', [-1, 10])
    add_op(b1, 'scale', {'X': ['tmp_0']}, {'Out': ['tmp_1']}, [('scale', A_FLOAT, 0.5), ('bias', A_FLOAT, 0.0)],
           line=20)
    add_op(b1, 'assign', {'X': ['tmp_1']}, {'Out': ['tmp_0']})
    add_op(b1, 'increment', {'X': ['i']}, {'Out': ['i']}, [('step', A_FLOAT, 1.0)])
    add_op(b1, 'less_than', {'X': ['i'], 'Y': ['n']}, {'Out': ['cond_0.tmp_0']}, [('axis', A_INT, -1)])

    b2 = prog.blocks.add()
    b2.idx, b2.parent_idx = 2, 0
    add_var(b2, 'dropout_0.tmp_0', [-1, 10])
    add_var(b2, 'dropout_0.tmp_1', [-1, 10], dtype=20)
    add_op(b2, 'dropout', {'X': ['tmp_0']}, {'Out': ['dropout_0.tmp_0'], 'Mask': ['dropout_0.tmp_1']},
           [('dropout_prob', A_FLOAT, 0.1), ('is_test', A_BOOLEAN, False)], line=23)
    add_op(b2, 'assign', {'X': ['dropout_0.tmp_0']}, {'Out': ['tmp_0']})
    return prog


# The VisualDL add_graph demo (demo/components/graph_test.py, MyNet) as its writer lays it out: ops named
# <op_namescope><type>_<n> with the scopes of the layers that ran them, the layers as non-leaf nodes.
def vdl_graph():
    ops = [
        # name, type, inputs, outputs, attrs
        ('/MyNet[model]/feed_0', 'feed', {'X': ['feed']}, {'Out': ['inputs']}, {'col': 0}),
        ('/MyNet[model]/Conv2D[conv1]/conv2d_0', 'conv2d', {'Input': ['inputs'], 'Filter': ['conv2d_0.w_0']},
         {'Output': ['conv2d_0.tmp_0']}, {'strides': [1, 1], 'paddings': [2, 2], 'groups': 1}),
        ('/MyNet[model]/Conv2D[conv1]/elementwise_add_0', 'elementwise_add',
         {'X': ['conv2d_0.tmp_0'], 'Y': ['conv2d_0.b_0']}, {'Out': ['conv2d_0.tmp_1']}, {'axis': 1}),
        ('/MyNet[model]/relu_0', 'relu', {'X': ['conv2d_0.tmp_1']}, {'Out': ['relu_0.tmp_0']}, {}),
        ('/MyNet[model]/MaxPool2D[max_pool1]/pool2d_0', 'pool2d', {'X': ['relu_0.tmp_0']},
         {'Out': ['pool2d_0.tmp_0']}, {'pooling_type': 'max', 'ksize': [2, 2]}),
        ('/MyNet[model]/Conv2D[conv2]/conv2d_1', 'conv2d', {'Input': ['pool2d_0.tmp_0'], 'Filter': ['conv2d_1.w_0']},
         {'Output': ['conv2d_1.tmp_0']}, {'strides': [1, 1], 'paddings': [2, 2], 'groups': 1}),
        ('/MyNet[model]/Conv2D[conv2]/elementwise_add_1', 'elementwise_add',
         {'X': ['conv2d_1.tmp_0'], 'Y': ['conv2d_1.b_0']}, {'Out': ['conv2d_1.tmp_1']}, {'axis': 1}),
        ('/MyNet[model]/relu_1', 'relu', {'X': ['conv2d_1.tmp_1']}, {'Out': ['relu_1.tmp_0']}, {}),
        ('/MyNet[model]/MaxPool2D[max_pool2]/pool2d_1', 'pool2d', {'X': ['relu_1.tmp_0']},
         {'Out': ['pool2d_1.tmp_0']}, {'pooling_type': 'max', 'ksize': [2, 2]}),
        ('/MyNet[model]/reshape2_0', 'reshape2', {'X': ['pool2d_1.tmp_0']},
         {'Out': ['reshape2_0.tmp_0'], 'XShape': ['reshape2_0.tmp_1']}, {'shape': [-1, 980]}),
        ('/MyNet[model]/Linear[fc]/matmul_v2_0', 'matmul_v2', {'X': ['reshape2_0.tmp_0'], 'Y': ['linear_0.w_0']},
         {'Out': ['linear_0.tmp_0']}, {'trans_x': False, 'trans_y': False}),
        ('/MyNet[model]/Linear[fc]/elementwise_add_2', 'elementwise_add',
         {'X': ['linear_0.tmp_0'], 'Y': ['linear_0.b_0']}, {'Out': ['linear_0.tmp_1']}, {'axis': -1}),
        ('/MyNet[model]/fetch_0', 'fetch', {'X': ['linear_0.tmp_1']}, {'Out': ['fetch']}, {'col': 0}),
    ]
    shapes = {'inputs': [-1, 1, 28, 28], 'conv2d_0.w_0': [20, 1, 5, 5], 'conv2d_0.b_0': [20],
              'conv2d_0.tmp_0': [-1, 20, 28, 28], 'conv2d_0.tmp_1': [-1, 20, 28, 28], 'relu_0.tmp_0': [-1, 20, 28, 28],
              'pool2d_0.tmp_0': [-1, 20, 14, 14], 'conv2d_1.w_0': [20, 20, 5, 5], 'conv2d_1.b_0': [20],
              'conv2d_1.tmp_0': [-1, 20, 14, 14], 'conv2d_1.tmp_1': [-1, 20, 14, 14],
              'relu_1.tmp_0': [-1, 20, 14, 14], 'pool2d_1.tmp_0': [-1, 20, 7, 7], 'reshape2_0.tmp_0': [-1, 980],
              'reshape2_0.tmp_1': [0, -1, 20, 7, 7], 'linear_0.w_0': [980, 10], 'linear_0.b_0': [10],
              'linear_0.tmp_0': [-1, 10], 'linear_0.tmp_1': [-1, 10]}
    all_vars = {}
    for name, shape in shapes.items():
        all_vars[name] = {'name': name, 'shape': shape, 'type': 'VarType.LOD_TENSOR', 'dtype': 'VarType.FP32',
                          'value': [], 'persistable': '.w_' in name or '.b_' in name, 'attrs': {},
                          'from_node': '', 'to_nodes': []}
    for name, kind in [('feed', 'VarType.FEED_MINIBATCH'), ('fetch', 'VarType.FETCH_LIST')]:
        all_vars[name] = {'name': name, 'shape': '', 'type': kind, 'dtype': '', 'value': [], 'persistable': True,
                          'attrs': {}, 'from_node': '', 'to_nodes': []}
    nodes = {}
    for name, op_type, inputs, outputs, attrs in ops:
        nodes[name] = {'name': name, 'show_name': name.replace('[model]', ''), 'type': op_type,
                       'input_vars': inputs, 'output_vars': outputs, 'is_leaf_node': True, 'attrs': attrs,
                       'attr_types': {}, 'children_node': [], 'input_nodes': [], 'output_nodes': [],
                       'edge_input_nodes': [], 'edge_output_nodes': []}
        for vs in inputs.values():
            for v in vs:
                all_vars[v]['to_nodes'].append(name)
        for vs in outputs.values():
            for v in vs:
                all_vars[v]['from_node'] = name
    for name in list(nodes):
        child = name
        parent = os.path.dirname(name)
        while True:
            parent = parent or '/'
            if parent not in nodes:
                show = os.path.dirname(nodes[child]['show_name'])
                nodes[parent] = {'name': parent, 'show_name': show, 'type': os.path.basename(show),
                                 'input_vars': {'X': []}, 'output_vars': {'Y': []}, 'is_leaf_node': False,
                                 'attrs': {}, 'children_node': [], 'input_nodes': [], 'output_nodes': [],
                                 'edge_input_nodes': [], 'edge_output_nodes': [], 'parent_node': ''}
            nodes[child]['parent_node'] = parent
            if child not in nodes[parent]['children_node']:
                nodes[parent]['children_node'].append(child)
            if parent == '/':
                break
            child, parent = parent, os.path.dirname(parent)
    edges = []
    for var in all_vars.values():
        for to in var['to_nodes']:
            if var['from_node'] and var['from_node'] != to:
                edges.append({'from_node': var['from_node'], 'to_node': to, 'vars': [var['name']],
                              'label': str(var['shape'])})
    return {'version': '1.0.0', 'nodes': list(nodes.values()), 'vars': list(all_vars.values()), 'edges': edges}


def saved_tensor(values, data_type):
    """One record of a combined parameter file as save_combine writes it (Paddle
    phi/core/framework/dense_tensor_serialize.cc SerializeToStream and TensorToStream): uint32 version 0,
    uint64 LoD level count (0: parameters have no LoD), uint32 version 0, int32 size of the VarType.TensorDesc,
    the TensorDesc, then the elements, little-endian."""
    desc = pb.VarType.TensorDesc()
    desc.data_type = data_type
    desc.dims.extend(values.shape)
    desc_bytes = desc.SerializeToString()
    return (struct.pack('<IQI', 0, 0, 0) + struct.pack('<i', len(desc_bytes)) + desc_bytes
            + values.astype(values.dtype.newbyteorder('<')).tobytes())


def saved_params(program):
    """<model>.pdiparams: the persistable variables of block 0 (not the feed/fetch lists) in name order,
    as paddle.jit.save passes them to save_combine; values drawn from a seeded generator."""
    import numpy as np
    rng = np.random.default_rng(20261127)
    out = b''
    names = sorted(v.name for v in program.blocks[0].vars
                   if v.persistable and v.type.type not in (FEED, FETCH))
    dims = {v.name: list(v.type.lod_tensor.tensor.dims) for v in program.blocks[0].vars}
    for name in names:
        out += saved_tensor(rng.standard_normal(dims[name]).astype('<f4'), FP32)
    return out


def tiny_linear():
    """y = x @ w + b with w [3, 2] and b [2]: a program small enough for its parameter file (82 bytes) to
    seed the corrupt-input test."""
    prog = pb.ProgramDesc()
    prog.version.version = 2005000
    b0 = prog.blocks.add()
    b0.idx, b0.parent_idx = 0, -1
    add_var(b0, 'feed', kind=FEED, persistable=True)
    add_var(b0, 'fetch', kind=FETCH, persistable=True)
    add_var(b0, 'x', [-1, 3])
    add_var(b0, 'linear_0.w_0', [3, 2], persistable=True)
    add_var(b0, 'linear_0.b_0', [2], persistable=True)
    add_var(b0, 'linear_0.tmp_0', [-1, 2])
    add_var(b0, 'linear_0.tmp_1', [-1, 2])
    add_op(b0, 'feed', {'X': ['feed']}, {'Out': ['x']}, [('col', A_INT, 0)])
    add_op(b0, 'matmul_v2', {'X': ['x'], 'Y': ['linear_0.w_0']}, {'Out': ['linear_0.tmp_0']},
           [('trans_x', A_BOOLEAN, False), ('trans_y', A_BOOLEAN, False)])
    add_op(b0, 'elementwise_add', {'X': ['linear_0.tmp_0'], 'Y': ['linear_0.b_0']}, {'Out': ['linear_0.tmp_1']},
           [('axis', A_INT, -1)])
    add_op(b0, 'fetch', {'X': ['linear_0.tmp_1']}, {'Out': ['fetch']}, [('col', A_INT, 0)])
    return prog


def pir_program():
    """inference.json as Paddle 3 writes a PIR program (paddle/fluid/pir/serialize_deserialize: schema.h keys,
    ir_serialize.cc layout, dialects compressed to digits, parameter ops compressed to "p" with their attributes
    by position) for a small CNN with an if (two regions) and a while (a block argument), and the parameters it
    reads. Returns (program dict, {parameter name: shape})."""
    next_id = [1]
    params = {}

    def tensor(dims, dtype='0.t_f32'):
        return {'#': '0.t_dtensor', 'D': [{'#': dtype}, dims, 'NCHW', [], 0]}

    def value(dims, dtype='0.t_f32'):
        v = {'%': next_id[0], 'TT': tensor(dims, dtype)}
        next_id[0] += 1
        return v

    def attr(name, kind, data):
        return {'AT': {'#': kind, 'D': data}, 'N': name}

    stop = [attr('stop_gradient', '0.a_array', [{'#': '0.a_bool', 'D': False}])]

    def op(name, inputs, outs, attrs=(), regions=None):
        o = {'#': name, 'A': list(attrs), 'I': [{'%': i['%']} for i in inputs], 'O': outs, 'OA': stop}
        if regions is not None:
            o['regions'] = regions
        return o

    def parameter(name, dims):
        params[name] = dims
        out = value(dims)
        return {'#': 'p', 'A': [0, 1, 1, name], 'O': out, 'OA': [1, 0, 1]}, out

    ops = []
    w_conv_op, w_conv = parameter('conv2d_0.w_0', [4, 3, 3, 3])
    b_conv_op, b_conv = parameter('conv2d_0.b_0', [4])
    w_fc_op, w_fc = parameter('linear_0.w_0', [256, 10])
    b_fc_op, b_fc = parameter('linear_0.b_0', [10])
    ops += [w_conv_op, b_conv_op, w_fc_op, b_fc_op]
    x = value([-1, 3, 8, 8])
    ops.append(op('1.data', [], [x], [attr('name', '0.a_str', 'image'), attr('shape', '1.a_intarray', [-1, 3, 8, 8]),
                                     attr('dtype', '1.a_dtype', 'float32'), attr('place', '1.a_place', [0, 0, ''])]))
    c = value([-1, 4, 8, 8])
    ops.append(op('1.conv2d', [x, w_conv], [c], [attr('strides', '0.a_array', [{'#': '0.a_i32', 'D': 1}] * 2),
                                                  attr('data_format', '0.a_str', 'NCHW')]))
    cb = value([-1, 4, 8, 8])
    ops.append(op('1.add', [c, b_conv], [cb]))
    r = value([-1, 4, 8, 8])
    ops.append(op('1.relu', [cb], [r]))
    f = value([-1, 256])
    ops.append(op('1.flatten', [r], [f], [attr('start_axis', '0.a_i32', 1), attr('stop_axis', '0.a_i32', -1)]))
    m = value([-1, 10])
    ops.append(op('1.matmul', [f, w_fc], [m], [attr('transpose_x', '0.a_bool', False),
                                                attr('transpose_y', '0.a_bool', False)]))
    y = value([-1, 10])
    ops.append(op('1.add', [m, b_fc], [y]))
    cond = value([1], '0.t_bool')
    ops.append(op('1.full', [], [cond], [attr('shape', '1.a_intarray', [1]), attr('value', '0.a_f64', 1.0),
                                         attr('dtype', '1.a_dtype', 'bool')]))
    # if cond: y * 2 else: y - y
    t_out = value([-1, 10])
    e_out = value([-1, 10])
    if_out = value([-1, 10])
    then_block = {'#': 'block_1', 'args': [], 'ops': [
        op('1.scale', [y], [t_out], [attr('bias', '0.a_f32', 0.0)]),
        op('2.yield', [t_out], [])]}
    else_block = {'#': 'block_2', 'args': [], 'ops': [
        op('1.subtract', [y, y], [e_out]),
        op('2.yield', [e_out], [])]}
    ops.append(op('1.if', [cond], [if_out], regions=[{'#': 'region_1', 'blocks': [then_block]},
                                                     {'#': 'region_2', 'blocks': [else_block]}]))
    # while i < 3: i = i + 1 (i is the block argument -1)
    i0 = value([1], '0.t_i64')
    ops.append(op('1.full', [], [i0], [attr('shape', '1.a_intarray', [1]), attr('value', '0.a_f64', 0.0),
                                       attr('dtype', '1.a_dtype', 'int64')]))
    lt = value([1], '0.t_bool')
    ops.append(op('1.less_than', [i0, i0], [lt]))
    i1 = value([1], '0.t_i64')
    lt2 = value([1], '0.t_bool')
    loop_out = value([1], '0.t_i64')
    body = {'#': 'block_3', 'args': [{'#': -1, 'TT': tensor([1], '0.t_i64')}], 'ops': [
        op('1.increment', [{'%': -1}], [i1], [attr('value', '0.a_f32', 1.0)]),
        op('1.less_than', [i1, i0], [lt2]),
        op('2.yield', [lt2, i1], [])]}
    ops.append(op('1.while', [lt, i0], [loop_out], regions=[{'#': 'region_3', 'blocks': [body]}]))
    s = value([-1, 10])
    ops.append(op('1.softmax', [if_out], [s], [attr('axis', '0.a_i32', -1)]))
    out = value([-1, 10])
    ops.append(op('1.fetch', [s], [out], [attr('name', '0.a_str', 'fetch_name_0'), attr('col', '0.a_i32', 0)]))
    program = {'base_code': {'magic': 'pir', 'trainable': True, 'version': 1},
               'program': {'regions': [{'#': 'region_0', 'blocks': [{'#': 'block_0', 'args': [], 'ops': ops}]}]}}
    return program, params


def pir_params(params):
    """The .pdiparams of a PIR program: its parameters in name order, each a saved tensor as above."""
    import numpy as np
    rng = np.random.default_rng(20261128)
    return b''.join(saved_tensor(rng.standard_normal(params[name]).astype('<f4'), FP32) for name in sorted(params))


for folder, make in (('cnn', small_cnn), ('tiny', tiny_linear)):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    program = make()
    with open(os.path.join(HERE, folder, 'inference.pdmodel'), 'wb') as f:
        f.write(program.SerializeToString())
    with open(os.path.join(HERE, folder, 'inference.pdiparams'), 'wb') as f:
        f.write(saved_params(program))
os.makedirs(os.path.join(HERE, 'pir'), exist_ok=True)
pir, pir_parameters = pir_program()
with open(os.path.join(HERE, 'pir', 'inference.json'), 'w') as f:
    json.dump(pir, f, separators=(',', ':'))
with open(os.path.join(HERE, 'pir', 'inference.pdiparams'), 'wb') as f:
    f.write(pir_params(pir_parameters))
os.makedirs(os.path.join(HERE, 'vdlgraph'), exist_ok=True)
with open(os.path.join(HERE, 'vdlgraph', 'vdlgraph.1700000000.log'), 'w') as f:
    json.dump(vdl_graph(), f, indent=2)
