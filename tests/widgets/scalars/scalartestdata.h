#pragma once

#include "models/scalars/scalarstore.h"

#include <QImage>

#include <cmath>
#include <functional>

namespace runlens::test {

/// Points step 0..n-1 (times `stepScale`), wall time 1000 + 2 s per point, value f(i).
inline models::scalars::TagPoints makeTag(const QString& tag, int n, const std::function<double(int)>& f,
                                          int firstStep = 0, int stepScale = 1)
{
    models::scalars::TagPoints tp;
    tp.tag = tag;
    for (int i = 0; i < n; ++i) {
        const qint64 step = qint64(firstStep + i) * stepScale;
        tp.points.push_back(models::scalars::ScalarPoint { step, 1000.0 + 2.0 * double(step), f(firstStep + i) });
    }
    return tp;
}

/// Counts pixels of `image` within `tolerance` of `color` in every channel.
inline int countColor(const QImage& image, const QColor& color, int tolerance = 24)
{
    int n = 0;
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x) {
            const QRgb p = line[x];
            n += std::abs(qRed(p) - color.red()) <= tolerance && std::abs(qGreen(p) - color.green()) <= tolerance
                && std::abs(qBlue(p) - color.blue()) <= tolerance;
        }
    }
    return n;
}

} // namespace runlens::test
