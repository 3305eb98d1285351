#pragma once

#include "importers/core/importbudget.h"

#include <google/protobuf/io/coded_stream.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace runlens::importers::graph::wire {

// The field walker below never recurses: it reads one level of one message. Everything that descends into
// nested messages goes through protobuf with the nesting bounded by ImportLimits::kMaxDepth (parse(),
// mergeField()), so a hostile file nested a million levels deep is refused instead of exhausting the stack.

/// One field of a protobuf message as it sits in the bytes: enough to find where a value is stored (the
/// byte range of an ONNX initializer's data) and to salvage the complete fields of a truncated message.
struct Field
{
    std::uint32_t number = 0;
    int wireType = 0;
    std::uint64_t varint = 0; ///< wire type 0 (and the raw bits of fixed32/fixed64)
    std::size_t begin = 0; ///< offset of the tag
    std::size_t dataBegin = 0; ///< offset of the payload (length-delimited: after the length)
    std::size_t dataSize = 0; ///< payload bytes of a length-delimited field
    std::size_t end = 0; ///< offset after the field
};

/// Reads the field at `pos` of `bytes` and advances `pos`. False at the end of the bytes or when the
/// field is damaged or cut off (then `pos` is left at that field's start).
bool next(std::string_view bytes, std::size_t& pos, Field& field);

/// The payload of a length-delimited field.
inline std::string_view payload(std::string_view bytes, const Field& field)
{
    return bytes.substr(field.dataBegin, field.dataSize);
}

/// Merges one complete field (tag included) into `message`, nesting bounded by ImportLimits::kMaxDepth.
template<class Message> bool mergeField(Message& message, std::string_view bytes, const Field& field)
{
    if (field.end - field.begin > std::size_t(std::numeric_limits<int>::max()))
        return false;
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(bytes.data() + field.begin),
                                              int(field.end - field.begin));
    in.SetRecursionLimit(ImportLimits::kMaxDepth);
    return message.MergeFromCodedStream(&in) && in.ConsumedEntireMessage();
}

/// Parses all of `bytes` into `message` (cleared first), nesting bounded by ImportLimits::kMaxDepth. False
/// when the bytes are damaged, cut off, nested too deep or larger than protobuf's 2 GiB.
template<class Message> bool parse(Message& message, std::string_view bytes)
{
    message.Clear();
    if (bytes.size() > std::size_t(std::numeric_limits<int>::max()))
        return false;
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(bytes.data()), int(bytes.size()));
    in.SetRecursionLimit(ImportLimits::kMaxDepth);
    return message.MergeFromCodedStream(&in) && in.ConsumedEntireMessage();
}

/// The field cut off at `pos` (after next() returned false): its number and wire type, and for a
/// length-delimited field the bytes of its payload that are there. False when not even the tag and length
/// could be read.
bool cutField(std::string_view bytes, std::size_t pos, Field& field);

/// Merges the complete fields of a damaged or truncated message one by one, stopping at the first bad
/// one. Returns the offset where reading stopped (bytes.size() when everything was read).
template<class Message> std::size_t salvage(Message& message, std::string_view bytes)
{
    std::size_t pos = 0;
    Field field;
    while (next(bytes, pos, field)) {
        if (!mergeField(message, bytes, field))
            return field.begin;
    }
    return pos;
}

} // namespace runlens::importers::graph::wire
