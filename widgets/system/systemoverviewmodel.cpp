#include "widgets/system/systemoverviewmodel.h"

#include <QColor>
#include <QFont>
#include <QLocale>

#include <cmath>

namespace runlens::widgets::system {

namespace {

int summaryIndex(models::system::Summary summary)
{
    return int(summary);
}

} // namespace

SystemOverviewModel::SystemOverviewModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

QString SystemOverviewModel::summaryName(models::system::Summary summary)
{
    switch (summary) {
    case models::system::Summary::GpuUtil:
        return tr("GPU util");
    case models::system::Summary::CpuBusy:
        return tr("CPU busy");
    case models::system::Summary::ProcessCpu:
        return tr("Process CPU");
    case models::system::Summary::MemUsed:
        return tr("Memory used");
    case models::system::Summary::IbTraffic:
        return tr("IB traffic");
    case models::system::Summary::Power:
        return tr("GPU power");
    }
    return {};
}

QString SystemOverviewModel::summaryUnit(models::system::Summary summary)
{
    switch (summary) {
    case models::system::Summary::GpuUtil:
    case models::system::Summary::CpuBusy:
    case models::system::Summary::ProcessCpu:
        return QStringLiteral("%");
    case models::system::Summary::MemUsed:
        return QStringLiteral("MiB");
    case models::system::Summary::IbTraffic:
        return QStringLiteral("MiB/s");
    case models::system::Summary::Power:
        return QStringLiteral("W");
    }
    return {};
}

void SystemOverviewModel::setRuns(std::vector<models::system::SystemRun> runs)
{
    beginResetModel();
    m_runs = std::move(runs);
    m_stats.clear();
    m_shown.clear();
    std::vector<bool> present(std::size(models::system::kSummaries), false);
    for (const models::system::SystemRun& run : m_runs) {
        std::vector<models::system::Stats> row;
        for (models::system::Summary summary : models::system::kSummaries) {
            row.push_back(models::system::statsOf(run.summary(summary).values));
            present[summaryIndex(summary)] = present[summaryIndex(summary)] || row.back().count > 0;
        }
        m_stats.push_back(std::move(row));
    }
    for (models::system::Summary summary : models::system::kSummaries) {
        if (present[summaryIndex(summary)])
            m_shown.push_back(summary);
    }
    endResetModel();
}

int SystemOverviewModel::rowOfRun(const QString& run) const
{
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        if (m_runs[i].run == run)
            return int(i);
    }
    return -1;
}

int SystemOverviewModel::columnOf(models::system::Summary summary) const
{
    for (std::size_t i = 0; i < m_shown.size(); ++i) {
        if (m_shown[i] == summary)
            return kFixedColumns + 2 * int(i);
    }
    return -1;
}

models::system::Stats SystemOverviewModel::stats(int row, models::system::Summary summary) const
{
    if (row < 0 || row >= int(m_stats.size()))
        return {};
    return m_stats[row][summaryIndex(summary)];
}

double SystemOverviewModel::valueAt(int row, int column) const
{
    const int shown = (column - kFixedColumns) / 2;
    if (row < 0 || row >= int(m_stats.size()) || column < kFixedColumns || shown >= int(m_shown.size()))
        return std::nan("");
    const models::system::Stats& s = m_stats[row][summaryIndex(m_shown[shown])];
    return (column - kFixedColumns) % 2 == 0 ? s.mean : s.p95;
}

double SystemOverviewModel::deviation(int row, int column) const
{
    const double value = valueAt(row, column);
    if (!std::isfinite(value))
        return std::nan("");
    std::vector<double> values;
    for (int r = 0; r < rowCount(); ++r) {
        const double v = valueAt(r, column);
        if (std::isfinite(v))
            values.push_back(v);
    }
    // The median, not the mean: two slow ranks of four would pull a mean so far that the healthy ones stood out.
    const double median = models::system::percentile(values, 0.5);
    if (values.size() < 2 || !(median > 0.0))
        return std::nan("");
    return (value - median) / median;
}

bool SystemOverviewModel::isOutlier(int row, int column) const
{
    const double d = deviation(row, column);
    return std::isfinite(d) && std::abs(d) > kOutlierShare;
}

int SystemOverviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int SystemOverviewModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kFixedColumns + 2 * int(m_shown.size());
}

QVariant SystemOverviewModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const models::system::SystemRun& run = m_runs[index.row()];
    const int column = index.column();
    if (column == 0) {
        if (role == Qt::DisplayRole || role == SortRole)
            return run.displayName();
        if (role == Qt::ToolTipRole)
            return run.run;
        return {};
    }
    if (column == 1) {
        if (role == Qt::DisplayRole)
            return run.rank >= 0 ? QVariant(run.rank) : QVariant(QStringLiteral("–"));
        if (role == SortRole)
            return run.rank;
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    const double value = valueAt(index.row(), column);
    const bool outlier = isOutlier(index.row(), column);
    switch (role) {
    case Qt::DisplayRole:
        return std::isfinite(value) ? QLocale().toString(value, 'f', value >= 100 ? 0 : 1) : QStringLiteral("–");
    case SortRole:
        return std::isfinite(value) ? value : -std::numeric_limits<double>::infinity();
    case OutlierRole:
        return outlier;
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        return outlier ? QVariant(QColor(255, 170, 60, 90)) : QVariant();
    case Qt::FontRole:
        if (outlier) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole:
        if (outlier) {
            const double d = deviation(index.row(), column);
            return tr("%1 % %2 the median of all ranks")
                .arg(QLocale().toString(std::abs(d) * 100.0, 'f', 0), d > 0 ? tr("above") : tr("below"));
        }
        return {};
    default:
        return {};
    }
}

QVariant SystemOverviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    if (role == Qt::DisplayRole) {
        if (section == 0)
            return tr("Host / run");
        if (section == 1)
            return tr("Rank");
        const models::system::Summary summary = m_shown[(section - kFixedColumns) / 2];
        const bool mean = (section - kFixedColumns) % 2 == 0;
        return (mean ? tr("%1 avg (%2)") : tr("%1 p95 (%2)")).arg(summaryName(summary), summaryUnit(summary));
    }
    if (role == Qt::ToolTipRole && section >= kFixedColumns)
        return tr("Values more than 20 % away from the median of all ranks are highlighted.");
    return {};
}

} // namespace runlens::widgets::system
