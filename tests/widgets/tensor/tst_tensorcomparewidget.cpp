#include "widgets/tensor/tensorcomparewidget.h"

#include "models/core/workerpool.h"
#include "tests/pythonoracle.h"
#include "widgets/tensor/heatmapview.h"

#include <QComboBox>
#include <QLabel>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <chrono>
#include <cstring>
#include <future>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::widgets;
using runlens::widgets::tensor::TensorCompareWidget;

namespace {

const QString kOracle = QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/stats_compare_oracle.py");

models::tensor::Tensor floats(const std::vector<float>& values, std::vector<std::int64_t> shape)
{
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    models::tensor::Tensor t;
    t.shape = std::move(shape);
    t.strides = models::tensor::Tensor::contiguousStrides(t.shape, 4);
    t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    return t;
}

models::tensor::Tensor readFloats(const QString& path, std::vector<std::int64_t> shape)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    std::vector<float> values(std::size_t(bytes.size()) / 4);
    std::memcpy(values.data(), bytes.constData(), values.size() * 4);
    return floats(values, std::move(shape));
}

/// The oracle's two tensors and, per mode, its summary numbers and largest-difference rows.
struct Known
{
    models::tensor::Tensor a;
    models::tensor::Tensor b;
    QHash<QString, QStringList> summary;
    QHash<QString, QList<QStringList>> rows;
};

bool loadKnown(Known& known)
{
    QTemporaryDir dir;
    const runlens::test::PythonRun python = runlens::test::runPython({ kOracle, dir.path() });
    if (!python.ok()) {
        qWarning("%s", qPrintable(python.message));
        return false;
    }
    for (const QString& line : python.output.split(u'\n', Qt::SkipEmptyParts)) {
        // Index texts hold a space ("[1, 3]"), so rows are split around them.
        const QString mode = line.section(u' ', 0, 0);
        const QString kind = line.section(u' ', 1, 1);
        const QString rest = line.section(u' ', 2);
        if (kind == QLatin1String("summary")) {
            known.summary.insert(mode, rest.split(u' '));
        } else {
            const qsizetype close = rest.indexOf(u']');
            QStringList fields { rest.left(close + 1) };
            fields += rest.mid(close + 2).split(u' ');
            known.rows[mode].append(fields);
        }
    }
    known.a = readFloats(dir.filePath(QStringLiteral("a.bin")), { 3, 4 });
    known.b = readFloats(dir.filePath(QStringLiteral("b.bin")), { 3, 4 });
    return known.a.data && known.b.data && known.summary.size() == 3;
}

/// `count` copies of one float through a zero stride: many elements without the memory.
/// Bytes whose first read waits until the test opens the gate: a comparison on them is surely still
/// running when the test looks.
class GatedTensorData : public models::tensor::TensorData
{
public:
    GatedTensorData(std::vector<std::byte> bytes, std::shared_future<void> gate)
        : m_bytes(std::move(bytes))
        , m_gate(std::move(gate))
    { }
    const std::byte* data() const override
    {
        m_gate.wait();
        return m_bytes.data();
    }
    std::int64_t size() const override { return std::int64_t(m_bytes.size()); }

private:
    std::vector<std::byte> m_bytes;
    std::shared_future<void> m_gate;
};

models::tensor::Tensor gated(float value, std::int64_t count, const std::shared_future<void>& gate)
{
    std::vector<std::byte> bytes(std::size_t(count) * sizeof(float));
    for (std::int64_t i = 0; i < count; ++i)
        std::memcpy(bytes.data() + i * 4, &value, 4);
    models::tensor::Tensor t;
    t.shape = { count };
    t.strides = { 4 };
    t.data = std::make_shared<GatedTensorData>(std::move(bytes), gate);
    return t;
}

} // namespace

