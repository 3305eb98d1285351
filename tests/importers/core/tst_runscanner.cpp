#include "importers/core/filesniffer.h"
#include "importers/core/runscanner.h"
#include "importers/summary/eventfilewriter.h"

#include "tests/importers/core/artifactbytes.h"
#include "tests/testutils.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <map>

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace runlens;
using namespace runlens::test;
using namespace runlens::importers;
using namespace runlens::models;
using importers::summary::EventFileWriter;
using importers::summary::SummaryFlavor;

namespace {

// --- Files and trees -------------------------------------------------------------------------------------------

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(bytes) == bytes.size();
}

bool writeEvents(const QString& path, SummaryFlavor flavor = SummaryFlavor::TensorBoard)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    EventFileWriter writer(flavor);
    if (!writer.open(path))
        return false;
    writer.writeFileVersion(1700000000.0);
    for (int step = 0; step < 3; ++step)
        writer.writeScalar(QStringLiteral("loss"), step, 1700000000.0 + step, 1.0 / (step + 1));
    return writer.close();
}

/// Writes a small valid file of the kind its name suggests (event file, npy, npz, onnx, Kineto trace, csv).
bool writeArtifact(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    if (name.startsWith(QLatin1String("events.out.tfevents")))
        return writeEvents(path);
    if (name.endsWith(QLatin1String(".npy")))
        return writeFile(path, npyBytes());
    if (name.endsWith(QLatin1String(".npz")))
        return writeFile(path, zipWithMember("w.npy", npyBytes()));
    if (name.endsWith(QLatin1String(".onnx")))
        return writeFile(path, onnxBytes());
    if (name.endsWith(QLatin1String(".json")))
        return writeFile(path, kinetoHeader(-1, 1));
    if (name.endsWith(QLatin1String(".csv")))
        return writeFile(path, "step,loss\n0,1\n");
    return false;
}

const Artifact* findArtifact(const RunManifest& manifest, const QString& relativePath)
{
    for (const Artifact& artifact : manifest.artifacts) {
        if (artifact.relativePath == relativePath)
            return &artifact;
    }
    return nullptr;
}

bool hasDiagnostic(const RunManifest& manifest, Severity severity, const QString& pathPart)
{
    for (const Diagnostic& diagnostic : manifest.diagnostics) {
        if (diagnostic.severity == severity && diagnostic.file.contains(pathPart)
            && diagnostic.message.contains(pathPart))
            return true;
    }
    return false;
}

QString dump(const RunManifest& manifest)
{
    QStringList lines;
    for (const Artifact& artifact : manifest.artifacts)
        lines << QStringLiteral("%1 [%2] run=%3 rank=%4")
                     .arg(artifact.relativePath, artifactKindId(artifact.kind), artifact.run,
                          artifact.rank ? QString::number(*artifact.rank) : QStringLiteral("-"));
    for (const Diagnostic& diagnostic : manifest.diagnostics)
        lines << severityId(diagnostic.severity) + QStringLiteral(": ") + diagnostic.message;
    return lines.join(QLatin1Char('\n'));
}

/// Listing of a tree with sizes and modification times (hidden entries included, links not followed).
QStringList snapshot(const QString& root)
{
    QStringList out;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        struct stat st
        {
        };
        ::lstat(QFile::encodeName(info.filePath()).constData(), &st);
        out << QStringLiteral("%1 %2 %3.%4")
                   .arg(info.filePath())
                   .arg(qint64(st.st_size))
                   .arg(qint64(st.st_mtim.tv_sec))
                   .arg(qint64(st.st_mtim.tv_nsec));
    }
    out.sort();
    return out;
}

/// nobody/nogroup on Debian: the user the permission test drops to when the suite runs as root (as CI does).
constexpr uid_t kUnprivilegedId = 65534;

/// Runs `check` in a forked child that dropped root for kUnprivilegedId; what it returned, or why it could not.
template<typename Check> QString inUnprivilegedChild(Check check)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return QStringLiteral("pipe failed");
    const pid_t pid = ::fork();
    if (pid < 0)
        return QStringLiteral("fork failed");
    if (pid == 0) {
        ::close(fds[0]);
        QByteArray out;
        if (::setgroups(0, nullptr) != 0 || ::setgid(kUnprivilegedId) != 0 || ::setuid(kUnprivilegedId) != 0
            || ::geteuid() == 0)
            out = "could not drop root in the child";
        else
            out = check().toUtf8();
        for (qsizetype done = 0; done < out.size();) {
            const ssize_t n = ::write(fds[1], out.constData() + done, std::size_t(out.size() - done));
            if (n <= 0)
                break;
            done += n;
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    QByteArray out;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
        out.append(buffer, n);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return QStringLiteral("the unprivileged child ended with status %1").arg(status);
    return QString::fromUtf8(out);
}

/// What is wrong with the scan of the permission fixture under `root`; empty when nothing is.
QString unreadableProblem(const QString& root)
{
    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);
    if (manifest.artifacts.size() != 1 || !findArtifact(manifest, QStringLiteral("ok/w.npy")))
        return QStringLiteral("only ok/w.npy should be listed:\n") + listing;
    for (const QString& path : { root + QStringLiteral("/locked"), root + QStringLiteral("/ok/secret.npy") }) {
        if (!hasDiagnostic(manifest, Severity::Warning, path))
            return QStringLiteral("no warning about %1:\n%2").arg(path, listing);
    }
    return {};
}

} // namespace

