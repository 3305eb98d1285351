#include "importers/cluster/rankdigestfile.h"
#include "importers/cluster/rankdigestpass.h"
#include "importers/memory/tracememory.h"
#include "importers/trace/chrometracereader.h"
#include "importers/trace/traceinput.h"
#include "models/cluster/clusterreport.h"
#include "models/cluster/kinetocluster.h"
#include "models/cluster/rankdigest.h"
#include "models/memory/memoryanalysis.h"
#include "tests/bench/cluster/kinetojob.h"
#include "tests/importers/cluster/kinetorankfixture.h"
#include "tests/testutils.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers::cluster;
using namespace runlens::models;
using namespace runlens::models::cluster;

namespace {

QByteArray reportOf(const Cluster& cluster)
{
    return QJsonDocument(clusterReport(cluster)).toJson(QJsonDocument::Indented);
}

/// Each file read alone into its own store, digested, the store dropped.
std::vector<std::shared_ptr<const RankDigest>> digestsOf(const QStringList& paths)
{
    std::vector<std::shared_ptr<const RankDigest>> digests;
    for (const QString& path : paths) {
        RankDigestResult result = digestTraceFile(path);
        if (!result.digest)
            qWarning() << result.error;
        digests.push_back(result.digest);
    }
    return digests;
}

/// Today's path: every rank in one store, the peak memory column filled from the memory model as the
/// window does (each rank's highest device peak).
Cluster combined(const QStringList& paths)
{
    const auto read = importers::trace::ChromeTraceReader::read(paths);
    Cluster cluster = buildKinetoCluster(*read.store);
    const importers::memory::MemoryReadResult memory = importers::memory::memoryFromTrace(*read.store);
    if (memory.profile) {
        for (const models::memory::MemoryDevice& device : memory.profile->devices) {
            const int index = cluster.indexOfRank(device.rank);
            const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
            if (device.deviceId < 0 || device.relative || index < 0 || !peak.valid)
                continue;
            double& known = cluster.ranks[std::size_t(index)].peakMemoryBytes;
            if (!(peak.bytes <= known))
                known = peak.bytes;
        }
    }
    return cluster;
}

/// The digest of `path` computed step by step from its store, each analysis on its own (the step breakdown
/// and the operator statistics each build their launch index): the reference a faster digest must equal.
QByteArray referenceDigest(const QString& path)
{
    const QFileInfo info(path);
    const auto read = importers::trace::ChromeTraceReader::readFiles({ info.absoluteFilePath() });
    if (!read.store || read.store->sources().empty() || read.store->eventCount() == 0)
        return {};
    const models::trace::StepBreakdown breakdown = models::trace::computeStepBreakdown(*read.store);
    RankDigest digest = computeRankDigest(*read.store, 0, {}, &breakdown);
    const importers::memory::MemoryReadResult memory = importers::memory::memoryFromTrace(*read.store);
    if (memory.profile) {
        for (const models::memory::MemoryDevice& device : memory.profile->devices) {
            const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
            if (device.deviceId >= 0 && !device.relative && peak.valid
                && !(peak.bytes <= digest.figures.peakMemoryBytes))
                digest.figures.peakMemoryBytes = peak.bytes;
        }
    }
    digest.file = info.absoluteFilePath();
    digest.figures.path = digest.file;
    digest.fileSize = info.size();
    digest.fileModifiedMs = info.lastModified().toMSecsSinceEpoch();
    return encodeRankDigest(digest);
}

/// The first field where two digests differ ("steps[3].dataLoading: 1.5 vs 1.25"), empty when equal: the
/// version 1 body is a JSON object of every field, compared key by key.
QString firstDifference(const RankDigest& a, const RankDigest& b)
{
    auto bodyOf = [](const RankDigest& d) {
        const QByteArray bytes = encodeRankDigest(d, 1);
        QByteArray compressed = bytes.mid(24);
        const quint64 length = qFromLittleEndian<quint64>(bytes.constData() + 16);
        QByteArray sized(4, 0);
        qToBigEndian<quint32>(quint32(length), sized.data());
        return QJsonDocument::fromJson(qUncompress(sized + compressed)).object();
    };
    const QJsonObject x = bodyOf(a);
    const QJsonObject y = bodyOf(b);
    if (x.isEmpty() || y.isEmpty())
        return QStringLiteral("unreadable body");
    QStringList keys = x.keys() + y.keys();
    keys.removeDuplicates();
    for (const QString& key : keys) {
        const QJsonValue u = x.value(key);
        const QJsonValue v = y.value(key);
        if (u == v)
            continue;
        if (u.isArray() && v.isArray()) {
            const QJsonArray ua = u.toArray();
            const QJsonArray va = v.toArray();
            for (qsizetype i = 0; i < std::min(ua.size(), va.size()); ++i) {
                if (ua[i] != va[i])
                    return QStringLiteral("%1[%2]: %3 vs %4")
                        .arg(key)
                        .arg(i)
                        .arg(QString::fromUtf8(QJsonDocument(QJsonArray { ua[i] }).toJson(QJsonDocument::Compact)),
                             QString::fromUtf8(QJsonDocument(QJsonArray { va[i] }).toJson(QJsonDocument::Compact)));
            }
            return QStringLiteral("%1: %2 vs %3 entries").arg(key).arg(ua.size()).arg(va.size());
        }
        return QStringLiteral("%1: %2 vs %3")
            .arg(key, QString::fromUtf8(QJsonDocument(QJsonArray { u }).toJson(QJsonDocument::Compact)),
                 QString::fromUtf8(QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact)));
    }
    return encodeRankDigest(a) == encodeRankDigest(b) ? QString() : QStringLiteral("the binary bodies differ");
}

