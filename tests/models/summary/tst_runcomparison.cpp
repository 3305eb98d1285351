#include "models/scalars/scalarstore.h"
#include "models/summary/runcomparison.h"
#include "models/summary/summarystore.h"
#include "tests/models/summary/comparisontestdata.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace runlens;
using namespace runlens::models::scalars;
using namespace runlens::models::summary;

using namespace runlens::test::comparison;

namespace {

// The expected summary of a point list, written without the model's code: the last point, and the first
// point holding the extreme finite value.
struct Expected
{
    double finalValue;
    double best;
    qint64 bestStep;
};

Expected expected(const Points& points, bool minimize)
{
    Expected e { points.back().second, kNaN, 0 };
    for (const auto& [step, value] : points) {
        if (!std::isfinite(value))
            continue;
        if (std::isnan(e.best) || (minimize && value < e.best) || (!minimize && value > e.best)) {
            e.best = value;
            e.bestStep = step;
        }
    }
    return e;
}

} // namespace

class TestRunComparison : public QObject
{
    Q_OBJECT

private slots:
    void rowsAndColumns();
    void hyperParameterValues();
    void lineageValues();
    void finalAndBest();
    void declaredMetricsFirst();
    void defaultVisibility();
    void sortsNumericColumnsNumerically();
    void goalSwitch();
    void followsStoreChanges();
    void emptyStores();
};

void TestRunComparison::rowsAndColumns()
{
    ScalarStore scalars;
    SummaryStore summaries;
    fill(scalars, summaries);
    RunComparison model(&scalars, &summaries);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);

    QCOMPARE(model.runs(), (QStringList { "a", "a/validation", "b", "c", "d" }));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.column(0).key, QStringLiteral("run"));
    QCOMPARE(model.data(model.index(3, 0)).toString(), QStringLiteral("c"));
    // Declared hyper-parameters in declaration order, then the undeclared one.
    QCOMPARE(model.column(1).key, QStringLiteral("hparam/lr"));
    QCOMPARE(model.column(1).title, QStringLiteral("Learning rate"));
    QCOMPARE(model.column(2).key, QStringLiteral("hparam/optimizer"));
    QCOMPARE(model.column(3).key, QStringLiteral("hparam/layers"));
    QVERIFY(model.column(1).numeric);
    QVERIFY(!model.column(2).numeric);
    QVERIFY(model.column(3).numeric);
    QVERIFY(model.columnOf(QStringLiteral("status")) > 0);
    for (const char* tag : { "train/loss", "accuracy", "val/acc" }) {
        QVERIFY2(model.columnOf(QStringLiteral("final/") + tag) > 0, tag);
        QVERIFY2(model.columnOf(QStringLiteral("best/") + tag) > 0, tag);
        QVERIFY2(model.columnOf(QStringLiteral("beststep/") + tag) > 0, tag);
    }
    QCOMPARE(model.headerData(1, Qt::Horizontal, RunComparison::ColumnKeyRole).toString(), QStringLiteral("hparam/lr"));
    const int status = model.columnOf(QStringLiteral("status"));
    QCOMPARE(model.data(model.index(model.rowOfRun("b"), status)).toString(), QStringLiteral("success"));
    QVERIFY(!model.value(model.rowOfRun("a"), status).isValid());

    // The opened folder's own run is shown under the folder's name; the run stays the key.
    summaries.setRoot(QStringLiteral("/data/cnn_job"));
    scalars.append(QStringLiteral("."), { tagPoints(QStringLiteral("train/loss"), kLossC) });
    QTRY_VERIFY(model.rowOfRun(QStringLiteral(".")) >= 0);
    const int top = model.rowOfRun(QStringLiteral("."));
    QCOMPARE(model.data(model.index(top, 0)).toString(), QStringLiteral("cnn_job"));
    QCOMPARE(model.data(model.index(top, 0), RunComparison::RunRole).toString(), QStringLiteral("."));
}

