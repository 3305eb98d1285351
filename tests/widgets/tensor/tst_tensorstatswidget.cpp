#include "widgets/tensor/tensorstatswidget.h"

#include "models/tensor/tensorslice.h"
#include "tests/pythonoracle.h"
#include "widgets/common/chartexportmenu.h"

#include <QCheckBox>
#include <QComboBox>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <qcustomplot.h>

#include <cstring>

using namespace runlens;
using namespace runlens::widgets;
using runlens::widgets::tensor::TensorStatsCache;
using runlens::widgets::tensor::TensorStatsWidget;

namespace {

const QString kOracle = QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/stats_widget_oracle.py");

/// The oracle's known tensor and what numpy says the pane must show for it.
struct Known
{
    models::tensor::Tensor whole;
    QHash<QString, QStringList> lines;
};

bool loadKnown(Known& known)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("known.bin"));
    const runlens::test::PythonRun python = runlens::test::runPython({ kOracle, path });
    if (!python.ok()) {
        qWarning("%s", qPrintable(python.message));
        return false;
    }
    for (const QString& line : python.output.split(u'\n', Qt::SkipEmptyParts)) {
        QStringList fields = line.split(u' ');
        known.lines.insert(fields.takeFirst(), fields);
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray bytes = file.readAll();
    const auto* begin = reinterpret_cast<const std::byte*>(bytes.constData());
    known.whole.name = QStringLiteral("known");
    known.whole.shape = { 4, 6 };
    known.whole.strides = models::tensor::Tensor::contiguousStrides(known.whole.shape, 4);
    known.whole.data
        = std::make_shared<models::tensor::MemoryTensorData>(std::vector<std::byte>(begin, begin + bytes.size()));
    return known.whole.isContiguous() && bytes.size() == 24 * 4;
}

models::tensor::Tensor floats(const std::vector<float>& values, std::vector<std::int64_t> shape = {})
{
    if (shape.empty())
        shape = { std::int64_t(values.size()) };
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    models::tensor::Tensor t;
    t.shape = std::move(shape);
    t.strides = models::tensor::Tensor::contiguousStrides(t.shape, 4);
    t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    return t;
}

/// `count` copies of one float through a zero stride: as many elements as wanted without the memory, and
/// slow enough to scan (element by element) that a job is still running when the test acts on it.
models::tensor::Tensor endless(std::int64_t count = std::int64_t(1) << 34)
{
    models::tensor::Tensor t = floats({ 1.5f });
    t.shape = { count };
    t.strides = { 0 };
    return t;
}

std::vector<std::int64_t> counts(const QStringList& fields)
{
    std::vector<std::int64_t> result;
    for (qsizetype i = 2; i < fields.size(); ++i)
        result.push_back(fields[i].toLongLong());
    return result;
}

} // namespace

