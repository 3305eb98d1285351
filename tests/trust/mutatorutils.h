#pragma once

#include <QByteArray>
#include <QString>
#include <QtEndian>

#include <algorithm>
#include <cstdint>
#include <vector>

// Byte-level helpers shared by the mutators of the different formats.

namespace runlens::test::detail {

inline constexpr std::uint64_t kHuge31 = 0x7fffffffu;
inline constexpr std::uint64_t kHuge32 = 0xffffffffu;
inline constexpr std::uint64_t kHuge40 = std::uint64_t(1) << 40;
inline constexpr std::uint64_t kHuge62 = std::uint64_t(1) << 62;
inline constexpr std::uint64_t kHuge63 = 0x7fffffffffffffffu;
inline constexpr std::uint64_t kHuge64 = ~std::uint64_t(0);

inline QString hex(std::uint64_t value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

template<typename T> void putLe(QByteArray& bytes, qsizetype offset, T value)
{
    qToLittleEndian<T>(value, bytes.data() + offset);
}

template<typename T> T getLe(const QByteArray& bytes, qsizetype offset)
{
    return qFromLittleEndian<T>(bytes.constData() + offset);
}

/// `count` indices spread evenly over [0, size): all of them when there are fewer.
inline std::vector<qsizetype> spread(qsizetype size, qsizetype count)
{
    std::vector<qsizetype> out;
    if (size <= 0)
        return out;
    if (size <= count) {
        for (qsizetype i = 0; i < size; ++i)
            out.push_back(i);
        return out;
    }
    for (qsizetype i = 0; i < count; ++i)
        out.push_back(i * size / count);
    return out;
}

inline void appendVarint(QByteArray& out, std::uint64_t value)
{
    while (value >= 0x80) {
        out.append(char((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.append(char(value));
}

inline bool readVarint(const unsigned char*& p, const unsigned char* end, std::uint64_t& value)
{
    value = 0;
    for (int shift = 0; shift < 70 && p < end; shift += 7) {
        const unsigned char byte = *p++;
        value |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

/// Frames whose content is worth inflating: the first few and the last.
inline std::vector<size_t> framePicks(size_t count, size_t first)
{
    std::vector<size_t> picks;
    for (size_t i = 0; i < std::min(count, first); ++i)
        picks.push_back(i);
    if (count > first)
        picks.push_back(count - 1);
    return picks;
}

} // namespace runlens::test::detail
