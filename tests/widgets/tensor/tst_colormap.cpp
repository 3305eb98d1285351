#include "widgets/common/colormap.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::widgets;

class TestColorMap : public QObject
{
    Q_OBJECT

private slots:
    void viridisEndpoints()
    {
        // matplotlib's viridis starts at #440154 and ends at #fde725 (its published 256-entry table).
        const auto& table = colorTable(ColorMap::Viridis);
        QCOMPARE(table.front(), qRgb(0x44, 0x01, 0x54));
        QCOMPARE(table.back(), qRgb(0xfd, 0xe7, 0x25));
        // Entry 128 of the published table is (0.127568, 0.566949, 0.550556), i.e. #21918c.
        QCOMPARE(table[128], qRgb(0x21, 0x91, 0x8c));
        for (const QRgb colour : table)
            QCOMPARE(qAlpha(colour), 255);
    }

    void greyIsALinearRamp()
    {
        const auto& table = colorTable(ColorMap::Grey);
        for (int i = 0; i < 256; ++i)
            QCOMPARE(table[size_t(i)], qRgb(i, i, i));
    }

    void divergingIsBlueWhiteRed()
    {
        const auto& table = colorTable(ColorMap::Diverging);
        const QRgb low = table.front();
        const QRgb high = table.back();
        QVERIFY(qBlue(low) > qRed(low));
        QVERIFY(qRed(high) > qBlue(high));
        for (const size_t middle : { size_t(127), size_t(128) }) {
            QVERIFY(qRed(table[middle]) > 235);
            QVERIFY(qGreen(table[middle]) > 235);
            QVERIFY(qBlue(table[middle]) > 235);
        }
        // Lightness rises towards the middle from both ends.
        QVERIFY(qGray(table[64]) > qGray(table[0]));
        QVERIFY(qGray(table[192]) > qGray(table[255]));
    }

    void namesAreDistinct()
    {
        const QString viridis = colorMapName(ColorMap::Viridis);
        const QString grey = colorMapName(ColorMap::Grey);
        const QString diverging = colorMapName(ColorMap::Diverging);
        QVERIFY(!viridis.isEmpty() && !grey.isEmpty() && !diverging.isEmpty());
        QVERIFY(viridis != grey && grey != diverging && viridis != diverging);
    }

    void colorBarEnds()
    {
        const QImage horizontal = colorBar(ColorMap::Viridis, QSize(100, 10));
        QCOMPARE(horizontal.size(), QSize(100, 10));
        QCOMPARE(horizontal.pixel(0, 5), colorTable(ColorMap::Viridis).front());
        QCOMPARE(horizontal.pixel(99, 5), colorTable(ColorMap::Viridis).back());
        const QImage vertical = colorBar(ColorMap::Grey, QSize(8, 256));
        QCOMPARE(vertical.pixel(4, 255), qRgb(0, 0, 0)); // low at the bottom
        QCOMPARE(vertical.pixel(4, 0), qRgb(255, 255, 255));
        QVERIFY(colorBar(ColorMap::Grey, QSize(0, 10)).isNull());
    }
};

QTEST_GUILESS_MAIN(TestColorMap)
#include "tst_colormap.moc"
