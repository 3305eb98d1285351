#pragma once

#include "models/advisor/advisorinput.h"

#include <vector>

namespace runlens::models::scalars {
class ScalarStore;
}
namespace runlens::models::summary {
class SummaryStore;
}

namespace runlens::models::advisor {

/// Copies of the GUI thread's stores for an evaluation on a worker: the stores keep changing while a
/// run is tailed, the copies do not. Call on the thread that owns the store.
///
/// Every (run, tag) of the scalar store, runs and tags in the store's order, points in ascending step order.
std::vector<ScalarTrack> scalarTracks(const scalars::ScalarStore& store);
/// Every (run, tag) of the histogram summaries, in run then tag order, items in step order.
std::vector<HistogramTrack> histogramTracks(const summary::SummaryStore& store);

} // namespace runlens::models::advisor
