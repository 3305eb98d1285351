#include "widgets/tensor/tensorpanel.h"

#include "models/tensor/tensorlistmodel.h"
#include "widgets/tensor/heatmapview.h"
#include "widgets/tensor/tensorcomparewidget.h"
#include "widgets/tensor/tensorstatswidget.h"
#include "widgets/tensor/tensortablemodel.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QScopedValueRollback>
#include <QStackedWidget>
#include <QTimer>
#include <QTreeView>

#include <cstdlib>

namespace runlens::widgets::tensor {

namespace {

/// Showing a catalog that took longer than this makes the next summary polls wait and arrive together.
constexpr qint64 kImmediateRebuildMs = 40;

} // namespace

TensorPanel::~TensorPanel() = default;

void TensorPanel::setStatsCache(TensorStatsCache* cache)
{
    if (m_cache != m_ownCache && m_cache)
        disconnect(m_cache, nullptr, this, nullptr);
    m_cache = cache ? cache : m_ownCache;
    m_stats->setCache(m_cache);
    if (m_cache != m_ownCache)
        connect(m_cache, &TensorStatsCache::ready, this, [this](const QString& location) {
            if (const auto stats = m_cache->find(location))
                onWholeStatistics(location, *stats);
        });
}

void TensorPanel::setRunFolder(const QString& root)
{
    m_listModel->setRoot(root);
}

void TensorPanel::setCatalog(std::shared_ptr<const models::tensor::TensorCatalog> catalog)
{
    m_fileCatalog = std::move(catalog);
    m_summaryTimer->stop(); // the summaries gathered so far are shown with the files
    QElapsedTimer clock;
    clock.start();
    applyCatalog(mergedCatalog(), false);
    m_rebuildMs = clock.elapsed();
}

void TensorPanel::addSummaryTensors(const QString& run, const QString& source,
                                    const models::summary::SummaryBatch& batch)
{
    // Every poll of a summary file arrives here; only those carrying tensors change the list.
    if (m_summaryTensors.update(run, source, batch))
        scheduleSummaryRebuild();
}

void TensorPanel::removeSummaryRun(const QString& run)
{
    if (m_summaryTensors.removeRun(run))
        rebuildWithSummaries();
}

void TensorPanel::setGraphWeights(const QString& graphPath, const QList<models::tensor::TensorSeries>& series)
{
    if (series.isEmpty() && !m_graphWeights.contains(graphPath))
        return;
    if (series.isEmpty())
        m_graphWeights.remove(graphPath);
    else
        m_graphWeights.insert(graphPath, series);
    rebuildWithSummaries();
}

void TensorPanel::clearGraphWeights()
{
    if (m_graphWeights.isEmpty())
        return;
    m_graphWeights.clear();
    rebuildWithSummaries();
}

void TensorPanel::clearSummaryTensors()
{
    if (m_summaryTensors.isEmpty())
        return;
    m_summaryTensors.clear();
    rebuildWithSummaries();
}

bool TensorPanel::hasPendingSummaryTensors() const
{
    return m_summaryTimer->isActive();
}

void TensorPanel::scheduleSummaryRebuild()
{
    if (m_summaryTimer->isActive())
        return;
    if (m_rebuildMs <= kImmediateRebuildMs) {
        rebuildWithSummaries();
        return;
    }
    // A live run polls its files every few seconds; a large list is rebuilt at most every few times
    // its cost, so the window stays responsive.
    m_summaryTimer->start(int(std::clamp<qint64>(4 * m_rebuildMs, 250, 3000)));
}

void TensorPanel::rebuildWithSummaries()
{
    m_summaryTimer->stop();
    QElapsedTimer clock;
    clock.start();
    applyCatalog(mergedCatalog(), true);
    m_rebuildMs = clock.elapsed();
}

std::shared_ptr<const models::tensor::TensorCatalog> TensorPanel::mergedCatalog() const
{
    if (m_summaryTensors.isEmpty() && m_graphWeights.isEmpty())
        return m_fileCatalog;
    QList<models::tensor::TensorSeries> more = m_summaryTensors.series();
    for (const QList<models::tensor::TensorSeries>& weights : m_graphWeights)
        more += weights;
    if (!m_fileCatalog)
        return std::make_shared<const models::tensor::TensorCatalog>(more);
    return std::make_shared<const models::tensor::TensorCatalog>(m_fileCatalog->withSeries(more));
}

namespace {

QString seriesKey(const models::tensor::TensorSeries& s)
{
    return s.run + QLatin1Char('\n') + QString::number(s.rank) + QLatin1Char('\n') + s.name;
}

} // namespace

void TensorPanel::applyCatalog(std::shared_ptr<const models::tensor::TensorCatalog> catalog, bool keepShown)
{
    // What is shown, by name rather than by index: the new catalog may order its series differently.
    QString shownKey;
    QString shownLocation;
    int shownStep = -1;
    QString compareLocation;
    QHash<QString, SliceControls::State> states;
    if (keepShown && m_catalog) {
        if (m_series >= 0 && m_tensor)
            m_sliceStates.insert(m_series, m_slice->state());
        for (auto it = m_sliceStates.cbegin(); it != m_sliceStates.cend(); ++it)
            if (it.key() >= 0 && it.key() < m_catalog->series().size())
                states.insert(seriesKey(m_catalog->series()[it.key()]), it.value());
        if (const models::tensor::TensorInfo* info = currentInfo()) {
            shownKey = seriesKey(m_catalog->series()[m_series]);
            shownLocation = info->location();
            shownStep = info->step;
            compareLocation = m_compareWith->currentData().toString();
        }
    }

    m_catalog = std::move(catalog);
    m_sliceStates.clear();
    int keptSeries = -1;
    if (m_catalog) {
        for (int i = 0; i < m_catalog->series().size(); ++i) {
            const QString key = seriesKey(m_catalog->series()[i]);
            const auto state = states.constFind(key);
            if (state != states.constEnd())
                m_sliceStates.insert(i, *state);
            if (!shownKey.isEmpty() && key == shownKey)
                keptSeries = i;
        }
    }
    m_series = m_version = -1;
    {
        const QScopedValueRollback<bool> selecting(m_selecting, true);
        m_listModel->setCatalog(m_catalog);
    }
    m_list->setRootIsDecorated(m_listModel->isGrouped());
    if (m_listModel->isGrouped())
        m_list->expandAll();
    for (int c = 1; c < models::tensor::TensorListModel::ColumnCount; ++c)
        m_list->resizeColumnToContents(c);
    // Names get the room the other columns leave, within reason.
    m_list->resizeColumnToContents(models::tensor::TensorListModel::NameColumn);
    m_list->setColumnWidth(models::tensor::TensorListModel::NameColumn,
                           std::min(m_list->columnWidth(models::tensor::TensorListModel::NameColumn), 320));
    const bool empty = !m_catalog || m_catalog->isEmpty();
    m_pages->setCurrentIndex(empty ? 0 : 1);
    if (!empty) {
        // Statistics computed before (another panel, an earlier catalog) show their badge at once.
        for (const models::tensor::TensorSeries& s : m_catalog->series())
            for (const models::tensor::TensorInfo& info : s.versions)
                if (const auto stats = m_cache->find(info.location()))
                    m_listModel->setStatistics(info.location(), stats->nan + stats->posInf + stats->negInf > 0);
    }

    const auto [keptAt, keptVersion] = keptSeries >= 0 ? m_catalog->findLocation(shownLocation) : std::pair { -1, -1 };
    if (keptSeries >= 0 && keptAt == keptSeries && m_tensor) {
        // The shown tensor is still there (a summary grew by a step): keep it open, refresh around it.
        m_series = keptSeries;
        m_version = keptVersion;
        {
            const QScopedValueRollback<bool> selecting(m_selecting, true);
            const QModelIndex row = m_filterModel->mapFromSource(m_listModel->indexOfSeries(m_series));
            if (row.isValid())
                m_list->setCurrentIndex(row);
        }
        updateStepControls();
        updateHeader();
        fillCompareChoices();
        const int compareIndex = m_compareWith->findData(compareLocation);
        if (compareIndex >= 0 && compareIndex != m_compareWith->currentIndex())
            m_compareWith->setCurrentIndex(compareIndex); // updates the comparison
        else if (viewMode() == ViewMode::Compare && m_compareWith->currentData().toString() != compareLocation)
            updateCompare();
        return;
    }

    m_tensor.reset();
    ++m_openSerial;
    m_slice->clear();
    m_tableModel->setTensor({});
    m_heatmap->setTensor({});
    m_stats->clear();
    m_compare->clear();
    m_compareWith->clear();
    m_header->clear();
    m_message->setVisible(false);
    if (keptSeries >= 0) {
        // The shown step is gone (the summary's reservoir let it go): the nearest step of the same tensor.
        const models::tensor::TensorSeries& s = m_catalog->series()[keptSeries];
        int nearest = int(s.versions.size()) - 1;
        for (int v = 0; v < s.versions.size(); ++v)
            if (std::abs(qint64(s.versions[v].step) - shownStep)
                < std::abs(qint64(s.versions[nearest].step) - shownStep))
                nearest = v;
        showSeries(keptSeries, nearest);
    } else if (!empty) {
        showSeries(0, int(m_catalog->series().first().versions.size()) - 1);
    }
    updateStepControls();
}

const models::tensor::TensorInfo* TensorPanel::currentInfo() const
{
    if (!m_catalog || m_series < 0 || m_series >= m_catalog->series().size())
        return nullptr;
    const models::tensor::TensorSeries& s = m_catalog->series()[m_series];
    return m_version >= 0 && m_version < s.versions.size() ? &s.versions[m_version] : nullptr;
}

const models::tensor::TensorInfo* TensorPanel::infoAt(const QString& location) const
{
    if (!m_catalog)
        return nullptr;
    const auto [series, version] = m_catalog->findLocation(location);
    return series < 0 ? nullptr : &m_catalog->series()[series].versions[version];
}

QString TensorPanel::currentLocation() const
{
    const models::tensor::TensorInfo* info = currentInfo();
    return info ? info->location() : QString();
}

std::optional<models::tensor::Tensor> TensorPanel::currentView() const
{
    return m_tensor ? m_slice->view() : std::nullopt;
}

} // namespace runlens::widgets::tensor
