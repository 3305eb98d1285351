#pragma once

// What the graph readers' tests share: reading a fixture, finding nodes and attributes, and diagnostics.

#include "importers/graph/graphresult.h"
#include "models/graph/graph.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <string>

namespace runlens::test::graph {

/// The bytes of `path`; empty when it cannot be read.
inline QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The node with id `id`, or null.
inline const models::graph::Node* findNode(const models::graph::Graph& graph, const std::string& id)
{
    const int index = graph.find(id);
    return index < 0 ? nullptr : &graph.nodes[std::size_t(index)];
}

/// The value of a node's attribute, or "<none>".
inline std::string attribute(const models::graph::Node& node, const std::string& name)
{
    for (const models::graph::Attribute& a : node.attributes) {
        if (a.name == name)
            return a.value;
    }
    return "<none>";
}

inline int countKind(const models::graph::Graph& graph, models::graph::NodeKind kind)
{
    int n = 0;
    for (const models::graph::Node& node : graph.nodes)
        n += node.kind == kind ? 1 : 0;
    return n;
}

/// Whether reading gave a diagnostic of `severity` whose message contains `text`.
inline bool hasDiagnostic(const importers::graph::GraphResult& result, models::Severity severity, const QString& text)
{
    for (const models::Diagnostic& d : result.diagnostics) {
        if (d.severity == severity && d.message.contains(text))
            return true;
    }
    return false;
}

} // namespace runlens::test::graph
