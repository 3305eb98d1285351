#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace runlens::models::tensor {

/// Element types of the tensors training runs write (numpy, safetensors, MindSpore dumps). Complex types
/// are read as their real part where a single number is needed.
enum class DType : std::uint8_t {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    BFloat16,
    Float32,
    Float64,
    Complex64,
    Complex128,
    Float8E4M3,
    Float8E5M2,
};

/// Bytes per element.
int itemSize(DType type);
/// numpy-style name: "float32", "bfloat16", "float8_e4m3fn", ...
std::string_view dtypeName(DType type);
bool isFloating(DType type);

/// IEEE half to float (subnormals, infinities and NaN included).
float halfToFloat(std::uint16_t bits);
/// bfloat16 (the upper half of a float32) to float.
inline float bfloat16ToFloat(std::uint16_t bits)
{
    return std::bit_cast<float>(std::uint32_t(bits) << 16);
}
/// OCP FP8 formats: E4M3FN (no infinities, NaN = S.1111.111) and E5M2 (IEEE-like).
float float8E4M3ToFloat(std::uint8_t bits);
float float8E5M2ToFloat(std::uint8_t bits);

/// One element at `p` as a double; `swap` when its byte order differs from this machine's. Complex
/// values give their real part.
double loadElement(const std::byte* p, DType type, bool swap);

} // namespace runlens::models::tensor
