#include "app/commandline.h"

#include "importers/cluster/rankdigestfile.h"
#include "importers/core/runscanner.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QMutex>
#include <QRegularExpression>
#include <QTextStream>
#include <QThread>

#include <atomic>
#include <limits>
#include <optional>
#include <thread>
#include <vector>

// `runlens digest`: one rank digest per rank of a job, written where the user says, for clusters whose
// traces are too big (or too far away) to open together.

namespace runlens::app::cli {

namespace {

struct RankRange
{
    int first = 0;
    int last = std::numeric_limits<int>::max();
};

std::optional<RankRange> parseRanks(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d+)\\s*(?:-\\s*(\\d+)\\s*)?$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    RankRange range;
    range.first = match.captured(1).toInt(&ok);
    if (!ok)
        return std::nullopt;
    range.last = match.captured(2).isEmpty() ? range.first : match.captured(2).toInt(&ok);
    if (!ok || range.last < range.first)
        return std::nullopt;
    return range;
}

} // namespace

int digest(const QStringList& args)
{
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "runlens::cli",
        "Reads every rank's trace of the job at PATH once, one rank per worker, and writes one rank digest per\n"
        "rank (rank-N.rldigest) into DIR. A folder of digests opens in RunLens as the job's cluster.\n"
        "Exit code: 0 when every rank was digested, 1 when a rank failed, 2 for a usage error."));
    const QCommandLineOption help = parser.addHelpOption();
    parser.addOption({ QStringLiteral("out"),
                       QCoreApplication::translate("runlens::cli", "Folder the digests are written to (created)."),
                       QStringLiteral("DIR") });
    parser.addOption({ QStringLiteral("ranks"),
                       QCoreApplication::translate("runlens::cli", "Only these ranks: N or A-B (inclusive)."),
                       QStringLiteral("A-B") });
    parser.addOption({ QStringLiteral("jobs"),
                       QCoreApplication::translate("runlens::cli",
                                                   "Ranks read at once (default: the number of cores). Each holds "
                                                   "one rank's trace in memory."),
                       QStringLiteral("N") });
    parser.addPositionalArgument(QStringLiteral("PATH"),
                                 QCoreApplication::translate("runlens::cli", "The job's folder or one trace."));
    if (!parser.parse(args)) {
        err << QStringLiteral("runlens digest: ") << parser.errorText() << Qt::endl;
        return 2;
    }
    if (parser.isSet(help))
        parser.showHelp(0);
    const QString path = parser.positionalArguments().value(0);
    const QString out = parser.value(QStringLiteral("out"));
    if (path.isEmpty() || out.isEmpty()) {
        err << QCoreApplication::translate("runlens::cli", "runlens digest: PATH and --out DIR are required")
            << Qt::endl;
        return 2;
    }
    if (!QFileInfo::exists(path)) {
        err << QCoreApplication::translate("runlens::cli", "runlens digest: %1 does not exist").arg(path) << Qt::endl;
        return 2;
    }
    RankRange range;
    if (parser.isSet(QStringLiteral("ranks"))) {
        const auto parsed = parseRanks(parser.value(QStringLiteral("ranks")));
        if (!parsed) {
            err << QCoreApplication::translate("runlens::cli", "runlens digest: --ranks takes N or A-B, not '%1'")
                       .arg(parser.value(QStringLiteral("ranks")))
                << Qt::endl;
            return 2;
        }
        range = *parsed;
    }
    int jobs = std::max(1, QThread::idealThreadCount());
    if (parser.isSet(QStringLiteral("jobs"))) {
        bool ok = false;
        jobs = parser.value(QStringLiteral("jobs")).toInt(&ok);
        if (!ok || jobs < 1) {
            err << QCoreApplication::translate("runlens::cli",
                                               "runlens digest: --jobs takes a positive number, not '%1'")
                       .arg(parser.value(QStringLiteral("jobs")))
                << Qt::endl;
            return 2;
        }
    }

    // One trace per rank: the newest where a rank wrote several.
    const models::RunManifest manifest = importers::RunScanner().scan(path);
    QMap<int, const models::Artifact*> byRank;
    int unranked = 0;
    for (const models::Artifact& artifact : manifest.artifacts) {
        if (artifact.kind != models::ArtifactKind::ChromeTrace)
            continue;
        if (!artifact.rank) {
            ++unranked;
            continue;
        }
        if (*artifact.rank < range.first || *artifact.rank > range.last)
            continue;
        const models::Artifact*& known = byRank[*artifact.rank];
        if (!known || artifact.modified > known->modified)
            known = &artifact;
    }
    if (unranked > 0)
        err << QCoreApplication::translate(
            "runlens::cli", "runlens digest: %n trace(s) without a rank (in the file or its name) left out", nullptr,
            unranked)
            << Qt::endl;
    if (byRank.isEmpty()) {
        err << QCoreApplication::translate("runlens::cli", "runlens digest: no trace with a rank found in %1")
                   .arg(QDir::toNativeSeparators(path))
            << Qt::endl;
        return 1;
    }
    if (!QDir().mkpath(out)) {
        err << QCoreApplication::translate("runlens::cli", "runlens digest: cannot create %1")
                   .arg(QDir::toNativeSeparators(out))
            << Qt::endl;
        return 1;
    }

    // Workers take the next rank until none is left: one trace store per worker at a time.
    const std::vector<const models::Artifact*> ranks(byRank.cbegin(), byRank.cend());
    const std::vector<int> rankNumbers(byRank.keyBegin(), byRank.keyEnd());
    std::atomic<std::size_t> next { 0 };
    std::atomic<int> done { 0 };
    std::atomic<int> failed { 0 };
    QMutex printing;
    const int total = int(ranks.size());
    auto work = [&] {
        for (std::size_t i = next++; i < ranks.size(); i = next++) {
            const models::Artifact& artifact = *ranks[i];
            const int rank = rankNumbers[i];
            // The rank this worker takes next is read ahead while this one is parsed.
            const std::size_t ahead = i + std::size_t(std::max(jobs, 1));
            const importers::cluster::RankDigestResult result = importers::cluster::digestTraceFile(
                artifact.path, {}, {}, ahead < ranks.size() ? ranks[ahead]->path : QString());
            QString line;
            if (result.digest) {
                // The rank the folder names wins over an envelope that disagrees: it is what the user asked for.
                models::cluster::RankDigest digest = *result.digest;
                digest.figures.rank = rank;
                const QString file = QDir(out).filePath(importers::cluster::rankDigestFileName(rank));
                QString error;
                if (importers::cluster::writeRankDigestFile(digest, file, &error)) {
                    line = QCoreApplication::translate("runlens::cli", "[%1/%2] rank %3: %4")
                               .arg(++done)
                               .arg(total)
                               .arg(rank)
                               .arg(QDir::toNativeSeparators(file));
                } else {
                    ++failed;
                    line = QCoreApplication::translate("runlens::cli", "[%1/%2] rank %3 failed: %4")
                               .arg(++done)
                               .arg(total)
                               .arg(rank)
                               .arg(error);
                }
            } else {
                ++failed;
                line = QCoreApplication::translate("runlens::cli", "[%1/%2] rank %3 failed: %4")
                           .arg(++done)
                           .arg(total)
                           .arg(rank)
                           .arg(result.error);
            }
            const QMutexLocker lock(&printing);
            err << line << Qt::endl;
        }
    };
    std::vector<std::thread> workers;
    for (int w = 1; w < std::min(jobs, total); ++w)
        workers.emplace_back(work);
    work();
    for (std::thread& worker : workers)
        worker.join();
    if (failed > 0) {
        err << QCoreApplication::translate("runlens::cli", "runlens digest: %1 of %2 rank(s) failed")
                   .arg(int(failed))
                   .arg(total)
            << Qt::endl;
        return 1;
    }
    err << QCoreApplication::translate("runlens::cli", "runlens digest: %n rank digest(s) written to %1", nullptr,
                                       total)
               .arg(QDir::toNativeSeparators(out))
        << Qt::endl;
    return 0;
}

} // namespace runlens::app::cli