QStringList writeJob(const QString& dir, int ranks, int slowRank)
{
    QStringList paths;
    for (int r = 0; r < ranks; ++r) {
        const QString path = dir + QStringLiteral("/rank%1.pt.trace.json").arg(r);
        if (!test::writeKinetoRankFixture(path, r, ranks, 4, slowRank))
            return {};
        paths << path;
    }
    return paths;
}

} // namespace

class TstRankDigest : public QObject
{
    Q_OBJECT
private slots:
    void generatedJobEqualsCombinedStore();
    void samplesEqualCombinedStore();
    void everyTraceEqualsReference();
    void singlePassEqualsStorePath();
    void roundTrip();
    void version1StillRead();
    void seedsWrittenByHand();
    void corruptFiles_data();
    void corruptFiles();
    void folder();
};

void TstRankDigest::generatedJobEqualsCombinedStore()
{
    QTemporaryDir dir;
    const QStringList paths = writeJob(dir.path(), 4, 2);
    QCOMPARE(paths.size(), 4);
    const Cluster today = combined(paths);
    const auto digests = digestsOf(paths);
    for (const auto& d : digests)
        QVERIFY(d);
    const Cluster fromDigests = clusterFromDigests(digests);
    QCOMPARE(reportOf(fromDigests), reportOf(today));
    QCOMPARE(int(fromDigests.ranks.size()), 4);
    QCOMPARE(fromDigests.worldSize, 4);
    QVERIFY(!fromDigests.stragglers.empty());
    for (const StragglerStep& s : fromDigests.stragglers)
        QCOMPARE(s.rank, 2);

    // What the digest adds beyond the cluster figures.
    const RankDigest& d = *digests[0];
    QCOMPARE(int(d.steps.size()), 4);
    QCOMPARE(d.steps.size(), d.figures.steps.size());
    for (const DigestStep& s : d.steps) {
        QVERIFY(s.end > s.start);
        QVERIFY2(s.dataLoading > 0, "the DataLoader op counts as data loading");
    }
    QCOMPARE(int(d.collectives.size()), 4);
    for (const DigestCollective& c : d.collectives) {
        QCOMPARE(c.name, QStringLiteral("allreduce"));
        QCOMPARE(c.bytes, 4.0 * 1048576);
        QCOMPARE(c.group, QStringLiteral("0 (default_pg)"));
        QCOMPARE(c.groupSize, 4);
        QCOMPARE(c.groupRanks, QStringLiteral("[0, 1]"));
        QVERIFY(c.end > c.start);
    }
    QCOMPARE(int(d.kernels.size()), 2);
    QCOMPARE(d.kernels[1].name, QStringLiteral("sm90_xmma_gemm_f16f16_f32"));
    QCOMPARE(d.kernels[1].count, quint64(12));
    QCOMPARE(d.kernels[1].max, 0.2);
    QVERIFY(d.kernels[0].total >= d.kernels[1].total);
    QVERIFY(!d.operators.empty());
    QCOMPARE(d.file, QFileInfo(paths[0]).absoluteFilePath());
    QCOMPARE(d.fileSize, QFileInfo(paths[0]).size());
    QVERIFY(d.fileModifiedMs > 0);
}

