#include "importers/graph/protowire.h"

namespace runlens::importers::graph::wire {

namespace {

bool readVarint(std::string_view bytes, std::size_t& pos, std::uint64_t& value)
{
    value = 0;
    for (int shift = 0; shift < 64 && pos < bytes.size(); shift += 7) {
        const auto byte = static_cast<unsigned char>(bytes[pos++]);
        value |= std::uint64_t(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0)
            return true;
    }
    return false;
}

} // namespace

bool next(std::string_view bytes, std::size_t& pos, Field& field)
{
    const std::size_t start = pos;
    std::size_t p = pos;
    std::uint64_t tag = 0;
    if (p >= bytes.size() || !readVarint(bytes, p, tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
        return false;
    field = Field();
    field.begin = start;
    field.number = std::uint32_t(tag >> 3);
    field.wireType = int(tag & 7);
    switch (field.wireType) {
    case 0:
        if (!readVarint(bytes, p, field.varint))
            return false;
        break;
    case 1:
    case 5: {
        const std::size_t width = field.wireType == 1 ? 8 : 4;
        if (bytes.size() - p < width)
            return false;
        for (std::size_t k = 0; k < width; ++k)
            field.varint |= std::uint64_t(static_cast<unsigned char>(bytes[p + k])) << (8 * k);
        p += width;
        break;
    }
    case 2: {
        std::uint64_t length = 0;
        if (!readVarint(bytes, p, length) || length > bytes.size() - p)
            return false;
        field.dataBegin = p;
        field.dataSize = std::size_t(length);
        p += std::size_t(length);
        break;
    }
    default:
        return false; // groups (3, 4) are not used by any format we read
    }
    field.end = p;
    pos = p;
    return true;
}

bool cutField(std::string_view bytes, std::size_t pos, Field& field)
{
    std::uint64_t tag = 0;
    field = Field();
    field.begin = pos;
    if (!readVarint(bytes, pos, tag) || (tag >> 3) == 0)
        return false;
    field.number = std::uint32_t(tag >> 3);
    field.wireType = int(tag & 7);
    if (field.wireType != 2)
        return true;
    std::uint64_t length = 0;
    if (!readVarint(bytes, pos, length))
        return false;
    field.dataBegin = pos;
    field.dataSize = bytes.size() - pos;
    field.end = bytes.size();
    return true;
}

} // namespace runlens::importers::graph::wire
