#pragma once

#include <mutex>

namespace runlens::models::graph {

/// Graphviz (cgraph and gvc) keeps its state in process globals and is not reentrant: every caller in the
/// process, the dot importer as well as the graph layout worker, holds this lock around its Graphviz calls.
std::mutex& graphvizMutex();

} // namespace runlens::models::graph
