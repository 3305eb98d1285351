#include "models/tensor/tensorcompare.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <queue>

namespace runlens::models::tensor {

namespace {

constexpr std::int64_t kCancelCheckInterval = 1 << 16;

QString tensorLabel(const Tensor& t, const char* fallback)
{
    return t.name.isEmpty() ? QString::fromLatin1(fallback) : t.name;
}

double elementDiff(double a, double b, CompareMode mode)
{
    const bool nanA = std::isnan(a);
    const bool nanB = std::isnan(b);
    if (nanA && nanB)
        return 0;
    if (nanA || nanB)
        return std::numeric_limits<double>::quiet_NaN();
    if (a == b) // also equal infinities, whose difference would be NaN
        return 0;
    switch (mode) {
    case CompareMode::Difference:
        return a - b;
    case CompareMode::AbsoluteDifference:
        return std::abs(a - b);
    case CompareMode::RelativeDifference: {
        // Infinities take the limit of |a - b| / max(|a|, |b|): 1 against a finite value, 2 against the
        // opposite infinity, so they sort with the largest relative changes instead of vanishing as NaN.
        if (std::isinf(a) || std::isinf(b))
            return (std::isinf(a) && std::isinf(b)) ? 2.0 : 1.0;
        return std::abs(a - b) / std::max(std::abs(a), std::abs(b));
    }
    }
    return a - b;
}

/// The largest comparison kept whole: 2^28 doubles, 2 GiB.
constexpr std::int64_t kMaxDifferenceElements = std::int64_t(1) << 28;

/// Doubles in memory for the difference tensor, left uninitialised until written (no zero-filling pass).
class DoubleTensorData : public TensorData
{
public:
    explicit DoubleTensorData(std::int64_t count)
        : m_values(new double[size_t(count)])
        , m_count(count)
    { }
    const std::byte* data() const override { return reinterpret_cast<const std::byte*>(m_values.get()); }
    std::int64_t size() const override { return m_count * std::int64_t(sizeof(double)); }
    double* values() { return m_values.get(); }

private:
    std::unique_ptr<double[]> m_values;
    std::int64_t m_count;
};

/// `count` elements `stride` bytes apart as doubles; plain loops for native float32/float64.
void loadRun(const std::byte* p, std::int64_t stride, std::int64_t count, DType type, bool swap, double* out)
{
    if (!swap && type == DType::Float32) {
        for (std::int64_t i = 0; i < count; ++i) {
            float v;
            std::memcpy(&v, p + i * stride, sizeof v);
            out[i] = v;
        }
        return;
    }
    if (!swap && type == DType::Float64) {
        for (std::int64_t i = 0; i < count; ++i)
            std::memcpy(out + i, p + i * stride, sizeof(double));
        return;
    }
    for (std::int64_t i = 0; i < count; ++i)
        out[i] = loadElement(p + i * stride, type, swap);
}

struct Candidate
{
    double magnitude;
    std::int64_t linear;
    double a, b, diff;
};

/// Orders the kept candidates so that the top is the first to drop: the smallest magnitude, and among equal
/// magnitudes the latest in C order (earlier elements win ties).
struct DropFirst
{
    bool operator()(const Candidate& x, const Candidate& y) const
    {
        if (x.magnitude != y.magnitude)
            return x.magnitude > y.magnitude;
        return x.linear < y.linear;
    }
};

} // namespace

bool viewInsideData(const Tensor& t)
{
    if (!t.data || t.strides.size() != t.shape.size())
        return false;
    if (t.elementCount() == 0)
        return true;
    std::int64_t low = t.offset;
    std::int64_t high = t.offset;
    for (size_t k = 0; k < t.shape.size(); ++k) {
        const std::int64_t span = (t.shape[k] - 1) * t.strides[k];
        (span < 0 ? low : high) += span;
    }
    return low >= 0 && high + itemSize(t.dtype) <= t.data->size();
}

bool forEachElementRun(const Tensor& a, const Tensor& b,
                       const std::function<void(const double*, const double*, std::int64_t, std::int64_t)>& visit,
                       const std::function<bool()>& cancelled)
{
    const std::int64_t count = a.elementCount();
    const int rank = a.rank();
    // Runs along the last dimension are converted to doubles in one go (a tight loop for the common float
    // types), then visited; an odometer over the other dimensions carries both byte positions in C order.
    const std::int64_t inner = rank > 0 ? a.shape[size_t(rank - 1)] : 1;
    const std::int64_t outerCount = inner > 0 ? count / inner : 0;
    const std::int64_t strideA = rank > 0 ? a.strides[size_t(rank - 1)] : 0;
    const std::int64_t strideB = rank > 0 ? b.strides[size_t(rank - 1)] : 0;
    const std::int64_t chunk = std::min<std::int64_t>(std::max<std::int64_t>(inner, 0), kCancelCheckInterval);
    std::vector<double> runA(static_cast<size_t>(chunk));
    std::vector<double> runB(static_cast<size_t>(chunk));
    std::vector<std::int64_t> index(size_t(std::max(rank - 1, 0)), 0);
    std::int64_t posA = a.offset;
    std::int64_t posB = b.offset;
    std::int64_t sinceCheck = kCancelCheckInterval;
    for (std::int64_t outer = 0; outer < outerCount; ++outer) {
        for (std::int64_t start = 0; start < inner; start += chunk) {
            if (cancelled && sinceCheck >= kCancelCheckInterval) {
                sinceCheck = 0;
                if (cancelled())
                    return false;
            }
            const std::int64_t n = std::min(chunk, inner - start);
            sinceCheck += n;
            loadRun(a.data->data() + posA + start * strideA, strideA, n, a.dtype, a.swap, runA.data());
            loadRun(b.data->data() + posB + start * strideB, strideB, n, b.dtype, b.swap, runB.data());
            visit(runA.data(), runB.data(), n, outer * inner + start);
        }
        for (int k = rank - 2; k >= 0; --k) {
            posA += a.strides[size_t(k)];
            posB += b.strides[size_t(k)];
            if (++index[size_t(k)] < a.shape[size_t(k)])
                break;
            posA -= a.strides[size_t(k)] * a.shape[size_t(k)];
            posB -= b.strides[size_t(k)] * b.shape[size_t(k)];
            index[size_t(k)] = 0;
        }
    }
    return true;
}

CompareResult compareTensors(const Tensor& a, const Tensor& b, CompareMode mode, int topK,
                             const std::function<bool()>& cancelled)
{
    CompareResult result;
    if (a.shape != b.shape) {
        result.error
            = QCoreApplication::translate("runlens::TensorCompare",
                                          "Cannot compare %1 of shape %2 with %3 of shape %4: the shapes differ.")
                  .arg(tensorLabel(a, "the first tensor"), shapeText(a.shape), tensorLabel(b, "the second tensor"),
                       shapeText(b.shape));
        return result;
    }
    for (const Tensor* t : { &a, &b }) {
        if (!viewInsideData(*t)) {
            result.error
                = QCoreApplication::translate("runlens::TensorCompare",
                                              "Cannot compare %1: its data is shorter than its shape %2 needs.")
                      .arg(tensorLabel(*t, "a tensor"), shapeText(t->shape));
            return result;
        }
    }

    const std::int64_t count = a.elementCount();
    const int rank = a.rank();
    // The difference is kept whole as doubles: refuse what would not fit rather than fail half-way.
    if (count > kMaxDifferenceElements) {
        result.error = QCoreApplication::translate("runlens::TensorCompare",
                                                   "Cannot compare %L1 elements at once (at most %L2): compare a "
                                                   "slice of the tensors.")
                           .arg(count)
                           .arg(kMaxDifferenceElements);
        return result;
    }
    std::shared_ptr<DoubleTensorData> storage;
    try {
        storage = std::make_shared<DoubleTensorData>(count);
    } catch (const std::bad_alloc&) {
        result.error = QCoreApplication::translate("runlens::TensorCompare",
                                                   "Not enough memory to compare %L1 elements: compare a slice of "
                                                   "the tensors.")
                           .arg(count);
        return result;
    }
    double* out = storage->values();

    std::priority_queue<Candidate, std::vector<Candidate>, DropFirst> kept;
    const size_t keep = size_t(std::max(topK, 0));
    double sumAbs = 0;
    double sumSquares = 0;
    std::int64_t counted = 0;

    const bool completed = forEachElementRun(
        a, b,
        [&](const double* runA, const double* runB, std::int64_t n, std::int64_t first) {
            for (std::int64_t i = 0; i < n; ++i) {
                const double va = runA[i];
                const double vb = runB[i];
                const double d = elementDiff(va, vb, mode);
                out[first + i] = d;
                if (std::isnan(d)) {
                    ++result.differing;
                    ++result.nanMismatch;
                    continue;
                }
                if (!(va == vb) && !(std::isnan(va) && std::isnan(vb)))
                    ++result.differing;
                const double magnitude = std::abs(d);
                sumAbs += magnitude;
                sumSquares += d * d;
                ++counted;
                result.maxAbs = std::max(result.maxAbs, magnitude);
                if (magnitude > 0 && keep > 0 && (kept.size() < keep || magnitude > kept.top().magnitude)) {
                    if (kept.size() == keep)
                        kept.pop();
                    kept.push({ magnitude, first + i, va, vb, d });
                }
            }
        },
        cancelled);
    if (!completed) {
        result = {};
        result.error = QCoreApplication::translate("runlens::TensorCompare", "The comparison was cancelled.");
        return result;
    }
    if (counted > 0) {
        result.meanAbs = sumAbs / double(counted);
        result.rmse = std::sqrt(sumSquares / double(counted));
    }

    std::vector<Candidate> largest;
    largest.reserve(kept.size());
    for (; !kept.empty(); kept.pop())
        largest.push_back(kept.top());
    std::reverse(largest.begin(), largest.end());
    for (const Candidate& c : largest) {
        CompareEntry entry;
        entry.index.resize(size_t(rank));
        std::int64_t rest = c.linear;
        for (int k = rank - 1; k >= 0; --k) {
            entry.index[size_t(k)] = rest % a.shape[size_t(k)];
            rest /= a.shape[size_t(k)];
        }
        entry.a = c.a;
        entry.b = c.b;
        entry.diff = c.diff;
        result.largest.push_back(std::move(entry));
    }

    Tensor& difference = result.difference;
    difference.name = a.name.isEmpty() && b.name.isEmpty() ? QString() : a.name + QStringLiteral(" \u2212 ") + b.name;
    difference.dtype = DType::Float64;
    difference.shape = a.shape;
    difference.strides = Tensor::contiguousStrides(a.shape, sizeof(double));
    difference.data = std::move(storage);
    return result;
}

} // namespace runlens::models::tensor
