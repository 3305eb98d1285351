"""numpy's answers for the tensor comparison and tensor table tests; run from this folder to rewrite the
compare_* fixtures (deterministic: fixed seed).

compare_a.bin      float32 little endian, C order, shape (3, 4, 5)
compare_b.bin      float64 little endian, C order, shape (5, 4, 3); the tests compare its transpose (2, 1, 0)
compare_expected.tsv
    "MODE stat NAME VALUE" lines (maxAbs, meanAbs, rmse, differing, nanMismatch) and
    "MODE largest RANK i j k A B DIFF" lines for the 8 largest |diff|, ties in C order
compare_diff_MODE.bin  float64 little endian, the difference tensor in C order, shape (3, 4, 5)
compare_table_base.bin float32 little endian, C order, shape (4, 5, 6)
compare_table_view.tsv numpy's repr of base[1, ::2, 1::2] row by row, tab separated
"""
import numpy as np

TOP = 8

rng = np.random.default_rng(20261122)
a = rng.normal(0.0, 2.0, (3, 4, 5)).astype(np.float32)
bt = rng.normal(0.0, 2.0, (5, 4, 3))
b = bt.transpose(2, 1, 0)  # a strided view: shape (3, 4, 5)
# Equal elements, exact zeros on both sides, NaN on one side and on both sides, and a tie in |diff|.
b[0, 0, 0] = a[0, 0, 0]
a[0, 0, 1] = 0.0
b[0, 0, 1] = 0.0
a[1, 2, 3] = np.nan
b[2, 3, 4] = np.nan
a[2, 0, 0] = np.nan
b[2, 0, 0] = np.nan
a[1, 1, 1] = 40.0
b[1, 1, 1] = 30.0
a[2, 1, 1] = -15.0
b[2, 1, 1] = -5.0
bt = np.ascontiguousarray(b.transpose(2, 1, 0))

a.astype('<f4').tofile('compare_a.bin')
bt.astype('<f8').tofile('compare_b.bin')

av = a.astype(np.float64)
bv = b
nan_a = np.isnan(av)
nan_b = np.isnan(bv)
both_nan = nan_a & nan_b
one_nan = nan_a ^ nan_b
equal = av == bv

with np.errstate(invalid='ignore', divide='ignore'):
    modes = {
        'difference': av - bv,
        'absolute': np.abs(av - bv),
        'relative': np.abs(av - bv) / np.maximum(np.abs(av), np.abs(bv)),
    }

lines = []
for mode, d in modes.items():
    d = d.copy()
    d[equal | both_nan] = 0.0
    d[one_nan] = np.nan
    d.astype('<f8').tofile('compare_diff_%s.bin' % mode)
    valid = ~np.isnan(d)
    mag = np.abs(d[valid])
    lines.append('%s\tstat\tmaxAbs\t%r' % (mode, float(mag.max())))
    lines.append('%s\tstat\tmeanAbs\t%r' % (mode, float(mag.mean())))
    lines.append('%s\tstat\trmse\t%r' % (mode, float(np.sqrt(np.mean(d[valid] ** 2)))))
    lines.append('%s\tstat\tdiffering\t%d' % (mode, int((~equal & ~both_nan).sum())))
    lines.append('%s\tstat\tnanMismatch\t%d' % (mode, int(one_nan.sum())))
    flat = d.ravel()
    linear = np.arange(flat.size)
    candidates = linear[~np.isnan(flat) & (flat != 0)]
    order = sorted(candidates, key=lambda i: (-abs(flat[i]), i))[:TOP]
    for rank, i in enumerate(order):
        idx = np.unravel_index(i, d.shape)
        lines.append('%s\tlargest\t%d\t%d\t%d\t%d\t%r\t%r\t%r' % (
            mode, rank, idx[0], idx[1], idx[2], float(av[idx]), float(bv[idx]), float(flat[i])))
with open('compare_expected.tsv', 'w') as f:
    f.write('\n'.join(lines) + '\n')

base = (np.arange(4 * 5 * 6, dtype=np.float32) * np.float32(0.37) - np.float32(11)).reshape(4, 5, 6)
base[1, 2, 3] = np.nan
base[1, 4, 1] = np.inf
base[1, 0, 5] = 0
base.astype('<f4').tofile('compare_table_base.bin')
view = base[1, ::2, 1::2]
with open('compare_table_view.tsv', 'w') as f:
    for row in view:
        f.write('\t'.join(str(v) for v in row) + '\n')
