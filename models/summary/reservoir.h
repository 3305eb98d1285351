#pragma once

#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace runlens::summary {

/// TensorBoard's per-series reservoir: keeps at most `capacity` items (0 keeps all), always the latest,
/// the others a uniform random sample of what was seen, from a fixed-seed generator so a file reads the
/// same way every time. Preemption: an item whose step is not above the last kept step first removes
/// every kept item at or after that step (a job restarted from a checkpoint replaces what it wrote after
/// it), and the count of items seen is scaled down by the share that was removed.
template<typename Item> class Reservoir
{
public:
    explicit Reservoir(int capacity = 0)
        : m_capacity(std::max(0, capacity))
    { }

    /// Returns the number of items preemption removed (0 almost always).
    qint64 add(Item item)
    {
        qint64 removed = 0;
        if (!m_items.empty() && item.step <= m_items.back().step)
            removed = preempt(item.step);
        ++m_seen;
        if (m_capacity == 0 || qint64(m_items.size()) < m_capacity) {
            m_items.push_back(std::move(item));
            return removed;
        }
        // Roll r in [0, seen): r < capacity evicts slot r and appends; otherwise only the last is replaced.
        const std::uint64_t r = next() % std::uint64_t(m_seen);
        if (r < std::uint64_t(m_capacity)) {
            m_items.erase(m_items.begin() + std::ptrdiff_t(r));
            m_items.push_back(std::move(item));
        } else {
            m_items.back() = std::move(item);
        }
        return removed;
    }

    const std::vector<Item>& items() const { return m_items; }
    qint64 seen() const { return m_seen; }
    int capacity() const { return m_capacity; }
    bool isEmpty() const { return m_items.empty(); }

private:
    qint64 preempt(qint64 step)
    {
        const std::size_t before = m_items.size();
        std::erase_if(m_items, [step](const Item& kept) { return kept.step >= step; });
        const std::size_t removed = before - m_items.size();
        if (before > 0)
            m_seen = qint64(std::llround(double(m_seen) * double(m_items.size()) / double(before)));
        return qint64(removed);
    }

    /// splitmix64: small, fast and the same on every platform.
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    int m_capacity = 0;
    std::vector<Item> m_items;
    qint64 m_seen = 0;
    std::uint64_t m_state = 0;
};

} // namespace runlens::summary
