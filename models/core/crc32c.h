#pragma once

#include <cstddef>
#include <cstdint>

namespace runlens::models {

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) as TFRecord framing uses it.
///
/// All functions take and return finished CRC values (initial value and final xor applied), so a CRC can
/// be extended over several pieces: `crc32cExtend(crc32c(a, n), b, m) == crc32c(ab, n + m)`.
/// `crc32cExtend` uses the SSE 4.2 `crc32` instruction when the CPU has it and slice-by-8 tables otherwise;
/// the two implementations are exposed so that tests can compare them.

/// CRC-32C of `size` bytes.
std::uint32_t crc32c(const void* data, std::size_t size);
/// CRC-32C of the concatenation of the bytes `crc` was computed over and `size` more bytes.
std::uint32_t crc32cExtend(std::uint32_t crc, const void* data, std::size_t size);

/// Portable slice-by-8 implementation.
std::uint32_t crc32cExtendTable(std::uint32_t crc, const void* data, std::size_t size);
/// SSE 4.2 implementation; only call it when crc32cHardwareAvailable() is true.
std::uint32_t crc32cExtendHardware(std::uint32_t crc, const void* data, std::size_t size);
/// Whether this CPU (and this build) has the hardware implementation.
bool crc32cHardwareAvailable();

constexpr std::uint32_t kCrc32cMaskDelta = 0xa282ead8u;

/// TFRecord stores CRCs masked (rotated right by 15 bits plus a constant) because a CRC over data that
/// itself contains CRCs is weak.
constexpr std::uint32_t maskCrc32c(std::uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + kCrc32cMaskDelta;
}

constexpr std::uint32_t unmaskCrc32c(std::uint32_t masked)
{
    const std::uint32_t rotated = masked - kCrc32cMaskDelta;
    return (rotated >> 17) | (rotated << 15);
}

/// The masked CRC-32C of `size` bytes, as stored in a TFRecord.
inline std::uint32_t maskedCrc32c(const void* data, std::size_t size)
{
    return maskCrc32c(crc32c(data, size));
}

} // namespace runlens::models
