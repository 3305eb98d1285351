#include "importers/trace/jsonscan.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace runlens::trace::jsonscan {

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

#if defined(__SSE2__)
// 64 bytes of input, compared a byte value at a time into one bit per byte.
class Block
{
public:
    explicit Block(const char* p)
    {
        for (int k = 0; k < 4; ++k)
            m_v[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    }
    std::uint64_t bits(char c) const
    {
        const __m128i m = _mm_set1_epi8(c);
        std::uint64_t r = 0;
        for (int k = 0; k < 4; ++k)
            r |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(m_v[k], m)) & 0xffff)) << (16 * k);
        return r;
    }

private:
    __m128i m_v[4];
};

// Bit i: the parity of the bits 0..i of `x`.
constexpr std::uint64_t prefixXor(std::uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}
#endif

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
    // Every event of a trace passes here, so it runs 64 bytes at a time (as simdjson's first stage does):
    // quotes outside escapes open and close strings, brackets outside strings count. A block holding a
    // backslash is walked byte by byte, which is also the reference for every other block.
    std::int64_t depth = 0;
    bool inString = false;
    bool escaped = false;
    const auto walk = [&](const char* from, const char* to) -> const char* {
        for (const char* q = from; q < to; ++q) {
            const char c = *q;
            if (inString) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    inString = false;
                continue;
            }
            switch (kClasses[std::uint8_t(c)]) {
            case Quote:
                inString = true;
                break;
            case Open:
                ++depth;
                break;
            case Close:
                if (--depth == 0)
                    return q + 1;
                break;
            default:
                break;
            }
        }
        return nullptr;
    };
#if defined(__SSE2__)
    while (end - p >= 64) {
        const Block block(p);
        if (block.bits('\\') != 0) {
            if (const char* done = walk(p, p + 64))
                return done;
            p += 64;
            if (escaped && p < end) {
                if (const char* done = walk(p, p + 1))
                    return done;
                ++p;
            }
            continue;
        }
        // Bit i of `inside`: byte i is an opening quote or inside a string (the closing quote is not).
        const std::uint64_t inside = prefixXor(block.bits('"')) ^ (inString ? ~std::uint64_t(0) : 0);
        inString = (inside >> 63) != 0;
        const std::uint64_t opens = (block.bits('{') | block.bits('[')) & ~inside;
        const std::uint64_t closes = (block.bits('}') | block.bits(']')) & ~inside;
        const int closeCount = std::popcount(closes);
        if (closeCount < depth) {
            // The value cannot end in this block.
            depth += std::popcount(opens) - closeCount;
            p += 64;
            continue;
        }
        for (std::uint64_t marks = opens | closes; marks != 0; marks &= marks - 1) {
            const int i = std::countr_zero(marks);
            if ((opens >> i) & 1)
                ++depth;
            else if (--depth == 0)
                return p + i + 1;
        }
        p += 64;
    }
#endif
    return walk(p, end);
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

} // namespace runlens::trace::jsonscan
