#pragma once

#include "importers/trace/eventscanner.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <vector>

namespace runlens::importers::trace {

// Hands scanned items from the scanning thread to the parsing thread in batches, so the two threads
// meet once per few thousand events. Bounded, so a fast scanner does not run far ahead in memory.
class ScanQueue final : public ScanSink
{
public:
    bool take(const ScanItem& item) override
    {
        m_filling.push_back(item);
        if (m_filling.size() < kBatch)
            return !m_stopped.load(std::memory_order_relaxed);
        return flush();
    }

    void finish()
    {
        flush();
        std::lock_guard lock(m_mutex);
        m_done = true;
        m_ready.notify_all();
    }

    /// Swaps the next batch into `batch`; false when the scan is over and every batch was taken.
    bool pop(std::vector<ScanItem>& batch)
    {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return !m_full.empty() || m_done; });
        if (m_full.empty())
            return false;
        batch.clear();
        m_spare.push_back(std::move(batch));
        batch = std::move(m_full.front());
        m_full.pop_front();
        m_room.notify_one();
        return true;
    }

    void stop()
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        m_room.notify_all();
    }

private:
    static constexpr std::size_t kBatch = 4096;
    static constexpr std::size_t kMaxBatches = 32;

    bool flush()
    {
        std::unique_lock lock(m_mutex);
        m_room.wait(lock, [this] { return m_full.size() < kMaxBatches || m_stopped; });
        if (m_stopped)
            return false;
        if (!m_filling.empty()) {
            m_full.push_back(std::move(m_filling));
            m_ready.notify_one();
        }
        if (!m_spare.empty()) {
            m_filling = std::move(m_spare.back());
            m_spare.pop_back();
        } else {
            m_filling = {};
        }
        m_filling.reserve(kBatch);
        return true;
    }

    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::condition_variable m_room;
    std::deque<std::vector<ScanItem>> m_full;
    std::vector<std::vector<ScanItem>> m_spare;
    std::vector<ScanItem> m_filling;
    std::atomic<bool> m_stopped { false };
    bool m_done = false;
};

} // namespace runlens::importers::trace
