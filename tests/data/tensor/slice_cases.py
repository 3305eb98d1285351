"""Regenerates slice_cases.tsv: numpy's answer for each index expression on two arrays.

  python3 slice_cases.py > slice_cases.tsv

Array "a3" is np.arange(120, dtype='<f8').reshape(4, 5, 6); "a4" is np.arange(120, dtype='<i4').reshape(2, 3, 4, 5).
Each line: array, expression, then either "ok", shape, strides (bytes), byte offset, values in C order;
or "error" and numpy's exception type.
"""
import numpy as np

ARRAYS = {
    "a3": np.arange(120, dtype="<f8").reshape(4, 5, 6),
    "a4": np.arange(120, dtype="<i4").reshape(2, 3, 4, 5),
}

CASES = {
    "a3": [
        "[0, :, 2:10:2]", "[1]", "[-1]", "[-4]", "[:, -1]", "[..., -1]", "[0, ...]", "[...]", "[:]",
        "[::-1]", "[:, ::-1, 1]", "[::-2, ::-3, ::-4]", "[3:0:-1]", "[-1:-5:-1, 2]", "[5:2]", "[2:2, 1]",
        "[:, 5:2]", "[1:3, 1:4, 1:5]", "[-100:100]", "[1::2, -3:, :-2]", "[::3, ..., ::2]", "[0, 0, 0]",
        "[-1, -1, -1]", "1, 2", "::-1, 0", " [ 2 , : , -2 ] ", "[0,]", "[:, :, ::-1]", "[10:]", "[:, -7:-2:2]",
        "[4]", "[0, 5]", "[-5]", "[::0]", "[..., ...]", "[0, 0, 0, 0]", "[abc]", "[1.5]", "[1:2:3:4]",
        "[0, , 1]", "[0",
    ],
    "a4": [
        "[0, :, 2:10:2, -1]", "[1, ..., 2]", "[..., ::-1]", "[:, :, :, 0]", "[-1, -1]", "[::-1, ::-1, ::-1, ::-1]",
        "[:, 1:, :, 1:4:2]", "[1, 2, 3, 4]", "[..., 0, 0]", "[0, ..., 0, 0, 0]", "[:, 3:1]", "[1:, :0:-1, ..., -2:]",
        "[0, 3]", "[0, 0, -5]", "[0, 0, 0, 0, 0]", "[:, :, :, ::0]",
    ],
}


def index_text(expression):
    text = expression.strip()
    return text if text.startswith("[") else "[" + text + "]"


def main():
    for name, expressions in CASES.items():
        array = ARRAYS[name]
        base = array.__array_interface__["data"][0]
        for expression in expressions:
            try:
                index = eval("np.s_" + index_text(expression))
                view = array[index]
                if not isinstance(view, np.ndarray):
                    # All dimensions indexed: numpy returns a scalar; a trailing `...` gives the 0-d view.
                    view = array[(index if isinstance(index, tuple) else (index,)) + (Ellipsis,)]
            except (IndexError, ValueError, SyntaxError, TypeError, NameError) as exc:
                print("\t".join([name, expression, "error", type(exc).__name__]))
                continue
            offset = view.__array_interface__["data"][0] - base
            fields = [
                name,
                expression,
                "ok",
                ",".join(str(n) for n in view.shape),
                ",".join(str(n) for n in view.strides),
                str(offset),
                " ".join(repr(float(v)) for v in view.ravel()),
            ]
            print("\t".join(fields))


main()
