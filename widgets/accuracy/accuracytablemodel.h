#pragma once

#include "models/accuracy/compareresult.h"

#include <QAbstractTableModel>

#include <vector>

namespace runlens::widgets::accuracy {

/// The rows of a dump comparison as a table, in the order they were compared (the target's execution
/// order, unmatched rows last). Rows are appended while the comparison runs and replaced by the finished
/// result, whose introduced/propagated marks are only known at the end. SortRole gives numbers as numbers
/// (absent values sort first) and the name column the execution order.
class AccuracyTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Name,
        Kind,
        Dtypes,
        Shapes,
        Cosine,
        MaxAbs,
        MaxRel,
        MeanAbs,
        Rmse,
        Within1e3,
        Underflow,
        Overflow,
        VerdictColumn,
        Origin,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    /// The row's index into rows(), whatever the proxy did.
    static constexpr int RowIndexRole = Qt::UserRole + 2;
    /// The verdict as its stable id ("pass", "unmatched"…), for filters.
    static constexpr int VerdictRole = Qt::UserRole + 3;

    explicit AccuracyTableModel(QObject* parent = nullptr);

    void clear();
    void appendRows(const QList<models::accuracy::CompareRow>& rows);
    /// The finished comparison's rows: updated in place when they are the rows already shown.
    void setRows(const QList<models::accuracy::CompareRow>& rows);
    const QList<models::accuracy::CompareRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The user-facing word for a verdict ("pass", "unmatched"…).
    static QString verdictText(models::accuracy::Verdict verdict);
    /// The colour a verdict is shown in; invalid for verdicts without one.
    static QColor verdictColor(models::accuracy::Verdict verdict);

private:
    QList<models::accuracy::CompareRow> m_rows;
};

} // namespace runlens::widgets::accuracy
