#include "importers/graph/graphtext.h"

#include <charconv>
#include <cstdio>

namespace runlens::importers::graph::text {

std::string_view trim(std::string_view s)
{
    std::size_t begin = 0;
    std::size_t end = s.size();
    while (begin < end && (s[begin] == ' ' || s[begin] == '\t' || s[begin] == '\r' || s[begin] == '\n'))
        ++begin;
    while (end > begin && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\r' || s[end - 1] == '\n'))
        --end;
    return s.substr(begin, end - begin);
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::pair<std::string, std::string> splitScope(std::string_view fullName)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= fullName.size()) {
        const std::size_t slash = fullName.find('/', start);
        const std::size_t end = slash == std::string_view::npos ? fullName.size() : slash;
        if (end > start)
            parts.push_back(fullName.substr(start, end - start));
        if (slash == std::string_view::npos)
            break;
        start = slash + 1;
    }
    if (parts.empty())
        return { std::string(), std::string(fullName) };
    std::string scope;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (!scope.empty())
            scope += '/';
        scope += parts[i];
    }
    return { std::move(scope), std::string(parts.back()) };
}

std::size_t matchingBracket(std::string_view s, std::size_t open)
{
    std::vector<char> stack;
    bool quoted = false;
    for (std::size_t i = open; i < s.size(); ++i) {
        const char c = s[i];
        if (quoted) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                quoted = false;
            continue;
        }
        switch (c) {
        case '"':
            quoted = true;
            break;
        case '(':
            stack.push_back(')');
            break;
        case '[':
            stack.push_back(']');
            break;
        case '{':
            stack.push_back('}');
            break;
        case '<':
            stack.push_back('>');
            break;
        case ')':
        case ']':
        case '}':
        case '>':
            // "->" inside a type list is an arrow, not a bracket.
            if (c == '>' && i > 0 && s[i - 1] == '-')
                break;
            if (stack.empty() || stack.back() != c)
                return std::string_view::npos;
            stack.pop_back();
            if (stack.empty())
                return i;
            break;
        default:
            break;
        }
    }
    return std::string_view::npos;
}

namespace {

/// Walks `s` outside double quotes, keeping the nesting depth of (), [], {} and <> ("->" is an arrow);
/// `visit(i, depth)` sees every other character at its depth. Returns the depth at the end.
template<class Visit> int walkTopLevel(std::string_view s, Visit visit)
{
    int depth = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quoted) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                quoted = false;
            continue;
        }
        if (c == '"')
            quoted = true;
        else if (c == '(' || c == '[' || c == '{' || c == '<')
            ++depth;
        else if ((c == ')' || c == ']' || c == '}' || (c == '>' && (i == 0 || s[i - 1] != '-'))) && depth > 0)
            --depth;
        else
            visit(i, depth);
    }
    return depth;
}

} // namespace

std::vector<std::string_view> splitTopLevel(std::string_view s, char separator)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    walkTopLevel(s, [&](std::size_t i, int depth) {
        if (s[i] == separator && depth == 0) {
            out.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    });
    const std::string_view last = trim(s.substr(start));
    if (!last.empty() || !out.empty())
        out.push_back(last);
    return out;
}

bool bracketsOpen(std::string_view s)
{
    BracketDepth depth;
    depth.feed(s);
    return depth.open();
}

void BracketDepth::feed(std::string_view piece)
{
    // The same rules as walkTopLevel(), with its state carried from one piece to the next.
    for (const char c : piece) {
        const char previous = m_previous;
        m_previous = c;
        if (m_quoted) {
            if (m_escaped)
                m_escaped = false;
            else if (c == '\\')
                m_escaped = true;
            else if (c == '"')
                m_quoted = false;
            continue;
        }
        if (c == '"')
            m_quoted = true;
        else if (c == '(' || c == '[' || c == '{' || c == '<')
            ++m_depth;
        else if ((c == ')' || c == ']' || c == '}' || (c == '>' && previous != '-')) && m_depth > 0)
            --m_depth;
    }
}

namespace {

template<class T> bool toInteger(std::string_view s, T& value)
{
    if (s.empty())
        return false;
    T parsed = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), parsed, 10);
    if (error != std::errc() || end != s.data() + s.size())
        return false;
    value = parsed;
    return true;
}

} // namespace

bool toInt(std::string_view s, int& value)
{
    return toInteger(s, value);
}

bool toInt64(std::string_view s, std::int64_t& value)
{
    return toInteger(s, value);
}

std::string joinInts(const std::vector<std::int64_t>& values, std::string_view separator)
{
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0)
            out += separator;
        out += std::to_string(values[i]);
    }
    return out;
}

std::string elide(std::string s, std::size_t max)
{
    if (s.size() <= max)
        return s;
    std::size_t cut = max;
    // Never cut inside a UTF-8 sequence.
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
        --cut;
    s.resize(cut);
    s += "…";
    return s;
}

std::string printable(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    std::size_t i = 0;
    while (i < bytes.size()) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n') {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", c);
                out += buf;
            } else {
                out += char(c);
            }
            ++i;
            continue;
        }
        const int length = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        bool valid = length > 0 && i + length <= bytes.size();
        for (int k = 1; valid && k < length; ++k)
            valid = (static_cast<unsigned char>(bytes[i + k]) & 0xC0) == 0x80;
        if (valid) {
            out.append(bytes.substr(i, length));
            i += length;
        } else {
            out += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return out;
}

} // namespace runlens::importers::graph::text
