#include "models/tensor/tensorstatistics.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <type_traits>

namespace runlens::models::tensor {

namespace {

/// Elements per block: small enough to stay in L1 for the second (deviation) pass over the block.
constexpr std::int64_t kBlock = 2048;
/// Elements per parallel work item; a multiple of kBlock.
constexpr std::int64_t kChunk = kBlock * 512;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Running state over finite values (mean and M2 as in Welford/Chan) plus the special-value counts.
struct Partial
{
    std::int64_t finite = 0;
    std::int64_t nan = 0;
    std::int64_t posInf = 0;
    std::int64_t negInf = 0;
    std::int64_t zeros = 0;
    double min = kInf;
    double max = -kInf;
    double mean = 0;
    double m2 = 0;
    double sumAbs = 0;
    double sumSq = 0;

    /// Chan et al.'s pairwise update: exact for the mean, stable for M2 whatever the block sizes.
    void merge(const Partial& o)
    {
        if (o.finite > 0) {
            if (finite == 0) {
                mean = o.mean;
                m2 = o.m2;
            } else {
                const double n = double(finite) + double(o.finite);
                const double delta = o.mean - mean;
                mean += delta * (double(o.finite) / n);
                m2 += o.m2 + delta * delta * (double(finite) * double(o.finite) / n);
            }
        }
        finite += o.finite;
        nan += o.nan;
        posInf += o.posInf;
        negInf += o.negInf;
        zeros += o.zeros;
        min = std::min(min, o.min);
        max = std::max(max, o.max);
        sumAbs += o.sumAbs;
        sumSq += o.sumSq;
    }
};

#if defined(__GNUC__)
using Float4 = float __attribute__((vector_size(16)));
using Int4 = std::int32_t __attribute__((vector_size(16)));
using Double2 = double __attribute__((vector_size(16)));

/// The first pass of blockStats for float32, written with vector types: GCC does not vectorise the mixed
/// float/double/integer loop on its own, and this pass is most of the work for the most common tensors.
/// Sums are kept in double lanes (the numerics of the generic loop); counts in 32-bit lanes (n <= kBlock).
void firstPassFloat(const float* x, std::int64_t n, Partial& p, double& total)
{
    const Int4 absMask = Int4 {} + 0x7fffffff;
    const Float4 inf = Float4 {} + std::numeric_limits<float>::infinity();
    Double2 sum[2] = {}, sumAbs[2] = {}, sumSq[2] = {};
    Float4 mn = inf, mx = -inf;
    Int4 fin = {}, zero = {};
    std::int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        Float4 v;
        std::memcpy(&v, x + i, sizeof v);
        const Float4 a = Float4(Int4(v) & absMask);
        const Int4 f = a < inf; // -1 where finite: false for NaN and infinities
        const Float4 fv = Float4(Int4(v) & f);
        const Float4 fa = Float4(Int4(a) & f);
        fin -= f;
        zero -= v == Float4 {};
        mn = f & (v < mn) ? v : mn;
        mx = f & (v > mx) ? v : mx;
        const Double2 lo = { fv[0], fv[1] }, hi = { fv[2], fv[3] };
        const Double2 alo = { fa[0], fa[1] }, ahi = { fa[2], fa[3] };
        sum[0] += lo;
        sum[1] += hi;
        sumAbs[0] += alo;
        sumAbs[1] += ahi;
        sumSq[0] += lo * lo;
        sumSq[1] += hi * hi;
    }
    double s = 0, sa = 0, sq = 0;
    for (int k = 0; k < 2; ++k) {
        s += sum[k][0] + sum[k][1];
        sa += sumAbs[k][0] + sumAbs[k][1];
        sq += sumSq[k][0] + sumSq[k][1];
    }
    std::int64_t finite = 0, zeros = 0;
    double lowest = kInf, highest = -kInf;
    for (int l = 0; l < 4; ++l) {
        finite += fin[l];
        zeros += zero[l];
        lowest = std::min(lowest, double(mn[l]));
        highest = std::max(highest, double(mx[l]));
    }
    for (; i < n; ++i) {
        const float v = x[i];
        zeros += v == 0.0f;
        if (!(std::abs(v) < std::numeric_limits<float>::infinity()))
            continue;
        ++finite;
        s += v;
        sa += std::abs(double(v));
        sq += double(v) * double(v);
        lowest = std::min(lowest, double(v));
        highest = std::max(highest, double(v));
    }
    p.finite = finite;
    p.zeros = zeros;
    p.min = lowest;
    p.max = highest;
    p.sumAbs = sa;
    p.sumSq = sq;
    total = s;
}
#endif

/// One block of native floats: a first pass for sums/extremes on finite values, a second pass for the
/// squared deviations around the block mean (two-pass is exact enough and the block is still in cache).
/// Written as plain branch-free loops so the compiler can vectorise them; float32 has its own first pass.
template<typename T> Partial blockStats(const T* x, std::int64_t n)
{
    constexpr T kTInf = std::numeric_limits<T>::infinity();
    constexpr int kLanes = 8;
    Partial p;
    double total = 0;
#if defined(__GNUC__)
    if constexpr (std::is_same_v<T, float>) {
        firstPassFloat(x, n, p, total);
    } else
#endif
    {
        double sum[kLanes] = {}, sumAbs[kLanes] = {}, sumSq[kLanes] = {};
        T mn[kLanes], mx[kLanes];
        std::int64_t fin[kLanes] = {}, zero[kLanes] = {};
        std::fill(mn, mn + kLanes, kTInf);
        std::fill(mx, mx + kLanes, -kTInf);
        std::int64_t i = 0;
        for (; i + kLanes <= n; i += kLanes) {
            for (int l = 0; l < kLanes; ++l) {
                const T v = x[i + l];
                const bool f = std::abs(v) < kTInf; // false for NaN and infinities
                const T fv = f ? v : T(0);
                sum[l] += double(fv);
                sumAbs[l] += double(std::abs(fv));
                sumSq[l] += double(fv) * double(fv);
                fin[l] += f;
                zero[l] += v == T(0);
                mn[l] = fv < mn[l] && f ? fv : mn[l];
                mx[l] = fv > mx[l] && f ? fv : mx[l];
            }
        }
        for (; i < n; ++i) {
            const T v = x[i];
            const bool f = std::abs(v) < kTInf;
            const T fv = f ? v : T(0);
            sum[0] += double(fv);
            sumAbs[0] += double(std::abs(fv));
            sumSq[0] += double(fv) * double(fv);
            fin[0] += f;
            zero[0] += v == T(0);
            mn[0] = fv < mn[0] && f ? fv : mn[0];
            mx[0] = fv > mx[0] && f ? fv : mx[0];
        }
        for (int l = 0; l < kLanes; ++l) {
            total += sum[l];
            p.sumAbs += sumAbs[l];
            p.sumSq += sumSq[l];
            p.finite += fin[l];
            p.zeros += zero[l];
            p.min = std::min(p.min, double(mn[l]));
            p.max = std::max(p.max, double(mx[l]));
        }
        if (p.finite == 0)
            p.min = kInf, p.max = -kInf;
    }
    if (p.finite < n) {
        // Rare: NaN or infinities in this block.
        for (std::int64_t j = 0; j < n; ++j) {
            const T v = x[j];
            p.nan += std::isnan(v);
            p.posInf += v == kTInf;
            p.negInf += v == -kTInf;
        }
    }
    if (p.finite > 0) {
        p.mean = total / double(p.finite);
        double m2[kLanes] = {};
        const double mean = p.mean;
        std::int64_t k = 0;
        for (; k + kLanes <= n; k += kLanes) {
            for (int l = 0; l < kLanes; ++l) {
                const T v = x[k + l];
                const double d = std::abs(v) < kTInf ? double(v) - mean : 0.0;
                m2[l] += d * d;
            }
        }
        for (; k < n; ++k) {
            const T v = x[k];
            const double d = std::abs(v) < kTInf ? double(v) - mean : 0.0;
            m2[0] += d * d;
        }
        for (int l = 0; l < kLanes; ++l)
            p.m2 += m2[l];
    }
    return p;
}

template<typename U> U byteSwap(U v)
{
    if constexpr (sizeof(U) == 4)
        return __builtin_bswap32(v);
    else
        return __builtin_bswap64(v);
}

/// Statistics of elements [begin, end), block by block.
Partial rangeStats(const std::byte* data, std::int64_t begin, std::int64_t end, DType type, bool swap)
{
    Partial total;
    const int size = itemSize(type);
    alignas(64) double buffer[kBlock];
    alignas(64) float fbuffer[kBlock];
    for (std::int64_t b = begin; b < end; b += kBlock) {
        const std::int64_t n = std::min(kBlock, end - b);
        const std::byte* p = data + b * size;
        Partial part;
        if (type == DType::Float32 && !swap && reinterpret_cast<std::uintptr_t>(p) % alignof(float) == 0) {
            part = blockStats(reinterpret_cast<const float*>(p), n);
        } else if (type == DType::Float64 && !swap && reinterpret_cast<std::uintptr_t>(p) % alignof(double) == 0) {
            part = blockStats(reinterpret_cast<const double*>(p), n);
        } else if (type == DType::Float32) {
            for (std::int64_t i = 0; i < n; ++i) {
                std::uint32_t bits;
                std::memcpy(&bits, p + i * 4, 4);
                fbuffer[i] = std::bit_cast<float>(swap ? byteSwap(bits) : bits);
            }
            part = blockStats(fbuffer, n);
        } else if (type == DType::Float64) {
            for (std::int64_t i = 0; i < n; ++i) {
                std::uint64_t bits;
                std::memcpy(&bits, p + i * 8, 8);
                buffer[i] = std::bit_cast<double>(swap ? byteSwap(bits) : bits);
            }
            part = blockStats(buffer, n);
        } else {
            for (std::int64_t i = 0; i < n; ++i)
                buffer[i] = loadElement(p + i * size, type, swap);
            part = blockStats(buffer, n);
        }
        total.merge(part);
    }
    return total;
}

/// Runs `work(chunk)` for chunks [0, chunks) on `options.threads` threads, the calling thread polling the
/// cancel callback and reporting progress. Returns false when cancelled.
template<typename Work> bool runChunks(std::int64_t chunks, const StatisticsOptions& options, Work&& work)
{
    std::atomic<std::int64_t> next { 0 };
    std::atomic<std::int64_t> done { 0 };
    std::atomic<bool> stop { false };
    auto loop = [&](bool caller) {
        for (;;) {
            if (caller && options.cancel && options.cancel())
                stop = true;
            if (stop)
                return;
            const std::int64_t c = next.fetch_add(1);
            if (c >= chunks)
                return;
            work(c);
            const std::int64_t finished = done.fetch_add(1) + 1;
            if (caller && options.progress)
                options.progress(double(finished) / double(chunks));
        }
    };
    int threads = options.threads > 0 ? options.threads : int(std::max(1u, std::thread::hardware_concurrency()));
    threads = int(std::min<std::int64_t>(threads, std::max<std::int64_t>(chunks, 1)));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(loop, false);
    loop(true);
    for (auto& thread : pool)
        thread.join();
    if (stop)
        return false;
    if (options.progress)
        options.progress(1.0);
    return true;
}

/// The public statistics of merged partials; `result.count` is set by the caller.
void finish(const Partial& total, TensorStatistics& result)
{
    result.finite = total.finite;
    result.nan = total.nan;
    result.posInf = total.posInf;
    result.negInf = total.negInf;
    result.zeros = total.zeros;
    result.finiteMin = total.finite > 0 ? total.min : kNaN;
    result.finiteMax = total.finite > 0 ? total.max : kNaN;
    const std::int64_t nonNaN = total.finite + total.posInf + total.negInf;
    if (nonNaN == 0) {
        result.min = result.max = result.mean = result.std = result.meanAbs = kNaN;
        result.l2 = 0;
        return;
    }
    result.min = total.negInf > 0 ? -kInf : (total.finite > 0 ? total.min : kInf);
    result.max = total.posInf > 0 ? kInf : (total.finite > 0 ? total.max : -kInf);
    if (total.posInf > 0 && total.negInf > 0)
        result.mean = kNaN;
    else if (total.posInf > 0)
        result.mean = kInf;
    else if (total.negInf > 0)
        result.mean = -kInf;
    else
        result.mean = total.mean;
    const bool anyInf = total.posInf + total.negInf > 0;
    result.std = anyInf ? kNaN : std::sqrt(total.m2 / double(total.finite));
    result.meanAbs = anyInf ? kInf : total.sumAbs / double(total.finite);
    result.l2 = anyInf ? kInf : std::sqrt(total.sumSq);
}

} // namespace

