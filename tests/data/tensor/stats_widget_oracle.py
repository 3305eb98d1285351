"""What the statistics pane must show for a known tensor, computed with numpy.

  stats_widget_oracle.py FILE
      writes a 4x6 float32 tensor (C order, little endian) with a zero, a NaN and +Inf to FILE and prints,
      for the slice `a[1:3, ::2]` and for the whole tensor, one line each: the shown texts of count, min, max,
      mean, std, mean |x|, L2 norm, NaN, +Inf, -Inf and zeros (numbers as '%.7g'), and the 64-bin histogram
      over the finite range ("slicehist"/"wholehist" lo hi counts...).
"""
import sys
import warnings

import numpy as np


def text(v):
    if np.isnan(v):
        return "NaN"
    if np.isinf(v):
        return "+Inf" if v > 0 else "-Inf"
    return "%.7g" % v


def describe(name, v):
    a = v.astype(np.float64).ravel()
    with np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        numbers = [np.nanmin(a), np.nanmax(a), np.nanmean(a), np.nanstd(a), np.nanmean(np.abs(a)),
                   np.sqrt(np.nansum(a * a))]
    counts = [np.isnan(a).sum(), np.isposinf(a).sum(), np.isneginf(a).sum(), (a == 0).sum()]
    print(name, a.size, *[text(x) for x in numbers], *[int(c) for c in counts])
    finite = a[np.isfinite(a)]
    lo, hi = finite.min(), finite.max()
    hist, _ = np.histogram(a[~np.isnan(a)], bins=np.linspace(lo, hi, 65))
    print(name + "hist", repr(float(lo)), repr(float(hi)), *hist)


def main():
    a = (np.arange(24, dtype=np.float32) * np.float32(0.37) - np.float32(3.1)).reshape(4, 6)
    a[0, 0] = 0
    a[1, 2] = np.nan
    a[3, 5] = np.inf
    with open(sys.argv[1], "wb") as f:
        f.write(a.astype("<f4").tobytes())
    describe("slice", a[1:3, ::2])
    describe("whole", a)


main()
