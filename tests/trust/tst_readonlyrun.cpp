#include "tests/testutils.h"

#include "importers/core/advisorloader.h"
#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/demo/demorun.h"
#include "models/advisor/advisor.h"
#include "models/advisor/rule.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

// RunLens never writes into a run folder: it may be a training job's live output, a shared or archived result.
// A writable copy of a run folder (the demo run and real files of every kind) is opened by everything that reads
// runs — the scanner, every importer, the Advisor, the command line and the main window rendering a screenshot
// (with the working directory inside the folder, where a careless relative path would land) — and afterwards
// every entry is as it was: the same names, sizes, times and contents.

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::demo;
using namespace runlens::models;

namespace {

struct EntryState
{
    bool directory = false;
    qint64 size = 0;
    qint64 mtimeNs = 0;
    qint64 ctimeNs = 0;
    unsigned mode = 0;
    QByteArray sha256;

    bool operator==(const EntryState&) const = default;
};

using FolderState = QMap<QString, EntryState>;

FolderState snapshot(const QString& root)
{
    FolderState state;
    const QDir base(root);
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    QStringList paths { root };
    while (it.hasNext())
        paths << it.next();
    for (const QString& path : std::as_const(paths)) {
        struct stat info
        {
        };
        if (::lstat(QFile::encodeName(path).constData(), &info) != 0)
            continue;
        EntryState entry;
        entry.directory = S_ISDIR(info.st_mode);
        entry.size = entry.directory ? 0 : qint64(info.st_size);
        entry.mtimeNs = qint64(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
        entry.ctimeNs = qint64(info.st_ctim.tv_sec) * 1000000000 + info.st_ctim.tv_nsec;
        entry.mode = unsigned(info.st_mode);
        if (S_ISREG(info.st_mode)) {
            QFile file(path);
            if (file.open(QIODevice::ReadOnly)) {
                QCryptographicHash hash(QCryptographicHash::Sha256);
                hash.addData(&file);
                entry.sha256 = hash.result().toHex();
            }
        }
        state.insert(base.relativeFilePath(path), entry);
    }
    return state;
}

QStringList differences(const FolderState& before, const FolderState& after)
{
    QStringList out;
    for (auto it = after.cbegin(); it != after.cend(); ++it) {
        if (!before.contains(it.key()))
            out << QStringLiteral("new entry: %1").arg(it.key());
    }
    for (auto it = before.cbegin(); it != before.cend(); ++it) {
        const auto now = after.constFind(it.key());
        if (now == after.cend()) {
            out << QStringLiteral("removed: %1").arg(it.key());
            continue;
        }
        const EntryState& a = it.value();
        const EntryState& b = now.value();
        if (a.size != b.size)
            out << QStringLiteral("size changed: %1 (%2 -> %3)").arg(it.key()).arg(a.size).arg(b.size);
        if (a.mtimeNs != b.mtimeNs)
            out << QStringLiteral("modification time changed: %1").arg(it.key());
        if (a.ctimeNs != b.ctimeNs)
            out << QStringLiteral("status change time changed: %1").arg(it.key());
        if (a.mode != b.mode)
            out << QStringLiteral("mode changed: %1").arg(it.key());
        if (a.sha256 != b.sha256)
            out << QStringLiteral("content changed: %1").arg(it.key());
    }
    return out;
}

bool copyInto(const QString& from, const QString& to)
{
    QDir().mkpath(QFileInfo(to).absolutePath());
    if (!QFile::copy(from, to))
        return false;
    // The samples are read-only; the copy is writable on purpose: nothing must use the chance.
    return QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
}

} // namespace

class TestReadOnlyRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void nothingWritten();

private:
    void runApp(const QStringList& arguments, int expectedExit = 0, int timeoutMs = 180000);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_run;
    QProcessEnvironment m_environment;
};

