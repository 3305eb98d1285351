#include "models/profiler/profileroptablemodel.h"

#include <cmath>

namespace runlens::models::profiler {

namespace {

QVariant durationCell(double us, int role)
{
    if (role == Qt::DisplayRole)
        return ProfilerOpTableModel::formatMicroseconds(us);
    if (role == ProfilerOpTableModel::SortRole)
        return us;
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant countCell(qint64 count, int role)
{
    if (role == Qt::DisplayRole)
        return QString::number(count);
    if (role == ProfilerOpTableModel::SortRole)
        return count;
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant shareCell(double share, int role)
{
    if (role == Qt::DisplayRole)
        return ProfilerOpTableModel::tr("%1 %").arg(share * 100.0, 0, 'f', 2);
    if (role == ProfilerOpTableModel::SortRole || role == ProfilerOpTableModel::ShareRole)
        return share;
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant optionalCell(const std::optional<double>& value, int role)
{
    if (!value)
        return role == ProfilerOpTableModel::SortRole ? QVariant(-1.0) : QVariant();
    if (role == Qt::DisplayRole)
        return QString::number(*value, 'g', 4);
    if (role == ProfilerOpTableModel::SortRole)
        return *value;
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant textCell(const QString& text, int role)
{
    if (role == Qt::DisplayRole || role == ProfilerOpTableModel::SortRole || role == Qt::ToolTipRole)
        return text;
    return {};
}

} // namespace

ProfilerOpTableModel::ProfilerOpTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
    rebuildColumns();
}

ProfilerOpTableModel::~ProfilerOpTableModel() = default;

QString ProfilerOpTableModel::formatMicroseconds(double us)
{
    const double magnitude = std::fabs(us);
    if (magnitude >= 1.0e6)
        return tr("%1 s").arg(us / 1.0e6, 0, 'g', 3);
    if (magnitude >= 1.0e3)
        return tr("%1 ms").arg(us / 1.0e3, 0, 'g', 3);
    if (magnitude >= 1.0 || magnitude == 0.0)
        return tr("%1 µs").arg(us, 0, 'g', 3);
    return tr("%1 ns").arg(us * 1.0e3, 0, 'g', 3);
}

void ProfilerOpTableModel::setData(std::shared_ptr<const ProfilerRunData> run, int rankIndex)
{
    beginResetModel();
    m_run = std::move(run);
    m_rank = m_run && rankIndex >= 0 && rankIndex < int(m_run->ranks.size()) ? rankIndex : -1;
    rebuildColumns();
    endResetModel();
}

void ProfilerOpTableModel::setLevel(Level level)
{
    if (level == m_level)
        return;
    beginResetModel();
    m_level = level;
    rebuildColumns();
    endResetModel();
}

const OperatorTable* ProfilerOpTableModel::table() const
{
    return m_rank >= 0 ? &m_run->ranks[std::size_t(m_rank)].operators : nullptr;
}

void ProfilerOpTableModel::rebuildColumns()
{
    if (m_level == Level::Types) {
        m_columns = { Column::Name, Column::Core, Column::Calls, Column::Total, Column::Average, Column::Share };
        return;
    }
    m_columns
        = { Column::Name,  Column::Type,   Column::Core,        Column::Calls,        Column::Total,  Column::Average,
            Column::Share, Column::Stream, Column::InputShapes, Column::OutputShapes, Column::Formats };
    const OperatorTable* ops = table();
    if (ops && ops->hasFlops)
        m_columns << Column::MFlops << Column::GFlops;
}

int ProfilerOpTableModel::rowCount(const QModelIndex& parent) const
{
    const OperatorTable* ops = table();
    if (parent.isValid() || !ops)
        return 0;
    return int(m_level == Level::Types ? ops->types.size() : ops->ops.size());
}

int ProfilerOpTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant ProfilerOpTableModel::data(const QModelIndex& index, int role) const
{
    const OperatorTable* ops = table();
    if (!ops || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Column column = columnAt(index.column());
    if (m_level == Level::Types)
        return typeData(ops->types[std::size_t(index.row())], column, role);
    return opData(ops->ops[std::size_t(index.row())], column, role);
}

QVariant ProfilerOpTableModel::typeData(const OpTypeStats& type, Column column, int role) const
{
    switch (column) {
    case Column::Name:
    case Column::Type:
        return textCell(type.type, role);
    case Column::Core:
        return textCell(type.core, role);
    case Column::Calls:
        return countCell(type.calls, role);
    case Column::Total:
        return durationCell(type.totalUs, role);
    case Column::Average:
        return durationCell(type.averageUs(), role);
    case Column::Share:
        return shareCell(type.share, role);
    default:
        return {};
    }
}

QVariant ProfilerOpTableModel::opData(const OpStats& op, Column column, int role) const
{
    switch (column) {
    case Column::Name:
        return textCell(op.name, role);
    case Column::Type:
        return textCell(op.type, role);
    case Column::Core:
        return textCell(op.core, role);
    case Column::Calls:
        return countCell(op.calls, role);
    case Column::Total:
        return durationCell(op.totalUs, role);
    case Column::Average:
        return durationCell(op.averageUs(), role);
    case Column::Share:
        return shareCell(op.share, role);
    case Column::Stream:
        if (op.streamId < 0)
            return role == SortRole ? QVariant(-1) : QVariant();
        return countCell(op.streamId, role);
    case Column::InputShapes:
        return textCell(op.inputShapes, role);
    case Column::OutputShapes:
        return textCell(op.outputShapes, role);
    case Column::Formats:
        return textCell(op.formats, role);
    case Column::MFlops:
        return optionalCell(op.mflops, role);
    case Column::GFlops:
        return optionalCell(op.gflops, role);
    }
    return {};
}

QVariant ProfilerOpTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= m_columns.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    const Column column = m_columns.at(section);
    if (role == ColumnIdRole) {
        switch (column) {
        case Column::Name:
            return m_level == Level::Types ? QStringLiteral("type") : QStringLiteral("name");
        case Column::Type:
            return QStringLiteral("type");
        case Column::Core:
            return QStringLiteral("core");
        case Column::Calls:
            return QStringLiteral("calls");
        case Column::Total:
            return QStringLiteral("total_us");
        case Column::Average:
            return QStringLiteral("average_us");
        case Column::Share:
            return QStringLiteral("share");
        case Column::Stream:
            return QStringLiteral("stream");
        case Column::InputShapes:
            return QStringLiteral("input_shapes");
        case Column::OutputShapes:
            return QStringLiteral("output_shapes");
        case Column::Formats:
            return QStringLiteral("formats");
        case Column::MFlops:
            return QStringLiteral("mflops");
        case Column::GFlops:
            return QStringLiteral("gflops");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Column::Name:
        return m_level == Level::Types ? tr("Type") : tr("Operator");
    case Column::Type:
        return tr("Type");
    case Column::Core:
        return tr("Core");
    case Column::Calls:
        return tr("Calls");
    case Column::Total:
        return tr("Total");
    case Column::Average:
        return tr("Average");
    case Column::Share:
        return tr("Share");
    case Column::Stream:
        return tr("Stream");
    case Column::InputShapes:
        return tr("Input shapes");
    case Column::OutputShapes:
        return tr("Output shapes");
    case Column::Formats:
        return tr("Formats");
    case Column::MFlops:
        return tr("MFLOPs");
    case Column::GFlops:
        return tr("GFLOPS");
    }
    return {};
}

} // namespace runlens::models::profiler