class TestRunScanner : public QObject
{
    Q_OBJECT

private slots:
    void groupsRunsLikeTensorBoardAndMindInsight();
    void runsAsPeopleLayThemOut_data();
    void runsAsPeopleLayThemOut();
    void jobOpenedThroughItsArtifactFolders();
    void artifactFolderNames_data();
    void artifactFolderNames();
    void runDisplayNames();
    void rootWithEventsOwnsItsSubfolders();
    void fillsPathsSizesAndTimes();
    void parsesRanks();
    void depthLimit_data();
    void depthLimit();
    void entryLimit();
    void symlinkLoopsTerminate();
    void symlinkedFileListedOnce();
    void unreadableEntriesAreReported();
    void garbageNamedLikeEventsIsNotEvents();
    void hiddenEntriesAreSkipped();
    void includeUnknown();
    void singleFile();
    void missingPath();
    void cancellationAndProgress();
    void scanNeverWrites();
};

void TestRunScanner::groupsRunsLikeTensorBoardAndMindInsight()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QStringLiteral("/exp1/") + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/exp1/graph/model.onnx"), onnxBytes()));
    QVERIFY(writeEvents(root + QStringLiteral("/hparams_search/") + tbName(0)));
    QVERIFY(writeEvents(root + QStringLiteral("/hparams_search/1771595857.3236299/") + tbName(1)));
    QVERIFY(writeFile(root + QStringLiteral("/dumps/step_0/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/metrics.csv"), "step,loss\n0,1\n"));
    QVERIFY(writeEvents(root + QStringLiteral("/ms/")
                            + EventFileWriter::mindSporeFileName(1700000000, 0, QStringLiteral("h")),
                        SummaryFlavor::MindSpore));
    QVERIFY(writeFile(root + QStringLiteral("/ms/events.out.events.summary.1700000000.0.h_lineage"),
                      tfRecord(protoDouble(1, 1.0) + protoBytes(6, protoBytes(1, "opt")))));
    QVERIFY(writeFile(root + QStringLiteral("/ms/deeper/not_a_run/graph.dot"), "digraph g { a -> b }"));

    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);

    const std::map<QString, QString> expectedRuns = {
        { QStringLiteral("exp1/") + tbName(), QStringLiteral("exp1") },
        { QStringLiteral("exp1/graph/model.onnx"), QStringLiteral("exp1") },
        { QStringLiteral("hparams_search/") + tbName(0), QStringLiteral("hparams_search") },
        { QStringLiteral("hparams_search/1771595857.3236299/") + tbName(1),
          QStringLiteral("hparams_search/1771595857.3236299") },
        // dumps/ is an artifact folder: it makes the opened folder a job of its own.
        { QStringLiteral("dumps/step_0/w.npy"), QStringLiteral(".") },
        { QStringLiteral("metrics.csv"), QStringLiteral(".") },
        { QStringLiteral("ms/") + EventFileWriter::mindSporeFileName(1700000000, 0, QStringLiteral("h")),
          QStringLiteral("ms") },
        { QStringLiteral("ms/events.out.events.summary.1700000000.0.h_lineage"), QStringLiteral("ms") },
        { QStringLiteral("ms/deeper/not_a_run/graph.dot"), QStringLiteral("ms") },
    };
    QCOMPARE(manifest.artifacts.size(), qsizetype(expectedRuns.size()));
    for (const auto& [path, run] : expectedRuns) {
        const Artifact* artifact = findArtifact(manifest, path);
        QVERIFY2(artifact, qPrintable(path + QStringLiteral(" missing in\n") + listing));
        QVERIFY2(artifact->run == run,
                 qPrintable(path + QStringLiteral(" -> ") + artifact->run + QStringLiteral("\n") + listing));
    }
    QCOMPARE(findArtifact(manifest, QStringLiteral("ms/events.out.events.summary.1700000000.0.h_lineage"))->kind,
             ArtifactKind::MindSporeLineage);

    // Sorted by run, then relative path; runs() lists each run once.
    for (qsizetype i = 1; i < manifest.artifacts.size(); ++i) {
        const Artifact& a = manifest.artifacts[i - 1];
        const Artifact& b = manifest.artifacts[i];
        QVERIFY2(a.run < b.run || (a.run == b.run && a.relativePath < b.relativePath), qPrintable(listing));
    }
    QCOMPARE(manifest.runs(),
             (QStringList { QStringLiteral("."), QStringLiteral("exp1"), QStringLiteral("hparams_search"),
                            QStringLiteral("hparams_search/1771595857.3236299"), QStringLiteral("ms") }));
    QVERIFY(!manifest.truncated);
    QVERIFY2(manifest.diagnostics.isEmpty(), qPrintable(listing));
}

