#include "widgets/timeline/timelinecolors.h"

#include <array>
#include <cstdint>

namespace runlens::widgets::timeline {

namespace {

// Muted mid-tone hues: dense rows stay calm, labels stay readable, neighbours stay distinguishable.
constexpr std::array<QRgb, 20> kPalette = {
    0xff5b8fc7, 0xff6fb36b, 0xffe39a4c, 0xffd9676a, 0xff7fbfba, 0xffe8c95c, 0xffa984bd,
    0xffcf8fb0, 0xff9b7b66, 0xff8eaed9, 0xff97c98a, 0xffedb77e, 0xffe59597, 0xff5fa39d,
    0xffb7a0d4, 0xffc9a24a, 0xff7d9bb3, 0xffa3b86c, 0xffd0876f, 0xff8a8fc9,
};

} // namespace

QRgb timelineNameColor(std::string_view name)
{
    std::uint32_t hash = 2166136261u;
    for (char c : name) {
        hash ^= std::uint8_t(c);
        hash *= 16777619u;
    }
    hash ^= hash >> 15;
    return kPalette[hash % kPalette.size()];
}

QRgb timelineKindColor(models::trace::EventKind kind)
{
    using models::trace::EventKind;
    switch (kind) {
    case EventKind::CpuOp:
        return 0xff5b8fc7;
    case EventKind::Python:
        return 0xff8eaed9;
    case EventKind::UserAnnotation:
        return 0xffa984bd;
    case EventKind::Runtime:
        return 0xffe8c95c;
    case EventKind::Driver:
        return 0xffc9a24a;
    case EventKind::Kernel:
        return 0xff6fb36b;
    case EventKind::Memcpy:
        return 0xffe39a4c;
    case EventKind::Memset:
        return 0xffedb77e;
    case EventKind::GpuAnnotation:
        return 0xffb7a0d4;
    case EventKind::Memory:
        return 0xff7fbfba;
    case EventKind::Communication:
        return 0xffd9676a;
    case EventKind::Other:
        break;
    }
    return 0xff9aa3ad;
}

QRgb timelineTextColor(QRgb background)
{
    const int luma = (qRed(background) * 299 + qGreen(background) * 587 + qBlue(background) * 114) / 1000;
    return luma > 150 ? 0xff202124 : 0xffffffff;
}

} // namespace runlens::widgets::timeline
