#include "app/runcontroller.h"

#include "importers/core/importsession.h"
#include "importers/summary/eventfilewriter.h"
#include "models/advisor/evidence.h"
#include "models/core/profilerbundle.h"
#include "models/core/runbrowsermodel.h"
#include "models/graph/dumpindex.h"
#include "models/scalars/scalarstore.h"
#include "models/tensor/tensorcatalog.h"
#include "tests/testutils.h"

#include <QDir>
#include <QFile>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace runlens;
using namespace runlens::app;
using namespace runlens::importers;
using namespace runlens::models;
using namespace runlens::models::scalars;

namespace {

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray npyBytes()
{
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header.append(' ');
    header.append('\n');
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out.append(char(header.size() & 0xff)).append(char(header.size() >> 8));
    return out + header + QByteArray(8, '\0');
}

/// A run folder as a training job leaves it: a run with a scalars event file (`tag`, `steps` points), a profiler
/// trace and a dumped tensor at step 5.
bool writeRunFolder(const QString& root, const QString& tag, int steps)
{
    QDir().mkpath(root + QStringLiteral("/train"));
    importers::summary::EventFileWriter writer;
    if (!writer.open(root + QStringLiteral("/train/events.out.tfevents.1700000000.host")))
        return false;
    writer.writeFileVersion(1000.0);
    for (int step = 0; step < steps; ++step)
        writer.writeScalar(tag, step, 1000.0 + step, step * 0.5);
    writer.close();
    QFile fixture(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tiny.pt.trace.json"));
    if (!fixture.open(QIODevice::ReadOnly))
        return false;
    return writeBytes(root + QStringLiteral("/profile/worker0.pt.trace.json"), fixture.readAll())
        && writeBytes(root + QStringLiteral("/dump/step_5/conv1.weight.npy"), npyBytes());
}

} // namespace

class TestRunController : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        QVERIFY(writeRunFolder(m_dir.filePath(QStringLiteral("a")), QStringLiteral("loss_a"), 5000));
        QVERIFY(writeRunFolder(m_dir.filePath(QStringLiteral("b")), QStringLiteral("loss_b"), 20));
    }

    void opensAFolder()
    {
        RunController run;
        QSignalSpy created(&run, &RunController::sessionCreated);
        QSignalSpy finished(&run, &RunController::importFinished);
        QSignalSpy catalogs(&run, &RunController::catalogReady);
        const QString root = m_dir.filePath(QStringLiteral("a"));
        run.open(root);
        QCOMPARE(run.path(), root);
        QVERIFY(run.isScanning());
        QVERIFY(run.isBusy());
        QVERIFY(!run.session());

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(catalogs.size(), 1, 30000);
        QCOMPARE(created.size(), 1);
        QVERIFY(!run.isScanning());
        QVERIFY(run.session());
        QCOMPARE(created.first().first().value<ImportSession*>(), run.session());

        const RunManifest& manifest = run.session()->manifest();
        QCOMPARE(manifest.root, root);
        QVERIFY2(manifest.runs().contains(QStringLiteral("train")), qPrintable(manifest.runs().join(u',')));
        QCOMPARE(run.runModel()->manifest().root, root);

        QCOMPARE(run.scalars()->tags(), QStringList { QStringLiteral("loss_a") });
        QCOMPARE(run.scalars()->pointCount(), 5000);

        // The catalog and the dump index reach the listeners and stay with the controller.
        QVERIFY(run.catalog());
        QVERIFY(run.dumps());
        QCOMPARE(catalogs.first().at(0).value<std::shared_ptr<const models::tensor::TensorCatalog>>(), run.catalog());
        QCOMPARE(catalogs.first().at(1).value<std::shared_ptr<const models::graph::DumpIndex>>(), run.dumps());
        QCOMPARE(run.catalog()->series().size(), 1);
        QCOMPARE(run.catalog()->series().first().name, QStringLiteral("conv1.weight"));
        QCOMPARE(run.dumps()->entries().size(), 1);
        QCOMPARE(run.dumps()->entries().first().step, 5);

        // What PanelChoice is given: scalars, one trace found, one tensor series; no graph or summaries.
        const ImportedContent content = run.importedContent();
        QCOMPARE(content.scalarTags, 1);
        QCOMPARE(content.traces, 1);
        QCOMPARE(content.tensors, 1);
        QCOMPARE(content.graphs, 0);
        QCOMPARE(content.histogramTags, 0);
        QCOMPARE(content.imageTags, 0);
        const PanelChoice choice(content);
        QVERIFY(choice.hasContent(QStringLiteral("ScalarsDock")));
        QVERIFY(choice.hasContent(QStringLiteral("TensorDock")));
        QVERIFY(!choice.hasContent(QStringLiteral("GraphDock")));
        QCOMPARE(choice.front(
                     { QStringLiteral("TimelineDock"), QStringLiteral("TensorDock"), QStringLiteral("ScalarsDock") }),
                 QStringLiteral("ScalarsDock"));

        // Closing clears the run and forgets the path.
        QSignalSpy cleared(&run, &RunController::runCleared);
        run.close();
        QCOMPARE(cleared.size(), 1);
        QVERIFY(run.path().isEmpty());
        QVERIFY(!run.session());
        QVERIFY(!run.isBusy());
        QVERIFY(!run.catalog());
        QVERIFY(!run.dumps());
        QVERIFY(run.scalars()->tags().isEmpty());
        QCOMPARE(run.runModel()->rowCount(), 0);
        QVERIFY(run.importedContent().isEmpty());
    }

    void emptyFolderHasNothingToImport()
    {
        QTemporaryDir empty;
        RunController run;
        QSignalSpy nothing(&run, &RunController::nothingToImport);
        run.open(empty.path());
        QTRY_COMPARE_WITH_TIMEOUT(nothing.size(), 1, 30000);
        QVERIFY(run.session());
        QVERIFY(!run.isBusy());
        QVERIFY(run.importedContent().isEmpty());
    }

    void switchingFoldersDropsTheFirst_data()
    {
        QTest::addColumn<bool>("whileScanning");
        QTest::newRow("while importing") << false;
        QTest::newRow("while scanning") << true;
    }

    // Opening a second folder while the first is still being read: nothing of the first may arrive after the
    // switch (its session is gone, its catalog is dropped, its scan result is ignored).
    void switchingFoldersDropsTheFirst()
    {
        QFETCH(bool, whileScanning);
        RunController run;
        const QString a = m_dir.filePath(QStringLiteral("a"));
        const QString b = m_dir.filePath(QStringLiteral("b"));

        // From the switch on, record every tag the store shows and every catalog and session that arrive.
        bool switched = false;
        QStringList tagsSeen;
        connect(run.scalars(), &ScalarStore::structureChanged, this, [&] {
            if (switched)
                tagsSeen += run.scalars()->tags();
        });
        QList<std::shared_ptr<const models::tensor::TensorCatalog>> catalogsSeen;
        QStringList rootsSeen;
        connect(&run, &RunController::catalogReady, this,
                [&](std::shared_ptr<const models::tensor::TensorCatalog> catalog,
                    std::shared_ptr<const models::graph::DumpIndex>) {
                    if (!switched)
                        return; // the first folder's, in before the switch
                    catalogsSeen << catalog;
                    rootsSeen << run.session()->manifest().root;
                });
        QStringList sessionsSeen;
        connect(&run, &RunController::sessionCreated, this,
                [&](ImportSession* session) { sessionsSeen << session->manifest().root; });
        QSignalSpy finished(&run, &RunController::importFinished);

        QPointer<ImportSession> first;
        bool firstWasBusy = false;
        auto switchToB = [&] {
            first = run.session();
            firstWasBusy = first && first->isBusy();
            switched = true;
            run.open(b);
        };
        run.open(a);
        if (whileScanning) {
            QVERIFY(run.isScanning());
            switchToB();
        } else {
            // The moment the first session has started reading, as a user's click could come.
            QMetaObject::Connection once;
            once = connect(&run, &RunController::importStarted, this, [&] {
                disconnect(once);
                switchToB();
            });
            QTRY_VERIFY_WITH_TIMEOUT(switched, 30000);
            QVERIFY(firstWasBusy);
        }
        QVERIFY(first.isNull());
        QCOMPARE(run.path(), b);

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(catalogsSeen.size(), 1, 30000);
        // Let anything still under way for the first folder end.
        QTest::qWait(200);
        QCOMPARE(sessionsSeen.last(), b);
        QCOMPARE(sessionsSeen.size(), whileScanning ? 1 : 2);
        QCOMPARE(run.session()->manifest().root, b);
        QCOMPARE(run.runModel()->manifest().root, b);
        QCOMPARE(rootsSeen, QStringList { b });
        QCOMPARE(catalogsSeen.first(), run.catalog());
        QVERIFY2(!tagsSeen.contains(QStringLiteral("loss_a")), qPrintable(tagsSeen.join(u',')));
        QCOMPARE(run.scalars()->tags(), QStringList { QStringLiteral("loss_b") });
        QCOMPARE(run.scalars()->pointCount(), 20);
        QCOMPARE(finished.size(), 1);
        run.close();
        QVERIFY(!run.session());
    }

    // Every kind of evidence the Advisor writes, routed with what the run has: the panel and what to select in it,
    // or the message saying why there is nothing to show.
    void routesEvidence()
    {
        using Target = EvidenceRoute::Target;
        RunController run;
        QSignalSpy catalogs(&run, &RunController::catalogReady);
        run.open(m_dir.filePath(QStringLiteral("a")));
        QTRY_COMPARE_WITH_TIMEOUT(catalogs.size(), 1, 30000);

        // Not a locator, or a kind nobody writes.
        EvidenceRoute route = run.routeEvidence(QStringLiteral("not a locator"));
        QCOMPARE(route.target, Target::None);
        QCOMPARE(route.message, QStringLiteral("Cannot show this evidence: not a locator"));
        route = run.routeEvidence(QStringLiteral("runlens://weather?city=x"));
        QCOMPARE(route.target, Target::None);
        QCOMPARE(route.message, QStringLiteral("Cannot show this evidence: runlens://weather?city=x"));

        // Scalars: the tag alone (a regular expression's characters escaped), the step marked.
        route = run.routeEvidence(
            models::advisor::scalarEvidence(QStringLiteral("train"), QStringLiteral("loss (a)"), 42));
        QCOMPARE(route.target, Target::Scalars);
        QCOMPARE(route.tag, QStringLiteral("loss (a)"));
        QCOMPARE(route.tagFilter, QStringLiteral("^loss\\ \\(a\\)$"));
        QCOMPARE(route.step, std::optional<qint64>(42));
        QCOMPARE(route.message, QStringLiteral("Showing loss (a) at step 42"));
        route
            = run.routeEvidence(models::advisor::scalarEvidence(QStringLiteral("train"), QStringLiteral("loss_a"), -1));
        QCOMPARE(route.target, Target::Scalars);
        QCOMPARE(route.step, std::nullopt);
        QCOMPARE(route.message, QStringLiteral("Showing loss_a"));

        // Histograms: the tag, expanded; no step marked.
        route = run.routeEvidence(
            models::advisor::histogramEvidence(QStringLiteral("train"), QStringLiteral("fc.grad"), 7));
        QCOMPARE(route.target, Target::Distributions);
        QCOMPARE(route.tag, QStringLiteral("fc.grad"));
        QCOMPARE(route.tagFilter, QStringLiteral("^fc\\.grad$"));
        QCOMPARE(route.step, std::nullopt);
        QCOMPARE(route.message, QStringLiteral("Showing fc.grad at step 7"));

        // Tensors: the version at the step, else the first one; a tensor the catalog lacks is said so.
        const models::tensor::TensorSeries& series = run.catalog()->series().first();
        const QString location = series.versions.front().location();
        route = run.routeEvidence(models::advisor::tensorEvidence(series.name, series.run, 5));
        QCOMPARE(route.target, Target::Tensors);
        QCOMPARE(route.tensorLocation, location);
        QVERIFY(route.tensorLocation.endsWith(QStringLiteral("dump/step_5/conv1.weight.npy")));
        QCOMPARE(route.failureMessage, QStringLiteral("The tensor conv1.weight is not in the Tensors panel."));
        QVERIFY(route.message.isEmpty());
        route = run.routeEvidence(models::advisor::tensorEvidence(series.name, series.run, 9));
        QCOMPARE(route.target, Target::Tensors);
        QCOMPARE(route.tensorLocation, location);
        route = run.routeEvidence(models::advisor::tensorEvidence(QStringLiteral("fc9.bias"), series.run, 5));
        QCOMPARE(route.target, Target::None);
        QCOMPARE(route.message, QStringLiteral("The tensor fc9.bias is not in the Tensors panel."));

        // System metrics: the run (host or rank) and the wall-time range of the finding.
        route = run.routeEvidence(
            models::advisor::systemEvidence(QStringLiteral("job/rank_2"), 2, 1700000000.5, 1700000030.25));
        QCOMPARE(route.target, Target::System);
        QCOMPARE(route.systemRun, QStringLiteral("job/rank_2"));
        QCOMPARE(route.wallStart, 1700000000.5);
        QCOMPARE(route.wallEnd, 1700000030.25);
        QCOMPARE(route.message, QStringLiteral("System metrics of rank 2"));
        route = run.routeEvidence(models::advisor::systemEvidence(QStringLiteral("host-a"), -1, 0, -1));
        QCOMPARE(route.target, Target::System);
        QVERIFY(route.wallEnd < route.wallStart);
        QCOMPARE(route.message, QStringLiteral("System metrics of host-a"));

        // Graph nodes.
        route = run.routeEvidence(
            models::advisor::graphEvidence(QStringLiteral("layer1/conv1"), QStringLiteral("g.onnx")));
        QCOMPARE(route.target, Target::Graph);
        QCOMPARE(route.node, QStringLiteral("layer1/conv1"));

        // Traces: only once one is shown; then the range with a tenth on each side (at least a microsecond),
        // selected, and the operator highlighted.
        const QString trace = models::advisor::traceEvidence(QStringLiteral("w.pt.trace.json"), 1'000'000, 3'000'000, 0,
                                                             QStringLiteral("aten::mm"));
        route = run.routeEvidence(trace);
        QCOMPARE(route.target, Target::None);
        QCOMPARE(route.message, QStringLiteral("Open the trace in the Run Browser to see this evidence."));
        run.setTraceShown(true);
        route = run.routeEvidence(trace);
        QCOMPARE(route.target, Target::Timeline);
        QVERIFY(route.hasTimeRange);
        QCOMPARE(route.visibleStart, 800'000);
        QCOMPARE(route.visibleEnd, 3'200'000);
        QCOMPARE(route.selectionStart, 1'000'000);
        QCOMPARE(route.selectionEnd, 3'000'000);
        QCOMPARE(route.op, QStringLiteral("aten::mm"));
        QVERIFY(route.message.isEmpty());
        route = run.routeEvidence(models::advisor::traceEvidence(QStringLiteral("w.pt.trace.json"), 5000, 5500));
        QCOMPARE(route.visibleStart, 4000);
        QCOMPARE(route.visibleEnd, 6500);
        QVERIFY(route.op.isEmpty());
        route = run.routeEvidence(models::advisor::traceEvidence(QStringLiteral("w.pt.trace.json"), 5000, 5000));
        QCOMPARE(route.target, Target::Timeline);
        QVERIFY(!route.hasTimeRange);

        // Memory: the device, whose peak the view goes to.
        route
            = run.routeEvidence(models::advisor::memoryEvidence(QStringLiteral("m.json"), QStringLiteral("GPU 0"), 12));
        QCOMPARE(route.target, Target::Memory);
        QCOMPARE(route.device, QStringLiteral("GPU 0"));

        // Cluster: a link or a rank is named in the status bar.
        route = run.routeEvidence(models::advisor::clusterEvidence(QStringLiteral("job"), 3, QStringLiteral("0-3")));
        QCOMPARE(route.target, Target::Cluster);
        QCOMPARE(route.message, QStringLiteral("Link 0-3"));
        route = run.routeEvidence(models::advisor::clusterEvidence(QStringLiteral("job"), 3));
        QCOMPARE(route.target, Target::Cluster);
        QCOMPARE(route.message, QStringLiteral("Rank 3: double-click its row to open its timeline"));
        route = run.routeEvidence(models::advisor::clusterEvidence(QStringLiteral("job"), -1));
        QCOMPARE(route.target, Target::Cluster);
        QVERIFY(route.message.isEmpty());

        // A row of the dump comparison: the Accuracy panel, whatever run is open; its name decoded ('&', '=', '#'
        // and spaces are data), and a locator without a name shows nothing.
        const QString rowName = QStringLiteral("Module.layers.2.Linear.forward.0.output.0 a&b=c#d");
        route = run.routeEvidence(models::advisor::compareEvidence(rowName));
        QCOMPARE(route.target, Target::Accuracy);
        QCOMPARE(route.compareRow, rowName);
        QVERIFY(route.message.isEmpty());
        route = run.routeEvidence(QStringLiteral("runlens://compare"));
        QCOMPARE(route.target, Target::None);
        QCOMPARE(route.message, QStringLiteral("Cannot show this evidence: runlens://compare"));

        // Profiler evidence without profiler output: the Overview, nothing selected.
        route = run.routeEvidence(
            models::advisor::profilerEvidence(QStringLiteral("job"), 0, QStringLiteral("overview")));
        QCOMPARE(route.target, Target::Overview);
        QVERIFY(route.profilerRun.isEmpty());
        QCOMPARE(route.rankIndex, -1);
        QCOMPARE(route.pipelineRank, std::nullopt);

        // Closing forgets the shown trace.
        run.close();
        QCOMPARE(run.routeEvidence(trace).target, Target::None);
    }

    void routesProfilerEvidence()
    {
        using Target = EvidenceRoute::Target;
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString folder = samples + QStringLiteral("/profiler/mindspore/minddata_pipeline_fixture");
        RUNLENS_REQUIRE_SAMPLE_FILE(folder);
        RunController run;
        QSignalSpy finished(&run, &RunController::importFinished);
        run.open(folder);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QCOMPARE(run.profilers().size(), 1);
        const QString profilerRun = run.profilers().firstKey();
        const auto bundle = run.profilers().first();
        QVERIFY(bundle && bundle->ranks && !bundle->ranks->ranks.empty());
        const int lastIndex = int(bundle->ranks->ranks.size()) - 1;
        const int lastRank = bundle->ranks->ranks.back().rank;

        EvidenceRoute route = run.routeEvidence(
            models::advisor::profilerEvidence(profilerRun, lastRank, QStringLiteral("overview"), 3));
        QCOMPARE(route.target, Target::Overview);
        QCOMPARE(route.profilerRun, profilerRun);
        QCOMPARE(route.rankIndex, lastIndex);
        QCOMPARE(route.pipelineRank, std::optional<int>(lastRank));
        route = run.routeEvidence(models::advisor::profilerEvidence(profilerRun, lastRank, QStringLiteral("pipeline")));
        QCOMPARE(route.target, Target::Pipeline);
        QCOMPARE(route.rankIndex, lastIndex);

        // A rank the run lacks selects none in the Overview; the Data Pipeline is still told.
        route = run.routeEvidence(models::advisor::profilerEvidence(profilerRun, 99, QStringLiteral("pipeline")));
        QCOMPARE(route.rankIndex, -1);
        QCOMPARE(route.pipelineRank, std::optional<int>(99));

        // A run without profiler output keeps the shown one, whose ranks are looked up.
        route = run.routeEvidence(
            models::advisor::profilerEvidence(QStringLiteral("other"), lastRank, QStringLiteral("overview")));
        QVERIFY(route.profilerRun.isEmpty());
        QCOMPARE(route.rankIndex, -1);
        run.setShownProfilerRun(profilerRun);
        route = run.routeEvidence(
            models::advisor::profilerEvidence(QStringLiteral("other"), lastRank, QStringLiteral("overview")));
        QVERIFY(route.profilerRun.isEmpty());
        QCOMPARE(route.rankIndex, lastIndex);
        run.close();
        QVERIFY(run.profilers().isEmpty());
        QVERIFY(run.shownProfilerRun().isEmpty());
    }

    // The ranks of one job are named after the job, whichever folder of it was opened: never after `profiler`,
    // a rank folder, or ".".
    void namesTheJobOfRanks_data()
    {
        QTest::addColumn<QString>("opened");
        QTest::newRow("the folder above the job") << QString();
        QTest::newRow("the job") << QStringLiteral("job");
        QTest::newRow("the profiler folder") << QStringLiteral("job/profiler");
    }

    void namesTheJobOfRanks()
    {
        QFETCH(QString, opened);
        QCOMPARE(RunController::runWithoutRankFolders(QStringLiteral("job/rank_3")), QStringLiteral("job"));
        QCOMPARE(RunController::runWithoutRankFolders(QStringLiteral("rank-0")), QString());
        QCOMPARE(RunController::runWithoutRankFolders(QStringLiteral(".")), QString());

        QTemporaryDir dir;
        QFile fixture(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tiny.pt.trace.json"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        const QByteArray trace = fixture.readAll();
        for (int rank = 0; rank < 2; ++rank)
            QVERIFY(
                writeBytes(dir.filePath(QStringLiteral("job/profiler/rank_%1/worker.pt.trace.json").arg(rank)), trace));
        const QString root = opened.isEmpty() ? dir.path() : dir.filePath(opened);
        RunController run;
        QSignalSpy finished(&run, &RunController::importFinished);
        run.open(root);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        const RunManifest& manifest = run.session()->manifest();
        QCOMPARE(manifest.artifacts.size(), 2);
        for (int i = 0; i < manifest.artifacts.size(); ++i) {
            QVERIFY(manifest.artifacts[i].rank);
            QCOMPARE(run.jobDisplayName(i), QStringLiteral("job"));
        }
        QVERIFY(run.jobDisplayName(2).isEmpty());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestRunController)
#include "tst_runcontroller.moc"
