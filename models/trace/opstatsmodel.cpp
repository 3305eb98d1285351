#include "models/trace/opstatsmodel.h"

#include <QCoreApplication>

#include <cmath>

namespace runlens::models::trace {

QString formatDuration(qint64 ns)
{
    const qint64 magnitude = ns < 0 ? -ns : ns;
    if (magnitude < 1000)
        return OperatorStatsModel::tr("%1 ns").arg(ns);
    double value = double(ns);
    const char* unit = nullptr;
    if (magnitude < 1000000) {
        value /= 1e3;
        unit = QT_TRANSLATE_NOOP("runlens::models::trace::OperatorStatsModel", "%1 µs");
    } else if (magnitude < 1000000000) {
        value /= 1e6;
        unit = QT_TRANSLATE_NOOP("runlens::models::trace::OperatorStatsModel", "%1 ms");
    } else {
        value /= 1e9;
        unit = QT_TRANSLATE_NOOP("runlens::models::trace::OperatorStatsModel", "%1 s");
    }
    const double a = std::abs(value);
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    return QCoreApplication::translate("runlens::models::trace::OperatorStatsModel", unit).arg(value, 0, 'f', decimals);
}

OperatorStatsModel::OperatorStatsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
    rebuildColumns();
}

OperatorStatsModel::~OperatorStatsModel() = default;

void OperatorStatsModel::setStatistics(std::shared_ptr<const OperatorStatistics> statistics,
                                       std::shared_ptr<const TraceStore> store)
{
    beginResetModel();
    m_statistics = std::move(statistics);
    m_store = std::move(store);
    rebuildColumns();
    endResetModel();
}

void OperatorStatsModel::setView(View view)
{
    if (view == m_view)
        return;
    beginResetModel();
    m_view = view;
    rebuildColumns();
    endResetModel();
}

void OperatorStatsModel::rebuildColumns()
{
    m_names.clear();
    const bool dims = m_statistics && m_statistics->groupedByInputDims;
    switch (m_view) {
    case View::Host:
        m_columns = { Column::Name,    Column::Calls, Column::Total, Column::Self,
                      Column::Average, Column::Min,   Column::Max,   Column::Share };
        break;
    case View::Device:
        m_columns = { Column::Name,    Column::Calls,   Column::Total, Column::Self,
                      Column::Average, Column::Kernels, Column::Share };
        break;
    case View::Kernels:
        m_columns = { Column::Name, Column::Calls, Column::Total, Column::Average,
                      Column::Min,  Column::Max,   Column::Share, Column::TopOperator };
        break;
    }
    if (dims && m_view != View::Kernels)
        m_columns.insert(1, Column::InputDims);

    if (!m_statistics || !m_store)
        return;
    const StringTable& strings = m_store->strings();
    if (m_view == View::Kernels) {
        m_names.reserve(m_statistics->kernels.size());
        for (const KernelStats& k : m_statistics->kernels)
            m_names.push_back(strings.text(k.name));
    } else {
        m_names.reserve(m_statistics->operators.size());
        for (const OperatorStats& op : m_statistics->operators)
            m_names.push_back(strings.text(op.name));
    }
}

std::pair<int, std::uint32_t> OperatorStatsModel::longestOccurrence(int row) const
{
    if (row < 0 || row >= rowCount())
        return { -1, 0 };
    if (m_view == View::Kernels) {
        const KernelStats& k = m_statistics->kernels[std::size_t(row)];
        return { k.longestTrack, k.longestSlice };
    }
    const OperatorStats& op = m_statistics->operators[std::size_t(row)];
    return { op.longestTrack, op.longestSlice };
}

int OperatorStatsModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    return int(m_names.size());
}

int OperatorStatsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant OperatorStatsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Column column = m_columns.at(index.column());
    const std::size_t row = std::size_t(index.row());
    if (role == NameRole)
        return m_names[row];
    if (role == Qt::TextAlignmentRole) {
        if (column == Column::Name || column == Column::InputDims || column == Column::TopOperator)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    if (m_view == View::Kernels)
        return kernelData(m_statistics->kernels[row], column, role);
    return operatorData(m_statistics->operators[row], column, role);
}

/// A duration column: nanoseconds to sort by, formatted text to show, the exact value as tooltip.
QVariant OperatorStatsModel::durationCell(qint64 ns, int role)
{
    if (role == SortRole)
        return ns;
    if (role == Qt::DisplayRole)
        return formatDuration(ns);
    if (role == Qt::ToolTipRole)
        return tr("%L1 ns").arg(ns);
    return {};
}

/// A count column: the number to sort by, grouped digits to show.
QVariant OperatorStatsModel::countCell(quint64 count, int role)
{
    if (role == SortRole)
        return count;
    if (role == Qt::DisplayRole)
        return QStringLiteral("%L1").arg(count);
    return {};
}

/// A share column: the fraction to sort by, a percentage to show.
QVariant OperatorStatsModel::shareCell(double share, int role)
{
    if (role == SortRole)
        return share;
    if (role == Qt::DisplayRole)
        return tr("%1 %").arg(share * 100.0, 0, 'f', 1);
    return {};
}

