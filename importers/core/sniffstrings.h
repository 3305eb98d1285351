#pragma once

#include <QtGlobal>

#include <cstddef>
#include <string>
#include <string_view>

// Small string helpers on byte views shared by FileSniffer and its format checks (file names are bytes; no
// QString in the hot path). Inline because the JSON and text scanners call them for every byte.

namespace runlens::importers::sniff {

inline char lowerAscii(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

inline std::string toLower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = lowerAscii(c);
    return out;
}

inline bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

inline bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

inline bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

inline bool isAlnum(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

inline bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

inline std::string_view skipSpace(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return s.substr(i);
}

inline std::string_view skipBomAndSpace(std::string_view s)
{
    if (startsWith(s, "\xEF\xBB\xBF"))
        s.remove_prefix(3);
    return skipSpace(s);
}

/// Lower-cased extension after the last dot ("" when there is none; dot files have none).
inline std::string_view extensionOf(std::string_view lowerName)
{
    const std::size_t dot = lowerName.rfind('.');
    if (dot == std::string_view::npos || dot == 0)
        return {};
    return lowerName.substr(dot + 1);
}

inline quint64 readLe64(const char* p)
{
    quint64 v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | quint8(p[i]);
    return v;
}

inline quint32 readLe32(const char* p)
{
    quint32 v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | quint8(p[i]);
    return v;
}

/// Text heuristics: no NUL bytes and almost no other control characters. UTF-8 passes.
inline bool looksLikeText(std::string_view s)
{
    if (s.empty())
        return false;
    std::size_t control = 0;
    for (const char ch : s) {
        const auto c = quint8(ch);
        if (c == 0)
            return false;
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1b)
            ++control;
    }
    return control * 100 <= s.size();
}

inline bool isPrintableText(std::string_view s)
{
    for (const char ch : s) {
        const auto c = quint8(ch);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return false;
    }
    return true;
}

} // namespace runlens::importers::sniff
