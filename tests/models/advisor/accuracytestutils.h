#pragma once

#include "advisor/analysis.h"
#include "core/runscanner.h"
#include "pythonoracle.h"
#include "tensor/tensorcatalogbuilder.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QtTest>

#include <cstdint>
#include <memory>
#include <vector>

namespace runlens::test {

/// A little-endian .npy (version 1) holding `values` of numpy type `descr` ("<f4", "<f2") in C order.
template<typename T>
QByteArray npyBytes(const std::vector<T>& values, const std::vector<std::int64_t>& shape, const char* descr)
{
    QByteArray dims;
    for (const std::int64_t d : shape)
        dims += QByteArray::number(qint64(d)) + ", ";
    if (shape.size() > 1)
        dims.chop(1);
    QByteArray header = "{'descr': '" + QByteArray(descr) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out += char(header.size() & 0xff);
    out += char((header.size() >> 8) & 0xff);
    out += header;
    out.append(reinterpret_cast<const char*>(values.data()), qsizetype(values.size() * sizeof(T)));
    return out;
}

/// Writes a float32 tensor of shape {values.size()} (or `shape`) to `root/relative`.
inline void writeFloats(const QString& root, const QString& relative, const std::vector<float>& values,
                        std::vector<std::int64_t> shape = {})
{
    if (shape.empty())
        shape = { std::int64_t(values.size()) };
    const QString path = QDir(root).filePath(relative);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(npyBytes(values, shape, "<f4"));
}

/// The catalog of every tensor file below `root`, the way the application builds it.
inline std::shared_ptr<const tensor::TensorCatalog> catalogOf(const QString& root)
{
    return std::make_shared<const tensor::TensorCatalog>(tensor::TensorCatalogBuilder::build(RunScanner().scan(root)));
}

/// The measurements of `metric`, optionally only those of tensor `tensor`.
inline std::vector<advisor::Measurement> measurementsOf(const advisor::AnalysisContext& context, const QString& metric,
                                                        const QString& tensor = {})
{
    std::vector<advisor::Measurement> out;
    for (const advisor::Measurement& m : context.measurements()) {
        if (m.metric == metric && (tensor.isEmpty() || m.scope.tensor == tensor))
            out.push_back(m);
    }
    return out;
}

/// The measurement of `metric` with the lowest order (what a "first" rule reports).
inline std::optional<advisor::Measurement> firstOf(const advisor::AnalysisContext& context, const QString& metric)
{
    std::optional<advisor::Measurement> first;
    for (const advisor::Measurement& m : context.measurements()) {
        if (m.metric == metric && (!first || m.order < first->order))
            first = m;
    }
    return first;
}

/// Runs `script` of tests/data/advisor/accuracy (numpy; check it with RUNLENS_VERIFY_PYTHON).
inline PythonRun runAccuracyOracle(const QString& script, const QStringList& arguments)
{
    return runPythonScript(QStringLiteral("advisor/accuracy/") + script, arguments);
}

} // namespace runlens::test
