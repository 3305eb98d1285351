#pragma once

#include <cstdint>
#include <string_view>

namespace runlens::importers::trace::jsonscan {

/// Light structural scanning of JSON text, used to find where each trace event starts and ends without
/// parsing it. Mismatched brackets are not detected here (the per-event parser reports them).

const char* skipWhitespace(const char* p, const char* end);
/// `p` at an opening quote: returns the position after the closing quote, or nullptr when the text ends.
const char* skipString(const char* p, const char* end);
/// `p` at the first character of a value: returns the position after it, or nullptr when the text ends
/// inside it.
const char* skipValue(const char* p, const char* end);

/// Microseconds as JSON writes them (integer, decimal, exponent; surrounding spaces allowed) to integer
/// nanoseconds. Up to three decimals are taken exactly from the text, further digits round.
bool parseMicrosToNanos(std::string_view text, std::int64_t& nanos);
/// A plain integer ("123", "-5"); false for anything else or on overflow.
bool parseInt64(std::string_view text, std::int64_t& value);
/// An unsigned integer, decimal or 0x-hexadecimal.
bool parseUInt64(std::string_view text, std::uint64_t& value);
/// A stable 63-bit-free id for a non-numeric identifier ("stream 7", "Spans"): bit 62 set, so it never
/// equals a real pid/tid a profiler writes.
std::int64_t stableId(std::string_view text);

} // namespace runlens::importers::trace::jsonscan
