"""numpy's statistics of generated tensors, the oracle for the tensor statistics tests.

  stats_oracle.py DTYPE ORDER COUNT SEED FILE
      writes COUNT elements of DTYPE (RunLens dtype name) in byte order ORDER ('<' or '>') to FILE as raw
      bytes, floats with a few NaN/zeros (and +Inf/-Inf for odd seeds) sprinkled in, and prints numpy's view of them, one
      "key value" line each: counts, nan* statistics, and histograms (linear over the finite range, and
      geometric over the positive finite range when there is one).
"""
import sys

import numpy as np


def e4m3fn(bits):
    # OCP E4M3FN: bias 7, 3 mantissa bits, no infinities, S.1111.111 is NaN.
    sign = np.where(bits & 0x80, -1.0, 1.0)
    exp = (bits >> 3) & 0xF
    man = (bits & 0x7).astype(np.float64)
    value = np.where(exp == 0, man / 8.0 * 2.0 ** -6, (1.0 + man / 8.0) * 2.0 ** (exp.astype(np.float64) - 7))
    value = np.where((exp == 0xF) & ((bits & 0x7) == 0x7), np.nan, value)
    return sign * value


def generate(dtype, order, count, seed):
    """Returns (raw bytes, values as float64)."""
    rng = np.random.default_rng(seed)
    ints = {"int8": "i1", "int16": "i2", "int32": "i4", "int64": "i8",
            "uint8": "u1", "uint16": "u2", "uint32": "u4", "uint64": "u8"}
    if dtype == "bool":
        a = rng.integers(0, 2, count).astype(np.bool_)
        return a.tobytes(), a.astype(np.float64)
    if dtype in ints:
        info = np.iinfo(np.dtype(ints[dtype]))
        lo, hi = max(info.min, -(2 ** 40)), min(info.max, 2 ** 40)
        a = rng.integers(lo, hi, count, endpoint=True).astype(order + ints[dtype])
        if count > 3:
            a[3] = 0
        return a.tobytes(), a.astype(np.float64)
    values = rng.normal(0.5, 3.0, count)
    # Odd seeds add infinities (numpy's mean/std become inf/NaN); even seeds keep them finite.
    specials = [np.nan, np.inf, -np.inf, 0.0, np.nan] if seed % 2 else [np.nan, 0.0, np.nan]
    for k, s in enumerate(specials):
        if count > 7 * k + 1:
            values[7 * k + 1] = s
    if dtype in ("float16", "float32", "float64"):
        a = values.astype(order + {"float16": "f2", "float32": "f4", "float64": "f8"}[dtype])
        return a.tobytes(), a.astype(np.float64)
    if dtype in ("complex64", "complex128"):
        c = (values + 1j * rng.normal(0, 1, count)).astype(order + ("c8" if dtype == "complex64" else "c16"))
        return c.tobytes(), c.real.astype(np.float64)
    if dtype == "bfloat16":
        bits = (values.astype("<f4").view("<u4") >> 16).astype(np.uint16)
        return bits.astype(order + "u2").tobytes(), (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if dtype == "float8_e5m2":
        bits = (values.astype("<f2").view("<u2") >> 8).astype(np.uint8)
        return bits.tobytes(), (bits.astype(np.uint16) << 8).view(np.float16).astype(np.float64)
    if dtype == "float8_e4m3fn":
        bits = rng.integers(0, 256, count).astype(np.uint8)
        return bits.tobytes(), e4m3fn(bits)
    raise SystemExit(f"unknown dtype {dtype}")


def describe(a):
    """Prints numpy's statistics of the float64 values `a` as "key value" lines."""
    a = np.asarray(a, dtype=np.float64).ravel()
    out = {"count": a.size, "nan": int(np.isnan(a).sum()), "posinf": int(np.isposinf(a).sum()),
           "neginf": int(np.isneginf(a).sum()), "zeros": int((a == 0).sum()), "finite": int(np.isfinite(a).sum())}
    with np.errstate(all="ignore"):
        import warnings
        warnings.simplefilter("ignore")
        out["min"] = np.nanmin(a) if a.size else np.nan
        out["max"] = np.nanmax(a) if a.size else np.nan
        out["mean"] = np.nanmean(a)
        out["std"] = np.nanstd(a)
        out["meanabs"] = np.nanmean(np.abs(a))
        out["l2"] = np.sqrt(np.nansum(a * a))
        finite_values = a[np.isfinite(a)]
        out["finitemin"] = finite_values.min() if finite_values.size else np.nan
        out["finitemax"] = finite_values.max() if finite_values.size else np.nan
    for key, value in out.items():
        print(key, repr(float(value)) if isinstance(value, (float, np.floating)) else value)
    finite = a[np.isfinite(a)]
    if finite.size and finite.min() < finite.max():
        lo, hi = finite.min(), finite.max()
        counts, _ = np.histogram(a[~np.isnan(a)], bins=np.linspace(lo, hi, 17))
        print("hist", repr(float(lo)), repr(float(hi)), *counts)
        positive = finite[finite > 0]
        if positive.size and positive.min() < positive.max():
            lo, hi = positive.min(), positive.max()
            counts, _ = np.histogram(a[~np.isnan(a)], bins=np.geomspace(lo, hi, 9))
            print("loghist", repr(float(lo)), repr(float(hi)), *counts)


def main():
    dtype, order, count, seed, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    raw, a = generate(dtype, order, count, seed)
    with open(path, "wb") as f:
        f.write(raw)
    describe(a)


if __name__ == "__main__":
    main()