void TestReadOnlyRun::initTestCase()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    // Settings, caches, notes and session files go to a home of our own, never the user's or the run's.
    const QString home = m_dir->filePath(QStringLiteral("home"));
    for (const char* sub : { "", "/.config", "/.local/share", "/.cache", "/.local/state", "/runtime" })
        QVERIFY(QDir().mkpath(home + QLatin1String(sub)));
    QFile::setPermissions(home + QStringLiteral("/runtime"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const QList<QPair<const char*, QString>> variables {
        { "HOME", home },
        { "XDG_CONFIG_HOME", home + QStringLiteral("/.config") },
        { "XDG_DATA_HOME", home + QStringLiteral("/.local/share") },
        { "XDG_CACHE_HOME", home + QStringLiteral("/.cache") },
        { "XDG_STATE_HOME", home + QStringLiteral("/.local/state") },
        { "XDG_RUNTIME_DIR", home + QStringLiteral("/runtime") },
    };
    m_environment = QProcessEnvironment::systemEnvironment();
    for (const auto& [name, value] : variables) {
        qputenv(name, QFile::encodeName(value));
        m_environment.insert(QLatin1String(name), value);
    }
    m_environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));

    m_run = m_dir->filePath(QStringLiteral("run"));
    QString error;
    QVERIFY2(DemoRun::write(m_run, &error), qPrintable(error));

    // Real files of the kinds the demo does not write, each where a run would hold it.
    const QString data = QStringLiteral(RUNLENS_TEST_DATA_DIR);
    const QList<QPair<QString, QString>> fromTestData {
        { QStringLiteral("tensor/container_tensors.safetensors"), QStringLiteral("extra/model.safetensors") },
        { QStringLiteral("tensor/container_stored.npz"), QStringLiteral("extra/state.npz") },
        { QStringLiteral("memory/snapshot.pickle"), QStringLiteral("extra/snapshot.pickle") },
        { QStringLiteral("visualdl/vdlrecords.1700000000.log"), QStringLiteral("extra/vdl/vdlrecords.1700000000.log") },
        { QStringLiteral("graph_functions.onnx"), QStringLiteral("extra/graph/functions.onnx") },
        { QStringLiteral("graph_anf_model.pb"), QStringLiteral("extra/graph/ms_output_model.pb") },
    };
    for (const auto& [from, to] : fromTestData)
        QVERIFY2(copyInto(data + QLatin1Char('/') + from, m_run + QLatin1Char('/') + to), qPrintable(from));

    const QString samples = test::samplesDir();
    if (samples.isEmpty()) {
        if (qEnvironmentVariableIntValue("RUNLENS_REQUIRE_SAMPLES"))
            QFAIL("RUNLENS_REQUIRE_SAMPLES is set but ../shared/samples is not present");
        qInfo("../shared/samples is not present: the run holds the demo and tests/data files only");
        return;
    }
    const QList<QPair<QString, QString>> fromSamples {
        { QStringLiteral("summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_MS"),
          QStringLiteral("ms/events.out.events.summary.1700000000.0.helperhost_MS") },
        { QStringLiteral(
              "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_lineage"),
          QStringLiteral("ms/events.out.events.summary.1700000000.0.helperhost_lineage") },
        { QStringLiteral("traces/kineto/cpu_only_rank34_of_300/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"),
          QStringLiteral("extra/trace/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz") },
        { QStringLiteral("traces/memory_timeline/memory_timeline.raw.gz"),
          QStringLiteral("extra/memory/memory_timeline.raw.gz") },
        { QStringLiteral("graphs/onnx/test_loop11/model.onnx"), QStringLiteral("extra/graph/loop.onnx") },
        { QStringLiteral("graphs/tensorflow/graphdef_foo.pbtxt"), QStringLiteral("extra/graph/graphdef_foo.pbtxt") },
        { QStringLiteral("graphs/mindspore_ir/read_ir_files.md.ex1_ms1x_format.ir"),
          QStringLiteral("extra/graph/01_validate_0001.ir") },
        { QStringLiteral("graphs/torchscript/TestJit.test_alexnet.expect"),
          QStringLiteral("extra/graph/alexnet.graph.txt") },
        { QStringLiteral("runs/pytorch_cnn_baseline/metrics.csv"), QStringLiteral("extra/metrics.csv") },
        { QStringLiteral("profiler/mindspore/profiler_misc/framework_raw_0.csv"),
          QStringLiteral("ms/profiler/framework_raw_0.csv") },
        { QStringLiteral("profiler/mindspore/profiler_misc/aicore_intermediate_1_detail.csv"),
          QStringLiteral("ms/profiler/aicore_intermediate_1_detail.csv") },
        { QStringLiteral("profiler/mindspore/profiler_misc/aicore_intermediate_1_type.csv"),
          QStringLiteral("ms/profiler/aicore_intermediate_1_type.csv") },
        { QStringLiteral("profiler/mindspore/profiler_misc/step_trace_raw_0_detail_time.csv"),
          QStringLiteral("ms/profiler/step_trace_raw_0_detail_time.csv") },
        { QStringLiteral("profiler/mindspore/profiler_misc/minddata_pipeline_raw_0.csv"),
          QStringLiteral("ms/profiler/minddata_pipeline_raw_0.csv") },
    };
    for (const auto& [from, to] : fromSamples)
        QVERIFY2(copyInto(samples + QLatin1Char('/') + from, m_run + QLatin1Char('/') + to),
                 qPrintable(QStringLiteral("sample missing or not copied: %1").arg(from)));
}

