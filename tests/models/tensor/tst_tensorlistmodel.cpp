#include "models/tensor/tensorlistmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace runlens::models::tensor;

namespace {

TensorInfo info(const QString& path, int step, std::vector<std::int64_t> shape, std::int64_t bytes,
                DType dtype = DType::Float32)
{
    TensorInfo t;
    t.path = path;
    t.format = QStringLiteral("npy");
    t.step = step;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.byteSize = bytes;
    return t;
}

TensorSeries series(const QString& name, const QString& kind, const QString& run, int rank, QList<TensorInfo> versions)
{
    TensorSeries s;
    s.name = name;
    s.kind = kind;
    s.run = run;
    s.rank = rank;
    s.versions = std::move(versions);
    return s;
}

/// One run: conv1.weight at steps 0, 30, 59; conv1.bias at 30; fc1.weight (float16) at 59.
std::shared_ptr<const TensorCatalog> oneRun()
{
    QList<TensorSeries> all;
    all << series(QStringLiteral("conv1.weight"), QStringLiteral("weight"), QStringLiteral("base"), -1,
                  { info(QStringLiteral("/r/step_0/conv1.weight.npy"), 0, { 6, 3, 5, 5 }, 1800),
                    info(QStringLiteral("/r/step_30/conv1.weight.npy"), 30, { 6, 3, 5, 5 }, 1800),
                    info(QStringLiteral("/r/step_59/conv1.weight.npy"), 59, { 6, 3, 5, 5 }, 1800) });
    all << series(QStringLiteral("conv1.bias"), QStringLiteral("bias"), QStringLiteral("base"), -1,
                  { info(QStringLiteral("/r/step_30/conv1.bias.npy"), 30, { 6 }, 24) });
    all << series(QStringLiteral("fc1.weight"), QStringLiteral("weight_grad"), QStringLiteral("base"), -1,
                  { info(QStringLiteral("/r/step_59/fc1.weight_grad.npy"), 59, { 120, 400 }, 96000, DType::Float16) });
    return std::make_shared<const TensorCatalog>(all);
}

} // namespace

class TestTensorListModel : public QObject
{
    Q_OBJECT
private slots:
    void flatWithOneRun();
    void groupedByRunAndRank();
    void nanInfBadge();
    void filterSyntax_data();
    void filterSyntax();
    void filterKeepsGroupsOfMatches();
    void humanBytes();
};

void TestTensorListModel::flatWithOneRun()
{
    TensorListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(oneRun());
    QVERIFY(!model.isGrouped());
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(TensorListModel::ColumnCount));
    // The catalog sorts by name: conv1.bias, conv1.weight, fc1.weight.
    const QModelIndex weight = model.index(1, TensorListModel::NameColumn);
    QCOMPARE(weight.data().toString(), QStringLiteral("conv1.weight"));
    QCOMPARE(weight.siblingAtColumn(TensorListModel::KindColumn).data().toString(), QStringLiteral("weight"));
    QCOMPARE(weight.siblingAtColumn(TensorListModel::ShapeColumn).data().toString(), QStringLiteral("[6, 3, 5, 5]"));
    QCOMPARE(weight.siblingAtColumn(TensorListModel::DTypeColumn).data().toString(), QStringLiteral("float32"));
    QCOMPARE(weight.siblingAtColumn(TensorListModel::SizeColumn).data().toString(), QStringLiteral("1.8 KiB"));
    QCOMPARE(weight.siblingAtColumn(TensorListModel::StepsColumn).data().toInt(), 3);
    QCOMPARE(weight.data(TensorListModel::StepsRole).value<QList<int>>(), (QList<int> { 0, 30, 59 }));
    QCOMPARE(weight.data(TensorListModel::LocationRole).toString(), QStringLiteral("/r/step_59/conv1.weight.npy"));
    const QString tip = weight.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("step 30: /r/step_30/conv1.weight.npy")), qPrintable(tip));
    QCOMPARE(model.index(2, TensorListModel::DTypeColumn).data().toString(), QStringLiteral("float16"));
    QCOMPARE(model.seriesAt(weight), 1);
    QCOMPARE(model.indexOfSeries(2), model.index(2, 0));
    QCOMPARE(model.rowCount(weight), 0);
}

void TestTensorListModel::groupedByRunAndRank()
{
    QList<TensorSeries> all;
    all << series(QStringLiteral("a"), QStringLiteral("act"), QStringLiteral("run1"), 0,
                  { info(QStringLiteral("/x/rank_0/a.npy"), 1, { 2 }, 8) });
    all << series(QStringLiteral("b"), QStringLiteral("act"), QStringLiteral("run1"), 0,
                  { info(QStringLiteral("/x/rank_0/b.npy"), 1, { 2 }, 8) });
    all << series(QStringLiteral("a"), QStringLiteral("act"), QStringLiteral("run1"), 1,
                  { info(QStringLiteral("/x/rank_1/a.npy"), 1, { 2 }, 8) });
    all << series(QStringLiteral("w"), QStringLiteral("weight"), QStringLiteral("run2"), -1,
                  { info(QStringLiteral("/y/w.npy"), -1, { 2 }, 8) });
    TensorListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(std::make_shared<const TensorCatalog>(all));
    QVERIFY(model.isGrouped());
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("run1 · rank 0"));
    QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("run1 · rank 1"));
    QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("run2"));
    QCOMPARE(model.index(0, 0).data(TensorListModel::SeriesIndexRole).toInt(), -1);
    QCOMPARE(model.rowCount(model.index(0, 0)), 2);
    QCOMPARE(model.rowCount(model.index(1, 0)), 1);
    const QModelIndex b = model.index(1, 0, model.index(0, 0));
    QCOMPARE(b.data().toString(), QStringLiteral("b"));
    QCOMPARE(model.parent(b), model.index(0, 0));
    QCOMPARE(model.seriesAt(b), 1);
    QCOMPARE(model.indexOfSeries(2), model.index(0, 0, model.index(1, 0)));
    QCOMPARE(model.indexOfSeries(3).data(TensorListModel::LocationRole).toString(), QStringLiteral("/y/w.npy"));

    // The opened folder's own run "." is shown under the folder's name once the model knows the folder.
    QList<TensorSeries> withRoot = all;
    withRoot.last().run = QStringLiteral(".");
    model.setCatalog(std::make_shared<const TensorCatalog>(withRoot));
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("(top folder)"));
    model.setRoot(QStringLiteral("/data/cnn_job"));
    model.setCatalog(std::make_shared<const TensorCatalog>(withRoot));
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("cnn_job"));
}

