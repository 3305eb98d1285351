#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace runlens::importers::graph {

/// Small text helpers shared by the graph importers.
namespace text {

std::string_view trim(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);
bool endsWith(std::string_view s, std::string_view suffix);

/// Splits a '/'-separated full name into (scope, name): "a/b/Conv" -> ("a/b", "Conv"). Leading, trailing and
/// doubled separators are dropped ("/layer1/conv/Conv" -> ("layer1/conv", "Conv")); a name without
/// separator has an empty scope.
std::pair<std::string, std::string> splitScope(std::string_view fullName);

/// Splits at `separator` outside (), [], {} and <> and outside double quotes; pieces are trimmed.
std::vector<std::string_view> splitTopLevel(std::string_view s, char separator);

/// True when `s` opens more brackets than it closes (outside quotes): a statement wrapped onto the next line.
bool bracketsOpen(std::string_view s);

/// The count bracketsOpen() keeps, for text that arrives in pieces: each piece is looked at once, so joining
/// many wrapped lines stays linear.
class BracketDepth
{
public:
    void feed(std::string_view piece);
    bool open() const { return m_depth > 0; }

private:
    int m_depth = 0;
    char m_previous = 0;
    bool m_quoted = false;
    bool m_escaped = false;
};

/// The whole of `s` as a decimal integer (optional '-', then digits). False when it is not one or does not
/// fit: these numbers come from the file, so an out-of-range value is refused, never wrapped or clamped.
bool toInt(std::string_view s, int& value);
bool toInt64(std::string_view s, std::int64_t& value);

/// Index of the bracket that closes the one at `open` (any of ( [ { <), or npos; quotes are skipped.
std::size_t matchingBracket(std::string_view s, std::size_t open);

/// "1,3,224,224" from dims, for attribute values.
std::string joinInts(const std::vector<std::int64_t>& values, std::string_view separator = ",");

/// Cuts long attribute values for display (the full value stays in the file).
std::string elide(std::string s, std::size_t max = 256);

/// Bytes as text: valid UTF-8 is kept, other bytes become U+FFFD, control characters are escaped.
std::string printable(std::string_view bytes);

} // namespace text

} // namespace runlens::importers::graph
