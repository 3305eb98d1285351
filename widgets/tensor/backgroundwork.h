#pragma once

#include <functional>

namespace runlens::widgets::tensor {

/// Runs `work` on a thread of its own at a lower scheduling priority (nice +10 on Linux) and waits for it.
/// Threads it starts inherit that priority, so a parallel computation over a whole tensor uses every
/// idle core yet yields them to the GUI thread whenever the user scrolls, hovers or switches tensors.
/// Called from a worker (a QtConcurrent task); the worker's own priority is left as it was.
void runAtBackgroundPriority(const std::function<void()>& work);

} // namespace runlens::widgets::tensor
