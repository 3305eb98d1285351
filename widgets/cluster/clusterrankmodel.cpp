#include "widgets/cluster/clusterrankmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

namespace runlens::widgets::cluster {

using models::cluster::isKnown;
using models::cluster::RankFigures;
using models::cluster::StageGroup;

namespace {

QColor slowColor()
{
    return QColor(0xe4, 0x57, 0x56, 90);
}

QColor slowestColor()
{
    return QColor(0xe4, 0x57, 0x56, 150);
}

QString formatNumber(double value, int decimals)
{
    return isKnown(value) ? QLocale().toString(value, 'f', decimals) : QStringLiteral("–");
}

QString formatShare(double share)
{
    return isKnown(share) ? ClusterRankModel::tr("%1 %").arg(QLocale().toString(share * 100.0, 'f', 1))
                          : QStringLiteral("–");
}

QString formatBytes(double bytes)
{
    if (!isKnown(bytes))
        return QStringLiteral("–");
    return QLocale().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeTraditionalFormat);
}

/// The figure a numeric column shows, or nullptr for the other columns.
double RankFigures::*figureOf(int column)
{
    switch (column) {
    case ClusterRankModel::StepTimeColumn:
        return &RankFigures::stepTime;
    case ClusterRankModel::StepIntervalColumn:
        return &RankFigures::stepInterval;
    case ClusterRankModel::ComputationColumn:
        return &RankFigures::computation;
    case ClusterRankModel::CommunicationColumn:
        return &RankFigures::communication;
    case ClusterRankModel::OverlappedColumn:
        return &RankFigures::overlapped;
    case ClusterRankModel::ReceiveColumn:
        return &RankFigures::receive;
    case ClusterRankModel::TailColumn:
        return &RankFigures::tail;
    case ClusterRankModel::IdleColumn:
        return &RankFigures::idle;
    case ClusterRankModel::CommunicationShareColumn:
        return &RankFigures::communicationShare;
    case ClusterRankModel::FlopsColumn:
        return &RankFigures::flops;
    case ClusterRankModel::PeakMemoryColumn:
        return &RankFigures::peakMemoryBytes;
    default:
        return nullptr;
    }
}

QVariant sortValue(double value)
{
    // Missing figures sort below every number.
    return isKnown(value) ? value : -std::numeric_limits<double>::infinity();
}

} // namespace

ClusterRankModel::ClusterRankModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

QString ClusterRankModel::formatMs(double ms)
{
    if (!isKnown(ms))
        return QStringLiteral("–");
    return tr("%1 ms").arg(QLocale().toString(ms, 'f', ms >= 100 ? 1 : 3));
}

void ClusterRankModel::setCluster(std::shared_ptr<const models::cluster::Cluster> cluster)
{
    beginResetModel();
    m_cluster = std::move(cluster);
    rebuild();
    endResetModel();
}

void ClusterRankModel::setGroupedByStage(bool grouped)
{
    if (grouped == m_grouped)
        return;
    beginResetModel();
    m_grouped = grouped;
    rebuild();
    endResetModel();
}

void ClusterRankModel::rebuild()
{
    m_stages.clear();
    if (m_cluster && m_grouped && m_cluster->hasStages())
        m_stages = m_cluster->stages();
}

bool ClusterRankModel::isColumnEmpty(int column) const
{
    if (!m_cluster || m_cluster->ranks.empty())
        return column != RankColumn;
    auto none
        = [this](auto predicate) { return std::none_of(m_cluster->ranks.begin(), m_cluster->ranks.end(), predicate); };
    if (double RankFigures::*field = figureOf(column))
        return none([field](const RankFigures& r) { return isKnown(r.*field); });
    switch (column) {
    case RankColumn:
        return false;
    case StageColumn:
        return !m_cluster->hasStages();
    case DeviceColumn:
        return none([](const RankFigures& r) { return !r.device.isEmpty(); });
    case OverlapRatioColumn:
        return none([](const RankFigures& r) { return r.hasTemporal && isKnown(r.temporal.overlapRatio()); });
    case DeviationColumn:
        return m_cluster->ranks.size() < 2;
    case StragglerColumn:
        return m_cluster->stragglers.empty();
    default:
        return true;
    }
}

