#include "importers/core/jsonhead.h"

#include "importers/core/sniffstrings.h"

#include <zlib.h>

namespace runlens::importers::sniff {

JsonHead scanJsonHead(std::string_view text)
{
    JsonHead out;
    text = skipBomAndSpace(text);
    if (text.empty() || (text.front() != '{' && text.front() != '['))
        return out;
    out.top = text.front();

    struct Frame
    {
        char type;
        bool expectKey;
        std::string key; ///< current key inside an object
        std::string ownKey; ///< key under which this container is a value in its parent object
        int index; ///< current element index inside an array
    };
    std::vector<Frame> stack;

    auto topElement = [&]() -> JsonHead::Element* {
        if (stack.empty() || stack.front().type != '[' || stack.front().index > 1)
            return nullptr;
        return &out.elements[stack.front().index];
    };

    std::size_t i = 0;
    const std::size_t n = text.size();
    while (i < n) {
        const char c = text[i];
        if (isSpace(c) || c == ':') {
            ++i;
            continue;
        }
        if (c == '{' || c == '[') {
            std::string ownKey;
            if (!stack.empty() && stack.back().type == '{')
                ownKey = stack.back().key;
            if (stack.size() == 1) {
                if (JsonHead::Element* element = topElement())
                    element->type = c;
            } else if (stack.size() == 2) {
                if (JsonHead::Element* element = topElement())
                    element->onlyNumbers = false;
            }
            stack.push_back(Frame { c, c == '{', {}, std::move(ownKey), 0 });
            ++i;
            continue;
        }
        if (c == '}' || c == ']') {
            if (stack.empty() || (c == '}') != (stack.back().type == '{'))
                return out; // not JSON after all
            stack.pop_back();
            ++i;
            if (stack.empty()) {
                out.headCut = false;
                return out;
            }
            if (stack.size() == 1) {
                if (JsonHead::Element* element = topElement())
                    element->closed = true;
            }
            continue;
        }
        if (stack.empty())
            return out;
        Frame& frame = stack.back();
        if (c == ',') {
            if (frame.type == '{')
                frame.expectKey = true;
            else
                ++frame.index;
            ++i;
            if (stack.size() == 1 && frame.type == '[' && frame.index >= 2)
                return out; // the first two elements are all that is looked at
            continue;
        }
        if (c == '"') {
            std::string value;
            ++i;
            bool closed = false;
            while (i < n) {
                const char s = text[i++];
                if (s == '\\') {
                    if (i < n)
                        value.push_back(text[i++]);
                    continue;
                }
                if (s == '"') {
                    closed = true;
                    break;
                }
                if (value.size() < 256)
                    value.push_back(s);
            }
            if (!closed)
                return out;
            if (frame.type == '{' && frame.expectKey) {
                frame.expectKey = false;
                if (stack.size() == 1 && out.topKeys.size() < 64) {
                    out.topKeys.push_back(value);
                    if (value == "traceEvents")
                        return out; // Kineto writes its header (distributedInfo too) before the events
                }
                if (stack.size() == 2 && stack.front().type == '[' && frame.type == '{') {
                    if (JsonHead::Element* element = topElement())
                        element->keys.push_back(value);
                }
                frame.key = std::move(value);
            } else if (stack.size() == 1) {
                if (JsonHead::Element* element = topElement()) {
                    element->type = 'v';
                    element->closed = true;
                }
            } else if (stack.size() == 2 && frame.type == '[') {
                if (JsonHead::Element* element = topElement())
                    element->onlyNumbers = false;
            }
            continue;
        }
        // A literal: number, true, false or null.
        const std::size_t start = i;
        while (i < n && (isAlnum(text[i]) || text[i] == '-' || text[i] == '+' || text[i] == '.'))
            ++i;
        if (i == start)
            return out; // a character JSON does not allow here
        if (i == n)
            return out; // the literal may continue past the head
        const std::string_view literal = text.substr(start, i - start);
        const bool isNumber = isDigit(literal.front()) || literal.front() == '-';
        if (stack.size() == 1) {
            if (JsonHead::Element* element = topElement()) {
                element->type = 'v';
                element->closed = true;
            }
        } else if (stack.size() == 2 && frame.type == '[') {
            if (JsonHead::Element* element = topElement()) {
                if (isNumber)
                    ++element->numbers;
                else
                    element->onlyNumbers = false;
            }
        } else if (stack.size() == 2 && frame.type == '{' && frame.ownKey == "distributedInfo" && frame.key == "rank"
                   && isNumber && literal.size() <= 9 && literal.front() != '-') {
            qint64 value = 0;
            bool ok = true;
            for (const char d : literal) {
                if (!isDigit(d)) {
                    ok = false;
                    break;
                }
                value = value * 10 + (d - '0');
            }
            if (ok)
                out.distributedRank = value;
        }
    }
    return out;
}

bool elementHasKey(const JsonHead::Element& element, std::string_view key)
{
    return std::find(element.keys.begin(), element.keys.end(), key) != element.keys.end();
}

std::string inflateHead(std::string_view compressed, std::size_t maxOutput)
{
    std::string out;
    z_stream stream {};
    if (inflateInit2(&stream, 15 + 32) != Z_OK)
        return out;
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    stream.avail_in = uInt(compressed.size());
    int status = Z_OK;
    std::size_t produced = 0;
    while (status == Z_OK && stream.avail_in > 0 && produced < maxOutput) {
        out.resize(std::min(maxOutput, produced + 32 * 1024));
        stream.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
        stream.avail_out = uInt(out.size() - produced);
        status = inflate(&stream, Z_SYNC_FLUSH);
        produced = out.size() - stream.avail_out;
    }
    const bool usable = status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR;
    out.resize(usable ? produced : 0);
    inflateEnd(&stream);
    return out;
}

} // namespace runlens::importers::sniff