void TestRunScanner::runsAsPeopleLayThemOut_data()
{
    QTest::addColumn<QString>("folder"); // name of the opened folder
    QTest::addColumn<QStringList>("files"); // "path -> run"

    const QString e = tbName(0);
    const QString e1 = tbName(1);
    auto rows = [](std::initializer_list<std::pair<QString, const char*>> entries) {
        QStringList out;
        for (const auto& [path, run] : entries)
            out << path + QStringLiteral(" -> ") + QString::fromUtf8(run);
        return out;
    };
    QTest::newRow("job folder with conventional sub-folders")
        << QStringLiteral("job")
        << rows({ { QStringLiteral("tb/") + e, "." },
                  { QStringLiteral("tb/plugins/profile/2026_01_02_03_04_05/host.pt.trace.json"), "." },
                  { QStringLiteral("profiler/worker0.pt.trace.json"), "." },
                  { QStringLiteral("dump/step_0/conv1.weight.npy"), "." },
                  { QStringLiteral("dump/step_59/conv1.weight.npy"), "." },
                  { QStringLiteral("graph/model.onnx"), "." },
                  { QStringLiteral("checkpoints/epoch_3/w.npy"), "." },
                  { QStringLiteral("metrics.csv"), "." },
                  { QStringLiteral("state_dict.npz"), "." } });
    QTest::newRow("TensorBoard logdir of runs") << QStringLiteral("logdir")
                                                << rows({ { QStringLiteral("exp1/") + e, "exp1" },
                                                          { QStringLiteral("exp2/") + e, "exp2" },
                                                          { QStringLiteral("exp2/") + e1, "exp2" },
                                                          { QStringLiteral("exp2/model.onnx"), "exp2" } });
    QTest::newRow("nested runs/exp1") << QStringLiteral("project")
                                      << rows({ { QStringLiteral("runs/exp1/") + e, "runs/exp1" },
                                                { QStringLiteral("runs/exp2/") + e, "runs/exp2" },
                                                { QStringLiteral("runs/exp1/graph/model.onnx"), "runs/exp1" } });
    QTest::newRow("event file in the opened folder")
        << QStringLiteral("logdir") << rows({ { e, "." }, { QStringLiteral("extra/w.npy"), "." } });
    QTest::newRow("jobs side by side with tb and profiler")
        << QStringLiteral("experiments")
        << rows({ { QStringLiteral("jobA/tb/") + e, "jobA" },
                  { QStringLiteral("jobA/profiler/worker0.pt.trace.json"), "jobA" },
                  { QStringLiteral("jobB/tb/") + e, "jobB" },
                  { QStringLiteral("jobB/profiler/worker0.pt.trace.json"), "jobB" },
                  { QStringLiteral("jobB/dump/step_0/w.npy"), "jobB" },
                  { QStringLiteral("jobB/metrics.csv"), "jobB" } });
    QTest::newRow("jobs side by side without event files")
        << QStringLiteral("experiments")
        << rows({ { QStringLiteral("sweep/lr0.1/profiler/worker0.pt.trace.json"), "sweep/lr0.1" },
                  { QStringLiteral("sweep/lr0.01/traces/worker0.pt.trace.json"), "sweep/lr0.01" },
                  { QStringLiteral("sweep/lr0.01/metrics.csv"), "sweep/lr0.01" } });
    QTest::newRow("jobs in a logs folder")
        << QStringLiteral("project")
        << rows({ { QStringLiteral("logs/jobA/profiler/worker0.pt.trace.json"), "logs/jobA" },
                  { QStringLiteral("logs/jobB/profiler/worker0.pt.trace.json"), "logs/jobB" } });
    QTest::newRow("sub-folders of an artifact folder stay in the job")
        << QStringLiteral("job")
        << rows({ { QStringLiteral("profiler/worker0.pt.trace.json"), "." },
                  { QStringLiteral("logs/node7/profiler/worker0.pt.trace.json"), "." },
                  { QStringLiteral("dump/step_0/net/graphs/w.npy"), "." },
                  { QStringLiteral("dump/step_0/net/w.npy"), "." } });
    QTest::newRow("rank folders") << QStringLiteral("job")
                                  << rows({ { QStringLiteral("rank_0/profiler/worker0.pt.trace.json"), "." },
                                            { QStringLiteral("rank1/profiler/worker1.pt.trace.json"), "." },
                                            { QStringLiteral("rank-2/dump/w.npy"), "." },
                                            { QStringLiteral("device_3/w.npy"), "." } });
    QTest::newRow("rank folders of several jobs")
        << QStringLiteral("cluster")
        << rows({ { QStringLiteral("jobA/rank_0/w.pt.trace.json"), "jobA" },
                  { QStringLiteral("jobA/rank_1/w.pt.trace.json"), "jobA" },
                  { QStringLiteral("jobB/rank_0/w.pt.trace.json"), "jobB" } });
    QTest::newRow("event files per rank keep TensorBoard's names")
        << QStringLiteral("job")
        << rows({ { QStringLiteral("tb/rank_0/") + e, "tb/rank_0" },
                  { QStringLiteral("tb/rank_1/") + e, "tb/rank_1" },
                  { QStringLiteral("profiler/worker0.pt.trace.json"), "." } });
    QTest::newRow("msprobe step and rank folders")
        << QStringLiteral("dump_path")
        << rows({ { QStringLiteral("step0/rank0/dump_tensor_data/Functional.conv2d.0.forward.input.0.npy"), "." },
                  { QStringLiteral("step0/rank1/dump_tensor_data/Functional.conv2d.0.forward.input.0.npy"), "." },
                  { QStringLiteral("step1/rank/dump_tensor_data/Functional.conv2d.0.forward.input.0.npy"), "." } });
    QTest::newRow("two msprobe dumps side by side")
        << QStringLiteral("compare")
        << rows({ { QStringLiteral("bench/step0/rank0/dump_tensor_data/a.npy"), "bench" },
                  { QStringLiteral("target/step0/rank0/dump_tensor_data/a.npy"), "target" },
                  { QStringLiteral("target/msprobe/step1/rank0/dump_tensor_data/a.npy"), "target" } });
    QTest::newRow("Ascend profiler folders")
        << QStringLiteral("job")
        << rows({ { QStringLiteral("profiler/host_1234_20260101_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                    "." },
                  { QStringLiteral("profiler/host_1234_20260101_ascend_pt/PROF_000001_20260101_ABC/device_0/"
                                   "timeline/msprof_0.json"),
                    "." },
                  { QStringLiteral("host_99_20260101_ascend_ms/ASCEND_PROFILER_OUTPUT/trace_view.json"), "." } });
    // torch's add_hparams writes a time-stamped sub-folder that TensorBoard lists as a run of its own.
    QTest::newRow("hparams sub-folders") << QStringLiteral("project")
                                         << rows({ { QStringLiteral("runs/hp/") + e, "runs/hp" },
                                                   { QStringLiteral("runs/hp/1771595857.3236299/") + e1,
                                                     "runs/hp/1771595857.3236299" } });
    QTest::newRow("hparams sub-folder inside a job's tb")
        << QStringLiteral("job")
        << rows({ { QStringLiteral("tb/") + e, "." },
                  { QStringLiteral("tb/1771595857.3236299/") + e1, "tb/1771595857.3236299" },
                  { QStringLiteral("profiler/worker0.pt.trace.json"), "." } });
    QTest::newRow("plain folders") << QStringLiteral("tensors")
                                   << rows({ { QStringLiteral("a/b/w.npy"), "a" },
                                             { QStringLiteral("c/w.npy"), "c" },
                                             { QStringLiteral("w.npy"), "." } });
}

void TestRunScanner::runsAsPeopleLayThemOut()
{
    QFETCH(QString, folder);
    QFETCH(QStringList, files);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString root = dir.path() + QLatin1Char('/') + folder;
    std::map<QString, QString> expected;
    for (const QString& entry : std::as_const(files)) {
        const QStringList parts = entry.split(QStringLiteral(" -> "));
        QVERIFY2(writeArtifact(root + QLatin1Char('/') + parts[0]), qPrintable(parts[0]));
        expected[parts[0]] = parts[1];
    }

    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);
    QCOMPARE(manifest.artifacts.size(), qsizetype(expected.size()));
    QStringList runs;
    for (const auto& [path, run] : expected) {
        const Artifact* artifact = findArtifact(manifest, path);
        QVERIFY2(artifact, qPrintable(path + QStringLiteral(" missing in\n") + listing));
        QVERIFY2(artifact->run == run,
                 qPrintable(path + QStringLiteral(" -> ") + artifact->run + QStringLiteral("\n") + listing));
        if (!runs.contains(run))
            runs << run;
    }
    runs.sort();
    QCOMPARE(manifest.runs(), runs);
    // The opened folder's run carries the folder's name wherever it is shown.
    QCOMPARE(manifest.runDisplayName(QStringLiteral(".")), folder);
    QVERIFY2(manifest.diagnostics.isEmpty(), qPrintable(listing));
}

void TestRunScanner::jobOpenedThroughItsArtifactFolders()
{
    QTemporaryDir dir;
    const QString job = dir.path() + QStringLiteral("/cnn_baseline");
    QVERIFY(writeArtifact(job + QStringLiteral("/tb/") + tbName()));
    QVERIFY(writeArtifact(job + QStringLiteral("/dump/step_3/w.npy")));
    QVERIFY(writeArtifact(job + QStringLiteral("/profiler/worker0.pt.trace.json")));

    // The job folder, one of its artifact folders, a step folder and a single file: always one run named
    // after the job.
    const QStringList opened { job, job + QStringLiteral("/tb"), job + QStringLiteral("/dump/step_3"),
                               job + QStringLiteral("/tb/") + tbName(),
                               job + QStringLiteral("/profiler/worker0.pt.trace.json") };
    for (const QString& path : opened) {
        const RunManifest manifest = RunScanner().scan(path);
        QVERIFY2(!manifest.artifacts.isEmpty(), qPrintable(path));
        QCOMPARE(manifest.runs(), QStringList { QStringLiteral(".") });
        QCOMPARE(manifest.runDisplayName(QStringLiteral(".")), QStringLiteral("cnn_baseline"));
    }
    QCOMPARE(RunScanner().scan(job).artifacts.size(), 3);
}

void TestRunScanner::artifactFolderNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("artifact");

    for (const char* name : { "tb",
                              "TensorBoard",
                              "logs",
                              "log",
                              "events",
                              "summary",
                              "summaries",
                              "profiler",
                              "prof",
                              "profile",
                              "profiling",
                              "trace",
                              "traces",
                              "dump",
                              "dumps",
                              "graph",
                              "graphs",
                              "checkpoints",
                              "checkpoint",
                              "ckpt",
                              "system",
                              "msprobe",
                              "plugins",
                              "profile_data",
                              "step_0",
                              "step12",
                              "step-3",
                              "global_step500",
                              "rank_0",
                              "rank3",
                              "rank-12",
                              "RANK_3",
                              "rank",
                              "device_0",
                              "device",
                              "checkpoint-500",
                              "PROF_000001_20260101_ABC",
                              "host_1234_20260101_ascend_pt",
                              "host_1234_20260101_ascend_ms",
                              "ASCEND_PROFILER_OUTPUT",
                              "FRAMEWORK",
                              "dump_tensor_data",
                              "vis_data" })
        QTest::newRow(name) << QString::fromUtf8(name) << true;
    for (const char* name :
         { "job", "exp1", "runs", "run_1_profiler", "pytorch_cnn_baseline", "1771595857.3236299", "steps", "step_",
           "stepx3", "ranks", "prof_notes", "lr0.1", "train", "validation", "data", "outputs", "tbx" })
        QTest::newRow(name) << QString::fromUtf8(name) << false;
}

