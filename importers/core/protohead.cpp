#include "importers/core/protohead.h"

#include "importers/core/sniffstrings.h"

#include <algorithm>

namespace runlens::importers::sniff {

std::optional<quint64> readVarint(std::string_view s, std::size_t& pos)
{
    quint64 value = 0;
    for (int shift = 0; shift < 64 && pos < s.size(); shift += 7) {
        const auto byte = quint8(s[pos++]);
        value |= quint64(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return value;
    }
    return std::nullopt;
}

bool readField(std::string_view s, std::size_t& pos, WireField& field)
{
    if (pos >= s.size())
        return false;
    const auto tag = readVarint(s, pos);
    if (!tag || (*tag >> 3) == 0 || (*tag >> 3) > (1u << 29))
        return false;
    field = {};
    field.number = quint32(*tag >> 3);
    field.wireType = int(*tag & 7);
    switch (field.wireType) {
    case 0: {
        const auto v = readVarint(s, pos);
        if (!v)
            return false;
        field.varint = *v;
        field.complete = true;
        return true;
    }
    case 1:
    case 5: {
        const std::size_t width = field.wireType == 1 ? 8 : 4;
        field.complete = pos + width <= s.size();
        pos = std::min(s.size(), pos + width);
        return true;
    }
    case 2: {
        const auto length = readVarint(s, pos);
        if (!length)
            return false;
        field.varint = *length;
        const std::size_t available = s.size() - pos;
        field.complete = *length <= available;
        const std::size_t visible = field.complete ? std::size_t(*length) : available;
        field.bytes = s.substr(pos, visible);
        pos += visible;
        return true;
    }
    default:
        return false;
    }
}

bool looksLikePaddleProgram(std::string_view head, bool named)
{
    std::size_t pos = 0;
    WireField block;
    if (!readField(head, pos, block) || block.number != 1 || block.wireType != 2)
        return false;
    std::size_t inner = 0;
    WireField idx;
    WireField parent;
    if (!readField(block.bytes, inner, idx) || idx.number != 1 || idx.wireType != 0 || idx.varint != 0)
        return false;
    if (readField(block.bytes, inner, parent) && parent.number == 2 && parent.wireType == 0)
        return parent.varint == ~quint64(0);
    return named;
}

bool looksLikeMindIr(std::string_view head, bool named)
{
    std::size_t pos = 0;
    WireField field;
    if (!readField(head, pos, field) || field.number != 1 || field.wireType != 2 || !field.complete
        || field.bytes.empty() || field.bytes.size() > 32)
        return false;
    for (const char c : field.bytes) {
        if (!(c == '.' || (c >= '0' && c <= '9')))
            return false;
    }
    bool mindspore = false;
    while (readField(head, pos, field)) {
        if (field.number == 7)
            return field.wireType == 2 && (named || mindspore);
        if (field.number < 2 || field.number > 6 || field.wireType != 2 || !isPrintableText(field.bytes))
            return false;
        if (field.number == 2)
            mindspore = field.bytes == "MindSpore";
    }
    // The head ends inside the header strings (a long doc_string).
    return pos >= head.size() && (named || mindspore);
}

ProtoGuess guessModelProto(std::string_view head)
{
    std::size_t pos = 0;
    WireField field;
    if (!readField(head, pos, field) || field.number != 1 || field.wireType != 0 || field.varint < 1
        || field.varint > 64)
        return ProtoGuess::None;
    int onnxVotes = 0;
    int anfVotes = 0;
    int fields = 0;
    while (fields < 8 && readField(head, pos, field)) {
        ++fields;
        switch (field.number) {
        case 2: // producer_name (ONNX) or domain (anf_ir): both printable strings
            if (field.wireType != 2 || !isPrintableText(field.bytes) || field.varint > 4096)
                return ProtoGuess::None;
            break;
        case 3:
            if (field.wireType == 2 && isPrintableText(field.bytes))
                ++onnxVotes; // producer_version
            else if (field.wireType == 0)
                ++anfVotes; // model_version
            else
                return ProtoGuess::None;
            break;
        case 4:
            if (field.wireType != 2)
                return ProtoGuess::None;
            if (!field.bytes.empty() && quint8(field.bytes.front()) == 0x0a && !isPrintableText(field.bytes))
                ++anfVotes; // graph message
            else if (isPrintableText(field.bytes))
                ++onnxVotes; // domain string
            break;
        case 5:
        case 6:
        case 7:
        case 8:
        case 14:
        case 20:
        case 25:
            if ((field.number == 5) != (field.wireType == 0))
                return ProtoGuess::None;
            ++onnxVotes;
            break;
        default:
            return ProtoGuess::None;
        }
        if (onnxVotes && anfVotes)
            return ProtoGuess::None;
    }
    if (fields == 0)
        return ProtoGuess::None;
    if (onnxVotes)
        return ProtoGuess::Onnx;
    if (anfVotes)
        return ProtoGuess::AnfIr;
    return ProtoGuess::Ambiguous;
}

ProtoGuess guessBareGraph(std::string_view head)
{
    std::size_t pos = 0;
    WireField node;
    if (!readField(head, pos, node) || node.number != 1 || node.wireType != 2 || node.bytes.size() < 2)
        return ProtoGuess::None;
    std::size_t inner = 0;
    WireField first;
    WireField second;
    if (!readField(node.bytes, inner, first) || first.wireType != 2)
        return ProtoGuess::None;
    const bool haveSecond = readField(node.bytes, inner, second);
    if (first.number == 1) {
        if (!first.bytes.empty() && quint8(first.bytes.front()) == 0x0a) {
            std::size_t nested = 0;
            WireField inputName;
            if (readField(first.bytes, nested, inputName) && inputName.number == 1 && inputName.wireType == 2
                && isPrintableText(inputName.bytes))
                return ProtoGuess::AnfIr;
            return ProtoGuess::None;
        }
        if (isPrintableText(first.bytes) && first.complete && haveSecond && second.number == 2 && second.wireType == 2
            && isPrintableText(second.bytes))
            return ProtoGuess::TfGraphDef;
        return ProtoGuess::None;
    }
    if (first.number == 2 && isPrintableText(first.bytes) && haveSecond && second.number == 3 && second.wireType == 2
        && isPrintableText(second.bytes))
        return ProtoGuess::AnfIr;
    return ProtoGuess::None;
}

bool looksLikeMetaGraphDef(std::string_view head)
{
    std::size_t pos = 0;
    WireField top;
    if (!readField(head, pos, top) || top.wireType != 2 || top.bytes.empty())
        return false;
    if (top.number == 2)
        return guessBareGraph(top.bytes) == ProtoGuess::TfGraphDef;
    if (top.number != 1)
        return false;
    std::size_t inner = 0;
    WireField first;
    if (!readField(top.bytes, inner, first))
        return false;
    if (first.number == 7)
        return first.wireType == 0 && first.varint <= 1;
    if (first.wireType != 2 || first.number > 6)
        return false;
    if (first.number == 2 || first.number == 3) {
        // stripped_op_list: OpList { repeated OpDef op = 1 } with OpDef { string name = 1 ... };
        // any_info: Any { string type_url = 1; bytes value = 2 }.
        std::size_t nested = 0;
        WireField item;
        if (!readField(first.bytes, nested, item) || item.number != 1 || item.wireType != 2)
            return false;
        if (first.number == 3)
            return !item.bytes.empty() && isPrintableText(item.bytes);
        std::size_t deeper = 0;
        WireField name;
        return readField(item.bytes, deeper, name) && name.number == 1 && name.wireType == 2 && !name.bytes.empty()
            && isPrintableText(name.bytes);
    }
    return isPrintableText(first.bytes);
}

} // namespace runlens::importers::sniff
