#pragma once

#include "models/profiler/profilerdata.h"

#include <QAbstractTableModel>
#include <QList>

#include <memory>

namespace runlens::models::profiler {

/// The operator table of one rank of a MindSpore profiler folder, at type level (one row per operator type and
/// core) or op level (one row per full op name with shapes, formats and FLOPs). Display text is formatted;
/// SortRole gives raw numbers (µs, counts) for QSortFilterProxyModel and CSV; ShareRole the 0..1 fraction a share
/// column draws as a bar (the same roles as the trace Operators table). Holds a shared pointer to the run data.
class ProfilerOpTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Level { Types, Ops };
    Q_ENUM(Level)

    enum class Column {
        Name, ///< op name (Ops) or type (Types)
        Type,
        Core,
        Calls,
        Total,
        Average,
        Share,
        Stream,
        InputShapes,
        OutputShapes,
        Formats,
        MFlops,
        GFlops,
    };
    Q_ENUM(Column)

    enum Role {
        SortRole = Qt::UserRole, ///< raw value: double µs, qint64 count, double share, QString text
        ShareRole, ///< double 0..1
        ColumnIdRole, ///< headerData only: stable CSV id of a column ("total_us")
    };

    explicit ProfilerOpTableModel(QObject* parent = nullptr);
    ~ProfilerOpTableModel() override;

    /// Shows the rank at `rankIndex` (index into run->ranks); out of range or null shows nothing.
    void setData(std::shared_ptr<const ProfilerRunData> run, int rankIndex);
    void setLevel(Level level);
    Level level() const { return m_level; }
    const OperatorTable* table() const;

    Column columnAt(int column) const { return m_columns.value(column, Column::Name); }
    int columnOf(Column column) const { return int(m_columns.indexOf(column)); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "1.23 ms", "456 µs", "12.0 s" for a time in microseconds.
    static QString formatMicroseconds(double us);

private:
    void rebuildColumns();
    QVariant typeData(const OpTypeStats& type, Column column, int role) const;
    QVariant opData(const OpStats& op, Column column, int role) const;

    std::shared_ptr<const ProfilerRunData> m_run;
    int m_rank = -1;
    Level m_level = Level::Types;
    QList<Column> m_columns;
};

} // namespace runlens::models::profiler
