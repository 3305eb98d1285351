#include "models/scalars/downsample.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace runlens::models::scalars {

namespace {

/// Accumulates the points of one pixel column and appends the chosen indices in ascending order.
class Column
{
public:
    void add(std::size_t i, double y)
    {
        if (m_empty) {
            m_first = i;
            m_empty = false;
        }
        m_last = i;
        if (!std::isfinite(y)) {
            m_nonFinite.push_back(i);
            return;
        }
        if (!m_hasFinite || y < m_minY) {
            m_minY = y;
            m_min = i;
        }
        if (!m_hasFinite || y > m_maxY) {
            m_maxY = y;
            m_max = i;
        }
        m_hasFinite = true;
    }

    void flush(std::vector<std::size_t>& out)
    {
        if (m_empty)
            return;
        std::array<std::size_t, 4> picks { m_first, m_last, m_first, m_last };
        if (m_hasFinite) {
            picks[2] = m_min;
            picks[3] = m_max;
        }
        std::sort(picks.begin(), picks.end());
        const auto picksEnd = std::unique(picks.begin(), picks.end());
        // Both inputs are sorted: merge them into the output, dropping duplicates.
        const std::size_t start = out.size();
        std::merge(picks.begin(), picksEnd, m_nonFinite.begin(), m_nonFinite.end(), std::back_inserter(out));
        out.erase(std::unique(out.begin() + std::ptrdiff_t(start), out.end()), out.end());
        m_empty = true;
        m_hasFinite = false;
        m_nonFinite.clear();
    }

private:
    std::size_t m_first = 0;
    std::size_t m_last = 0;
    std::size_t m_min = 0;
    std::size_t m_max = 0;
    double m_minY = 0.0;
    double m_maxY = 0.0;
    bool m_empty = true;
    bool m_hasFinite = false;
    std::vector<std::size_t> m_nonFinite;
};

} // namespace

std::vector<std::size_t> downsampleMinMax(std::span<const double> x, std::span<const double> y, double xMin,
                                          double xMax, int buckets)
{
    const std::size_t n = std::min(x.size(), y.size());
    std::vector<std::size_t> out;
    if (n == 0)
        return out;
    buckets = std::max(buckets, 1);
    if (xMax < xMin)
        std::swap(xMin, xMax);

    const auto xBegin = x.begin();
    const auto xEnd = x.begin() + std::ptrdiff_t(n);
    const std::size_t lo = std::size_t(std::lower_bound(xBegin, xEnd, xMin) - xBegin);
    const std::size_t hi = std::size_t(std::upper_bound(xBegin, xEnd, xMax) - xBegin); // one past the last in range
    // The neighbours just outside the range, so the line enters and leaves the view at the right angle.
    const std::size_t from = lo > 0 ? lo - 1 : 0;
    const std::size_t to = hi < n ? hi + 1 : n;

    const std::size_t inRange = hi - lo;
    const std::size_t limit = 4 * std::size_t(buckets);
    if (inRange < limit) {
        out.resize(to - from);
        for (std::size_t i = from; i < to; ++i)
            out[i - from] = i;
        return out;
    }

    out.reserve(limit + 2);
    if (from < lo)
        out.push_back(from);

    const double span = xMax - xMin;
    const double scale = span > 0.0 ? double(buckets) / span : 0.0;
    Column pending;
    int current = -1;
    for (std::size_t i = lo; i < hi; ++i) {
        const double column = std::clamp((x[i] - xMin) * scale, 0.0, double(buckets - 1));
        const int bucket = int(column);
        if (bucket != current) {
            pending.flush(out);
            current = bucket;
        }
        pending.add(i, y[i]);
    }
    pending.flush(out);

    if (hi < to)
        out.push_back(hi);
    return out;
}

} // namespace runlens::models::scalars
