#pragma once

#include <QAbstractListModel>
#include <QColor>
#include <QSet>
#include <QStringList>

namespace runlens::widgets::scalars {

/// The runs of the scalar panel as a checkable list: display name, colour swatch (DecorationRole) and
/// visibility (CheckStateRole). Toggling a check emits runVisibilityChanged; the panel applies it to all
/// charts. Colours come from runColor(index in the store).
class RunLegendModel final : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Roles { RunNameRole = Qt::UserRole + 1, RunColorRole, PointCountRole };

    explicit RunLegendModel(QObject* parent = nullptr);

    /// Replaces the list; `colorIndices` gives each run's colour index (same length as `runs`), and
    /// `pointCounts` the number of scalar points of each run (for the tooltip; may be empty).
    /// `names`: the runs as users see them, parallel to `runs` (the runs themselves when empty).
    void setRuns(const QStringList& runs, const QList<int>& colorIndices, const QList<qint64>& pointCounts = {},
                 const QStringList& names = {});
    QStringList runs() const { return m_runs; }

    void setRunVisible(const QString& run, bool visible);
    bool isRunVisible(const QString& run) const { return !m_hidden.contains(run); }
    void setAllVisible(bool visible);
    QSet<QString> hiddenRuns() const { return m_hidden; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void runVisibilityChanged(const QString& run, bool visible);

private:
    QStringList m_runs;
    QList<int> m_colorIndices;
    QList<qint64> m_pointCounts;
    QStringList m_names;
    QSet<QString> m_hidden; ///< kept across setRuns so a run hidden before a reload stays hidden
};

} // namespace runlens::widgets::scalars