void TestRunComparison::hyperParameterValues()
{
    ScalarStore scalars;
    SummaryStore summaries;
    fill(scalars, summaries);
    RunComparison model(&scalars, &summaries);
    const int lr = model.columnOf(QStringLiteral("hparam/lr"));
    const int opt = model.columnOf(QStringLiteral("hparam/optimizer"));
    QCOMPARE(model.number(model.rowOfRun("a"), lr), 0.01);
    QCOMPARE(model.number(model.rowOfRun("b"), lr), 0.1);
    QCOMPARE(model.data(model.index(model.rowOfRun("d"), lr)).toString(), QStringLiteral("0.001"));
    QCOMPARE(model.data(model.index(model.rowOfRun("b"), opt)).toString(), QStringLiteral("sgd"));
    // The lineage run has no hparams: empty cells, not zeros.
    QVERIFY(!model.value(model.rowOfRun("c"), lr).isValid());
    QVERIFY(std::isnan(model.number(model.rowOfRun("c"), lr)));
    QCOMPARE(model.data(model.index(model.rowOfRun("c"), lr)).toString(), QString());
    QVERIFY(std::isnan(model.number(model.rowOfRun("b"), opt)));
}

void TestRunComparison::lineageValues()
{
    ScalarStore scalars;
    SummaryStore summaries;
    fill(scalars, summaries);
    RunComparison model(&scalars, &summaries);
    const int c = model.rowOfRun("c");
    const auto text = [&](const char* key) {
        const int col = model.columnOf(QLatin1String(key));
        return col < 0 ? QStringLiteral("<no column %1>").arg(QLatin1String(key))
                       : model.data(model.index(c, col)).toString();
    };
    QCOMPARE(text("lineage/optimizer"), QStringLiteral("Momentum"));
    QCOMPARE(text("lineage/learning_rate"), QStringLiteral("0.05"));
    QCOMPARE(text("lineage/batch_size"), QStringLiteral("32"));
    QCOMPARE(text("lineage/epoch"), QStringLiteral("10"));
    QCOMPARE(text("lineage/loss_function"), QStringLiteral("SoftmaxCrossEntropyWithLogits"));
    QCOMPARE(text("lineage/train_dataset_path"), QStringLiteral("/data/mnist/train"));
    QCOMPARE(text("lineage/train_dataset_size"), QStringLiteral("60000"));
    QCOMPARE(text("lineage/network"), QStringLiteral("LeNet5"));
    QCOMPARE(text("lineage/device_num"), QStringLiteral("8"));
    QCOMPARE(text("lineage/metric/accuracy"), QStringLiteral("0.97"));
    QCOMPARE(text("lineage/user/note"), QStringLiteral("baseline"));
    QCOMPARE(model.column(model.columnOf("lineage/optimizer")).title, QStringLiteral("Optimizer"));
    QVERIFY(model.column(model.columnOf("lineage/batch_size")).numeric);
    QVERIFY(!model.column(model.columnOf("lineage/network")).numeric);
    // Keys no run has get no column.
    QCOMPARE(model.columnOf("lineage/model_path"), -1);
    // Runs without lineage have empty lineage cells.
    QVERIFY(!model.value(model.rowOfRun("a"), model.columnOf("lineage/optimizer")).isValid());
}