void TestRunScanner::artifactFolderNames()
{
    QFETCH(QString, name);
    QFETCH(bool, artifact);
    QCOMPARE(isArtifactFolderName(name.toStdString()), artifact);
}

void TestRunScanner::runDisplayNames()
{
    QCOMPARE(runDisplayName(QStringLiteral("/data/job"), QStringLiteral(".")), QStringLiteral("job"));
    QCOMPARE(runDisplayName(QStringLiteral("/data/job/"), QStringLiteral(".")), QStringLiteral("job"));
    QCOMPARE(runDisplayName(QStringLiteral("/data/job"), QStringLiteral("runs/exp1")), QStringLiteral("runs/exp1"));
    QCOMPARE(runDisplayName(QStringLiteral("/data/job/tb"), QStringLiteral(".")), QStringLiteral("job"));
    QCOMPARE(runDisplayName(QStringLiteral("/data/job/dump/step_3/rank_0"), QStringLiteral(".")),
             QStringLiteral("job"));
    // Above an artifact folder there must be a folder that can name a job.
    QCOMPARE(runDisplayName(QStringLiteral("/logs"), QStringLiteral(".")), QStringLiteral("logs"));
    QCOMPARE(runDisplayName(QDir::homePath() + QStringLiteral("/logs"), QStringLiteral(".")), QStringLiteral("logs"));
    QCOMPARE(runDisplayName(QStringLiteral("/"), QStringLiteral(".")), QStringLiteral("."));
}

