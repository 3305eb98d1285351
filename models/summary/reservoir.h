#pragma once

#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace runlens::models::summary {

/// splitmix64: a small, fast generator that gives the same numbers on every platform.
inline std::uint64_t nextRandom(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/// The sampling step of a reservoir: `item` is the `seen`-th value of its series. Below `capacity` (or
/// with capacity 0) it is appended; otherwise a roll r in [0, seen) evicts slot r when r < capacity and
/// appends, or else replaces the last item, so the latest is always kept.
template<typename Item>
void sampleInto(std::vector<Item>& items, qint64 capacity, qint64 seen, std::uint64_t& state, Item item)
{
    if (capacity <= 0 || qint64(items.size()) < capacity) {
        items.push_back(std::move(item));
        return;
    }
    const std::uint64_t r = nextRandom(state) % std::uint64_t(std::max<qint64>(1, seen));
    if (r < std::uint64_t(capacity)) {
        items.erase(items.begin() + std::ptrdiff_t(r));
        items.push_back(std::move(item));
    } else {
        items.back() = std::move(item);
    }
}

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
        sampleInto(m_items, m_capacity, ++m_seen, m_state, std::move(item));
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

    int m_capacity = 0;
    std::vector<Item> m_items;
    qint64 m_seen = 0;
    std::uint64_t m_state = 0;
};

} // namespace runlens::models::summary