QVariant OperatorStatsModel::operatorData(const OperatorStats& op, Column column, int role) const
{
    const bool host = m_view == View::Host;
    const auto duration = [role](qint64 ns) { return durationCell(ns, role); };
    const double share = host ? m_statistics->hostShare(op) : m_statistics->deviceShare(op);
    if (role == ShareRole)
        return share;
    switch (column) {
    case Column::Name:
        if (role == Qt::DisplayRole || role == SortRole)
            return m_store->strings().text(op.name);
        if (role == Qt::ToolTipRole)
            return op.inputDims.empty()
                ? m_store->strings().text(op.name)
                : tr("%1\nInput dims: %2").arg(m_store->strings().text(op.name), QString::fromStdString(op.inputDims));
        return {};
    case Column::InputDims:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
            return QString::fromStdString(op.inputDims);
        return {};
    case Column::Calls:
        return countCell(quint64(op.calls), role);
    case Column::Total:
        return duration(host ? op.hostTotal : op.deviceTotal);
    case Column::Self:
        return duration(host ? op.hostSelf : op.deviceSelf);
    case Column::Average:
        return duration(host ? op.hostAverage() : op.deviceAverage());
    case Column::Min:
        return duration(op.calls ? op.hostMin : 0);
    case Column::Max:
        return duration(op.hostMax);
    case Column::Kernels:
        return countCell(quint64(op.kernels), role);
    case Column::Share:
        return shareCell(share, role);
    case Column::TopOperator:
        return {};
    }
    return {};
}

QVariant OperatorStatsModel::kernelData(const KernelStats& kernel, Column column, int role) const
{
    const auto duration = [role](qint64 ns) { return durationCell(ns, role); };
    const double share = m_statistics->kernelShare(kernel);
    if (role == ShareRole)
        return share;
    switch (column) {
    case Column::Name:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
            return m_store->strings().text(kernel.name);
        return {};
    case Column::Calls:
        return countCell(quint64(kernel.calls), role);
    case Column::Total:
        return duration(kernel.total);
    case Column::Average:
        return duration(kernel.mean());
    case Column::Min:
        return duration(kernel.calls ? kernel.min : 0);
    case Column::Max:
        return duration(kernel.max);
    case Column::Share:
        return shareCell(share, role);
    case Column::TopOperator:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
            return m_store->strings().text(kernel.topOperator);
        return {};
    case Column::InputDims:
    case Column::Self:
    case Column::Kernels:
        return {};
    }
    return {};
}

QVariant OperatorStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= m_columns.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    const Column column = m_columns.at(section);
    const bool host = m_view == View::Host;
    const bool kernels = m_view == View::Kernels;
    if (role == Qt::TextAlignmentRole) {
        if (column == Column::Name || column == Column::InputDims || column == Column::TopOperator)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    if (role == ColumnIdRole) {
        const QString prefix = kernels ? QString() : host ? QStringLiteral("host_") : QStringLiteral("device_");
        switch (column) {
        case Column::Name:
            return kernels ? QStringLiteral("kernel") : QStringLiteral("operator");
        case Column::InputDims:
            return QStringLiteral("input_dims");
        case Column::Calls:
            return QStringLiteral("calls");
        case Column::Total:
            return prefix + QStringLiteral("total_ns");
        case Column::Self:
            return prefix + QStringLiteral("self_ns");
        case Column::Average:
            return prefix + QStringLiteral("average_ns");
        case Column::Min:
            return prefix + QStringLiteral("min_ns");
        case Column::Max:
            return prefix + QStringLiteral("max_ns");
        case Column::Kernels:
            return QStringLiteral("kernels");
        case Column::Share:
            return QStringLiteral("share");
        case Column::TopOperator:
            return QStringLiteral("top_operator");
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case Column::Self:
            return host ? tr("Duration minus the time of the CPU ops called inside")
                        : tr("Device time of kernels launched directly by this operator");
        case Column::Total:
            return host ? tr("Sum of the durations of every call")
                        : tr("Device time of kernels launched by this operator or the operators it calls");
        case Column::Share:
            return kernels ? tr("Share of all kernel time") : tr("Share of the self time of all operators");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Column::Name:
        return kernels ? tr("Kernel") : tr("Operator");
    case Column::InputDims:
        return tr("Input dims");
    case Column::Calls:
        return tr("Calls");
    case Column::Total:
        return kernels ? tr("Total") : host ? tr("Host total") : tr("Device total");
    case Column::Self:
        return host ? tr("Host self") : tr("Device self");
    case Column::Average:
        return kernels ? tr("Mean") : tr("Average");
    case Column::Min:
        return tr("Min");
    case Column::Max:
        return tr("Max");
    case Column::Kernels:
        return tr("Kernels");
    case Column::Share:
        return tr("Share");
    case Column::TopOperator:
        return tr("Launched by");
    }
    return {};
}

} // namespace runlens::models::trace