void TestTensorListModel::nanInfBadge()
{
    TensorListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(oneRun());
    const QModelIndex status = model.index(1, TensorListModel::StatusColumn);
    QVERIFY(!status.data(TensorListModel::NanInfRole).isValid());
    QVERIFY(status.data().toString().isEmpty());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setStatistics(QStringLiteral("/r/step_0/conv1.weight.npy"), false);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(status.data(TensorListModel::NanInfRole), QVariant(false));
    model.setStatistics(QStringLiteral("/r/step_30/conv1.weight.npy"), true);
    QCOMPARE(status.data(TensorListModel::NanInfRole), QVariant(true));
    QCOMPARE(status.data().toString(), QStringLiteral("NaN/Inf"));
    QVERIFY(model.index(1, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("NaN")));
    // Other series and unknown locations are untouched.
    model.setStatistics(QStringLiteral("/nowhere.npy"), true);
    QCOMPARE(changed.size(), 2);
    QVERIFY(!model.seriesHasNanOrInf(0).has_value());
}

void TestTensorListModel::filterSyntax_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QStringList>("names");
    const QStringList all { QStringLiteral("conv1.bias"), QStringLiteral("conv1.weight"),
                            QStringLiteral("fc1.weight") };
    QTest::newRow("empty") << QString() << all;
    QTest::newRow("name") << QStringLiteral("conv1") << QStringList { all[0], all[1] };
    QTest::newRow("name case") << QStringLiteral("CONV1 WEIGHT") << QStringList { all[1] };
    QTest::newRow("kind") << QStringLiteral("kind:weight") << QStringList { all[1], all[2] };
    QTest::newRow("kind grad") << QStringLiteral("kind:grad") << QStringList { all[2] };
    QTest::newRow("step") << QStringLiteral("step:30") << QStringList { all[0], all[1] };
    QTest::newRow("step none") << QStringLiteral("step:31") << QStringList {};
    QTest::newRow("step range") << QStringLiteral("step:40-100") << QStringList { all[1], all[2] };
    QTest::newRow("all three") << QStringLiteral("conv1 kind:weight step:30") << QStringList { all[1] };
    QTest::newRow("dtype") << QStringLiteral("dtype:float16") << QStringList { all[2] };
    QTest::newRow("bad step") << QStringLiteral("step:abc") << QStringList {};
    QTest::newRow("kind being typed") << QStringLiteral("fc1 kind:") << QStringList { all[2] };
}

void TestTensorListModel::filterSyntax()
{
    QFETCH(QString, query);
    QFETCH(QStringList, names);
    TensorListModel model;
    model.setCatalog(oneRun());
    TensorFilterModel filter;
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&model);
    filter.setQuery(query);
    QStringList shown;
    for (int r = 0; r < filter.rowCount(); ++r)
        shown << filter.index(r, 0).data().toString();
    QCOMPARE(shown, names);
}

void TestTensorListModel::filterKeepsGroupsOfMatches()
{
    QList<TensorSeries> all;
    all << series(QStringLiteral("a"), QStringLiteral("act"), QStringLiteral("run1"), -1,
                  { info(QStringLiteral("/x/a.npy"), 1, { 2 }, 8) });
    all << series(QStringLiteral("w"), QStringLiteral("weight"), QStringLiteral("run2"), -1,
                  { info(QStringLiteral("/y/w.npy"), 2, { 2 }, 8) });
    TensorListModel model;
    model.setCatalog(std::make_shared<const TensorCatalog>(all));
    TensorFilterModel filter;
    filter.setSourceModel(&model);
    filter.setQuery(QStringLiteral("kind:weight"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, 0).data().toString(), QStringLiteral("run2"));
    QCOMPARE(filter.rowCount(filter.index(0, 0)), 1);
    QCOMPARE(filter.index(0, 0, filter.index(0, 0)).data().toString(), QStringLiteral("w"));
    filter.setQuery(QStringLiteral("run:run1"));
    QCOMPARE(filter.index(0, 0).data().toString(), QStringLiteral("run1"));
}

void TestTensorListModel::humanBytes()
{
    QCOMPARE(TensorListModel::humanBytes(512), QStringLiteral("512 bytes"));
    QCOMPARE(TensorListModel::humanBytes(1536), QStringLiteral("1.5 KiB"));
    QCOMPARE(TensorListModel::humanBytes(3 * 1024 * 1024), QStringLiteral("3.0 MiB"));
}

QTEST_GUILESS_MAIN(TestTensorListModel)
#include "tst_tensorlistmodel.moc"