TensorStatistics computeStatistics(const std::byte* data, std::int64_t count, DType type, bool swap,
                                   const StatisticsOptions& options)
{
    TensorStatistics result;
    result.count = std::max<std::int64_t>(count, 0);
    const std::int64_t chunks = (result.count + kChunk - 1) / kChunk;
    std::vector<Partial> partials(static_cast<std::size_t>(chunks));
    // Workers take chunks in any order but each result lands in its chunk's slot, so the merge below is in
    // index order and the result does not depend on scheduling.
    const bool done = runChunks(chunks, options, [&](std::int64_t c) {
        const std::int64_t begin = c * kChunk;
        partials[std::size_t(c)] = rangeStats(data, begin, std::min(begin + kChunk, result.count), type, swap);
    });
    if (!done) {
        result.cancelled = true;
        return result;
    }

    Partial total;
    for (const Partial& p : partials)
        total.merge(p);
    finish(total, result);
    return result;
}

std::vector<std::int64_t> histogram(const std::byte* data, std::int64_t count, DType type, bool swap, int bins,
                                    double min, double max, bool log)
{
    std::vector<std::int64_t> counts(std::size_t(std::max(bins, 0)), 0);
    if (bins <= 0 || !(min < max) || !std::isfinite(min) || !std::isfinite(max) || (log && !(min > 0)))
        return counts;
    const double lo = log ? std::log10(min) : min;
    const double hi = log ? std::log10(max) : max;
    const double scale = double(bins) / (hi - lo);
    const double step = (hi - lo) / double(bins);
    const int size = itemSize(type);
    for (std::int64_t i = 0; i < count; ++i) {
        const double v = loadElement(data + i * size, type, swap);
        if (!(v >= min && v <= max)) // NaN fails both
            continue;
        const double t = log ? std::log10(v) : v;
        auto bin = std::clamp<std::int64_t>(std::int64_t((t - lo) * scale), 0, bins - 1);
        // Values on an edge belong to the bin on its right; the scaled index can miss that by rounding, so
        // check against the edges themselves (computed as numpy.linspace does).
        if (t < lo + double(bin) * step && bin > 0)
            --bin;
        else if (bin + 1 < bins && t >= lo + double(bin + 1) * step)
            ++bin;
        ++counts[std::size_t(bin)];
    }
    return counts;
}

