#pragma once

#include <QString>
#include <QUrlQuery>

#include <optional>

namespace runlens::models::advisor {

/// Evidence locators: `runlens://KIND?key=value&...`, stable strings that the Advisor pane resolves to a
/// panel selection and that JSON reports carry. Kinds and keys:
///   scalar     run, tag, step
///   histogram  run, tag, step
///   tensor     name, run, step            (a TensorCatalog series at a step)
///   graph      node, path                 (a node full name; path of the graph file when known)
///   trace      path, start_ns, end_ns, rank, op   (a time range of a trace; op selects its calls)
///   memory     path, device, time_ns
///   profiler   run, rank, view (overview | pipeline), step
///   cluster    run, rank, link
///   compare    name                       (a row of the dump comparison in the Accuracy panel)
///   system     run, rank, start, end      (a host's or rank's system metrics; wall times in s since the epoch)
struct Evidence
{
    QString kind;
    QUrlQuery query;

    QString value(const QString& key) const { return query.queryItemValue(key, QUrl::FullyDecoded); }
    bool has(const QString& key) const { return query.hasQueryItem(key); }
};

/// Builds a locator from key/value pairs, skipping empty values.
QString makeEvidence(const QString& kind, std::initializer_list<std::pair<QString, QString>> items);
/// Parses a locator; nullopt when it is not a runlens:// URL.
std::optional<Evidence> parseEvidence(const QString& locator);

QString scalarEvidence(const QString& run, const QString& tag, qint64 step);
QString histogramEvidence(const QString& run, const QString& tag, qint64 step);
QString tensorEvidence(const QString& name, const QString& run, qint64 step);
QString graphEvidence(const QString& node, const QString& path = {});
QString traceEvidence(const QString& path, qint64 startNs, qint64 endNs, int rank = -1, const QString& op = {});
QString memoryEvidence(const QString& path, const QString& device, qint64 timeNs);
QString profilerEvidence(const QString& run, int rank, const QString& view, qint64 step = -1);
QString clusterEvidence(const QString& run, int rank, const QString& link = {});
QString compareEvidence(const QString& name);
QString systemEvidence(const QString& run, int rank, double startTime, double endTime);

} // namespace runlens::models::advisor