void TestRunScanner::rootWithEventsOwnsItsSubfolders()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QLatin1Char('/') + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/tensors/a/w.npy"), npyBytes()));
    QVERIFY(writeEvents(root + QStringLiteral("/sub/run2/") + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/sub/run2/dump/w.npy"), npyBytes()));

    const RunManifest manifest = RunScanner().scan(root);
    QCOMPARE(manifest.artifacts.size(), 4);
    QCOMPARE(findArtifact(manifest, tbName())->run, QStringLiteral("."));
    QCOMPARE(findArtifact(manifest, QStringLiteral("tensors/a/w.npy"))->run, QStringLiteral("."));
    QCOMPARE(findArtifact(manifest, QStringLiteral("sub/run2/") + tbName())->run, QStringLiteral("sub/run2"));
    QCOMPARE(findArtifact(manifest, QStringLiteral("sub/run2/dump/w.npy"))->run, QStringLiteral("sub/run2"));
    QCOMPARE(manifest.runs(), (QStringList { QStringLiteral("."), QStringLiteral("sub/run2") }));
}

void TestRunScanner::fillsPathsSizesAndTimes()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    const QString file = root + QStringLiteral("/a b/ünï/w.npy");
    QVERIFY(writeFile(file, npyBytes()));

    const RunManifest manifest = RunScanner().scan(root + QStringLiteral("/./"));
    QCOMPARE(manifest.root, QDir::cleanPath(root));
    QCOMPARE(manifest.artifacts.size(), 1);
    const Artifact& artifact = manifest.artifacts.front();
    QCOMPARE(artifact.relativePath, QStringLiteral("a b/ünï/w.npy"));
    QCOMPARE(artifact.path, QDir::cleanPath(file));
    QCOMPARE(artifact.size, QFileInfo(file).size());
    QCOMPARE(artifact.modified.toMSecsSinceEpoch(), QFileInfo(file).lastModified().toMSecsSinceEpoch());
    QCOMPARE(manifest.indexOfPath(QDir::cleanPath(file)), 0);
    QVERIFY(manifest.entriesVisited >= 3);
}

