"""numpy's view of .npy files, the oracle for the header reader tests.

  npy_oracle.py write DIR        writes .npy files of assorted dtypes, layouts and format versions to DIR
  npy_oracle.py describe FILE... prints one line per file: path, dtype, shape, fortran, data offset, size, byte order
"""
import sys

import numpy as np


def write(folder):
    cases = {
        "f32": np.arange(12, dtype="<f4").reshape(3, 4),
        "f16": np.ones((2, 3), dtype="<f2"),
        "f64be": np.arange(5, dtype=">f8"),
        "i8": np.array([-1, 2, 3], dtype="i1"),
        "u64": np.arange(4, dtype="<u8").reshape(2, 2),
        "i64": np.arange(6, dtype="<i8").reshape(1, 2, 3),
        "bool": np.array([True, False, True]),
        "c64": np.zeros((2,), dtype="<c8"),
        "scalar": np.array(3.5, dtype="<f8"),
        "empty": np.zeros((0, 3), dtype="<f4"),
        "fortran": np.asfortranarray(np.arange(6, dtype="<i4").reshape(2, 3)),
    }
    for name, array in cases.items():
        np.save(f"{folder}/{name}.npy", array)
    for version in ((2, 0), (3, 0)):
        with open(f"{folder}/v{version[0]}.npy", "wb") as f:
            np.lib.format.write_array(f, np.arange(10, dtype="<i2").reshape(2, 5), version=version)


def describe(paths):
    for path in paths:
        with open(path, "rb") as f:
            version = np.lib.format.read_magic(f)
            shape, fortran, dtype = np.lib.format._read_array_header(f, version)
            offset = f.tell()
        size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        shape_text = ",".join(str(d) for d in shape)
        print(f"{path}\t{dtype.name}\t{shape_text}\t{int(fortran)}\t{offset}\t{size}\t{dtype.str[0]}")


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        describe(sys.argv[2:])
