#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

namespace runlens::models::trace {

/// The bytes of one trace file as the importer holds them: `size()` bytes of content followed by at
/// least kPadding readable bytes (spaces once sealed), so SIMD parsers may read a little past the end.
/// Memory is not zero-filled before use (a 1 GB trace is not written twice); large buffers are mappings
/// of their own, returned to the system as soon as the store lets go of them. The trace store keeps the
/// buffer of each source for lazy `args` parsing. Growing may move the data: only grow a buffer before
/// anyone holds pointers into it.
class TraceBuffer
{
public:
    static constexpr std::size_t kPadding = 64;

    TraceBuffer() = default;
    /// Room for `capacity` content bytes (plus the padding), content size 0. On allocation failure the
    /// buffer stays empty with capacity 0.
    explicit TraceBuffer(std::size_t capacity);
    ~TraceBuffer();
    TraceBuffer(const TraceBuffer&) = delete;
    TraceBuffer& operator=(const TraceBuffer&) = delete;

    /// Wraps `size` read-only bytes owned elsewhere (a file mapping) followed by at least kPadding readable
    /// bytes; `owner` keeps them alive as long as the buffer. Such a buffer never grows and is never written:
    /// reserve() and append() fail, seal() and shrinkToFit() do nothing.
    static std::shared_ptr<TraceBuffer> wrap(const char* data, std::size_t size, std::shared_ptr<const void> owner);
    /// The bytes are borrowed from an owner (see wrap()).
    bool borrowed() const { return m_owner != nullptr; }
    const std::shared_ptr<const void>& owner() const { return m_owner; }

    char* data() { return m_data; }
    const char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_capacity; }
    std::string_view view() const { return { m_data, m_size }; }

    /// Makes room for `capacity` content bytes, keeping the content; false when memory is exhausted.
    bool reserve(std::size_t capacity);
    /// Sets the content size (<= capacity) after writing into data() directly.
    void setSize(std::size_t size);
    /// Appends bytes, growing geometrically; false when memory is exhausted.
    bool append(std::string_view bytes);
    /// Fills the padding after the content with spaces (call when the content is complete).
    void seal();
    /// Returns unused capacity to the system when it is large compared with the content.
    void shrinkToFit();

private:
    bool allocate(std::size_t capacity);
    void release();

    char* m_data = nullptr;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0;
    std::size_t m_mapped = 0; ///< bytes mapped with mmap, 0 when the block came from malloc
    std::shared_ptr<const void> m_owner; ///< set for borrowed bytes, which are never freed here
};

} // namespace runlens::models::trace
