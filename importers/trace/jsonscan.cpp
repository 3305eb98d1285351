#include "importers/trace/jsonscan.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace runlens::importers::trace::jsonscan {

namespace {

enum CharClass : std::uint8_t { Plain = 0, Quote = 1, Open = 2, Close = 3 };

constexpr std::array<std::uint8_t, 256> makeClasses()
{
    std::array<std::uint8_t, 256> table {};
    table[std::uint8_t('"')] = Quote;
    table[std::uint8_t('{')] = Open;
    table[std::uint8_t('[')] = Open;
    table[std::uint8_t('}')] = Close;
    table[std::uint8_t(']')] = Close;
    return table;
}
constexpr auto kClasses = makeClasses();

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

constexpr std::uint64_t broadcast(char c)
{
    return 0x0101010101010101ull * std::uint8_t(c);
}

// Non-zero when some byte of `v` is zero (the classic bit trick; exact enough to stop and look).
constexpr std::uint64_t hasZeroByte(std::uint64_t v)
{
    return (v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull;
}

// Skips bytes that are not one of `"{}[]`, eight at a time.
const char* skipPlain(const char* p, const char* end)
{
    while (end - p >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        // '[' ']' and '{' '}' differ in bits 1 and 2: clearing them folds each pair onto one value
        // (a few other bytes fold there too; the exact loop below sorts them out).
        const std::uint64_t folded = w & ~broadcast(0x06);
        const std::uint64_t hit = hasZeroByte(w ^ broadcast('"')) | hasZeroByte(folded ^ broadcast('[' & ~0x06))
            | hasZeroByte(folded ^ broadcast('{' & ~0x06));
        if (hit)
            break;
        p += 8;
    }
    while (p < end && kClasses[std::uint8_t(*p)] == Plain)
        ++p;
    return p;
}

} // namespace

const char* skipWhitespace(const char* p, const char* end)
{
    while (p < end && isSpace(*p))
        ++p;
    return p;
}

const char* skipString(const char* p, const char* end)
{
    const char* content = ++p;
    while (p < end) {
        const auto* quote = static_cast<const char*>(std::memchr(p, '"', std::size_t(end - p)));
        if (!quote)
            return nullptr;
        const char* b = quote;
        while (b > content && b[-1] == '\\')
            --b;
        if (((quote - b) & 1) == 0)
            return quote + 1;
        p = quote + 1;
    }
    return nullptr;
}

const char* skipValue(const char* p, const char* end)
{
    if (p >= end)
        return nullptr;
    if (*p == '"')
        return skipString(p, end);
    if (*p != '{' && *p != '[') {
        while (p < end && !isSpace(*p) && *p != ',' && *p != '}' && *p != ']')
            ++p;
        return p < end ? p : nullptr;
    }
    std::int64_t depth = 0;
    while (p < end) {
        switch (kClasses[std::uint8_t(*p)]) {
        case Plain:
            ++p;
            p = skipPlain(p, end);
            break;
        case Quote:
            p = skipString(p, end);
            if (!p)
                return nullptr;
            break;
        case Open:
            ++depth;
            ++p;
            break;
        case Close:
            ++p;
            if (--depth == 0)
                return p;
            break;
        }
    }
    return nullptr;
}

bool parseMicrosToNanos(std::string_view text, std::int64_t& nanos)
{
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end && isSpace(*p))
        ++p;
    while (end > p && isSpace(end[-1]))
        --end;
    if (p == end)
        return false;
    const char* begin = p;
    bool negative = false;
    if (*p == '-' || *p == '+') {
        negative = *p == '-';
        ++p;
    }
    constexpr std::uint64_t kMaxMicros = std::uint64_t(std::numeric_limits<std::int64_t>::max()) / 1000 - 1;
    std::uint64_t whole = 0;
    const char* digits = p;
    while (p < end && *p >= '0' && *p <= '9') {
        whole = whole * 10 + std::uint64_t(*p - '0');
        if (whole > kMaxMicros)
            return false;
        ++p;
    }
    bool any = p > digits;
    std::uint64_t fraction = 0;
    int fractionDigits = 0;
    bool roundUp = false;
    if (p < end && *p == '.') {
        ++p;
        const char* f = p;
        while (p < end && *p >= '0' && *p <= '9') {
            if (fractionDigits < 3) {
                fraction = fraction * 10 + std::uint64_t(*p - '0');
                ++fractionDigits;
            } else if (fractionDigits == 3) {
                roundUp = *p >= '5';
                ++fractionDigits;
            }
            ++p;
        }
        any = any || p > f;
    }
    if (!any)
        return false;
    if (p < end && (*p == 'e' || *p == 'E')) {
        // Exponent form: rare, and a double is as exact as such a writer was.
        const std::string copy(begin, std::size_t(end - begin));
        char* stop = nullptr;
        const double value = std::strtod(copy.c_str(), &stop);
        if (stop != copy.c_str() + copy.size() || !std::isfinite(value) || std::fabs(value) > 9.0e15)
            return false;
        nanos = std::llround(value * 1000.0);
        return true;
    }
    if (p != end)
        return false;
    for (int i = std::min(fractionDigits, 3); i < 3; ++i)
        fraction *= 10;
    std::uint64_t total = whole * 1000 + fraction + (roundUp ? 1 : 0);
    nanos = negative ? -std::int64_t(total) : std::int64_t(total);
    return true;
}

bool parseInt64(std::string_view text, std::int64_t& value)
{
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && text[i] == '-') {
        negative = true;
        ++i;
    }
    if (i == text.size())
        return false;
    std::uint64_t v = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c < '0' || c > '9')
            return false;
        if (v > (std::uint64_t(std::numeric_limits<std::int64_t>::max()) - std::uint64_t(c - '0')) / 10)
            return false;
        v = v * 10 + std::uint64_t(c - '0');
    }
    value = negative ? -std::int64_t(v) : std::int64_t(v);
    return true;
}

bool parseUInt64(std::string_view text, std::uint64_t& value)
{
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        std::uint64_t v = 0;
        if (text.size() > 18)
            return false;
        for (std::size_t i = 2; i < text.size(); ++i) {
            const char c = text[i];
            int d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                return false;
            v = (v << 4) | std::uint64_t(d);
        }
        value = v;
        return true;
    }
    if (text.empty())
        return false;
    std::uint64_t v = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return false;
        const auto d = std::uint64_t(c - '0');
        if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10)
            return false;
        v = v * 10 + d;
    }
    value = v;
    return true;
}

std::int64_t stableId(std::string_view text)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : text)
        h = (h ^ std::uint8_t(c)) * 0x100000001b3ull;
    return std::int64_t((h & 0x3fffffffffffffffull) | 0x4000000000000000ull);
}

} // namespace runlens::importers::trace::jsonscan
