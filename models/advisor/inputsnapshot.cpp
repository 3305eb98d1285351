#include "models/advisor/inputsnapshot.h"

#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"

#include <algorithm>

namespace runlens::models::advisor {

std::vector<ScalarTrack> scalarTracks(const scalars::ScalarStore& store)
{
    std::vector<ScalarTrack> tracks;
    for (const QString& run : store.runs()) {
        QStringList tags = store.tagsOfRun(run);
        tags.sort();
        for (const QString& tag : std::as_const(tags)) {
            const scalars::ScalarSeries* series = store.series(run, tag);
            if (!series || series->points.empty())
                continue;
            std::vector<scalars::ScalarPoint> points = series->points;
            // Preemption keeps steps ascending; points of equal steps keep their file order.
            std::stable_sort(
                points.begin(), points.end(),
                [](const scalars::ScalarPoint& a, const scalars::ScalarPoint& b) { return a.step < b.step; });
            ScalarTrack track;
            track.run = run;
            track.tag = tag;
            track.steps.reserve(points.size());
            track.values.reserve(points.size());
            track.wallTimes.reserve(points.size());
            for (const scalars::ScalarPoint& point : points) {
                track.steps.push_back(point.step);
                track.values.push_back(point.value);
                track.wallTimes.push_back(point.wallTime);
            }
            tracks.push_back(std::move(track));
        }
    }
    return tracks;
}

std::vector<HistogramTrack> histogramTracks(const summary::SummaryStore& store)
{
    std::vector<HistogramTrack> tracks;
    for (const QString& run : store.runs(summary::SummaryKind::Histograms)) {
        for (const QString& tag : store.tags(summary::SummaryKind::Histograms, run)) {
            summary::HistogramSeries series = store.histograms(run, tag);
            if (series.items.empty())
                continue;
            std::stable_sort(series.items.begin(), series.items.end(),
                             [](const summary::Histogram& a, const summary::Histogram& b) { return a.step < b.step; });
            tracks.push_back(HistogramTrack { run, tag, std::move(series.items) });
        }
    }
    return tracks;
}

} // namespace runlens::models::advisor
