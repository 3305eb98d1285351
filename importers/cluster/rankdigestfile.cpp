#include "importers/cluster/rankdigestfile.h"

#include "importers/cluster/rankdigestbinary.h"
#include "importers/cluster/rankdigestpass.h"
#include "importers/core/filemapping.h"

#include "importers/memory/tracememory.h"
#include "importers/trace/chrometracereader.h"
#include "importers/trace/traceinput.h"
#include "models/memory/memoryanalysis.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QtEndian>

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <thread>

namespace runlens::importers::cluster {

namespace {

constexpr char kMagic[8] = { 'R', 'L', 'D', 'I', 'G', 'E', 'S', 'T' };
constexpr int kHeaderBytes = 24;
constexpr auto kFormatName = "runlens-rank-digest";
/// Ranks beyond this are not a real job's: a hostile number is refused, not used as an index.
constexpr qint64 kMaxRank = qint64(1) << 24;

QJsonValue number(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue();
}

double figure(const QJsonValue& value)
{
    return value.isDouble() ? value.toDouble() : models::cluster::kMissing;
}

std::int64_t integer(const QJsonValue& value, std::int64_t fallback = 0)
{
    if (!value.isDouble())
        return fallback;
    const double d = value.toDouble();
    // Outside int64 a cast is undefined; such a value is no real time or count.
    if (!std::isfinite(d) || d < -9.2e18 || d > 9.2e18)
        return fallback;
    return value.toInteger(std::int64_t(d));
}

QJsonArray stats(const std::vector<models::cluster::DigestStat>& list)
{
    QJsonArray out;
    for (const models::cluster::DigestStat& s : list)
        out.append(QJsonArray { s.name, qint64(s.count), number(s.total), number(s.max) });
    return out;
}

std::vector<models::cluster::DigestStat> readStats(const QJsonArray& list)
{
    std::vector<models::cluster::DigestStat> out;
    for (const QJsonValue& value : list) {
        const QJsonArray row = value.toArray();
        models::cluster::DigestStat s;
        s.name = row.at(0).toString();
        s.count = std::uint64_t(std::max<std::int64_t>(0, integer(row.at(1))));
        s.total = figure(row.at(2));
        s.max = figure(row.at(3));
        out.push_back(std::move(s));
    }
    return out;
}

QJsonObject toJson(const models::cluster::RankDigest& d)
{
    const models::cluster::RankFigures& f = d.figures;
    QJsonObject o;
    o.insert(QStringLiteral("format"), QLatin1String(kFormatName));
    o.insert(QStringLiteral("rank"), f.rank);
    o.insert(QStringLiteral("world_size"), d.worldSize);
    o.insert(QStringLiteral("host"), f.host);
    o.insert(QStringLiteral("device"), f.device);
    o.insert(QStringLiteral("file"), d.file);
    o.insert(QStringLiteral("file_size"), d.fileSize);
    o.insert(QStringLiteral("file_mtime_ms"), d.fileModifiedMs);
    o.insert(QStringLiteral("peak_memory_bytes"), number(f.peakMemoryBytes));
    if (f.hasTemporal) {
        const models::cluster::TemporalBreakdown& t = f.temporal;
        o.insert(QStringLiteral("temporal"),
                 QJsonObject { { QStringLiteral("span"), t.span },
                               { QStringLiteral("compute"), t.compute },
                               { QStringLiteral("non_compute"), t.nonCompute },
                               { QStringLiteral("idle"), t.idle },
                               { QStringLiteral("communication"), t.communication },
                               { QStringLiteral("overlap"), t.overlap } });
    } else {
        o.insert(QStringLiteral("temporal"), QJsonValue());
    }
    o.insert(QStringLiteral("means"),
             QJsonObject { { QStringLiteral("step_time"), number(f.stepTime) },
                           { QStringLiteral("computation"), number(f.computation) },
                           { QStringLiteral("communication"), number(f.communication) },
                           { QStringLiteral("overlapped"), number(f.overlapped) },
                           { QStringLiteral("idle"), number(f.idle) },
                           { QStringLiteral("communication_share"), number(f.communicationShare) } });
    QJsonArray steps;
    for (std::size_t i = 0; i < f.steps.size(); ++i) {
        const models::cluster::RankStep& s = f.steps[i];
        const models::cluster::DigestStep span
            = i < d.steps.size() ? d.steps[i] : models::cluster::DigestStep { s.step, 0, 0, models::cluster::kMissing };
        steps.append(QJsonArray { qint64(s.step), qint64(span.start), qint64(span.end), number(s.stepTime),
                                  number(s.computation), number(s.communication), number(s.overlapped), number(s.idle),
                                  number(s.communicationShare), number(s.lastCommunicationOffset),
                                  number(span.dataLoading) });
    }
    o.insert(QStringLiteral("steps"), steps);
    QJsonArray collectives;
    for (const models::cluster::DigestCollective& c : d.collectives)
        collectives.append(
            QJsonArray { c.name, qint64(c.start), qint64(c.end), number(c.bytes), c.group, c.groupSize, c.groupRanks });
    o.insert(QStringLiteral("collectives"), collectives);
    o.insert(QStringLiteral("kernels"), stats(d.kernels));
    o.insert(QStringLiteral("operators"), stats(d.operators));
    return o;
}

RankDigestResult fromJson(const QJsonObject& o, const QString& name)
{
    RankDigestResult result;
    if (o.value(QLatin1String("format")).toString() != QLatin1String(kFormatName)) {
        result.error
            = QCoreApplication::translate("runlens::cluster", "%1: not a rank digest (the body does not say \"%2\")")
                  .arg(name, QLatin1String(kFormatName));
        return result;
    }
    const std::int64_t rankNumber = integer(o.value(QLatin1String("rank")), -1);
    if (rankNumber < 0 || rankNumber > kMaxRank) {
        result.error
            = QCoreApplication::translate("runlens::cluster", "%1: the rank digest has no valid rank number").arg(name);
        return result;
    }
    auto digest = std::make_shared<models::cluster::RankDigest>();
    models::cluster::RankFigures& f = digest->figures;
    f.rank = int(rankNumber);
    digest->worldSize = int(std::clamp<std::int64_t>(integer(o.value(QLatin1String("world_size"))), 0, kMaxRank));
    f.host = o.value(QLatin1String("host")).toString();
    f.device = o.value(QLatin1String("device")).toString();
    digest->file = o.value(QLatin1String("file")).toString();
    f.path = digest->file;
    digest->fileSize = integer(o.value(QLatin1String("file_size")), -1);
    digest->fileModifiedMs = integer(o.value(QLatin1String("file_mtime_ms")));
    f.peakMemoryBytes = figure(o.value(QLatin1String("peak_memory_bytes")));
    const QJsonValue temporal = o.value(QLatin1String("temporal"));
    if (temporal.isObject()) {
        const QJsonObject t = temporal.toObject();
        f.hasTemporal = true;
        f.temporal.span = t.value(QLatin1String("span")).toDouble();
        f.temporal.compute = t.value(QLatin1String("compute")).toDouble();
        f.temporal.nonCompute = t.value(QLatin1String("non_compute")).toDouble();
        f.temporal.idle = t.value(QLatin1String("idle")).toDouble();
        f.temporal.communication = t.value(QLatin1String("communication")).toDouble();
        f.temporal.overlap = t.value(QLatin1String("overlap")).toDouble();
    }
    const QJsonObject means = o.value(QLatin1String("means")).toObject();
    f.stepTime = figure(means.value(QLatin1String("step_time")));
    f.computation = figure(means.value(QLatin1String("computation")));
    f.communication = figure(means.value(QLatin1String("communication")));
    f.overlapped = figure(means.value(QLatin1String("overlapped")));
    f.idle = figure(means.value(QLatin1String("idle")));
    f.communicationShare = figure(means.value(QLatin1String("communication_share")));

    for (const QJsonValue& value : o.value(QLatin1String("steps")).toArray()) {
        const QJsonArray row = value.toArray();
        models::cluster::RankStep s;
        s.step = integer(row.at(0));
        s.stepTime = figure(row.at(3));
        s.computation = figure(row.at(4));
        s.communication = figure(row.at(5));
        s.overlapped = figure(row.at(6));
        s.idle = figure(row.at(7));
        s.communicationShare = figure(row.at(8));
        s.lastCommunicationOffset = figure(row.at(9));
        f.steps.push_back(s);
        digest->steps.push_back({ s.step, integer(row.at(1)), integer(row.at(2)), figure(row.at(10)) });
    }
    for (const QJsonValue& value : o.value(QLatin1String("collectives")).toArray()) {
        const QJsonArray row = value.toArray();
        models::cluster::DigestCollective c;
        c.name = row.at(0).toString();
        c.start = integer(row.at(1));
        c.end = integer(row.at(2));
        c.bytes = figure(row.at(3));
        c.group = row.at(4).toString();
        c.groupSize = int(std::clamp<std::int64_t>(integer(row.at(5), -1), -1, kMaxRank));
        c.groupRanks = row.at(6).toString();
        digest->collectives.push_back(std::move(c));
    }
    digest->kernels = readStats(o.value(QLatin1String("kernels")).toArray());
    digest->operators = readStats(o.value(QLatin1String("operators")).toArray());
    result.digest = std::move(digest);
    return result;
}

} // namespace

QString rankDigestFileName(int rank)
{
    return QStringLiteral("rank-%1.%2").arg(rank).arg(rankDigestSuffix());
}

QByteArray encodeRankDigest(const models::cluster::RankDigest& digest, quint32 version)
{
    if (version == kRankDigestFormatVersion) {
        const QByteArray body = encodeRankDigestBody(digest);
        QByteArray out(kHeaderBytes, Qt::Uninitialized);
        std::memcpy(out.data(), kMagic, sizeof kMagic);
        qToLittleEndian<quint32>(version, out.data() + 8);
        qToLittleEndian<quint32>(0, out.data() + 12);
        qToLittleEndian<quint64>(quint64(body.size()), out.data() + 16);
        return out + body;
    }
    if (version != 1)
        return {};
    const QByteArray json = QJsonDocument(toJson(digest)).toJson(QJsonDocument::Compact);
    uLongf bound = compressBound(uLong(json.size()));
    QByteArray out(kHeaderBytes + qsizetype(bound), Qt::Uninitialized);
    std::memcpy(out.data(), kMagic, sizeof kMagic);
    qToLittleEndian<quint32>(1, out.data() + 8);
    qToLittleEndian<quint32>(0, out.data() + 12);
    qToLittleEndian<quint64>(quint64(json.size()), out.data() + 16);
    if (compress2(reinterpret_cast<Bytef*>(out.data() + kHeaderBytes), &bound,
                  reinterpret_cast<const Bytef*>(json.constData()), uLong(json.size()), Z_BEST_COMPRESSION)
        != Z_OK)
        return {};
    out.truncate(kHeaderBytes + qsizetype(bound));
    return out;
}

RankDigestResult decodeRankDigest(const QByteArray& bytes, const QString& name)
{
    RankDigestResult result;
    if (bytes.size() < kHeaderBytes) {
        result.error = bytes.startsWith(QByteArray(kMagic, 4)) || bytes.isEmpty()
            ? QCoreApplication::translate("runlens::cluster",
                                          "%1: the rank digest is truncated (%n byte(s), the header alone is 24)",
                                          nullptr, int(bytes.size()))
                  .arg(name)
            : QCoreApplication::translate("runlens::cluster", "%1: not a rank digest (no RLDIGEST header)").arg(name);
        return result;
    }
    if (std::memcmp(bytes.constData(), kMagic, sizeof kMagic) != 0) {
        result.error
            = QCoreApplication::translate("runlens::cluster", "%1: not a rank digest (no RLDIGEST header)").arg(name);
        return result;
    }
    const quint32 version = qFromLittleEndian<quint32>(bytes.constData() + 8);
    const quint32 flags = qFromLittleEndian<quint32>(bytes.constData() + 12);
    const quint64 length = qFromLittleEndian<quint64>(bytes.constData() + 16);
    if (version > kRankDigestFormatVersion) {
        result.error = QCoreApplication::translate(
                           "runlens::cluster",
                           "%1: the rank digest was written by a newer RunLens (format version %2; this one reads up "
                           "to %3). Update RunLens or digest the rank again.")
                           .arg(name)
                           .arg(version)
                           .arg(kRankDigestFormatVersion);
        return result;
    }
    if (version == 0 || flags != 0) {
        result.error = QCoreApplication::translate("runlens::cluster",
                                                   "%1: the rank digest's header is damaged (version %2, flags %3)")
                           .arg(name)
                           .arg(version)
                           .arg(flags);
        return result;
    }
    if (length == 0 || length > kMaxDigestJsonBytes) {
        result.error
            = QCoreApplication::translate(
                  "runlens::cluster", "%1: the rank digest claims a body of %2 bytes, beyond what a rank digest holds")
                  .arg(name)
                  .arg(length);
        return result;
    }
    const quint64 stored = quint64(bytes.size() - kHeaderBytes);
    if (version == 2) {
        // Stored as it is: the rest of the file is the body, exactly.
        if (stored != length) {
            result.error = QCoreApplication::translate(
                               "runlens::cluster",
                               "%1: the rank digest is truncated or damaged (its body is %2 bytes, the header says %3)")
                               .arg(name)
                               .arg(stored)
                               .arg(length);
            return result;
        }
        RankDigestBodyResult body = decodeRankDigestBody(bytes.constData() + kHeaderBytes, qsizetype(length), name);
        result.digest = std::move(body.digest);
        result.error = std::move(body.error);
        return result;
    }

    // Version 1: inflated in pieces up to the declared length: a stream that says less or more is damaged.
    QByteArray json;
    z_stream stream {};
    if (inflateInit(&stream) != Z_OK) {
        result.error
            = QCoreApplication::translate("runlens::cluster", "%1: the rank digest could not be inflated").arg(name);
        return result;
    }
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.constData() + kHeaderBytes));
    stream.avail_in = uInt(bytes.size() - kHeaderBytes);
    constexpr qsizetype kChunk = 1 << 20;
    int rc = Z_OK;
    while (rc == Z_OK) {
        const qsizetype have = json.size();
        const qsizetype room = std::min<qsizetype>(kChunk, qsizetype(length) + 1 - have);
        if (room <= 0)
            break;
        json.resize(have + room);
        stream.next_out = reinterpret_cast<Bytef*>(json.data() + have);
        stream.avail_out = uInt(room);
        rc = inflate(&stream, Z_NO_FLUSH);
        json.resize(have + room - qsizetype(stream.avail_out));
        if (rc == Z_BUF_ERROR && stream.avail_in == 0)
            break;
    }
    inflateEnd(&stream);
    if (rc != Z_STREAM_END || quint64(json.size()) != length) {
        result.error = rc == Z_STREAM_END || rc == Z_OK || rc == Z_BUF_ERROR
            ? QCoreApplication::translate(
                  "runlens::cluster",
                  "%1: the rank digest is truncated or damaged (its body is %2 bytes, the header says %3)")
                  .arg(name)
                  .arg(json.size())
                  .arg(length)
            : QCoreApplication::translate("runlens::cluster", "%1: the rank digest's body is damaged (zlib: %2)")
                  .arg(name, QString::fromLatin1(stream.msg ? stream.msg : "error"));
        return result;
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        result.error
            = QCoreApplication::translate("runlens::cluster", "%1: the rank digest's body is not valid JSON (%2)")
                  .arg(name, error.errorString());
        return result;
    }
    return fromJson(document.object(), name);
}