class TstTensorStatsWidget : public QObject
{
    Q_OBJECT

private slots:
    void shownTextsOfAKnownTensor()
    {
        Known known;
        QVERIFY(loadKnown(known));
        const auto slice = models::tensor::sliceTensor(known.whole, QStringLiteral("1:3, ::2"));
        QVERIFY(slice.tensor);
        QVERIFY(!slice.tensor->isContiguous());

        TensorStatsCache cache;
        TensorStatsWidget widget;
        widget.setCache(&cache);
        QSignalSpy ready(&widget, &TensorStatsWidget::wholeStatisticsReady);
        widget.setSlice(*slice.tensor);
        QVERIFY(!widget.isComputingSlice()); // small: computed at once
        widget.setWhole(QStringLiteral("known.npy"), known.whole); // whole tensors always go to a worker
        QTRY_VERIFY(!widget.isComputingWhole());
        QCOMPARE(ready.size(), 1);
        QCOMPARE(ready.first().at(0).toString(), QStringLiteral("known.npy"));

        const QStringList sliceTexts = known.lines.value(QStringLiteral("slice"));
        const QStringList wholeTexts = known.lines.value(QStringLiteral("whole"));
        QCOMPARE(sliceTexts.size(), TensorStatsWidget::rowNames().size());
        QCOMPARE(wholeTexts.size(), TensorStatsWidget::rowNames().size());
        for (int row = 0; row < sliceTexts.size(); ++row) {
            QCOMPARE(widget.cellText(row, 0), sliceTexts[row]);
            QCOMPARE(widget.cellText(row, 1), wholeTexts[row]);
        }
        QCOMPARE(widget.table()->horizontalHeaderItem(0)->text(), QStringLiteral("Slice"));
        QCOMPARE(widget.table()->horizontalHeaderItem(1)->text(), QStringLiteral("Whole tensor"));

        // NaN and +Inf counts above zero stand out; zero counts and ordinary rows do not.
        const int nanRow = 7, posInfRow = 8, negInfRow = 9, zerosRow = 10;
        const QColor plain = widget.table()->item(0, 0)->foreground().color();
        QVERIFY(widget.table()->item(nanRow, 0)->foreground().color() != plain);
        QVERIFY(widget.table()->item(nanRow, 1)->foreground().color() != plain);
        QCOMPARE(widget.table()->item(posInfRow, 0)->foreground().color(), plain); // none in the slice
        QVERIFY(widget.table()->item(posInfRow, 1)->foreground().color() != plain);
        QCOMPARE(widget.table()->item(negInfRow, 1)->foreground().color(), plain);
        QCOMPARE(widget.table()->item(zerosRow, 1)->foreground().color(), plain);
        QVERIFY(widget.table()->item(nanRow, 1)->font().bold());

        QVERIFY(cache.find(QStringLiteral("known.npy")));
        QCOMPARE(cache.find(QStringLiteral("known.npy"))->count, 24);
    }