namespace {

/// A view reduced to the fewest dimensions that visit the same elements: size-1 dimensions dropped,
/// negative strides turned positive (from the other end), dimensions ordered by decreasing stride and
/// neighbours that form one contiguous run merged. Only valid where element order does not matter.
struct Walk
{
    const std::byte* base = nullptr;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides;
    int itemBytes = 1;
    bool innerContiguous = false; ///< the last dimension is a run of adjacent elements
    bool valid = false; ///< every element lies inside the data
};

Walk makeWalk(const Tensor& view)
{
    Walk walk;
    walk.itemBytes = itemSize(view.dtype);
    if (!view.data || view.strides.size() != view.shape.size())
        return walk;
    std::int64_t offset = view.offset;
    std::int64_t lowest = 0, highest = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> dims; // (stride, extent)
    for (std::size_t k = 0; k < view.shape.size(); ++k) {
        const std::int64_t n = view.shape[k];
        std::int64_t stride = view.strides[k];
        if (n <= 0)
            return walk;
        if (n == 1)
            continue;
        if (stride < 0) {
            offset += (n - 1) * stride;
            stride = -stride;
        }
        highest += (n - 1) * stride;
        dims.emplace_back(stride, n);
    }
    if (offset + lowest < 0 || offset + highest + walk.itemBytes > view.data->size())
        return walk;
    std::stable_sort(dims.begin(), dims.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [stride, n] : dims) {
        if (!walk.shape.empty() && walk.strides.back() == stride * n) {
            walk.shape.back() *= n;
            walk.strides.back() = stride;
        } else {
            walk.shape.push_back(n);
            walk.strides.push_back(stride);
        }
    }
    if (walk.shape.empty()) { // one element
        walk.shape.push_back(1);
        walk.strides.push_back(walk.itemBytes);
    }
    walk.base = view.data->data() + offset;
    walk.innerContiguous = walk.strides.back() == walk.itemBytes;
    walk.valid = true;
    return walk;
}

/// Calls `run(pointer, count)` for the elements [begin, end) of the walk in its order, each call with
/// contiguous elements: long runs as they lie, everything else gathered into blocks of up to kBlock.
template<typename Run> void forEachRun(const Walk& walk, std::int64_t begin, std::int64_t end, Run&& run)
{
    const int rank = int(walk.shape.size());
    const int size = walk.itemBytes;
    std::vector<std::int64_t> index(std::size_t(rank), 0);
    std::int64_t rest = begin;
    for (int k = rank - 1; k >= 0; --k) {
        index[std::size_t(k)] = rest % walk.shape[std::size_t(k)];
        rest /= walk.shape[std::size_t(k)];
    }
    std::vector<std::byte> buffer(std::size_t(kBlock * size));
    std::int64_t filled = 0;
    auto flush = [&] {
        if (filled > 0)
            run(buffer.data(), filled);
        filled = 0;
    };
    const std::int64_t inner = walk.shape.back();
    const std::int64_t innerStride = walk.strides.back();
    for (std::int64_t i = begin; i < end;) {
        const std::byte* p = walk.base;
        for (int k = 0; k < rank; ++k)
            p += index[std::size_t(k)] * walk.strides[std::size_t(k)];
        const std::int64_t n = std::min(inner - index.back(), end - i);
        if (walk.innerContiguous && n >= kBlock) {
            flush();
            run(p, n);
        } else {
            for (std::int64_t j = 0; j < n;) {
                const std::int64_t take = std::min(n - j, kBlock - filled);
                std::byte* out = buffer.data() + filled * size;
                if (walk.innerContiguous) {
                    std::memcpy(out, p + j * size, std::size_t(take * size));
                } else {
                    for (std::int64_t t = 0; t < take; ++t)
                        std::memcpy(out + t * size, p + (j + t) * innerStride, std::size_t(size));
                }
                filled += take;
                j += take;
                if (filled == kBlock)
                    flush();
            }
        }
        i += n;
        index.back() += n;
        for (int k = rank - 1; k > 0 && index[std::size_t(k)] >= walk.shape[std::size_t(k)]; --k) {
            index[std::size_t(k)] = 0;
            ++index[std::size_t(k - 1)];
        }
    }
    flush();
}

} // namespace

