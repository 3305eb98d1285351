#include "importers/cluster/rankdigestbinary.h"

#include <QCoreApplication>
#include <QHash>
#include <QtEndian>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace runlens::importers::cluster {

namespace {

/// Ranks beyond this are not a real job's: a hostile number is refused, not used as an index.
constexpr qint64 kMaxRank = qint64(1) << 24;
constexpr qsizetype kStepBytes = 3 * 8 + 8 * 8;
constexpr qsizetype kCollectiveBytes = 4 + 8 + 8 + 8 + 4 + 4 + 4;
constexpr qsizetype kStatBytes = 4 + 8 + 8 + 8;

class Writer
{
public:
    void u32(quint32 v) { put(qToLittleEndian(v)); }
    void i32(qint32 v) { put(qToLittleEndian(v)); }
    void u64(quint64 v) { put(qToLittleEndian(v)); }
    void i64(qint64 v) { put(qToLittleEndian(v)); }
    void f64(double v)
    {
        // One bit pattern for every figure not measured: equal digests give equal files.
        const double canonical = std::isfinite(v) ? v : models::cluster::kMissing;
        quint64 bits;
        std::memcpy(&bits, &canonical, sizeof bits);
        u64(bits);
    }
    void string(const QString& s)
    {
        auto it = m_index.find(s);
        if (it == m_index.end()) {
            it = m_index.insert(s, quint32(m_strings.size()));
            m_strings.push_back(s.toUtf8());
        }
        u32(it.value());
    }

    QByteArray finish() const
    {
        QByteArray out;
        const auto append = [&out](quint32 v) {
            const quint32 le = qToLittleEndian(v);
            out.append(reinterpret_cast<const char*>(&le), sizeof le);
        };
        append(quint32(m_strings.size()));
        for (const QByteArray& s : m_strings) {
            append(quint32(s.size()));
            out.append(s);
        }
        out.append(m_records);
        return out;
    }

private:
    template<typename T> void put(T v) { m_records.append(reinterpret_cast<const char*>(&v), sizeof v); }

    QByteArray m_records;
    QHash<QString, quint32> m_index;
    std::vector<QByteArray> m_strings;
};

class Reader
{
public:
    Reader(const char* data, qsizetype size)
        : m_at(data)
        , m_end(data + size)
    { }

    bool failed() const { return m_failed; }
    qsizetype left() const { return m_end - m_at; }
    /// False (and failed) unless `bytes` more are there.
    bool need(qsizetype bytes)
    {
        if (!m_failed && bytes >= 0 && bytes <= left())
            return true;
        m_failed = true;
        return false;
    }
    quint32 u32() { return get<quint32>(); }
    qint32 i32() { return get<qint32>(); }
    quint64 u64() { return get<quint64>(); }
    qint64 i64() { return get<qint64>(); }
    double f64()
    {
        const quint64 bits = get<quint64>();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return std::isfinite(v) ? v : models::cluster::kMissing;
    }
    /// A count of rows of `rowBytes` each: more rows than bytes left is a damaged body.
    quint32 count(qsizetype rowBytes)
    {
        const quint32 n = u32();
        if (!m_failed && qsizetype(n) > left() / rowBytes)
            m_failed = true;
        return m_failed ? 0 : n;
    }
    QByteArray bytes(qsizetype n)
    {
        if (!need(n))
            return {};
        QByteArray out = QByteArray::fromRawData(m_at, n);
        m_at += n;
        return out;
    }
    void setStrings(std::vector<QString> strings) { m_strings = std::move(strings); }
    QString string()
    {
        const quint32 index = u32();
        if (m_failed || index >= m_strings.size()) {
            m_failed = true;
            return {};
        }
        return m_strings[index];
    }

private:
    template<typename T> T get()
    {
        if (!need(qsizetype(sizeof(T))))
            return T {};
        const T v = qFromLittleEndian<T>(m_at);
        m_at += sizeof(T);
        return v;
    }

    const char* m_at;
    const char* m_end;
    bool m_failed = false;
    std::vector<QString> m_strings;
};

void writeStats(Writer& w, const std::vector<models::cluster::DigestStat>& list)
{
    w.u32(quint32(list.size()));
    for (const models::cluster::DigestStat& s : list) {
        w.string(s.name);
        w.u64(s.count);
        w.f64(s.total);
        w.f64(s.max);
    }
}

std::vector<models::cluster::DigestStat> readStats(Reader& r)
{
    std::vector<models::cluster::DigestStat> out(r.count(kStatBytes));
    for (models::cluster::DigestStat& s : out) {
        s.name = r.string();
        s.count = r.u64();
        s.total = r.f64();
        s.max = r.f64();
    }
    return out;
}

} // namespace

