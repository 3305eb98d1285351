#pragma once

#include "models/accuracy/msprobedump.h"
#include "models/graph/graph.h"

#include <QString>

#include <memory>

namespace runlens::models::accuracy {

/// The top groups of a dump graph. Backward entries and parameter gradients go under "Gradients" so the
/// Graph panel treats them as the gradient part of a training graph (coloured, hidden in readable mode).
inline constexpr const char* kForwardGroup = "Forward";
inline constexpr const char* kBackwardGroup = "Gradients";
inline constexpr const char* kOtherGroup = "Other";

/// The name of a dump's graph: `step0/rank0` for msprobe's `step*/rank*` layout, else the folder's name.
QString dumpGraphName(const QString& folder);

/// An msprobe dump as a graph for the Graph panel, as msprobe's own visualisation builds its module tree:
/// - every dump.json entry is one op node, in file order (call order), its id the entry's full name;
/// - modules are nested scopes from construct.json (child -> parent); a module entry's node sits inside its
///   own group and carries the module call's inputs, parameters and outputs. A backward entry construct.json
///   does not place takes the parent of its forward twin, renamed to backward; without construct.json modules
///   nest by their dotted paths and APIs stay at the top of their direction;
/// - forward entries are under "Forward", backward and parameters_grad entries under "Gradients";
/// - edges are inferred: the dump records no data flow, so an input tensor is joined to the latest earlier
///   output (same top group) with the same dtype, shape and statistics; tensors of fewer than two elements
///   and tensors without statistics are never joined. Nodes with such inputs say so in an attribute;
/// - attributes: the entry name, kind, direction, counter and per row its type, statistics, md5 and file;
/// - sources: the entry's stack without msprobe's own frames, the innermost user frame first.
std::shared_ptr<graph::Graph> buildDumpGraph(const MsprobeDump& dump);

/// The ops of a side that is not an msprobe dump (`step_N/{module}.{kind}.npy` series, checkpoint parameters) as
/// a graph: one node per op in execution order, its id the op, nested in groups by the dotted module path
/// ("layers.0.weight" under layers/0), joined in order by control edges, since such dumps record no data flow.
std::shared_ptr<graph::Graph> buildOpsGraph(const QString& name, const QStringList& ops);

/// The label of a row in node attributes and ports: the row name after its entry's name ("input.0",
/// "parameters.weight", "output.0").
QString dumpRowLabel(const DumpEntry& entry, const DumpRow& row);

/// A statistic as written in node attributes: the shortest text that reads back as the same double,
/// "NaN", "Infinity", "-Infinity".
QString dumpStatText(double value);

} // namespace runlens::models::accuracy