void TestRunComparison::finalAndBest()
{
    ScalarStore scalars;
    SummaryStore summaries;
    fill(scalars, summaries);
    RunComparison model(&scalars, &summaries);
    struct Case
    {
        const char* run;
        const char* tag;
        Points points;
        bool minimize;
    };
    const Case cases[] = {
        { "a", "train/loss", kLossA, true },
        { "b", "train/loss", kLossB, true },
        { "c", "train/loss", kLossC, true },
        { "a", "accuracy", kAccA, false },
        { "b", "accuracy", kAccB, false },
        // Declared with group "validation": read from the sub-run.
        { "a", "val/acc", kValAccA, false },
    };
    for (const Case& k : cases) {
        const QString what = QStringLiteral("%1 %2").arg(QLatin1String(k.run), QLatin1String(k.tag));
        const ::Expected e = expected(k.points, k.minimize);
        const int row = model.rowOfRun(QLatin1String(k.run));
        const double finalValue = model.number(row, model.columnOf(QStringLiteral("final/") + k.tag));
        if (std::isnan(e.finalValue))
            QVERIFY2(std::isnan(finalValue), qPrintable(what));
        else
            QVERIFY2(finalValue == e.finalValue, qPrintable(what));
        QVERIFY2(model.number(row, model.columnOf(QStringLiteral("best/") + k.tag)) == e.best, qPrintable(what));
        QVERIFY2(model.number(row, model.columnOf(QStringLiteral("beststep/") + k.tag)) == double(e.bestStep),
                 qPrintable(what));
        const auto s = model.metric(QLatin1String(k.run), QLatin1String(k.tag));
        QVERIFY(s.valid);
        QCOMPARE(s.points, qint64(k.points.size()));
    }
    // Values worked out by hand, as a check on the helper above.
    QCOMPARE(model.number(model.rowOfRun("a"), model.columnOf("best/train/loss")), 0.7);
    QCOMPARE(model.number(model.rowOfRun("a"), model.columnOf("beststep/train/loss")), 2.0);
    QCOMPARE(model.number(model.rowOfRun("a"), model.columnOf("final/train/loss")), 0.9);
    QCOMPARE(model.number(model.rowOfRun("b"), model.columnOf("best/accuracy")), 0.9);
    QCOMPARE(model.data(model.index(model.rowOfRun("c"), model.columnOf("final/train/loss"))).toString(),
             QStringLiteral("nan"));
    // A run without the tag has an empty cell.
    QVERIFY(!model.value(model.rowOfRun("c"), model.columnOf("final/accuracy")).isValid());
    QVERIFY(RunComparison::minimizesByName(QStringLiteral("eval/Top1_Error")));
    QVERIFY(RunComparison::minimizesByName(QStringLiteral("ppl/perplexity")));
    QVERIFY(!RunComparison::minimizesByName(QStringLiteral("accuracy")));
}

void TestRunComparison::declaredMetricsFirst()
{
    ScalarStore scalars;
    SummaryStore summaries;
    fill(scalars, summaries);
    RunComparison model(&scalars, &summaries);
    QStringList metricTags;
    for (const auto& c : model.columns()) {
        if (c.kind == RunComparison::ColumnKind::MetricFinal)
            metricTags << c.name;
    }
    QCOMPARE(metricTags, (QStringList { "accuracy", "val/acc", "train/loss" }));
    QVERIFY(model.column(model.columnOf("final/accuracy")).declared);
    QVERIFY(!model.column(model.columnOf("final/train/loss")).declared);
    // Metrics come after every hyper-parameter.
    QVERIFY(model.columnOf("final/accuracy") > model.columnOf("lineage/user/note"));
}

void TestRunComparison::defaultVisibility()
{
    ScalarStore scalars;
    SummaryStore summaries;
    fill(scalars, summaries);
    RunComparison model(&scalars, &summaries);
    const auto shown = [&](const char* key) { return model.column(model.columnOf(QLatin1String(key))).defaultVisible; };
    QVERIFY(shown("run"));
    QVERIFY(shown("hparam/lr"));
    QVERIFY(shown("lineage/optimizer"));
    QVERIFY(shown("lineage/user/note"));
    QVERIFY(shown("final/accuracy"));
    QVERIFY(shown("best/accuracy"));
    QVERIFY(!shown("final/train/loss")); // declared metrics replace the loss-like default
    QVERIFY(!shown("beststep/accuracy"));

    // Without declared metrics, the loss-like tags' final values are shown.
    ScalarStore onlyScalars;
    onlyScalars.append(
        QStringLiteral("x"),
        { tagPoints(QStringLiteral("train/loss"), kLossA), tagPoints(QStringLiteral("accuracy"), kAccA) });
    RunComparison plain(&onlyScalars, nullptr);
    QVERIFY(plain.column(plain.columnOf("final/train/loss")).defaultVisible);
    QVERIFY(!plain.column(plain.columnOf("final/accuracy")).defaultVisible);
}

