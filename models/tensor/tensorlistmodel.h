#pragma once

#include "models/tensor/tensorcatalog.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QList>
#include <QSortFilterProxyModel>
#include <QString>

#include <memory>
#include <optional>

namespace runlens::models::tensor {

/// The series of a TensorCatalog as rows for the tensor inspector's list: name, kind, shape, dtype, size,
/// step count and a NaN/Inf badge once statistics are known. When the catalog holds several runs or ranks
/// the series are grouped under one top-level row per run (and rank); otherwise the list is flat. The
/// model shares the catalog read-only.
class TensorListModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        KindColumn,
        ShapeColumn,
        DTypeColumn,
        SizeColumn,
        StepsColumn,
        StatusColumn,
        ColumnCount
    };
    enum Role {
        SeriesIndexRole = Qt::UserRole + 1, ///< int: index in TensorCatalog::series(); -1 for a group row
        LocationRole, ///< QString: location of the series' last version
        KindRole, ///< QString
        StepsRole, ///< QList<int>
        NanInfRole, ///< QVariant(bool) once known for any version, invalid before
        SortRole, ///< numbers for the numeric columns
    };

    explicit TensorListModel(QObject* parent = nullptr);
    ~TensorListModel() override;

    void setCatalog(std::shared_ptr<const TensorCatalog> catalog);
    const std::shared_ptr<const TensorCatalog>& catalog() const { return m_catalog; }
    /// The opened folder: its own run "." is then shown under the folder's name (runDisplayName).
    void setRoot(const QString& root) { m_root = root; }
    /// Whether top-level rows are runs (and ranks) holding the series.
    bool isGrouped() const { return m_groups.size() > 1; }

    /// Records whether the tensor at `location` holds NaN or Inf; the series' badge shows it.
    void setStatistics(const QString& location, bool hasNanOrInf);
    /// What is known of the series: nullopt before any of its versions has statistics.
    std::optional<bool> seriesHasNanOrInf(int series) const;

    /// The row of a series, or an invalid index.
    QModelIndex indexOfSeries(int series, int column = 0) const;
    /// The series of a row, or -1 for a group row.
    int seriesAt(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "1.5 KiB", "12 MiB".
    static QString humanBytes(std::int64_t bytes);

private:
    struct Group
    {
        QString run;
        int rank = -1;
        QList<int> series;
    };
    QVariant seriesData(int series, int column, int role) const;
    QVariant groupData(int group, int column, int role) const;
    QString groupLabel(const Group& group) const;

    std::shared_ptr<const TensorCatalog> m_catalog;
    QString m_root;
    QList<Group> m_groups;
    QList<int> m_groupOfSeries; ///< group per series
    QList<int> m_rowOfSeries; ///< row within its group per series
    QHash<QString, bool> m_nanInf; ///< by location
};

/// Filters a TensorListModel by a query such as `conv1 kind:weight step:30`: plain words must all occur
/// in the series name, `kind:` in its kind, `run:` in its run, `dtype:` in its element type; `step:N`
/// keeps series with a version at step N and `step:A-B` those with one in [A, B]. Case is ignored.
class TensorFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TensorFilterModel(QObject* parent = nullptr);

    void setQuery(const QString& query);
    QString query() const { return m_query; }
    /// The syntax, for the filter field's tooltip.
    static QString syntaxHelp();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    struct Term
    {
        enum class Kind { Name, TensorKind, Run, DType, Step } kind = Kind::Name;
        QString text;
        int stepFrom = 0;
        int stepTo = -1; ///< < stepFrom: the step text was not a number, nothing matches
    };
    QString m_query;
    QList<Term> m_terms;
};

} // namespace runlens::models::tensor
