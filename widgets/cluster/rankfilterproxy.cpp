#include "widgets/cluster/rankfilterproxy.h"

#include "widgets/cluster/clusterrankmodel.h"

namespace runlens::widgets::cluster {

RankFilterProxy::RankFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ClusterRankModel::SortRole);
    setRecursiveFilteringEnabled(false);
}

bool RankFilterProxy::setFilterText(const QString& text)
{
    m_text = text;
    m_filter = models::cluster::parseRankFilter(text);
    refresh();
    return m_filter.valid;
}

void RankFilterProxy::refresh()
{
    m_threshold = 0;
    const auto* model = qobject_cast<const ClusterRankModel*>(sourceModel());
    if (m_filter.abovePercentile >= 0 && model && model->cluster()) {
        const models::cluster::Cluster& c = *model->cluster();
        std::vector<double> values;
        values.reserve(c.ranks.size());
        for (const models::cluster::RankFigures& r : c.ranks)
            values.push_back(c.slowFigure(r));
        m_threshold = models::cluster::percentileOf(std::move(values), m_filter.abovePercentile);
    }
    invalidateFilter();
}

bool RankFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_filter.isEmpty() || !m_filter.valid)
        return true;
    const auto* model = qobject_cast<const ClusterRankModel*>(sourceModel());
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const int rank = index.data(ClusterRankModel::RankRole).toInt();
    if (!model || !model->cluster() || rank < 0)
        return true;
    const models::cluster::Cluster& c = *model->cluster();
    const int at = c.indexOfRank(rank);
    const double value = at >= 0 ? c.slowFigure(c.ranks[std::size_t(at)]) : models::cluster::kMissing;
    return m_filter.accepts(rank, value, m_threshold);
}

} // namespace runlens::widgets::cluster
