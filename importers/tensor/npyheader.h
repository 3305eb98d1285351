#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::tensor {

/// The header of a numpy `.npy` file (format versions 1.0, 2.0 and 3.0): element type, layout, shape and
/// where the data starts. Only the header is read here; the Tensor inspector reads the data from
/// `dataOffset` on. Plain C++ so it can run on any thread and in command-line tools.
/// NpyHeader::typeCode of a type numpy extensions write by name (`bfloat16`, `float8_e4m3fn`,
/// `float8_e5m2`); NpyHeader::dtype holds the name.
inline constexpr char kExtensionTypeCode = 'E';

struct NpyHeader
{
    int majorVersion = 0;
    int minorVersion = 0;
    std::string descr; ///< the dict's `descr` as written ("<f4", "|b1", ">i8")
    char byteOrder = '|'; ///< '<' little, '>' big, '|' not applicable (one-byte types)
    char typeCode = 0; ///< numpy kind: 'f', 'i', 'u', 'b', 'c', 'U', 'S', 'V', ...
    std::int64_t itemSize = 0; ///< bytes per element
    std::string dtype; ///< numpy name: "float32", "int64", "bool", "float16", "complex64", "<U5" for others
    bool fortranOrder = false;
    std::vector<std::int64_t> shape; ///< empty for a scalar
    std::int64_t dataOffset = 0; ///< bytes before the data (magic + lengths + dict + padding)
    std::int64_t dataSize = 0; ///< elementCount() * itemSize

    std::int64_t elementCount() const;
    /// "float32[3,4]", "int64[]" for a scalar.
    std::string text() const;
};

/// A parsed header, or what is wrong with it (`error` names the file when a path was given).
struct NpyHeaderResult
{
    std::optional<NpyHeader> header;
    std::string error;
};

/// Parses the header at the start of `bytes` (at least the whole header; the data need not be there) of a
/// file of `fileSize` bytes, which the data must fit in exactly or be followed by nothing shorter.
/// `fileName` only goes into error messages.
NpyHeaderResult parseNpyHeader(std::string_view bytes, std::int64_t fileSize, std::string_view fileName = {});
/// Reads and parses the header of the file at `path` without reading its data.
NpyHeaderResult readNpyHeader(const std::string& path);

} // namespace runlens::importers::tensor
