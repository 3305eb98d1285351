#pragma once

#include "models/trace/stepphases.h"

#include <QAbstractTableModel>

#include <memory>

namespace runlens::widgets::steps {

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
        RatioColumn = FirstHostPhaseColumn + models::trace::kStepPhaseCount,
        FirstDevicePhaseColumn, ///< then one column per trace::StepPhase
        ColumnCount = FirstDevicePhaseColumn + models::trace::kStepPhaseCount,
    };
    /// The raw number behind a cell (ns, or the ratio) for sorting and tests.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit StepPhaseTableModel(QObject* parent = nullptr);

    void setPhases(std::shared_ptr<const models::trace::StepPhases> phases, int source);
    const models::trace::StepPhaseTimes* stepAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const models::trace::StepPhases> m_phases;
    const models::trace::StepPhases::SourceSummary* m_summary = nullptr;
};

} // namespace runlens::widgets::steps