void TestRunComparison::sortsNumericColumnsNumerically()
{
    ScalarStore scalars;
    SummaryStore summaries;
    fill(scalars, summaries);
    RunComparison model(&scalars, &summaries);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(RunComparison::SortRole);
    const auto order = [&](int column) {
        QStringList runs;
        for (int r = 0; r < proxy.rowCount(); ++r) {
            const QModelIndex i = proxy.index(r, column);
            if (proxy.data(i, RunComparison::ValueRole).isValid())
                runs << proxy.data(i, RunComparison::RunRole).toString();
        }
        return runs;
    };
    const int layers = model.columnOf("hparam/layers");
    proxy.sort(layers, Qt::AscendingOrder);
    // 2 < 10 < 100 (as text, "10" < "100" < "2").
    QCOMPARE(order(layers), (QStringList { "b", "a", "d" }));
    proxy.sort(layers, Qt::DescendingOrder);
    QCOMPARE(order(layers), (QStringList { "d", "a", "b" }));
    const int lr = model.columnOf("hparam/lr");
    proxy.sort(lr, Qt::AscendingOrder);
    QCOMPARE(order(lr), (QStringList { "d", "a", "b" }));
    const int opt = model.columnOf("hparam/optimizer");
    proxy.sort(opt, Qt::AscendingOrder);
    QCOMPARE(order(opt), (QStringList { "a", "d", "b" }));
    const int finalLoss = model.columnOf("final/train/loss");
    proxy.sort(finalLoss, Qt::AscendingOrder);
    // nan (run c) sorts below the numbers; then 0.6 (b) < 0.9 (a).
    QCOMPARE(order(finalLoss), (QStringList { "c", "b", "a" }));
}

void TestRunComparison::goalSwitch()
{
    ScalarStore scalars;
    SummaryStore summaries;
    fill(scalars, summaries);
    RunComparison model(&scalars, &summaries);
    const int row = model.rowOfRun("a");
    const int best = model.columnOf("best/train/loss");
    QCOMPARE(model.effectiveGoal("train/loss"), RunComparison::Goal::Minimize);
    model.setGoal(QStringLiteral("train/loss"), RunComparison::Goal::Maximize);
    const ::Expected e = expected(kLossA, false);
    QCOMPARE(model.number(row, best), e.best);
    QCOMPARE(model.number(row, model.columnOf("beststep/train/loss")), double(e.bestStep));
    QVERIFY(model.headerData(best, Qt::Horizontal, Qt::ToolTipRole).toString().contains("highest"));
    model.setGoal(QStringLiteral("train/loss"), RunComparison::Goal::Auto);
    QCOMPARE(model.number(row, best), 0.7);
}

void TestRunComparison::followsStoreChanges()
{
    ScalarStore scalars;
    SummaryStore summaries;
    fill(scalars, summaries);
    RunComparison model(&scalars, &summaries);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    // New points of an existing tag: cells change in place.
    scalars.append(QStringLiteral("a"), { tagPoints(QStringLiteral("train/loss"), { { 4, 0.1 } }) });
    const int finalLoss = model.columnOf("final/train/loss");
    QTRY_COMPARE(model.number(model.rowOfRun("a"), finalLoss), 0.1);
    QCOMPARE(resets.count(), 0);
    QVERIFY(changed.count() >= 1);

    // A new run: the table is rebuilt.
    scalars.append(QStringLiteral("e"), { tagPoints(QStringLiteral("train/loss"), { { 0, 5.0 } }) });
    QTRY_COMPARE(model.rowCount(), 6);
    QVERIFY(resets.count() >= 1);
    QCOMPARE(model.number(model.rowOfRun("e"), model.columnOf("final/train/loss")), 5.0);

    summaries.clear();
    scalars.clear();
    QTRY_COMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 1);
}

void TestRunComparison::emptyStores()
{
    RunComparison model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 1);
    QVERIFY(!model.value(3, 7).isValid());
    {
        auto* scalars = new ScalarStore;
        model.setStores(scalars, nullptr);
        scalars->append(QStringLiteral("x"), { tagPoints(QStringLiteral("loss"), { { 0, 1.0 } }) });
        model.refresh();
        QCOMPARE(model.rowCount(), 1);
        delete scalars;
    }
    // A destroyed store leaves an empty table, not a dangling pointer.
    QTRY_COMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TestRunComparison)
#include "tst_runcomparison.moc"
