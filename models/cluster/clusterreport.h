#pragma once

#include "models/cluster/cluster.h"

#include <QJsonObject>
#include <QStringList>

namespace runlens::models::cluster {

/// The cluster as the `"cluster"` section of `runlens info --json`: origin, parallel mode, world size,
/// per-rank figures (ms; null where not measured), the slowest rank, the worst link, every link and the
/// stragglers. Field names are stable (added to, never renamed).
QJsonObject clusterReport(const Cluster& cluster);

/// The same for the text output of `runlens info`: a few lines, the slowest rank and worst link first.
QStringList clusterReportLines(const Cluster& cluster);

} // namespace runlens::models::cluster
