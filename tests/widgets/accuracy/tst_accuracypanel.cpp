#include "widgets/tensor/tensorcomparewidget.h"
#include "widgets/tensor/tensorpanel.h"
#include "importers/accuracy/dumpcompare.h"
#include "widgets/accuracy/accuracypanel.h"
#include "widgets/accuracy/accuracytablemodel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace runlens;
using namespace runlens::accuracyview;
using accuracy::Verdict;

namespace {

const QString kRuns = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");

/// The application's comparer: both sides read and compared, rows handed on as they come. `rowDelay` slows
/// each row so that a test can cancel midway.
AccuracyPanel::Comparer comparer(int rowDelayMs = 0)
{
    return [rowDelayMs](const CompareRequest& request, const ImportControl& control,
                        const AccuracyPanel::RowCallback& rowReady) {
        CompareOutcome outcome;
        const accuracy::DumpSideResult bench = accuracy::readDumpSide(request.bench, control);
        const accuracy::DumpSideResult target = accuracy::readDumpSide(request.target, control);
        if (!bench.side || !target.side) {
            outcome.error = bench.side ? target.error : bench.error;
            return outcome;
        }
        if (bench.side->msprobe) {
            for (const accuracy::SideRow& row : bench.side->rows)
                outcome.benchOps.insert(row.name, row.op);
        }
        for (const accuracy::SideRow& row : bench.side->rows)
            if (row.source)
                outcome.benchTensors.insert(row.name, row.source);
        for (const accuracy::SideRow& row : target.side->rows)
            if (row.source)
                outcome.targetTensors.insert(row.name, row.source);
        outcome.result
            = accuracy::compareDumpSides(*bench.side, *target.side, {}, control, [&](const accuracy::CompareRow& row) {
                  if (rowDelayMs > 0)
                      QThread::msleep(rowDelayMs);
                  rowReady(row);
              });
        return outcome;
    };
}

std::optional<accuracy::CompareResult> cliResult(const QString& bench, const QString& target)
{
    QString error;
    auto result = accuracy::compareDumps(bench, target, {}, &error);
    if (!result)
        qWarning() << error;
    return result;
}

bool waitFinished(AccuracyPanel& panel)
{
    if (!panel.isRunning())
        return true;
    QSignalSpy finished(&panel, &AccuracyPanel::comparisonFinished);
    return finished.wait(60000);
}

} // namespace