void TestRunScanner::parsesRanks()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/dump/rank_0/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/dump/rank-1/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/dump/Rank2/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/dump/RANK_3/net/0/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/dump/ranks/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/traces/rank_7/w.pt.trace.json"), kinetoHeader(5, 1)));
    QVERIFY(writeFile(root + QStringLiteral("/traces/long/w.pt.trace.json"), kinetoHeader(9, 60)));
    QVERIFY(kinetoHeader(9, 60).indexOf("distributedInfo") > qsizetype(FileSniffer::kHeadSize));
    QVERIFY(writeFile(root + QStringLiteral("/traces/long/w2.pt.trace.json.gz"), gzipped(kinetoHeader(11, 600))));
    QVERIFY(writeFile(root + QStringLiteral("/traces/rank-4.Jul_15.pt.trace.json"), kinetoHeader(-1, 1)));
    // A log array ahead of the Kineto keys: the first 4 KiB cannot tell, a second, longer read does.
    QByteArray logFirst
        = "{\"INFO\": [" + QByteArray(6000, 'x').replace('x', "\"line\", ") + "\"end\"]," + kinetoHeader(13, 1).mid(1);
    QVERIFY(writeFile(root + QStringLiteral("/traces/meta/w.json"), logFirst));
    QCOMPARE(RunScanner::classify(QStringLiteral("w.json"), logFirst.left(4096), logFirst.size()),
             ArtifactKind::Unknown);
    QVERIFY(writeFile(root + QStringLiteral("/traces/single.pt.trace.json"), kinetoHeader(-1, 1)));
    QVERIFY(writeFile(root + QStringLiteral("/profiler/profiler_info_6.json"), R"({"rank_id": 6})"));
    QVERIFY(writeFile(root + QStringLiteral("/profiler/step_trace_raw_10_detail_time.csv"), "step_num,total\n1,2\n"));

    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);
    const std::map<QString, int> expected = {
        { QStringLiteral("dump/rank_0/w.npy"), 0 },
        { QStringLiteral("dump/rank-1/w.npy"), 1 },
        { QStringLiteral("dump/Rank2/w.npy"), 2 },
        { QStringLiteral("dump/RANK_3/net/0/w.npy"), 3 },
        { QStringLiteral("dump/ranks/w.npy"), -1 },
        { QStringLiteral("traces/rank_7/w.pt.trace.json"), 5 }, // the file's own distributedInfo wins
        { QStringLiteral("traces/long/w.pt.trace.json"), 9 }, // past the first 4 KiB
        { QStringLiteral("traces/long/w2.pt.trace.json.gz"), 11 },
        { QStringLiteral("traces/rank-4.Jul_15.pt.trace.json"), 4 },
        { QStringLiteral("traces/meta/w.json"), 13 },
        { QStringLiteral("traces/single.pt.trace.json"), -1 },
        { QStringLiteral("profiler/profiler_info_6.json"), 6 },
        { QStringLiteral("profiler/step_trace_raw_10_detail_time.csv"), 10 },
    };
    QCOMPARE(manifest.artifacts.size(), qsizetype(expected.size()));
    for (const auto& [path, rank] : expected) {
        const Artifact* artifact = findArtifact(manifest, path);
        QVERIFY2(artifact, qPrintable(path + QStringLiteral(" missing in\n") + listing));
        QVERIFY2(artifact->rank.value_or(-1) == rank, qPrintable(path + QStringLiteral("\n") + listing));
    }

    // The opened folder's own name counts too.
    const RunManifest inside = RunScanner().scan(root + QStringLiteral("/dump/rank-1"));
    QCOMPARE(inside.artifacts.size(), 1);
    QCOMPARE(inside.artifacts.front().rank.value_or(-1), 1);
}

void TestRunScanner::depthLimit_data()
{
    QTest::addColumn<int>("maxDepth");
    QTest::addColumn<int>("expectedFiles");
    QTest::addColumn<bool>("expectDiagnostic");

    // One file at the root and one in each of d1 .. d1/.../d10.
    QTest::newRow("0") << 0 << 1 << true;
    QTest::newRow("1") << 1 << 2 << true;
    QTest::newRow("3") << 3 << 4 << true;
    QTest::newRow("default 8") << RunScanner::Options().maxDepth << 9 << true;
    QTest::newRow("10") << 10 << 11 << false;
}

void TestRunScanner::depthLimit()
{
    QFETCH(int, maxDepth);
    QFETCH(int, expectedFiles);
    QFETCH(bool, expectDiagnostic);

    QTemporaryDir dir;
    QString path = dir.path();
    QVERIFY(writeFile(path + QStringLiteral("/w.npy"), npyBytes()));
    for (int level = 1; level <= 10; ++level) {
        path += QStringLiteral("/d%1").arg(level);
        QVERIFY(writeFile(path + QStringLiteral("/w.npy"), npyBytes()));
    }
    RunScanner::Options options;
    options.maxDepth = maxDepth;
    const RunManifest manifest = RunScanner(options).scan(dir.path());
    QCOMPARE(manifest.artifacts.size(), qsizetype(expectedFiles));
    QVERIFY(!manifest.truncated);
    if (expectDiagnostic) {
        QCOMPARE(manifest.diagnostics.size(), 1);
        const Diagnostic& diagnostic = manifest.diagnostics.front();
        QCOMPARE(diagnostic.severity, Severity::Info);
        QVERIFY2(diagnostic.file.endsWith(QStringLiteral("/d%1").arg(maxDepth + 1)), qPrintable(diagnostic.file));
        QVERIFY(diagnostic.message.contains(diagnostic.file));
    } else {
        QVERIFY(manifest.diagnostics.isEmpty());
    }
}

void TestRunScanner::entryLimit()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    for (int i = 0; i < 30; ++i)
        QVERIFY(writeFile(root + QStringLiteral("/sub/w%1.npy").arg(i), npyBytes()));

    RunScanner::Options options;
    options.maxEntries = 20;
    const RunManifest limited = RunScanner(options).scan(root);
    QVERIFY(limited.truncated);
    QCOMPARE(limited.entriesVisited, 20);
    QCOMPARE(limited.artifacts.size(), 19); // "sub" itself is one entry
    QVERIFY(hasDiagnostic(limited, Severity::Warning, QDir::cleanPath(root)));

    options.maxEntries = 31; // exactly enough
    const RunManifest exact = RunScanner(options).scan(root);
    QVERIFY(!exact.truncated);
    QCOMPARE(exact.entriesVisited, 31);
    QCOMPARE(exact.artifacts.size(), 30);
    QVERIFY(exact.diagnostics.isEmpty());
}

