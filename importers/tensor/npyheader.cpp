#include "importers/tensor/npyheader.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>

namespace runlens::importers::tensor {

namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);
// numpy itself refuses headers above this size unless told otherwise; a larger one is damage, not data.
constexpr std::int64_t kMaxHeaderLength = 1 << 20;
constexpr int kMaxRank = 64;

std::string withFile(std::string_view fileName, const std::string& message)
{
    return fileName.empty() ? message : std::string(fileName) + ": " + message;
}

/// Reads the Python literal dict numpy writes: `{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }`.
class DictParser
{
public:
    explicit DictParser(std::string_view text)
        : m_text(text)
    { }

    bool parse(NpyHeader& header, std::string& error)
    {
        bool haveDescr = false, haveOrder = false, haveShape = false;
        skipSpace();
        if (!take('{'))
            return fail(error, "the header is not a dict");
        for (;;) {
            skipSpace();
            if (take('}'))
                break;
            std::string key;
            if (!readString(key))
                return fail(error, "expected a quoted key in the header dict");
            skipSpace();
            if (!take(':'))
                return fail(error, "expected ':' after '" + key + "' in the header dict");
            skipSpace();
            if (key == "descr") {
                if (peek() == '[')
                    return fail(error, "structured dtypes (a list as descr) are not supported");
                if (!readString(header.descr))
                    return fail(error, "descr is not a string");
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (!readBool(header.fortranOrder))
                    return fail(error, "fortran_order is not True or False");
                haveOrder = true;
            } else if (key == "shape") {
                if (!readShape(header.shape, error))
                    return false;
                haveShape = true;
            } else {
                return fail(error, "unexpected key '" + key + "' in the header dict");
            }
            skipSpace();
            if (take(','))
                continue;
            skipSpace();
            if (take('}'))
                break;
            return fail(error, "expected ',' or '}' in the header dict");
        }
        skipSpace();
        if (m_pos != m_text.size())
            return fail(error, "unexpected text after the header dict");
        if (!haveDescr || !haveOrder || !haveShape)
            return fail(error, "the header dict lacks descr, fortran_order or shape");
        return true;
    }

private:
    static bool fail(std::string& error, std::string message)
    {
        error = std::move(message);
        return false;
    }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    bool take(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    void skipSpace()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    bool readString(std::string& out)
    {
        const char quote = peek();
        if (quote != '\'' && quote != '"')
            return false;
        const std::size_t end = m_text.find(quote, m_pos + 1);
        if (end == std::string_view::npos)
            return false;
        out = std::string(m_text.substr(m_pos + 1, end - m_pos - 1));
        m_pos = end + 1;
        return true;
    }
    bool readBool(bool& out)
    {
        for (const auto& [word, value] : { std::pair { std::string_view("True"), true }, { "False", false } }) {
            if (m_text.substr(m_pos, word.size()) == word) {
                m_pos += word.size();
                out = value;
                return true;
            }
        }
        return false;
    }
    bool readShape(std::vector<std::int64_t>& shape, std::string& error)
    {
        if (!take('('))
            return fail(error, "shape is not a tuple");
        for (;;) {
            skipSpace();
            if (take(')'))
                return true;
            if (peek() < '0' || peek() > '9')
                return fail(error, "shape holds something other than a non-negative integer");
            std::int64_t value = 0;
            while (peek() >= '0' && peek() <= '9') {
                const int digit = m_text[m_pos++] - '0';
                if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
                    return fail(error, "a shape dimension does not fit in 64 bits");
                value = value * 10 + digit;
            }
            take('L'); // Python 2 long literals in old files
            if (shape.size() >= std::size_t(kMaxRank))
                return fail(error, "shape has more than 64 dimensions");
            shape.push_back(value);
            skipSpace();
            if (take(','))
                continue;
            skipSpace();
            if (take(')'))
                return true;
            return fail(error, "expected ',' or ')' in shape");
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// Fills byteOrder, typeCode, itemSize and dtype from descr; false when numpy would not give it a fixed size.
bool decodeDescr(NpyHeader& header, std::string& error)
{
    std::string_view d = header.descr;
    if (!d.empty() && (d.front() == '<' || d.front() == '>' || d.front() == '|' || d.front() == '=')) {
        header.byteOrder = d.front() == '=' ? '<' : d.front();
        d.remove_prefix(1);
    }
    if (d.empty()) {
        error = "descr '" + header.descr + "' names no type";
        return false;
    }
    // Element types of numpy extensions (ml_dtypes) written by name rather than by a type string; their
    // values are little-endian like every machine they come from.
    static constexpr struct
    {
        std::string_view name;
        std::int64_t size;
    } kNamed[] = { { "bfloat16", 2 }, { "float8_e4m3fn", 1 }, { "float8_e5m2", 1 } };
    for (const auto& named : kNamed) {
        if (d == named.name) {
            header.typeCode = kExtensionTypeCode;
            header.byteOrder = named.size > 1 ? '<' : '|';
            header.itemSize = named.size;
            header.dtype = std::string(named.name);
            return true;
        }
    }
    header.typeCode = d.front();
    std::string_view rest = d.substr(1);
    std::string_view unit;
    if (const std::size_t bracket = rest.find('['); bracket != std::string_view::npos) {
        unit = rest.substr(bracket); // datetime64/timedelta64 unit, "[ns]"
        rest = rest.substr(0, bracket);
    }
    std::int64_t size = 0;
    for (const char c : rest) {
        if (c < '0' || c > '9' || size > 1'000'000'000) {
            error = "descr '" + header.descr + "' is not a numpy type string";
            return false;
        }
        size = size * 10 + (c - '0');
    }
    if (header.typeCode == 'O') {
        error = "object arrays (pickled Python objects) are not supported";
        return false;
    }
    const std::string_view known("biufcUSVMm");
    if (rest.empty() || known.find(header.typeCode) == std::string_view::npos) {
        error = "descr '" + header.descr + "' is not a numpy type string";
        return false;
    }
    const char code = header.typeCode;
    header.itemSize = code == 'U' ? size * 4 : size; // numpy's U counts UCS-4 characters
    const auto bits = std::to_string(size * 8);
    switch (code) {
    case 'b':
        header.dtype = size == 1 ? "bool" : header.descr;
        break;
    case 'i':
        header.dtype = "int" + bits;
        break;
    case 'u':
        header.dtype = "uint" + bits;
        break;
    case 'f':
        header.dtype = "float" + bits;
        break;
    case 'c':
        header.dtype = "complex" + bits;
        break;
    case 'M':
        header.dtype = "datetime64" + std::string(unit);
        break;
    case 'm':
        header.dtype = "timedelta64" + std::string(unit);
        break;
    default: // strings and raw bytes keep numpy's short form: "<U5", "|S8", "|V16"
        header.dtype = header.descr;
    }
    return true;
}

} // namespace

std::int64_t NpyHeader::elementCount() const
{
    std::int64_t count = 1;
    for (const std::int64_t dim : shape)
        count *= dim;
    return count;
}

std::string NpyHeader::text() const
{
    std::string out = dtype + '[';
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i)
            out += ',';
        out += std::to_string(shape[i]);
    }
    return out + ']';
}

NpyHeaderResult parseNpyHeader(std::string_view bytes, std::int64_t fileSize, std::string_view fileName)
{
    NpyHeaderResult result;
    const auto fail = [&](const std::string& message) {
        result.error = withFile(fileName, message);
        return result;
    };
    if (bytes.size() < 10 || bytes.substr(0, kMagic.size()) != kMagic)
        return fail(bytes.size() < 10 && kMagic.substr(0, bytes.size()) == bytes
                        ? "the file ends inside the .npy header"
                        : "not a .npy file (the magic string \\x93NUMPY is missing)");
    NpyHeader header;
    header.majorVersion = static_cast<unsigned char>(bytes[6]);
    header.minorVersion = static_cast<unsigned char>(bytes[7]);
    if (header.majorVersion < 1 || header.majorVersion > 3)
        return fail("unsupported .npy format version " + std::to_string(header.majorVersion) + "."
                    + std::to_string(header.minorVersion));
    const auto byteAt = [&](std::size_t i) { return std::int64_t(static_cast<unsigned char>(bytes[i])); };
    std::int64_t headerLength = 0;
    std::int64_t prefix = 0;
    if (header.majorVersion == 1) {
        headerLength = byteAt(8) | byteAt(9) << 8;
        prefix = 10;
    } else {
        if (bytes.size() < 12)
            return fail("the file ends inside the .npy header");
        headerLength = byteAt(8) | byteAt(9) << 8 | byteAt(10) << 16 | byteAt(11) << 24;
        prefix = 12;
    }
    if (headerLength > kMaxHeaderLength)
        return fail("the .npy header claims " + std::to_string(headerLength) + " bytes, more than numpy writes");
    header.dataOffset = prefix + headerLength;
    if (std::int64_t(bytes.size()) < header.dataOffset || fileSize < header.dataOffset)
        return fail("the file ends inside the .npy header (" + std::to_string(header.dataOffset) + " bytes expected)");
    std::string error;
    DictParser parser(bytes.substr(std::size_t(prefix), std::size_t(headerLength)));
    if (!parser.parse(header, error) || !decodeDescr(header, error))
        return fail("bad .npy header: " + error);
    std::int64_t count = 1;
    bool overflow = false;
    for (const std::int64_t dim : header.shape) {
        if (dim != 0 && count > std::numeric_limits<std::int64_t>::max() / dim)
            overflow = true;
        else
            count *= dim;
    }
    if (!overflow && header.itemSize != 0 && count > std::numeric_limits<std::int64_t>::max() / header.itemSize)
        overflow = true;
    const bool empty = std::find(header.shape.begin(), header.shape.end(), 0) != header.shape.end();
    if (overflow && !empty)
        return fail("the shape in the .npy header describes more data than any file can hold");
    header.dataSize = empty ? 0 : count * header.itemSize;
    if (fileSize - header.dataOffset < header.dataSize)
        return fail("truncated: the header promises " + std::to_string(header.dataSize) + " data bytes but only "
                    + std::to_string(fileSize - header.dataOffset) + " follow it");
    result.header = std::move(header);
    return result;
}

NpyHeaderResult readNpyHeader(const std::string& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return { std::nullopt, path + ": cannot open the file" };
    const std::int64_t fileSize = in.tellg();
    in.seekg(0);
    // Most headers fit in the first 4 KiB; read the declared length when they do not.
    std::string bytes(std::size_t(std::min<std::int64_t>(fileSize, 4096)), '\0');
    in.read(bytes.data(), std::streamsize(bytes.size()));
    if (bytes.size() >= 12 && bytes.compare(0, kMagic.size(), kMagic) == 0) {
        const auto byteAt = [&](std::size_t i) { return std::int64_t(static_cast<unsigned char>(bytes[i])); };
        const std::int64_t end = bytes[6] == 1
            ? 10 + (byteAt(8) | byteAt(9) << 8)
            : 12 + (byteAt(8) | byteAt(9) << 8 | byteAt(10) << 16 | byteAt(11) << 24);
        if (end > std::int64_t(bytes.size()) && end <= fileSize && end <= kMaxHeaderLength + 12) {
            const std::size_t had = bytes.size();
            bytes.resize(std::size_t(end));
            in.read(bytes.data() + had, std::streamsize(end - std::int64_t(had)));
        }
    }
    if (!in && !in.eof())
        return { std::nullopt, path + ": cannot read the file" };
    return parseNpyHeader(bytes, fileSize, path);
}

} // namespace runlens::importers::tensor