void TstRankDigest::samplesEqualCombinedStore()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QStringList paths {
        samples + QStringLiteral("/traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz"),
        samples + QStringLiteral("/traces/kineto/2024_nccl_rank0_of_2/nccl_data.json.gz"),
    };
    const Cluster today = combined(paths);
    const auto digests = digestsOf(paths);
    const Cluster fromDigests = clusterFromDigests(digests);
    QCOMPARE(reportOf(fromDigests), reportOf(today));
    QCOMPARE(int(fromDigests.stragglers.size()), 3);
    // The 2024 trace's NCCL kernels carry their collective args.
    const RankDigest& nccl = *digests[1];
    QCOMPARE(nccl.rank(), 0);
    QVERIFY(!nccl.collectives.empty());
    const auto allReduce = std::find_if(nccl.collectives.begin(), nccl.collectives.end(),
                                        [](const DigestCollective& c) { return c.name == QLatin1String("allreduce"); });
    QVERIFY(allReduce != nccl.collectives.end());
    QVERIFY(allReduce->bytes > 0);
    QCOMPARE(allReduce->groupRanks, QStringLiteral("[0, 1]"));
    // The 2022 trace has memory events: its device peak is known.
    QVERIFY(isKnown(digests[0]->figures.peakMemoryBytes));
}

void TstRankDigest::everyTraceEqualsReference()
{
    // Every Kineto/PyTorch sample and a generated job: byte-identical digests both ways.
    QTemporaryDir dir;
    QStringList paths = writeJob(dir.path(), 3, 1);
    QCOMPARE(paths.size(), 3);
    const QString samples = test::samplesDir();
    if (!samples.isEmpty()) {
        for (const QString& folder : { QStringLiteral("/traces/kineto"), QStringLiteral("/runs") }) {
            QDirIterator it(samples + folder, { QStringLiteral("*.json"), QStringLiteral("*.json.gz") }, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext())
                paths << it.next();
        }
        QVERIFY(paths.size() > 10);
    }
    for (const QString& path : paths) {
        const RankDigestResult result = digestTraceFile(path);
        const QByteArray reference = referenceDigest(path);
        QVERIFY2(bool(result.digest) == !reference.isEmpty(), qPrintable(path + QLatin1Char(' ') + result.error));
        if (result.digest)
            QVERIFY2(encodeRankDigest(*result.digest) == reference, qPrintable(path));
    }
}

