#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QVariant>

#include <limits>
#include <vector>

class QTimer;

namespace runlens::models::scalars {
class ScalarStore;
struct ScalarSeries;
} // namespace runlens::models::scalars

namespace runlens::models::summary {

class SummaryStore;
struct HParams;

/// The run comparison table: one row per run of a ScalarStore and a SummaryStore, one column per
/// hyper-parameter (TensorBoard hparams values, MindSpore lineage), per session status and per scalar tag
/// (final value, best value and the step of the best). Metrics an hparams experiment declares come first
/// among the metric columns. "Best" is the lowest value for tags named like a loss (loss, error,
/// perplexity) and the highest otherwise, unless the user sets the goal of a tag.
///
/// Reads both stores (never owns them) and follows their changes, coalesced; a change that keeps the runs
/// and columns updates cells in place so that views keep their selection. Lives on the GUI thread.
class RunComparison final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class ColumnKind { Run, HParam, Lineage, Status, MetricFinal, MetricBest, MetricBestStep };
    Q_ENUM(ColumnKind)
    enum class Goal { Auto, Minimize, Maximize };
    Q_ENUM(Goal)
    enum Roles {
        SortRole
        = Qt::UserRole + 1, ///< a double for numeric columns (NaN as -inf), text otherwise; invalid when missing
        ValueRole, ///< the raw value: double, qint64, bool or QString; invalid when the run has none
        RunRole, ///< the row's run name
        ColumnKeyRole, ///< (header) the column's stable key
    };

    struct Column
    {
        QString key; ///< stable: "run", "hparam/<name>", "lineage/<key>", "status", "final/<tag>", "best/<tag>",
                     ///< "beststep/<tag>"
        QString title;
        QString description;
        ColumnKind kind = ColumnKind::Run;
        QString name; ///< hyper-parameter name, lineage key or scalar tag
        bool numeric = false; ///< every present value is a number
        bool declared = false; ///< a metric declared by an hparams experiment
        bool defaultVisible = false;
    };

    /// What one run's scalar tag says: its last value and its best finite value.
    struct MetricSummary
    {
        static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
        bool valid = false; ///< the tag has points in the run
        double finalValue = kNone;
        qint64 finalStep = 0;
        double best = kNone; ///< NaN when no value is finite
        qint64 bestStep = 0; ///< the first step reaching the best value
        qint64 points = 0;
    };

    explicit RunComparison(const scalars::ScalarStore* scalars = nullptr, const SummaryStore* summaries = nullptr,
                           QObject* parent = nullptr);
    ~RunComparison() override;

    void setStores(const scalars::ScalarStore* scalars, const SummaryStore* summaries);

    /// Rebuilds now instead of after the coalescing delay.
    void refresh();

    QStringList runs() const { return m_runs; }
    int rowOfRun(const QString& run) const { return m_runs.indexOf(run); }
    const std::vector<Column>& columns() const { return m_columns; }
    const Column& column(int index) const { return m_columns.at(std::size_t(index)); }
    /// The index of the column with this key, or -1.
    int columnOf(const QString& key) const;
    /// The raw value of a cell (see ValueRole).
    QVariant value(int row, int column) const;
    /// The numeric value of a cell, or NaN when it is missing or text.
    double number(int row, int column) const;

    /// Final and best of a run's scalar tag, looked up the way the table does (declared metrics of a
    /// group are read from the run's `<group>` sub-run when the run itself lacks them).
    MetricSummary metric(const QString& run, const QString& tag) const;
    /// The run as users see it (runlens::runDisplayName): the opened folder's own run "." is named after
    /// the folder.
    QString runDisplayName(const QString& run) const;
    /// Computes the summary of a series with the given goal (Auto decides by the tag's name).
    static MetricSummary summarize(const scalars::ScalarSeries& series, Goal goal);
    /// True when a tag's best value is its lowest by name alone (loss, error, perplexity).
    static bool minimizesByName(const QString& tag);

    /// The goal for `tag` (Auto follows the name); changing it recomputes the best columns.
    void setGoal(const QString& tag, Goal goal);
    Goal goal(const QString& tag) const { return m_goals.value(tag, Goal::Auto); }
    /// The goal actually used: Minimize or Maximize.
    Goal effectiveGoal(const QString& tag) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The text a cell shows for a value.
    static QString formatValue(const QVariant& value);

    static constexpr int kUpdateDelayMs = 100;

signals:
    /// Runs or columns changed (after the model reset).
    void structureChanged();

private:
    void scheduleRefresh();
    QString scalarRunFor(const QString& run, const QString& group, const QString& tag) const;

    // The steps of refresh(), in order.
    struct RunInputs;
    struct Declarations;
    RunInputs collectRuns() const;
    static Declarations collectDeclarations(const RunInputs& inputs);
    static Column runColumn();
    static Column statusColumn();
    static void addHParamColumns(std::vector<Column>& columns, const Declarations& declared);
    static void addLineageColumns(std::vector<Column>& columns, const QHash<QString, QVariantMap>& lineage);
    void updateMetricGroups(const Declarations& declared);
    void addMetricColumns(std::vector<Column>& columns, const Declarations& declared) const;
    std::vector<std::vector<QVariant>> buildCells(const RunInputs& inputs, const std::vector<Column>& columns) const;
    QVariant cellValue(const Column& column, const QString& run, const HParams& hparams, const QVariantMap& lineage,
                       QHash<QString, MetricSummary>& summaries) const;
    void publish(const QStringList& runs, std::vector<Column> columns, std::vector<std::vector<QVariant>> cells);

    QPointer<const scalars::ScalarStore> m_scalars;
    QPointer<const SummaryStore> m_summaries;
    QStringList m_runs;
    std::vector<Column> m_columns;
    std::vector<std::vector<QVariant>> m_cells; ///< [row][column]
    QHash<QString, Goal> m_goals;
    QHash<QString, QString> m_metricGroups; ///< declared metric tag -> group
    QTimer* m_timer = nullptr;
};

} // namespace runlens::models::summary