QModelIndex ClusterRankModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kTopLevel);
    return createIndex(row, column, quintptr(parent.row()));
}

QModelIndex ClusterRankModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(int(child.internalId()), 0, kTopLevel);
}

int ClusterRankModel::rowCount(const QModelIndex& parent) const
{
    if (!m_cluster || parent.column() > 0)
        return 0;
    if (!parent.isValid())
        return m_stages.empty() ? int(m_cluster->ranks.size()) : int(m_stages.size());
    if (parent.internalId() == kTopLevel && !m_stages.empty())
        return int(m_stages[std::size_t(parent.row())].rankIndices.size());
    return 0;
}

int ClusterRankModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

const RankFigures* ClusterRankModel::rankAt(const QModelIndex& index) const
{
    if (!m_cluster || !index.isValid())
        return nullptr;
    if (index.internalId() == kTopLevel)
        return m_stages.empty() ? &m_cluster->ranks[std::size_t(index.row())] : nullptr;
    const StageGroup& stage = m_stages[std::size_t(index.internalId())];
    return &m_cluster->ranks[std::size_t(stage.rankIndices[std::size_t(index.row())])];
}

const StageGroup* ClusterRankModel::stageAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() != kTopLevel || m_stages.empty())
        return nullptr;
    return &m_stages[std::size_t(index.row())];
}

QVariant ClusterRankModel::data(const QModelIndex& index, int role) const
{
    if (const RankFigures* rank = rankAt(index))
        return rankData(*rank, int(rank - m_cluster->ranks.data()), index.column(), role);
    if (const StageGroup* stage = stageAt(index))
        return stageData(*stage, index.column(), role);
    return {};
}

QVariant ClusterRankModel::rankData(const RankFigures& r, int rankIndex, int column, int role) const
{
    const bool slowest = rankIndex == m_cluster->slowestRank;
    const bool slowCell = (r.slow || slowest)
        && (column == RankColumn || column == DeviationColumn
            || column == (m_cluster->usesStepInterval() ? StepIntervalColumn : StepTimeColumn));
    const bool lowFlopsCell = r.lowFlops && column == FlopsColumn;
    switch (role) {
    case RankRole:
        return r.rank;
    case StageRole:
        return r.stage;
    case FlaggedRole:
        return slowCell || lowFlopsCell;
    case Qt::BackgroundRole:
        if (slowest)
            return QBrush(slowCell ? slowestColor() : slowColor());
        if (slowCell || lowFlopsCell)
            return QBrush(slowColor());
        return {};
    case Qt::FontRole:
        if (slowest) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        return column == DeviceColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << tr("Rank %1").arg(r.rank);
        if (!r.path.isEmpty())
            lines << r.path;
        if (slowest)
            lines << tr("The slowest rank");
        if (r.slow)
            lines << tr("More than %1 % above the cluster mean").arg(int(models::cluster::kOffMeanThreshold * 100));
        if (r.lowFlops)
            lines
                << tr("FLOPS more than %1 % below the cluster mean").arg(int(models::cluster::kOffMeanThreshold * 100));
        if (r.stragglerSteps > 0)
            lines << tr("Started the last collective latest in %n step(s)", nullptr, r.stragglerSteps);
        if (r.hasTemporal)
            lines << tr("Device time: compute %1, non-compute %2, idle %3")
                         .arg(formatMs(r.temporal.compute), formatMs(r.temporal.nonCompute), formatMs(r.temporal.idle));
        lines << tr("Double-click to open this rank");
        return lines.join(QLatin1Char('\n'));
    }
    case SortRole:
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const bool sort = role == SortRole;
    if (double RankFigures::*field = figureOf(column)) {
        const double v = r.*field;
        if (sort)
            return sortValue(v);
        if (column == CommunicationShareColumn)
            return formatShare(v);
        if (column == FlopsColumn)
            return formatNumber(v, 1);
        if (column == PeakMemoryColumn)
            return formatBytes(v);
        return formatMs(v);
    }
    switch (column) {
    case RankColumn:
        return sort ? QVariant(r.rank) : QVariant(QString::number(r.rank));
    case StageColumn:
        return sort ? QVariant(r.stage) : QVariant(r.stage >= 0 ? QString::number(r.stage) : QStringLiteral("–"));
    case DeviceColumn:
        return r.device;
    case OverlapRatioColumn: {
        const double ratio = r.hasTemporal ? r.temporal.overlapRatio() : models::cluster::kMissing;
        return sort ? sortValue(ratio) : formatShare(ratio);
    }
    case DeviationColumn:
        if (sort)
            return sortValue(r.deviation);
        return isKnown(r.deviation) ? tr("%1%2 %")
                                          .arg(r.deviation >= 0 ? QStringLiteral("+") : QString())
                                          .arg(QLocale().toString(r.deviation * 100.0, 'f', 1))
                                    : QStringLiteral("–");
    case StragglerColumn:
        return sort ? QVariant(r.stragglerSteps) : QVariant(QString::number(r.stragglerSteps));
    default:
        return {};
    }
}

