#include "models/advisor/inputsnapshot.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models::advisor;
using namespace runlens::models::scalars;

namespace {

TagPoints points(const QString& tag, std::initializer_list<std::pair<qint64, double>> values)
{
    TagPoints out;
    out.tag = tag;
    for (const auto& [step, value] : values)
        out.points.push_back({ step, 1000.0 + double(step), value });
    return out;
}

models::summary::Histogram histogram(qint64 step, double min, double max)
{
    models::summary::Histogram h;
    h.step = step;
    h.min = min;
    h.max = max;
    h.count = 10;
    return h;
}

} // namespace

class TestInputSnapshot : public QObject
{
    Q_OBJECT
private slots:
    void copiesScalars()
    {
        ScalarStore store;
        store.append(QStringLiteral("b"),
                     { points(QStringLiteral("train/loss"), { { 0, 3.0 }, { 1, 2.0 }, { 2, 1.5 } }),
                       points(QStringLiteral("lr"), { { 0, 0.1 } }) });
        // A restart from step 1: TensorBoard's preemption drops the old steps 1 and 2.
        store.append(QStringLiteral("b"), { points(QStringLiteral("train/loss"), { { 1, 2.5 }, { 2, 2.25 } }) });
        store.append(QStringLiteral("a"), { points(QStringLiteral("train/loss"), { { 5, 7.0 } }) });

        const std::vector<ScalarTrack> tracks = scalarTracks(store);
        QCOMPARE(tracks.size(), std::size_t(3));
        QCOMPARE(tracks[0].run, QStringLiteral("a"));
        QCOMPARE(tracks[1].run, QStringLiteral("b"));
        QCOMPARE(tracks[1].tag, QStringLiteral("lr"));
        const ScalarTrack& loss = tracks[2];
        QCOMPARE(loss.tag, QStringLiteral("train/loss"));
        QCOMPARE(loss.steps, (std::vector<qint64> { 0, 1, 2 }));
        QCOMPARE(loss.values, (std::vector<double> { 3.0, 2.5, 2.25 }));
        QCOMPARE(loss.wallTimes, (std::vector<double> { 1000.0, 1001.0, 1002.0 }));
    }

    void copiesHistograms()
    {
        models::summary::SummaryStore store;
        models::summary::SummaryBatch batch;
        models::summary::HistogramSeries weights;
        weights.tag = QStringLiteral("weights/fc1");
        weights.items = { histogram(0, -1, 1), histogram(20, -2, 2) };
        batch.histograms.push_back(weights);
        store.update(QStringLiteral("run"), QStringLiteral("/runs/run/events.1"), batch);
        models::summary::SummaryBatch images;
        images.images.push_back(models::summary::ImageSeries { QStringLiteral("img"), {}, {}, 0, 0 });
        store.update(QStringLiteral("other"), QStringLiteral("/runs/other/events.1"), images);

        const std::vector<HistogramTrack> tracks = histogramTracks(store);
        QCOMPARE(tracks.size(), std::size_t(1));
        QCOMPARE(tracks[0].run, QStringLiteral("run"));
        QCOMPARE(tracks[0].tag, QStringLiteral("weights/fc1"));
        QCOMPARE(tracks[0].items.size(), std::size_t(2));
        QCOMPARE(tracks[0].items[1].step, qint64(20));
        QCOMPARE(tracks[0].items[1].max, 2.0);
    }
};

QTEST_GUILESS_MAIN(TestInputSnapshot)
#include "tst_inputsnapshot.moc"
