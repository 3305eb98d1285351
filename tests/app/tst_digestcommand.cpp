#include "importers/cluster/rankdigestfile.h"
#include "importers/trace/chrometracereader.h"
#include "models/cluster/clusterreport.h"
#include "models/cluster/kinetocluster.h"
#include "tests/importers/cluster/kinetorankfixture.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

// `runlens digest` driven as a user or a Slurm task would: a generated job of several ranks in, one digest
// per rank out, equal to the digests made in-process, nothing written into the job's folder.

using namespace runlens;
using namespace runlens::importers::cluster;
using namespace runlens::models::cluster;

namespace {

struct Result
{
    int exitCode = -1;
    QByteArray err;
};

Result run(const QStringList& arguments, const QString& cacheHome = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"),
               cacheHome.isEmpty() ? QDir::tempPath() + QStringLiteral("/runlens-test-cache") : cacheHome);
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(RUNLENS_EXECUTABLE), arguments);
    Result r;
    if (!process.waitForFinished(120000)) {
        process.kill();
        return r;
    }
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.err = process.readAllStandardError();
    return r;
}

QStringList writeJob(const QString& dir, int ranks)
{
    QStringList paths;
    for (int r = 0; r < ranks; ++r) {
        // Kineto's own names: the rank is only inside the file.
        const QString path = dir + QStringLiteral("/node%1_%2.1700000000.pt.trace.json").arg(r / 4).arg(1000 + r);
        if (!test::writeKinetoRankFixture(path, r, ranks, 3, 5))
            return {};
        paths << path;
    }
    return paths;
}

QByteArray reportOf(const Cluster& cluster)
{
    return QJsonDocument(clusterReport(cluster)).toJson();
}

} // namespace

class TstDigestCommand : public QObject
{
    Q_OBJECT
private slots:
    void wholeJob();
    void rankRange();
    void writesNoIndexCache();
    void failures();
    void adviseOnDigests();
};

