#pragma once

#include "models/trace/opstatistics.h"
#include "models/trace/tracestore.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <memory>
#include <vector>

namespace runlens::models::trace {

/// "1.23 ms", "456 µs", "12.0 s": three significant digits with the largest unit that keeps the value
/// at or above 1 (ns values under 1 µs are shown whole).
QString formatDuration(qint64 ns);

/// The Operators panel's table: one row per operator (name, or name + input dims) with host or device
/// times, or one row per kernel name. Display text is formatted; SortRole gives raw numbers (ns, counts)
/// for QSortFilterProxyModel and CSV; ShareRole the 0..1 fraction the share column draws as a bar.
/// Holds shared pointers to the statistics and the store whose strings they name.
class OperatorStatsModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class View { Host, Device, Kernels };
    Q_ENUM(View)

    enum class Column {
        Name,
        InputDims,
        Calls,
        Total,
        Self,
        Average,
        Min,
        Max,
        Kernels,
        Share,
        TopOperator,
    };
    Q_ENUM(Column)

    enum Role {
        SortRole = Qt::UserRole, ///< raw value: qint64 ns, quint64 count, double share, QString text
        ShareRole, ///< double 0..1 for the row's share of the view's total
        NameRole, ///< the operator or kernel name, without dims
        ColumnIdRole, ///< headerData only: stable CSV id of a column ("host_total_ns")
    };

    explicit OperatorStatsModel(QObject* parent = nullptr);
    ~OperatorStatsModel() override;

    void setStatistics(std::shared_ptr<const OperatorStatistics> statistics, std::shared_ptr<const TraceStore> store);
    const std::shared_ptr<const OperatorStatistics>& statistics() const { return m_statistics; }
    void setView(View view);
    View view() const { return m_view; }

    Column columnAt(int column) const { return m_columns.value(column, Column::Name); }
    int columnOf(Column column) const { return m_columns.indexOf(column); }
    /// The longest occurrence of a row's operator or kernel, as (track, slice); track -1 when unknown.
    std::pair<int, std::uint32_t> longestOccurrence(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildColumns();
    static QVariant durationCell(qint64 ns, int role);
    static QVariant countCell(quint64 count, int role);
    static QVariant shareCell(double share, int role);
    QVariant operatorData(const OperatorStats& op, Column column, int role) const;
    QVariant kernelData(const KernelStats& kernel, Column column, int role) const;

    std::shared_ptr<const OperatorStatistics> m_statistics;
    std::shared_ptr<const TraceStore> m_store;
    View m_view = View::Host;
    QList<Column> m_columns;
    std::vector<QString> m_names; ///< row names, converted once
};

} // namespace runlens::models::trace
