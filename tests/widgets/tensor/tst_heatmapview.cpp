#include "widgets/tensor/heatmapview.h"

#include "models/tensor/tensorslice.h"
#include "tests/widgets/tensor/tst_tensortablemodel_data.h"

#include <QScrollBar>
#include <QSignalSpy>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace runlens;
using namespace runlens::models::tensor;
using namespace runlens::widgets;
using runlens::widgets::tensor::HeatmapView;

namespace {

using runlens::test::tensorOf;

/// The table entry of `v` for 256 equal bins over [lo, hi], written out independently of the view.
QRgb expectedColour(ColorMap map, double v, double lo, double hi)
{
    const double bin = std::floor((v - lo) / (hi - lo) * 256.0);
    return colorTable(map)[size_t(std::clamp(bin, 0.0, 255.0))];
}

} // namespace

class TestHeatmapView : public QObject
{
    Q_OBJECT

private slots:
    void knownValues()
    {
        HeatmapView view;
        view.setTensor(tensorOf(std::vector<float> { 0, 1, 2, 3, 1.5f, 0.25f }, DType::Float32, { 2, 3 }));
        QCOMPARE(view.shownRange(), std::make_pair(0.0, 3.0));
        const QImage image = view.renderImage();
        QCOMPARE(image.size(), QSize(3, 2));
        const auto& table = colorTable(ColorMap::Viridis);
        QCOMPARE(image.pixel(0, 0), table[0]);
        QCOMPARE(image.pixel(1, 0), table[85]); // 1/3 of 256
        QCOMPARE(image.pixel(2, 0), table[170]);
        QCOMPARE(image.pixel(0, 1), table[255]); // the maximum lands in the last bin
        QCOMPARE(image.pixel(1, 1), table[128]);
        QCOMPARE(image.pixel(2, 1), expectedColour(ColorMap::Viridis, 0.25, 0, 3));

        // The generic path (float64) and the float32 loop agree.
        HeatmapView generic;
        generic.setTensor(tensorOf(std::vector<double> { 0, 1, 2, 3, 1.5, 0.25 }, DType::Float64, { 2, 3 }));
        QCOMPARE(generic.renderImage(), image);
    }

