#include "widgets/images/imagedecoding.h"

#include <QBuffer>
#include <QImageReader>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace runlens::widgets::images {

namespace {

// Pixels past this count are not worth decoding for a summary card, and a claimed size this large is more
// likely a damaged header than a picture; the reader refuses it before allocating.
constexpr int kMaxPixelsMegabytes = 1024;
constexpr double kStretchTail = 0.005;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::images)
};

} // namespace

QString imageFormatOf(const QByteArray& bytes)
{
    static const QByteArray png("\x89PNG\r\n\x1a\n", 8);
    if (bytes.startsWith(png))
        return QStringLiteral("PNG");
    if (bytes.size() >= 3 && uchar(bytes[0]) == 0xff && uchar(bytes[1]) == 0xd8 && uchar(bytes[2]) == 0xff)
        return QStringLiteral("JPEG");
    if (bytes.startsWith("GIF87a") || bytes.startsWith("GIF89a"))
        return QStringLiteral("GIF");
    return {};
}

DecodedImage decodeImage(const QByteArray& bytes)
{
    DecodedImage result;
    result.format = imageFormatOf(bytes);
    const int size = int(std::min<qsizetype>(bytes.size(), std::numeric_limits<int>::max()));
    if (result.format.isEmpty()) {
        result.error = Text::tr("the image data is not a PNG, JPEG or GIF (%n bytes)", nullptr, size);
        return result;
    }
    QByteArray data = bytes; // shared, not copied; QBuffer needs a non-const array
    QBuffer buffer(&data);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, result.format.toLatin1().toLower());
    reader.setAllocationLimit(kMaxPixelsMegabytes);
    reader.setAutoTransform(true);
    result.image = reader.read();
    if (result.image.isNull()) {
        result.error = Text::tr("the %1 data is damaged and cannot be decoded (%n bytes): %2", nullptr, size)
                           .arg(result.format, reader.errorString());
    }
    return result;
}

QImage autoStretched(const QImage& image)
{
    if (image.isNull())
        return image;
    const bool grey = image.isGrayscale() && !image.hasAlphaChannel();
    QImage source = image.convertToFormat(grey ? QImage::Format_Grayscale8 : QImage::Format_ARGB32);

    // Histogram of the colour channel values (alpha excluded), then the values at both tails.
    std::array<qint64, 256> histogram {};
    const int width = source.width();
    for (int y = 0; y < source.height(); ++y) {
        const uchar* line = source.constScanLine(y);
        if (grey) {
            for (int x = 0; x < width; ++x)
                ++histogram[line[x]];
        } else {
            const auto* pixels = reinterpret_cast<const QRgb*>(line);
            for (int x = 0; x < width; ++x) {
                ++histogram[qRed(pixels[x])];
                ++histogram[qGreen(pixels[x])];
                ++histogram[qBlue(pixels[x])];
            }
        }
    }
    qint64 total = 0;
    for (qint64 n : histogram)
        total += n;
    const auto tail = qint64(double(total) * kStretchTail);
    int low = 0;
    for (qint64 below = 0; low < 255; ++low) {
        below += histogram[low];
        if (below > tail)
            break;
    }
    int high = 255;
    for (qint64 above = 0; high > 0; --high) {
        above += histogram[high];
        if (above > tail)
            break;
    }
    if (high <= low)
        return image;

    std::array<uchar, 256> lut {};
    for (int v = 0; v < 256; ++v) {
        const double t = double(v - low) / double(high - low);
        lut[v] = uchar(std::clamp(int(std::lround(t * 255.0)), 0, 255));
    }
    for (int y = 0; y < source.height(); ++y) {
        uchar* line = source.scanLine(y);
        if (grey) {
            for (int x = 0; x < width; ++x)
                line[x] = lut[line[x]];
        } else {
            auto* pixels = reinterpret_cast<QRgb*>(line);
            for (int x = 0; x < width; ++x) {
                const QRgb p = pixels[x];
                pixels[x] = qRgba(lut[qRed(p)], lut[qGreen(p)], lut[qBlue(p)], qAlpha(p));
            }
        }
    }
    return source;
}

QString describePixel(const QImage& image, QPoint position)
{
    if (image.isNull() || !image.rect().contains(position))
        return {};
    const QString where = Text::tr("x %1, y %2").arg(position.x()).arg(position.y());
    const QRgb p = image.pixel(position);
    QString value;
    if (image.isGrayscale())
        value = Text::tr("value %1").arg(qRed(p));
    else
        value = Text::tr("R %1 G %2 B %3").arg(qRed(p)).arg(qGreen(p)).arg(qBlue(p));
    if (image.hasAlphaChannel())
        value += Text::tr(" A %1").arg(qAlpha(p));
    return where + QStringLiteral(" · ") + value;
}

} // namespace runlens::widgets::images