void TestRunScanner::symlinkLoopsTerminate()
{
    QTemporaryDir dir;
    QTemporaryDir outside;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/a/w.npy"), npyBytes()));
    QVERIFY(QFile::link(root, root + QStringLiteral("/a/loop"))); // back to the root
    QVERIFY(QFile::link(root + QStringLiteral("/a"), root + QStringLiteral("/b"))); // a second way into a
    QVERIFY(writeFile(outside.path() + QStringLiteral("/ext/x.npy"), npyBytes()));
    QVERIFY(QFile::link(outside.path() + QStringLiteral("/ext"), outside.path() + QStringLiteral("/ext/self")));
    QVERIFY(QFile::link(outside.path() + QStringLiteral("/ext"), root + QStringLiteral("/linked")));
    QVERIFY(QFile::link(root + QStringLiteral("/nowhere"), root + QStringLiteral("/dangling")));

    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);
    QCOMPARE(manifest.artifacts.size(), 2);
    QVERIFY2(findArtifact(manifest, QStringLiteral("a/w.npy")), qPrintable(listing));
    QVERIFY2(findArtifact(manifest, QStringLiteral("linked/x.npy")), qPrintable(listing)); // followed once
    QVERIFY(!manifest.truncated);
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, QStringLiteral("/a/loop")), qPrintable(listing));
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, QStringLiteral("/linked/self")), qPrintable(listing));
    QVERIFY2(hasDiagnostic(manifest, Severity::Info, QStringLiteral("/b")), qPrintable(listing));
}

void TestRunScanner::symlinkedFileListedOnce()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QStringLiteral("/run/") + tbName()));
    QVERIFY(QFile::link(root + QStringLiteral("/run/") + tbName(), root + QStringLiteral("/run/latest")));
    QTemporaryDir outside;
    QVERIFY(writeFile(outside.path() + QStringLiteral("/w.npy"), npyBytes()));
    QVERIFY(QFile::link(outside.path() + QStringLiteral("/w.npy"), root + QStringLiteral("/run/w.npy")));

    const RunManifest manifest = RunScanner().scan(root);
    QCOMPARE(manifest.artifacts.size(), 2);
    QVERIFY(findArtifact(manifest, QStringLiteral("run/") + tbName()));
    QVERIFY(findArtifact(manifest, QStringLiteral("run/w.npy"))); // a link to a file outside is listed
}

void TestRunScanner::unreadableEntriesAreReported()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/ok/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/locked/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/ok/secret.npy"), npyBytes()));
    const bool asRoot = ::geteuid() == 0;
    if (asRoot) {
        // Permission bits do not stop root, so the scan runs in a child that became an unprivileged user; the
        // tree is handed to that user first so that only the bits below keep it out.
        QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        QStringList entries { root };
        while (it.hasNext())
            entries << it.next();
        for (const QString& entry : std::as_const(entries))
            QVERIFY2(::chown(QFile::encodeName(entry).constData(), kUnprivilegedId, kUnprivilegedId) == 0,
                     qPrintable(entry));
    }
    const QByteArray locked = QFile::encodeName(root + QStringLiteral("/locked"));
    const QByteArray secret = QFile::encodeName(root + QStringLiteral("/ok/secret.npy"));
    QCOMPARE(::chmod(locked.constData(), 0), 0);
    QCOMPARE(::chmod(secret.constData(), 0), 0);
    const QString problem
        = asRoot ? inUnprivilegedChild([&root] { return ::unreadableProblem(root); }) : unreadableProblem(root);
    ::chmod(locked.constData(), 0755);
    ::chmod(secret.constData(), 0644);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestRunScanner::garbageNamedLikeEventsIsNotEvents()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/run/") + tbName(), "not a TFRecord, just some bytes\n"));
    QVERIFY(writeFile(root + QStringLiteral("/run/") + tbName(1), QByteArray()));
    QVERIFY(writeFile(root + QStringLiteral("/run/model.onnx"), "<html>not found</html>"));

    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);
    QVERIFY2(manifest.artifacts.isEmpty(), qPrintable(listing));
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, tbName()), qPrintable(listing));
    QVERIFY2(hasDiagnostic(manifest, Severity::Info, tbName(1)), qPrintable(listing)); // empty: not written yet
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, QStringLiteral("model.onnx")), qPrintable(listing));

    RunScanner::Options options;
    options.includeUnknown = true;
    const RunManifest all = RunScanner(options).scan(root);
    QCOMPARE(all.artifacts.size(), 3);
    for (const Artifact& artifact : all.artifacts)
        QCOMPARE(artifact.kind, ArtifactKind::Unknown);
}

