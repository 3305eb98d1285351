#pragma once

#include <atomic>
#include <functional>

namespace runlens::models::embeddings {

/// What a long computation (PCA, neighbours, reductions) gets from whoever runs it: a way to report
/// progress (0..1000) and to learn that the user cancelled. Both may be empty.
struct OperationControl
{
    std::function<void(int permille)> progress;
    const std::atomic_bool* cancel = nullptr;

    bool canceled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(int permille) const
    {
        if (progress)
            progress(permille);
    }
};

} // namespace runlens::models::embeddings
