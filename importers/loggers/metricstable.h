#pragma once

#include "models/core/diagnostic.h"
#include "models/scalars/scalarseries.h"

#include <QHash>
#include <QString>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::loggers {

/// The line formats MetricsTableParser reads; the first non-empty line decides.
enum class TableFormat {
    Unknown,
    Csv, ///< a header line, then rows (`,` or tab); Lightning/Keras `CSVLogger`, plain `metrics.csv`, nvidia-smi
    JsonLines, ///< one JSON object a line: `metrics.jsonl`, W&B `wandb-history.jsonl` / `wandb-events.jsonl`
    Dcgmi, ///< `dcgmi dmon` text: `# Entity  GPUTL  POWER …` headers, `GPU 0  45  250.1 …` rows
};

/// Turns the lines of a metrics log into scalar points, one complete line at a time, so that a file that is
/// still being written can be fed as it grows. Columns are classified by their header, never by the file's
/// name: the step is the first of `step`, `global_step`, `_step`, `iteration`, `iter`, `epoch`
/// (the row number when there is none), the wall time comes from `wall_time`, `timestamp`, `time` or
/// `_timestamp` (seconds, milliseconds or a date and time); a table with neither is not a log and gives
/// nothing (notOverTime()). Empty cells are missing values; `nan` and `inf`
/// are values. A column whose cells are not numbers is skipped with one note. nvidia-smi `--query-gpu` logs,
/// `dcgmi dmon` output and W&B `system.*` keys are named as `runlens record` names the same metrics
/// (`system/gpu0_util_percent`, `system/cpu_busy_percent` …), each GPU counting its own samples as steps.
class MetricsTableParser
{
public:
    explicit MetricsTableParser(QString path);

    /// Feeds one complete line (without its line break); `line` is 1-based, for diagnostics.
    void feedLine(std::string_view line, qint64 lineNumber);
    /// The points of the lines fed since the last call, grouped by tag in first-seen order.
    models::scalars::ScalarBatch takeBatch();
    models::Diagnostics takeDiagnostics();

    TableFormat format() const { return m_format; }
    bool isNvidiaSmi() const { return m_nvidiaSmi; }
    qint64 rows() const { return m_rows; }
    /// A CSV table with neither a step nor a time column: a data set, not a log; it gives no scalars.
    bool notOverTime() const { return m_notOverTime; }

    /// One cell as a number: plain numbers, `nan`/`inf` in any case, JSON's `NaN`/`Infinity`, and a unit after
    /// the number (`45 %`, `1024 MiB`); nullopt for empty cells, `[N/A]` and text.
    static std::optional<double> parseNumber(std::string_view cell, bool allowUnit);
    /// Seconds since the epoch from a wall-time cell: a number (milliseconds when above 1e11) or a date and time
    /// (`2024/01/15 10:23:45.123` as nvidia-smi prints it, ISO 8601), local time when no zone is given.
    static std::optional<double> parseWallTime(std::string_view cell);

private:
    enum class Role { Metric, Step, WallTime, GpuIndex, Skipped };
    struct Column
    {
        QString name; ///< as written
        QString tag; ///< the scalar tag (for GPU metrics: the part after `gpu<N>_`)
        Role role = Role::Metric;
        bool decided = false; ///< numeric or not decided from its first non-empty cell
        bool numeric = true;
        qint64 skippedCells = 0;
    };

    void readHeader(const std::vector<std::string>& cells);
    void readCsvRow(const std::vector<std::string>& cells, qint64 lineNumber);
    void readJsonLine(std::string_view line, qint64 lineNumber);
    void readDcgmi(std::string_view line, qint64 lineNumber);
    void add(const QString& tag, qint64 step, double wallTime, double value);
    void note(models::Severity severity, qint64 lineNumber, const QString& message);
    qint64 nextGpuStep(const QString& gpu);

    QString m_path;
    TableFormat m_format = TableFormat::Unknown;
    char m_delimiter = ',';
    bool m_nvidiaSmi = false;
    bool m_notOverTime = false;
    std::vector<Column> m_columns;
    std::vector<std::string> m_dcgmiFields;
    QHash<QString, qint64> m_gpuSteps; ///< samples seen per GPU (nvidia-smi, dcgmi)
    QHash<QString, int> m_tagIndex;
    QHash<QString, std::pair<double, double>> m_counters; ///< byte counters: last (wall time, MiB) per tag
    QHash<QString, bool> m_textKeys; ///< JSON keys whose values were not numbers (noted once)
    models::scalars::ScalarBatch m_batch;
    models::Diagnostics m_diagnostics;
    qint64 m_rows = 0;
    qint64 m_badLines = 0;
};

/// The columns of an nvidia-smi log written with `noheader`: the query the README documents.
inline constexpr const char* kDocumentedQuery[]
    = { "timestamp",          "index",          "utilization.gpu [%]", "memory.used [MiB]",
        "memory.total [MiB]", "power.draw [W]", "clocks.sm [MHz]",     "temperature.gpu" };

/// True for nvidia-smi's timestamp cell, `2024/01/15 10:23:45.123`.
bool isNvidiaSmiTimestamp(std::string_view cell);

/// The `runlens record` name of a W&B system metric (`system.gpu.0.gpu` -> `system/gpu0_util_percent`), or an
/// empty string for a key that is not one.
QString wandbSystemTag(std::string_view key);

} // namespace runlens::importers::loggers
