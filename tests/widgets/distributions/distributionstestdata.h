#pragma once

#include "models/summary/summarydata.h"
#include "models/summary/summarystore.h"

#include <QString>

#include <cmath>
#include <vector>

namespace runlens::test {

/// A bell-shaped histogram of 12 buckets of width 0.5 over [-3, 3], its centre moved by `shift`.
inline models::summary::Histogram bellHistogram(qint64 step, double shift)
{
    models::summary::Histogram h;
    h.step = step;
    h.wallTime = 1.7e9 + double(step) * 2.0;
    double total = 0.0;
    for (int k = 0; k < 12; ++k) {
        const double left = -3.0 + 0.5 * k;
        const double centre = left + 0.25;
        const double count = std::round(100.0 * std::exp(-(centre - shift) * (centre - shift) / 2.0));
        h.buckets.push_back({ left, left + 0.5, count });
        total += count;
    }
    h.count = total;
    h.min = -3.0;
    h.max = 3.0;
    return h;
}

/// The histogram whose percentiles the tests work out by hand: 2 values in [0, 1], 6 in [1, 2], 2 in [2, 4].
inline models::summary::Histogram handHistogram(qint64 step)
{
    models::summary::Histogram h;
    h.step = step;
    h.wallTime = 1.7e9 + double(step) * 2.0;
    h.buckets = { { 0.0, 1.0, 2.0 }, { 1.0, 2.0, 6.0 }, { 2.0, 4.0, 2.0 } };
    h.count = 10.0;
    h.min = 0.1;
    h.max = 3.9;
    h.sum = 16.0;
    h.sumSquares = 30.0;
    return h;
}

/// A series of `steps` histograms at steps 0, 5, 10, …; the one at `handStep` is handHistogram().
inline models::summary::HistogramSeries histogramSeries(const QString& tag, int steps, double drift,
                                                        qint64 handStep = -1)
{
    models::summary::HistogramSeries s;
    s.tag = tag;
    for (int i = 0; i < steps; ++i) {
        const qint64 step = qint64(i) * 5;
        s.items.push_back(step == handStep ? handHistogram(step) : bellHistogram(step, drift * i));
    }
    s.seen = steps;
    return s;
}

} // namespace runlens::test
