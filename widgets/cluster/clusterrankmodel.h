#pragma once

#include "models/cluster/cluster.h"

#include <QAbstractItemModel>

#include <memory>

namespace runlens::widgets::cluster {

/// The rows of the Cluster panel's table: one per rank, or, grouped, one per pipeline stage (its means)
/// with its ranks below. Columns that no rank has a figure for are reported by isColumnEmpty() so the view
/// can hide them. Numbers sort by value (kSortRole); the slowest rank, slow ranks and low-FLOPS cells are
/// marked with a background and a bold font. Shares the cluster it is given and never changes it.
class ClusterRankModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        StageColumn,
        DeviceColumn,
        StepTimeColumn,
        StepIntervalColumn,
        ComputationColumn,
        CommunicationColumn,
        OverlappedColumn,
        ReceiveColumn,
        TailColumn,
        IdleColumn,
        CommunicationShareColumn,
        OverlapRatioColumn,
        FlopsColumn,
        PeakMemoryColumn,
        DeviationColumn,
        StragglerColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< double (or rank/stage number) for sorting
        RankRole, ///< the rank number of a rank row, -1 for a stage row
        StageRole, ///< the stage of the row
        FlaggedRole, ///< true where the cell is highlighted (slowest/slow rank, low FLOPS)
    };

    explicit ClusterRankModel(QObject* parent = nullptr);

    void setCluster(std::shared_ptr<const models::cluster::Cluster> cluster);
    std::shared_ptr<const models::cluster::Cluster> cluster() const { return m_cluster; }
    /// Groups ranks under their pipeline stage (only when the cluster has stages).
    void setGroupedByStage(bool grouped);
    bool isGroupedByStage() const { return m_grouped; }
    bool isColumnEmpty(int column) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Text of a time in milliseconds as the table shows it ("12.345 ms", "–" when missing).
    static QString formatMs(double ms);

private:
    static constexpr quintptr kTopLevel = ~quintptr(0);
    const models::cluster::RankFigures* rankAt(const QModelIndex& index) const;
    const models::cluster::StageGroup* stageAt(const QModelIndex& index) const;
    QVariant rankData(const models::cluster::RankFigures& rank, int rankIndex, int column, int role) const;
    QVariant stageData(const models::cluster::StageGroup& stage, int column, int role) const;
    void rebuild();

    std::shared_ptr<const models::cluster::Cluster> m_cluster;
    std::vector<models::cluster::StageGroup> m_stages;
    bool m_grouped = false;
};

} // namespace runlens::widgets::cluster
