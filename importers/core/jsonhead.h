#pragma once

#include <QtGlobal>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The JSON side of FileSniffer: a tolerant scan of a document's first bytes, and inflating a gzip head to scan it.

namespace runlens::importers::sniff {

/// What a tolerant scan of the first bytes of a JSON document found. The scan never builds a tree: it
/// records the keys of the top-level object, the shape of the first elements of a top-level array, and
/// Kineto's `distributedInfo.rank`, and stops where the head ends.
struct JsonHead
{
    char top = 0; ///< '{' or '[', 0 when the text does not start a JSON container
    std::vector<std::string> topKeys;
    bool headCut = true; ///< the text ended before the top-level value closed

    struct Element
    {
        char type = 0; ///< '{', '[', 'v' (scalar) or 0 when not seen
        bool closed = false;
        std::vector<std::string> keys; ///< for objects
        int numbers = 0; ///< for arrays: number of numeric items
        bool onlyNumbers = true; ///< for arrays: nothing but numbers inside
    };
    Element elements[2]; ///< first two elements of a top-level array

    std::optional<qint64> distributedRank;

    bool hasTopKey(std::string_view key) const
    {
        return std::find(topKeys.begin(), topKeys.end(), key) != topKeys.end();
    }
};

JsonHead scanJsonHead(std::string_view text);

bool elementHasKey(const JsonHead::Element& element, std::string_view key);

/// gzip: inflates the beginning of the stream only, at most `maxOutput` bytes; empty when the data is corrupt.
std::string inflateHead(std::string_view compressed, std::size_t maxOutput);

} // namespace runlens::importers::sniff
