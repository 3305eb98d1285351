#pragma once

#include "models/summary/summarydata.h"

#include <QBuffer>
#include <QByteArray>
#include <QImage>

namespace runlens::test {

/// `image` encoded in `format` ("PNG", "JPEG", "GIF") by Qt's own writers.
inline QByteArray encodeImage(const QImage& image, const char* format = "PNG")
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, format);
    return bytes;
}

/// A `width` x `height` RGB image of one colour.
inline QImage solidImage(int width, int height, QColor color)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(color);
    return image;
}

/// A dark grey picture: the left half at `low`, the right half at `high` (so its 0.5 % tails are exactly
/// `low` and `high`), with a middle column at `mid`.
inline QImage darkImage(int width, int height, int low, int mid, int high)
{
    QImage image(width, height, QImage::Format_RGB32);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const int v = x < width / 2 ? low : high;
            image.setPixel(x, y, qRgb(v, v, v));
        }
        image.setPixel(width / 2, y, qRgb(mid, mid, mid));
    }
    return image;
}

inline models::summary::SummaryImage imageAt(qint64 step, const QList<QByteArray>& encoded)
{
    models::summary::SummaryImage item;
    item.step = step;
    item.wallTime = 1700000000.0 + step;
    item.encoded = encoded;
    return item;
}

inline models::summary::ImageSeries imageSeries(const QString& tag,
                                                const std::vector<models::summary::SummaryImage>& items)
{
    models::summary::ImageSeries series;
    series.tag = tag;
    series.items = items;
    series.seen = qint64(items.size());
    return series;
}

} // namespace runlens::test
