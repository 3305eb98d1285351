#pragma once

#include "importers/loggers/metricstable.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::loggers {

/// A small JSON reader for one line: numbers (with NaN/Infinity as Python writes them), strings, literals,
/// nested objects flattened with '/', arrays skipped. Returns false on a syntax error.
class JsonLine
{
public:
    explicit JsonLine(std::string_view text)
        : m_text(text)
    { }

    struct Value
    {
        std::string key;
        std::optional<double> number;
        bool isString = false;
        std::string text; ///< a string value
    };

    bool parse(std::vector<Value>& out)
    {
        skipSpace();
        if (!object(std::string(), out, 0))
            return false;
        skipSpace();
        return m_pos == m_text.size();
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size()
               && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\r' || m_text[m_pos] == '\n'))
            ++m_pos;
    }

    bool string(std::string& out)
    {
        if (m_pos >= m_text.size() || m_text[m_pos] != '"')
            return false;
        ++m_pos;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos++];
            if (c == '"')
                return true;
            if (c == '\\') {
                if (m_pos >= m_text.size())
                    return false;
                const char e = m_text[m_pos++];
                switch (e) {
                case 'n':
                    out += '\n';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u':
                    // Keys in metric logs are ASCII; an escaped code point is kept as written.
                    out += "\\u";
                    break;
                default:
                    out += e;
                    break;
                }
            } else {
                out += c;
            }
        }
        return false;
    }

    bool skipNested(int depth)
    {
        if (depth > 64)
            return false;
        const char open = m_text[m_pos];
        const char close = open == '[' ? ']' : '}';
        ++m_pos;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == close) {
                ++m_pos;
                return true;
            }
            if (c == '"') {
                std::string ignored;
                if (!string(ignored))
                    return false;
            } else if (c == '[' || c == '{') {
                if (!skipNested(depth + 1))
                    return false;
            } else {
                ++m_pos;
            }
        }
        return false;
    }

    bool value(const std::string& key, std::vector<Value>& out, int depth)
    {
        skipSpace();
        if (m_pos >= m_text.size())
            return false;
        const char c = m_text[m_pos];
        if (c == '{')
            return object(key + '/', out, depth + 1);
        if (c == '[')
            return skipNested(depth + 1);
        if (c == '"') {
            std::string text;
            if (!string(text))
                return false;
            out.push_back({ key, std::nullopt, true, std::move(text) });
            return true;
        }
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] != ',' && m_text[m_pos] != '}' && m_text[m_pos] != ']'
               && m_text[m_pos] != ' ' && m_text[m_pos] != '\n' && m_text[m_pos] != '\r' && m_text[m_pos] != '\t')
            ++m_pos;
        const std::string_view token = m_text.substr(start, m_pos - start);
        if (token == "null")
            return true;
        const std::optional<double> number = MetricsTableParser::parseNumber(token, false);
        if (!number && (token == "true" || token == "false"))
            return true;
        if (!number)
            return false;
        out.push_back({ key, number, false, {} });
        return true;
    }

    bool object(const std::string& prefix, std::vector<Value>& out, int depth)
    {
        if (depth > 16 || m_pos >= m_text.size() || m_text[m_pos] != '{')
            return false;
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipSpace();
            std::string key;
            if (!string(key))
                return false;
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':')
                return false;
            ++m_pos;
            if (!value(prefix + key, out, depth))
                return false;
            skipSpace();
            if (m_pos >= m_text.size())
                return false;
            if (m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_text[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            return false;
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// The top-level elements of the JSON array that starts at `text[pos]` (`[`), as views into `text`; stops at
/// the first element it cannot delimit. Strings are skipped whole, so brackets inside them do not count.
std::vector<std::string_view> jsonArrayElements(std::string_view text, std::size_t pos);
/// The position of the value of the top-level key `key` of the object `text`, or npos.
std::size_t jsonTopLevelValue(std::string_view text, std::string_view key);

} // namespace runlens::importers::loggers
