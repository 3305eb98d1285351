#include "importers/core/importsession.h"
#include "importers/core/report.h"
#include "importers/core/runscanner.h"
#include "importers/demo/demorun.h"
#include "importers/summary/eventfilewriter.h"

#include "models/scalars/scalarstore.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <memory>

#include <new>
#include <stdexcept>
#include <sys/stat.h>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::demo;
using namespace runlens::models;
using namespace runlens::models::scalars;
using importers::summary::EventFileWriter;

namespace {

QString writeEvents(const QString& dir, const QString& name, qint64 firstStep, qint64 lastStep,
                    const QString& tag = QStringLiteral("loss"))
{
    QDir().mkpath(dir);
    const QString path = QDir(dir).filePath(name);
    EventFileWriter writer;
    if (!writer.open(path))
        return {};
    writer.writeFileVersion(1000.0);
    for (qint64 step = firstStep; step <= lastStep; ++step)
        writer.writeScalar(tag, step, 1000.0 + double(step), double(step) * 0.5);
    writer.close();
    return path;
}

class ThrowingImporter final : public ArtifactImporter
{
public:
    enum class Kind { BadAlloc, Runtime, NotAnException };
    explicit ThrowingImporter(Kind kind)
        : m_kind(kind)
    { }
    ImportUpdate poll(const ImportControl&) override
    {
        switch (m_kind) {
        case Kind::BadAlloc:
            throw std::bad_alloc();
        case Kind::Runtime:
            throw std::runtime_error("type must be number, but is string");
        case Kind::NotAnException:
            throw 42;
        }
        return {};
    }

private:
    Kind m_kind;
};

} // namespace

