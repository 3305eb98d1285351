#include "models/tensor/summarytensors.h"

#include "models/summary/summarystore.h"
#include "models/tensor/tensorlistmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

#include <cstring>

using namespace runlens;
using namespace runlens::models;
using models::tensor::SummaryTensorSet;

namespace {

const QString kFileA = QStringLiteral("/logs/run1/events.out.tfevents.100.host");
const QString kFileB = QStringLiteral("/logs/run1/events.out.tfevents.200.host");

/// The value the tests put at element (i, j) of a tag's tensor at `step`.
double expected(qint64 step, int i, int j)
{
    return 0.25 * double(step) + 10.0 * i + j;
}

/// A float32 [2, 3] tensor holding expected(step, i, j), strides left to the set when `withStrides` is false.
models::summary::SummaryTensor item(qint64 step, bool withStrides = true)
{
    std::vector<std::byte> bytes(6 * sizeof(float));
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
            const float v = float(expected(step, i, j));
            std::memcpy(bytes.data() + (i * 3 + j) * sizeof(float), &v, sizeof(float));
        }
    }
    models::summary::SummaryTensor out;
    out.step = step;
    out.wallTime = 1.7e9 + double(step);
    out.tensor.dtype = models::tensor::DType::Float32;
    out.tensor.shape = { 2, 3 };
    if (withStrides)
        out.tensor.strides = models::tensor::Tensor::contiguousStrides(out.tensor.shape, 4);
    out.tensor.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    return out;
}

models::summary::TensorSeries series(const QString& tag, std::initializer_list<qint64> steps)
{
    models::summary::TensorSeries s;
    s.tag = tag;
    for (const qint64 step : steps)
        s.items.push_back(item(step));
    s.seen = qint64(steps.size());
    return s;
}

models::summary::SummaryBatch batch(std::vector<models::summary::TensorSeries> tensors)
{
    models::summary::SummaryBatch b;
    b.tensors = std::move(tensors);
    return b;
}

QList<int> stepsOf(const models::summary::TensorSeries& s)
{
    QList<int> out;
    for (const models::summary::SummaryTensor& t : s.items)
        out << int(t.step);
    return out;
}

} // namespace

class TestSummaryTensors : public QObject
{
    Q_OBJECT
private slots:
    void oneSeriesPerRunAndTagAcrossFiles();
    void valuesOpenAsRecorded();
    void aPollReplacesWhatItsFileGave();
    void batchesWithoutTensorsChangeNothing();
    void shortValuesAreReportedNotRead();
    void sameStepTwiceInOneFile();
    void catalogWithSummarySeries();
    void listModelShowsSummarySeries();
};

void TestSummaryTensors::oneSeriesPerRunAndTagAcrossFiles()
{
    SummaryTensorSet set;
    models::summary::SummaryStore store;
    const auto first = batch({ series(QStringLiteral("w"), { 0, 10, 20 }), series(QStringLiteral("b"), { 20 }) });
    const auto second = batch({ series(QStringLiteral("w"), { 30 }) });
    const auto other = batch({ series(QStringLiteral("w"), { 5 }) });
    for (const auto& [run, file, b] :
         { std::tuple { QStringLiteral("run1"), kFileA, first }, std::tuple { QStringLiteral("run1"), kFileB, second },
           std::tuple { QStringLiteral("run2"), QStringLiteral("/logs/run2/x.summary.1_MS"), other } }) {
        QVERIFY(set.update(run, file, b));
        store.update(run, file, b);
    }
    QCOMPARE(set.runs(), (QStringList { QStringLiteral("run1"), QStringLiteral("run2") }));

    const QList<models::tensor::TensorSeries> all = set.series();
    QCOMPARE(all.size(), 3);
    QCOMPARE(all[0].run, QStringLiteral("run1"));
    QCOMPARE(all[0].name, QStringLiteral("b"));
    QCOMPARE(all[1].name, QStringLiteral("w"));
    QCOMPARE(all[2].run, QStringLiteral("run2"));
    for (const models::tensor::TensorSeries& s : all)
        QCOMPARE(s.kind, QStringLiteral("summary"));

    // The versions are those the store merges for the run and tag, file by file.
    const models::tensor::TensorCatalog catalog(all);
    const models::tensor::TensorSeries& w
        = catalog.series()[catalog.indexOf(QStringLiteral("w"), QStringLiteral("run1"))];
    QCOMPARE(w.steps(), stepsOf(store.tensors(QStringLiteral("run1"), QStringLiteral("w"))));
    QCOMPARE(w.steps(), (QList<int> { 0, 10, 20, 30 }));
    QCOMPARE(w.versions[2].path, kFileA);
    QCOMPARE(w.versions[3].path, kFileB);
    QCOMPARE(w.versions[3].location(), kFileB + QStringLiteral(":w@30"));
    QVERIFY(SummaryTensorSet::isSummaryTensor(w.versions[3]));
    QCOMPARE(SummaryTensorSet::tagOf(w.versions[3]), QStringLiteral("w"));
    QCOMPARE(w.versions[3].typeText(), QStringLiteral("float32[2, 3]"));
    QCOMPARE(w.versions[3].byteSize, 24);
    // 1.7e9 + 30 s after the epoch.
    QCOMPARE(w.versions[3].note, QStringLiteral("written 2023-11-14T22:13:50Z"));
}

