#include "importers/loggers/flatjson.h"

namespace runlens::importers::loggers {

namespace {

/// The end of the string starting at `text[pos]` (`"`), just after its closing quote; npos when cut.
std::size_t skipString(std::string_view text, std::size_t pos)
{
    for (++pos; pos < text.size(); ++pos) {
        if (text[pos] == '\\')
            ++pos;
        else if (text[pos] == '"')
            return pos + 1;
    }
    return std::string_view::npos;
}

/// The end of the value starting at `text[pos]`, at depth 0: the next ',' or closing bracket.
std::size_t skipValue(std::string_view text, std::size_t pos)
{
    int depth = 0;
    while (pos < text.size()) {
        const char c = text[pos];
        if (c == '"') {
            pos = skipString(text, pos);
            if (pos == std::string_view::npos)
                return pos;
            continue;
        }
        if (c == '{' || c == '[') {
            if (++depth > 256)
                return std::string_view::npos;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return pos;
            --depth;
        } else if (c == ',' && depth == 0) {
            return pos;
        }
        ++pos;
    }
    return std::string_view::npos;
}

std::size_t skipBlank(std::string_view text, std::size_t pos)
{
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\r' || text[pos] == '\t'))
        ++pos;
    return pos;
}

} // namespace

std::vector<std::string_view> jsonArrayElements(std::string_view text, std::size_t pos)
{
    std::vector<std::string_view> elements;
    if (pos >= text.size() || text[pos] != '[')
        return elements;
    pos = skipBlank(text, pos + 1);
    while (pos < text.size() && text[pos] != ']') {
        const std::size_t end = skipValue(text, pos);
        // A closing bracket of the wrong kind ends the value where it starts: the array cannot be delimited.
        if (end == std::string_view::npos || (end == pos && text[pos] != ','))
            break;
        elements.push_back(text.substr(pos, end - pos));
        pos = skipBlank(text, end);
        if (pos < text.size() && text[pos] == ',')
            pos = skipBlank(text, pos + 1);
    }
    return elements;
}

std::size_t jsonTopLevelValue(std::string_view text, std::string_view key)
{
    std::size_t pos = skipBlank(text, 0);
    if (pos >= text.size() || text[pos] != '{')
        return std::string_view::npos;
    pos = skipBlank(text, pos + 1);
    while (pos < text.size() && text[pos] == '"') {
        const std::size_t keyEnd = skipString(text, pos);
        if (keyEnd == std::string_view::npos)
            return keyEnd;
        const std::string_view name = text.substr(pos + 1, keyEnd - pos - 2);
        pos = skipBlank(text, keyEnd);
        if (pos >= text.size() || text[pos] != ':')
            return std::string_view::npos;
        pos = skipBlank(text, pos + 1);
        if (name == key)
            return pos;
        pos = skipValue(text, pos);
        if (pos == std::string_view::npos || text[pos] != ',')
            return std::string_view::npos;
        pos = skipBlank(text, pos + 1);
    }
    return std::string_view::npos;
}

} // namespace runlens::importers::loggers
