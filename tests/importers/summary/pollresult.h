#pragma once

#include "importers/summary/eventfilereader.h"

#include <QByteArray>
#include <QFile>
#include <QMap>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <vector>

// What the summary reader tests collect from EventFileReader polls, shared by the unit and the sample tests.

namespace runlens::test {

using Series = QMap<QString, std::vector<models::scalars::ScalarPoint>>;

/// Everything a reader delivered over several polls, merged.
struct Collected
{
    Series series;
    QMap<QString, models::scalars::TagMetadata> metadata;
    QStringList tagOrder; ///< tags in order of their first batch
    models::Diagnostics diagnostics;
    int metadataBatches = 0; ///< batches that carried metadata (must be one per tag)

    void add(const importers::ImportUpdate& update)
    {
        for (const models::scalars::TagPoints& batch : update.scalars) {
            if (!series.contains(batch.tag))
                tagOrder.append(batch.tag);
            if (batch.metadata) {
                ++metadataBatches;
                metadata.insert(batch.tag, *batch.metadata);
            }
            auto& points = series[batch.tag];
            points.insert(points.end(), batch.points.begin(), batch.points.end());
        }
        diagnostics += update.diagnostics;
    }

    qint64 totalPoints() const
    {
        qint64 total = 0;
        for (const auto& points : series)
            total += qint64(points.size());
        return total;
    }

    int count(models::Severity severity) const
    {
        return int(std::count_if(diagnostics.begin(), diagnostics.end(),
                                 [&](const models::Diagnostic& d) { return d.severity == severity; }));
    }
};

struct PollResult
{
    importers::ImportUpdate update;
    Collected collected;
};

inline PollResult pollOnce(importers::summary::EventFileReader& reader, const importers::ImportControl& control = {})
{
    PollResult result;
    result.update = reader.poll(control);
    result.collected.add(result.update);
    return result;
}

inline QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace runlens::test
