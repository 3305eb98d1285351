#include "models/trace/tracebuffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace runlens::models::trace {

namespace {

// Below this a plain heap block is cheaper than a mapping of its own.
constexpr std::size_t kMapThreshold = std::size_t(4) << 20;
// Mappings grow in steps of this, so appending byte by byte does not remap every time.
constexpr std::size_t kMapStep = std::size_t(2) << 20;

std::size_t roundUp(std::size_t n, std::size_t to)
{
    return (n + to - 1) / to * to;
}

} // namespace

TraceBuffer::TraceBuffer(std::size_t capacity)
{
    allocate(capacity);
}

TraceBuffer::~TraceBuffer()
{
    release();
}

std::shared_ptr<TraceBuffer> TraceBuffer::wrap(const char* data, std::size_t size, std::shared_ptr<const void> owner)
{
    auto buffer = std::make_shared<TraceBuffer>();
    // Never written through: data() is non-const only for buffers this class allocated.
    buffer->m_data = const_cast<char*>(data);
    buffer->m_size = size;
    buffer->m_capacity = size;
    buffer->m_owner = owner ? std::move(owner) : std::make_shared<int>(0);
    return buffer;
}

void TraceBuffer::release()
{
    if (m_owner)
        m_owner.reset();
    else if (m_mapped > 0)
        munmap(m_data, m_mapped);
    else
        std::free(m_data);
    m_data = nullptr;
    m_capacity = 0;
    m_mapped = 0;
    m_size = 0;
}

bool TraceBuffer::allocate(std::size_t capacity)
{
    const std::size_t bytes = capacity + kPadding;
    if (bytes < capacity)
        return false;
    if (bytes >= kMapThreshold) {
        const std::size_t length = roundUp(bytes, kMapStep);
        void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            m_data = static_cast<char*>(p);
            m_mapped = length;
            m_capacity = length - kPadding;
            return true;
        }
    }
    m_data = static_cast<char*>(std::malloc(bytes));
    if (!m_data)
        return false;
    m_capacity = capacity;
    return true;
}

bool TraceBuffer::reserve(std::size_t capacity)
{
    if (capacity <= m_capacity)
        return true;
    if (m_owner)
        return false;
    if (!m_data)
        return allocate(capacity);
    const std::size_t bytes = capacity + kPadding;
    if (m_mapped > 0) {
        const std::size_t length = roundUp(bytes, kMapStep);
        void* p = mremap(m_data, m_mapped, length, MREMAP_MAYMOVE);
        if (p == MAP_FAILED)
            return false;
        m_data = static_cast<char*>(p);
        m_mapped = length;
        m_capacity = length - kPadding;
        return true;
    }
    if (bytes >= kMapThreshold) {
        TraceBuffer bigger(capacity);
        if (!bigger.m_data)
            return false;
        std::memcpy(bigger.m_data, m_data, m_size);
        bigger.m_size = m_size;
        std::swap(m_data, bigger.m_data);
        std::swap(m_size, bigger.m_size);
        std::swap(m_capacity, bigger.m_capacity);
        std::swap(m_mapped, bigger.m_mapped);
        return true;
    }
    auto* p = static_cast<char*>(std::realloc(m_data, bytes));
    if (!p)
        return false;
    m_data = p;
    m_capacity = capacity;
    return true;
}

void TraceBuffer::setSize(std::size_t size)
{
    if (m_owner)
        return;
    m_size = std::min(size, m_capacity);
}

bool TraceBuffer::append(std::string_view bytes)
{
    if (m_owner)
        return bytes.empty();
    if (m_size + bytes.size() > m_capacity
        && !reserve(std::max(m_size + bytes.size(), m_capacity + m_capacity / 2 + 256)))
        return false;
    if (!bytes.empty())
        std::memcpy(m_data + m_size, bytes.data(), bytes.size());
    m_size += bytes.size();
    return true;
}

void TraceBuffer::seal()
{
    if (m_data && !m_owner)
        std::memset(m_data + m_size, ' ', kPadding);
}

void TraceBuffer::shrinkToFit()
{
    if (!m_data || m_owner || m_capacity - m_size < std::max<std::size_t>(m_size / 8, 4096))
        return;
    if (m_mapped > 0) {
        const std::size_t keep = roundUp(m_size + kPadding, std::size_t(sysconf(_SC_PAGESIZE)));
        if (keep < m_mapped) {
            munmap(m_data + keep, m_mapped - keep);
            m_mapped = keep;
            m_capacity = keep - kPadding;
        }
        return;
    }
    if (auto* p = static_cast<char*>(std::realloc(m_data, m_size + kPadding))) {
        m_data = p;
        m_capacity = m_size;
    }
}

} // namespace runlens::models::trace