class TestAccuracyPanel : public QObject
{
    Q_OBJECT
private slots:
    void fp16RowsHeadlineAndCounts()
    {
        const QString bench = kRuns + QStringLiteral("/fp32/msprobe");
        const QString target = kRuns + QStringLiteral("/fp16/msprobe");
        const auto expected = cliResult(bench, target);
        QVERIFY(expected);
        QVERIFY(expected->firstDivergence);

        AccuracyPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(panel.proxyModel(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setComparer(comparer());
        QSignalSpy inserted(panel.model(), &QAbstractItemModel::rowsInserted);
        QSignalSpy nodes(&panel, &AccuracyPanel::nodeSelected);
        panel.compare({ bench, target, {} });
        QVERIFY(panel.isRunning());
        QVERIFY(waitFinished(panel));
        QVERIFY(panel.result());
        QVERIFY(!inserted.isEmpty()); // rows came in while the comparison ran
        QCOMPARE(panel.model()->rowCount(), expected->rows.size());
        for (int i = 0; i < expected->rows.size(); ++i)
            QCOMPARE(panel.model()->rows().at(i).name, expected->rows.at(i).name);

        // The headline names the op the command line names.
        const QString op = expected->firstDivergence->op;
        QVERIFY(!op.isEmpty());
        QVERIFY2(panel.headline().contains(op), qPrintable(panel.headline()));
        QVERIFY(panel.headline().contains(expected->firstDivergence->reason));
        // "Error introduced" only when that row is an error; a first warning is said to be one.
        const bool error = expected->rows.at(expected->firstDivergence->row).verdict == Verdict::Error;
        QCOMPARE(panel.headline().startsWith(QStringLiteral("Error introduced")), error);

        // Verdict counts equal summary().
        const accuracy::CompareSummary s = expected->summary();
        QCOMPARE(panel.result()->summary().error, s.error);
        int counts[5] = {};
        for (int r = 0; r < panel.model()->rowCount(); ++r)
            ++counts[int(panel.model()->rows().at(r).verdict)];
        QCOMPARE(counts[int(Verdict::Pass)], s.pass);
        QCOMPARE(counts[int(Verdict::Warning)], s.warning);
        QCOMPARE(counts[int(Verdict::Error)], s.error);
        QVERIFY2(panel.summaryText().contains(QStringLiteral("%1 error").arg(s.error)),
                 qPrintable(panel.summaryText()));
        QVERIFY(panel.summaryText().contains(QStringLiteral("%1 pass").arg(s.pass)));
        QVERIFY(panel.summaryText().contains(QStringLiteral("%1 matched").arg(s.matched)));

        // The introduced row is marked.
        const int introducedRow = expected->firstDivergence->row;
        const QModelIndex origin = panel.model()->index(introducedRow, AccuracyTableModel::Origin);
        QCOMPARE(origin.data().toString(), QStringLiteral("introduced"));

        // Selecting a row selects its msprobe entry in the graph.
        const QModelIndex proxyRow = panel.proxyModel()->mapFromSource(panel.model()->index(introducedRow, 0));
        // The finished comparison selects it by itself.
        QCOMPARE(panel.tableView()->currentIndex().row(), proxyRow.row());
        QCOMPARE(nodes.size(), 1);
        QCOMPARE(nodes.first().first().toString(), op);
        panel.tableView()->setCurrentIndex(panel.proxyModel()->index(0, 0));
        QCOMPARE(nodes.size(), 2);
        QVERIFY(nodes.last().first().toString() != op);

        // Activating a tensor row asks for both tensors.
        QSignalSpy tensors(&panel, &AccuracyPanel::tensorsRequested);
        emit panel.tableView()->activated(proxyRow);
        QCOMPARE(tensors.size(), 1);
        QVERIFY(tensors.first().at(1).toString().contains(expected->rows.at(introducedRow).benchName));
        QVERIFY(panel.detailsLabel()->isHidden());
        // … which the Tensors panel shows in its compare view.
        tensorview::TensorPanel tensorPanel;
        tensorPanel.resize(900, 600);
        tensorPanel.show();
        tensorPanel.compareTensors(tensors.first().at(0).value<std::shared_ptr<const tensor::TensorSource>>(),
                                   tensors.first().at(1).toString(),
                                   tensors.first().at(2).value<std::shared_ptr<const tensor::TensorSource>>(),
                                   tensors.first().at(3).toString());
        QCOMPARE(tensorPanel.viewMode(), tensorview::TensorPanel::ViewMode::Compare);
        QTRY_VERIFY_WITH_TIMEOUT(tensorPanel.compareWidget()->largestTable()->rowCount() > 0, 10000);
        QTRY_VERIFY(!tensorPanel.compareWidget()->isComputing());
        if (qEnvironmentVariableIsSet("ACCURACY_GRAB"))
            tensorPanel.grab().save(qEnvironmentVariable("ACCURACY_GRAB"));

        // Export CSV equals the command line's writer.
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(panel.exportTo(AccuracyPanel::ExportFormat::Csv, csv));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()), accuracy::compareResultToCsv(*expected));
        QVERIFY(panel.exportText(AccuracyPanel::ExportFormat::Markdown)
                    .startsWith(accuracy::compareResultToMarkdown(*expected).left(40).toUtf8()));
    }

    void sortAndFilter()
    {
        const QString bench = kRuns + QStringLiteral("/fp32/msprobe");
        const QString target = kRuns + QStringLiteral("/fp16/msprobe");
        AccuracyPanel panel;
        panel.setComparer(comparer());
        panel.compare({ bench, target, {} });
        QVERIFY(waitFinished(panel));
        const int total = panel.model()->rowCount();
        QVERIFY(total > 2);

        // Sorting by max abs descending puts the largest error first.
        panel.tableView()->sortByColumn(AccuracyTableModel::MaxAbs, Qt::DescendingOrder);
        double largest = -1;
        for (const auto& row : panel.model()->rows())
            largest = std::max(largest, row.tensor.maxAbs.value_or(-1));
        QCOMPARE(panel.proxyModel()->index(0, AccuracyTableModel::MaxAbs).data(AccuracyTableModel::SortRole).toDouble(),
                 largest);
        // Back to execution order.
        panel.tableView()->sortByColumn(AccuracyTableModel::Name, Qt::AscendingOrder);
        QCOMPARE(panel.proxyModel()->index(0, 0).data().toString(), panel.model()->rows().first().name);

        // The filter keeps the rows whose verdict or name matches.
        panel.setFilterText(QStringLiteral("error"));
        QCOMPARE(panel.visibleRowCount(), panel.result()->summary().error);
        const QString name = panel.model()->rows().at(1).name;
        panel.setFilterText(name);
        QVERIFY(panel.visibleRowCount() >= 1);
        for (int r = 0; r < panel.visibleRowCount(); ++r)
            QVERIFY(panel.proxyModel()->index(r, 0).data().toString().contains(name, Qt::CaseInsensitive));
        panel.setFilterText({});
        QCOMPARE(panel.visibleRowCount(), total);
    }

