#pragma once

#include "models/trace/stepphases.h"

#include <QAbstractTableModel>

#include <memory>

namespace runlens {

/// The Steps panel's table: one row per step of one source, with its host step time, the host time of
/// each phase, forward over backward, and the device time launched from each phase. Reads a shared,
/// immutable StepPhases; rows follow its step order.
class StepPhaseTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        StepColumn,
        HostTimeColumn,
        FirstHostPhaseColumn, ///< then one column per trace::StepPhase
        RatioColumn = FirstHostPhaseColumn + trace::kStepPhaseCount,
        FirstDevicePhaseColumn, ///< then one column per trace::StepPhase
        ColumnCount = FirstDevicePhaseColumn + trace::kStepPhaseCount,
    };
    /// The raw number behind a cell (ns, or the ratio) for sorting and tests.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit StepPhaseTableModel(QObject* parent = nullptr);

    void setPhases(std::shared_ptr<const trace::StepPhases> phases, int source);
    const trace::StepPhaseTimes* stepAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const trace::StepPhases> m_phases;
    const trace::StepPhases::SourceSummary* m_summary = nullptr;
};

} // namespace runlens
