#include "models/core/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <nmmintrin.h>
#define RUNLENS_CRC32C_X86 1
#endif

namespace runlens::models {

namespace {

constexpr std::uint32_t kPolynomial = 0x82f63b78u; // reflected Castagnoli polynomial

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

// tables[0] is the classic byte-at-a-time table; tables[k][b] is the CRC contribution of byte b followed
// by k zero bytes, which lets the loop consume 8 bytes with 8 independent lookups.
constexpr Tables makeTables()
{
    Tables tables {};
    for (std::uint32_t b = 0; b < 256; ++b) {
        std::uint32_t crc = b;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc >> 1) ^ ((crc & 1u) ? kPolynomial : 0u);
        tables[0][b] = crc;
    }
    for (std::uint32_t b = 0; b < 256; ++b) {
        for (std::size_t k = 1; k < 8; ++k) {
            const std::uint32_t previous = tables[k - 1][b];
            tables[k][b] = (previous >> 8) ^ tables[0][previous & 0xffu];
        }
    }
    return tables;
}

constexpr Tables kTables = makeTables();

inline std::uint32_t loadLe32(const unsigned char* p)
{
    return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) | (std::uint32_t(p[3]) << 24);
}

#ifdef RUNLENS_CRC32C_X86
__attribute__((target("sse4.2"))) std::uint32_t extendSse42(std::uint32_t crc, const unsigned char* p, std::size_t size)
{
#if defined(__x86_64__)
    // Unaligned 8-byte loads cost nothing extra on CPUs with SSE 4.2, so there is no alignment prologue.
    std::uint64_t state = ~crc;
    while (size >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        state = _mm_crc32_u64(state, word);
        p += 8;
        size -= 8;
    }
    std::uint32_t state32 = static_cast<std::uint32_t>(state);
#else
    std::uint32_t state32 = ~crc;
    while (size >= 8) {
        std::uint32_t word;
        std::memcpy(&word, p, 4);
        state32 = _mm_crc32_u32(state32, word);
        p += 4;
        size -= 4;
    }
#endif
    if (size >= 4) {
        std::uint32_t word;
        std::memcpy(&word, p, 4);
        state32 = _mm_crc32_u32(state32, word);
        p += 4;
        size -= 4;
    }
    if (size >= 2) {
        std::uint16_t half;
        std::memcpy(&half, p, 2);
        state32 = _mm_crc32_u16(state32, half);
        p += 2;
        size -= 2;
    }
    if (size > 0)
        state32 = _mm_crc32_u8(state32, *p);
    return ~state32;
}

bool detectSse42()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}
#endif

using ExtendFunction = std::uint32_t (*)(std::uint32_t, const void*, std::size_t);

// Selected on first use rather than during static initialisation, so that callers in other
// translation units' static initialisers are safe.
ExtendFunction implementation()
{
    static const ExtendFunction selected = crc32cHardwareAvailable() ? &crc32cExtendHardware : &crc32cExtendTable;
    return selected;
}

} // namespace

std::uint32_t crc32cExtendTable(std::uint32_t crc, const void* data, std::size_t size)
{
    const auto* p = static_cast<const unsigned char*>(data);
    std::uint32_t state = ~crc;
    while (size > 0 && (reinterpret_cast<std::uintptr_t>(p) & 3u) != 0) {
        state = (state >> 8) ^ kTables[0][(state ^ *p++) & 0xffu];
        --size;
    }
    while (size >= 8) {
        const std::uint32_t low = loadLe32(p) ^ state;
        const std::uint32_t high = loadLe32(p + 4);
        state = kTables[7][low & 0xffu] ^ kTables[6][(low >> 8) & 0xffu] ^ kTables[5][(low >> 16) & 0xffu]
            ^ kTables[4][low >> 24] ^ kTables[3][high & 0xffu] ^ kTables[2][(high >> 8) & 0xffu]
            ^ kTables[1][(high >> 16) & 0xffu] ^ kTables[0][high >> 24];
        p += 8;
        size -= 8;
    }
    while (size > 0) {
        state = (state >> 8) ^ kTables[0][(state ^ *p++) & 0xffu];
        --size;
    }
    return ~state;
}

std::uint32_t crc32cExtendHardware(std::uint32_t crc, const void* data, std::size_t size)
{
#ifdef RUNLENS_CRC32C_X86
    return extendSse42(crc, static_cast<const unsigned char*>(data), size);
#else
    return crc32cExtendTable(crc, data, size);
#endif
}

bool crc32cHardwareAvailable()
{
#ifdef RUNLENS_CRC32C_X86
    static const bool available = detectSse42();
    return available;
#else
    return false;
#endif
}

std::uint32_t crc32cExtend(std::uint32_t crc, const void* data, std::size_t size)
{
    return implementation()(crc, data, size);
}

std::uint32_t crc32c(const void* data, std::size_t size)
{
    return implementation()(0, data, size);
}

} // namespace runlens::models
