#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QImage>
#include <QPoint>
#include <QString>

namespace runlens::widgets::images {

/// An image of a summary decoded for display: the picture, or why it could not be decoded.
struct DecodedImage
{
    QImage image; ///< null when decoding failed
    QString error; ///< says what is wrong with the bytes; empty on success
    QString format; ///< "PNG", "JPEG", "GIF" or empty when the bytes are none of them

    bool isValid() const { return !image.isNull(); }
};

/// The container format of encoded image bytes by their signature ("PNG", "JPEG", "GIF"), or an empty
/// string. Summary writers only produce these three.
QString imageFormatOf(const QByteArray& bytes);

/// Decodes one encoded image of a summary. Bytes of another format, or damaged ones, give an error that
/// names the problem and the byte count; nothing else is tried, so a file cannot make us run another
/// image plugin. Thread-safe (called on workers).
DecodedImage decodeImage(const QByteArray& bytes);

/// The image with its colour values stretched linearly so that the darkest 0.5 % of the channel values
/// become 0 and the brightest 0.5 % become 255 (alpha unchanged): makes dark or low-contrast pictures
/// readable, like the "auto contrast" of image viewers. An image whose values are all equal is returned as
/// it is. Thread-safe.
QImage autoStretched(const QImage& image);

/// "x 3, y 7 · R 12 G 200 B 3" (grey images: "value 12"; with alpha when the image has one) for the pixel
/// at `position`, or an empty string outside the image.
QString describePixel(const QImage& image, QPoint position);

} // namespace runlens::widgets::images
