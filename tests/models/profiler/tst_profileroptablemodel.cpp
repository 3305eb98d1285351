#include "models/profiler/profileroptablemodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace runlens::models::profiler;

namespace {

std::shared_ptr<const ProfilerRunData> makeRun()
{
    auto run = std::make_shared<ProfilerRunData>();
    ProfilerRankData rank;
    rank.rank = 3;
    OpStats conv;
    conv.name = QStringLiteral("Default/Conv2D-op1");
    conv.type = QStringLiteral("Conv2D");
    conv.core = QStringLiteral("AI Core");
    conv.calls = 4;
    conv.totalUs = 300.0;
    conv.inputShapes = QStringLiteral("32,3,224,224;64,3,7,7");
    conv.mflops = 118.0;
    OpStats add = conv;
    add.name = QStringLiteral("Default/Add-op2");
    add.type = QStringLiteral("Add");
    add.calls = 10;
    add.totalUs = 100.0;
    add.mflops.reset();
    OpStats conv2 = conv;
    conv2.name = QStringLiteral("Default/Conv2D-op3");
    conv2.totalUs = 600.0;
    rank.operators.ops = { add, conv, conv2 };
    rank.operators.finish();
    run->ranks.push_back(rank);
    return run;
}

} // namespace

class TestProfilerOpTableModel : public QObject
{
    Q_OBJECT

private slots:
    void finishDerivesTypes();
    void typeLevel();
    void opLevel();
    void emptyAndOutOfRange();
    void formatting();
};

void TestProfilerOpTableModel::finishDerivesTypes()
{
    const auto run = makeRun();
    const OperatorTable& table = run->ranks[0].operators;
    QCOMPARE(table.types.size(), std::size_t(2));
    QCOMPARE(table.types[0].type, QStringLiteral("Conv2D"));
    QCOMPARE(table.types[0].calls, 8);
    QCOMPARE(table.types[0].totalUs, 900.0);
    QCOMPARE(table.types[0].share, 0.9);
    QCOMPARE(table.totalUs, 1000.0);
    QCOMPARE(table.ops[0].name, QStringLiteral("Default/Conv2D-op3"));
    QCOMPARE(table.ops[2].share, 0.1);
    QVERIFY(table.hasFlops);
}

void TestProfilerOpTableModel::typeLevel()
{
    ProfilerOpTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setData(makeRun(), 0);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 6);
    const int total = model.columnOf(ProfilerOpTableModel::Column::Total);
    const int share = model.columnOf(ProfilerOpTableModel::Column::Share);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("Conv2D"));
    QCOMPARE(model.index(0, total).data(ProfilerOpTableModel::SortRole).toDouble(), 900.0);
    QCOMPARE(model.index(0, total).data().toString(), QStringLiteral("900 µs"));
    QCOMPARE(model.index(1, share).data(ProfilerOpTableModel::ShareRole).toDouble(), 0.1);
    QCOMPARE(model.headerData(total, Qt::Horizontal, ProfilerOpTableModel::ColumnIdRole).toString(),
             QStringLiteral("total_us"));
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Type"));
}

void TestProfilerOpTableModel::opLevel()
{
    ProfilerOpTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setData(makeRun(), 0);
    model.setLevel(ProfilerOpTableModel::Level::Ops);
    QCOMPARE(model.rowCount(), 3);
    // FLOPs columns only appear when some op has FLOPs.
    QVERIFY(model.columnOf(ProfilerOpTableModel::Column::MFlops) >= 0);
    const int mflops = model.columnOf(ProfilerOpTableModel::Column::MFlops);
    const int shapes = model.columnOf(ProfilerOpTableModel::Column::InputShapes);
    const int average = model.columnOf(ProfilerOpTableModel::Column::Average);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("Default/Conv2D-op3"));
    QCOMPARE(model.index(0, average).data(ProfilerOpTableModel::SortRole).toDouble(), 150.0);
    QCOMPARE(model.index(0, shapes).data().toString(), QStringLiteral("32,3,224,224;64,3,7,7"));
    QCOMPARE(model.index(0, mflops).data(ProfilerOpTableModel::SortRole).toDouble(), 118.0);
    QVERIFY(!model.index(2, mflops).data().isValid()); // Add has no FLOPs
}

void TestProfilerOpTableModel::emptyAndOutOfRange()
{
    ProfilerOpTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setData(makeRun(), 5);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.table());
    model.setData(nullptr, 0);
    QCOMPARE(model.rowCount(), 0);
}

void TestProfilerOpTableModel::formatting()
{
    QCOMPARE(ProfilerOpTableModel::formatMicroseconds(1500.0), QStringLiteral("1.5 ms"));
    QCOMPARE(ProfilerOpTableModel::formatMicroseconds(2.5e6), QStringLiteral("2.5 s"));
    QCOMPARE(ProfilerOpTableModel::formatMicroseconds(0.25), QStringLiteral("250 ns"));
    QCOMPARE(ProfilerOpTableModel::formatMicroseconds(12.0), QStringLiteral("12 µs"));
}

QTEST_GUILESS_MAIN(TestProfilerOpTableModel)
#include "tst_profileroptablemodel.moc"
