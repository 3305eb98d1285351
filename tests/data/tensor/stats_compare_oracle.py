"""What the comparison pane must show for two known tensors, computed with numpy.

  stats_compare_oracle.py DIR
      writes a.bin and b.bin (3x4 float32, C order, little endian) to DIR and prints, per mode
      (difference, absolute, relative), a "MODE summary" line with the numbers of the summary line
      (max |diff|, mean |diff|, RMSE as '%.6g'; differing, count, NaN mismatches) and one "MODE row" line per
      largest difference (|diff| > 0, largest first, ties in C order): index, a, b, diff as '%.6g'.
      An element NaN on one side only has a NaN diff and is left out of the numbers; NaN on both sides agrees.
"""
import os
import sys

import numpy as np


def text(v):
    if np.isnan(v):
        return "NaN"
    return "%.6g" % v


def main():
    a = np.array([[1.5, -2.0, 0.0, 4.0],
                  [np.nan, 3.25, 7.0, -1.0],
                  [0.5, np.nan, 2.0, 10.0]], dtype=np.float32)
    b = np.array([[1.0, -2.0, 0.0, 3.0],
                  [np.nan, 3.0, np.nan, 1.0],
                  [0.25, 6.0, 2.5, 8.0]], dtype=np.float32)
    a.astype("<f4").tofile(os.path.join(sys.argv[1], "a.bin"))
    b.astype("<f4").tofile(os.path.join(sys.argv[1], "b.bin"))
    x, y = a.astype(np.float64), b.astype(np.float64)
    both_nan = np.isnan(x) & np.isnan(y)
    with np.errstate(all="ignore"):
        raw = x - y
        denominator = np.maximum(np.abs(x), np.abs(y))
        modes = {
            "difference": raw,
            "absolute": np.abs(raw),
            "relative": np.where(denominator == 0, 0.0, np.abs(raw) / denominator),
        }
    for mode, d in modes.items():
        d = np.where(both_nan, 0.0, d)
        valid = ~np.isnan(d)
        magnitude = np.abs(d[valid])
        differing = int(((x != y) & ~both_nan).sum())
        print(mode, "summary", text(magnitude.max()), text(magnitude.mean()), text(np.sqrt((d[valid] ** 2).mean())),
              differing, x.size, int((np.isnan(x) != np.isnan(y)).sum()))
        flat = np.abs(np.where(valid, d, 0.0)).ravel()
        order = sorted((i for i in range(flat.size) if flat[i] > 0), key=lambda i: -flat[i])  # stable: C order ties
        for i in order:
            r, c = divmod(i, a.shape[1])
            print(mode, "row", f"[{r}, {c}]", text(x[r, c]), text(y[r, c]), text(d[r, c]))


main()
