#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::summary {

/// Maps the raw bytes of tags to dense indices (0, 1, 2, ... in order of first appearance). An event file
/// repeats a few dozen tags millions of times; looking up a known tag costs one hash over its bytes and
/// normally one comparison, and allocates nothing.
class TagInterner
{
public:
    /// The index of `bytes`, which is added when new (`added` tells which happened).
    int intern(std::string_view bytes, bool* added = nullptr);
    /// The index of `bytes`, or -1.
    int find(std::string_view bytes) const;
    int size() const { return int(m_keys.size()); }
    std::string_view bytes(int index) const { return m_keys[std::size_t(index)]; }

    static std::uint64_t hash(std::string_view bytes);

private:
    struct Slot
    {
        std::uint32_t hash = 0;
        std::int32_t index = -1; ///< -1: empty
    };

    std::size_t probe(std::string_view bytes, std::uint32_t hash) const;
    void rehash(std::size_t capacity);

    std::vector<Slot> m_slots; ///< open addressing, linear probing, power-of-two size, at most half full
    std::vector<std::string> m_keys;
};

} // namespace runlens::importers::summary
