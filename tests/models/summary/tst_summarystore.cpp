#include "models/summary/summarystore.h"

#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <vector>

using namespace runlens;
using namespace runlens::models::summary;

Q_DECLARE_METATYPE(runlens::models::summary::SummaryKind)

namespace {

Histogram histogram(qint64 step, double count)
{
    Histogram h;
    h.step = step;
    h.wallTime = 1000.0 + double(step);
    h.buckets.push_back(HistogramBucket { 0.0, 1.0, count });
    h.count = count;
    return h;
}

HistogramSeries histograms(const QString& tag, const std::vector<qint64>& steps, const QString& plugin = {})
{
    HistogramSeries series;
    series.tag = tag;
    series.metadata.pluginName = plugin;
    for (const qint64 step : steps)
        series.items.push_back(histogram(step, double(step)));
    series.seen = qint64(steps.size());
    return series;
}

TextSeries texts(const QString& tag, qint64 step, const QString& text)
{
    TextSeries series;
    series.tag = tag;
    SummaryText item;
    item.step = step;
    item.cells = QStringList { text };
    series.items.push_back(item);
    series.seen = 1;
    return series;
}

template<typename Item> std::vector<qint64> stepsOf(const SummarySeries<Item>& series)
{
    std::vector<qint64> steps;
    for (const Item& item : series.items)
        steps.push_back(item.step);
    return steps;
}

SummaryBatch batchOf(HistogramSeries series)
{
    SummaryBatch batch;
    batch.histograms.push_back(std::move(series));
    return batch;
}

RunLineage trainLineage(const QString& optimizer)
{
    RunLineage lineage;
    lineage.train.emplace();
    lineage.train->optimizer = optimizer;
    lineage.train->batchSize = 32;
    return lineage;
}

const QString kRun = QStringLiteral("run1");

} // namespace

