#pragma once

#include "models/system/systemmetrics.h"

#include <QAbstractTableModel>

#include <vector>

namespace runlens::widgets::system {

/// The System panel's overview: one row per host or rank, the mean and 95th percentile of each summary figure
/// (GPU utilisation, CPU busy, process CPU, memory used, InfiniBand traffic, power) that some row has data for.
/// A value more than kOutlierShare away from the median of its column is an outlier: highlighted, and said in its
/// tooltip. Cells hand their number under SortRole, so a QSortFilterProxyModel sorts numerically.
class SystemOverviewModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int OutlierRole = Qt::UserRole + 2; ///< bool
    static constexpr double kOutlierShare = 0.2;

    explicit SystemOverviewModel(QObject* parent = nullptr);

    void setRuns(std::vector<models::system::SystemRun> runs);
    const std::vector<models::system::SystemRun>& runs() const { return m_runs; }
    /// The row of `run`, -1 when absent.
    int rowOfRun(const QString& run) const;

    /// The summary figures shown as columns (each as mean and p95), in column order.
    const std::vector<models::system::Summary>& shownSummaries() const { return m_shown; }
    /// The column of the mean (p95: the next one) of `summary`; -1 when not shown.
    int columnOf(models::system::Summary summary) const;
    models::system::Stats stats(int row, models::system::Summary summary) const;
    bool isOutlier(int row, int column) const;

    static QString summaryName(models::system::Summary summary);
    static QString summaryUnit(models::system::Summary summary);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static constexpr int kFixedColumns = 2; ///< run, rank
    double valueAt(int row, int column) const; ///< NaN when the row has no data for the column
    /// How far the value is from its column's median, as a share of that median; NaN with fewer than two values.
    double deviation(int row, int column) const;

    std::vector<models::system::SystemRun> m_runs;
    std::vector<models::system::Summary> m_shown;
    std::vector<std::vector<models::system::Stats>> m_stats; ///< row -> index in kSummaries
};

} // namespace runlens::widgets::system