class TstTensorCompareWidget : public QObject
{
    Q_OBJECT

private slots:
    void summaryAndLargest_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("comboIndex");
        QTest::newRow("difference") << "difference" << 0;
        QTest::newRow("absolute") << "absolute" << 1;
        QTest::newRow("relative") << "relative" << 2;
    }

    void summaryAndLargest()
    {
        QFETCH(QString, mode);
        QFETCH(int, comboIndex);
        Known known;
        QVERIFY(loadKnown(known));
        TensorCompareWidget widget;
        widget.modeCombo()->setCurrentIndex(comboIndex);
        QCOMPARE(int(widget.mode()), comboIndex);
        QSignalSpy ready(&widget, &TensorCompareWidget::comparisonReady);
        widget.setTensors(known.a, QStringLiteral("step 1"), known.b, QStringLiteral("step 2"));
        QVERIFY(!widget.isComputing()); // small: compared at once
        QCOMPARE(ready.size(), 1);

        const QStringList s = known.summary.value(mode);
        QCOMPARE(s.size(), 6);
        const QString expected
            = QStringLiteral("max |diff| %1 \u00b7 mean |diff| %2 \u00b7 RMSE %3 \u00b7 differing %4 of "
                             "%5 \u00b7 NaN mismatches %6")
                  .arg(s[0], s[1], s[2], s[3], s[4], s[5]);
        QCOMPARE(widget.summaryText(), expected);

        const QList<QStringList> rows = known.rows.value(mode);
        QCOMPARE(widget.largestTable()->rowCount(), rows.size());
        QCOMPARE(int(widget.largestIndices().size()), rows.size());
        for (int row = 0; row < rows.size(); ++row) {
            for (int column = 0; column < 4; ++column)
                QCOMPARE(widget.largestTable()->item(row, column)->text(), rows[row][column]);
        }

        QCOMPARE(widget.heatmap()->rows(), 3);
        QCOMPARE(widget.heatmap()->columns(), 4);
        QCOMPARE(widget.heatmap()->colorMap(), comboIndex == 0 ? ColorMap::Diverging : ColorMap::Viridis);
    }

    void modeChangeRecomputes()
    {
        Known known;
        QVERIFY(loadKnown(known));
        TensorCompareWidget widget;
        widget.setTensors(known.a, QStringLiteral("a"), known.b, QStringLiteral("b"));
        QVERIFY(widget.summaryText().contains(QStringLiteral("mean |diff| ") + known.summary["difference"][1]));
        widget.modeCombo()->setCurrentIndex(2);
        QCOMPARE(widget.mode(), TensorCompareWidget::Mode::RelativeDifference);
        QVERIFY(widget.summaryText().contains(QStringLiteral("mean |diff| ") + known.summary["relative"][1]));
        QCOMPARE(widget.largestTable()->item(1, 0)->text(), known.rows["relative"][1][0]);
    }

    void clickingARowActivatesItsIndex()
    {
        Known known;
        QVERIFY(loadKnown(known));
        TensorCompareWidget widget;
        widget.resize(600, 600);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        widget.setTensors(known.a, QStringLiteral("a"), known.b, QStringLiteral("b"));
        QSignalSpy activated(&widget, &TensorCompareWidget::indexActivated);
        QTableWidget* table = widget.largestTable();
        const QRect rect = table->visualItemRect(table->item(2, 1));
        QVERIFY(rect.isValid());
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(activated.size(), 1);
        const auto index = activated.first().at(0).value<std::vector<std::int64_t>>();
        // The third largest difference of a - b is at [0, 3] (numpy).
        QCOMPARE(known.rows["difference"][2][0], QStringLiteral("[0, 3]"));
        QCOMPARE(index, (std::vector<std::int64_t> { 0, 3 }));
    }

    void hoverShowsTheElement()
    {
        // 3-D tensors fold into rows for the heatmap; the hover line unfolds the position again.
        std::vector<float> a(24), b(24);
        for (int i = 0; i < 24; ++i) {
            a[std::size_t(i)] = float(i);
            b[std::size_t(i)] = float(i) * 0.5f;
        }
        TensorCompareWidget widget;
        widget.setTensors(floats(a, { 2, 3, 4 }), QStringLiteral("a"), floats(b, { 2, 3, 4 }), QStringLiteral("b"));
        QCOMPARE(widget.heatmap()->rows(), 6);
        QCOMPARE(widget.heatmap()->columns(), 4);
        // Row 4, column 1 of the folded picture is element [1, 1, 1] = 17: a 17, b 8.5, a - b 8.5.
        // What the heatmap reports for a hover there (its own mouse handling is tested with the heatmap).
        emit widget.heatmap()->hovered(4, 1, 8.5);
        QCOMPARE(widget.hoverLabel()->text(), QStringLiteral("[1, 1, 1]   a 17   b 8.5   difference 8.5"));
        emit widget.heatmap()->hoverLeft();
        QVERIFY(widget.hoverLabel()->text().isEmpty());
    }

    void shapeMismatchIsReported()
    {
        TensorCompareWidget widget;
        widget.setTensors(floats({ 1, 2, 3, 4 }, { 2, 2 }), QStringLiteral("a"), floats({ 1, 2, 3, 4 }, { 4 }),
                          QStringLiteral("b"));
        QVERIFY(!widget.isComputing());
        QVERIFY2(widget.summaryText().contains(QStringLiteral("shapes differ")), qPrintable(widget.summaryText()));
        QCOMPARE(widget.largestTable()->rowCount(), 0);
        QCOMPARE(widget.heatmap()->rows(), 0);
        widget.clear();
        QCOMPARE(widget.largestTable()->rowCount(), 0);
        QVERIFY(!widget.summaryText().isEmpty());
    }

    void largeTensorsInTheBackground()
    {
        // 3-D, 40 x 50 x 40 = 80000 elements: b = a except at [7, 11, 13] (+3) and [30, 2, 39] (-1).
        const std::int64_t n = 40 * 50 * 40;
        QVERIFY(n > TensorCompareWidget::kSynchronousLimit);
        std::vector<float> values(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i)
            values[std::size_t(i)] = float(i % 1000) / 8;
        std::vector<float> changed = values;
        changed[std::size_t((7 * 50 + 11) * 40 + 13)] += 3;
        changed[std::size_t((30 * 50 + 2) * 40 + 39)] -= 1;
        TensorCompareWidget widget;
        widget.setTensors(floats(changed, { 40, 50, 40 }), QStringLiteral("b"), floats(values, { 40, 50, 40 }),
                          QStringLiteral("a"));
        // On a worker; the result may even be there before this line (the gated case below is held).
        QTRY_VERIFY(!widget.isComputing());
        const auto indices = widget.largestIndices();
        QCOMPARE(int(indices.size()), 2);
        QCOMPARE(indices[0], (std::vector<std::int64_t> { 7, 11, 13 }));
        QCOMPARE(indices[1], (std::vector<std::int64_t> { 30, 2, 39 }));
        QVERIFY(widget.summaryText().contains(QStringLiteral("differing 2 of 80000")));
        // Rank 3 folds into rows for the heatmap.
        QCOMPARE(widget.heatmap()->rows(), 40 * 50);
        QCOMPARE(widget.heatmap()->columns(), 40);
    }

    void switchingCancelsTheRunningComparison()
    {
        std::promise<void> open;
        std::shared_future<void> gate = open.get_future().share();
        // Whatever happens below, the worker must be let go before the pool is torn down at exit.
        auto release = qScopeGuard([&] {
            if (gate.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
                open.set_value();
            workerPool()->waitForDone();
        });
        const std::int64_t count = TensorCompareWidget::kSynchronousLimit + 1;
        TensorCompareWidget widget;
        QSignalSpy ready(&widget, &TensorCompareWidget::comparisonReady);
        widget.setTensors(gated(1, count, gate), QStringLiteral("a"), gated(2, count, gate), QStringLiteral("b"));
        QVERIFY(widget.isComputing());
        QVERIFY(widget.summaryText().startsWith(QStringLiteral("Comparing")));
        // A small pair replaces it while the first is still held.
        widget.setTensors(floats({ 1, 2 }, { 2 }), QStringLiteral("a"), floats({ 1, 5 }, { 2 }), QStringLiteral("b"));
        QVERIFY(!widget.isComputing());
        QCOMPARE(ready.size(), 1);
        QVERIFY(widget.summaryText().startsWith(QStringLiteral("max |diff| 3 ")));
        // Let the first comparison finish: its result arrives late and is not shown.
        open.set_value();
        workerPool()->waitForDone();
        QTest::qWait(50);
        QCOMPARE(ready.size(), 1);
        QVERIFY(widget.summaryText().startsWith(QStringLiteral("max |diff| 3 ")));
        QCOMPARE(widget.largestIndices(), (std::vector<std::vector<std::int64_t>> { { 1 } }));
    }
};

QTEST_MAIN(TstTensorCompareWidget)
#include "tst_tensorcomparewidget.moc"