QByteArray encodeRankDigestBody(const models::cluster::RankDigest& d)
{
    const models::cluster::RankFigures& f = d.figures;
    Writer w;
    w.u32(quint32(f.rank));
    w.u32(quint32(std::max(0, d.worldSize)));
    w.string(f.host);
    w.string(f.device);
    w.string(d.file);
    w.i64(d.fileSize);
    w.i64(d.fileModifiedMs);
    w.f64(f.peakMemoryBytes);
    const models::cluster::TemporalBreakdown& t = f.temporal;
    w.u32(f.hasTemporal ? 1 : 0);
    for (double v : { t.span, t.compute, t.nonCompute, t.idle, t.communication, t.overlap })
        w.f64(f.hasTemporal ? v : models::cluster::kMissing);
    for (double v : { f.stepTime, f.computation, f.communication, f.overlapped, f.idle, f.communicationShare })
        w.f64(v);
    w.u32(quint32(f.steps.size()));
    for (std::size_t i = 0; i < f.steps.size(); ++i) {
        const models::cluster::RankStep& s = f.steps[i];
        const models::cluster::DigestStep span
            = i < d.steps.size() ? d.steps[i] : models::cluster::DigestStep { s.step, 0, 0, models::cluster::kMissing };
        w.i64(s.step);
        w.i64(span.start);
        w.i64(span.end);
        for (double v : { s.stepTime, s.computation, s.communication, s.overlapped, s.idle, s.communicationShare,
                          s.lastCommunicationOffset, span.dataLoading })
            w.f64(v);
    }
    w.u32(quint32(d.collectives.size()));
    for (const models::cluster::DigestCollective& c : d.collectives) {
        w.string(c.name);
        w.i64(c.start);
        w.i64(c.end);
        w.f64(c.bytes);
        w.string(c.group);
        w.i32(c.groupSize);
        w.string(c.groupRanks);
    }
    writeStats(w, d.kernels);
    writeStats(w, d.operators);
    return w.finish();
}

RankDigestBodyResult decodeRankDigestBody(const char* data, qsizetype size, const QString& name)
{
    RankDigestBodyResult result;
    const auto damaged = [&name](const char* what) {
        return QCoreApplication::translate("runlens::cluster", "%1: the rank digest's body is damaged (%2)")
            .arg(name, QCoreApplication::translate("runlens::cluster", what));
    };
    Reader r(data, size);
    {
        // Each string takes at least its 4-byte length.
        const quint32 count = r.count(4);
        std::vector<QString> strings;
        strings.reserve(count);
        for (quint32 i = 0; i < count && !r.failed(); ++i) {
            const quint32 length = r.u32();
            strings.push_back(QString::fromUtf8(r.bytes(qsizetype(length))));
        }
        if (r.failed()) {
            result.error = damaged(QT_TRANSLATE_NOOP("runlens::cluster", "its string table runs past the end"));
            return result;
        }
        r.setStrings(std::move(strings));
    }
    auto digest = std::make_shared<models::cluster::RankDigest>();
    models::cluster::RankFigures& f = digest->figures;
    const quint32 rank = r.u32();
    if (!r.failed() && rank > kMaxRank) {
        result.error
            = QCoreApplication::translate("runlens::cluster", "%1: the rank digest has no valid rank number").arg(name);
        return result;
    }
    f.rank = int(rank);
    digest->worldSize = int(std::min<quint32>(r.u32(), quint32(kMaxRank)));
    f.host = r.string();
    f.device = r.string();
    digest->file = r.string();
    f.path = digest->file;
    digest->fileSize = r.i64();
    digest->fileModifiedMs = r.i64();
    f.peakMemoryBytes = r.f64();
    f.hasTemporal = r.u32() == 1;
    models::cluster::TemporalBreakdown& t = f.temporal;
    for (double* v : { &t.span, &t.compute, &t.nonCompute, &t.idle, &t.communication, &t.overlap }) {
        const double read = r.f64();
        if (f.hasTemporal)
            *v = read;
    }
    for (double* v : { &f.stepTime, &f.computation, &f.communication, &f.overlapped, &f.idle, &f.communicationShare })
        *v = r.f64();

    const quint32 steps = r.count(kStepBytes);
    f.steps.resize(steps);
    digest->steps.resize(steps);
    for (quint32 i = 0; i < steps; ++i) {
        models::cluster::RankStep& s = f.steps[i];
        models::cluster::DigestStep& span = digest->steps[i];
        s.step = r.i64();
        span.step = s.step;
        span.start = r.i64();
        span.end = r.i64();
        s.stepTime = r.f64();
        s.computation = r.f64();
        s.communication = r.f64();
        s.overlapped = r.f64();
        s.idle = r.f64();
        s.communicationShare = r.f64();
        s.lastCommunicationOffset = r.f64();
        span.dataLoading = r.f64();
    }
    digest->collectives.resize(r.count(kCollectiveBytes));
    for (models::cluster::DigestCollective& c : digest->collectives) {
        c.name = r.string();
        c.start = r.i64();
        c.end = r.i64();
        c.bytes = r.f64();
        c.group = r.string();
        c.groupSize = int(std::clamp<qint64>(r.i32(), -1, kMaxRank));
        c.groupRanks = r.string();
    }
    digest->kernels = readStats(r);
    digest->operators = readStats(r);
    if (r.failed()) {
        result.error = damaged(QT_TRANSLATE_NOOP("runlens::cluster",
                                                 "a table runs past the end or names a string "
                                                 "that is not there"));
        return result;
    }
    result.digest = std::move(digest);
    return result;
}

} // namespace runlens::importers::cluster
