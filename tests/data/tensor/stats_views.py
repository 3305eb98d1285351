"""numpy's statistics of views of generated tensors, the oracle for statistics over strided views.

  stats_views.py DTYPE ORDER SHAPE SEED INDEX AXES FILE
      generates prod(SHAPE) elements as stats_oracle.py does (SHAPE comma-separated), writes their raw bytes
      to FILE, and prints stats_oracle's "key value" lines for the view `a[INDEX].transpose(AXES)` of the
      C-ordered array (AXES comma-separated, or '-' to keep the order).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats_oracle import describe, generate  # noqa: E402


def main():
    dtype, order, shape, seed, index, axes, path = sys.argv[1:8]
    shape = tuple(int(n) for n in shape.split(","))
    raw, values = generate(dtype, order, int(np.prod(shape)), int(seed))
    with open(path, "wb") as f:
        f.write(raw)
    view = eval("values.reshape(shape)[" + index + "]")  # the test's own index expression
    if axes != "-":
        view = view.transpose([int(k) for k in axes.split(",")])
    describe(view)


main()
