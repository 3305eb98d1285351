#pragma once

#include "models/memory/memoryanalysis.h"
#include "models/trace/tracestore.h"

#include <QAbstractTableModel>
#include <QList>

#include <memory>
#include <vector>

namespace runlens::models::memory {

/// "1.2 MB", "-340 KB": formatByteSize with a sign, for sizes that may shrink.
QString formatSignedBytes(qint64 bytes);

/// The Memory panel's per-operator table: one row per op name with calls, allocations, frees and the net
/// size increase, self and including children. Display text is formatted; SortRole gives raw numbers
/// (bytes, counts) for QSortFilterProxyModel and CSV. Holds the table and the store whose strings name
/// its rows.
class MemoryOpTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Column {
        Name,
        Calls,
        SizeIncrease,
        SelfSizeIncrease,
        Allocations,
        SelfAllocations,
        AllocatedBytes,
        SelfAllocatedBytes,
        Frees,
        SelfFrees,
        FreedBytes,
        SelfFreedBytes,
    };
    Q_ENUM(Column)
    static constexpr int kColumnCount = int(Column::SelfFreedBytes) + 1;

    enum Role {
        SortRole = Qt::UserRole, ///< raw value: qint64 bytes, quint64 count, QString name
        NameRole, ///< the op name
        ColumnIdRole, ///< headerData only: stable CSV id of a column ("size_increase_bytes")
    };

    explicit MemoryOpTableModel(QObject* parent = nullptr);
    ~MemoryOpTableModel() override;

    void setTable(std::shared_ptr<const MemoryOpTable> table, std::shared_ptr<const trace::TraceStore> store);
    const std::shared_ptr<const MemoryOpTable>& table() const { return m_table; }
    /// The statistics behind a row (nullptr out of range).
    const MemoryOpStats* rowStats(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const MemoryOpTable> m_table;
    std::shared_ptr<const trace::TraceStore> m_store;
    std::vector<QString> m_names; ///< row names, converted once
};

} // namespace runlens::models::memory