QVariant ClusterRankModel::stageData(const StageGroup& stage, int column, int role) const
{
    switch (role) {
    case RankRole:
        return -1;
    case StageRole:
        return stage.stage;
    case FlaggedRole:
        return false;
    case Qt::FontRole: {
        QFont font;
        font.setItalic(true);
        return font;
    }
    case Qt::TextAlignmentRole:
        return column == RankColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                    : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case SortRole:
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const bool sort = role == SortRole;
    switch (column) {
    case RankColumn:
        return sort ? QVariant(stage.stage)
                    : QVariant(tr("Stage %1 (%n rank(s))", nullptr, int(stage.rankIndices.size())).arg(stage.stage));
    case StageColumn:
        return sort ? QVariant(stage.stage) : QVariant(QString::number(stage.stage));
    case StepTimeColumn:
        return sort ? sortValue(stage.meanStepTime) : formatMs(stage.meanStepTime);
    case StepIntervalColumn:
        return sort ? sortValue(stage.meanStepInterval) : formatMs(stage.meanStepInterval);
    case ComputationColumn:
        return sort ? sortValue(stage.meanComputation) : formatMs(stage.meanComputation);
    case CommunicationColumn:
        return sort ? sortValue(stage.meanCommunication) : formatMs(stage.meanCommunication);
    case FlopsColumn:
        return sort ? sortValue(stage.meanFlops) : formatNumber(stage.meanFlops, 1);
    default:
        return sort ? QVariant(-std::numeric_limits<double>::infinity()) : QVariant();
    }
}

QVariant ClusterRankModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StepIntervalColumn:
            return tr("Gap before the step's first operator (waiting for data)");
        case CommunicationColumn:
            return tr("Communication not hidden under computation");
        case OverlappedColumn:
            return tr("Communication hidden under computation");
        case ReceiveColumn:
            return tr("Receive operators between pipeline stages");
        case TailColumn:
            return tr("From the last backward operator to the end of the step");
        case CommunicationShareColumn:
            return tr("Communication kernels' time as a share of the step");
        case OverlapRatioColumn:
            return tr("Share of communication time overlapped by computation kernels");
        case DeviationColumn:
            return tr("The slow-rank figure against the cluster mean; more than +%1 % is flagged")
                .arg(int(models::cluster::kOffMeanThreshold * 100));
        case StragglerColumn:
            return tr("Steps in which this rank started the last collective latest");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case StageColumn:
        return tr("Stage");
    case DeviceColumn:
        return tr("Device");
    case StepTimeColumn:
        return tr("Step time");
    case StepIntervalColumn:
        return tr("Step interval");
    case ComputationColumn:
        return tr("Computation");
    case CommunicationColumn:
        return tr("Communication");
    case OverlappedColumn:
        return tr("Overlapped");
    case ReceiveColumn:
        return tr("Receive");
    case TailColumn:
        return tr("Tail");
    case IdleColumn:
        return tr("Idle");
    case CommunicationShareColumn:
        return tr("Comm. share");
    case OverlapRatioColumn:
        return tr("Comm. overlap");
    case FlopsColumn:
        return tr("GFLOPS");
    case PeakMemoryColumn:
        return tr("Peak memory");
    case DeviationColumn:
        return tr("Off mean");
    case StragglerColumn:
        return tr("Straggler steps");
    default:
        return {};
    }
}

} // namespace runlens::widgets::cluster
