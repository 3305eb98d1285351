#include "importers/accuracy/dumpcompare.h"
#include "models/accuracy/dumpgraph.h"
#include "widgets/accuracy/accuracygraph.h"
#include "widgets/accuracy/accuracypanel.h"
#include "widgets/accuracy/accuracytablemodel.h"
#include "widgets/common/chartpalette.h"
#include "widgets/graph/graphview.h"
#include "widgets/tensor/tensorcomparewidget.h"
#include "widgets/tensor/tensorpanel.h"

#include "tests/testutils.h"

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
using namespace runlens::importers;
using namespace runlens::widgets;
using namespace runlens::widgets::accuracy;
using models::accuracy::Verdict;

namespace {

const QString kRuns = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");

/// The application's comparer: both sides read and compared, rows handed on as they come. `rowDelay` slows
/// each row so that a test can cancel midway.
AccuracyPanel::Comparer comparer(int rowDelayMs = 0)
{
    return [rowDelayMs](const CompareRequest& request, const ImportControl& control,
                        const AccuracyPanel::RowCallback& rowReady) {
        CompareOutcome outcome;
        const importers::accuracy::DumpSideResult bench = importers::accuracy::readDumpSide(request.bench, control);
        const importers::accuracy::DumpSideResult target = importers::accuracy::readDumpSide(request.target, control);
        if (!bench.side || !target.side) {
            outcome.error = bench.side ? target.error : bench.error;
            return outcome;
        }
        if (bench.side->msprobe) {
            for (const models::accuracy::SideRow& row : bench.side->rows)
                outcome.benchOps.insert(row.name, row.op);
            outcome.benchGraph = models::accuracy::buildDumpGraph(*bench.side->msprobe);
        } else {
            outcome.benchGraph = models::accuracy::buildOpsGraph(QFileInfo(request.bench).fileName(), bench.side->ops);
        }
        for (const models::accuracy::SideRow& row : bench.side->rows)
            outcome.benchNodes.insert(row.name, row.op);
        for (const models::accuracy::SideRow& row : bench.side->rows)
            if (row.source)
                outcome.benchTensors.insert(row.name, row.source);
        for (const models::accuracy::SideRow& row : target.side->rows)
            if (row.source)
                outcome.targetTensors.insert(row.name, row.source);
        outcome.result = importers::accuracy::compareDumpSides(*bench.side, *target.side, {}, control,
                                                               [&](const models::accuracy::CompareRow& row) {
                                                                   if (rowDelayMs > 0)
                                                                       QThread::msleep(rowDelayMs);
                                                                   rowReady(row);
                                                               });
        return outcome;
    };
}

std::optional<models::accuracy::CompareResult> cliResult(const QString& bench, const QString& target)
{
    QString error;
    auto result = importers::accuracy::compareDumps(bench, target, {}, &error);
    if (!result)
        qWarning() << error;
    return result;
}

bool waitGraph(AccuracyPanel& panel)
{
    if (panel.graph()->isReady())
        return true;
    QSignalSpy ready(panel.graph(), &AccuracyGraph::treeReady);
    return ready.wait(60000);
}

/// The op of every row, and whether all of its rows pass.
QHash<QString, bool> opsPassing(const models::accuracy::CompareResult& result)
{
    QHash<QString, bool> passing;
    for (const models::accuracy::CompareRow& row : result.rows) {
        if (row.benchName.isEmpty())
            continue;
        auto it = passing.find(row.op);
        if (it == passing.end())
            it = passing.insert(row.op, true);
        *it = *it && row.verdict == Verdict::Pass;
    }
    return passing;
}

bool waitFinished(AccuracyPanel& panel)
{
    if (!panel.isRunning())
        return true;
    QSignalSpy finished(&panel, &AccuracyPanel::comparisonFinished);
    return finished.wait(60000);
}

/// The worst verdict among the rows of the op where the numbers part (same op, same rank and step).
Verdict divergentOpWorst(const models::accuracy::CompareResult& result)
{
    const models::accuracy::CompareRow& first = result.rows.at(result.firstDivergence->row);
    Verdict worst = first.verdict;
    for (const models::accuracy::CompareRow& row : result.rows) {
        if (row.op == first.op && row.group == first.group)
            worst = models::accuracy::worse(worst, row.verdict);
    }
    return worst;
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
        // "Error introduced" only when a row of that op is an error; a first warning is said to be one.
        const bool error = divergentOpWorst(*expected) == Verdict::Error;
        QCOMPARE(panel.headline().startsWith(QStringLiteral("Error introduced")), error);

        // Verdict counts equal summary().
        const models::accuracy::CompareSummary s = expected->summary();
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
        runlens::widgets::tensor::TensorPanel tensorPanel;
        tensorPanel.resize(900, 600);
        tensorPanel.show();
        tensorPanel.compareTensors(tensors.first().at(0).value<std::shared_ptr<const models::tensor::TensorSource>>(),
                                   tensors.first().at(1).toString(),
                                   tensors.first().at(2).value<std::shared_ptr<const models::tensor::TensorSource>>(),
                                   tensors.first().at(3).toString());
        QCOMPARE(tensorPanel.viewMode(), runlens::widgets::tensor::TensorPanel::ViewMode::Compare);
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
        QCOMPARE(QString::fromUtf8(file.readAll()), models::accuracy::compareResultToCsv(*expected));
        QVERIFY(panel.exportText(AccuracyPanel::ExportFormat::Markdown)
                    .startsWith(models::accuracy::compareResultToMarkdown(*expected).left(40).toUtf8()));
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
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString bench = samples + QStringLiteral("/accuracy/msprobe/pytorch_data");
        const QString target = samples + QStringLiteral("/accuracy/msprobe/mindspore_data");
        RUNLENS_REQUIRE_SAMPLE_FILE(bench + QStringLiteral("/dump.json"));
        RUNLENS_REQUIRE_SAMPLE_FILE(target + QStringLiteral("/dump.json"));
        const auto expected = cliResult(bench, target);
        QVERIFY(expected);
        AccuracyPanel panel;
        panel.setComparer(comparer());
        panel.compare({ bench, target, {} });
        QVERIFY(waitFinished(panel));
        QVERIFY(panel.result());
        const models::accuracy::CompareSummary s = expected->summary();
        QCOMPARE(panel.result()->summary().matched, s.matched);
        QCOMPARE(panel.model()->rowCount(), expected->rows.size());
        QVERIFY(panel.summaryText().contains(QStringLiteral("%1 matched").arg(s.matched)));
        // Most rows have no partner without a mapping: the headline says so rather than only "no divergence".
        QVERIFY(s.unmatchedBench + s.unmatchedTarget > s.matched);
        QVERIFY2(panel.headline().contains(
                     QStringLiteral("%1 rows are unmatched").arg(s.unmatchedBench + s.unmatchedTarget)),
                 qPrintable(panel.headline()));
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

    void graphColouredByVerdict()
    {
        const QString bench = kRuns + QStringLiteral("/fp32/msprobe");
        const QString target = kRuns + QStringLiteral("/perturbed/msprobe");
        AccuracyPanel panel;
        panel.resize(1200, 700);
        panel.show();
        panel.setComparer(comparer());
        QSignalSpy nodes(&panel, &AccuracyPanel::nodeSelected);
        panel.compare({ bench, target, {} });
        QVERIFY(waitFinished(panel));
        QVERIFY(panel.result());
        QVERIFY(panel.graph()->isVisible());
        QVERIFY(waitGraph(panel));
        const auto tree = panel.graph()->tree();
        QVERIFY(tree);
        runlens::widgets::graph::GraphView* view = panel.graph()->view();
        QCOMPARE(view->tree(), tree);

        // The perturbed layer (layers.0's weight) is where the error is born: its node and its group are errors.
        const auto& first = panel.result()->firstDivergence;
        QVERIFY(first);
        QCOMPARE(first->op, QStringLiteral("Module.layers.0.Linear.forward.0"));
        const int perturbed = panel.graph()->itemOfNode(first->op);
        QVERIFY(perturbed > 0);
        QCOMPARE(panel.graph()->itemVerdict(perturbed), Verdict::Error);
        QCOMPARE(view->itemFill(perturbed), AccuracyGraph::verdictFill(Verdict::Error));
        const int group = tree->item(perturbed).parent;
        QVERIFY(group > 0);
        QCOMPARE(panel.graph()->itemVerdict(group), Verdict::Error);
        QCOMPARE(view->itemFill(group), AccuracyGraph::verdictFill(Verdict::Error));
        // Groups hold the worst below them, collapsed or not: every ancestor of an error is one.
        for (const int ancestor : tree->ancestors(perturbed)) {
            if (ancestor > 0)
                QCOMPARE(panel.graph()->itemVerdict(ancestor), Verdict::Error);
        }
        // The finished comparison selected the first divergent row: its node is selected and revealed.
        const int divergent = first->row;
        QCOMPARE(panel.currentRow(), divergent);
        QCOMPARE(view->selectedItem(), perturbed);
        for (const int ancestor : tree->ancestors(perturbed))
            QVERIFY(view->expansionState().isExpanded(ancestor));

        // Row -> node: another row selects its node (the Graph panel's signal still fires), expanding its group.
        const int other = panel.graph()->itemOfNode(QStringLiteral("Module.layers.2.Linear.forward.0"));
        QVERIFY(other > 0);
        QCOMPARE(panel.graph()->itemVerdict(other), Verdict::Warning);
        QCOMPARE(view->itemFill(other), AccuracyGraph::verdictFill(Verdict::Warning));
        int otherRow = -1;
        for (int r = 0; r < panel.model()->rowCount() && otherRow < 0; ++r) {
            if (panel.graph()->itemOfRow(r) == other)
                otherRow = r;
        }
        QVERIFY(otherRow >= 0);
        const int signalsBefore = int(nodes.size());
        panel.tableView()->setCurrentIndex(panel.proxyModel()->mapFromSource(panel.model()->index(otherRow, 0)));
        QCOMPARE(view->selectedItem(), other);
        for (const int ancestor : tree->ancestors(other))
            QVERIFY(view->expansionState().isExpanded(ancestor));
        QCOMPARE(nodes.size(), signalsBefore + 1);
        QCOMPARE(nodes.last().first().toString(), QStringLiteral("Module.layers.2.Linear.forward.0"));

        // Node -> row: clicking the perturbed node selects its worst row, the earliest of them.
        int worstRow = -1;
        for (int r = 0; r < panel.model()->rowCount() && worstRow < 0; ++r) {
            if (panel.graph()->itemOfRow(r) == perturbed && panel.model()->rows().at(r).verdict == Verdict::Error)
                worstRow = r;
        }
        QVERIFY(worstRow >= 0);
        QCOMPARE(panel.graph()->rowOfItem(perturbed), worstRow);
        QTRY_VERIFY(!view->isLayoutPending());
        view->setSelectedItem(perturbed);
        QCOMPARE(panel.currentRow(), worstRow);
        QCOMPARE(view->selectedItem(), perturbed);
        // Clicking a group selects the worst row below it.
        view->setSelectedItem(group);
        QCOMPARE(panel.model()->rows().at(panel.currentRow()).verdict, Verdict::Error);
    }

    void passingNodes()
    {
        // fp16 against fp32 parts at layers.2: the layers before it pass, their group too when all of it passes.
        AccuracyPanel panel;
        panel.setComparer(comparer());
        panel.compare({ kRuns + QStringLiteral("/fp32/msprobe"), kRuns + QStringLiteral("/fp16/msprobe"), {} });
        QVERIFY(waitFinished(panel));
        QVERIFY(panel.result());
        QVERIFY(waitGraph(panel));
        const QHash<QString, bool> passing = opsPassing(*panel.result());
        QVERIFY(passing.value(QStringLiteral("Module.layers.0.Linear.forward.0")));
        const int passed = panel.graph()->itemOfNode(QStringLiteral("Module.layers.0.Linear.forward.0"));
        QVERIFY(passed > 0);
        QCOMPARE(panel.graph()->itemVerdict(passed), Verdict::Pass);
        QCOMPARE(panel.graph()->view()->itemFill(passed), AccuracyGraph::verdictFill(Verdict::Pass));
        QCOMPARE(panel.graph()->itemVerdict(panel.graph()->tree()->item(passed).parent), Verdict::Pass);
        const int warned = panel.graph()->itemOfNode(QStringLiteral("Module.layers.2.Linear.forward.0"));
        QCOMPARE(panel.graph()->itemVerdict(warned), Verdict::Warning);
        // The root's children hold the worst of the model: a warning, no error anywhere.
        for (const int child : panel.graph()->tree()->item(0).children)
            QVERIFY(panel.graph()->itemVerdict(child) != Verdict::Error);
    }

    void npyGraphByModulePath()
    {
        // step_N/{module}.{kind}.npy: the ops nest by their dotted module names.
        AccuracyPanel panel;
        panel.setComparer(comparer());
        panel.compare({ kRuns + QStringLiteral("/fp32/npy"), kRuns + QStringLiteral("/perturbed/npy"), {} });
        QVERIFY(waitFinished(panel));
        QVERIFY(panel.result());
        QVERIFY(waitGraph(panel));
        const auto tree = panel.graph()->tree();
        const auto& first = panel.result()->firstDivergence;
        QVERIFY(first);
        const int item = panel.graph()->itemOfNode(first->op);
        QVERIFY2(item > 0, qPrintable(first->op));
        QCOMPARE(panel.graph()->itemVerdict(item), Verdict::Error);
        QVERIFY(tree->item(item).parent > 0); // inside its module's group
        QCOMPARE(panel.graph()->itemVerdict(tree->item(item).parent), Verdict::Error);
    }

    void headlineColourFollowsSeverity()
    {
        // fp16 against fp32: the numbers part, a warning or an error as the thresholds say.
        AccuracyPanel panel;
        panel.setComparer(comparer());
        for (const QString& run : { QStringLiteral("fp16"), QStringLiteral("perturbed"), QStringLiteral("fp32") }) {
            panel.compare(
                { kRuns + QStringLiteral("/fp32/msprobe"), kRuns + QStringLiteral("/%1/msprobe").arg(run), {} });
            QVERIFY(waitFinished(panel));
            QVERIFY(panel.result());
            const auto& first = panel.result()->firstDivergence;
            const QColor text = panel.palette().color(QPalette::WindowText);
            if (!first) {
                QCOMPARE(run, QStringLiteral("fp32"));
                QCOMPARE(panel.headlineColor(), text);
                continue;
            }
            // The headline names the op of the first divergent row; its colour says the worst verdict of that op's
            // rows as its words do. The perturbed weight is an error although the op's first output only warns.
            const bool error = divergentOpWorst(*panel.result()) == Verdict::Error;
            if (run == QLatin1String("perturbed")) {
                QCOMPARE(panel.result()->rows.at(first->row).verdict, Verdict::Warning);
                QVERIFY(error);
            }
            QCOMPARE(panel.headline().startsWith(QStringLiteral("Error introduced")), error);
            QCOMPARE(panel.headlineColor() == alertColor(), error);
            QVERIFY(panel.headlineColor() != text);
        }
        // A first divergence that is only a warning is amber, not red; an error is red.
        for (const Verdict verdict : { Verdict::Warning, Verdict::Error }) {
            panel.setComparer(
                [verdict](const CompareRequest& request, const ImportControl&, const AccuracyPanel::RowCallback&) {
                    CompareOutcome outcome;
                    models::accuracy::CompareResult result;
                    result.bench = request.bench;
                    result.target = request.target;
                    models::accuracy::CompareRow row;
                    row.name = row.benchName = row.targetName = QStringLiteral("Functional.linear.0.forward.output.0");
                    row.op = QStringLiteral("Functional.linear.0.forward");
                    row.kind = models::accuracy::RowKind::Output;
                    row.verdict = verdict;
                    row.introduced = true;
                    result.rows << row;
                    models::accuracy::FirstDivergence first;
                    first.row = 0;
                    first.name = row.name;
                    first.op = row.op;
                    first.reason = QStringLiteral("outputs fail while inputs pass");
                    result.firstDivergence = first;
                    outcome.result = result;
                    return outcome;
                });
            panel.compare({ QStringLiteral("a"), QStringLiteral("b"), {} });
            QVERIFY(waitFinished(panel));
            QVERIFY(panel.result());
            QCOMPARE(panel.headline().startsWith(QStringLiteral("Error introduced")), verdict == Verdict::Error);
            QCOMPARE(panel.headlineColor() == alertColor(), verdict == Verdict::Error);
            QVERIFY(panel.headlineColor() != panel.palette().color(QPalette::WindowText));
            // Without a graph from the comparer the graph pane stays hidden.
            QVERIFY(panel.graph()->isHidden());
        }
    }
};

QTEST_MAIN(TestAccuracyPanel)
#include "tst_accuracypanel.moc"