void TestReadOnlyRun::runApp(const QStringList& arguments, int expectedExit, int timeoutMs)
{
    QProcess process;
    process.setProcessEnvironment(m_environment);
    // Inside the run folder: a file written to a relative path would land in it.
    process.setWorkingDirectory(m_run);
    process.start(QStringLiteral(RUNLENS_APP_PATH), arguments);
    QVERIFY2(process.waitForStarted(), qPrintable(process.errorString()));
    const bool finished = process.waitForFinished(timeoutMs);
    if (!finished)
        process.kill();
    const QString output = QString::fromLocal8Bit(process.readAllStandardError().right(4000));
    QVERIFY2(finished, qPrintable(QStringLiteral("runlens %1 did not finish").arg(arguments.join(QLatin1Char(' ')))));
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == expectedExit,
             qPrintable(QStringLiteral("runlens %1 exited with %2: %3")
                            .arg(arguments.join(QLatin1Char(' ')))
                            .arg(process.exitCode())
                            .arg(output)));
}

void TestReadOnlyRun::nothingWritten()
{
    const ::FolderState before = snapshot(m_run);
    QVERIFY(before.size() > 20);

    // The scanner and every importer, as the window runs them.
    const RunManifest manifest = RunScanner().scan(m_run);
    QVERIFY(manifest.artifacts.size() > 10);
    QSet<ArtifactKind> kinds;
    for (const Artifact& artifact : manifest.artifacts)
        kinds.insert(artifact.kind);
    for (ArtifactKind kind : { ArtifactKind::TensorBoardEvents, ArtifactKind::ChromeTrace, ArtifactKind::GraphDot,
                               ArtifactKind::TensorNpy, ArtifactKind::TensorSafetensors, ArtifactKind::TensorNpz,
                               ArtifactKind::MemorySnapshot, ArtifactKind::GraphOnnx, ArtifactKind::VisualDlLog })
        QVERIFY2(kinds.contains(kind), qPrintable(artifactKindId(kind)));
    {
        ImportSession session(manifest);
        session.importBlocking();
        int imported = 0;
        for (int i = 0; i < session.artifactCount(); ++i) {
            const ImportStatus status = session.state(i).status;
            imported += status == ImportStatus::Ok || status == ImportStatus::Partial;
        }
        QVERIFY2(imported > 10, qPrintable(QString::number(imported)));
        qInfo("%lld entries, %lld artifacts, %d imported", qlonglong(before.size()),
              qlonglong(manifest.artifacts.size()), imported);
        // The ranks' traces read together, as the timeline does.
        const QList<QList<int>> groups = rankTraceGroups(manifest);
        for (const QList<int>& group : groups) {
            QSignalSpy arrived(&session, &ImportSession::tracesArrived);
            session.importTraces(group);
            QVERIFY(arrived.wait(60000));
        }
    }

    // The Advisor, headless as `runlens advise` runs it.
    QStringList problems;
    const models::advisor::AdvisorInput input = loadAdvisorInput(m_run, &problems);
    const models::advisor::RuleBook rules = models::advisor::RuleBook::effective({}, &problems);
    const models::advisor::AdvisorReport report = models::advisor::evaluate(input, rules);
    Q_UNUSED(report);

    // The command line and the window.
    runApp({ QStringLiteral("scan"), m_run, QStringLiteral("--json") });
    runApp({ QStringLiteral("info"), m_run, QStringLiteral("--json") });
    runApp({ QStringLiteral("advise"), m_run });
    const QString screenshot = m_dir->filePath(QStringLiteral("screenshot.png"));
    runApp({ QStringLiteral("--screenshot"), screenshot, m_run });
    QVERIFY2(QFileInfo(screenshot).size() > 0, "no screenshot written");
    if (qEnvironmentVariableIsSet("RUNLENS_TRUST_SELFTEST")) {
        // Proves the comparison catches a write: touch one file the way a careless writer would.
        QFile file(m_run + QStringLiteral("/extra/model.safetensors"));
        QVERIFY(file.open(QIODevice::Append));
        file.write("x");
    }
    runApp({ QStringLiteral("--screenshot"), m_dir->filePath(QStringLiteral("timeline.png")), QStringLiteral("--dock"),
             QStringLiteral("Timeline"), m_run });

    const QStringList changed = differences(before, snapshot(m_run));
    QVERIFY2(changed.isEmpty(), qPrintable(changed.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestReadOnlyRun)
#include "tst_readonlyrun.moc"
