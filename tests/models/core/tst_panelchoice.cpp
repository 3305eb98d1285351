#include "models/core/panelchoice.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models;

// The panel in front of each tab group after a folder is read, for the default layout's groups.

namespace {

const QStringList kRunGroup { QStringLiteral("RunBrowserDock"), QStringLiteral("NodeDetailsDock"),
                              QStringLiteral("NotesDock") };
// Training and model panels share the upper tab group on the right.
const QStringList kUpperGroup { QStringLiteral("ScalarsDock"),  QStringLiteral("DistributionsDock"),
                                QStringLiteral("ImagesDock"),   QStringLiteral("TextDock"),
                                QStringLiteral("PrCurvesDock"), QStringLiteral("CompareRunsDock"),
                                QStringLiteral("AdvisorDock"),  QStringLiteral("GraphDock"),
                                QStringLiteral("TensorDock") };
const QStringList kProfilerGroup { QStringLiteral("TimelineDock"), QStringLiteral("OperatorsDock"),
                                   QStringLiteral("StepsDock"),    QStringLiteral("MemoryDock"),
                                   QStringLiteral("OverviewDock"), QStringLiteral("DataPipelineDock"),
                                   QStringLiteral("ClusterDock") };
// The Accuracy dock opens in the profiler group, beside the Timeline.
const QStringList kProfilerAndAccuracy = kProfilerGroup + QStringList { QStringLiteral("AccuracyDock") };
// Below the run browser.
const QStringList kDetailsGroup { QStringLiteral("NodeDetailsDock"), QStringLiteral("NotesDock") };

ImportedContent scalarsOnly()
{
    ImportedContent c;
    c.scalarTags = 12;
    c.comparableRuns = 1;
    return c;
}

ImportedContent mindSporeProfiler()
{
    ImportedContent c;
    c.profilerRanks = 8;
    c.pipelines = 8;
    c.clusterRanks = 8;
    c.traces = 8;
    c.memoryProfiles = 1;
    return c;
}

} // namespace

class TestPanelChoice : public QObject
{
    Q_OBJECT

private slots:
    void front_data()
    {
        QTest::addColumn<int>("scalars");
        QTest::addColumn<int>("profilerRanks");
        QTest::addColumn<int>("traces");
        QTest::addColumn<int>("traceSteps");
        QTest::addColumn<int>("graphs");
        QTest::addColumn<int>("tensors");
        QTest::addColumn<QString>("upper"); ///< empty: the group has nothing to show
        QTest::addColumn<QString>("profiler");

        QTest::newRow("scalars") << 12 << 0 << 0 << 0 << 0 << 0 << "ScalarsDock"
                                 << "";
        QTest::newRow("profiler with overview") << 0 << 4 << 4 << 0 << 0 << 0 << ""
                                                << "OverviewDock";
        QTest::newRow("trace with steps") << 0 << 0 << 1 << 10 << 0 << 0 << ""
                                          << "OverviewDock";
        QTest::newRow("trace without steps") << 0 << 0 << 1 << 0 << 0 << 0 << ""
                                             << "TimelineDock";
        QTest::newRow("graph") << 0 << 0 << 0 << 0 << 1 << 0 << "GraphDock"
                               << "";
        QTest::newRow("tensors") << 0 << 0 << 0 << 0 << 0 << 300 << "TensorDock"
                                 << "";
        QTest::newRow("graph and tensors") << 0 << 0 << 0 << 0 << 1 << 300 << "GraphDock"
                                           << "";
        QTest::newRow("scalars and graph") << 12 << 0 << 0 << 0 << 1 << 0 << "ScalarsDock"
                                           << "";
        QTest::newRow("scalars and profiler") << 12 << 1 << 1 << 5 << 0 << 0 << "ScalarsDock"
                                              << "OverviewDock";
        QTest::newRow("everything") << 12 << 1 << 1 << 5 << 2 << 40 << "ScalarsDock"
                                    << "OverviewDock";
    }