TensorStatistics computeStatistics(const Tensor& view, const StatisticsOptions& options)
{
    const std::int64_t count = view.elementCount();
    if (view.data && view.isContiguous() && view.offset >= 0
        && view.offset + count * itemSize(view.dtype) <= view.data->size())
        return computeStatistics(view.data->data() + view.offset, count, view.dtype, view.swap, options);

    TensorStatistics result;
    result.count = std::max<std::int64_t>(count, 0);
    if (result.count == 0) {
        finish(Partial {}, result);
        return result;
    }
    const Walk walk = makeWalk(view);
    if (!walk.valid) {
        Partial allNaN;
        allNaN.nan = result.count;
        finish(allNaN, result);
        return result;
    }
    const std::int64_t chunks = (result.count + kChunk - 1) / kChunk;
    std::vector<Partial> partials(static_cast<std::size_t>(chunks));
    const bool done = runChunks(chunks, options, [&](std::int64_t c) {
        const std::int64_t begin = c * kChunk;
        Partial& part = partials[std::size_t(c)];
        forEachRun(walk, begin, std::min(begin + kChunk, result.count),
                   [&](const std::byte* p, std::int64_t n) { part.merge(rangeStats(p, 0, n, view.dtype, view.swap)); });
    });
    if (!done) {
        result.cancelled = true;
        return result;
    }
    Partial total;
    for (const Partial& p : partials)
        total.merge(p);
    finish(total, result);
    return result;
}