void TstDigestCommand::wholeJob()
{
    QTemporaryDir job;
    const QStringList paths = writeJob(job.path(), 8);
    QCOMPARE(paths.size(), 8);
    const QStringList before = QDir(job.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
    QTemporaryDir out;
    const ::Result r = run({ QStringLiteral("digest"), job.path(), QStringLiteral("--out"), out.filePath("digests") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.contains("[8/8]"), r.err.constData());
    QCOMPARE(QDir(job.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), before);

    const DigestFolder folder = readRankDigestFolder(out.filePath("digests"));
    QVERIFY2(folder.problems.isEmpty(), qPrintable(folder.problems.join('\n')));
    QCOMPARE(int(folder.digests.size()), 8);
    for (int r = 0; r < 8; ++r) {
        QVERIFY(QFileInfo::exists(out.filePath("digests/") + rankDigestFileName(r)));
        // Each equals the digest made in-process from the same file.
        const RankDigestResult local = digestTraceFile(paths[r]);
        QVERIFY(local.digest);
        QCOMPARE(encodeRankDigest(*folder.digests[std::size_t(r)]), encodeRankDigest(*local.digest));
    }
    // The cluster of the digests is the one of every rank read together.
    const auto together = importers::trace::ChromeTraceReader::read(paths);
    const Cluster today = buildKinetoCluster(*together.store);
    const Cluster fromDigests = clusterFromDigests(folder.digests);
    QCOMPARE(reportOf(fromDigests), reportOf(today));
    // Rank 5 computes longer and reaches the all-reduce last in every step.
    QCOMPARE(int(fromDigests.stragglers.size()), 3);
    for (const StragglerStep& s : fromDigests.stragglers)
        QCOMPARE(s.rank, 5);
}

void TstDigestCommand::rankRange()
{
    QTemporaryDir job;
    QCOMPARE(writeJob(job.path(), 6).size(), 6);
    QTemporaryDir out;
    const ::Result r
        = run({ QStringLiteral("digest"), job.path(), QStringLiteral("--out"), out.path(), QStringLiteral("--ranks"),
                QStringLiteral("2-4"), QStringLiteral("--jobs"), QStringLiteral("2") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QStringList names = QDir(out.path()).entryList(QDir::Files);
    names.sort();
    QCOMPARE(names, (QStringList { "rank-2.rldigest", "rank-3.rldigest", "rank-4.rldigest" }));
}

void TstDigestCommand::writesNoIndexCache()
{
    // A job of thousands of ranks would push every other trace out of the index cache: digesting reads an
    // index when there is one but never writes one.
    QTemporaryDir job;
    QCOMPARE(writeJob(job.path(), 3).size(), 3);
    QTemporaryDir cache;
    QTemporaryDir out;
    const ::Result r = run({ QStringLiteral("digest"), job.path(), QStringLiteral("--out"), out.path() }, cache.path());
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(QDir(out.path()).entryList(QDir::Files).size(), 3);
    QStringList written;
    QDirIterator it(cache.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext())
        written << it.next();
    QVERIFY2(written.isEmpty(), qPrintable(written.join('\n')));
}

void TstDigestCommand::failures()
{
    QTemporaryDir job;
    QTemporaryDir out;
    // Usage errors: 2, with a message.
    Result r = run({ QStringLiteral("digest"), job.path() });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("--out"));
    r = run({ QStringLiteral("digest"), job.filePath("missing"), QStringLiteral("--out"), out.path() });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("does not exist"));
    r = run({ QStringLiteral("digest"), job.path(), QStringLiteral("--out"), out.path(), QStringLiteral("--ranks"),
              QStringLiteral("5-2") });
    QCOMPARE(r.exitCode, 2);
    // Nothing to digest: 1.
    r = run({ QStringLiteral("digest"), job.path(), QStringLiteral("--out"), out.path() });
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("no trace with a rank"));
    // A rank whose trace is damaged fails the run, naming it; the others are still written.
    QCOMPARE(writeJob(job.path(), 2).size(), 2);
    QFile broken(job.filePath("rank-7.pt.trace.json"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\"distributedInfo\": {\"rank\": 7}, \"traceEvents\": [");
    broken.close();
    r = run({ QStringLiteral("digest"), job.path(), QStringLiteral("--out"), out.path() });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("rank 7 failed"), r.err.constData());
    QVERIFY(QFileInfo::exists(out.filePath("rank-0.rldigest")));
    QVERIFY(QFileInfo::exists(out.filePath("rank-1.rldigest")));
}

void TstDigestCommand::adviseOnDigests()
{
    // The cluster rules read a digest folder as they read the job's traces: rank 5 is the straggler.
    QTemporaryDir job;
    QCOMPARE(writeJob(job.path(), 8).size(), 8);
    QTemporaryDir out;
    Result r = run({ QStringLiteral("digest"), job.path(), QStringLiteral("--out"), out.path() });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QProcess advise;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), out.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), out.filePath(QStringLiteral("cache")));
    advise.setProcessEnvironment(env);
    advise.start(QStringLiteral(RUNLENS_EXECUTABLE),
                 { QStringLiteral("advise"), out.path(), QStringLiteral("--json") });
    QVERIFY(advise.waitForFinished(120000));
    QCOMPARE(advise.exitCode(), 0);
    const QJsonObject report = QJsonDocument::fromJson(advise.readAllStandardOutput()).object();
    bool straggler = false;
    for (const QJsonValue& finding : report.value(QStringLiteral("findings")).toArray()) {
        const QJsonObject f = finding.toObject();
        if (f.value(QStringLiteral("rule")).toString() == QLatin1String("straggler-rank"))
            straggler = straggler || f.value(QStringLiteral("message")).toString().contains(QStringLiteral("Rank 5"));
    }
    QVERIFY2(straggler, QJsonDocument(report).toJson().left(3000).constData());
}

QTEST_GUILESS_MAIN(TstDigestCommand)
#include "tst_digestcommand.moc"