class TestImportSession : public QObject
{
    Q_OBJECT
private slots:
    void importsTheDemoInTheBackground()
    {
        QTemporaryDir dir;
        QVERIFY(DemoRun::write(dir.path()));
        ImportSession session(RunScanner().scan(dir.path()));
        ScalarStore store;
        connect(&session, &ImportSession::scalarsArrived, &store, &ScalarStore::append);
        QSignalSpy finished(&session, &ImportSession::finished);
        QSignalSpy progress(&session, &ImportSession::progressChanged);
        session.start();
        QVERIFY(session.isBusy());
        QVERIFY(finished.wait(30000));
        QVERIFY(!session.isBusy());
        QCOMPARE(store.runs().size(), 2);
        QCOMPARE(store.tags(), DemoRun::tags());
        for (const QString& run : DemoRun::runNames()) {
            QCOMPARE(qint64(store.series(run, QStringLiteral("train/loss"))->points.size()), qint64(DemoRun::kSteps));
            QCOMPARE(qint64(store.series(run, QStringLiteral("eval/accuracy"))->points.size()),
                     qint64(DemoRun::kSteps / DemoRun::kEvalEvery));
        }
        for (const ArtifactState& state : session.states())
            QCOMPARE(state.status, ImportStatus::Ok);
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.constLast().at(0).toInt(), 1000);
    }

    void blockingMatchesBackground()
    {
        QTemporaryDir dir;
        QVERIFY(DemoRun::write(dir.path()));
        const RunManifest manifest = RunScanner().scan(dir.path());
        ImportSession blocking(manifest);
        ScalarStore a;
        connect(&blocking, &ImportSession::scalarsArrived, &a, &ScalarStore::append);
        blocking.importBlocking();
        ImportSession background(manifest);
        ScalarStore b;
        connect(&background, &ImportSession::scalarsArrived, &b, &ScalarStore::append);
        QSignalSpy finished(&background, &ImportSession::finished);
        background.start();
        QVERIFY(finished.wait(30000));
        QCOMPARE(a.pointCount(), b.pointCount());
        QCOMPARE(a.tags(), b.tags());
        const QJsonObject ja = infoReportJson(blocking.manifest(), blocking.states());
        const QJsonObject jb = infoReportJson(background.manifest(), background.states());
        QCOMPARE(ja, jb);
    }

    void filesOfARunAreReadInNameOrderWithPreemption()
    {
        QTemporaryDir dir;
        // The second file (greater name) restarts at step 5: steps 5..9 of the first file are dropped.
        writeEvents(dir.path(), QStringLiteral("events.out.tfevents.100.host"), 0, 9);
        writeEvents(dir.path(), QStringLiteral("events.out.tfevents.200.host"), 5, 7);
        ImportSession session(RunScanner().scan(dir.path()));
        ScalarStore store;
        connect(&session, &ImportSession::scalarsArrived, &store, &ScalarStore::append);
        session.importBlocking();
        const ScalarSeries* series = store.series(QStringLiteral("."), QStringLiteral("loss"));
        QVERIFY(series);
        QCOMPARE(int(series->points.size()), 8);
        QCOMPARE(series->points.back().step, 7);
        QCOMPARE(series->preempted, 5);
        // Per-file statistics count what each file held.
        QCOMPARE(session.state(0).scalarTags.value(QStringLiteral("loss")).points, 10);
        QCOMPARE(session.state(1).scalarTags.value(QStringLiteral("loss")).points, 3);
    }

    void liveTailSeesAppendedRecords()
    {
        QTemporaryDir dir;
        const QString path = writeEvents(dir.path(), QStringLiteral("events.out.tfevents.1.host"), 0, 9);
        ImportSession session(RunScanner().scan(dir.path()));
        ScalarStore store;
        connect(&session, &ImportSession::scalarsArrived, &store, &ScalarStore::append);
        QSignalSpy finished(&session, &ImportSession::finished);
        session.setLiveTail(true, 100);
        session.start();
        QVERIFY(finished.wait(10000));
        QCOMPARE(store.pointCount(), 10);

        // Append a complete record and half of the next one: only the complete one may appear.
        EventFileWriter writer;
        QVERIFY(writer.open(path, EventFileWriter::OpenMode::Append));
        writer.writeScalar(QStringLiteral("loss"), 10, 1010.0, 5.0);
        QVERIFY(writer.flush());
        QByteArray record;
        {
            QTemporaryDir scratch;
            EventFileWriter one;
            const QString scratchPath = scratch.filePath(QStringLiteral("r"));
            QVERIFY(one.open(scratchPath));
            one.writeScalar(QStringLiteral("loss"), 11, 1011.0, 5.5);
            QVERIFY(one.close());
            QFile f(scratchPath);
            QVERIFY(f.open(QIODevice::ReadOnly));
            record = f.readAll();
        }
        writer.writeRaw(record.left(record.size() / 2));
        QVERIFY(writer.flush());
        QTRY_COMPARE_WITH_TIMEOUT(store.pointCount(), 11, 2000);
        QTRY_VERIFY_WITH_TIMEOUT(!session.isBusy(), 2000);
        QVERIFY(session.state(0).diagnostics.isEmpty());
        QVERIFY(session.state(0).growing);

        writer.writeRaw(record.mid(record.size() / 2));
        QVERIFY(writer.close());
        QTRY_COMPARE_WITH_TIMEOUT(store.pointCount(), 12, 2000);
        QCOMPARE(store.series(QStringLiteral("."), QStringLiteral("loss"))->points.back().value, 5.5);
        QVERIFY(session.state(0).diagnostics.isEmpty());
    }

    void filesCreatedLaterAreAdded()
    {
        QTemporaryDir dir;
        writeEvents(QDir(dir.path()).filePath(QStringLiteral("a")), QStringLiteral("events.out.tfevents.100.h"), 0, 9);
        ImportSession session(RunScanner().scan(dir.path()));
        ScalarStore store;
        connect(&session, &ImportSession::scalarsArrived, &store, &ScalarStore::append);
        QSignalSpy finished(&session, &ImportSession::finished);
        QSignalSpy added(&session, &ImportSession::artifactsAdded);
        session.start();
        QVERIFY(finished.wait(10000));
        QCOMPARE(session.addArtifacts(RunScanner().scan(dir.path())), 0); // nothing new

        // A restarted job writes a new file into run "a" (resuming at step 5), and a new run "b" appears.
        writeEvents(QDir(dir.path()).filePath(QStringLiteral("a")), QStringLiteral("events.out.tfevents.200.h"), 5, 14);
        writeEvents(QDir(dir.path()).filePath(QStringLiteral("b")), QStringLiteral("events.out.tfevents.300.h"), 0, 2);
        QCOMPARE(session.addArtifacts(RunScanner().scan(dir.path())), 2);
        QCOMPARE(added.count(), 1);
        QCOMPARE(added.first().at(0).toInt(), 1);
        QCOMPARE(added.first().at(1).toInt(), 2);
        QCOMPARE(session.artifactCount(), 3);
        QVERIFY(finished.wait(10000));
        const ScalarSeries* a = store.series(QStringLiteral("a"), QStringLiteral("loss"));
        QCOMPARE(int(a->points.size()), 15); // 0..4 from the first file, 5..14 from the second
        QCOMPARE(a->preempted, 5);
        QCOMPARE(int(store.series(QStringLiteral("b"), QStringLiteral("loss"))->points.size()), 3);
        for (const ArtifactState& state : session.states())
            QCOMPARE(state.status, ImportStatus::Ok);
    }

    void tracesAreDeferredAndSummarised()
    {
        QTemporaryDir dir;
        QFile trace(dir.filePath(QStringLiteral("worker0.pt.trace.json")));
        QVERIFY(trace.open(QIODevice::WriteOnly));
        QFile fixture(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tiny.pt.trace.json"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        trace.write(fixture.readAll());
        trace.close();
        const RunManifest manifest = RunScanner().scan(dir.path());
        QCOMPARE(manifest.artifacts.size(), 1);
        QCOMPARE(manifest.artifacts.first().kind, ArtifactKind::ChromeTrace);

        ImportSession session(manifest);
        session.setDeferredKinds({ ArtifactKind::ChromeTrace });
        QSignalSpy changed(&session, &ImportSession::artifactChanged);
        QSignalSpy arrived(&session, &ImportSession::traceArrived);
        QSignalSpy finished(&session, &ImportSession::finished);
        session.start();
        QCOMPARE(session.state(0).status, ImportStatus::Deferred);
        QVERIFY(!changed.isEmpty()); // views learn that it waits to be opened
        QVERIFY(arrived.isEmpty());

        finished.clear();
        session.importArtifact(0);
        QVERIFY(finished.wait(10000));
        QCOMPARE(arrived.count(), 1);
        const auto store = arrived.first().at(1).value<std::shared_ptr<const models::trace::TraceStore>>();
        QVERIFY(store);
        QCOMPARE(store->steps().size(), size_t(1));
        QCOMPARE(session.state(0).status, ImportStatus::Ok);
        QVERIFY(session.state(0).trace.has_value());
        const models::trace::TraceSummary& summary = *session.state(0).trace;
        QCOMPARE(summary.byPhase.value(QStringLiteral("X")), quint64(5));
        QCOMPARE(summary.memoryEvents, quint64(1));
        QCOMPARE(summary.steps, 1);
        QVERIFY(summary.flows >= 1); // the runtime call joined to its kernel
        QVERIFY(!summary.topOperators.isEmpty());

        // The command line reads traces at once and reports them in the JSON contract.
        ImportSession blocking(manifest);
        blocking.importBlocking();
        const QJsonObject report = infoReportJson(blocking.manifest(), blocking.states());
        const QJsonObject a = report[QStringLiteral("artifacts")].toArray().at(0).toObject();
        QCOMPARE(a[QStringLiteral("kind")].toString(), QStringLiteral("chrome-trace"));
        QCOMPARE(a[QStringLiteral("status")].toString(), QStringLiteral("ok"));
        const QJsonObject t = a[QStringLiteral("trace")].toObject();
        QCOMPARE(t[QStringLiteral("by_phase")][QStringLiteral("X")].toInt(), 5);
        QCOMPARE(t[QStringLiteral("steps")].toInt(), 1);
        QCOMPARE(t[QStringLiteral("memory_events")].toInt(), 1);
        QCOMPARE(t[QStringLiteral("span_ns")].toDouble(), 1000.0 * 1000.0);
        const QJsonArray top = t[QStringLiteral("top_operators")].toArray();
        QVERIFY(!top.isEmpty());
        bool sawMm = false;
        for (const QJsonValue& op : top) {
            if (op[QStringLiteral("name")].toString() == QLatin1String("aten::mm")) {
                sawMm = true;
                QCOMPARE(op[QStringLiteral("calls")].toInt(), 2);
                QCOMPARE(op[QStringLiteral("total_ns")].toDouble(), 400000.0);
            }
        }
        QVERIFY(sawMm);
    }

    void ranksAreReadTogether()
    {
        // Two ranks of one job in folders of their own, the second one cut short.
        QTemporaryDir dir;
        QFile fixture(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tiny.pt.trace.json"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        const QByteArray text = fixture.readAll();
        for (int rank = 0; rank < 2; ++rank) {
            QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("job/rank_%1").arg(rank)));
            QFile trace(dir.filePath(QStringLiteral("job/rank_%1/worker.pt.trace.json").arg(rank)));
            QVERIFY(trace.open(QIODevice::WriteOnly));
            trace.write(rank == 0 ? text : text.left(text.size() - 40));
        }
        const RunManifest manifest = RunScanner().scan(dir.path());
        QCOMPARE(manifest.artifacts.size(), 2);
        QCOMPARE(manifest.artifacts[0].rank, std::optional<int>(0));
        QCOMPARE(manifest.artifacts[1].rank, std::optional<int>(1));

        ImportSession session(manifest);
        session.setDeferredKinds({ ArtifactKind::ChromeTrace });
        QSignalSpy arrived(&session, &ImportSession::tracesArrived);
        QSignalSpy single(&session, &ImportSession::traceArrived);
        QSignalSpy finished(&session, &ImportSession::finished);
        session.start();
        finished.clear();
        session.importTraces({ 0, 1 });
        QCOMPARE(session.state(0).status, ImportStatus::Importing);
        QVERIFY(finished.wait(10000));
        QCOMPARE(arrived.count(), 1);
        QVERIFY(single.isEmpty());
        QCOMPARE(arrived.first().at(0).value<QList<int>>(), QList<int>({ 0, 1 }));
        const auto store = arrived.first().at(1).value<std::shared_ptr<const models::trace::TraceStore>>();
        QVERIFY(store);
        QCOMPARE(store->sources().size(), std::size_t(2));
        QCOMPARE(store->sources()[0].path, manifest.artifacts[0].path);
        QVERIFY(store->sources()[1].events < store->sources()[0].events);
        // Each rank is a process group of its own.
        QSet<int> sources;
        for (const models::trace::Process& p : store->processes())
            sources.insert(p.source);
        QCOMPARE(sources, QSet<int>({ 0, 1 }));
        // Each artifact keeps the diagnostics of its own file.
        QCOMPARE(session.state(0).status, ImportStatus::Ok);
        QCOMPARE(session.state(1).status, ImportStatus::Partial);
        QVERIFY(session.state(0).diagnostics.isEmpty());
        QVERIFY(!session.state(1).diagnostics.isEmpty());
        for (const Diagnostic& d : session.state(1).diagnostics)
            QCOMPARE(d.file, manifest.artifacts[1].path);
        QCOMPARE(session.state(0).recordsRead, qint64(store->sources()[0].events));
    }

    void aBadFileDoesNotStopTheOthers()
    {
        QTemporaryDir dir;
        writeEvents(QDir(dir.path()).filePath(QStringLiteral("good")), QStringLiteral("events.out.tfevents.1.h"), 0, 4);
        const QString badPath = writeEvents(QDir(dir.path()).filePath(QStringLiteral("bad")),
                                            QStringLiteral("events.out.tfevents.1.h"), 0, 4);
        {
            // Damage the payload of the third record: that record is skipped, the rest kept.
            QFile f(badPath);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray bytes = f.readAll();
            const qint64 firstLen = qFromLittleEndian<quint64>(bytes.constData());
            const qint64 secondStart = 16 + firstLen;
            const qint64 secondLen = qFromLittleEndian<quint64>(bytes.constData() + secondStart);
            const qint64 thirdPayload = secondStart + 16 + secondLen + 12;
            bytes[thirdPayload + 2] = char(bytes[thirdPayload + 2] ^ 0x55);
            f.seek(0);
            f.write(bytes);
        }
        ImportSession session(RunScanner().scan(dir.path()));
        ScalarStore store;
        connect(&session, &ImportSession::scalarsArrived, &store, &ScalarStore::append);
        session.importBlocking();
        QCOMPARE(store.series(QStringLiteral("good"), QStringLiteral("loss"))->points.size(), size_t(5));
        QCOMPARE(store.series(QStringLiteral("bad"), QStringLiteral("loss"))->points.size(), size_t(4));
        const int badIndex = session.manifest().indexOfPath(QFileInfo(badPath).absoluteFilePath());
        QVERIFY(badIndex >= 0);
        QCOMPARE(session.state(badIndex).status, ImportStatus::Partial);
        QCOMPARE(session.state(badIndex).diagnostics.size(), 1);
        QCOMPARE(session.state(badIndex).diagnostics.first().file, QFileInfo(badPath).absoluteFilePath());
        QVERIFY(session.state(badIndex).diagnostics.first().offset > 0);
        const QJsonObject report = infoReportJson(session.manifest(), session.states());
        const QJsonObject bad = report[QStringLiteral("artifacts")].toArray().at(badIndex).toObject();
        QCOMPARE(bad[QStringLiteral("status")].toString(), QStringLiteral("partial"));
        QCOMPARE(bad[QStringLiteral("diagnostics")].toArray().size(), 1);
    }

    void failedFilesAlwaysSayWhy()
    {
        // Files that open on their own but hold nothing readable: each says why, none fails silently.
        QTemporaryDir dir;
        QDir(dir.path()).mkpath(QStringLiteral("profiler"));
        const auto write = [&dir](const QString& name, const QByteArray& bytes) {
            QFile f(QDir(dir.path()).filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write(QStringLiteral("profiler/step_trace_point_info.json"), R"({"fp_start": "a", "bp_end": "b"})");
        write(QStringLiteral("profiler/parallel_strategy_0.json"), R"({"config": {"rankId": 0}})");
        ImportSession session(RunScanner().scan(dir.path()));
        session.importBlocking();
        int failed = 0;
        for (int i = 0; i < session.artifactCount(); ++i) {
            const ArtifactState& state = session.state(i);
            if (state.status != ImportStatus::Failed)
                continue;
            ++failed;
            const bool said
                = std::any_of(state.diagnostics.cbegin(), state.diagnostics.cend(),
                              [](const Diagnostic& d) { return d.severity != Severity::Info && !d.message.isEmpty(); });
            QVERIFY2(said, qPrintable(session.manifest().artifacts[i].path));
        }
        QVERIFY(failed >= 1);
    }

    void exceptionsBecomeDiagnostics_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("bad_alloc") << int(ThrowingImporter::Kind::BadAlloc) << QStringLiteral("memory");
        QTest::newRow("std::exception") << int(ThrowingImporter::Kind::Runtime)
                                        << QStringLiteral("type must be number");
        QTest::newRow("not a std::exception")
            << int(ThrowingImporter::Kind::NotAnException) << QStringLiteral("unexpected error");
    }

    void exceptionsBecomeDiagnostics()
    {
        // Whatever an importer lets escape stops at the import boundary as a failure of that one file.
        QFETCH(int, kind);
        QFETCH(QString, mentions);
        ThrowingImporter importer { ThrowingImporter::Kind(kind) };
        const QString path = QStringLiteral("/runs/a/memory_usage_0.csv");
        const ImportUpdate update = pollGuarded(importer, ImportControl(), path);
        QCOMPARE(update.status, ImportStatus::Failed);
        QCOMPARE(update.diagnostics.size(), 1);
        QCOMPARE(update.diagnostics.first().severity, Severity::Error);
        QCOMPARE(update.diagnostics.first().file, path);
        QVERIFY2(update.diagnostics.first().message.contains(mentions), qPrintable(update.diagnostics.first().message));
    }

    void aFifoNeverBlocks()
    {
        // A named pipe where an event file would be: the scanner leaves it out and the import boundary refuses
        // it; neither waits for a writer that never comes.
        QTemporaryDir dir;
        writeEvents(dir.path(), QStringLiteral("events.out.tfevents.1.a"), 0, 3);
        const QString fifo = dir.filePath(QStringLiteral("events.out.tfevents.2.b"));
        QVERIFY(mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const RunManifest manifest = RunScanner().scan(dir.path());
        QCOMPARE(manifest.artifacts.size(), 1);
        QVERIFY(manifest.artifacts.first().path.endsWith(QStringLiteral(".1.a")));

        Artifact artifact = manifest.artifacts.first();
        artifact.path = fifo;
        auto importer = createImporter(artifact);
        QVERIFY(importer);
        const ImportUpdate update = pollGuarded(*importer, ImportControl(), fifo);
        QCOMPARE(update.status, ImportStatus::Failed);
        QCOMPARE(update.diagnostics.size(), 1);
        QCOMPARE(update.diagnostics.first().file, fifo);
        QVERIFY(update.diagnostics.first().message.contains(QStringLiteral("regular file")));
    }

    void deletingTheSessionDuringACombinedReadIsSafe()
    {
        // Opening another folder while the ranks of a job are read deletes the session under the worker;
        // the worker must be done with it first (run under the asan preset to see a use after free).
        QTemporaryDir dir;
        QFile fixture(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tiny.pt.trace.json"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        const QByteArray text = fixture.readAll();
        for (int rank = 0; rank < 4; ++rank) {
            QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("job/rank_%1").arg(rank)));
            QFile trace(dir.filePath(QStringLiteral("job/rank_%1/worker.pt.trace.json").arg(rank)));
            QVERIFY(trace.open(QIODevice::WriteOnly));
            trace.write(text);
        }
        const RunManifest manifest = RunScanner().scan(dir.path());
        QCOMPARE(manifest.artifacts.size(), 4);
        for (int round = 0; round < 20; ++round) {
            auto session = std::make_unique<ImportSession>(manifest);
            session->setDeferredKinds({ ArtifactKind::ChromeTrace });
            session->start();
            session->importTraces({ 0, 1, 2, 3 });
            if (round % 2)
                QTest::qWait(round);
            session->cancel();
            session.reset();
            QCoreApplication::processEvents();
        }
    }

    void cancelKeepsWhatWasRead()
    {
        QTemporaryDir dir;
        for (int i = 0; i < 6; ++i)
            writeEvents(QDir(dir.path()).filePath(QStringLiteral("r%1").arg(i)),
                        QStringLiteral("events.out.tfevents.1.h"), 0, 20000);
        ImportSession session(RunScanner().scan(dir.path()));
        QSignalSpy finished(&session, &ImportSession::finished);
        session.start();
        session.cancel();
        QVERIFY(finished.wait(30000));
        for (const ArtifactState& state : session.states()) {
            QVERIFY(state.status != ImportStatus::Importing);
            QVERIFY(state.status != ImportStatus::Pending);
        }
    }

    void metricsTablesImport()
    {
        // A metrics.csv was once only listed; its columns are now scalars of the run.
        QTemporaryDir dir;
        QFile csv(dir.filePath(QStringLiteral("metrics.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("step,loss,accuracy\n0,2.30,0.11\n1,2.10,0.18\n2,1.95,0.25\n");
        csv.close();
        ImportSession session(RunScanner().scan(dir.path()));
        QCOMPARE(session.artifactCount(), 1);
        QSignalSpy finished(&session, &ImportSession::finished);
        session.start();
        QVERIFY(finished.wait(30000));
        QCOMPARE(session.state(0).status, ImportStatus::Ok);
        const QJsonObject report = infoReportJson(session.manifest(), session.states());
        const QJsonObject artifact = report[QStringLiteral("artifacts")].toArray().at(0).toObject();
        QCOMPARE(artifact[QStringLiteral("status")].toString(), QStringLiteral("ok"));
        const QJsonObject loss
            = artifact[QStringLiteral("scalars")][QStringLiteral("tags")][QStringLiteral("loss")].toObject();
        QCOMPARE(loss[QStringLiteral("points")].toInt(), 3);
        QCOMPARE(loss[QStringLiteral("last_step")].toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(TestImportSession)
#include "tst_importsession.moc"
