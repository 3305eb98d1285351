#include "models/tensor/dtype.h"

#include <cmath>
#include <cstddef>
#include <limits>

namespace runlens::models::tensor {

namespace {

template<typename T> T load(const std::byte* p, bool swap)
{
    if constexpr (sizeof(T) == 1) {
        T value;
        std::memcpy(&value, p, 1);
        return value;
    } else {
        using U = std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                     std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;
        U bits;
        std::memcpy(&bits, p, sizeof bits);
        if (swap) {
            if constexpr (sizeof(T) == 2)
                bits = U(__builtin_bswap16(bits));
            else if constexpr (sizeof(T) == 4)
                bits = __builtin_bswap32(bits);
            else
                bits = __builtin_bswap64(bits);
        }
        return std::bit_cast<T>(bits);
    }
}

} // namespace

int itemSize(DType type)
{
    switch (type) {
    case DType::Bool:
    case DType::Int8:
    case DType::UInt8:
    case DType::Float8E4M3:
    case DType::Float8E5M2:
        return 1;
    case DType::Int16:
    case DType::UInt16:
    case DType::Float16:
    case DType::BFloat16:
        return 2;
    case DType::Int32:
    case DType::UInt32:
    case DType::Float32:
        return 4;
    case DType::Int64:
    case DType::UInt64:
    case DType::Float64:
    case DType::Complex64:
        return 8;
    case DType::Complex128:
        return 16;
    }
    return 1;
}

std::string_view dtypeName(DType type)
{
    switch (type) {
    case DType::Bool:
        return "bool";
    case DType::Int8:
        return "int8";
    case DType::Int16:
        return "int16";
    case DType::Int32:
        return "int32";
    case DType::Int64:
        return "int64";
    case DType::UInt8:
        return "uint8";
    case DType::UInt16:
        return "uint16";
    case DType::UInt32:
        return "uint32";
    case DType::UInt64:
        return "uint64";
    case DType::Float16:
        return "float16";
    case DType::BFloat16:
        return "bfloat16";
    case DType::Float32:
        return "float32";
    case DType::Float64:
        return "float64";
    case DType::Complex64:
        return "complex64";
    case DType::Complex128:
        return "complex128";
    case DType::Float8E4M3:
        return "float8_e4m3fn";
    case DType::Float8E5M2:
        return "float8_e5m2";
    }
    return "unknown";
}

bool isFloating(DType type)
{
    switch (type) {
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:
    case DType::Complex128:
    case DType::Float8E4M3:
    case DType::Float8E5M2:
        return true;
    default:
        return false;
    }
}

float halfToFloat(std::uint16_t bits)
{
    const std::uint32_t sign = std::uint32_t(bits >> 15) << 31;
    const int exponent = (bits >> 10) & 0x1f;
    const std::uint32_t mantissa = bits & 0x3ff;
    if (exponent == 0x1f)
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    if (exponent == 0) {
        const float value = std::ldexp(float(mantissa), -24);
        return sign ? -value : value;
    }
    return std::bit_cast<float>(sign | (std::uint32_t(exponent + 112) << 23) | (mantissa << 13));
}

float float8E4M3ToFloat(std::uint8_t bits)
{
    const bool negative = bits & 0x80;
    const int exponent = (bits >> 3) & 0xf;
    const int mantissa = bits & 0x7;
    if (exponent == 0xf && mantissa == 0x7)
        return std::numeric_limits<float>::quiet_NaN();
    const float value
        = exponent == 0 ? std::ldexp(float(mantissa), -9) : std::ldexp(1.0f + float(mantissa) / 8.0f, exponent - 7);
    return negative ? -value : value;
}

float float8E5M2ToFloat(std::uint8_t bits)
{
    // The upper byte of an IEEE half.
    return halfToFloat(std::uint16_t(bits) << 8);
}

double loadElement(const std::byte* p, DType type, bool swap)
{
    switch (type) {
    case DType::Bool:
        return std::to_integer<std::uint8_t>(*p) != 0 ? 1.0 : 0.0;
    case DType::Int8:
        return load<std::int8_t>(p, false);
    case DType::Int16:
        return load<std::int16_t>(p, swap);
    case DType::Int32:
        return load<std::int32_t>(p, swap);
    case DType::Int64:
        return double(load<std::int64_t>(p, swap));
    case DType::UInt8:
        return load<std::uint8_t>(p, false);
    case DType::UInt16:
        return load<std::uint16_t>(p, swap);
    case DType::UInt32:
        return load<std::uint32_t>(p, swap);
    case DType::UInt64:
        return double(load<std::uint64_t>(p, swap));
    case DType::Float16:
        return halfToFloat(load<std::uint16_t>(p, swap));
    case DType::BFloat16:
        return bfloat16ToFloat(load<std::uint16_t>(p, swap));
    case DType::Float32:
    case DType::Complex64:
        return load<float>(p, swap);
    case DType::Float64:
    case DType::Complex128:
        return load<double>(p, swap);
    case DType::Float8E4M3:
        return float8E4M3ToFloat(std::to_integer<std::uint8_t>(*p));
    case DType::Float8E5M2:
        return float8E5M2ToFloat(std::to_integer<std::uint8_t>(*p));
    }
    return 0.0;
}

} // namespace runlens::models::tensor