void TstRankDigest::singlePassEqualsStorePath()
{
    // The single pass must be taken on Kineto traces as profilers write them (the samples with steps and the
    // generated jobs, small and of the benchmark's kind) and give the store path's digest, field by field.
    QTemporaryDir dir;
    QStringList mustTake = writeJob(dir.path(), 3, 1);
    QVERIFY(bench::writeKinetoRankTrace(dir.filePath(QStringLiteral("bench0.json")), 0, 16, 600'000, 6));
    QVERIFY(bench::writeKinetoRankTrace(dir.filePath(QStringLiteral("bench6.json")), 6, 16, 300'000, 6));
    mustTake << dir.filePath(QStringLiteral("bench0.json")) << dir.filePath(QStringLiteral("bench6.json"));
    {
        // The collectives' args written in every way JSON allows (a key twice, an exponent, an escape, values of
        // each kind, a number where a string was, other text): the pass reads them as the store path does.
        QFile file(dir.filePath(QStringLiteral("bench6.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = file.readAll().split('\n');
        const std::pair<QByteArray, QByteArray> variants[] = {
            { "\"Group size\": ", "\"Group size\": 2, \"Group size\": " },
            { "\"In msg nelems\": 1048576", "\"In msg nelems\": 1.048576e6" },
            { "\"dtype\": \"Float\"", "\"dtype\": \"Fl\\u006fat\"" },
            { "\"In split size\": \"[]\"", "\"In split size\": [[], {\"a\": null, \"b\": [true, false]}, -0.5, 0]" },
            { "\"Process Group Ranks\": ", "\"Process Group Ranks\" :  [1], \"Process Group Ranks\":" },
            { "\"queued\": 0", "\"queued\": \"\xc3\xa9\"" },
            { "\"Process Group Name\": \"", "\"Process Group Name\": 7, \"Process Group Name 2\": \"" },
            { "\"Collective name\": \"allreduce\"", "\"Collective name\": 5" },
        };
        int k = 0;
        for (QByteArray& line : lines) {
            if (!line.contains("\"Collective name\""))
                continue;
            const std::size_t which = std::size_t(k++) % (std::size(variants) + 1); // and some left as written
            if (which < std::size(variants))
                line.replace(variants[which].first, variants[which].second);
        }
        QVERIFY(k > int(std::size(variants)));
        QFile varied(dir.filePath(QStringLiteral("bench6-args.json")));
        QVERIFY(varied.open(QIODevice::WriteOnly));
        varied.write(lines.join('\n'));
        mustTake << varied.fileName();
    }
    QStringList others;
    const QString samples = test::samplesDir();
    if (!samples.isEmpty()) {
        QDirIterator it(samples + QStringLiteral("/traces/kineto"),
                        { QStringLiteral("*.json"), QStringLiteral("*.json.gz") }, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            others << it.next();
    }
    int taken = 0;
    for (const QString& path : mustTake + others) {
        const QFileInfo info(path);
        Diagnostics diagnostics;
        const importers::trace::TraceInput input
            = importers::trace::readTraceInput(info.absoluteFilePath(), diagnostics);
        QVERIFY2(input.buffer, qPrintable(path));
        QString why;
        std::optional<RankDigest> fast = digestTraceSinglePass(input, info.absoluteFilePath(), {}, &why);
        if (!fast) {
            QVERIFY2(!mustTake.contains(path), qPrintable(path + QStringLiteral(": declined: ") + why));
            qInfo().noquote() << "store path for" << info.fileName() << "-" << why;
            continue;
        }
        ++taken;
        const auto read = importers::trace::ChromeTraceReader::readFiles({ info.absoluteFilePath() });
        QVERIFY(read.store);
        RankDigest reference = computeRankDigest(*read.store);
        const importers::memory::MemoryReadResult memory = importers::memory::memoryFromTrace(*read.store);
        if (memory.profile) {
            for (const models::memory::MemoryDevice& device : memory.profile->devices) {
                const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
                if (device.deviceId >= 0 && !device.relative && peak.valid
                    && !(peak.bytes <= reference.figures.peakMemoryBytes))
                    reference.figures.peakMemoryBytes = peak.bytes;
            }
        }
        const QString difference = firstDifference(*fast, reference);
        QVERIFY2(difference.isEmpty(), qPrintable(path + QStringLiteral(": ") + difference));

        // digestTraceFile takes the same way and says so.
        const auto before = singlePassCounts();
        const RankDigestResult result = digestTraceFile(path);
        QVERIFY(result.singlePass);
        QCOMPARE(singlePassCounts().taken, before.taken + 1);
    }
    // Every generated trace and most samples (the others: no steps, a top-level array, string tids, ...).
    QVERIFY2(taken >= mustTake.size() + others.size() / 2, qPrintable(QString::number(taken)));
}

void TstRankDigest::roundTrip()
{
    QTemporaryDir dir;
    const QStringList paths = writeJob(dir.path(), 2, 1);
    std::vector<std::shared_ptr<const RankDigest>> read;
    for (const auto& digest : digestsOf(paths)) {
        QVERIFY(digest);
        const QString file = dir.filePath(rankDigestFileName(digest->rank()));
        QString error;
        QVERIFY2(writeRankDigestFile(*digest, file, &error), qPrintable(error));
        const RankDigestResult back = readRankDigestFile(file);
        QVERIFY2(back.digest, qPrintable(back.error));
        // Written, read and written again: the same bytes (every field survives the trip).
        QCOMPARE(encodeRankDigest(*back.digest), encodeRankDigest(*digest));
        QCOMPARE(back.digest->collectives.size(), digest->collectives.size());
        QCOMPARE(back.digest->steps.front().start, digest->steps.front().start);
        QCOMPARE(back.digest->figures.steps.front().lastCommunicationOffset,
                 digest->figures.steps.front().lastCommunicationOffset);
        read.push_back(back.digest);
    }
    QCOMPARE(reportOf(clusterFromDigests(read)), reportOf(combined(paths)));
}

void TstRankDigest::version1StillRead()
{
    QTemporaryDir dir;
    const QStringList paths = writeJob(dir.path(), 2, 1);
    std::vector<std::shared_ptr<const RankDigest>> read;
    for (const auto& digest : digestsOf(paths)) {
        QVERIFY(digest);
        const QByteArray old = encodeRankDigest(*digest, 1);
        QCOMPARE(qFromLittleEndian<quint32>(old.constData() + 8), 1u);
        const RankDigestResult back = decodeRankDigest(old, QStringLiteral("old.rldigest"));
        QVERIFY2(back.digest, qPrintable(back.error));
        // A version 1 file read today is the same digest: written again (as version 2) it is the same bytes.
        QCOMPARE(encodeRankDigest(*back.digest), encodeRankDigest(*digest));
        read.push_back(back.digest);
    }
    QCOMPARE(reportOf(clusterFromDigests(read)), reportOf(combined(paths)));
    QCOMPARE(qFromLittleEndian<quint32>(encodeRankDigest(RankDigest {}).constData() + 8), kRankDigestFormatVersion);
    QVERIFY(encodeRankDigest(RankDigest {}, 99).isEmpty());
}

void TstRankDigest::seedsWrittenByHand()
{
    // The fuzz seeds are written by tests/fuzz/seed_corpora.py from the layouts the headers describe, not
    // by this writer: the same digest as a version 1 and a version 2 file.
    QByteArray version1;
    QByteArray version2;
    for (const QFileInfo& info : QDir(QStringLiteral(RUNLENS_DIGEST_SEEDS)).entryInfoList(QDir::Files)) {
        QFile file(info.filePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        // Byte 0 is the harness's choice; 0: a whole file.
        if (!bytes.startsWith(QByteArray("\0RLDIGEST", 9)))
            continue;
        const quint32 version = qFromLittleEndian<quint32>(bytes.constData() + 9);
        const quint64 length = qFromLittleEndian<quint64>(bytes.constData() + 17);
        // The "digest" seeds, not the "newer" or the "minimal" ones.
        if (version == 1 && length > 200)
            version1 = bytes.mid(1);
        else if (version == 2 && bytes.size() > 200)
            version2 = bytes.mid(1);
    }
    QVERIFY(!version1.isEmpty());
    QVERIFY(!version2.isEmpty());
    const RankDigestResult one = decodeRankDigest(version1, QStringLiteral("v1"));
    const RankDigestResult two = decodeRankDigest(version2, QStringLiteral("v2"));
    QVERIFY2(one.digest, qPrintable(one.error));
    QVERIFY2(two.digest, qPrintable(two.error));
    const RankDigest& d = *two.digest;
    QCOMPARE(d.rank(), 3);
    QCOMPARE(d.worldSize, 4);
    QCOMPARE(d.figures.device, QStringLiteral("NVIDIA H100 (0)"));
    QCOMPARE(int(d.steps.size()), 2);
    QCOMPARE(d.steps[1].start, std::int64_t(1759276800011000000));
    QVERIFY(!isKnown(d.figures.steps[1].lastCommunicationOffset));
    QCOMPARE(d.collectives.front().groupRanks, QStringLiteral("[0, 1, 2, 3]"));
    QCOMPARE(d.operators.front().name, QStringLiteral("aten::mm"));
    QCOMPARE(encodeRankDigest(*one.digest), version2);
    QCOMPARE(encodeRankDigest(d), version2);
}

void TstRankDigest::corruptFiles_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");

    RankDigest digest;
    digest.figures.rank = 3;
    const QByteArray good = encodeRankDigest(digest);
    QVERIFY(decodeRankDigest(good, QStringLiteral("x")).digest);

    QByteArray newer = good;
    qToLittleEndian<quint32>(7, newer.data() + 8);
    QByteArray hugeLength = good;
    qToLittleEndian<quint64>(quint64(1) << 62, hugeLength.data() + 16);
    QByteArray shortLength = good;
    qToLittleEndian<quint64>(10, shortLength.data() + 16);
    QByteArray longLength = good;
    qToLittleEndian<quint64>(qFromLittleEndian<quint64>(good.constData() + 16) + 100, longLength.data() + 16);
    QByteArray garbageBody = good.left(24) + QByteArray(200, 'x');
    qToLittleEndian<quint64>(200, garbageBody.data() + 16);
    // Version 2 bodies: a table count past the bytes left, a string index past the string table.
    const auto withBody = [&good](QByteArray body) {
        QByteArray file = good.left(24) + body;
        qToLittleEndian<quint64>(quint64(body.size()), file.data() + 16);
        return file;
    };
    const QByteArray body = good.mid(24);
    QByteArray hostileStrings = body;
    qToLittleEndian<quint32>(0xfffffff0u, hostileStrings.data());
    // The string table of a digest with no strings set holds one (empty) string; the rank follows it.
    QByteArray hostileRank = body;
    qToLittleEndian<quint32>(0x7fffffffu, hostileRank.data() + 8);
    QByteArray badIndex = body;
    qToLittleEndian<quint32>(5, badIndex.data() + 16);
    QByteArray hostileSteps = body;
    const qsizetype stepCount = 8 + 4 + 4 + 12 + 24 + 4 + 48 + 48;
    QCOMPARE(qFromLittleEndian<quint32>(hostileSteps.constData() + stepCount), 0u);
    qToLittleEndian<quint32>(0x10000000u, hostileSteps.data() + stepCount);
    QByteArray oldTruncated = encodeRankDigest(digest, 1);
    oldTruncated.chop(5);

    QTest::newRow("empty") << QByteArray() << QStringLiteral("truncated");
    QTest::newRow("header only half") << good.left(12) << QStringLiteral("truncated");
    QTest::newRow("truncated body") << good.left(good.size() - 10) << QStringLiteral("truncated");
    QTest::newRow("garbage") << QByteArray("{\"traceEvents\": []}") << QStringLiteral("not a rank digest");
    QTest::newRow("newer version") << newer << QStringLiteral("newer RunLens");
    QTest::newRow("hostile length") << hugeLength << QStringLiteral("beyond what a rank digest holds");
    QTest::newRow("length too short") << shortLength << QStringLiteral("truncated or damaged");
    QTest::newRow("length too long") << longLength << QStringLiteral("truncated or damaged");
    QTest::newRow("garbage body") << garbageBody << QStringLiteral("damaged");
    QTest::newRow("body cut short") << withBody(body.left(body.size() - 3)) << QStringLiteral("damaged");
    QTest::newRow("hostile string count") << withBody(hostileStrings) << QStringLiteral("string table");
    QTest::newRow("hostile rank") << withBody(hostileRank) << QStringLiteral("no valid rank number");
    QTest::newRow("string index past the table") << withBody(badIndex) << QStringLiteral("damaged");
    QTest::newRow("hostile step count") << withBody(hostileSteps) << QStringLiteral("runs past the end");
    QTest::newRow("version 1 truncated") << oldTruncated << QStringLiteral("truncated");
}

void TstRankDigest::corruptFiles()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const RankDigestResult result = decodeRankDigest(bytes, QStringLiteral("rank-3.rldigest"));
    QVERIFY(!result.digest);
    QVERIFY2(result.error.contains(QStringLiteral("rank-3.rldigest")), qPrintable(result.error));
    QVERIFY2(result.error.contains(expected), qPrintable(result.error));
}

void TstRankDigest::folder()
{
    QTemporaryDir dir;
    const QStringList paths = writeJob(dir.path(), 3, 0);
    QTemporaryDir out;
    for (const auto& digest : digestsOf(paths)) {
        QString error;
        QVERIFY(writeRankDigestFile(*digest, out.filePath(rankDigestFileName(digest->rank())), &error));
    }
    QFile bad(out.filePath(QStringLiteral("rank-9.rldigest")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("RLDIGEST");
    bad.close();
    QVERIFY(containsRankDigests(out.path()));
    QVERIFY(!containsRankDigests(dir.path()));
    const DigestFolder folder = readRankDigestFolder(out.path());
    QCOMPARE(int(folder.digests.size()), 3);
    QCOMPARE(folder.problems.size(), 1);
    QVERIFY(folder.problems.front().contains(QStringLiteral("rank-9.rldigest")));
    QCOMPARE(reportOf(clusterFromDigests(folder.digests)), reportOf(combined(paths)));
}

QTEST_GUILESS_MAIN(TstRankDigest)
#include "tst_rankdigest.moc"
