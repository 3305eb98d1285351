#include "models/summary/summarystore.h"

#include "models/core/runmanifest.h"

#include <algorithm>

namespace runlens::models::summary {

namespace {

template<typename Item> using PerTag = QMap<QString, QMap<QString, SummarySeries<Item>>>; // tag -> source -> series

template<typename Item> SummarySeries<Item> merged(const PerTag<Item>& tags, const QString& tag)
{
    SummarySeries<Item> result;
    const auto found = tags.constFind(tag);
    if (found == tags.constEnd())
        return result;
    result.tag = tag;
    bool metadataTaken = false;
    for (const SummarySeries<Item>& series : *found) {
        if (!metadataTaken && !series.metadata.pluginName.isEmpty()) {
            result.metadata = series.metadata;
            metadataTaken = true;
        }
        result.items.insert(result.items.end(), series.items.begin(), series.items.end());
        result.seen += series.seen;
        result.preempted += series.preempted;
    }
    if (found->size() > 1) {
        std::stable_sort(result.items.begin(), result.items.end(),
                         [](const Item& a, const Item& b) { return a.step < b.step; });
    }
    return result;
}

template<typename Item>
QStringList take(PerTag<Item>& tags, const QString& source, const std::vector<SummarySeries<Item>>& batch, bool* added)
{
    QStringList changed;
    for (const SummarySeries<Item>& series : batch) {
        auto tag = tags.find(series.tag);
        if (tag == tags.end()) {
            tag = tags.insert(series.tag, {});
            *added = true;
        }
        auto& slot = (*tag)[source];
        const scalars::TagMetadata metadata = slot.metadata;
        slot = series;
        // Writers attach metadata to a tag's first value only; a later batch without it keeps the first.
        if (slot.metadata.pluginName.isEmpty() && slot.metadata.displayName.isEmpty())
            slot.metadata = metadata;
        changed << series.tag;
    }
    return changed;
}

void mergeInto(HParams& into, const HParams& from)
{
    if (!from.experimentName.isEmpty())
        into.experimentName = from.experimentName;
    if (!from.experimentDescription.isEmpty())
        into.experimentDescription = from.experimentDescription;
    if (!from.hparamInfos.isEmpty())
        into.hparamInfos = from.hparamInfos;
    if (!from.metricInfos.isEmpty())
        into.metricInfos = from.metricInfos;
    for (auto it = from.values.constBegin(); it != from.values.constEnd(); ++it)
        into.values.insert(it.key(), it.value());
    if (!from.groupName.isEmpty())
        into.groupName = from.groupName;
    if (!from.modelUri.isEmpty())
        into.modelUri = from.modelUri;
    if (!std::isnan(from.startTime))
        into.startTime = from.startTime;
    if (!std::isnan(from.endTime))
        into.endTime = from.endTime;
    if (!from.status.isEmpty())
        into.status = from.status;
}

} // namespace

struct SummaryStore::Private
{
    struct Run
    {
        PerTag<Histogram> histograms;
        PerTag<SummaryImage> images;
        PerTag<SummaryText> texts;
        PerTag<SummaryAudio> audio;
        PerTag<PrCurve> prCurves;
        PerTag<PrCurve> rocCurves;
        PerTag<SummaryTensor> tensors;
        QMap<QString, HParams> hparams; ///< by source; merged in source name order
        std::optional<RunLineage> lineage;

        bool isEmpty() const
        {
            return histograms.isEmpty() && images.isEmpty() && texts.isEmpty() && audio.isEmpty() && prCurves.isEmpty()
                && rocCurves.isEmpty() && tensors.isEmpty() && hparams.isEmpty() && !lineage;
        }
        QStringList tags(SummaryKind kind) const
        {
            switch (kind) {
            case SummaryKind::Histograms:
                return histograms.keys();
            case SummaryKind::Images:
                return images.keys();
            case SummaryKind::Texts:
                return texts.keys();
            case SummaryKind::PrCurves:
                return prCurves.keys();
            case SummaryKind::RocCurves:
                return rocCurves.keys();
            case SummaryKind::Tensors:
                return tensors.keys();
            case SummaryKind::Audio:
                return audio.keys();
            }
            return {};
        }
    };

    QMap<QString, Run> runs;

