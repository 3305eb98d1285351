#pragma once

#include "models/accuracy/compareresult.h"
#include "models/core/profilerbundle.h"
#include "models/graph/graph.h"
#include "models/memory/memoryprofile.h"
#include "models/summary/summarydata.h"
#include "models/tensor/tensorcatalog.h"
#include "models/trace/tracestore.h"

#include <QString>

#include <memory>
#include <vector>

namespace runlens::models::advisor {

/// A scalar tag of one run, copied out of the ScalarStore so analysers can run off the GUI thread.
struct ScalarTrack
{
    QString run;
    QString tag;
    std::vector<qint64> steps; ///< ascending
    std::vector<double> values;
    std::vector<double> wallTimes; ///< seconds since the epoch; may be empty
};

/// A histogram tag of one run (weights, gradients, activations as summaries record them).
struct HistogramTrack
{
    QString run;
    QString tag;
    std::vector<summary::Histogram> items; ///< in step order
};

/// A profiler trace: one file, or several ranks of one run read into one store (one source per rank).
struct TraceInput
{
    QString run;
    QString path; ///< the first source's file
    std::shared_ptr<const trace::TraceStore> store;
};

struct MemoryInput
{
    QString run;
    QString path;
    std::shared_ptr<const memory::MemoryProfile> profile;
};

struct ProfilerInput
{
    QString run;
    std::shared_ptr<const ProfilerBundle> bundle;
};

struct GraphInput
{
    QString run;
    QString path;
    std::shared_ptr<const graph::Graph> graph;
};

/// Everything loaded from a run folder that rules can read, as immutable snapshots. Missing sources are
/// simply empty: the rules over them are reported as not evaluated.
struct AdvisorInput
{
    QString root; ///< the opened folder
    std::vector<ScalarTrack> scalars;
    std::vector<HistogramTrack> histograms;
    /// Tensor dumps and files, plus summary tensors (TensorSummary, TensorBoard tensors) as series.
    std::shared_ptr<const tensor::TensorCatalog> tensors;
    std::vector<GraphInput> graphs;
    std::vector<TraceInput> traces;
    std::vector<MemoryInput> memory;
    std::vector<ProfilerInput> profilers;
    /// Two dumps compared op by op (the Accuracy panel, `runlens compare`); null when none was: the rules over a
    /// comparison are then not evaluated. Its findings name it in Scope::comparison.
    std::shared_ptr<const accuracy::CompareResult> comparison;

    bool isEmpty() const
    {
        return scalars.empty() && histograms.empty() && (!tensors || tensors->isEmpty()) && graphs.empty()
            && traces.empty() && memory.empty() && profilers.empty() && !comparison;
    }
};

} // namespace runlens::models::advisor
