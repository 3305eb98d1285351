"""Oracle for the Paddle program importer: decodes a ProgramDesc by hand from the protobuf wire format (no
generated code, no .proto) and prints what the graph must hold as JSON.

Field numbers (upstream framework.proto): ProgramDesc.blocks 1; BlockDesc idx 1, parent_idx 2, vars 3, ops 4;
VarDesc name 1, type 2, persistable 3; VarType type 1; OpDesc inputs 1, outputs 2, type 3, attrs 4;
OpDesc.Var parameter 1, arguments 2; OpDesc.Attr name 1, type 2, block_idx 12, blocks_idx 14.

Semantics: ops run in order; an input resolves to the last op of the block (or an enclosing one) that wrote
it before; a persistable variable (other than the feed/fetch lists) nobody wrote yet becomes a parameter, a
declared non-persistable one an input; a sub-block runs where its op is, before the op's outputs are written.
"""
import collections
import json
import sys


def varint(b, i):
    shift = value = 0
    while True:
        c = b[i]
        i += 1
        value |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            return value, i


def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(b, i)
        elif wire == 2:
            n, i = varint(b, i)
            value = b[i:i + n]
            i += n
        elif wire == 5:
            value = b[i:i + 4]
            i += 4
        elif wire == 1:
            value = b[i:i + 8]
            i += 8
        else:
            raise ValueError('wire type %d' % wire)
        yield number, wire, value


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def decode_var(b):
    var = {'name': '', 'persistable': False, 'type': -1}
    for n, w, v in fields(b):
        if n == 1:
            var['name'] = v.decode()
        elif n == 3:
            var['persistable'] = bool(v)
        elif n == 2:
            for tn, tw, tv in fields(v):
                if tn == 1:
                    var['type'] = tv
    return var


def decode_slots(b):
    name, args = '', []
    for n, w, v in fields(b):
        if n == 1:
            name = v.decode()
        elif n == 2:
            args.append(v.decode())
    return name, args


def decode_op(b):
    op = {'type': '', 'inputs': [], 'outputs': [], 'attrs': {}, 'blocks': []}
    for n, w, v in fields(b):
        if n == 3:
            op['type'] = v.decode()
        elif n == 1:
            op['inputs'].append(decode_slots(v))
        elif n == 2:
            op['outputs'].append(decode_slots(v))
        elif n == 4:
            name, kind = '', -1
            for an, aw, av in fields(v):
                if an == 1:
                    name = av.decode()
                elif an == 2:
                    kind = av
                elif an == 12 and kind == 8:
                    op['blocks'].append(signed(av))
                elif an == 14 and kind == 10:
                    if aw == 2:
                        j = 0
                        while j < len(av):
                            x, j = varint(av, j)
                            op['blocks'].append(signed(x))
                    else:
                        op['blocks'].append(signed(av))
            op['attrs'][name] = kind
    return op


def main(path):
    data = open(path, 'rb').read()
    blocks = []
    for n, w, v in fields(data):
        if n == 1:
            block = {'vars': {}, 'ops': []}
            for bn, bw, bv in fields(v):
                if bn == 3:
                    var = decode_var(bv)
                    block['vars'][var['name']] = var
                elif bn == 4:
                    block['ops'].append(decode_op(bv))
            blocks.append(block)

    out = collections.Counter()
    types = collections.Counter()
    attached = set()

    def run(index, chain):
        attached.add(index)
        block = blocks[index]
        env = {'vars': block['vars'], 'producers': {}}
        chain = chain + [env]

        def find(key, name):
            for e in reversed(chain):
                if name in e[key]:
                    return e[key][name]
            return None

        for op in block['ops']:
            out['ops'] += 1
            types[op['type']] += 1
            for _, args in op['inputs']:
                for a in args:
                    var = find('vars', a)
                    if not a or (var and var['type'] in (9, 10)):
                        continue
                    producer = find('producers', a)
                    if producer is None and var is not None:
                        out['parameters' if var['persistable'] else 'inputs'] += 1
                        env['producers'][a] = 'implicit'
                        producer = 'implicit'
                    if producer is None:
                        out['unresolved'] += 1
                    else:
                        out['all_edges'] += 1
                        out['op_edges'] += producer == 'op'
            for b in op['blocks']:
                if 0 < b < len(blocks) and b not in attached:
                    out['bodies'] += 1
                    run(b, chain)
            for _, args in op['outputs']:
                for a in args:
                    env['producers'][a] = 'op'
        return env

    top = run(0, [])
    for b in range(1, len(blocks)):
        if b not in attached:
            run(b, [top])
    result = dict(out)
    result['blocks'] = len(blocks)
    result['op_types'] = dict(types)
    print(json.dumps(result, sort_keys=True))


if __name__ == '__main__':
    main(sys.argv[1])
