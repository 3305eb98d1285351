#include "app/mainwindow.h"

#include "models/advisor/evidence.h"
#include "models/graph/scopetree.h"
#include "tests/testutils.h"
#include "widgets/accuracy/accuracygraph.h"
#include "widgets/accuracy/accuracypanel.h"
#include "widgets/advisor/advisorpanel.h"
#include "widgets/common/sourceview.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/graph/graphview.h"
#include "widgets/graph/nodedetailswidget.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace runlens;
using namespace runlens::app;
using namespace runlens::widgets;

namespace {

bool copyFile(const QString& from, const QString& to, const QByteArray& replace = {}, const QByteArray& with = {})
{
    QFile in(from);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QByteArray bytes = in.readAll();
    if (!replace.isEmpty())
        bytes.replace(replace, with);
    QDir().mkpath(QFileInfo(to).absolutePath());
    QFile out(to);
    return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
}

} // namespace

class TestMsprobeWorkbench : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void samples_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("userFile");
        QTest::newRow("pytorch") << QStringLiteral("pytorch_data") << QStringLiteral("Tensor.__add__.0.forward")
                                 << QStringLiteral("PanGu/pangu/training/utils.py");
        QTest::newRow("mindspore") << QStringLiteral("mindspore_data") << QStringLiteral("Tensor.__add__.0.forward")
                                   << QStringLiteral("PanGu_ms/pangu/training/utils.py");
    }

    /// A sample dump opened in the window: its graph is in the Graph panel, a node's statistics are in Node
    /// Details and its stack opens the user's file in the Source dock when the file is on this machine.
    void samples()
    {
        QFETCH(QString, folder);
        QFETCH(QString, entry);
        QFETCH(QString, userFile);
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString sample = QDir(samples).filePath(QStringLiteral("accuracy/msprobe/") + folder);
        RUNLENS_REQUIRE_SAMPLE_FILE(sample + QStringLiteral("/dump.json"));

        // A copy whose stacks point into a folder of this machine, where the user's file exists.
        QTemporaryDir dir;
        const QString dump = dir.filePath(folder);
        const QString net = dir.filePath(QStringLiteral("net"));
        for (const char* name : { "dump.json", "construct.json" })
            QVERIFY(copyFile(sample + QLatin1Char('/') + QLatin1String(name),
                             dump + QLatin1Char('/') + QLatin1String(name)));
        QVERIFY(copyFile(sample + QStringLiteral("/stack.json"), dump + QStringLiteral("/stack.json"), "/path_to_net",
                         net.toUtf8()));
        QFile source(net + QLatin1Char('/') + userFile);
        QDir().mkpath(QFileInfo(source).absolutePath());
        QVERIFY(source.open(QIODevice::WriteOnly));
        for (int line = 1; line <= 300; ++line)
            source.write(QByteArray("x = ") + QByteArray::number(line) + '\n');
        source.close();

        MainWindow window;
        bool idle = false;
        window.openPath(dump);
        window.whenIdle([&] { idle = true; });
        QTRY_VERIFY_WITH_TIMEOUT(idle, 30000);

        runlens::widgets::graph::GraphPanel* panel = window.graphPanel();
        QCOMPARE(panel->graphCount(), 1);
        // Picking it by its name rebuilds its hierarchy: select a node once that one has arrived.
        QSignalSpy built(panel, &runlens::widgets::graph::GraphPanel::treeChanged);
        QVERIFY(panel->selectGraph(folder));
        QTRY_VERIFY_WITH_TIMEOUT(!built.isEmpty(), 10000);
        const std::shared_ptr<const models::graph::ScopeTree> tree = panel->tree();
        QCOMPARE(QString::fromStdString(tree->graph().name), folder);
        QVERIFY(tree->findKey("g:Forward") >= 0);

        const int node = tree->graph().find(entry.toStdString());
        QVERIFY(node >= 0);
        const int item = tree->itemOfNode(node);
        QVERIFY(item > 0);
        panel->view()->setSelectedItem(item);
        auto* details = window.findChild<runlens::widgets::graph::NodeDetailsWidget*>();
        QVERIFY(details);
        QTRY_VERIFY(details->text().contains(entry));
        const QString text = details->text();
        QVERIFY2(text.contains(QStringLiteral("output.0 Max")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("input.0 Mean")), qPrintable(text));
        QVERIFY2(text.contains(net + QLatin1Char('/') + userFile), qPrintable(text));

        // The first source is the user's line, openable because the file exists here.
        const models::graph::Node& n = tree->graph().nodes[std::size_t(node)];
        QVERIFY(!n.sources.empty());
        QCOMPARE(QString::fromStdString(n.sources.front().file), net + QLatin1Char('/') + userFile);
        auto* browser = details->findChild<QTextBrowser*>();
        QVERIFY(browser);
        QVERIFY(browser->toHtml().contains(QStringLiteral("source:")));
        QUrl link;
        link.setScheme(QStringLiteral("source"));
        link.setPath(net + QLatin1Char('/') + userFile);
        link.setQuery(QStringLiteral("line=%1").arg(n.sources.front().line));
        emit browser->anchorClicked(link);
        auto* view = window.findChild<SourceView*>();
        QVERIFY(view);
        QCOMPARE(view->path(), net + QLatin1Char('/') + userFile);
        QCOMPARE(view->line(), n.sources.front().line);

        // The dump compared with itself: double-clicking a row of the op opens its stack at the user's frame.
        view->openFile(QString(), 0);
        runlens::widgets::accuracy::AccuracyPanel* accuracy = window.accuracyPanel();
        QSignalSpy finished(accuracy, &runlens::widgets::accuracy::AccuracyPanel::comparisonFinished);
        window.compareDumps(dump, dump);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QVERIFY(accuracy->result());
        QVERIFY(accuracy->selectRow(entry + QStringLiteral(".input.0")));
        const QModelIndex row = accuracy->tableView()->currentIndex();
        QVERIFY(row.isValid());
        emit accuracy->tableView()->activated(row);
        QCOMPARE(view->path(), net + QLatin1Char('/') + userFile);
        QCOMPARE(view->line(), n.sources.front().line);
    }

    /// Two dumps compared in the Accuracy dock: the Advisor lists the comparison's findings, and a finding's
    /// evidence selects its row in the Accuracy panel.
    void comparisonFindingsInTheAdvisor()
    {
        const QString runs = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");
        MainWindow window;
        runlens::widgets::accuracy::AccuracyPanel* accuracy = window.accuracyPanel();
        QSignalSpy finished(accuracy, &runlens::widgets::accuracy::AccuracyPanel::comparisonFinished);
        window.compareDumps(runs + QStringLiteral("/fp32/msprobe"), runs + QStringLiteral("/fp16/msprobe"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QVERIFY(accuracy->result());
        bool idle = false;
        window.whenIdle([&] { idle = true; });
        QTRY_VERIFY_WITH_TIMEOUT(idle, 30000);

        auto* advisor = window.findChild<widgets::advisor::AdvisorPanel*>();
        QVERIFY(advisor && advisor->report());
        const QList<models::advisor::Finding>& findings = advisor->report()->findings;
        int underflow = -1;
        for (int i = 0; i < findings.size(); ++i) {
            QCOMPARE(findings[i].scope.comparison, QStringLiteral("fp32 vs fp16"));
            if (findings[i].ruleId == QLatin1String("comparison-half-underflow"))
                underflow = i;
        }
        QVERIFY(underflow >= 0);

        // Another row is selected first; the evidence brings the half layer's output back.
        const QString half = QStringLiteral("Module.layers.2.Linear.forward.0.output.0");
        QVERIFY(accuracy->selectRow(accuracy->result()->rows.first().name));
        advisor->selectFinding(underflow);
        QVERIFY(advisor->showEvidence());
        QCOMPARE(accuracy->tableView()->currentIndex().siblingAtColumn(0).data().toString(), half);

        // A comparison that fails leaves no findings of it behind.
        window.compareDumps(runs + QStringLiteral("/nowhere"), runs + QStringLiteral("/fp16/msprobe"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30000);
        idle = false;
        window.whenIdle([&] { idle = true; });
        QTRY_VERIFY_WITH_TIMEOUT(idle, 30000);
        QVERIFY(!advisor->report() || advisor->report()->findings.isEmpty());
    }

    /// An msprobe bench opened and compared: the Graph panel shows the bench's graph as before and the
    /// Accuracy dock, with its own coloured graph, is in front of its group once the comparison is done.
    void comparisonInFront()
    {
        const QString runs = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");
        const QString bench = runs + QStringLiteral("/fp32/msprobe");
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        bool idle = false;
        window.openPath(bench);
        window.whenIdle([&] { idle = true; });
        QTRY_VERIFY_WITH_TIMEOUT(idle, 30000);
        auto* accuracy = window.findChild<QDockWidget*>(QStringLiteral("AccuracyDock"));
        auto* graph = window.findChild<QDockWidget*>(QStringLiteral("GraphDock"));
        QVERIFY(accuracy && graph);
        // The dump alone: its graph in front, nothing compared.
        QVERIFY(accuracy->isHidden());
        QTRY_VERIFY(!graph->visibleRegion().isEmpty());

        QSignalSpy finished(window.accuracyPanel(), &runlens::widgets::accuracy::AccuracyPanel::comparisonFinished);
        window.compareDumps(bench, runs + QStringLiteral("/perturbed/msprobe"));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QVERIFY(window.accuracyPanel()->result());
        QTRY_VERIFY(window.accuracyPanel()->graph()->isReady());
        QVERIFY(!accuracy->isHidden());
        QTRY_VERIFY(!accuracy->visibleRegion().isEmpty());
        QVERIFY(!graph->visibleRegion().isEmpty());
    }
};

QTEST_MAIN(TestMsprobeWorkbench)
#include "tst_msprobeworkbench.moc"
