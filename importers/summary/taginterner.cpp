#include "importers/summary/taginterner.h"

#include <cstring>

namespace runlens::importers::summary {

namespace {

constexpr std::uint64_t kMultiplier = 0x9e3779b97f4a7c15ull;

inline std::uint64_t load64(const char* p)
{
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    return word;
}

inline std::uint64_t mix(std::uint64_t state, std::uint64_t word)
{
    state = (state ^ word) * kMultiplier;
    return state ^ (state >> 32);
}

} // namespace

std::uint64_t TagInterner::hash(std::string_view bytes)
{
    // Word-at-a-time multiply-xorshift in two independent lanes (tags are short, and the lanes halve the
    // chain of dependent multiplications). Equal byte strings hash equally within one process; the value
    // is never stored.
    const char* p = bytes.data();
    std::size_t size = bytes.size();
    std::uint64_t a = mix(0x243f6a8885a308d3ull, std::uint64_t(size));
    std::uint64_t b = 0x13198a2e03707344ull;
    while (size >= 16) {
        a = mix(a, load64(p));
        b = mix(b, load64(p + 8));
        p += 16;
        size -= 16;
    }
    if (size >= 8) {
        a = mix(a, load64(p));
        p += 8;
        size -= 8;
    }
    if (size > 0) {
        std::uint64_t tail = 0;
        std::memcpy(&tail, p, size);
        b = mix(b, tail);
    }
    return mix(a, b) * kMultiplier;
}

std::size_t TagInterner::probe(std::string_view bytes, std::uint32_t hash) const
{
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.index < 0)
            return i;
        if (slot.hash == hash && m_keys[std::size_t(slot.index)] == bytes)
            return i;
    }
}

int TagInterner::find(std::string_view bytes) const
{
    if (m_slots.empty())
        return -1;
    return m_slots[probe(bytes, std::uint32_t(hash(bytes) >> 32))].index;
}

int TagInterner::intern(std::string_view bytes, bool* added)
{
    if (m_slots.empty())
        rehash(64);
    const auto h = std::uint32_t(hash(bytes) >> 32);
    std::size_t at = probe(bytes, h);
    if (m_slots[at].index >= 0) {
        if (added)
            *added = false;
        return m_slots[at].index;
    }
    if ((m_keys.size() + 1) * 2 > m_slots.size()) {
        rehash(m_slots.size() * 2);
        at = probe(bytes, h);
    }
    const int index = int(m_keys.size());
    m_keys.emplace_back(bytes);
    m_slots[at] = Slot { h, index };
    if (added)
        *added = true;
    return index;
}

void TagInterner::rehash(std::size_t capacity)
{
    std::vector<Slot> old = std::move(m_slots);
    m_slots.assign(capacity, Slot {});
    const std::size_t mask = capacity - 1;
    for (const Slot& slot : old) {
        if (slot.index < 0)
            continue;
        std::size_t i = slot.hash & mask;
        while (m_slots[i].index >= 0)
            i = (i + 1) & mask;
        m_slots[i] = slot;
    }
}

} // namespace runlens::importers::summary