    void front()
    {
        QFETCH(int, scalars);
        QFETCH(int, profilerRanks);
        QFETCH(int, traces);
        QFETCH(int, traceSteps);
        QFETCH(int, graphs);
        QFETCH(int, tensors);
        QFETCH(QString, upper);
        QFETCH(QString, profiler);
        ImportedContent c;
        c.scalarTags = scalars;
        c.profilerRanks = profilerRanks;
        c.traces = traces;
        c.traceSteps = traceSteps;
        c.graphs = graphs;
        c.tensors = tensors;
        const PanelChoice choice(c);
        QCOMPARE(choice.front(kUpperGroup), upper);
        QCOMPARE(choice.front(kProfilerGroup), profiler);
        QCOMPARE(choice.front(kRunGroup), QStringLiteral("RunBrowserDock"));
        // Whatever is in front has something to show; a group without content has nothing in front.
        for (const QStringList& group : { kUpperGroup, kProfilerGroup, kRunGroup }) {
            const QString front = choice.front(group);
            QVERIFY(front.isEmpty() || choice.hasContent(front));
            if (front.isEmpty()) {
                for (const QString& dock : group)
                    QVERIFY2(!choice.hasContent(dock), qPrintable(dock));
            }
        }
    }

    void comparisonInFront()
    {
        // The bench of a comparison is an msprobe dump: its graph (and tensors) are read too.
        ImportedContent dump;
        dump.graphs = 1;
        dump.tensors = 12;
        const PanelChoice folderOnly(dump);
        // Opened on its own, the dump shows its graph as before; there is nothing to compare.
        QCOMPARE(folderOnly.front(kUpperGroup), QStringLiteral("GraphDock"));
        QVERIFY(!folderOnly.hasContent(QStringLiteral("AccuracyDock")));
        QVERIFY(folderOnly.withoutContent().contains(QStringLiteral("AccuracyDock")));
        QCOMPARE(folderOnly.front(kProfilerAndAccuracy), QString());

        dump.comparisons = 1;
        const PanelChoice compared(dump);
        QVERIFY(compared.hasContent(QStringLiteral("AccuracyDock")));
        QCOMPARE(compared.front(kProfilerAndAccuracy), QStringLiteral("AccuracyDock"));
        // Ahead of every other panel, were the user to put it into the Graph's group.
        QCOMPARE(compared.front(kUpperGroup + QStringList { QStringLiteral("AccuracyDock") }),
                 QStringLiteral("AccuracyDock"));
        QCOMPARE(compared.front(kUpperGroup), QStringLiteral("GraphDock"));
        // Beside a profiler run's timeline too.
        ImportedContent profiler = mindSporeProfiler();
        profiler.comparisons = 1;
        QCOMPARE(PanelChoice(profiler).front(kProfilerAndAccuracy), QStringLiteral("AccuracyDock"));
        // A comparison alone is content: Scalars' empty state does not come back.
        ImportedContent alone;
        alone.comparisons = 1;
        QVERIFY(!alone.isEmpty());
        QVERIFY(!PanelChoice(alone).hasContent(QStringLiteral("ScalarsDock")));
    }

