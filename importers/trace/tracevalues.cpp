#include "importers/trace/tracevalues.h"

#include "importers/trace/jsonscan.h"

#include <limits>

namespace runlens::importers::trace {

namespace od = simdjson::ondemand;
using namespace jsonscan;

bool isDeviceCategory(models::trace::EventKind kind, std::string_view category)
{
    switch (kind) {
    case models::trace::EventKind::Kernel:
    case models::trace::EventKind::Memcpy:
    case models::trace::EventKind::Memset:
    case models::trace::EventKind::GpuAnnotation:
        return true;
    case models::trace::EventKind::Communication:
        return category.size() == 6 && (category == "kernel" || category == "Kernel");
    default:
        return false;
    }
}

bool needsCorrelation(models::trace::EventKind kind)
{
    switch (kind) {
    case models::trace::EventKind::Runtime:
    case models::trace::EventKind::Driver:
    case models::trace::EventKind::Kernel:
    case models::trace::EventKind::Memcpy:
    case models::trace::EventKind::Memset:
    case models::trace::EventKind::Communication:
        return true;
    default:
        return false;
    }
}

/// Finds `"key": <unsigned integer>` directly in an args object's text (no parse of the object).
bool findUnsignedArg(std::string_view args, std::string_view quotedKey, std::uint64_t& value)
{
    std::size_t pos = 0;
    while ((pos = args.find(quotedKey, pos)) != std::string_view::npos) {
        std::size_t i = pos + quotedKey.size();
        pos = i;
        while (i < args.size() && (args[i] == ' ' || args[i] == '\t' || args[i] == '\n' || args[i] == '\r'))
            ++i;
        if (i >= args.size() || args[i] != ':')
            continue;
        ++i;
        while (i < args.size() && (args[i] == ' ' || args[i] == '\t' || args[i] == '\n' || args[i] == '\r'))
            ++i;
        std::size_t j = i;
        while (j < args.size() && args[j] >= '0' && args[j] <= '9')
            ++j;
        return j > i && parseUInt64(args.substr(i, j - i), value);
    }
    return false;
}

NamedIds::NamedIds(Hash hash)
    : m_hash(hash ? hash : &stableId)
{ }

void NamedIds::resolve(Ident& id)
{
    if (!id.named)
        return;
    if (m_hasLast && id.name == m_last) {
        id.value = m_lastKey;
        return;
    }
    auto [it, inserted] = m_keys.try_emplace(std::string(id.name), 0);
    if (inserted) {
        std::int64_t key = m_hash(id.name);
        // Keys stay in the hash's range above 2^62, far from the pids and tids producers write as numbers.
        while (!m_taken.insert(key).second)
            key = key == std::numeric_limits<std::int64_t>::max() ? std::int64_t(1) << 62 : key + 1;
        it->second = key;
    }
    id.value = it->second;
    m_last.assign(id.name);
    m_lastKey = id.value;
    m_hasLast = true;
}

bool readIdent(simdjson::ondemand::value& v, Ident& out)
{
    od::json_type type;
    if (v.type().get(type))
        return false;
    if (type == od::json_type::number) {
        std::int64_t i;
        if (!v.get_int64().get(i)) {
            out.value = i;
            return true;
        }
        double d;
        // Only doubles that fit: converting one that does not is undefined.
        if (!v.get_double().get(d) && d > -9.2e18 && d < 9.2e18) {
            out.value = std::int64_t(d);
            return true;
        }
        return false;
    }
    if (type == od::json_type::string) {
        std::string_view s;
        if (v.get_string().get(s))
            return false;
        if (parseInt64(s, out.value))
            return true;
        out.value = stableId(s);
        out.name = s;
        out.named = true;
        return true;
    }
    return false;
}

bool readUnsigned(simdjson::ondemand::value& v, std::uint64_t& out)
{
    od::json_type type;
    if (v.type().get(type))
        return false;
    if (type == od::json_type::number) {
        if (!v.get_uint64().get(out))
            return true;
        std::int64_t i;
        if (!v.get_int64().get(i)) {
            out = std::uint64_t(i);
            return true;
        }
        double d;
        if (!v.get_double().get(d) && d >= 0 && d < 1.8e19) {
            out = std::uint64_t(d);
            return true;
        }
        return false;
    }
    if (type == od::json_type::string) {
        std::string_view s;
        if (v.get_string().get(s))
            return false;
        if (!parseUInt64(s, out))
            out = std::uint64_t(stableId(s));
        return true;
    }
    return false;
}

bool readTime(simdjson::ondemand::value& v, std::int64_t& out)
{
    od::json_type type;
    if (v.type().get(type))
        return false;
    if (type == od::json_type::number)
        return parseMicrosToNanos(v.raw_json_token(), out);
    if (type == od::json_type::string) {
        std::string_view s;
        return !v.get_string().get(s) && parseMicrosToNanos(s, out);
    }
    return false;
}

} // namespace runlens::importers::trace
