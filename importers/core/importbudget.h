#pragma once

#include "models/core/diagnostic.h"

#include <QString>

#include <cstdint>

namespace runlens::importers {

/// How much one import may materialise from one input, derived from the input's size with generous
/// multiples: a legitimate file never comes near them, a hostile one (a gzip bomb, a tensor that expands
/// one value to a declared shape, a pickle whose memo shares one list ten thousand times) stops at them.
struct ImportLimits
{
    /// Bytes produced from the input: inflated, decoded or copied out of it.
    std::int64_t maxBytes = 0;
    /// Values produced: tensor elements, JSON values, pickle objects visited, graph nodes and ports.
    std::int64_t maxElements = 0;
    /// Nesting of any recursive structure (JSON, protobuf text, pickles, scopes).
    int maxDepth = 0;

    static constexpr int kMaxDepth = 256;
    static ImportLimits forInputSize(std::int64_t inputBytes);
};

/// A running account of one import against its ImportLimits. Spending past a limit fails from then on and
/// remembers which limit it was, so the importer can stop, keep what it has and say why with diagnostic().
/// One import at a time: not thread-safe.
class ImportBudget
{
public:
    explicit ImportBudget(std::int64_t inputBytes);
    explicit ImportBudget(const ImportLimits& limits);

    const ImportLimits& limits() const { return m_limits; }
    /// Records `n` more bytes produced; false once the byte limit is passed.
    bool spendBytes(std::int64_t n);
    /// Records `n` more values produced; false once the value limit is passed.
    bool spendElements(std::int64_t n);
    /// Whether `depth` is within the nesting limit; records the overrun when it is not.
    bool enterDepth(int depth);
    bool exceeded() const { return m_exceeded != Exceeded::None; }
    std::int64_t bytesSpent() const { return m_bytes; }
    std::int64_t elementsSpent() const { return m_elements; }

    /// "Stopped at offset N: the file would produce more than L … (the limit for an input of S bytes)",
    /// an error on `file`.
    models::Diagnostic diagnostic(const QString& file, std::int64_t offset) const;

private:
    enum class Exceeded { None, Bytes, Elements, Depth };
    ImportLimits m_limits;
    std::int64_t m_inputBytes = 0;
    std::int64_t m_bytes = 0;
    std::int64_t m_elements = 0;
    Exceeded m_exceeded = Exceeded::None;
};

} // namespace runlens::importers
