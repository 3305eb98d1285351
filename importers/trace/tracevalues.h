#pragma once

#include "models/trace/tracestore.h"

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace runlens::importers::trace {

// How the fields of one Chrome trace event are decoded, whatever type a producer wrote them as.

/// A pid/tid as written: a number, a numeric string, or a name.
struct Ident
{
    std::int64_t value = 0;
    std::string_view name; ///< set for non-numeric strings
    bool named = false; ///< a non-numeric string (possibly empty): `value` is only a key, `name` is what users see
};

/// Keys for the string pids/tids of one file. A string keeps its hash as key unless another string of the
/// file already holds it: then it gets the next free key, so two names never merge into one process.
class NamedIds
{
public:
    using Hash = std::int64_t (*)(std::string_view);
    explicit NamedIds(Hash hash = nullptr);
    /// Replaces `id.value` by the key of `id.name` when the id was a string; numeric ids are left alone.
    void resolve(Ident& id);

private:
    Hash m_hash;
    std::unordered_map<std::string, std::int64_t> m_keys;
    std::unordered_set<std::int64_t> m_taken;
    std::string m_last; ///< most traces repeat one string pid on every event
    std::int64_t m_lastKey = 0;
    bool m_hasLast = false;
};

/// A pid or tid: an integer, a float, a numeric string, or a name (mapped to a stable id).
bool readIdent(simdjson::ondemand::value& v, Ident& out);
/// An id that may exceed int64, be negative, a float, or a string.
bool readUnsigned(simdjson::ondemand::value& v, std::uint64_t& out);
/// `ts`/`dur` in microseconds (number or string) to nanoseconds, exactly for up to 3 decimals.
bool readTime(simdjson::ondemand::value& v, std::int64_t& out);

/// Device-side kinds: their tracks are GPU streams.
bool isDeviceCategory(models::trace::EventKind kind, std::string_view category);
/// Kinds whose `correlation` arg joins a launching call to what it launched.
bool needsCorrelation(models::trace::EventKind kind);
/// Finds `"key": <unsigned integer>` directly in an args object's text (no parse of the object).
bool findUnsignedArg(std::string_view args, std::string_view quotedKey, std::uint64_t& value);

} // namespace runlens::importers::trace
