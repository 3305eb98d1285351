#pragma once

#include "importers/core/importbudget.h"
#include "models/core/diagnostic.h"
#include "models/graph/graph.h"

#include <QCoreApplication>
#include <QString>

#include <exception>
#include <memory>
#include <new>
#include <string_view>
#include <vector>

namespace runlens::importers::graph {

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
    std::shared_ptr<const models::graph::Graph> graph;
    models::Diagnostics diagnostics;
    bool canceled = false;
};

/// A diagnostic about `path`; `offset` is a byte offset and `line` a 1-based line, each -1 when unknown.
models::Diagnostic graphDiagnostic(models::Severity severity, const QString& path, const QString& message,
                                   qint64 offset = -1, qint64 line = -1);

/// Finalizes `graph` (edges, index), copies the diagnostics into it and publishes it. An empty graph is
/// still published when the file was understood; `failed` drops it. Scopes deeper or longer than the
/// limits below are cut first (with a warning), so no reader hands the scope tree a path it cannot afford.
GraphResult publishGraph(std::unique_ptr<models::graph::Graph> graph, models::Diagnostics diagnostics,
                         bool failed = false);

/// Scopes keep at most ImportLimits::kMaxDepth components and kMaxScopeBytes bytes: real ones have a few
/// dozen components and a few hundred bytes, while the scope tree and the summary spend time and memory
/// per component times length, which a name of 100k '/' would make quadratic.
constexpr std::size_t kMaxScopeBytes = 4096;
/// Cuts `scope` to those limits at a component boundary; true when it was cut.
bool boundScope(std::string& scope);

/// Runs a reader and turns what it throws (protobuf, the standard library, memory running out) into an
/// error on `path`: nothing escapes a graph reader.
template<class Read> GraphResult guardedRead(const QString& path, Read&& read)
{
    try {
        return read();
    } catch (const std::bad_alloc&) {
        GraphResult result;
        result.diagnostics.append(
            graphDiagnostic(models::Severity::Error, path,
                            GraphTr::tr("Reading stopped: the graph needs more memory than is available.")));
        return result;
    } catch (const std::exception& e) {
        GraphResult result;
        result.diagnostics.append(
            graphDiagnostic(models::Severity::Error, path,
                            GraphTr::tr("Reading stopped by an internal error: %1").arg(QString::fromUtf8(e.what()))));
        return result;
    }
}

/// Unlinks inputs and subgraph outputs that name nodes never added: a reader stopped by its budget has
/// registered names of nodes it then did not keep.
void dropDanglingProducers(models::graph::Graph& graph);

/// Records one more node with its ports against `budget`; false once the budget is spent (the caller
/// stops, keeps what it has and reports budget.diagnostic()).
bool chargeNode(ImportBudget& budget, const models::graph::Node& node);

/// Frames kept from one stack trace: the innermost ones, which say where the node was made.
constexpr std::size_t kMaxStackFrames = 256;

/// Parses the `File "x.py", line 12, in forward` lines of a Python stack trace (torch exporters, Paddle's
/// `op_callstack`), innermost (last) first. Linear in the trace: every search moves forward. `cut` is set
/// when frames beyond kMaxStackFrames were dropped.
std::vector<models::graph::SourceLocation> stackTraceSources(std::string_view trace, bool& cut);

} // namespace runlens::importers::graph