    const Run* run(const QString& name) const
    {
        const auto found = runs.constFind(name);
        return found == runs.constEnd() ? nullptr : &*found;
    }
};

SummaryStore::SummaryStore(QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{ }

SummaryStore::~SummaryStore() = default;

QString SummaryStore::runDisplayName(const QString& run) const
{
    return m_root.isEmpty() ? run : runlens::models::runDisplayName(m_root, run);
}

void SummaryStore::update(const QString& run, const QString& source, const SummaryBatch& batch)
{
    if (batch.isEmpty())
        return;
    bool added = !d->runs.contains(run);
    Private::Run& data = d->runs[run];
    const QStringList histograms = take(data.histograms, source, batch.histograms, &added);
    const QStringList images = take(data.images, source, batch.images, &added);
    const QStringList texts = take(data.texts, source, batch.texts, &added);
    const QStringList audio = take(data.audio, source, batch.audio, &added);
    const QStringList prCurves = take(data.prCurves, source, batch.prCurves, &added);
    const QStringList rocCurves = take(data.rocCurves, source, batch.rocCurves, &added);
    const QStringList tensors = take(data.tensors, source, batch.tensors, &added);
    if (batch.hparams) {
        added = added || data.hparams.isEmpty();
        data.hparams.insert(source, *batch.hparams);
    }
    if (added)
        emit structureChanged();
    if (!histograms.isEmpty())
        emit seriesChanged(SummaryKind::Histograms, run, histograms);
    if (!images.isEmpty())
        emit seriesChanged(SummaryKind::Images, run, images);
    if (!texts.isEmpty())
        emit seriesChanged(SummaryKind::Texts, run, texts);
    if (!audio.isEmpty())
        emit seriesChanged(SummaryKind::Audio, run, audio);
    if (!prCurves.isEmpty())
        emit seriesChanged(SummaryKind::PrCurves, run, prCurves);
    if (!rocCurves.isEmpty())
        emit seriesChanged(SummaryKind::RocCurves, run, rocCurves);
    if (!tensors.isEmpty())
        emit seriesChanged(SummaryKind::Tensors, run, tensors);
    if (batch.hparams)
        emit parametersChanged(run);
}

void SummaryStore::setLineage(const QString& run, const RunLineage& lineage)
{
    if (lineage.isEmpty()) {
        const auto found = d->runs.find(run);
        if (found == d->runs.end() || !found->lineage)
            return;
        found->lineage.reset();
        if (found->isEmpty())
            d->runs.erase(found);
        emit structureChanged();
        emit parametersChanged(run);
        return;
    }
    const bool added = !d->runs.contains(run) || !d->runs[run].lineage;
    d->runs[run].lineage = lineage;
    if (added)
        emit structureChanged();
    emit parametersChanged(run);
}

void SummaryStore::removeRun(const QString& run)
{
    if (d->runs.remove(run) > 0)
        emit structureChanged();
}

void SummaryStore::clear()
{
    d->runs.clear();
    emit cleared();
    emit structureChanged();
}

QStringList SummaryStore::runs() const
{
    return d->runs.keys();
}

QStringList SummaryStore::runs(SummaryKind kind) const
{
    QStringList result;
    for (auto it = d->runs.constBegin(); it != d->runs.constEnd(); ++it) {
        if (!it->tags(kind).isEmpty())
            result << it.key();
    }
    return result;
}

QStringList SummaryStore::tags(SummaryKind kind, const QString& run) const
{
    const Private::Run* data = d->run(run);
    return data ? data->tags(kind) : QStringList();
}

QStringList SummaryStore::allTags(SummaryKind kind) const
{
    QStringList result;
    for (const Private::Run& data : d->runs)
        result += data.tags(kind);
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
}

HistogramSeries SummaryStore::histograms(const QString& run, const QString& tag) const
{
    const Private::Run* data = d->run(run);
    return data ? merged(data->histograms, tag) : HistogramSeries();
}

ImageSeries SummaryStore::images(const QString& run, const QString& tag) const
{
    const Private::Run* data = d->run(run);
    return data ? merged(data->images, tag) : ImageSeries();
}

TextSeries SummaryStore::texts(const QString& run, const QString& tag) const
{
    const Private::Run* data = d->run(run);
    return data ? merged(data->texts, tag) : TextSeries();
}

AudioSeries SummaryStore::audio(const QString& run, const QString& tag) const
{
    const Private::Run* data = d->run(run);
    return data ? merged(data->audio, tag) : AudioSeries();
}

PrCurveSeries SummaryStore::prCurves(const QString& run, const QString& tag) const
{
    const Private::Run* data = d->run(run);
    return data ? merged(data->prCurves, tag) : PrCurveSeries();
}

PrCurveSeries SummaryStore::rocCurves(const QString& run, const QString& tag) const
{
    const Private::Run* data = d->run(run);
    return data ? merged(data->rocCurves, tag) : PrCurveSeries();
}

TensorSeries SummaryStore::tensors(const QString& run, const QString& tag) const
{
    const Private::Run* data = d->run(run);
    return data ? merged(data->tensors, tag) : TensorSeries();
}

HParams SummaryStore::hparams(const QString& run) const
{
    HParams result;
    if (const Private::Run* data = d->run(run)) {
        for (const HParams& part : data->hparams)
            mergeInto(result, part);
    }
    return result;
}

QStringList SummaryStore::runsWithParameters() const
{
    QStringList result;
    for (auto it = d->runs.constBegin(); it != d->runs.constEnd(); ++it) {
        if (!it->hparams.isEmpty() || it->lineage)
            result << it.key();
    }
    return result;
}

RunLineage SummaryStore::lineage(const QString& run) const
{
    const Private::Run* data = d->run(run);
    return data && data->lineage ? *data->lineage : RunLineage();
}

} // namespace runlens::models::summary