    void emptyDocksGiveWay()
    {
        const PanelChoice scalars(scalarsOnly());
        // Node details without a graph, and empty notes: the run browser gets the whole side.
        QCOMPARE(scalars.front(kDetailsGroup), QString());
        QVERIFY(scalars.withoutContent().contains(QStringLiteral("NodeDetailsDock")));
        for (const QString& dock : kProfilerGroup)
            QVERIFY2(scalars.withoutContent().contains(dock), qPrintable(dock));
        // One run: nothing to compare.
        QVERIFY(!scalars.hasContent(QStringLiteral("CompareRunsDock")));
        QVERIFY(!scalars.hasContent(QStringLiteral("AdvisorDock")));

        const PanelChoice profiler(mindSporeProfiler());
        QVERIFY(!profiler.hasContent(QStringLiteral("ScalarsDock")));
        for (const QString& dock : kProfilerGroup)
            QVERIFY2(profiler.hasContent(dock), qPrintable(dock));

        ImportedContent withGraph;
        withGraph.graphs = 1;
        withGraph.noteCharacters = 20;
        const PanelChoice graph(withGraph);
        QCOMPARE(graph.front(kDetailsGroup), QStringLiteral("NodeDetailsDock"));
        QVERIFY(graph.hasContent(QStringLiteral("NotesDock")));

        // Every managed dock is either shown or given way, never both; the Source view is left alone.
        const QStringList managed = PanelChoice::managedDocks();
        QVERIFY(!managed.contains(QStringLiteral("SourceDock")));
        for (const QString& dock : managed)
            QVERIFY(scalars.hasContent(dock) != scalars.withoutContent().contains(dock));
    }

    void nothingFoundKeepsScalars()
    {
        // Scalars' empty state says what a folder needs to hold; it stays rather than an empty window.
        const PanelChoice choice { ImportedContent {} };
        QCOMPARE(choice.front(kUpperGroup), QStringLiteral("ScalarsDock"));
        QCOMPARE(choice.front(kProfilerGroup), QString());
    }

    void embeddingsShowTheProjector()
    {
        ImportedContent c;
        c.embeddingSets = 2;
        QVERIFY(!c.isEmpty());
        const PanelChoice choice(c);
        QVERIFY(choice.hasContent(QStringLiteral("ProjectorDock")));
        QVERIFY(!choice.hasContent(QStringLiteral("ScalarsDock")));
        QCOMPARE(choice.front(kUpperGroup + QStringList { QStringLiteral("ProjectorDock") }),
                 QStringLiteral("ProjectorDock"));
        // Beside scalars, Scalars keeps the front.
        ImportedContent both = scalarsOnly();
        both.embeddingSets = 1;
        QCOMPARE(PanelChoice(both).front(kUpperGroup + QStringList { QStringLiteral("ProjectorDock") }),
                 QStringLiteral("ScalarsDock"));
        QVERIFY(PanelChoice(scalarsOnly()).withoutContent().contains(QStringLiteral("ProjectorDock")));
    }

    void advisorAndComparison()
    {
        ImportedContent c = scalarsOnly();
        c.comparableRuns = 3;
        c.findings = 2;
        const PanelChoice choice(c);
        QVERIFY(choice.hasContent(QStringLiteral("CompareRunsDock")));
        QVERIFY(choice.hasContent(QStringLiteral("AdvisorDock")));
        QCOMPARE(choice.front(kUpperGroup), QStringLiteral("ScalarsDock"));
    }

    void savedSessionWins()
    {
        ImportedContent c = scalarsOnly();
        c.graphs = 1;
        c.traces = 1;
        c.traceSteps = 4;
        // The saved view had the Graph and the Memory in front: the Graph has content and wins; the Memory
        // has none for this folder and does not.
        const PanelChoice choice(c, { QStringLiteral("GraphDock"), QStringLiteral("MemoryDock") });
        QCOMPARE(choice.front(kUpperGroup), QStringLiteral("GraphDock"));
        QCOMPARE(choice.front(kProfilerGroup), QStringLiteral("OverviewDock"));
        QVERIFY(!choice.hasContent(QStringLiteral("MemoryDock")));

        // The most recent choice first: the user picked Timeline after the session had Steps in front.
        const PanelChoice picked(c, { QStringLiteral("TimelineDock"), QStringLiteral("StepsDock") });
        QCOMPARE(picked.front(kProfilerGroup), QStringLiteral("TimelineDock"));
        QCOMPARE(picked.front(kUpperGroup), QStringLiteral("ScalarsDock"));
        QCOMPARE(picked.frontOrder().first(), QStringLiteral("TimelineDock"));
    }
};

QTEST_GUILESS_MAIN(TestPanelChoice)
#include "tst_panelchoice.moc"
