#include "widgets/tensor/tensorpanel.h"

#include "models/tensor/tensorlistmodel.h"
#include "widgets/tensor/heatmapview.h"
#include "widgets/tensor/tensorcomparewidget.h"
#include "widgets/tensor/tensoropen.h"
#include "widgets/tensor/tensorstatswidget.h"
#include "widgets/tensor/tensortablemodel.h"

#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QScopedValueRollback>
#include <QSlider>
#include <QStringList>
#include <QTreeView>

namespace runlens::widgets::tensor {

bool TensorPanel::showLocation(const QString& location)
{
    if (!m_catalog)
        return false;
    auto [series, version] = m_catalog->findLocation(location);
    if (series < 0)
        std::tie(series, version) = m_catalog->findLocation(QDir::cleanPath(location));
    if (series < 0)
        return false;
    showSeries(series, version);
    return true;
}

bool TensorPanel::showNodeKey(const QString& key)
{
    if (!m_catalog)
        return false;
    const QList<int> matches = m_catalog->findNodeKey(key);
    if (matches.isEmpty())
        return false;
    const models::tensor::TensorSeries& s = m_catalog->series()[matches.first()];
    int version = int(s.versions.size()) - 1;
    if (const models::tensor::TensorInfo* info = currentInfo()) {
        for (int v = 0; v < s.versions.size(); ++v)
            if (s.versions[v].step == info->step)
                version = v;
    }
    showSeries(matches.first(), version);
    return true;
}

void TensorPanel::showSeries(int series, int version)
{
    if (!m_catalog || series < 0 || series >= m_catalog->series().size())
        return;
    const bool sameSeries = series == m_series;
    if (!sameSeries && m_series >= 0 && m_tensor)
        m_sliceStates.insert(m_series, m_slice->state());
    m_series = series;
    m_version = std::clamp(version, 0, int(m_catalog->series()[series].versions.size()) - 1);

    {
        // Select the row without reopening through onListCurrentChanged.
        const QScopedValueRollback<bool> selecting(m_selecting, true);
        QModelIndex row = m_filterModel->mapFromSource(m_listModel->indexOfSeries(series));
        if (!row.isValid()) {
            m_filter->clear(); // the filter hid it
            row = m_filterModel->mapFromSource(m_listModel->indexOfSeries(series));
        }
        m_list->setCurrentIndex(row);
        m_list->scrollTo(row);
        updateStepControls();
    }
    openCurrent(sameSeries);
}

void TensorPanel::setVersion(int index)
{
    if (m_series < 0 || index == m_version)
        return;
    showSeries(m_series, index);
}

void TensorPanel::onListCurrentChanged()
{
    if (m_selecting)
        return;
    const int series = m_filterModel->mapToSource(m_list->currentIndex())
                           .data(models::tensor::TensorListModel::SeriesIndexRole)
                           .toInt();
    if (series < 0 || series == m_series || !m_catalog)
        return;
    // Stay at the shown step when the new series has it.
    const models::tensor::TensorSeries& s = m_catalog->series()[series];
    int version = int(s.versions.size()) - 1;
    if (const models::tensor::TensorInfo* info = currentInfo())
        for (int v = 0; v < s.versions.size(); ++v)
            if (s.versions[v].step == info->step)
                version = v;
    showSeries(series, version);
}

void TensorPanel::updateStepControls()
{
    const QScopedValueRollback<bool> selecting(m_selecting, true);
    const int count = m_catalog && m_series >= 0 ? int(m_catalog->series()[m_series].versions.size()) : 0;
    m_stepBox->setVisible(count > 1);
    m_stepSlider->setRange(0, std::max(0, count - 1));
    m_stepSlider->setValue(std::max(0, m_version));
    const models::tensor::TensorInfo* info = currentInfo();
    m_stepLabel->setText(info ? tr("step %1 (%2 of %3)").arg(info->step).arg(m_version + 1).arg(count) : QString());
}

void TensorPanel::openCurrent(bool keepSlice)
{
    const models::tensor::TensorInfo* info = currentInfo();
    if (!info)
        return;
    const quint64 serial = ++m_openSerial;
    const QString location = info->location();
    updateHeader();
    if (info->source && !info->source->isImmediate())
        emit statusMessage(tr("Opening %1…").arg(location));
    QPointer<TensorPanel> self(this);
    openSource(info->source, this, [self, serial, keepSlice](const models::tensor::TensorResult& result) {
        if (self && serial == self->m_openSerial)
            self->applyOpened(result, keepSlice);
    });
    emit currentLocationChanged(location);
}

void TensorPanel::applyOpened(const models::tensor::TensorResult& result, bool keepSlice)
{
    const models::tensor::TensorInfo* info = currentInfo();
    if (!info)
        return;
    if (!result.tensor) {
        m_tensor.reset();
        // Importers name the file in their messages; a message that does not gets the location.
        if (result.error.isEmpty())
            showMessage(tr("Cannot open %1.").arg(info->location()));
        else if (!result.error.contains(info->path))
            showMessage(tr("Cannot open %1: %2").arg(info->location(), result.error));
        else
            showMessage(result.error);
        m_slice->clear();
        m_tableModel->setTensor({});
        m_heatmap->setTensor({});
        m_stats->clear();
        m_compare->clear();
        updateHeader();
        emit statusMessage(m_message->text());
        return;
    }
    showMessage({});
    const bool sameShape = m_tensor && m_tensor->shape == result.tensor->shape;
    m_tensor = result.tensor;
    if (keepSlice && sameShape) {
        m_slice->setTensor(*m_tensor, true);
    } else {
        m_slice->setTensor(*m_tensor);
        const auto saved = m_sliceStates.constFind(m_series);
        if (saved != m_sliceStates.constEnd())
            m_slice->setState(*saved);
    }
    m_stats->setWhole(info->location(), *m_tensor);
    updateHeader();
    fillCompareChoices();
    updateView();
}

void TensorPanel::showMessage(const QString& message)
{
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

void TensorPanel::setNodeLinksEnabled(bool enabled)
{
    m_nodeLinks = enabled;
    updateHeader();
}

void TensorPanel::updateHeader()
{
    m_projectRows->setEnabled(m_tensor && m_tensor->rank() >= 2 && m_tensor->shape[0] >= 2);
    const models::tensor::TensorInfo* info = currentInfo();
    if (!info) {
        m_header->clear();
        return;
    }
    const models::tensor::TensorSeries& s = m_catalog->series()[m_series];
    QStringList lines;
    QString title = QStringLiteral("<b>%1</b>").arg(s.name.toHtmlEscaped());
    // The graph node or module the tensor belongs to, one click away when a graph is open.
    if (!s.nodeKey.isEmpty() && m_nodeLinks)
        title += QStringLiteral(" &nbsp; <a href='node'>%1</a>")
                     .arg(tr("Show %1 in the graph").arg(s.nodeKey).toHtmlEscaped());
    lines << title;
    const std::vector<std::int64_t>& shape = m_tensor ? m_tensor->shape : info->shape;
    QString type
        = tr("%1 %2").arg(QLatin1String(models::tensor::dtypeName(info->dtype)), models::tensor::shapeText(shape));
    if (m_tensor) {
        type += tr(" · strides %1 bytes").arg(models::tensor::shapeText(m_tensor->strides));
        if (m_tensor->swap)
            type += tr(" · byte-swapped");
    }
    type += tr(" · %1").arg(models::tensor::TensorListModel::humanBytes(info->byteSize));
    if (!s.kind.isEmpty())
        type += tr(" · %1").arg(s.kind);
    if (info->step >= 0)
        type += tr(" · step %1").arg(info->step);
    lines << type.toHtmlEscaped();
    QString file = info->path;
    if (models::tensor::SummaryTensorSet::isSummaryTensor(*info))
        file = tr("summary file %1, tag %2").arg(info->path, models::tensor::SummaryTensorSet::tagOf(*info));
    else if (!info->member.isEmpty())
        file = tr("%1, member %2").arg(info->path, info->member);
    lines << file.toHtmlEscaped();
    if (!info->note.isEmpty())
        lines << QStringLiteral("<i>%1</i>").arg(info->note.toHtmlEscaped());
    if (info->fileMetadata) {
        // What the writer recorded about the file (safetensors `__metadata__`): a line, the rest on hover.
        QStringList pairs;
        for (auto it = info->fileMetadata->cbegin(); it != info->fileMetadata->cend(); ++it)
            pairs << QStringLiteral("%1 = %2").arg(it.key(), it.value());
        const QString all = pairs.join(QStringLiteral(", "));
        lines << tr("File metadata: %1")
                     .arg(m_header->fontMetrics().elidedText(all, Qt::ElideRight, 600))
                     .toHtmlEscaped();
        m_header->setToolTip(info->location() + QLatin1Char('\n') + pairs.join(QLatin1Char('\n')));
    }
    m_header->setText(lines.join(QStringLiteral("<br>")));
    if (!info->fileMetadata)
        m_header->setToolTip(info->location());
}

} // namespace runlens::widgets::tensor