    // The Advisor's evidence selects a row by name, clearing a filter that hides it.
    void selectRowByName()
    {
        AccuracyPanel panel;
        panel.setComparer(comparer());
        panel.compare({ kRuns + QStringLiteral("/fp32/msprobe"), kRuns + QStringLiteral("/fp16/msprobe"), {} });
        QVERIFY(waitFinished(panel));
        const QString name = panel.model()->rows().last().name;
        panel.setFilterText(panel.model()->rows().first().name);
        QVERIFY(panel.selectRow(name));
        QVERIFY(panel.filterText().isEmpty());
        QCOMPARE(panel.tableView()->currentIndex().siblingAtColumn(0).data().toString(), name);
        QVERIFY(!panel.selectRow(QStringLiteral("no such row")));
        QCOMPARE(panel.tableView()->currentIndex().siblingAtColumn(0).data().toString(), name);
    }

    void cancelStops()
    {
        AccuracyPanel panel;
        panel.setComparer(comparer(30));
        QSignalSpy finished(&panel, &AccuracyPanel::comparisonFinished);
        panel.compare({ kRuns + QStringLiteral("/fp32/msprobe"), kRuns + QStringLiteral("/fp16/msprobe"), {} });
        QTRY_VERIFY_WITH_TIMEOUT(panel.model()->rowCount() > 0, 30000);
        panel.cancel();
        QVERIFY(!panel.isRunning());
        QCOMPARE(finished.size(), 1);
        QVERIFY(!panel.result());
        const int rows = panel.model()->rowCount();
        QVERIFY(panel.summaryText().contains(QStringLiteral("Cancelled")));
        // Nothing more arrives from the cancelled job.
        QTest::qWait(300);
        QCOMPARE(panel.model()->rowCount(), rows);
        QCOMPARE(finished.size(), 1);
    }

    void errorShown()
    {
        AccuracyPanel panel;
        panel.setComparer(comparer());
        panel.compare({ QStringLiteral("/nonexistent/a"), QStringLiteral("/nonexistent/b"), {} });
        QVERIFY(waitFinished(panel));
        QVERIFY(!panel.result());
        QVERIFY(!panel.errorText().isEmpty());
        QCOMPARE(panel.headline(), panel.errorText());
    }

    void msprobePair()
    {
        const QString samples = QStringLiteral(RUNLENS_SAMPLES_DIR);
        const QString bench = samples + QStringLiteral("/accuracy/msprobe/pytorch_data");
        const QString target = samples + QStringLiteral("/accuracy/msprobe/mindspore_data");
        if (!QDir(bench).exists() || !QDir(target).exists())
            QSKIP("the msprobe samples are not here");
        const auto expected = cliResult(bench, target);
        QVERIFY(expected);
        AccuracyPanel panel;
        panel.setComparer(comparer());
        panel.compare({ bench, target, {} });
        QVERIFY(waitFinished(panel));
        QVERIFY(panel.result());
        const accuracy::CompareSummary s = expected->summary();
        QCOMPARE(panel.result()->summary().matched, s.matched);
        QCOMPARE(panel.model()->rowCount(), expected->rows.size());
        QVERIFY(panel.summaryText().contains(QStringLiteral("%1 matched").arg(s.matched)));
        // Activating a statistics row shows its numbers.
        QSignalSpy tensors(&panel, &AccuracyPanel::tensorsRequested);
        int statsRow = -1;
        for (int r = 0; r < panel.model()->rowCount() && statsRow < 0; ++r)
            if (panel.model()->rows().at(r).statistics)
                statsRow = r;
        QVERIFY(statsRow >= 0);
        emit panel.tableView()->activated(panel.proxyModel()->mapFromSource(panel.model()->index(statsRow, 0)));
        QCOMPARE(tensors.size(), 0);
        QVERIFY(!panel.detailsLabel()->isHidden());
        QVERIFY2(panel.detailsLabel()->text().contains(QStringLiteral("Max: difference")),
                 qPrintable(panel.detailsLabel()->text()));

        // Unmatched rows are listed at the end, marked.
        const int unmatched = s.unmatchedBench + s.unmatchedTarget;
        for (int r = panel.model()->rowCount() - unmatched; r < panel.model()->rowCount(); ++r)
            QCOMPARE(panel.model()->index(r, AccuracyTableModel::VerdictColumn).data().toString(),
                     QStringLiteral("unmatched"));
    }
};

QTEST_MAIN(TestAccuracyPanel)
#include "tst_accuracypanel.moc"
