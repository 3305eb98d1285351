#include "models/memory/memoryoptablemodel.h"

#include "models/core/runbrowsermodel.h"

#include <limits>

namespace runlens::models::memory {

QString formatSignedBytes(qint64 bytes)
{
    if (bytes < 0)
        return QStringLiteral("-")
            + formatByteSize(bytes == std::numeric_limits<qint64>::min() ? -(bytes + 1) : -bytes);
    return formatByteSize(bytes);
}

MemoryOpTableModel::MemoryOpTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

MemoryOpTableModel::~MemoryOpTableModel() = default;

void MemoryOpTableModel::setTable(std::shared_ptr<const MemoryOpTable> table,
                                  std::shared_ptr<const trace::TraceStore> store)
{
    beginResetModel();
    m_table = std::move(table);
    m_store = std::move(store);
    m_names.clear();
    if (m_table && m_store) {
        m_names.reserve(m_table->rows.size());
        for (const MemoryOpStats& row : m_table->rows)
            m_names.push_back(m_store->strings().text(row.name));
    }
    endResetModel();
}

const MemoryOpStats* MemoryOpTableModel::rowStats(int row) const
{
    if (row < 0 || std::size_t(row) >= m_names.size())
        return nullptr;
    return &m_table->rows[std::size_t(row)];
}

int MemoryOpTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_names.size());
}

int MemoryOpTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kColumnCount;
}

namespace {

QVariant bytesCell(qint64 bytes, int role)
{
    if (role == MemoryOpTableModel::SortRole)
        return bytes;
    if (role == Qt::DisplayRole)
        return formatSignedBytes(bytes);
    if (role == Qt::ToolTipRole)
        return MemoryOpTableModel::tr("%L1 bytes").arg(bytes);
    return {};
}

QVariant countCell(quint64 count, int role)
{
    if (role == MemoryOpTableModel::SortRole)
        return count;
    if (role == Qt::DisplayRole)
        return QStringLiteral("%L1").arg(count);
    return {};
}

} // namespace

QVariant MemoryOpTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::size_t row = std::size_t(index.row());
    const Column column = Column(index.column());
    if (role == NameRole)
        return m_names[row];
    if (role == Qt::TextAlignmentRole) {
        if (column == Column::Name)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    const MemoryOpStats& op = m_table->rows[row];
    switch (column) {
    case Column::Name:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
            return m_names[row];
        return {};
    case Column::Calls:
        return countCell(op.calls, role);
    case Column::SizeIncrease:
        return bytesCell(op.total.net(), role);
    case Column::SelfSizeIncrease:
        return bytesCell(op.self.net(), role);
    case Column::Allocations:
        return countCell(op.total.allocations, role);
    case Column::SelfAllocations:
        return countCell(op.self.allocations, role);
    case Column::AllocatedBytes:
        return bytesCell(op.total.allocatedBytes, role);
    case Column::SelfAllocatedBytes:
        return bytesCell(op.self.allocatedBytes, role);
    case Column::Frees:
        return countCell(op.total.frees, role);
    case Column::SelfFrees:
        return countCell(op.self.frees, role);
    case Column::FreedBytes:
        return bytesCell(op.total.freedBytes, role);
    case Column::SelfFreedBytes:
        return bytesCell(op.self.freedBytes, role);
    }
    return {};
}

QVariant MemoryOpTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= kColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    const Column column = Column(section);
    if (role == Qt::TextAlignmentRole) {
        if (column == Column::Name)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    if (role == ColumnIdRole) {
        switch (column) {
        case Column::Name:
            return QStringLiteral("operator");
        case Column::Calls:
            return QStringLiteral("calls");
        case Column::SizeIncrease:
            return QStringLiteral("size_increase_bytes");
        case Column::SelfSizeIncrease:
            return QStringLiteral("self_size_increase_bytes");
        case Column::Allocations:
            return QStringLiteral("allocations");
        case Column::SelfAllocations:
            return QStringLiteral("self_allocations");
        case Column::AllocatedBytes:
            return QStringLiteral("allocated_bytes");
        case Column::SelfAllocatedBytes:
            return QStringLiteral("self_allocated_bytes");
        case Column::Frees:
            return QStringLiteral("frees");
        case Column::SelfFrees:
            return QStringLiteral("self_frees");
        case Column::FreedBytes:
            return QStringLiteral("freed_bytes");
        case Column::SelfFreedBytes:
            return QStringLiteral("self_freed_bytes");
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case Column::Calls:
            return tr("Calls with at least one allocation or free inside");
        case Column::SizeIncrease:
            return tr("Allocated minus freed bytes, including the operators called inside");
        case Column::SelfSizeIncrease:
            return tr("Allocated minus freed bytes by this operator itself");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Column::Name:
        return tr("Operator");
    case Column::Calls:
        return tr("Calls");
    case Column::SizeIncrease:
        return tr("Size increase");
    case Column::SelfSizeIncrease:
        return tr("Self size increase");
    case Column::Allocations:
        return tr("Allocations");
    case Column::SelfAllocations:
        return tr("Self allocations");
    case Column::AllocatedBytes:
        return tr("Allocated");
    case Column::SelfAllocatedBytes:
        return tr("Self allocated");
    case Column::Frees:
        return tr("Frees");
    case Column::SelfFrees:
        return tr("Self frees");
    case Column::FreedBytes:
        return tr("Freed");
    case Column::SelfFreedBytes:
        return tr("Self freed");
    }
    return {};
}

} // namespace runlens::models::memory