void TestRunScanner::hiddenEntriesAreSkipped()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QStringLiteral("/.git/objects/") + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/run/.ipynb_checkpoints/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/run/._w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/run/w.npy"), npyBytes()));

    const RunManifest manifest = RunScanner().scan(root);
    QCOMPARE(manifest.artifacts.size(), 1);
    QCOMPARE(manifest.artifacts.front().relativePath, QStringLiteral("run/w.npy"));

    // A hidden folder opened on purpose is scanned.
    const RunManifest hidden = RunScanner().scan(root + QStringLiteral("/.git"));
    QCOMPARE(hidden.artifacts.size(), 1);
    QCOMPARE(hidden.artifacts.front().run, QStringLiteral("objects"));
}

void TestRunScanner::includeUnknown()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/train.py"), "print(1)\n"));
    QVERIFY(writeFile(root + QStringLiteral("/notes.txt"), "hello\n"));
    QVERIFY(writeFile(root + QStringLiteral("/w.npy"), npyBytes()));

    QCOMPARE(RunScanner().scan(root).artifacts.size(), 1);
    RunScanner::Options options;
    options.includeUnknown = true;
    const RunManifest all = RunScanner(options).scan(root);
    QCOMPARE(all.artifacts.size(), 3);
    QCOMPARE(findArtifact(all, QStringLiteral("train.py"))->kind, ArtifactKind::Unknown);
    QCOMPARE(findArtifact(all, QStringLiteral("train.py"))->size, 9);
    QCOMPARE(findArtifact(all, QStringLiteral("w.npy"))->kind, ArtifactKind::TensorNpy);
}

void TestRunScanner::singleFile()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    const QString events = root + QStringLiteral("/rank_2/") + tbName();
    QVERIFY(writeEvents(events));
    QVERIFY(writeFile(root + QStringLiteral("/rank_2/other.npy"), npyBytes()));

    const RunManifest manifest = RunScanner().scan(events);
    QCOMPARE(manifest.root, root + QStringLiteral("/rank_2"));
    QCOMPARE(manifest.artifacts.size(), 1);
    const Artifact& artifact = manifest.artifacts.front();
    QCOMPARE(artifact.kind, ArtifactKind::TensorBoardEvents);
    QCOMPARE(artifact.path, events);
    QCOMPARE(artifact.relativePath, tbName());
    QCOMPARE(artifact.run, QStringLiteral("."));
    QCOMPARE(artifact.rank.value_or(-1), 2);
    QCOMPARE(artifact.size, QFileInfo(events).size());
    QVERIFY(manifest.diagnostics.isEmpty());

    // A file the user picked is read whatever its name says.
    QVERIFY(writeFile(root + QStringLiteral("/trace.log"), kinetoHeader(1, 1)));
    const RunManifest renamed = RunScanner().scan(root + QStringLiteral("/trace.log"));
    QCOMPARE(renamed.artifacts.size(), 1);
    QCOMPARE(renamed.artifacts.front().kind, ArtifactKind::ChromeTrace);

    QVERIFY(writeFile(root + QStringLiteral("/notes.txt"), "hello\n"));
    const RunManifest unknown = RunScanner().scan(root + QStringLiteral("/notes.txt"));
    QVERIFY(unknown.artifacts.isEmpty());
    QVERIFY(hasDiagnostic(unknown, Severity::Warning, QStringLiteral("notes.txt")));
}

void TestRunScanner::missingPath()
{
    QTemporaryDir dir;
    const QString missing = dir.path() + QStringLiteral("/does-not-exist");
    const RunManifest manifest = RunScanner().scan(missing);
    QVERIFY(manifest.artifacts.isEmpty());
    QVERIFY(hasDiagnostic(manifest, Severity::Error, missing));
    QVERIFY(hasDiagnostic(RunScanner().scan(QString()), Severity::Error, QString()));
}

void TestRunScanner::cancellationAndProgress()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    for (int i = 0; i < 20; ++i)
        QVERIFY(writeFile(root + QStringLiteral("/d%1/w.npy").arg(i), npyBytes()));

    QList<int> reports;
    ImportControl control;
    control.progress = [&](int permille) { reports.append(permille); };
    const RunManifest full = RunScanner().scan(root, control);
    QCOMPARE(full.artifacts.size(), 20);
    QVERIFY(reports.size() >= 3);
    QCOMPARE(reports.constFirst(), 0);
    QCOMPARE(reports.constLast(), 1000);
    QVERIFY(std::is_sorted(reports.cbegin(), reports.cend()));

    std::atomic_bool cancel { true };
    control.cancel = &cancel;
    const RunManifest canceled = RunScanner().scan(root, control);
    QVERIFY(canceled.truncated);
    QVERIFY(canceled.artifacts.isEmpty());
    QVERIFY(hasDiagnostic(canceled, Severity::Info, QDir::cleanPath(root)));
}

void TestRunScanner::scanNeverWrites()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QStringLiteral("/run/") + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/run/trace.pt.trace.json.gz"), gzipped(kinetoHeader(2, 100))));
    QVERIFY(writeFile(root + QStringLiteral("/run/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/run/.hidden/x.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/run/train.py"), "pass\n"));
    QVERIFY(QFile::link(root + QStringLiteral("/run"), root + QStringLiteral("/alias")));

    const QStringList before = snapshot(root);
    RunScanner::Options options;
    options.includeUnknown = true;
    const RunManifest manifest = RunScanner(options).scan(root);
    QVERIFY(!manifest.artifacts.isEmpty());
    QCOMPARE(snapshot(root), before);
}

QTEST_GUILESS_MAIN(TestRunScanner)

#include "tst_runscanner.moc"