    void histogramBarsAndLogToggle()
    {
        Known known;
        QVERIFY(loadKnown(known));
        const auto slice = models::tensor::sliceTensor(known.whole, QStringLiteral("1:3, ::2"));
        QVERIFY(slice.tensor);
        TensorStatsWidget widget;
        widget.show();
        widget.setSlice(*slice.tensor);
        widget.setWhole(QStringLiteral("known.npy"), known.whole);

        const QStringList sliceHist = known.lines.value(QStringLiteral("slicehist"));
        QCOMPARE(widget.histogramSource(), TensorStatsWidget::HistogramSource::Slice);
        QCOMPARE(widget.histogramCounts(), counts(sliceHist));
        QCOMPARE(widget.histogramMin(), sliceHist[0].toDouble());
        QCOMPARE(widget.histogramMax(), sliceHist[1].toDouble());
        auto* bars = qobject_cast<QCPBars*>(widget.plot()->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->dataCount(), TensorStatsWidget::kHistogramBins);
        QCOMPARE(widget.plot()->yAxis->scaleType(), QCPAxis::stLinear);

        // Log counts: the axis turns logarithmic and empty bins lose their bars.
        QTest::mouseClick(widget.logCheckBox(), Qt::LeftButton, {}, QPoint(4, widget.logCheckBox()->height() / 2));
        QVERIFY(widget.logCounts());
        QCOMPARE(widget.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        const auto& shown = widget.histogramCounts();
        QCOMPARE(bars->dataCount(), int(std::count_if(shown.begin(), shown.end(), [](auto c) { return c > 0; })));
        QCOMPARE(bars->dataCount(), 6 - 1); // six elements, one NaN, all in different bins
        widget.setLogCounts(false);
        QVERIFY(!widget.logCheckBox()->isChecked());
        QCOMPARE(widget.plot()->yAxis->scaleType(), QCPAxis::stLinear);

        // The whole tensor's histogram, once it is counted.
        widget.sourceCombo()->setCurrentIndex(1);
        QCOMPARE(widget.histogramSource(), TensorStatsWidget::HistogramSource::Whole);
        QTRY_VERIFY(!widget.isComputingWhole());
        const QStringList wholeHist = known.lines.value(QStringLiteral("wholehist"));
        QCOMPARE(widget.histogramCounts(), counts(wholeHist));
        QCOMPARE(widget.histogramMax(), wholeHist[1].toDouble()); // the finite range: +Inf is left out

        // CSV export writes one row per bin.
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("hist.csv"));
        QVERIFY(widget.exportMenu()->exportTo(ChartExportMenu::Format::Csv, csv));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + TensorStatsWidget::kHistogramBins);
        QVERIFY(lines.first().contains(QStringLiteral("count")));
    }

    void integerHistogramHasABarPerValue()
    {
        // int32 0..9 twice: ten bars of two, numpy.histogram(a, bins=10, range=(-0.5, 9.5)).
        std::vector<std::int32_t> values;
        for (int i = 0; i < 20; ++i)
            values.push_back(i % 10);
        std::vector<std::byte> bytes(values.size() * 4);
        std::memcpy(bytes.data(), values.data(), bytes.size());
        models::tensor::Tensor t;
        t.dtype = models::tensor::DType::Int32;
        t.shape = { 20 };
        t.strides = { 4 };
        t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
        TensorStatsWidget widget;
        widget.setSlice(t);
        QCOMPARE(widget.histogramCounts(), std::vector<std::int64_t>(10, 2));
        QCOMPARE(widget.histogramMin(), -0.5);
        QCOMPARE(widget.histogramMax(), 9.5);
    }

    void largeSliceInTheBackground()
    {
        // 0, 1, ..., n-1: mean (n-1)/2, min 0, max n-1, one zero.
        const std::int64_t n = TensorStatsWidget::kSynchronousLimit * 3;
        std::vector<float> values(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i)
            values[std::size_t(i)] = float(i);
        TensorStatsWidget widget;
        widget.setSlice(floats(values));
        QTRY_VERIFY(!widget.isComputingSlice());
        QVERIFY(widget.sliceStatistics());
        QCOMPARE(widget.sliceStatistics()->count, n);
        QCOMPARE(widget.sliceStatistics()->mean, double(n - 1) / 2);
        QCOMPARE(widget.cellText(0, 0), QString::number(n));
        QCOMPARE(widget.cellText(2, 0), QString::number(double(n - 1), 'g', 7));
        QCOMPARE(widget.cellText(10, 0), QStringLiteral("1"));
    }

    void switchingCancelsTheRunningJob()
    {
        TensorStatsCache cache;
        TensorStatsWidget widget;
        widget.setCache(&cache);
        QSignalSpy ready(&widget, &TensorStatsWidget::wholeStatisticsReady);
        widget.setWhole(QStringLiteral("endless.npy"), endless());
        QVERIFY(widget.isComputingWhole());
        QVERIFY(!widget.progressBar()->isHidden());
        QVERIFY(!widget.cancelButton()->isHidden());
        QTRY_VERIFY(widget.progressBar()->value() > 0);

        // A small tensor replaces it: its statistics arrive, the endless one's never do. Were the first job
        // not cancelled, the thread pool would hold this test at exit for minutes.
        widget.setWhole(QStringLiteral("small.npy"), floats({ 1, 2, 3 }));
        QTRY_VERIFY(!widget.isComputingWhole());
        QCOMPARE(ready.size(), 1);
        QCOMPARE(ready.first().at(0).toString(), QStringLiteral("small.npy"));
        QCOMPARE(widget.cellText(3, 1), QStringLiteral("2"));
        QVERIFY(!cache.contains(QStringLiteral("endless.npy")));
        QVERIFY(widget.progressBar()->isHidden());
        QVERIFY(widget.cancelButton()->isHidden());
        QCOMPARE(widget.wholeComputations(), 2);

        // Slices alike: an endless slice is still being scanned when a small one replaces it.
        widget.setSlice(endless());
        QVERIFY(widget.isComputingSlice());
        QCOMPARE(widget.cellText(0, 0), QStringLiteral("computing\u2026"));
        widget.setSlice(floats({ 7, 9 }));
        QVERIFY(!widget.isComputingSlice());
        QCOMPARE(widget.cellText(3, 0), QStringLiteral("8"));
        QTest::qWait(50);
        QCOMPARE(widget.cellText(3, 0), QStringLiteral("8"));
    }

    void cancelButtonAndRetry()
    {
        TensorStatsWidget widget;
        widget.setWhole(QStringLiteral("endless.npy"), endless());
        QVERIFY(widget.isComputingWhole());
        QVERIFY(widget.computeButton()->isHidden());
        QTest::mouseClick(widget.cancelButton(), Qt::LeftButton);
        QVERIFY(!widget.isComputingWhole());
        QCOMPARE(widget.cellText(0, 1), QStringLiteral("cancelled"));
        QVERIFY(widget.cancelButton()->isHidden());
        QVERIFY(!widget.computeButton()->isHidden());
        // The retry starts over; cancelled again so the test ends quickly.
        QTest::mouseClick(widget.computeButton(), Qt::LeftButton);
        QVERIFY(widget.isComputingWhole());
        QCOMPARE(widget.wholeComputations(), 2);
        widget.cancelWhole();
        QVERIFY(!widget.isComputingWhole());
    }

    void cacheHitComputesNothing()
    {
        TensorStatsCache cache;
        QSignalSpy cached(&cache, &TensorStatsCache::ready);
        {
            TensorStatsWidget first;
            first.setCache(&cache);
            first.setWhole(QStringLiteral("a.npy"), floats({ 4, 5, 6 }));
            QTRY_VERIFY(!first.isComputingWhole());
            QCOMPARE(first.wholeComputations(), 1);
            // The same location again (a new slice of the same tensor) does not start over.
            first.setWhole(QStringLiteral("a.npy"), floats({ 4, 5, 6 }));
            QVERIFY(!first.isComputingWhole());
            QCOMPARE(first.wholeComputations(), 1);
        }
        QCOMPARE(cached.size(), 1);
        QCOMPARE(cached.first().at(0).toString(), QStringLiteral("a.npy"));

        TensorStatsWidget second;
        second.setCache(&cache);
        QSignalSpy ready(&second, &TensorStatsWidget::wholeStatisticsReady);
        second.setWhole(QStringLiteral("a.npy"), endless()); // what the cache says wins: nothing is scanned
        QVERIFY(!second.isComputingWhole());
        QCOMPARE(second.wholeComputations(), 0);
        QCOMPARE(ready.size(), 1);
        QCOMPARE(second.cellText(0, 1), QStringLiteral("3"));
        QCOMPARE(second.cellText(3, 1), QStringLiteral("5"));
        second.clear();
        QCOMPARE(second.cellText(0, 1), QString());
    }

    void cacheDropsTheLeastRecentlyUsed()
    {
        TensorStatsCache cache;
        QCOMPARE(cache.maxEntries(), TensorStatsCache::kDefaultMaxEntries);
        cache.setMaxEntries(2);
        models::tensor::TensorStatistics s;
        s.count = 1;
        cache.insert(QStringLiteral("a"), s);
        s.count = 2;
        cache.insert(QStringLiteral("b"), s);
        QVERIFY(cache.find(QStringLiteral("a"))); // a is now the most recently used
        s.count = 3;
        cache.insert(QStringLiteral("c"), s);
        QCOMPARE(cache.size(), 2);
        QVERIFY(!cache.find(QStringLiteral("b")));
        QCOMPARE(cache.find(QStringLiteral("a"))->count, 1);
        QCOMPARE(cache.find(QStringLiteral("c"))->count, 3);
        s.count = 4;
        cache.insert(QStringLiteral("a"), s); // replaces
        QCOMPARE(cache.size(), 2);
        QCOMPARE(cache.find(QStringLiteral("a"))->count, 4);
    }
};

QTEST_MAIN(TstTensorStatsWidget)
#include "tst_tensorstatswidget.moc"
