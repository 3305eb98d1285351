#include "models/scalars/scalarstore.h"

#include "models/core/runmanifest.h"

#include <algorithm>

namespace runlens::models::scalars {

ScalarStore::ScalarStore(QObject* parent)
    : QObject(parent)
{ }

ScalarStore::~ScalarStore() = default;

QString ScalarStore::runDisplayName(const QString& run) const
{
    return m_root.isEmpty() ? run : runlens::models::runDisplayName(m_root, run);
}

void ScalarStore::append(const QString& run, const ScalarBatch& batch)
{
    if (batch.empty())
        return;
    bool structural = false;
    if (!m_runs.contains(run)) {
        // Sorted by name, so that a run keeps its colour however the import threads finish.
        m_runs.insert(std::lower_bound(m_runs.begin(), m_runs.end(), run), run);
        structural = true;
    }
    auto& tags = m_series[run];
    QStringList touched;
    for (const TagPoints& entry : batch) {
        auto& slot = tags[entry.tag];
        if (!slot) {
            slot = std::make_shared<ScalarSeries>();
            slot->run = run;
            slot->tag = entry.tag;
            slot->capacity = m_pointLimit;
            structural = true;
        }
        if (entry.metadata && slot->points.empty() && slot->metadata.pluginName.isEmpty()
            && slot->metadata.displayName.isEmpty())
            slot->metadata = *entry.metadata;
        if (slot->capacity == 0)
            slot->points.reserve(slot->points.size() + entry.points.size());
        for (const ScalarPoint& p : entry.points)
            slot->append(p);
        if (!touched.contains(entry.tag))
            touched.append(entry.tag);
    }
    ++m_revision;
    if (structural)
        emit structureChanged();
    emit seriesChanged(run, touched);
}

void ScalarStore::clear()
{
    m_runs.clear();
    m_series.clear();
    ++m_revision;
    emit cleared();
    emit structureChanged();
}

void ScalarStore::removeRun(const QString& run)
{
    if (!m_runs.removeOne(run))
        return;
    m_series.remove(run);
    ++m_revision;
    emit structureChanged();
}

QStringList ScalarStore::tags() const
{
    QStringList out;
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
        for (auto t = it->cbegin(); t != it->cend(); ++t) {
            if (!out.contains(t.key()))
                out.append(t.key());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

QStringList ScalarStore::tagsOfRun(const QString& run) const
{
    QStringList out = m_series.value(run).keys();
    std::sort(out.begin(), out.end());
    return out;
}

const ScalarSeries* ScalarStore::series(const QString& run, const QString& tag) const
{
    const auto runIt = m_series.constFind(run);
    if (runIt == m_series.cend())
        return nullptr;
    const auto tagIt = runIt->constFind(tag);
    return tagIt == runIt->cend() ? nullptr : tagIt->get();
}

qint64 ScalarStore::pointCount() const
{
    qint64 n = 0;
    for (const auto& tags : m_series) {
        for (const auto& s : tags)
            n += qint64(s->points.size());
    }
    return n;
}

} // namespace runlens::models::scalars
