#include "widgets/common/chartpalette.h"

#include <QtGlobal>

#include <array>

namespace runlens::widgets {

namespace {

// Tableau 10 (2016 revision) hues, reordered so neighbouring runs contrast well; the yellow is darkened a
// little so it remains readable as a thin line on white.
constexpr std::array<QRgb, 10> kBaseColors {
    0xff4e79a7, // blue
    0xfff28e2b, // orange
    0xff59a14f, // green
    0xffe15759, // red
    0xff76b7b2, // teal
    0xffb07aa1, // purple
    0xffd4a72c, // ochre
    0xffff9da7, // pink
    0xff9c755f, // brown
    0xff8e8a86, // grey
};

} // namespace

int runColorCount()
{
    return int(kBaseColors.size());
}

QColor runColor(int index)
{
    if (index < 0)
        index = 0;
    const int count = runColorCount();
    QColor color = QColor::fromRgb(kBaseColors[std::size_t(index % count)]);
    const int cycle = index / count;
    if (cycle > 0) {
        // Alternate darker and lighter variants, getting further from the base each time around.
        const int step = 12 * ((cycle + 1) / 2);
        const int factor = (cycle % 2 == 1) ? 100 + step : 100 - step;
        color = cycle % 2 == 1 ? color.darker(factor) : color.lighter(200 - factor);
    }
    return color;
}

QColor alertColor()
{
    return QColor(0xd6, 0x27, 0x28);
}

QColor blendColors(const QColor& a, const QColor& b, double t)
{
    t = qBound(0.0, t, 1.0);
    return QColor::fromRgbF(
        float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
        float(a.blueF() + (b.blueF() - a.blueF()) * t), float(a.alphaF() + (b.alphaF() - a.alphaF()) * t));
}

} // namespace runlens::widgets
