#pragma once

#include "importers/core/artifactimporter.h"
#include "importers/loggers/metricstable.h"
#include "importers/loggers/wandbrunfile.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <string>

namespace runlens::importers::loggers {

/// Reads the scalars other training loggers and system-metrics tools write, into ImportUpdate::scalars:
/// metric tables (CSV with a header, JSON lines, nvidia-smi logs, `dcgmi dmon` output) line by line, resuming
/// after the last complete line on each poll so that a file still being written is tailed like an event
/// file; a W&B run file (`run-<id>.wandb`) record by record, tailed the same way; a Hugging Face
/// `trainer_state.json` and an MLflow run folder (its `meta.yaml`) whole.
class LoggerImporter final : public ArtifactImporter
{
public:
    LoggerImporter(QString path, models::ArtifactKind kind);
    ImportUpdate poll(const ImportControl& control) override;

    /// Files above this size are refused (tables are read whole into scalars).
    static constexpr qint64 kMaxBytes = qint64(4) * 1024 * 1024 * 1024;

private:
    ImportUpdate pollTable(const ImportControl& control);
    ImportUpdate pollWandbRun(const ImportControl& control);

    QString m_path;
    models::ArtifactKind m_kind;
    MetricsTableParser m_parser;
    std::unique_ptr<WandbRunReader> m_wandb;
    qint64 m_offset = 0;
    QByteArray m_firstLine; ///< the header (or first record), to notice a file rewritten from the start
    qint64 m_line = 0;
    bool m_done = false;
};

} // namespace runlens::importers::loggers
