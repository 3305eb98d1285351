#include "widgets/tensor/tensorpanel.h"

#include "models/tensor/tensorlistmodel.h"
#include "models/tensor/tensorslice.h"
#include "widgets/tensor/heatmapview.h"
#include "widgets/tensor/tensorcomparewidget.h"
#include "widgets/tensor/tensoropen.h"
#include "widgets/tensor/tensorstatswidget.h"
#include "widgets/tensor/tensortablemodel.h"

#include <QComboBox>
#include <QLabel>
#include <QPixmap>
#include <QPointer>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTabWidget>

#include <algorithm>

namespace runlens::widgets::tensor {

namespace {

/// Other tensors offered for comparison besides the series' own steps.
constexpr int kMaxCompareChoices = 200;

} // namespace

void TensorPanel::updateView()
{
    const std::optional<models::tensor::Tensor> view = currentView();
    if (!view) {
        m_tableModel->setTensor({});
        m_heatmap->setTensor({});
        return;
    }
    m_tableModel->setTensor(*view);
    const QList<std::pair<std::int64_t, std::int64_t>> origins = m_slice->viewOrigins();
    const auto rows = origins.value(0, { 0, 1 });
    const auto cols = origins.value(1, { 0, 1 });
    m_tableModel->setAxisOrigins(rows.first, rows.second, cols.first, cols.second);
    m_heatmap->setTensor(*view);
    // A new shape is fitted into the view; stepping through versions keeps the user's zoom.
    if (view->shape != m_heatmapShape) {
        m_heatmapShape = view->shape;
        m_heatmapNeedsFit = viewMode() != ViewMode::Heatmap;
        if (!m_heatmapNeedsFit)
            m_heatmap->zoomToFit();
    }
    m_stats->setSlice(*view);
    updateHeatmapRange();
    if (viewMode() == ViewMode::Compare)
        updateCompare();
}

void TensorPanel::updateHeatmapLegend()
{
    // The slice's range is only worth computing when the heatmap is in front; the tab switch asks again.
    if (viewMode() != ViewMode::Heatmap)
        return;
    const bool drawn = m_heatmap->rows() > 0 && m_heatmap->message().isEmpty();
    m_heatmapLegend->setVisible(drawn);
    if (drawn)
        m_heatmapLegend->setPixmap(QPixmap::fromImage(m_heatmap->colorLegend()));
    m_heatmapNote->setText(m_heatmap->message());
}

void TensorPanel::updateHeatmapRange()
{
    const bool global = m_scale->currentIndex() == 1;
    const QString location = currentLocation();
    const auto stats = global && m_cache && !location.isEmpty() ? m_cache->find(location) : std::nullopt;
    if (stats && stats->finite > 0) {
        m_heatmap->setFixedRange(stats->min, stats->max);
        m_heatmap->setScale(HeatmapView::Scale::Fixed);
    } else {
        m_heatmap->setScale(HeatmapView::Scale::Slice);
    }
    updateHeatmapLegend();
}

void TensorPanel::onWholeStatistics(const QString& location, const models::tensor::TensorStatistics& statistics)
{
    if (statistics.cancelled)
        return;
    m_listModel->setStatistics(location, statistics.nan + statistics.posInf + statistics.negInf > 0);
    if (location == currentLocation())
        updateHeatmapRange();
}

void TensorPanel::fillCompareChoices()
{
    const QSignalBlocker blocker(m_compareWith);
    m_compareWith->clear();
    const models::tensor::TensorInfo* info = currentInfo();
    if (!info || !m_tensor)
        return;
    const models::tensor::TensorSeries& s = m_catalog->series()[m_series];
    for (int v = 0; v < s.versions.size(); ++v) {
        if (v == m_version || s.versions[v].shape != m_tensor->shape)
            continue;
        m_compareWith->addItem(tr("step %1").arg(s.versions[v].step), s.versions[v].location());
    }
    // The previous step by default; the next one when this is the first.
    int preferred = -1;
    for (int i = 0; i < m_compareWith->count(); ++i)
        if (const models::tensor::TensorInfo* other = infoAt(m_compareWith->itemData(i).toString()))
            if (other->step < info->step)
                preferred = i;
    int others = 0;
    for (int i = 0; i < m_catalog->series().size() && others < kMaxCompareChoices; ++i) {
        if (i == m_series)
            continue;
        const models::tensor::TensorSeries& o = m_catalog->series()[i];
        for (const models::tensor::TensorInfo& version : o.versions) {
            if (version.shape != m_tensor->shape)
                continue;
            const QString label = version.step >= 0 ? tr("%1 (step %2)").arg(o.name).arg(version.step) : o.name;
            m_compareWith->addItem(label, version.location());
            if (++others >= kMaxCompareChoices)
                break;
        }
    }
    m_compareWith->setCurrentIndex(preferred >= 0 ? preferred : (m_compareWith->count() > 0 ? 0 : -1));
}

void TensorPanel::updateCompare()
{
    const models::tensor::TensorInfo* info = currentInfo();
    const std::optional<models::tensor::Tensor> view = currentView();
    const models::tensor::TensorInfo* other = infoAt(m_compareWith->currentData().toString());
    if (!info || !view || !other) {
        m_compare->clear();
        return;
    }
    const quint64 serial = ++m_compareSerial;
    const QString expression = m_slice->expression();
    const bool transposed = m_slice->isTransposed();
    const QString labelA = info->step >= 0 ? tr("step %1").arg(info->step) : m_catalog->series()[m_series].name;
    const QString labelB = m_compareWith->currentText();
    const models::tensor::Tensor a = *view;
    QPointer<TensorPanel> self(this);
    openSource(other->source, this, [=](const models::tensor::TensorResult& result) {
        if (!self || serial != self->m_compareSerial)
            return;
        if (!result.tensor) {
            self->m_compare->clear();
            emit self->statusMessage(result.error);
            return;
        }
        models::tensor::SliceResult sliced = models::tensor::sliceTensor(*result.tensor, expression);
        if (!sliced.tensor) {
            self->m_compare->clear();
            emit self->statusMessage(sliced.error);
            return;
        }
        models::tensor::Tensor b = std::move(*sliced.tensor);
        if (transposed && b.rank() == 2) {
            std::swap(b.shape[0], b.shape[1]);
            std::swap(b.strides[0], b.strides[1]);
        }
        self->m_compare->setTensors(a, labelA, b, labelB);
    });
}

void TensorPanel::compareTensors(const std::shared_ptr<const models::tensor::TensorSource>& a, const QString& labelA,
                                 const std::shared_ptr<const models::tensor::TensorSource>& b, const QString& labelB)
{
    if (!a || !b)
        return;
    // A later choice in the list (updateCompare) takes the serial and so wins over this one.
    const quint64 serial = ++m_compareSerial;
    m_pages->setCurrentIndex(1);
    setViewMode(ViewMode::Compare);
    QPointer<TensorPanel> self(this);
    openSource(a, this, [=](const models::tensor::TensorResult& first) {
        if (!self || serial != self->m_compareSerial)
            return;
        if (!first.tensor) {
            emit self->statusMessage(first.error);
            return;
        }
        const models::tensor::Tensor ta = *first.tensor;
        openSource(b, self, [=](const models::tensor::TensorResult& second) {
            if (!self || serial != self->m_compareSerial)
                return;
            if (!second.tensor) {
                emit self->statusMessage(second.error);
                return;
            }
            self->m_compare->setTensors(ta, labelA, *second.tensor, labelB);
        });
    });
}

void TensorPanel::setViewMode(ViewMode mode)
{
    m_tabs->setCurrentIndex(int(mode));
}

TensorPanel::ViewMode TensorPanel::viewMode() const
{
    return ViewMode(std::clamp(m_tabs->currentIndex(), 0, 2));
}

} // namespace runlens::widgets::tensor
