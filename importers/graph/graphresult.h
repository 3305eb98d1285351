#pragma once

#include "core/diagnostic.h"
#include "graph/graph.h"

#include <QCoreApplication>
#include <QString>

#include <memory>

namespace runlens::graph {

/// The translation context ("runlens::graph") of the graph importers' messages.
struct GraphTr
{
    Q_DECLARE_TR_FUNCTIONS(runlens::graph)
};

/// What reading one graph produced: the graph (null when nothing usable was found) and every problem met
/// on the way. The graph's own `diagnostics` hold the same list, so a panel that only has the graph can
/// show them.
struct GraphResult
{
    std::shared_ptr<const Graph> graph;
    Diagnostics diagnostics;
    bool canceled = false;
};

/// A diagnostic about `path`; `offset` is a byte offset and `line` a 1-based line, each -1 when unknown.
Diagnostic graphDiagnostic(Severity severity, const QString& path, const QString& message, qint64 offset = -1,
                           qint64 line = -1);

/// Finalizes `graph` (edges, index), copies the diagnostics into it and publishes it. An empty graph is
/// still published when the file was understood; `failed` drops it.
GraphResult publishGraph(std::unique_ptr<Graph> graph, Diagnostics diagnostics, bool failed = false);

} // namespace runlens::graph