// The run-wide store of summary data beyond scalars: per-file replacement, merging of a run's files in
// step order, hyper-parameters and lineage, and the signals the panels listen to.
class TestSummaryStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<runlens::models::summary::SummaryKind>(); }

    void emptyStore()
    {
        SummaryStore store;
        QVERIFY(store.runs().isEmpty());
        QVERIFY(store.histograms(kRun, QStringLiteral("w")).items.empty());
        QVERIFY(store.hparams(kRun).isEmpty());
        QVERIFY(store.lineage(kRun).isEmpty());
        QSignalSpy structure(&store, &SummaryStore::structureChanged);
        QSignalSpy series(&store, &SummaryStore::seriesChanged);
        // An empty batch changes nothing and says nothing.
        store.update(kRun, QStringLiteral("a"), SummaryBatch());
        QVERIFY(store.runs().isEmpty());
        QCOMPARE(structure.count(), 0);
        QCOMPARE(series.count(), 0);
    }

    void twoSourcesMergeInStepOrder()
    {
        SummaryStore store;
        HistogramSeries a = histograms(QStringLiteral("w"), { 0, 10, 20 }, QStringLiteral("histograms"));
        a.seen = 7;
        a.preempted = 2;
        HistogramSeries b = histograms(QStringLiteral("w"), { 5, 15 });
        b.seen = 4;
        store.update(kRun, QStringLiteral("file_a"), batchOf(a));
        store.update(kRun, QStringLiteral("file_b"), batchOf(b));
        const HistogramSeries merged = store.histograms(kRun, QStringLiteral("w"));
        QCOMPARE(merged.tag, QStringLiteral("w"));
        QCOMPARE(stepsOf(merged), (std::vector<qint64> { 0, 5, 10, 15, 20 }));
        // Each item is the one its file gave (the count carries the step).
        for (const Histogram& h : merged.items)
            QCOMPARE(h.count, double(h.step));
        QCOMPARE(merged.seen, 11);
        QCOMPARE(merged.preempted, 2);
        QCOMPARE(merged.metadata.pluginName, QStringLiteral("histograms"));
        QCOMPARE(store.runs(), QStringList { kRun });
        QCOMPARE(store.runs(SummaryKind::Histograms), QStringList { kRun });
        QVERIFY(store.runs(SummaryKind::Images).isEmpty());
        QCOMPARE(store.tags(SummaryKind::Histograms, kRun), QStringList { QStringLiteral("w") });
        QVERIFY(store.tags(SummaryKind::Texts, kRun).isEmpty());
    }

    void equalStepsKeepSourceOrder()
    {
        SummaryStore store;
        HistogramSeries a = histograms(QStringLiteral("w"), { 1, 2 });
        HistogramSeries b = histograms(QStringLiteral("w"), { 1 });
        b.items[0].count = 99.0;
        store.update(kRun, QStringLiteral("b_file"), batchOf(b));
        store.update(kRun, QStringLiteral("a_file"), batchOf(a));
        const HistogramSeries merged = store.histograms(kRun, QStringLiteral("w"));
        QCOMPARE(stepsOf(merged), (std::vector<qint64> { 1, 1, 2 }));
        // A stable merge: the file first in name order comes first at an equal step.
        QCOMPARE(merged.items[0].count, 1.0);
        QCOMPARE(merged.items[1].count, 99.0);
    }

    void laterBatchReplacesItsFileAndTagOnly()
    {
        SummaryStore store;
        SummaryBatch first = batchOf(histograms(QStringLiteral("w"), { 0, 10, 20 }, QStringLiteral("histograms")));
        first.histograms.push_back(histograms(QStringLiteral("b"), { 0 }));
        first.texts.push_back(texts(QStringLiteral("config"), 0, QStringLiteral("lr: 0.1")));
        store.update(kRun, QStringLiteral("file_a"), first);
        store.update(kRun, QStringLiteral("file_b"), batchOf(histograms(QStringLiteral("w"), { 5 })));

        // The next poll of file_a holds what its reservoir keeps now of "w" (no metadata: writers send it once).
        store.update(kRun, QStringLiteral("file_a"), batchOf(histograms(QStringLiteral("w"), { 20, 30 })));
        const HistogramSeries w = store.histograms(kRun, QStringLiteral("w"));
        QCOMPARE(stepsOf(w), (std::vector<qint64> { 5, 20, 30 }));
        QCOMPARE(w.metadata.pluginName, QStringLiteral("histograms"));
        // Tags the poll did not mention stay as they were.
        QCOMPARE(stepsOf(store.histograms(kRun, QStringLiteral("b"))), std::vector<qint64> { 0 });
        QCOMPARE(store.texts(kRun, QStringLiteral("config")).items.at(0).cells,
                 QStringList { QStringLiteral("lr: 0.1") });
        QCOMPARE(store.tags(SummaryKind::Histograms, kRun), (QStringList { QStringLiteral("b"), QStringLiteral("w") }));
    }

    void metadataFromTheFirstFileThatHasIt()
    {
        SummaryStore store;
        HistogramSeries withDisplay = histograms(QStringLiteral("w"), { 0 });
        withDisplay.metadata.displayName = QStringLiteral("weights");
        store.update(kRun, QStringLiteral("file_a"), batchOf(withDisplay));
        // A later poll with other metadata replaces it for that file.
        HistogramSeries other = histograms(QStringLiteral("w"), { 1 }, QStringLiteral("histograms"));
        store.update(kRun, QStringLiteral("file_a"), batchOf(other));
        QCOMPARE(store.histograms(kRun, QStringLiteral("w")).metadata.pluginName, QStringLiteral("histograms"));
        // A second file's metadata does not override the first file's.
        store.update(kRun, QStringLiteral("file_b"),
                     batchOf(histograms(QStringLiteral("w"), { 2 }, QStringLiteral("other_plugin"))));
        QCOMPARE(store.histograms(kRun, QStringLiteral("w")).metadata.pluginName, QStringLiteral("histograms"));
    }

    void signalsOfUpdates()
    {
        SummaryStore store;
        QSignalSpy structure(&store, &SummaryStore::structureChanged);
        QSignalSpy series(&store, &SummaryStore::seriesChanged);
        QSignalSpy parameters(&store, &SummaryStore::parametersChanged);

        SummaryBatch batch = batchOf(histograms(QStringLiteral("w"), { 0 }));
        batch.texts.push_back(texts(QStringLiteral("config"), 0, QStringLiteral("x")));
        store.update(kRun, QStringLiteral("a"), batch);
        QCOMPARE(structure.count(), 1);
        QCOMPARE(series.count(), 2);
        QCOMPARE(series[0][0].value<SummaryKind>(), SummaryKind::Histograms);
        QCOMPARE(series[0][1].toString(), kRun);
        QCOMPARE(series[0][2].toStringList(), QStringList { QStringLiteral("w") });
        QCOMPARE(series[1][0].value<SummaryKind>(), SummaryKind::Texts);
        QCOMPARE(series[1][2].toStringList(), QStringList { QStringLiteral("config") });
        QCOMPARE(parameters.count(), 0);

        // New values of a known tag: no structure change.
        store.update(kRun, QStringLiteral("a"), batchOf(histograms(QStringLiteral("w"), { 0, 1 })));
        QCOMPARE(structure.count(), 1);
        QCOMPARE(series.count(), 3);
        // A known tag from another file of the run: still no new tag.
        store.update(kRun, QStringLiteral("b"), batchOf(histograms(QStringLiteral("w"), { 2 })));
        QCOMPARE(structure.count(), 1);
        // A new tag is a structure change; so is a new run.
        store.update(kRun, QStringLiteral("a"), batchOf(histograms(QStringLiteral("v"), { 0 })));
        QCOMPARE(structure.count(), 2);
        store.update(QStringLiteral("run2"), QStringLiteral("c"), batchOf(histograms(QStringLiteral("w"), { 0 })));
        QCOMPARE(structure.count(), 3);
        QCOMPARE(series.last()[1].toString(), QStringLiteral("run2"));
        QCOMPARE(store.runs(), (QStringList { kRun, QStringLiteral("run2") }));
        QCOMPARE(store.allTags(SummaryKind::Histograms), (QStringList { QStringLiteral("v"), QStringLiteral("w") }));

        // Hyper-parameters: parametersChanged, and the first ones of a run change the structure.
        SummaryBatch withParameters;
        withParameters.hparams = HParams();
        withParameters.hparams->values.insert(QStringLiteral("lr"), 0.1);
        store.update(kRun, QStringLiteral("a"), withParameters);
        QCOMPARE(parameters.count(), 1);
        QCOMPARE(parameters[0][0].toString(), kRun);
        QCOMPARE(structure.count(), 4);
        QCOMPARE(series.count(), 6); // none for a batch without series
        store.update(kRun, QStringLiteral("a"), withParameters);
        QCOMPARE(parameters.count(), 2);
        QCOMPARE(structure.count(), 4);
    }

    void hparamsMergeOverFiles()
    {
        SummaryStore store;
        HParams experiment;
        experiment.hparamInfos << HParamInfo { QStringLiteral("lr"), {}, {}, QStringLiteral("float64"), {}, 0.0, 1.0 };
        MetricInfo metric;
        metric.tag = QStringLiteral("hparam/accuracy");
        experiment.metricInfos << metric;
        experiment.values.insert(QStringLiteral("lr"), 0.1);
        experiment.values.insert(QStringLiteral("optimizer"), QStringLiteral("SGD"));
        HParams session;
        session.values.insert(QStringLiteral("lr"), 0.2);
        session.values.insert(QStringLiteral("batch_size"), 64.0);
        session.status = QStringLiteral("success");
        session.endTime = 1700000000.0;

        SummaryBatch a;
        a.hparams = experiment;
        SummaryBatch b;
        b.hparams = session;
        store.update(kRun, QStringLiteral("events.1"), b);
        store.update(kRun, QStringLiteral("events.0"), a);
        const HParams merged = store.hparams(kRun);
        QCOMPARE(merged.hparamInfos.size(), 1);
        QCOMPARE(merged.hparamInfos[0].name, QStringLiteral("lr"));
        QCOMPARE(merged.metricInfos.size(), 1);
        QCOMPARE(merged.metricInfos[0].tag, QStringLiteral("hparam/accuracy"));
        // Files merge in name order: the later file's value of a shared key wins.
        QCOMPARE(merged.values.value(QStringLiteral("lr")).toDouble(), 0.2);
        QCOMPARE(merged.values.value(QStringLiteral("optimizer")).toString(), QStringLiteral("SGD"));
        QCOMPARE(merged.values.value(QStringLiteral("batch_size")).toDouble(), 64.0);
        QCOMPARE(merged.values.size(), 3);
        QCOMPARE(merged.status, QStringLiteral("success"));
        QCOMPARE(merged.endTime, 1700000000.0);
        QVERIFY(std::isnan(merged.startTime));
        QCOMPARE(store.runsWithParameters(), QStringList { kRun });

        // A later poll of a file replaces that file's hyper-parameters.
        HParams running;
        running.status = QStringLiteral("running");
        SummaryBatch c;
        c.hparams = running;
        store.update(kRun, QStringLiteral("events.1"), c);
        const HParams again = store.hparams(kRun);
        QCOMPARE(again.status, QStringLiteral("running"));
        QCOMPARE(again.values.value(QStringLiteral("lr")).toDouble(), 0.1);
        QVERIFY(!again.values.contains(QStringLiteral("batch_size")));
    }

    void lineageSetAndRemoved()
    {
        SummaryStore store;
        QSignalSpy structure(&store, &SummaryStore::structureChanged);
        QSignalSpy parameters(&store, &SummaryStore::parametersChanged);
        const QString run = QStringLiteral("ms_run");

        store.setLineage(run, trainLineage(QStringLiteral("Momentum")));
        QCOMPARE(store.runs(), QStringList { run });
        QCOMPARE(store.runsWithParameters(), QStringList { run });
        QCOMPARE(store.lineage(run).train->optimizer.value(), QStringLiteral("Momentum"));
        QCOMPARE(store.lineage(run).toVariantMap().value(QStringLiteral("batch_size")).toLongLong(), 32);
        QCOMPARE(structure.count(), 1);
        QCOMPARE(parameters.count(), 1);

        // A newer lineage replaces it: no structure change.
        store.setLineage(run, trainLineage(QStringLiteral("Adam")));
        QCOMPARE(store.lineage(run).train->optimizer.value(), QStringLiteral("Adam"));
        QCOMPARE(structure.count(), 1);
        QCOMPARE(parameters.count(), 2);

        // An empty lineage removes it, and the run with it when nothing else is left.
        store.setLineage(run, RunLineage());
        QVERIFY(store.lineage(run).isEmpty());
        QVERIFY(store.runs().isEmpty());
        QVERIFY(store.runsWithParameters().isEmpty());
        QCOMPARE(structure.count(), 2);
        QCOMPARE(parameters.count(), 3);
        // Removing what is not there says nothing.
        store.setLineage(run, RunLineage());
        QCOMPARE(structure.count(), 2);
        QCOMPARE(parameters.count(), 3);

        // A run with other data stays when its lineage goes.
        store.update(run, QStringLiteral("a"), batchOf(histograms(QStringLiteral("w"), { 0 })));
        store.setLineage(run, trainLineage(QStringLiteral("SGD")));
        store.setLineage(run, RunLineage());
        QCOMPARE(store.runs(), QStringList { run });
        QVERIFY(store.runsWithParameters().isEmpty());
    }

    void removeRunAndClear()
    {
        SummaryStore store;
        store.update(kRun, QStringLiteral("a"), batchOf(histograms(QStringLiteral("w"), { 0 })));
        store.update(QStringLiteral("run2"), QStringLiteral("b"), batchOf(histograms(QStringLiteral("x"), { 0 })));
        store.setLineage(QStringLiteral("run3"), trainLineage(QStringLiteral("SGD")));
        QCOMPARE(store.runs().size(), 3);

        QSignalSpy structure(&store, &SummaryStore::structureChanged);
        QSignalSpy cleared(&store, &SummaryStore::cleared);
        store.removeRun(kRun);
        QCOMPARE(structure.count(), 1);
        QCOMPARE(store.runs(), (QStringList { QStringLiteral("run2"), QStringLiteral("run3") }));
        QVERIFY(store.histograms(kRun, QStringLiteral("w")).items.empty());
        QCOMPARE(store.allTags(SummaryKind::Histograms), QStringList { QStringLiteral("x") });
        store.removeRun(QStringLiteral("no such run"));
        QCOMPARE(structure.count(), 1);

        store.clear();
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(structure.count(), 2);
        QVERIFY(store.runs().isEmpty());
        QVERIFY(store.runsWithParameters().isEmpty());
        QVERIFY(store.allTags(SummaryKind::Histograms).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSummaryStore)
#include "tst_summarystore.moc"
