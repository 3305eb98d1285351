#include "models/trace/opstatsmodel.h"
#include "tests/models/trace/analysistestdata.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace runlens::models::trace;
using runlens::test::AnalysisTraceBuilder;

namespace {

std::shared_ptr<const TraceStore> store()
{
    AnalysisTraceBuilder t;
    t.slice(t.cpu(), 0, 1000, "aten::linear", EventKind::CpuOp, R"({"Input Dims": [[32, 64]]})");
    t.slice(t.cpu(), 100, 800, "aten::addmm", EventKind::CpuOp, R"({"Input Dims": [[128], [32, 64]]})");
    t.launch(0, 200, 50, 300, 400, "sgemm");
    t.slice(t.cpu(), 2000, 3000000, "aten::copy_", EventKind::CpuOp, R"({"Input Dims": [[1]]})");
    return t.finish();
}

} // namespace

class TstOpStatsModel : public QObject
{
    Q_OBJECT
private slots:
    void formatting();
    void views();
    void sorting();
    void emptyModel();
};

void TstOpStatsModel::formatting()
{
    QCOMPARE(formatDuration(0), QStringLiteral("0 ns"));
    QCOMPARE(formatDuration(999), QStringLiteral("999 ns"));
    QCOMPARE(formatDuration(1500), QStringLiteral("1.50 µs"));
    QCOMPARE(formatDuration(12345678), QStringLiteral("12.3 ms"));
    QCOMPARE(formatDuration(250000000), QStringLiteral("250 ms"));
    QCOMPARE(formatDuration(3210000000), QStringLiteral("3.21 s"));
}

void TstOpStatsModel::views()
{
    auto s = store();
    OperatorStatsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setStatistics(std::make_shared<OperatorStatistics>(computeOperatorStatistics(*s)), s);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnOf(OperatorStatsModel::Column::InputDims), -1);
    const int total = model.columnOf(OperatorStatsModel::Column::Total);
    const int share = model.columnOf(OperatorStatsModel::Column::Share);
    QVERIFY(total > 0);
    QCOMPARE(model.headerData(total, Qt::Horizontal).toString(), QStringLiteral("Host total"));
    QCOMPARE(model.headerData(total, Qt::Horizontal, OperatorStatsModel::ColumnIdRole).toString(),
             QStringLiteral("host_total_ns"));
    // First row: the largest self time (aten::copy_, 3 ms).
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("aten::copy_"));
    QCOMPARE(model.index(0, total).data().toString(), QStringLiteral("3.00 ms"));
    QCOMPARE(model.index(0, total).data(OperatorStatsModel::SortRole).toLongLong(), 3000000);
    QCOMPARE(model.index(0, total).data(Qt::TextAlignmentRole).value<Qt::Alignment>(),
             Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    QVERIFY(model.index(0, share).data(OperatorStatsModel::ShareRole).toDouble() > 0.99);
    const auto [track, slice] = model.longestOccurrence(0);
    QVERIFY(track >= 0);
    QCOMPARE(s->tracks()[std::size_t(track)].duration[slice], std::int64_t(3000000));

    model.setView(OperatorStatsModel::View::Device);
    QCOMPARE(model.headerData(total, Qt::Horizontal).toString(), QStringLiteral("Device total"));
    const int self = model.columnOf(OperatorStatsModel::Column::Self);
    int addmmRow = -1;
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.index(r, 0).data(OperatorStatsModel::NameRole).toString() == QLatin1String("aten::addmm"))
            addmmRow = r;
    }
    QVERIFY(addmmRow >= 0);
    QCOMPARE(model.index(addmmRow, self).data(OperatorStatsModel::SortRole).toLongLong(), 400);
    const int deviceShare = model.columnOf(OperatorStatsModel::Column::Share);
    QCOMPARE(model.index(addmmRow, deviceShare).data(OperatorStatsModel::ShareRole).toDouble(), 1.0);
    QCOMPARE(model.index(addmmRow, deviceShare).data().toString(), QStringLiteral("100.0 %"));

    model.setView(OperatorStatsModel::View::Kernels);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("sgemm"));
    const int top = model.columnOf(OperatorStatsModel::Column::TopOperator);
    QCOMPARE(model.index(0, top).data().toString(), QStringLiteral("aten::addmm"));

    model.setView(OperatorStatsModel::View::Host);
    model.setStatistics(
        std::make_shared<OperatorStatistics>(computeOperatorStatistics(*s, { .groupByInputDims = true })), s);
    const int dims = model.columnOf(OperatorStatsModel::Column::InputDims);
    QCOMPARE(dims, 1);
    QCOMPARE(model.index(0, dims).data().toString(), QStringLiteral("[[1]]"));
}

void TstOpStatsModel::sorting()
{
    auto s = store();
    OperatorStatsModel model;
    model.setStatistics(std::make_shared<OperatorStatistics>(computeOperatorStatistics(*s)), s);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(OperatorStatsModel::SortRole);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int calls = model.columnOf(OperatorStatsModel::Column::Self);
    proxy.sort(calls, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("aten::linear")); // self 200
    proxy.sort(0, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("aten::addmm"));
    proxy.setFilterKeyColumn(0);
    proxy.setFilterFixedString(QStringLiteral("lin"));
    QCOMPARE(proxy.rowCount(), 1);
}

void TstOpStatsModel::emptyModel()
{
    OperatorStatsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.columnCount() > 0);
    QCOMPARE(model.longestOccurrence(0).first, -1);
    model.setView(OperatorStatsModel::View::Kernels);
    QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TstOpStatsModel)
#include "tst_opstatsmodel.moc"
