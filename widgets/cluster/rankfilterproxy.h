#pragma once

#include "models/cluster/rankfilter.h"

#include <QSortFilterProxyModel>

namespace runlens::widgets::cluster {

/// The Cluster table's sort and filter: keeps the rank rows that pass a RankFilter (`0-7, 16`, `>p95` of
/// the slow-rank figure over every rank); stage rows stay so their ranks keep a parent.
class RankFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RankFilterProxy(QObject* parent = nullptr);

    /// Sets the filter text; returns false when a term was not understood (the filter then keeps every rank).
    bool setFilterText(const QString& text);
    QString filterText() const { return m_text; }
    /// Recomputes the percentile threshold after the source model's cluster changed.
    void refresh();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    models::cluster::RankFilter m_filter;
    double m_threshold = 0;
};

} // namespace runlens::widgets::cluster
