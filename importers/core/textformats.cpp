#include "importers/core/textformats.h"

#include "importers/core/sniffstrings.h"

#include <QtGlobal>

#include <cstddef>

namespace runlens::importers::sniff {

namespace {

/// Skips blank lines and `//`, `#` and `/* */` comments at the start of a DOT file.
std::string_view skipDotPreamble(std::string_view s)
{
    for (;;) {
        s = skipBomAndSpace(s);
        if (startsWith(s, "//") || startsWith(s, "#")) {
            const std::size_t eol = s.find('\n');
            s = eol == std::string_view::npos ? std::string_view() : s.substr(eol + 1);
        } else if (startsWith(s, "/*")) {
            const std::size_t end = s.find("*/");
            s = end == std::string_view::npos ? std::string_view() : s.substr(end + 2);
        } else {
            return s;
        }
    }
}

bool consumeKeyword(std::string_view& s, std::string_view keyword)
{
    if (s.size() < keyword.size())
        return false;
    for (std::size_t i = 0; i < keyword.size(); ++i) {
        if (lowerAscii(s[i]) != keyword[i])
            return false;
    }
    if (s.size() > keyword.size() && (isAlnum(s[keyword.size()]) || s[keyword.size()] == '_'))
        return false;
    s.remove_prefix(keyword.size());
    return true;
}

/// `%12(name) = Op(...)`, the CNode line of MindSpore text IR.
bool isIrCNodeLine(std::string_view line)
{
    if (!startsWith(line, "%"))
        return false;
    std::size_t i = 1;
    while (i < line.size() && isDigit(line[i]))
        ++i;
    if (i == 1 || i >= line.size() || line[i] != '(')
        return false;
    const std::size_t close = line.find(')', i);
    if (close == std::string_view::npos)
        return false;
    return startsWith(skipSpace(line.substr(close + 1)), "= ");
}

} // namespace

bool isDot(std::string_view text)
{
    std::string_view s = skipDotPreamble(text);
    if (consumeKeyword(s, "strict"))
        s = skipSpace(s);
    if (!consumeKeyword(s, "digraph") && !consumeKeyword(s, "graph"))
        return false;
    s = skipSpace(s);
    if (startsWith(s, "\"")) {
        std::size_t i = 1;
        while (i < s.size() && s[i] != '"')
            i += s[i] == '\\' ? 2 : 1;
        if (i >= s.size())
            return false;
        s.remove_prefix(i + 1);
    } else {
        std::size_t i = 0;
        while (i < s.size() && (isAlnum(s[i]) || s[i] == '_' || s[i] == '.' || quint8(s[i]) >= 0x80))
            ++i;
        s.remove_prefix(i);
    }
    s = skipSpace(s);
    return startsWith(s, "{");
}

bool isTorchScriptGraph(std::string_view text)
{
    return startsWith(skipBomAndSpace(text), "graph(");
}

bool isMindSporeIr(std::string_view text)
{
    std::size_t start = 0;
    int lines = 0;
    while (start < text.size() && lines < 200) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        if (startsWith(line, "# IR entry") || startsWith(line, "#IR entry") || startsWith(line, "subgraph @")
            || startsWith(line, "subgraph attr:") || startsWith(line, "subgraph instance:")
            || startsWith(line, "funcgraph fg_") || startsWith(line, "# [No.") || isIrCNodeLine(line))
            return true;
        start = end + 1;
        ++lines;
    }
    return false;
}

bool isGraphDefText(std::string_view text)
{
    std::string_view s = text;
    for (;;) {
        s = skipBomAndSpace(s);
        if (!startsWith(s, "#"))
            break;
        const std::size_t eol = s.find('\n');
        s = eol == std::string_view::npos ? std::string_view() : s.substr(eol + 1);
    }
    if (!consumeKeyword(s, "node"))
        return false;
    s = skipSpace(s);
    return startsWith(s, "{") && contains(text, "op:");
}

bool hasCsvHeader(std::string_view text, char delimiter)
{
    text = skipBomAndSpace(text);
    const std::size_t eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    if (line.find(delimiter) == std::string_view::npos)
        return false;
    std::size_t start = 0;
    while (start <= line.size()) {
        std::size_t end = line.find(delimiter, start);
        if (end == std::string_view::npos)
            end = line.size();
        std::string_view cell = skipSpace(line.substr(start, end - start));
        if (startsWith(cell, "\""))
            cell.remove_prefix(1);
        if (!cell.empty()
            && ((cell.front() >= 'a' && cell.front() <= 'z') || (cell.front() >= 'A' && cell.front() <= 'Z')
                || cell.front() == '_' || quint8(cell.front()) >= 0x80))
            return true;
        start = end + 1;
    }
    return false;
}

} // namespace runlens::importers::sniff
