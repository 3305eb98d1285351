#include "widgets/steps/stepphasetablemodel.h"

#include "models/trace/opstatsmodel.h"

namespace runlens::widgets::steps {

using models::trace::StepPhase;

StepPhaseTableModel::StepPhaseTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void StepPhaseTableModel::setPhases(std::shared_ptr<const models::trace::StepPhases> phases, int source)
{
    beginResetModel();
    m_phases = std::move(phases);
    m_summary = m_phases ? m_phases->summaryFor(source) : nullptr;
    endResetModel();
}

const models::trace::StepPhaseTimes* StepPhaseTableModel::stepAt(int row) const
{
    if (!m_summary || row < 0 || row >= int(m_summary->stepCount))
        return nullptr;
    return &m_phases->steps[m_summary->firstStep + std::size_t(row)];
}

int StepPhaseTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_summary ? 0 : int(m_summary->stepCount);
}

int StepPhaseTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StepPhaseTableModel::data(const QModelIndex& index, int role) const
{
    const models::trace::StepPhaseTimes* step = index.isValid() ? stepAt(index.row()) : nullptr;
    if (!step)
        return {};
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    const auto duration = [display](std::int64_t ns) -> QVariant {
        return display ? QVariant(models::trace::formatDuration(ns)) : QVariant(qint64(ns));
    };
    if (column == StepColumn)
        return qint64(step->number);
    if (column == HostTimeColumn)
        return duration(step->cpuDuration());
    if (column >= FirstHostPhaseColumn && column < RatioColumn)
        return duration(step->cpuNs[std::size_t(column - FirstHostPhaseColumn)]);
    if (column == RatioColumn) {
        const double ratio = step->forwardBackwardRatio();
        if (!display)
            return ratio;
        return ratio > 0 ? QString::number(ratio, 'f', 2) : QStringLiteral("–");
    }
    if (column >= FirstDevicePhaseColumn && column < ColumnCount) {
        if (display && !m_summary->hasDevice)
            return QStringLiteral("–");
        return duration(step->gpuNs[std::size_t(column - FirstDevicePhaseColumn)]);
    }
    return {};
}

QVariant StepPhaseTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const bool tip = role == Qt::ToolTipRole;
    if (section == StepColumn)
        return tip ? tr("N of ProfilerStep#N") : tr("Step");
    if (section == HostTimeColumn)
        return tip ? tr("The step's span on the host (its ProfilerStep marker)") : tr("Step time");
    if (section >= FirstHostPhaseColumn && section < RatioColumn) {
        const QString name = models::trace::stepPhaseName(StepPhase(section - FirstHostPhaseColumn));
        return tip ? tr("Host time in %1").arg(name) : name;
    }
    if (section == RatioColumn)
        return tip ? tr("Forward over backward, each the longer of its host and device time") : tr("Fwd/bwd");
    if (section >= FirstDevicePhaseColumn && section < ColumnCount) {
        const QString name = models::trace::stepPhaseName(StepPhase(section - FirstDevicePhaseColumn));
        return tip ? tr("Device time launched from %1").arg(name) : tr("GPU %1").arg(name);
    }
    return {};
}

} // namespace runlens::widgets::steps
