"""numpy's element type, shape, min and max of tensor files, the oracle for the catalog tests.

  tensor_minmax.py FILE...   one line per tensor: location, dtype, shape, nanmin, nanmax
                             (.npy: the file; .npz: FILE:member for every member)
"""
import sys

import numpy as np


def describe(location, array):
    shape = ",".join(str(d) for d in array.shape)
    if array.size == 0:
        lo = hi = "nan"
    else:
        values = array.astype(np.float64)
        lo, hi = repr(float(np.nanmin(values))), repr(float(np.nanmax(values)))
    print(f"{location}\t{array.dtype.name}\t{shape}\t{lo}\t{hi}")


for path in sys.argv[1:]:
    if path.endswith(".npz"):
        with np.load(path) as archive:
            for key in archive.files:
                describe(f"{path}:{key}", archive[key])
    else:
        describe(path, np.load(path, mmap_mode="r"))
