#pragma once

#include "importers/loggers/metricstable.h"
#include "models/core/diagnostic.h"
#include "models/scalars/scalarseries.h"
#include "models/summary/summarydata.h"

#include <QByteArrayView>
#include <QString>
#include <QVariantMap>

#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace runlens::importers::loggers {

/// Bytes of the header every W&B run file starts with: `:W&B`, magic 0xBEE1 (little-endian), version 0.
inline constexpr std::size_t kWandbHeaderSize = 7;
/// The records of a W&B run file are framed in blocks of this size, counted from the start of the file.
inline constexpr qint64 kWandbBlockSize = 32768;

/// The checksum of one fragment: zlib's CRC-32 of its type byte followed by its data.
quint32 wandbFragmentChecksum(quint8 type, QByteArrayView data);

/// True when `head` starts with the header of a W&B run file (`run-<id>.wandb`).
bool isWandbRunFile(std::string_view head);

/// The run's display name from its run record, when that record lies complete within `head` (the W&B client
/// writes it among the first records); empty otherwise.
std::string wandbRunDisplayName(std::string_view head);

/// Reads a W&B run file, the binary `run-<id>.wandb` that current W&B clients write in a run folder
/// (`wandb/offline-run-<time>-<id>/`): the header, then records framed as a LevelDB log (32 KiB blocks, each
/// physical record checksummed, long records split into first/middle/last fragments), each record a protobuf
/// `Record`. History and system statistics become scalars with the same names, steps and units as the JSON lines
/// files of older clients (wandb-history.jsonl, wandb-events.jsonl, see MetricsTableParser); config, summary
/// (as `summary/<key>`) and the run's identity (`wandb.display_name` …) become hyper-parameters.
///
/// Bytes are fed as the file grows: feed() reads every complete record and remembers where the first
/// incomplete one starts (resumeOffset()), so a file still being written is tailed. Damage is reported with the
/// file's path and skipped as LevelDB's reader does: to the next block.
class WandbRunReader
{
public:
    explicit WandbRunReader(QString path);

    /// Reads `data`, the file's bytes from resumeOffset() on. Returns true when the end of `data` cut a record
    /// short (the file may still be written).
    bool feed(QByteArrayView data);
    qint64 resumeOffset() const { return m_offset; }
    /// The header is not a W&B run file's: nothing can be read.
    bool failed() const { return m_failed; }
    qint64 records() const { return m_records; }

    /// Points of the records fed since the last call: history first, then system statistics.
    models::scalars::ScalarBatch takeBatch();
    models::Diagnostics takeDiagnostics();
    /// The run's hyper-parameters as read so far (config, summary, identity), when changed since the last call.
    std::optional<models::summary::HParams> takeHparams();

    /// Records above this size are damage, not data (W&B's largest are media summaries of a few MiB).
    static constexpr qint64 kMaxRecordBytes = qint64(64) * 1024 * 1024;

private:
    void readRecord(std::string_view bytes, qint64 offset);
    void dropPending(qint64 offset, const QString& why); ///< damage that loses the rest of the block
    void dropRecord(qint64 offset, const QString& why); ///< damage that loses one record
    void warn(qint64 offset, const QString& message);

    QString m_path;
    qint64 m_offset = 0; ///< where the next logical record starts in the file
    bool m_failed = false;
    qint64 m_records = 0;
    qint64 m_historyRows = 0;
    qint64 m_statsRows = 0;
    MetricsTableParser m_history;
    MetricsTableParser m_stats;
    QVariantMap m_config;
    QVariantMap m_summary;
    QVariantMap m_run;
    double m_startTime = std::numeric_limits<double>::quiet_NaN(); ///< seconds since the epoch
    std::optional<int> m_exitCode;
    double m_runtime = 0; ///< seconds, from the exit record
    QStringList m_skippedConfig;
    bool m_hparamsChanged = false;
    bool m_skippingOversized = false;
    int m_warnings = 0;
    qint64 m_badRecords = 0;
    qint64 m_firstBadRecord = -1;
    models::Diagnostics m_diagnostics;
};

} // namespace runlens::importers::loggers