std::vector<std::int64_t> histogram(const Tensor& view, int bins, double min, double max, bool log,
                                    const StatisticsOptions& options)
{
    std::vector<std::int64_t> counts(std::size_t(std::max(bins, 0)), 0);
    const std::int64_t count = view.elementCount();
    const Walk walk = makeWalk(view);
    if (bins <= 0 || count <= 0 || !walk.valid)
        return counts;
    const std::int64_t chunks = (count + kChunk - 1) / kChunk;
    std::vector<std::vector<std::int64_t>> partials(static_cast<std::size_t>(chunks));
    const bool done = runChunks(chunks, options, [&](std::int64_t c) {
        const std::int64_t begin = c * kChunk;
        auto& part = partials[std::size_t(c)];
        part.assign(counts.size(), 0);
        forEachRun(walk, begin, std::min(begin + kChunk, count), [&](const std::byte* p, std::int64_t n) {
            const auto h = histogram(p, n, view.dtype, view.swap, bins, min, max, log);
            for (std::size_t b = 0; b < h.size(); ++b)
                part[b] += h[b];
        });
    });
    if (!done)
        return {};
    for (const auto& part : partials)
        for (std::size_t b = 0; b < part.size(); ++b)
            counts[b] += part[b];
    return counts;
}

} // namespace runlens::models::tensor
