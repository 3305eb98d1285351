#include "tests/widgets/images/imagetestdata.h"

#include "tests/testutils.h"
#include "widgets/images/imagedecoding.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::widgets::images;

class TestImageDecoding : public QObject
{
    Q_OBJECT
private slots:
    void decodesWrittenFormats_data()
    {
        QTest::addColumn<QByteArray>("format");
        QTest::newRow("png") << QByteArray("PNG");
        QTest::newRow("jpeg") << QByteArray("JPEG");
    }

    void decodesWrittenFormats()
    {
        QFETCH(QByteArray, format);
        const QImage source = test::solidImage(12, 7, QColor(200, 40, 90));
        const QByteArray bytes = test::encodeImage(source, format.constData());
        if (bytes.isEmpty()) {
            // qt6-base ships both writers; without them the image tests would check nothing.
            if (test::samplesRequired())
                QFAIL(qPrintable(QStringLiteral("Qt cannot write %1 here").arg(QString::fromLatin1(format))));
            QSKIP("Qt cannot write this format here");
        }
        QCOMPARE(imageFormatOf(bytes), QString::fromLatin1(format));
        const DecodedImage decoded = decodeImage(bytes);
        QVERIFY2(decoded.isValid(), qPrintable(decoded.error));
        QVERIFY(decoded.error.isEmpty());
        QCOMPARE(decoded.image.size(), QSize(12, 7));
        // JPEG is lossy and GIF palettes round: near the written colour is enough.
        const QColor centre = decoded.image.pixelColor(6, 3);
        QVERIFY(std::abs(centre.red() - 200) <= 8);
        QVERIFY(std::abs(centre.green() - 40) <= 8);
        QVERIFY(std::abs(centre.blue() - 90) <= 8);
    }

    void decodesGif()
    {
        // Qt writes no GIF: a 1x1 GIF89a by the format's rules. Logical screen 1x1 with a 2-entry global
        // colour table (red, black); an image descriptor 1x1; LZW minimum code size 2 and the codes
        // clear (4), index 0, end (5) packed into 0x44 0x01; the trailer.
        const QByteArray gif = QByteArray::fromHex("4749463839610100010080000"
                                                   "0ff0000000000"
                                                   "2c0000000001000100000202440100"
                                                   "3b");
        QCOMPARE(imageFormatOf(gif), QStringLiteral("GIF"));
        const DecodedImage decoded = decodeImage(gif);
        QVERIFY2(decoded.isValid(), qPrintable(decoded.error));
        QCOMPARE(decoded.image.size(), QSize(1, 1));
        QCOMPARE(decoded.image.pixelColor(0, 0), QColor(Qt::red));
    }

    void rejectsOtherBytes()
    {
        const QByteArray bytes("this is no picture at all", 25);
        QCOMPARE(imageFormatOf(bytes), QString());
        const DecodedImage decoded = decodeImage(bytes);
        QVERIFY(!decoded.isValid());
        QCOMPARE(decoded.error, QStringLiteral("the image data is not a PNG, JPEG or GIF (25 bytes)"));
        QCOMPARE(decodeImage({}).error, QStringLiteral("the image data is not a PNG, JPEG or GIF (0 bytes)"));
    }

    void reportsDamagedPng()
    {
        // A PNG cut after its header: the signature is right, the picture is not there.
        const QByteArray full = test::encodeImage(test::solidImage(40, 40, Qt::red));
        const QByteArray cut = full.left(40);
        const DecodedImage decoded = decodeImage(cut);
        QVERIFY(!decoded.isValid());
        QCOMPARE(decoded.format, QStringLiteral("PNG"));
        QVERIFY2(decoded.error.startsWith(QStringLiteral("the PNG data is damaged and cannot be decoded (40 bytes)")),
                 qPrintable(decoded.error));
    }

    void stretchesDarkImage()
    {
        // Half the pixels at 10, half at 40, one column at 25: the tails are 10 and 40, so the linear map is
        // v -> (v - 10) * 255 / 30, giving 0, 127.5 -> 128 and 255.
        const QImage dark = test::darkImage(64, 8, 10, 25, 40);
        const QImage stretched = autoStretched(dark);
        QCOMPARE(stretched.size(), dark.size());
        QCOMPARE(qRed(stretched.pixel(0, 0)), 0);
        QCOMPARE(qRed(stretched.pixel(63, 0)), 255);
        QCOMPARE(qGreen(stretched.pixel(32, 3)), 128);
        QCOMPARE(qAlpha(stretched.pixel(32, 3)), 255);
    }

    void stretchLeavesFlatImage()
    {
        const QImage flat = test::solidImage(8, 8, QColor(30, 30, 30));
        QCOMPARE(autoStretched(flat).pixel(3, 3), flat.pixel(3, 3));
        QVERIFY(autoStretched(QImage()).isNull());
    }

    void stretchesGreyImage()
    {
        QImage grey(10, 1, QImage::Format_Grayscale8);
        for (int x = 0; x < 10; ++x)
            grey.scanLine(0)[x] = uchar(x < 5 ? 2 : 12);
        const QImage stretched = autoStretched(grey);
        QCOMPARE(stretched.format(), QImage::Format_Grayscale8);
        QCOMPARE(int(stretched.constScanLine(0)[0]), 0);
        QCOMPARE(int(stretched.constScanLine(0)[9]), 255);
    }

    void describesPixels()
    {
        QImage image(4, 3, QImage::Format_ARGB32);
        image.fill(Qt::transparent);
        image.setPixel(2, 1, qRgba(12, 200, 3, 128));
        QCOMPARE(describePixel(image, QPoint(2, 1)), QStringLiteral("x 2, y 1 · R 12 G 200 B 3 A 128"));
        QCOMPARE(describePixel(image, QPoint(4, 1)), QString());
        QImage grey(2, 2, QImage::Format_Grayscale8);
        grey.fill(77);
        QCOMPARE(describePixel(grey, QPoint(1, 1)), QStringLiteral("x 1, y 1 · value 77"));
    }
};

QTEST_GUILESS_MAIN(TestImageDecoding)
#include "tst_imagedecoding.moc"
