#include "filesniffer.h"

#include "summary/crc32c.h"

#include <zlib.h>

#include <algorithm>
#include <string>
#include <vector>

namespace runlens {

namespace {

// ---------------------------------------------------------------------------------------------------------------
// Small string helpers on byte views (file names are bytes; no QString in the hot path).

char lowerAscii(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

std::string toLower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = lowerAscii(c);
    return out;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isAlnum(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view skipSpace(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return s.substr(i);
}

std::string_view skipBomAndSpace(std::string_view s)
{
    if (startsWith(s, "\xEF\xBB\xBF"))
        s.remove_prefix(3);
    return skipSpace(s);
}

/// Lower-cased extension after the last dot ("" when there is none; dot files have none).
std::string_view extensionOf(std::string_view lowerName)
{
    const std::size_t dot = lowerName.rfind('.');
    if (dot == std::string_view::npos || dot == 0)
        return {};
    return lowerName.substr(dot + 1);
}

quint64 readLe64(const char* p)
{
    quint64 v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | quint8(p[i]);
    return v;
}

quint32 readLe32(const char* p)
{
    quint32 v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | quint8(p[i]);
    return v;
}

/// Text heuristics: no NUL bytes and almost no other control characters. UTF-8 passes.
bool looksLikeText(std::string_view s)
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

bool isPrintableText(std::string_view s)
{
    for (const char ch : s) {
        const auto c = quint8(ch);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Protobuf wire format, just enough to look at the first fields of a message.

struct WireField
{
    quint32 number = 0;
    int wireType = -1;
    quint64 varint = 0; ///< value of a varint field, length of a length-delimited one
    std::string_view bytes; ///< the part of a length-delimited payload present in the buffer
    bool complete = false; ///< the whole field is inside the buffer
};

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

/// Reads the field at `pos`; returns false at the end of the buffer or on a wire type that cannot occur.
/// A length-delimited field may run past the buffer: its visible part is returned, `pos` goes to the end.
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

// ---------------------------------------------------------------------------------------------------------------
// Name patterns: '#' matches one or more digits (the last one is captured as the rank), '*' anything.

bool globMatch(std::string_view pattern, std::string_view name, std::optional<int>& number)
{
    if (pattern.empty())
        return name.empty();
    const char p = pattern.front();
    if (p == '*') {
        for (std::size_t skip = 0; skip <= name.size(); ++skip) {
            if (globMatch(pattern.substr(1), name.substr(skip), number))
                return true;
        }
        return false;
    }
    if (p == '#') {
        std::size_t digits = 0;
        while (digits < name.size() && isDigit(name[digits]))
            ++digits;
        for (std::size_t take = digits; take >= 1; --take) {
            std::optional<int> inner;
            if (globMatch(pattern.substr(1), name.substr(take), inner)) {
                if (inner) {
                    number = inner;
                } else if (take <= 9) {
                    int value = 0;
                    for (std::size_t i = 0; i < take; ++i)
                        value = value * 10 + (name[i] - '0');
                    number = value;
                }
                return true;
            }
        }
        return false;
    }
    if (name.empty() || name.front() != p)
        return false;
    return globMatch(pattern.substr(1), name.substr(1), number);
}

struct NamePattern
{
    const char* pattern;
    bool needsProfilerFolder; ///< a generic name, only trusted inside a profiler output folder
};

// MindSpore profiler tables (CSV and space/comma separated TXT), MindInsight and MindSpore 2.3+ layouts.
constexpr NamePattern kProfilerTables[] = {
    { "aicore_intermediate_#_type.csv", false },
    { "aicore_intermediate_#_detail.csv", false },
    { "aicpu_intermediate_#.csv", false },
    { "framework_raw_#.csv", false },
    { "step_trace_raw_#_detail_time.csv", false },
    { "minddata_pipeline_raw_#.csv", false },
    { "minddata_pipeline_summary_#.csv", false },
    { "hccl_raw_#.csv", false },
    { "ascend_cluster_analyse_*_#.csv", false },
    { "cpu_op_type_info_#.csv", false },
    { "cpu_op_detail_info_#.csv", false },
    { "gpu_op_type_info_#.csv", false },
    { "gpu_op_detail_info_#.csv", false },
    { "gpu_activity_data_#.csv", false },
    { "operator_memory_#.csv", false },
    { "flops_#.txt", false },
    { "output_timeline_data_#.txt", false },
    { "output_op_compute_time_#.txt", false },
    { "output_op_compute_time_detail_#.txt", false },
    { "min_cycle_counter_#.txt", false },
    { "device_queue_profiling_#.txt", false },
    { "dataset_iterator_profiling_#.txt", false },
    { "minddata_aicpu_#.txt", false },
    { "minddata_getnext_profiling_#.txt", false },
    { "cpu_ms_memory_record_#.txt", false },
    { "kernel_details.csv", true },
    { "op_statistic.csv", true },
    { "op_summary*.csv", true },
    { "step_trace_time.csv", true },
    { "memory_record.csv", true },
    { "operator_memory.csv", true },
    { "npu_module_mem.csv", true },
    { "dataset.csv", true },
    { "api_statistic.csv", true },
};

// MindSpore profiler JSON documents that are not Chrome traces (traces are recognised by content).
constexpr NamePattern kProfilerJson[] = {
    { "flops_summary_#.json", false },
    { "flops_scope_#.json", false },
    { "ascend_timeline_summary_#.json", false },
    { "gpu_timeline_summary_#.json", false },
    { "timeline_summary_#.json", false },
    { "step_trace_point_info.json", false },
    { "step_trace_point_info_#.json", false },
    { "pipeline_profiling_#.json", false },
    { "minddata_cpu_utilization_#.json", false },
    { "minddata_pipeline_summary_#.json", false },
    { "memory_usage_summary_#.json", false },
    { "memory_usage_details_#.json", false },
    { "dynamic_shape_info_#.json", false },
    { "profiler_info_#.json", false },
    { "parallel_strategy*.json", false },
    { "profiler_metadata.json", true },
    { "communication.json", true },
    { "communication_matrix.json", true },
};

/// A MindSpore/Ascend profiler output folder: `profiler*`, `ASCEND_PROFILER_OUTPUT`, `PROF_*`,
/// `{host}_{pid}_{ts}_ascend_ms` anywhere above the file.
bool inProfilerFolder(std::string_view lowerDirectory)
{
    std::size_t start = 0;
    while (start <= lowerDirectory.size()) {
        std::size_t end = lowerDirectory.find('/', start);
        if (end == std::string_view::npos)
            end = lowerDirectory.size();
        const std::string_view part = lowerDirectory.substr(start, end - start);
        if (contains(part, "profiler") || startsWith(part, "prof_") || endsWith(part, "_ascend_ms"))
            return true;
        start = end + 1;
    }
    return false;
}

template<std::size_t N>
bool matchNames(const NamePattern (&patterns)[N], std::string_view lowerName, bool profilerFolder,
                std::optional<int>& rank)
{
    for (const NamePattern& entry : patterns) {
        if (entry.needsProfilerFolder && !profilerFolder)
            continue;
        std::optional<int> number;
        if (globMatch(entry.pattern, lowerName, number)) {
            rank = number;
            return true;
        }
    }
    return false;
}

// ---------------------------------------------------------------------------------------------------------------
// A tolerant scanner over the first bytes of a JSON document. It never builds a tree: it records the keys
// of the top-level object, the shape of the first elements of a top-level array, and Kineto's
// `distributedInfo.rank`, and stops where the head ends.

struct JsonHead
{
    char top = 0; ///< '{' or '[', 0 when the text does not start a JSON container
    std::vector<std::string> topKeys;
    bool headCut = true; ///< the text ended before the top-level value closed

    struct Element
    {
        char type = 0; ///< '{', '[', 'v' (scalar) or 0 when not seen
        bool closed = false;
        std::vector<std::string> keys; ///< for objects
        int numbers = 0; ///< for arrays: number of numeric items
        bool onlyNumbers = true; ///< for arrays: nothing but numbers inside
    };
    Element elements[2]; ///< first two elements of a top-level array

    std::optional<qint64> distributedRank;

    bool hasTopKey(std::string_view key) const
    {
        return std::find(topKeys.begin(), topKeys.end(), key) != topKeys.end();
    }
};

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

// ---------------------------------------------------------------------------------------------------------------
// gzip: inflate the beginning of the stream only.

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

// ---------------------------------------------------------------------------------------------------------------
// Binary formats.

constexpr std::size_t kInflateLimit = 1024 * 1024;

struct NameFacts
{
    std::string lower; ///< lower-cased base name
    std::string_view ext; ///< extension of `lower`
    bool tfevents = false;
    bool mindsporeSummary = false; ///< `summary.<digits>` in the name
    bool msSuffix = false; ///< ends with `_MS`
    bool lineageSuffix = false; ///< ends with `_lineage`
    bool vdlrecords = false;
};

NameFacts nameFacts(std::string_view fileName)
{
    NameFacts facts;
    facts.lower = toLower(fileName);
    facts.ext = extensionOf(facts.lower);
    facts.tfevents = contains(facts.lower, "tfevents");
    for (std::size_t at = facts.lower.find("summary."); at != std::string::npos;
         at = facts.lower.find("summary.", at + 1)) {
        const std::size_t digit = at + 8;
        if (digit < facts.lower.size() && isDigit(facts.lower[digit])) {
            facts.mindsporeSummary = true;
            break;
        }
    }
    facts.msSuffix = endsWith(fileName, "_MS");
    facts.lineageSuffix = endsWith(facts.lower, "_lineage");
    facts.vdlrecords = startsWith(facts.lower, "vdlrecords.") && contains(facts.lower, ".log");
    return facts;
}

/// Valid TFRecord framing of the first record: 8-byte length and the masked CRC-32C of those 8 bytes.
bool hasTfRecordFraming(std::string_view head)
{
    if (head.size() < 12)
        return false;
    const quint64 length = readLe64(head.data());
    if (length == 0 || length > (quint64(1) << 40))
        return false;
    return summary::maskedCrc32c(head.data(), 8) == readLe32(head.data() + 8);
}

/// The kind a summary stream's first record announces: `file_version` "brain.Event:N" (TensorBoard) or
/// `version` "MindSpore.Event:N" (MindSpore); both are field 3 strings of the Event message.
ArtifactKind summaryKindFromFirstRecord(std::string_view head)
{
    const quint64 length = readLe64(head.data());
    const std::string_view payload = head.substr(12, std::size_t(std::min<quint64>(length, head.size() - 12)));
    std::size_t pos = 0;
    WireField field;
    for (int i = 0; i < 4 && readField(payload, pos, field); ++i) {
        if (field.number == 3 && field.wireType == 2) {
            const std::string lower = toLower(field.bytes);
            if (startsWith(lower, "brain.event:"))
                return ArtifactKind::TensorBoardEvents;
            if (startsWith(lower, "mindspore.event:"))
                return ArtifactKind::MindSporeSummary;
            return ArtifactKind::Unknown;
        }
        if (field.number > 3)
            break;
    }
    return ArtifactKind::Unknown;
}

ArtifactKind sniffTfRecord(const NameFacts& name, std::string_view head)
{
    const ArtifactKind announced = summaryKindFromFirstRecord(head);
    if (announced != ArtifactKind::Unknown) {
        // A MindSpore version record in a file named `_lineage` still makes it a summary stream.
        return announced;
    }
    if (name.tfevents)
        return ArtifactKind::TensorBoardEvents;
    if (name.mindsporeSummary && name.msSuffix)
        return ArtifactKind::MindSporeSummary;
    if (name.mindsporeSummary && name.lineageSuffix)
        return ArtifactKind::MindSporeLineage;
    return ArtifactKind::Unknown; // a TFRecord of something else (a tf.data dataset, ...)
}

/// VisualDL records: 8-byte length, then a `visualdl.Record` whose first field is `values` (field 1).
bool hasVisualDlFraming(std::string_view head, qint64 fileSize)
{
    if (head.size() < 8)
        return false;
    const quint64 length = readLe64(head.data());
    if (length == 0 || length > (quint64(1) << 32) || length > quint64(fileSize))
        return false;
    return head.size() == 8 || quint8(head[8]) == 0x0a;
}

bool isNpy(std::string_view head)
{
    return head.size() >= 8 && startsWith(head, "\x93NUMPY") && head[6] >= 1 && head[6] <= 3;
}

bool isNpz(const NameFacts& name, std::string_view head)
{
    if (!startsWith(head, std::string_view("PK\x03\x04", 4)))
        return false;
    if (name.ext == "npz")
        return true;
    if (head.size() < 30)
        return false;
    const std::size_t nameLength = quint8(head[26]) | (std::size_t(quint8(head[27])) << 8);
    const std::string member = toLower(head.substr(30, nameLength));
    return endsWith(member, ".npy");
}

bool isSafetensors(const NameFacts& name, std::string_view head, qint64 fileSize)
{
    if (head.size() < 10)
        return false;
    const quint64 headerSize = readLe64(head.data());
    if (headerSize < 2 || headerSize > 100u * 1024 * 1024 || headerSize + 8 > quint64(fileSize))
        return false;
    const std::string_view header = head.substr(8, std::size_t(std::min<quint64>(headerSize, head.size() - 8)));
    if (header.front() != '{')
        return false;
    if (contains(header, "\"dtype\"") && contains(header, "\"data_offsets\""))
        return true;
    // A long `__metadata__` may push the tensor entries past the head; then the name decides.
    return name.ext == "safetensors" && header.size() < headerSize && startsWith(skipSpace(header.substr(1)), "\"");
}

enum class ProtoGuess { None, Onnx, AnfIr, TfGraphDef, Ambiguous };

/// ONNX ModelProto {ir_version=1 varint, producer_name=2, producer_version=3, domain=4 strings,
/// model_version=5, doc_string=6, graph=7, opset_import=8 ...} versus MindSpore anf_ir ModelProto
/// {ir_version=1 varint, domain=2 string, model_version=3 varint, graph=4 message}.
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

/// A bare graph: field 1 is a repeated node message. TF NodeDef starts with its printable `name` (1)
/// followed by `op` (2); a MindSpore NodeProto (anf_ir and debugger schemas) starts with `input` (1),
/// an InputProto message, or with `name` (2) then `op_type` (3) when it has no inputs.
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

// ---------------------------------------------------------------------------------------------------------------
// Text formats.

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

/// `[strict] (graph|digraph) [ID] {`
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

/// TorchScript `graph(%x : Float(...)) :` and torch.fx `graph():` dumps.
bool isTorchScriptGraph(std::string_view text)
{
    return startsWith(skipBomAndSpace(text), "graph(");
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

/// MindSpore `.ir` (1.x and 2.x) and 1.x `.dat` text: header lines, subgraph/funcgraph headers or CNode lines.
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

/// TensorFlow GraphDef in protobuf text format: `node {` first, with `op:` fields.
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

/// A header line: at least two delimited fields, one of them starting with a letter.
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

ArtifactKind sniffJson(std::string_view text, std::string_view jsonName, bool profilerFolder, SniffResult& result)
{
    const JsonHead json = scanJsonHead(text);
    if (json.top == '{') {
        if (json.hasTopKey("traceEvents") || json.hasTopKey("schemaVersion") || json.hasTopKey("deviceProperties")) {
            if (json.distributedRank && *json.distributedRank <= 0x7fffffff)
                result.contentRank = int(*json.distributedRank);
            else if (json.headCut && !json.hasTopKey("traceEvents"))
                result.wantsLongerHead = true;
            return ArtifactKind::ChromeTrace;
        }
    } else if (json.top == '[') {
        const JsonHead::Element& first = json.elements[0];
        const JsonHead::Element& second = json.elements[1];
        if (first.type == '{' && elementHasKey(first, "ph")
            && (elementHasKey(first, "ts") || elementHasKey(first, "name")))
            return ArtifactKind::ChromeTrace;
        const bool firstIsTuple = first.type == '[' && first.closed && first.onlyNumbers && first.numbers == 4;
        const bool secondFits
            = second.type == 0 || (second.type == '[' && second.onlyNumbers && (!second.closed || second.numbers == 4));
        if (firstIsTuple && secondFits)
            return ArtifactKind::MemoryTimeline;
    } else {
        return ArtifactKind::Unknown;
    }
    std::optional<int> rank;
    if (!jsonName.empty() && matchNames(kProfilerJson, jsonName, profilerFolder, rank)) {
        result.nameRank = rank;
        return ArtifactKind::ProfilerJson;
    }
    // A long first key (a metadata block, a log array) or a huge first event hid what decides.
    if (json.headCut && (json.top == '{' || !json.elements[0].closed))
        result.wantsLongerHead = true;
    return ArtifactKind::Unknown;
}

ArtifactKind sniffText(std::string_view text, const NameFacts& name, bool profilerFolder, SniffResult& result)
{
    const std::string_view trimmed = skipBomAndSpace(text);
    if (startsWith(trimmed, "{") || startsWith(trimmed, "["))
        return sniffJson(text, name.lower, profilerFolder, result);

    std::optional<int> rank;
    if ((name.ext == "csv" || name.ext == "txt") && matchNames(kProfilerTables, name.lower, profilerFolder, rank)) {
        result.nameRank = rank;
        return ArtifactKind::ProfilerCsv;
    }
    if (isTorchScriptGraph(text))
        return ArtifactKind::GraphTorchScript;
    if (isDot(text))
        return ArtifactKind::GraphDot;
    if (isGraphDefText(text))
        return ArtifactKind::GraphTensorFlow;
    if (isMindSporeIr(text))
        return ArtifactKind::GraphMindSporeIr;
    if ((name.ext == "csv" && hasCsvHeader(text, ',')) || (name.ext == "tsv" && hasCsvHeader(text, '\t')))
        return ArtifactKind::Table;
    return ArtifactKind::Unknown;
}

/// What the name alone suggests; used only to report files whose content disagrees.
ArtifactKind kindSuggestedByName(const NameFacts& name)
{
    if (name.tfevents)
        return ArtifactKind::TensorBoardEvents;
    if (name.mindsporeSummary && name.msSuffix)
        return ArtifactKind::MindSporeSummary;
    if (name.mindsporeSummary && name.lineageSuffix)
        return ArtifactKind::MindSporeLineage;
    if (name.vdlrecords)
        return ArtifactKind::VisualDlLog;
    if (name.ext == "onnx")
        return ArtifactKind::GraphOnnx;
    if (name.ext == "npy")
        return ArtifactKind::TensorNpy;
    if (name.ext == "npz")
        return ArtifactKind::TensorNpz;
    if (name.ext == "safetensors")
        return ArtifactKind::TensorSafetensors;
    if (endsWith(name.lower, ".pt.trace.json") || endsWith(name.lower, ".pt.trace.json.gz"))
        return ArtifactKind::ChromeTrace;
    return ArtifactKind::Unknown;
}

// Extensions of files that are never one of our kinds: not even opened.
constexpr std::string_view kSkippedExtensions[] = {
    "7z",   "a",      "avi",    "bak",  "bash",   "bat",  "bin",    "bmp",     "bz2",   "c",      "cc",   "cfg",
    "ckpt", "conf",   "cpp",    "css",  "cu",     "cuh",  "cxx",    "db",      "dll",   "doc",    "docx", "dylib",
    "egg",  "engine", "exe",    "flac", "gif",    "h",    "h5",     "hdf5",    "hh",    "hpp",    "htm",  "html",
    "ico",  "ini",    "ipynb",  "jar",  "joblib", "jpeg", "jpg",    "js",      "keras", "lock",   "log",  "md",
    "mjs",  "mkv",    "mov",    "mp3",  "mp4",    "o",    "ogg",    "parquet", "pdf",   "pickle", "pkl",  "plan",
    "png",  "ppt",    "pptx",   "pt",   "pth",    "py",   "pyc",    "pyd",     "pyi",   "pyo",    "rar",  "rst",
    "sh",   "so",     "sqlite", "svg",  "swp",    "tar",  "tflite", "tgz",     "tif",   "tiff",   "toml", "ts",
    "wav",  "webp",   "whl",    "xls",  "xlsx",   "xz",   "yaml",   "yml",     "zsh",   "zst",
};

bool isSkippedExtension(std::string_view ext)
{
    return std::find(std::begin(kSkippedExtensions), std::end(kSkippedExtensions), ext) != std::end(kSkippedExtensions);
}

} // namespace

bool FileSniffer::worthReading(std::string_view fileName)
{
    const NameFacts name = nameFacts(fileName);
    if (name.tfevents || name.mindsporeSummary || name.vdlrecords)
        return true;
    std::string_view ext = name.ext;
    if (ext == "gz") {
        const std::string_view inner = std::string_view(name.lower).substr(0, name.lower.size() - 3);
        ext = extensionOf(inner);
    }
    return !isSkippedExtension(ext);
}

std::optional<int> FileSniffer::rankFromName(std::string_view component)
{
    for (std::size_t at = 0; at + 4 < component.size(); ++at) {
        if (lowerAscii(component[at]) != 'r' || lowerAscii(component[at + 1]) != 'a'
            || lowerAscii(component[at + 2]) != 'n' || lowerAscii(component[at + 3]) != 'k')
            continue;
        if (at > 0 && isAlnum(component[at - 1]))
            continue;
        std::size_t i = at + 4;
        if (i < component.size() && (component[i] == '_' || component[i] == '-'))
            ++i;
        std::size_t digits = 0;
        int value = 0;
        while (i + digits < component.size() && isDigit(component[i + digits]) && digits < 9) {
            value = value * 10 + (component[i + digits] - '0');
            ++digits;
        }
        if (digits == 0 || (i + digits < component.size() && isDigit(component[i + digits])))
            continue;
        return value;
    }
    return std::nullopt;
}

SniffResult FileSniffer::sniff(std::string_view fileName, std::string_view directory, std::string_view head,
                               qint64 fileSize)
{
    SniffResult result;
    const NameFacts name = nameFacts(fileName);
    const bool profilerFolder = inProfilerFolder(toLower(directory));

    auto decide = [&](ArtifactKind kind) {
        result.kind = kind;
        if (kind == ArtifactKind::Unknown)
            result.expectedByName = kindSuggestedByName(name);
        return result;
    };

    if (head.empty() || fileSize <= 0)
        return decide(ArtifactKind::Unknown);

    if (isNpy(head))
        return decide(ArtifactKind::TensorNpy);
    if (startsWith(head, std::string_view("PK\x03\x04", 4)))
        return decide(isNpz(name, head) ? ArtifactKind::TensorNpz : ArtifactKind::Unknown);
    if (head.size() >= 2 && quint8(head[0]) == 0x1f && quint8(head[1]) == 0x8b) {
        // Compressed heads are inflated as far as they go (a 4 KiB head usually holds 20-60 KiB of JSON).
        const std::string text
            = inflateHead(head, std::clamp<std::size_t>(head.size() * 16, 256 * 1024, kInflateLimit));
        if (!looksLikeText(std::string_view(text).substr(0, 1024)))
            return decide(ArtifactKind::Unknown);
        // Profiler JSON names are not used for compressed files: MindSpore does not compress them.
        return decide(sniffJson(text, std::string_view(), profilerFolder, result));
    }
    if (hasTfRecordFraming(head))
        return decide(sniffTfRecord(name, head));
    if (name.vdlrecords && hasVisualDlFraming(head, fileSize))
        return decide(ArtifactKind::VisualDlLog);
    if (isSafetensors(name, head, fileSize))
        return decide(ArtifactKind::TensorSafetensors);

    // Binary protobuf graphs. An ONNX model starts with byte 0x08, which no text file does.
    const ProtoGuess model = guessModelProto(head);
    if (model == ProtoGuess::Onnx)
        return decide(ArtifactKind::GraphOnnx);
    if (model == ProtoGuess::Ambiguous) {
        if (name.ext == "onnx")
            return decide(ArtifactKind::GraphOnnx);
        if (name.ext == "pb")
            return decide(ArtifactKind::GraphAnfIr);
        return decide(ArtifactKind::Unknown);
    }
    if (name.ext == "pb") {
        // Non-graph protobufs MindSpore and TensorFlow write next to graphs.
        std::optional<int> unused;
        if (globMatch("memory_usage_#.pb", name.lower, unused) || endsWith(name.lower, ".xplane.pb")
            || name.lower == "saved_model.pb" || endsWith(name.lower, ".paddle_trace.pb"))
            return decide(ArtifactKind::Unknown);
        if (model == ProtoGuess::AnfIr)
            return decide(ArtifactKind::GraphAnfIr);
        const ProtoGuess bare = guessBareGraph(head);
        if (bare == ProtoGuess::TfGraphDef) {
            // Dump folders name their (MindSpore) graphs `ms_output_trace_code_graph_<id>.pb`.
            return decide(startsWith(name.lower, "ms_output_") ? ArtifactKind::GraphAnfIr
                                                               : ArtifactKind::GraphTensorFlow);
        }
        if (bare == ProtoGuess::AnfIr)
            return decide(ArtifactKind::GraphAnfIr);
    }

    if (looksLikeText(head.substr(0, 1024)))
        return decide(sniffText(head, name, profilerFolder, result));
    return decide(ArtifactKind::Unknown);
}

} // namespace runlens
