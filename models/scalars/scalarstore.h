#pragma once

#include "models/scalars/scalarseries.h"

#include <QHash>
#include <QObject>
#include <QStringList>

#include <algorithm>
#include <memory>

namespace runlens::models::scalars {

/// All scalar series of the open run folder, keyed by (run, tag). Lives on the GUI thread: importers
/// hand over ScalarBatch values and the application appends them here; panels read and listen.
class ScalarStore final : public QObject
{
    Q_OBJECT
public:
    explicit ScalarStore(QObject* parent = nullptr);
    ~ScalarStore() override;

    /// Appends new points of one run (preemption applied per tag). Emits seriesChanged once, and
    /// structureChanged first when runs or tags appear.
    void append(const QString& run, const ScalarBatch& batch);
    void clear();
    void removeRun(const QString& run);
    /// Series created from now on keep at most `points` points each (0: all), sampled as TensorBoard's
    /// reservoir does: the latest always, the others uniformly.
    void setPointLimit(int points) { m_pointLimit = std::max(0, points); }
    int pointLimit() const { return m_pointLimit; }

    /// The opened folder, which names its own run "." (runDisplayName); kept across clear().
    void setRoot(const QString& root) { m_root = root; }
    /// The run as users see it: runlens::runDisplayName of the root set with setRoot().
    QString runDisplayName(const QString& run) const;

    /// Runs sorted by name; the position is the run's colour index.
    QStringList runs() const { return m_runs; }
    int runIndex(const QString& run) const { return m_runs.indexOf(run); }
    /// Every tag of every run, sorted.
    QStringList tags() const;
    QStringList tagsOfRun(const QString& run) const;
    const ScalarSeries* series(const QString& run, const QString& tag) const;
    qint64 pointCount() const;
    /// Increases on every change; views use it to skip redundant work.
    quint64 revision() const { return m_revision; }

signals:
    void structureChanged();
    void seriesChanged(const QString& run, const QStringList& tags);
    void cleared();

private:
    QString m_root;
    QStringList m_runs;
    QHash<QString, QHash<QString, std::shared_ptr<ScalarSeries>>> m_series; // run -> tag -> series
    quint64 m_revision = 0;
    int m_pointLimit = 0;
};

} // namespace runlens::models::scalars