void TestSummaryTensors::valuesOpenAsRecorded()
{
    SummaryTensorSet set;
    set.update(QStringLiteral("run1"), kFileA, batch({ series(QStringLiteral("w"), { 0, 10 }) }));
    // A reader that leaves strides out gets C order.
    models::summary::TensorSeries bare;
    bare.tag = QStringLiteral("bare");
    bare.items.push_back(item(40, false));
    set.update(QStringLiteral("run1"), kFileA, std::vector { bare });

    const models::tensor::TensorCatalog catalog(set.series());
    for (const auto& [tag, step] :
         { std::pair { QStringLiteral("w"), 10 }, std::pair { QStringLiteral("bare"), 40 } }) {
        const auto [s, v] = catalog.findLocation(QStringLiteral("%1:%2@%3").arg(kFileA, tag).arg(step));
        QVERIFY2(s >= 0, qPrintable(tag));
        const models::tensor::TensorResult opened = catalog.series()[s].versions[v].source->open();
        QVERIFY2(opened.tensor, qPrintable(opened.error));
        QCOMPARE(opened.tensor->shape, (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(opened.tensor->name, tag);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                QCOMPARE(opened.tensor->value({ i, j }), expected(step, i, j));
    }
}

void TestSummaryTensors::aPollReplacesWhatItsFileGave()
{
    SummaryTensorSet set;
    set.update(QStringLiteral("run1"), kFileA, batch({ series(QStringLiteral("w"), { 0, 10, 20 }) }));
    set.update(QStringLiteral("run1"), kFileB, batch({ series(QStringLiteral("w"), { 30 }) }));
    // The reservoir of file A let step 0 go and took 25; file B is untouched.
    set.update(QStringLiteral("run1"), kFileA, batch({ series(QStringLiteral("w"), { 10, 20, 25 }) }));
    const models::tensor::TensorCatalog catalog(set.series());
    QCOMPARE(catalog.series().size(), 1);
    QCOMPARE(catalog.series()[0].steps(), (QList<int> { 10, 20, 25, 30 }));

    QVERIFY(set.removeRun(QStringLiteral("run1")));
    QVERIFY(!set.removeRun(QStringLiteral("run1")));
    QVERIFY(set.isEmpty());
    QVERIFY(set.series().isEmpty());
}

void TestSummaryTensors::batchesWithoutTensorsChangeNothing()
{
    SummaryTensorSet set;
    models::summary::SummaryBatch histogramsOnly;
    histogramsOnly.histograms.push_back(
        models::summary::HistogramSeries { QStringLiteral("h"), {}, { models::summary::Histogram {} } });
    QVERIFY(!set.update(QStringLiteral("run1"), kFileA, histogramsOnly));
    QVERIFY(set.isEmpty());
    set.update(QStringLiteral("run1"), kFileA, batch({ series(QStringLiteral("w"), { 1 }) }));
    set.clear();
    QVERIFY(set.isEmpty());
}

void TestSummaryTensors::shortValuesAreReportedNotRead()
{
    models::summary::TensorSeries s = series(QStringLiteral("w"), { 7 });
    s.items[0].tensor.shape = { 4, 4 }; // 64 bytes claimed over 24
    s.items[0].tensor.strides = models::tensor::Tensor::contiguousStrides(s.items[0].tensor.shape, 4);
    models::summary::TensorSeries missing = series(QStringLiteral("v"), { 7 });
    missing.items[0].tensor.data.reset();
    models::summary::TensorSeries huge = series(QStringLiteral("u"), { 7 });
    huge.items[0].tensor.shape = { std::int64_t(1) << 62, 4 }; // strides overflow
    huge.items[0].tensor.strides = { 16, 4 };
    SummaryTensorSet set;
    set.update(QStringLiteral("run1"), kFileA, std::vector { s, missing, huge });
    const QList<models::tensor::TensorSeries> all = set.series();
    QCOMPARE(all.size(), 3);
    for (const models::tensor::TensorSeries& one : all) {
        const models::tensor::TensorResult opened = one.versions[0].source->open();
        QVERIFY(!opened.tensor);
        QVERIFY2(opened.error.contains(kFileA), qPrintable(opened.error));
        QVERIFY2(opened.error.contains(QStringLiteral("tag %1, step 7").arg(one.name)), qPrintable(opened.error));
    }
}

void TestSummaryTensors::sameStepTwiceInOneFile()
{
    SummaryTensorSet set;
    set.update(QStringLiteral("run1"), kFileA, batch({ series(QStringLiteral("w"), { 3, 3 }) }));
    const models::tensor::TensorCatalog catalog(set.series());
    QCOMPARE(catalog.series()[0].versions.size(), 2);
    QCOMPARE(catalog.findLocation(kFileA + QStringLiteral(":w@3")), (std::pair { 0, 0 }));
    QCOMPARE(catalog.findLocation(kFileA + QStringLiteral(":w@3#2")), (std::pair { 0, 1 }));
    QCOMPARE(SummaryTensorSet::tagOf(catalog.series()[0].versions[1]), QStringLiteral("w"));
}

void TestSummaryTensors::catalogWithSummarySeries()
{
    models::tensor::TensorSeries file;
    file.name = QStringLiteral("conv1.weight");
    file.run = QStringLiteral("run1");
    models::tensor::TensorInfo info;
    info.path = QStringLiteral("/logs/run1/step_0/conv1.weight.npy");
    info.step = 0;
    file.versions << info;
    const models::tensor::TensorCatalog files(
        { file }, { Diagnostic { Severity::Warning, QStringLiteral("/x.npy"), -1, -1, QStringLiteral("unreadable") } });

    SummaryTensorSet set;
    set.update(QStringLiteral("run1"), kFileA, batch({ series(QStringLiteral("w"), { 0, 10 }) }));
    const models::tensor::TensorCatalog merged = files.withSeries(set.series());
    QCOMPARE(files.series().size(), 1); // unchanged
    QCOMPARE(merged.series().size(), 2);
    QCOMPARE(merged.diagnostics().size(), 1);
    QCOMPARE(merged.tensorCount(), 3);
    QCOMPARE(merged.indexOf(QStringLiteral("conv1.weight"), QStringLiteral("run1")), 0);
    QCOMPARE(merged.indexOf(QStringLiteral("w"), QStringLiteral("run1")), 1);
    QCOMPARE(merged.findLocation(kFileA + QStringLiteral(":w@10")), (std::pair { 1, 1 }));
    QCOMPARE(merged.steps(), (QList<int> { 0, 10 }));
}

void TestSummaryTensors::listModelShowsSummarySeries()
{
    SummaryTensorSet set;
    set.update(QStringLiteral("run1"), kFileA, batch({ series(QStringLiteral("w"), { 0, 10, 20 }) }));
    set.update(QStringLiteral("run2"), kFileB, batch({ series(QStringLiteral("w"), { 5 }) }));
    models::tensor::TensorListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(std::make_shared<const models::tensor::TensorCatalog>(set.series()));
    QVERIFY(model.isGrouped());
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex run1 = model.index(0, 0);
    QCOMPARE(run1.data().toString(), QStringLiteral("run1"));
    const QModelIndex w = model.index(0, 0, run1);
    QCOMPARE(w.data().toString(), QStringLiteral("w"));
    QCOMPARE(w.siblingAtColumn(models::tensor::TensorListModel::KindColumn).data().toString(),
             QStringLiteral("summary"));
    QCOMPARE(w.siblingAtColumn(models::tensor::TensorListModel::StepsColumn).data().toInt(), 3);
    QCOMPARE(w.siblingAtColumn(models::tensor::TensorListModel::ShapeColumn).data().toString(),
             QStringLiteral("[2, 3]"));
    QCOMPARE(w.data(models::tensor::TensorListModel::StepsRole).value<QList<int>>(), (QList<int> { 0, 10, 20 }));
    QCOMPARE(w.data(models::tensor::TensorListModel::LocationRole).toString(), kFileA + QStringLiteral(":w@20"));

    models::tensor::TensorFilterModel filter;
    filter.setSourceModel(&model);
    filter.setQuery(QStringLiteral("kind:summary step:5"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, 0).data().toString(), QStringLiteral("run2"));
}

QTEST_GUILESS_MAIN(TestSummaryTensors)
#include "tst_summarytensors.moc"
