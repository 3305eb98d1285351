#pragma once

#include "importers/core/runscanner.h"
#include "importers/summary/eventfilereader.h"
#include "importers/tensor/tensorcatalogbuilder.h"
#include "models/advisor/advisor.h"
#include "models/advisor/analysis.h"
#include "tests/pythonoracle.h"

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QtTest>

#include <cstdint>
#include <map>
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
inline std::shared_ptr<const models::tensor::TensorCatalog> catalogOf(const QString& root)
{
    return std::make_shared<const models::tensor::TensorCatalog>(
        importers::tensor::TensorCatalogBuilder::build(importers::RunScanner().scan(root)));
}

/// The measurements of `metric`, optionally only those of tensor `tensor`.
inline std::vector<models::advisor::Measurement> measurementsOf(const models::advisor::AnalysisContext& context,
                                                                const QString& metric, const QString& tensor = {})
{
    std::vector<models::advisor::Measurement> out;
    for (const models::advisor::Measurement& m : context.measurements()) {
        if (m.metric == metric && (tensor.isEmpty() || m.scope.tensor == tensor))
            out.push_back(m);
    }
    return out;
}

/// The measurement of `metric` with the lowest order (what a "first" rule reports).
inline std::optional<models::advisor::Measurement> firstOf(const models::advisor::AnalysisContext& context,
                                                           const QString& metric)
{
    std::optional<models::advisor::Measurement> first;
    for (const models::advisor::Measurement& m : context.measurements()) {
        if (m.metric == metric && (!first || m.order < first->order))
            first = m;
    }
    return first;
}

/// The scalars of every TensorBoard event file below `root` (run = the folder above `tb/`, relative to
/// `root`), plus the tensor catalog of the folder: what the Advisor reads of a PyTorch run.
inline models::advisor::AdvisorInput loadRun(const QString& root)
{
    models::advisor::AdvisorInput input;
    input.root = root;
    input.tensors = catalogOf(root);
    QDirIterator it(root, { QStringLiteral("*tfevents*") }, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        importers::summary::EventFileReader reader(path, importers::summary::SummaryFlavor::TensorBoard);
        std::map<QString, models::advisor::ScalarTrack> tracks;
        for (int polls = 0; polls < 100; ++polls) {
            const importers::ImportUpdate update = reader.poll({});
            for (const models::scalars::TagPoints& points : update.scalars) {
                models::advisor::ScalarTrack& track = tracks[points.tag];
                track.tag = points.tag;
                for (const models::scalars::ScalarPoint& p : points.points) {
                    track.steps.push_back(p.step);
                    track.values.push_back(p.value);
                    track.wallTimes.push_back(p.wallTime);
                }
            }
            if (reader.isDead() || update.recordsRead == 0)
                break;
        }
        QString run = QDir(root).relativeFilePath(QFileInfo(path).absolutePath());
        run = run.endsWith(QLatin1String("tb")) ? run.chopped(2) : run;
        while (run.endsWith(QLatin1Char('/')))
            run.chop(1);
        for (auto& [tag, track] : tracks) {
            track.run = run.isEmpty() ? QStringLiteral(".") : run;
            input.scalars.push_back(std::move(track));
        }
    }
    return input;
}

/// The findings of rule `ruleId` in `report`.
inline QList<models::advisor::Finding> findingsOf(const models::advisor::AdvisorReport& report, const QString& ruleId)
{
    QList<models::advisor::Finding> out;
    for (const models::advisor::Finding& f : report.findings) {
        if (f.ruleId == ruleId)
            out << f;
    }
    return out;
}

/// Whether rule `ruleId` was evaluated in `report`; null for an unknown rule.
inline const models::advisor::RuleStatus* statusOf(const models::advisor::AdvisorReport& report, const QString& ruleId)
{
    for (const models::advisor::RuleStatus& status : report.statuses) {
        if (status.ruleId == ruleId)
            return &status;
    }
    return nullptr;
}

/// One line per finding ("rule-id: message"), for failure messages and logs.
inline QString describe(const QList<models::advisor::Finding>& findings)
{
    QStringList lines;
    for (const models::advisor::Finding& f : findings)
        lines << f.ruleId + QStringLiteral(": ") + f.message;
    return lines.join(QLatin1Char('\n'));
}

/// Runs `script` of tests/data/advisor/accuracy (numpy; check it with RUNLENS_VERIFY_PYTHON).
inline PythonRun runAccuracyOracle(const QString& script, const QStringList& arguments)
{
    return runPythonScript(QStringLiteral("advisor/accuracy/") + script, arguments);
}

} // namespace runlens::test
