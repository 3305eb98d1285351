#pragma once

#include <atomic>
#include <functional>
#include <memory>

namespace runlens::models::trace {
class TraceStore;
}

namespace runlens::importers {

/// What a parsing core gets from whoever runs it: a way to report progress (0..1000) and to learn that
/// the user cancelled. Both may be empty. Cores check `canceled()` at least every few milliseconds.
struct ImportControl
{
    std::function<void(int permille)> progress;
    const std::atomic_bool* cancel = nullptr;
    /// A trace reader hands it immutable partial stores of what it has indexed so far (in file order,
    /// bounded in size) with the progress, at most every `snapshotIntervalMs`, from its own thread; the
    /// reader waits while it runs. Empty: no partial stores are made (they cost a copy).
    std::function<void(std::shared_ptr<const models::trace::TraceStore> partial, int permille)> traceSnapshot;
    int snapshotIntervalMs = 500;

    bool canceled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(int permille) const
    {
        if (progress)
            progress(permille);
    }
};

} // namespace runlens::importers
