#pragma once

#include "models/graph/graph.h"
#include "models/graph/scopetree.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace runlens::models::trace {
class TraceStore;
}

namespace runlens::models::graph {

/// Profiler time per graph node: the durations of the trace's op slices (host ops, device kernels,
/// collectives, MindSpore device ops) summed onto the nodes they name. A slice is matched, in order, by
/// its name against a node's full name or (unique) name, then by its `args.fullname` (parsed only for
/// slices whose name did not match, and only for kinds that can be ops), and last with MindSpore's `-opN`
/// suffix stripped from both sides when that leaves one candidate. Plain data; compute it on a worker.
struct GraphOverlay
{
    std::vector<std::int64_t> nodeTime; ///< ns per Graph::nodes index, 0 when unmatched
    std::int64_t matchedTime = 0; ///< ns of the slices charged to a node
    std::int64_t opTime = 0; ///< ns of every op-like slice of the trace
    int matchedNodes = 0; ///< nodes with time
    int strippedNodes = 0; ///< of those, nodes matched only with `-opN` stripped
    std::uint64_t matchedSlices = 0;
    std::uint64_t opSlices = 0;

    static GraphOverlay compute(const Graph& graph, const trace::TraceStore& store);

    /// Time per ScopeTree item: ops get their node's time (and their folded nodes'), containers the sum
    /// of the ops below them. The tree must be built from the same graph.
    std::vector<std::int64_t> itemTimes(const ScopeTree& tree) const;
    /// "42 of 120 nodes matched (3 without -opN), 81% of op time".
    QString summary(const Graph& graph) const;
};

/// Profiler time per item of one ScopeTree (GraphOverlay::itemTimes), shared with the views.
struct ItemProfile
{
    std::shared_ptr<const ScopeTree> tree;
    std::vector<std::int64_t> times; ///< ns per item of `tree`
    std::int64_t total = 0; ///< ns matched to the graph: the whole of which an item's share is taken
    QString summary; ///< GraphOverlay::summary

    /// The item's time when `forTree` is the tree this profile was made for, else 0.
    std::int64_t time(const ScopeTree* forTree, int item) const
    {
        if (forTree != tree.get() || item < 0 || std::size_t(item) >= times.size())
            return 0;
        return times[std::size_t(item)];
    }
    /// Builds the profile of `tree` from the trace (matching included): call it on a worker.
    static std::shared_ptr<const ItemProfile> compute(std::shared_ptr<const ScopeTree> tree,
                                                      const trace::TraceStore& store);
};

/// `Conv2D-op29` -> `Conv2D`, `a/b/Relu-op7` -> `a/b/Relu`; anything else unchanged.
std::string_view stripOpSuffix(std::string_view name);

} // namespace runlens::models::graph
