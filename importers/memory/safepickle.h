#pragma once

#include "importers/core/importbudget.h"
#include "importers/core/importcontrol.h"
#include "models/core/diagnostic.h"

#include <QString>

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::memory {

/// The kinds of value a data-only pickle can hold.
enum class PickleType : std::uint8_t {
    None,
    Bool,
    Int, ///< fits in int64
    BigInt, ///< LONG1/LONG4 beyond int64; only an approximate double is kept
    Float,
    String, ///< unicode (UTF-8 as in the file) and protocol 2 BINSTRING
    Bytes,
    List,
    Tuple,
    Dict, ///< keys and values in insertion order
    Set, ///< set and frozenset
    // Only with PickleLimits::torchWeights: inert records of what torch.save's data.pkl asks for.
    Global, ///< an allowed GLOBAL: "module.name" (globalName())
    Object, ///< an allowed REDUCE: two items, the callable (a Global) and its argument tuple
    PersistentId, ///< BINPERSID: one item, the persistent id tuple ("storage", type, key, location, numel)
};

class PickleDocument;

/// A light handle on one value of a PickleDocument; valid as long as the document lives. Accessors of the
/// wrong type return a neutral value (0, empty, an invalid handle) so schema walkers need not check first.
class PickleValue
{
public:
    PickleValue() = default;
    PickleValue(const PickleDocument* document, std::uint32_t index)
        : m_document(document)
        , m_index(index)
    { }

    bool isValid() const { return m_document != nullptr; }
    PickleType type() const;
    bool isNone() const { return type() == PickleType::None; }
    bool isNumber() const;
    bool isString() const { return type() == PickleType::String; }
    bool isDict() const { return type() == PickleType::Dict; }
    /// Lists and tuples.
    bool isSequence() const;

    /// Integers, booleans and floats (truncated); `fallback` for anything else.
    std::int64_t toInt(std::int64_t fallback = 0) const;
    double toDouble(double fallback = 0.0) const;
    bool toBool() const { return toInt() != 0; }
    /// The bytes of a string or bytes value; empty for anything else.
    std::string_view bytes() const;
    QString toString() const;

    /// "module.name" of a Global; empty for anything else.
    std::string_view globalName() const;

    /// Items of a list, tuple, set, Object or PersistentId; key/value pairs count as one item of a dict.
    std::size_t size() const;
    PickleValue at(std::size_t i) const;
    /// Dict entries by position.
    PickleValue keyAt(std::size_t i) const;
    PickleValue valueAt(std::size_t i) const;
    /// The value of the dict entry whose key is the string `key` (the last one if repeated).
    PickleValue value(std::string_view key) const;
    bool contains(std::string_view key) const { return value(key).isValid(); }

    std::uint32_t index() const { return m_index; }

private:
    const PickleDocument* m_document = nullptr;
    std::uint32_t m_index = 0;
};

/// The values of one decoded pickle, kept in flat arrays owned by the document. A value the pickle
/// references twice (memo) is stored once and shared, as are None, booleans and small integers (so
/// PickleValue::index() tells identity only for containers and strings); a pickle may even make a container contain
/// itself, so code that walks arbitrary values must bound its depth (schema walkers are bounded by their schema).
class PickleDocument
{
public:
    PickleValue root() const { return m_nodes.empty() ? PickleValue() : PickleValue(this, m_root); }
    std::size_t valueCount() const { return m_nodes.size(); }

private:
    friend class PickleValue;
    friend class PickleDecoder;

    struct Node
    {
        PickleType type = PickleType::None;
        /// Bool, Int: the value; Float, BigInt: the bits of the double; String, Bytes: index into m_texts;
        /// containers: index into m_items. One field keeps a node at 16 bytes: snapshots hold hundreds of
        /// millions of values.
        std::int64_t integer = 0;
        double real() const { return std::bit_cast<double>(integer); }
    };
    std::vector<Node> m_nodes;
    std::vector<std::string> m_texts;
    std::vector<std::vector<std::uint32_t>> m_items; ///< dicts hold key, value, key, value ...
    std::uint32_t m_root = 0;
};

/// What decodePickle() produced: the document and the problems, each naming the file and the byte offset.
/// A truncated or damaged pickle keeps what was read before the damage (open containers are closed); a
/// refused one (code opcode) keeps nothing and its root is invalid.
struct PickleResult
{
    PickleDocument document;
    models::Diagnostics diagnostics;
    bool ok = false; ///< the whole pickle was decoded up to its STOP
};

/// Limits of the decoder; the defaults suit memory snapshots of several GB.
struct PickleLimits
{
    int maxDepth = 512; ///< open MARKs (nesting of containers being built)
    std::uint64_t maxStringBytes = 256u * 1024 * 1024;
    /// Accept, as inert Global/Object/PersistentId values, exactly what a torch.save data.pkl of tensors needs
    /// and torch's weights-only unpickler allows: the GLOBALs torch._utils._rebuild_tensor(_v2, _v3) and
    /// _rebuild_parameter, the storage types (torch.FloatStorage ..., torch.UntypedStorage), the dtypes v3
    /// names (torch.float16, torch.uint16, torch.float8_e4m3fn ...), collections.OrderedDict and torch.Size; REDUCE of
    /// those callables only; BUILD only on a dict or a rebuilt tensor (its state is dropped); BINPERSID only of a
    /// ("storage", ...) tuple. Any other global is refused by name.
    bool torchWeights = false;
};

/// Decodes a pickle of protocol 2 to 5 that holds only plain data (None, booleans, integers, floats,
/// strings, bytes, lists, tuples, dicts, sets). Every opcode that could import a module, call a function or
/// build an object (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, NEWOBJ_EX, PERSID, BINPERSID,
/// EXT1/2/4, out-of-band buffers) stops the decoding with an error that names the opcode and its offset;
/// nothing in the input is ever executed. Lengths are checked against the bytes that remain and memo
/// indices against the size of the pickle before anything is allocated; the values made are spent on
/// `budget` and MARKs nest no deeper than its depth limit, and passing either stops the decoding with the
/// budget's diagnostic (what was read is kept). `fileName` is used in diagnostics only. Runs on any thread.
PickleResult decodePickle(std::string_view data, const QString& fileName, ImportBudget& budget,
                          const ImportControl& control = {}, const PickleLimits& limits = {});
/// The same with a budget for the size of `data` alone.
PickleResult decodePickle(std::string_view data, const QString& fileName, const ImportControl& control = {},
                          const PickleLimits& limits = {});

/// True when `head` starts like a pickle of protocol 2 or later (PROTO opcode).
bool looksLikePickle(std::string_view head);

} // namespace runlens::importers::memory
