"""Oracle for the Paddle PIR program importer: walks a PIR JSON program (inference.json) with Python's json
module and prints what the graph must hold, as JSON.

Semantics: ops in file order, an op's regions right after it; `p` (or builtin.parameter) ops are parameters,
every other op a node; an operand is an edge when an earlier op produced its value (`%` or `#` id); block
arguments (negative ids) and 0 are no edges; dialect digits expand (1.matmul -> pd_op.matmul).
Usage: pir_oracle.py PROGRAM.json
"""
import collections
import json
import sys

DIALECTS = {'0': 'builtin', '1': 'pd_op', '2': 'cf', '3': 'custom_op', '4': 'dist_op'}


def name_of(op):
    raw = op.get('#', '')
    if raw == 'p':
        return 'builtin.parameter'
    head, dot, tail = raw.partition('.')
    return DIALECTS.get(head, head) + dot + tail if dot else raw


def value_id(v):
    if isinstance(v, int):
        return v
    return v.get('%', v.get('#', 0))


def main(path):
    program = json.load(open(path))
    out = collections.Counter()
    types = collections.Counter()
    produced = set()
    parameters = []

    def walk_block(block):
        for op in block.get('ops', []):
            name = name_of(op)
            if name == 'builtin.parameter':
                attrs = op.get('A', [])
                parameters.append(next((a for a in attrs if isinstance(a, str)), None)
                                  or next((a['AT']['D'] for a in attrs
                                           if isinstance(a, dict) and a.get('N') == 'parameter_name'), ''))
            else:
                out['ops'] += 1
                types[name] += 1
            for operand in op.get('I', []):
                i = value_id(operand)
                if i in produced:
                    out['edges'] += 1
                elif i > 0:
                    out['unresolved'] += 1
            results = op.get('O', [])
            for r in ([results] if isinstance(results, dict) else results):
                if value_id(r):
                    produced.add(value_id(r))
            for region in op.get('regions', []):
                out['bodies'] += 1
                for b in region.get('blocks', []):
                    walk_block(b)

    for region in program['program']['regions']:
        for block in region.get('blocks', []):
            walk_block(block)
    result = dict(out)
    result['parameters'] = sorted(parameters)
    result['op_types'] = dict(types)
    print(json.dumps(result, sort_keys=True))


if __name__ == '__main__':
    main(sys.argv[1])
