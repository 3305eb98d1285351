#include "models/advisor/evidence.h"

#include <QUrl>

namespace runlens::models::advisor {

namespace {

QString number(qint64 value)
{
    return QString::number(value);
}

} // namespace

QString makeEvidence(const QString& kind, std::initializer_list<std::pair<QString, QString>> items)
{
    // Built by hand so that '&', '=', '+' and '#' inside names stay data: every value is fully
    // percent-encoded, and parseEvidence() decodes it again.
    QString locator = QStringLiteral("runlens://") + kind;
    QChar separator = QLatin1Char('?');
    for (const auto& [key, value] : items) {
        if (value.isEmpty())
            continue;
        locator += separator + key + QLatin1Char('=') + QString::fromLatin1(QUrl::toPercentEncoding(value));
        separator = QLatin1Char('&');
    }
    return locator;
}

std::optional<Evidence> parseEvidence(const QString& locator)
{
    const QUrl url(locator, QUrl::StrictMode);
    if (!url.isValid() || url.scheme() != QLatin1String("runlens") || url.host().isEmpty())
        return std::nullopt;
    return Evidence { url.host(), QUrlQuery(url) };
}

QString scalarEvidence(const QString& run, const QString& tag, qint64 step)
{
    return makeEvidence(QStringLiteral("scalar"),
                        { { QStringLiteral("run"), run },
                          { QStringLiteral("tag"), tag },
                          { QStringLiteral("step"), step >= 0 ? number(step) : QString() } });
}

QString histogramEvidence(const QString& run, const QString& tag, qint64 step)
{
    return makeEvidence(QStringLiteral("histogram"),
                        { { QStringLiteral("run"), run },
                          { QStringLiteral("tag"), tag },
                          { QStringLiteral("step"), step >= 0 ? number(step) : QString() } });
}

QString tensorEvidence(const QString& name, const QString& run, qint64 step)
{
    return makeEvidence(QStringLiteral("tensor"),
                        { { QStringLiteral("name"), name },
                          { QStringLiteral("run"), run },
                          { QStringLiteral("step"), step >= 0 ? number(step) : QString() } });
}

QString graphEvidence(const QString& node, const QString& path)
{
    return makeEvidence(QStringLiteral("graph"),
                        { { QStringLiteral("node"), node }, { QStringLiteral("path"), path } });
}

QString traceEvidence(const QString& path, qint64 startNs, qint64 endNs, int rank, const QString& op)
{
    return makeEvidence(QStringLiteral("trace"),
                        { { QStringLiteral("path"), path },
                          { QStringLiteral("start_ns"), number(startNs) },
                          { QStringLiteral("end_ns"), number(endNs) },
                          { QStringLiteral("rank"), rank >= 0 ? number(rank) : QString() },
                          { QStringLiteral("op"), op } });
}

QString memoryEvidence(const QString& path, const QString& device, qint64 timeNs)
{
    return makeEvidence(QStringLiteral("memory"),
                        { { QStringLiteral("path"), path },
                          { QStringLiteral("device"), device },
                          { QStringLiteral("time_ns"), number(timeNs) } });
}

QString profilerEvidence(const QString& run, int rank, const QString& view, qint64 step)
{
    return makeEvidence(QStringLiteral("profiler"),
                        { { QStringLiteral("run"), run },
                          { QStringLiteral("rank"), rank >= 0 ? number(rank) : QString() },
                          { QStringLiteral("view"), view },
                          { QStringLiteral("step"), step >= 0 ? number(step) : QString() } });
}

QString clusterEvidence(const QString& run, int rank, const QString& link)
{
    return makeEvidence(QStringLiteral("cluster"),
                        { { QStringLiteral("run"), run },
                          { QStringLiteral("rank"), rank >= 0 ? number(rank) : QString() },
                          { QStringLiteral("link"), link } });
}

QString compareEvidence(const QString& name)
{
    return makeEvidence(QStringLiteral("compare"), { { QStringLiteral("name"), name } });
}

QString systemEvidence(const QString& run, int rank, double startTime, double endTime)
{
    const bool range = endTime >= startTime;
    return makeEvidence(QStringLiteral("system"),
                        { { QStringLiteral("run"), run },
                          { QStringLiteral("rank"), rank >= 0 ? number(rank) : QString() },
                          { QStringLiteral("start"), range ? QString::number(startTime, 'f', 3) : QString() },
                          { QStringLiteral("end"), range ? QString::number(endTime, 'f', 3) : QString() } });
}

} // namespace runlens::models::advisor