    void stridedViewOf3d()
    {
        std::vector<float> values(4 * 5 * 6);
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = std::sin(float(i)) * 10.f;
        const Tensor base = tensorOf(values, DType::Float32, { 4, 5, 6 });
        const SliceResult slice = sliceTensor(base, QStringLiteral("[::-1, 2, 1::2]"));
        QVERIFY2(slice.tensor, qPrintable(slice.error));
        HeatmapView view;
        view.setColorMap(ColorMap::Grey);
        view.setTensor(*slice.tensor);
        QCOMPARE(view.rows(), 4);
        QCOMPARE(view.columns(), 3);
        double lo = 1e300, hi = -1e300;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 3; ++c) {
                lo = std::min(lo, base.value({ 3 - r, 2, 1 + 2 * c }));
                hi = std::max(hi, base.value({ 3 - r, 2, 1 + 2 * c }));
            }
        QCOMPARE(view.shownRange(), std::make_pair(lo, hi));
        const QImage image = view.renderImage();
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 3; ++c) {
                const double v = base.value({ 3 - r, 2, 1 + 2 * c });
                // Bins computed in float may differ from double at a bin edge by one entry.
                const int got = qGray(image.pixel(c, r));
                const int want = qGray(expectedColour(ColorMap::Grey, v, lo, hi));
                QVERIFY2(std::abs(got - want) <= 1,
                         qPrintable(QStringLiteral("%1,%2: %3 vs %4").arg(r).arg(c).arg(got).arg(want)));
            }
    }

    void largePictureInBlocks()
    {
        // Large enough to be built in row blocks on several threads; every pixel checked.
        constexpr int kRows = 640;
        constexpr int kColumns = 1000;
        std::vector<float> values(size_t(kRows) * kColumns);
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = float((i * 7919) % 1000) - 300.f;
        values[12345] = std::nanf("");
        for (const DType type : { DType::Float32, DType::Float64 }) {
            HeatmapView view;
            if (type == DType::Float32)
                view.setTensor(tensorOf(values, type, { kRows, kColumns }));
            else
                view.setTensor(tensorOf(std::vector<double>(values.begin(), values.end()), type, { kRows, kColumns }));
            QCOMPARE(view.shownRange(), std::make_pair(-300.0, 699.0));
            const QImage image = view.renderImage();
            QCOMPARE(image.size(), QSize(kColumns, kRows));
            int wrong = 0;
            for (int r = 0; r < kRows; ++r) {
                for (int c = 0; c < kColumns; ++c) {
                    const float v = values[size_t(r) * kColumns + size_t(c)];
                    const QRgb want
                        = std::isnan(v) ? HeatmapView::nanColor() : expectedColour(ColorMap::Viridis, v, -300, 699);
                    wrong += image.pixel(c, r) != want;
                }
            }
            QCOMPARE(wrong, 0);
        }
    }

    void nanAndInfinities()
    {
        const float inf = std::numeric_limits<float>::infinity();
        HeatmapView view;
        view.setTensor(tensorOf(std::vector<float> { std::nanf(""), inf, -inf, 2, 4 }, DType::Float32, { 5 }));
        QCOMPARE(view.rows(), 1);
        QCOMPARE(view.columns(), 5);
        // Infinities stay out of the slice range.
        QCOMPARE(view.shownRange(), std::make_pair(2.0, 4.0));
        const QImage image = view.renderImage();
        QCOMPARE(image.pixel(0, 0), qRgb(255, 0, 255));
        QCOMPARE(image.pixel(0, 0), HeatmapView::nanColor());
        QCOMPARE(image.pixel(1, 0), colorTable(ColorMap::Viridis).back());
        QCOMPARE(image.pixel(2, 0), colorTable(ColorMap::Viridis).front());
        QCOMPARE(image.pixel(3, 0), colorTable(ColorMap::Viridis).front());

        // Half-precision NaN through the generic path.
        HeatmapView half;
        half.setTensor(tensorOf(std::vector<std::uint16_t> { 0x7e00, 0x3c00 }, DType::Float16, { 2 }));
        QCOMPARE(half.renderImage().pixel(0, 0), HeatmapView::nanColor());
    }

    void divergingIsSymmetric()
    {
        HeatmapView view;
        view.setColorMap(ColorMap::Diverging);
        view.setTensor(tensorOf(std::vector<float> { -1, 0, 4 }, DType::Float32, { 1, 3 }));
        QCOMPARE(view.shownRange(), std::make_pair(-4.0, 4.0));
        const QImage image = view.renderImage();
        const auto& table = colorTable(ColorMap::Diverging);
        QCOMPARE(image.pixel(1, 0), table[128]); // zero sits in the white middle
        QCOMPARE(image.pixel(0, 0), expectedColour(ColorMap::Diverging, -1, -4, 4));
        QCOMPARE(image.pixel(2, 0), table[255]);
    }

    void fixedRange()
    {
        HeatmapView view;
        view.setTensor(tensorOf(std::vector<std::int32_t> { 5, 20, -3 }, DType::Int32, { 3 }));
        view.setScale(HeatmapView::Scale::Fixed);
        view.setFixedRange(0, 10);
        QCOMPARE(view.shownRange(), std::make_pair(0.0, 10.0));
        const QImage image = view.renderImage();
        const auto& table = colorTable(ColorMap::Viridis);
        QCOMPARE(image.pixel(0, 0), table[128]);
        QCOMPARE(image.pixel(1, 0), table[255]);
        QCOMPARE(image.pixel(2, 0), table[0]);
        view.setScale(HeatmapView::Scale::Slice);
        QCOMPARE(view.shownRange(), std::make_pair(-3.0, 20.0));
    }

    void constantSliceIsMidMap()
    {
        HeatmapView view;
        view.setTensor(tensorOf(std::vector<double> { 7, 7 }, DType::Float64, { 2 }));
        QCOMPARE(view.renderImage().pixel(0, 0), colorTable(ColorMap::Viridis)[128]);
    }

    void refusesOtherRanks()
    {
        HeatmapView view;
        view.setTensor(tensorOf(std::vector<float>(8, 1.f), DType::Float32, { 2, 2, 2 }));
        QCOMPARE(view.rows(), 0);
        QVERIFY(view.renderImage().isNull());
        QVERIFY(!view.message().isEmpty());
        view.setTensor(tensorOf(std::vector<float> { 1.f }, DType::Float32, {}));
        QVERIFY(view.renderImage().isNull());
    }

    void hoverAndPaint()
    {
        std::vector<float> values(10 * 20);
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = float(i);
        HeatmapView view;
        view.resize(400, 300);
        view.setTensor(tensorOf(values, DType::Float32, { 10, 20 }));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setZoom(10);
        QCOMPARE(view.zoom(), 10.0);
        QSignalSpy hovered(&view, &HeatmapView::hovered);
        QSignalSpy left(&view, &HeatmapView::hoverLeft);

        const QPoint target = view.elementCenter(3, 7).toPoint();
        QTest::mouseMove(view.viewport(), target);
        QTRY_COMPARE(hovered.count(), 1);
        QCOMPARE(hovered.at(0).at(0).value<std::int64_t>(), 3);
        QCOMPARE(hovered.at(0).at(1).value<std::int64_t>(), 7);
        QCOMPARE(hovered.at(0).at(2).toDouble(), 67.0);

        // What is painted at an element's centre is the element's colour.
        const QImage shot = view.viewport()->grab().toImage();
        const QPoint probe = view.elementCenter(8, 2).toPoint() + QPoint(1, 1);
        QCOMPARE(shot.pixel(probe), expectedColour(ColorMap::Viridis, 162, 0, 199));

        // Outside the picture (the contents are centred in the larger viewport).
        QTest::mouseMove(view.viewport(), QPoint(2, 2));
        QTRY_COMPARE(left.count(), 1);
    }

    void infinityMarkerWhenZoomedIn()
    {
        const float inf = std::numeric_limits<float>::infinity();
        HeatmapView view;
        view.resize(300, 300);
        view.setTensor(tensorOf(std::vector<float> { 1, inf, 2, -inf }, DType::Float32, { 2, 2 }));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setZoom(40);
        const QImage shot = view.viewport()->grab().toImage();
        QCOMPARE(shot.pixel(view.elementCenter(0, 1).toPoint()), HeatmapView::infMarkerColor());
        QCOMPARE(shot.pixel(view.elementCenter(1, 1).toPoint()), HeatmapView::infMarkerColor());
        // Away from the dot the cell has the end colour of the map.
        QCOMPARE(shot.pixel((view.elementCenter(0, 1) + QPointF(15, 15)).toPoint()),
                 colorTable(ColorMap::Viridis).back());
        QCOMPARE(shot.pixel(view.elementCenter(0, 0).toPoint()), colorTable(ColorMap::Viridis).front());
    }

    void zoomToPixelsAndFit()
    {
        HeatmapView view;
        view.resize(300, 200);
        view.setTensor(tensorOf(std::vector<float>(50 * 100, 1.f), DType::Float32, { 50, 100 }));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setZoom(4);
        view.zoomToPixels();
        QCOMPARE(view.zoom(), 1.0 / view.devicePixelRatioF());
        view.zoomToFit();
        QVERIFY(view.zoom() * 100 <= view.viewport()->width() + 0.5);
        QVERIFY(view.zoom() * 50 <= view.viewport()->height() + 0.5);
        QVERIFY(view.zoom() * 100 >= view.viewport()->width() - 1 || view.zoom() * 50 >= view.viewport()->height() - 1);
    }

    void ctrlWheelZoomsAroundCursor()
    {
        std::vector<float> values(100 * 100);
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = float(i);
        HeatmapView view;
        view.resize(300, 300);
        view.setTensor(tensorOf(values, DType::Float32, { 100, 100 }));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setZoom(8);
        const QPoint cursor(120, 90);
        std::int64_t row = -1, column = -1;
        QVERIFY(view.elementAt(cursor, &row, &column));
        QWheelEvent wheel(QPointF(cursor), view.viewport()->mapToGlobal(QPointF(cursor)), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.viewport(), &wheel);
        QCOMPARE(view.zoom(), 10.0);
        std::int64_t rowAfter = -1, columnAfter = -1;
        QVERIFY(view.elementAt(cursor, &rowAfter, &columnAfter));
        QCOMPARE(rowAfter, row);
        QCOMPARE(columnAfter, column);

        // Dragging pans.
        const int before = view.horizontalScrollBar()->value();
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, QPoint(150, 150));
        QTest::mouseMove(view.viewport(), QPoint(100, 150));
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, QPoint(100, 150));
        QCOMPARE(view.horizontalScrollBar()->value(), before + 50);
    }

    void legend()
    {
        HeatmapView view;
        view.setTensor(tensorOf(std::vector<float> { -2, 5 }, DType::Float32, { 2 }));
        const QImage legend = view.colorLegend();
        QVERIFY(!legend.isNull());
        QCOMPARE(legend.pixel(0, 2), colorTable(ColorMap::Viridis).front());
        QCOMPARE(legend.pixel(legend.width() - 1, 2), colorTable(ColorMap::Viridis).back());
    }
};

QTEST_MAIN(TestHeatmapView)
#include "tst_heatmapview.moc"