bool writeRankDigestFile(const models::cluster::RankDigest& digest, const QString& path, QString* error)
{
    const QByteArray bytes = encodeRankDigest(digest);
    QSaveFile file(path);
    if (bytes.isEmpty() || !file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QCoreApplication::translate("runlens::cluster", "%1: cannot write the rank digest (%2)")
                         .arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

RankDigestResult readRankDigestFile(const QString& path)
{
    QFile file(path);
    const QString name = QDir::toNativeSeparators(path);
    // The header's length bound applies to the inflated body; the file itself is smaller still.
    if (!file.open(QIODevice::ReadOnly))
        return { nullptr,
                 QCoreApplication::translate("runlens::cluster", "%1: cannot open the rank digest (%2)")
                     .arg(name, file.errorString()) };
    if (quint64(file.size()) > kMaxDigestJsonBytes + kHeaderBytes)
        return { nullptr,
                 QCoreApplication::translate("runlens::cluster", "%1: %2 bytes is too big for a rank digest")
                     .arg(name)
                     .arg(file.size()) };
    return decodeRankDigest(file.readAll(), name);
}

RankDigestResult digestTraceFile(const QString& path, const models::cluster::RankDigestOptions& options,
                                 const ImportControl& control, const QString& readNext)
{
    RankDigestResult result;
    const QFileInfo info(path);
    const QString name = QDir::toNativeSeparators(path);
    if (!info.isFile()) {
        result.error = QCoreApplication::translate("runlens::cluster", "%1: no such trace file").arg(name);
        return result;
    }
    auto digest = std::make_shared<models::cluster::RankDigest>();
    bool singlePass = false;
    {
        // The single pass first; anything it does not cover (it says so) goes through the store.
        models::Diagnostics opening;
        trace::TraceInput input = trace::readTraceInput(info.absoluteFilePath(), opening, control);
        prefetchFile(readNext);
        if (control.canceled()) {
            result.error = QCoreApplication::translate("runlens::cluster", "%1: canceled").arg(name);
            return result;
        }
        if (input.buffer && opening.isEmpty()) {
            if (std::optional<models::cluster::RankDigest> made
                = digestTraceSinglePass(input, info.absoluteFilePath(), options)) {
                *digest = std::move(*made);
                singlePass = true;
                control.report(1000);
            }
        }
    }
    if (!singlePass) {
        const trace::ChromeTraceResult read
            = trace::ChromeTraceReader::read({ info.absoluteFilePath() }, control, false);
        if (read.canceled) {
            result.error = QCoreApplication::translate("runlens::cluster", "%1: canceled").arg(name);
            return result;
        }
        if (!read.store || read.store->sources().empty() || read.store->eventCount() == 0) {
            QString why;
            for (const models::Diagnostic& d : read.diagnostics) {
                if (d.severity == models::Severity::Error) {
                    why = d.toString();
                    break;
                }
            }
            result.error = why.isEmpty()
                ? QCoreApplication::translate("runlens::cluster", "%1: the trace holds no events").arg(name)
                : why;
            return result;
        }
        *digest = models::cluster::computeRankDigest(*read.store, 0, options);
        // The cluster table's peak memory of a rank: its highest device (not host) peak.
        const memory::MemoryReadResult memory = memory::memoryFromTrace(*read.store);
        if (memory.profile) {
            for (const models::memory::MemoryDevice& device : memory.profile->devices) {
                if (device.deviceId < 0 || device.relative)
                    continue;
                const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
                if (peak.valid && !(peak.bytes <= digest->figures.peakMemoryBytes))
                    digest->figures.peakMemoryBytes = peak.bytes;
            }
        }
    } // the store is dropped here
    result.singlePass = singlePass;
    digest->file = info.absoluteFilePath();
    digest->figures.path = digest->file;
    digest->fileSize = info.size();
    digest->fileModifiedMs = info.lastModified().toMSecsSinceEpoch();
    result.digest = std::move(digest);
    return result;
}

bool containsRankDigests(const QString& folder)
{
    return !QDir(folder).entryList({ QStringLiteral("*.") + rankDigestSuffix() }, QDir::Files).isEmpty();
}

DigestFolder readRankDigestFolder(const QString& folder)
{
    DigestFolder out;
    std::map<int, std::shared_ptr<const models::cluster::RankDigest>> byRank;
    const QDir dir(folder);
    const QStringList entries = dir.entryList({ QStringLiteral("*.") + rankDigestSuffix() }, QDir::Files, QDir::Name);
    // Reading is mostly waiting for the files and making strings: read them on every core, then keep the
    // files in name order so the first of two digests of a rank stays the one kept.
    std::vector<RankDigestResult> results(std::size_t(entries.size()));
    std::atomic<int> next { 0 };
    const auto work = [&] {
        for (int i = next++; i < int(entries.size()); i = next++)
            results[std::size_t(i)] = readRankDigestFile(dir.filePath(entries[i]));
    };
    const int threads = std::clamp(int(std::thread::hardware_concurrency()), 1, std::max(1, int(entries.size()) / 8));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& thread : pool)
        thread.join();
    for (int i = 0; i < int(entries.size()); ++i) {
        const QString& entry = entries[i];
        RankDigestResult read = std::move(results[std::size_t(i)]);
        if (!read.digest) {
            out.problems << read.error;
            continue;
        }
        const int rank = read.digest->rank();
        if (byRank.count(rank)) {
            out.problems << QCoreApplication::translate("runlens::cluster",
                                                        "%1: a second digest of rank %2 (the first one read is kept)")
                                .arg(QDir::toNativeSeparators(dir.filePath(entry)))
                                .arg(rank);
            continue;
        }
        byRank.emplace(rank, std::move(read.digest));
    }
    for (auto& [rank, digest] : byRank)
        out.digests.push_back(std::move(digest));
    return out;
}

} // namespace runlens::importers::cluster
