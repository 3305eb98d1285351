#pragma once

// What the graph readers' tests share: reading a fixture, finding nodes and attributes, and diagnostics.

#include "importers/graph/graphresult.h"
#include "models/graph/graph.h"
#include "models/tensor/tensorcatalog.h"

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

/// Every value of a Tensors panel series' one version, read through its source as the panel reads it.
inline std::vector<double> seriesValues(const models::tensor::TensorSeries& series, QString& error)
{
    std::vector<double> out;
    const models::tensor::TensorResult opened = series.versions.value(0).source->open();
    if (!opened.tensor) {
        error = opened.error;
        return out;
    }
    const models::tensor::Tensor& t = *opened.tensor;
    std::vector<std::int64_t> index(t.shape.size(), 0);
    for (std::int64_t n = 0; n < t.elementCount(); ++n) {
        out.push_back(t.value(index));
        for (int k = int(index.size()) - 1; k >= 0 && ++index[std::size_t(k)] == t.shape[std::size_t(k)]; --k)
            index[std::size_t(k)] = 0;
    }
    return out;
}

/// Compares a series' values with an oracle's summary of the same weight ({"count", "sum", "first": [up to
/// eight], "last"}, numpy's reading of the bytes). QVERIFY inside: callers check QTest::currentTestFailed().
inline void compareWithOracle(const models::tensor::TensorSeries& series, const QJsonObject& expected)
{
    QString error;
    const std::vector<double> values = seriesValues(series, error);
    QVERIFY2(error.isEmpty(), qPrintable(series.name + QStringLiteral(": ") + error));
    QCOMPARE(qint64(values.size()), expected.value(QStringLiteral("count")).toInteger());
    const QJsonArray first = expected.value(QStringLiteral("first")).toArray();
    for (int i = 0; i < first.size(); ++i)
        QVERIFY2(values[std::size_t(i)] == first[i].toDouble(), qPrintable(series.name));
    if (!values.empty())
        QVERIFY2(values.back() == expected.value(QStringLiteral("last")).toDouble(), qPrintable(series.name));
    double sum = 0;
    double magnitude = 0;
    for (const double v : values) {
        sum += v;
        magnitude += std::abs(v);
    }
    const double oracleSum = expected.value(QStringLiteral("sum")).toDouble();
    QVERIFY2(std::abs(sum - oracleSum) <= 1e-9 * std::max(1.0, magnitude), qPrintable(series.name));
}

} // namespace runlens::test::graph
