#include "widgets/common/chartpalette.h"
#include "widgets/scalars/runlegendmodel.h"

#include <QAbstractItemModelTester>
#include <QIcon>
#include <QSignalSpy>
#include <QtTest>

using namespace runlens;
using namespace runlens::widgets;
using namespace runlens::widgets::scalars;

class TestRunLegendModel : public QObject
{
    Q_OBJECT
private slots:
    void rowsAndRoles()
    {
        RunLegendModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setRuns({ QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") }, { 0, 1, 2 }, { 10, 20, 30 });
        QCOMPARE(model.rowCount(), 3);
        const QModelIndex b = model.index(1);
        QCOMPARE(b.data().toString(), QStringLiteral("b"));
        QCOMPARE(b.data(RunLegendModel::RunColorRole).value<QColor>(), runColor(1));
        QVERIFY(!b.data(Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(b.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QCOMPARE(b.data(RunLegendModel::PointCountRole).toLongLong(), 20);
        QVERIFY(b.data(Qt::ToolTipRole).toString().contains(QStringLiteral("20")));
        QVERIFY(model.flags(b) & Qt::ItemIsUserCheckable);

        // Names as users see them are displayed; the run itself stays the key.
        model.setRuns({ QStringLiteral("."), QStringLiteral("b") }, { 0, 1 }, { 10, 20 },
                      { QStringLiteral("cnn_job"), QStringLiteral("b") });
        QCOMPARE(model.index(0).data().toString(), QStringLiteral("cnn_job"));
        QCOMPARE(model.index(0).data(RunLegendModel::RunNameRole).toString(), QStringLiteral("."));
        QVERIFY(model.index(0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("cnn_job")));
    }

    void toggling()
    {
        RunLegendModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({ QStringLiteral("a"), QStringLiteral("b") }, { 0, 1 });
        QSignalSpy changed(&model, &RunLegendModel::runVisibilityChanged);
        QSignalSpy dataChanged(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(model.setData(model.index(0), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), QStringLiteral("a"));
        QCOMPARE(changed.at(0).at(1).toBool(), false);
        QCOMPARE(dataChanged.count(), 1);
        QVERIFY(!model.isRunVisible(QStringLiteral("a")));
        QCOMPARE(model.index(0).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
        // Setting the same state again is silent.
        model.setRunVisible(QStringLiteral("a"), false);
        QCOMPARE(changed.count(), 1);
        QVERIFY(!model.setData(model.index(0), QStringLiteral("x"), Qt::EditRole));

        // Hidden runs survive a reload of the list.
        model.setRuns({ QStringLiteral("b"), QStringLiteral("a"), QStringLiteral("c") }, { 1, 0, 2 });
        QCOMPARE(model.index(1).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
        model.setAllVisible(true);
        QVERIFY(model.hiddenRuns().isEmpty());
        model.setAllVisible(false);
        QCOMPARE(model.hiddenRuns().size(), 3);
        model.setRuns({}, {});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestRunLegendModel)
#include "tst_runlegendmodel.moc"
