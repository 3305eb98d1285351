"""Oracle for Paddle combined parameter files: walks a `.pdiparams` by hand and prints, per saved parameter,
where its elements are and what they sum to, as JSON.

The order of the records is the program's: the persistable variables of block 0 other than the feed and
fetch lists (VarType 9 and 10) and raw variables (17), sorted by name. Each record (Paddle
phi/core/framework/dense_tensor_serialize.cc): uint32 version, uint64 LoD levels, per level uint64 bytes and
the bytes, uint32 version, int32 TensorDesc size, TensorDesc (data_type 1, dims 2), the elements.
Usage: paddle_params_oracle.py MODEL.pdmodel PARAMS.pdiparams
"""
import json
import struct
import sys

import numpy as np

from paddle_oracle import decode_var, fields, signed, varint

SIZES = {0: '?', 1: '<i2', 2: '<i4', 3: '<i8', 4: '<f2', 5: '<f4', 6: '<f8', 20: 'u1', 21: 'i1'}
NAMES = {0: 'bool', 1: 'int16', 2: 'int32', 3: 'int64', 4: 'float16', 5: 'float32', 6: 'float64', 20: 'uint8',
         21: 'int8'}


def main(model, params):
    program = open(model, 'rb').read()
    names = []
    for n, _, block in fields(program):
        if n != 1:
            continue
        for bn, _, bv in fields(block):
            if bn == 3:
                var = decode_var(bv)
                if var['persistable'] and var['type'] not in (9, 10, 17):
                    names.append(var['name'])
        break  # block 0 only
    names = sorted(set(names))
    data = open(params, 'rb').read()
    pos = 0
    out = []
    for name in names:
        version, levels = struct.unpack_from('<IQ', data, pos)
        pos += 12
        assert version == 0
        for _ in range(levels):
            (size,) = struct.unpack_from('<Q', data, pos)
            pos += 8 + size
        version, desc_size = struct.unpack_from('<Ii', data, pos)
        pos += 8
        assert version == 0
        dtype, dims = -1, []
        for fn, fw, fv in fields(data[pos:pos + desc_size]):
            if fn == 1:
                dtype = fv
            elif fn == 2 and fw == 0:
                dims.append(signed(fv))
            elif fn == 2 and fw == 2:  # packed
                i = 0
                while i < len(fv):
                    v, i = varint(fv, i)
                    dims.append(signed(v))
        pos += desc_size
        count = int(np.prod(dims)) if dims else 1
        values = np.frombuffer(data, dtype=SIZES[dtype], count=count, offset=pos)
        out.append({'name': name, 'dtype': NAMES[dtype], 'dims': dims, 'offset': pos,
                    'length': values.nbytes, 'sum': float(values.astype(np.float64).sum())})
        pos += values.nbytes
    print(json.dumps({'params': out, 'trailing': len(data) - pos}))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
