#include "importers/core/filemapping.h"

#include <QCoreApplication>
#include <QFile>
#include <QLoggingCategory>

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <thread>

#include <csignal>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcFileMapping, "runlens.importers.mapping", QtWarningMsg)

namespace runlens::importers {

namespace {

// The signal handler reads this table without locks: each slot is a [begin, end) range published with
// release stores, and a fault flag the handler sets.
struct Slot
{
    std::atomic<std::uintptr_t> begin { 0 };
    std::atomic<std::uintptr_t> end { 0 };
    std::atomic_bool faulted { false };
};

constexpr int kSlots = 4096;
std::array<Slot, kSlots> g_slots;
std::atomic_int g_faults { 0 };
std::mutex g_registerMutex;
struct sigaction g_previous
{
};

void onSigbus(int signal, siginfo_t* info, void* context)
{
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (Slot& slot : g_slots) {
        const std::uintptr_t begin = slot.begin.load(std::memory_order_acquire);
        if (begin == 0 || address < begin || address >= slot.end.load(std::memory_order_acquire))
            continue;
        // Zero pages from the faulting page to the end of the mapping: the read that faulted is retried on
        // return and sees zeros, as does every later read past the file's new end.
        const auto pageSize = std::uintptr_t(sysconf(_SC_PAGESIZE));
        const std::uintptr_t page = address & ~(pageSize - 1);
        const std::uintptr_t end = slot.end.load(std::memory_order_acquire);
        void* replaced = mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (replaced != MAP_FAILED) {
            slot.faulted.store(true, std::memory_order_release);
            g_faults.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        break;
    }
    // Not one of ours: whatever handled SIGBUS before us (a sanitizer, a crash reporter) or the default.
    if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
        g_previous.sa_sigaction(signal, info, context);
        return;
    }
    if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN && g_previous.sa_handler) {
        g_previous.sa_handler(signal);
        return;
    }
    struct sigaction fallback
    {
    };
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(SIGBUS, &fallback, nullptr);
    // Returning retries the access, which now faults with the default action.
}

void installHandler()
{
    // A function-local static rather than std::call_once, whose thread-local state would make the program
    // need the dynamic loader's TLS entry point directly.
    static const bool installed = [] {
        struct sigaction action
        {
        };
        action.sa_sigaction = onSigbus;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGBUS, &action, &g_previous) != 0) {
            qCWarning(lcFileMapping) << "cannot install the SIGBUS handler for mapped files";
            return false;
        }
        return true;
    }();
    Q_UNUSED(installed);
}

int registerRange(std::uintptr_t begin, std::uintptr_t end)
{
    const std::lock_guard lock(g_registerMutex);
    for (int i = 0; i < kSlots; ++i) {
        if (g_slots[std::size_t(i)].begin.load(std::memory_order_relaxed) != 0)
            continue;
        Slot& slot = g_slots[std::size_t(i)];
        slot.faulted.store(false, std::memory_order_relaxed);
        slot.end.store(end, std::memory_order_release);
        slot.begin.store(begin, std::memory_order_release);
        return i;
    }
    return -1;
}

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::importers::FileMapping)
};

} // namespace

FileMapping::~FileMapping()
{
    if (m_slot >= 0) {
        const std::lock_guard lock(g_registerMutex);
        g_slots[std::size_t(m_slot)].begin.store(0, std::memory_order_release);
        g_slots[std::size_t(m_slot)].end.store(0, std::memory_order_release);
    }
    if (m_base)
        munmap(m_base, m_length);
}

std::unique_ptr<FileMapping> FileMapping::map(const QString& path, std::int64_t offset, std::int64_t length,
                                              QString& error)
{
    return mapPadded(path, offset, length, 0, error);
}

std::unique_ptr<FileMapping> FileMapping::mapPadded(const QString& path, std::int64_t offset, std::int64_t length,
                                                    std::size_t padding, QString& error)
{
    installHandler();
    const QByteArray native = QFile::encodeName(path);
    // O_NONBLOCK: a FIFO in a run folder must not block the reader; it is refused below as not a regular file.
    const int fd = ::open(native.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        error = Text::tr("%1: cannot open: %2").arg(path, QString::fromLocal8Bit(strerror(errno)));
        return nullptr;
    }
    struct stat info
    {
    };
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        error = Text::tr("%1: not a regular file").arg(path);
        return nullptr;
    }
    const std::int64_t fileSize = info.st_size;
    if (offset < 0 || offset > fileSize || length < 0 || length > fileSize - offset) {
        ::close(fd);
        error = Text::tr("%1: the file has %2 bytes; %3 bytes at offset %4 are beyond its end")
                    .arg(path)
                    .arg(fileSize)
                    .arg(length)
                    .arg(offset);
        return nullptr;
    }
    if (length == 0)
        length = fileSize - offset;
    std::unique_ptr<FileMapping> mapping(new FileMapping);
    mapping->m_path = path;
    mapping->m_size = length;
    if (length == 0 && padding == 0) {
        ::close(fd);
        return mapping;
    }
    const auto pageSize = std::int64_t(sysconf(_SC_PAGESIZE));
    const std::int64_t alignedOffset = offset - offset % pageSize;
    const std::size_t mapLength = std::size_t(length + (offset - alignedOffset));
    // With padding, an anonymous zero region long enough for the file and the padding is reserved first and
    // the file mapped over its start: the padding never lies on a file page past the end (which would fault).
    const std::size_t regionLength = padding > 0
        ? (mapLength + padding + std::size_t(pageSize) - 1) / std::size_t(pageSize) * std::size_t(pageSize)
        : mapLength;
    void* base = nullptr;
    int mapErrno = 0;
    if (padding > 0) {
        base = mmap(nullptr, regionLength, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        mapErrno = errno;
        if (base != MAP_FAILED && mapLength > 0) {
            void* file = mmap(base, mapLength, PROT_READ, MAP_SHARED | MAP_FIXED, fd, off_t(alignedOffset));
            mapErrno = errno;
            if (file == MAP_FAILED) {
                munmap(base, regionLength);
                base = MAP_FAILED;
            }
        }
    } else {
        base = mmap(nullptr, mapLength, PROT_READ, MAP_SHARED, fd, off_t(alignedOffset));
        mapErrno = errno;
    }
    ::close(fd);
    if (base == MAP_FAILED) {
        error
            = Text::tr("%1: cannot map the file into memory: %2").arg(path, QString::fromLocal8Bit(strerror(mapErrno)));
        return nullptr;
    }
    mapping->m_base = base;
    mapping->m_length = regionLength;
    mapping->m_data = static_cast<const std::byte*>(base) + (offset - alignedOffset);
    const auto begin = reinterpret_cast<std::uintptr_t>(base);
    mapping->m_slot = registerRange(begin, begin + mapLength);
    if (mapping->m_slot < 0) {
        // More mappings than the table holds: unguarded would risk the process, so refuse this one.
        error = Text::tr("%1: too many files are mapped at once; close some tensors and try again").arg(path);
        return nullptr;
    }
    return mapping;
}

void FileMapping::release(std::int64_t offset, std::int64_t length) const
{
    if (!m_base || offset < 0 || length <= 0)
        return;
    const auto pageSize = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const auto dataBegin = reinterpret_cast<std::uintptr_t>(m_data);
    const std::uintptr_t from = (dataBegin + std::uintptr_t(offset) + pageSize - 1) & ~(pageSize - 1);
    const std::uintptr_t to = (dataBegin + std::uintptr_t(std::min(offset + length, m_size))) & ~(pageSize - 1);
    if (to > from)
        madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

void FileMapping::adviseSequential() const
{
    if (m_base)
        madvise(m_base, m_length, MADV_SEQUENTIAL);
}

bool FileMapping::damaged() const
{
    return m_slot >= 0 && g_slots[std::size_t(m_slot)].faulted.load(std::memory_order_acquire);
}

QString FileMapping::damageMessage() const
{
    return Text::tr("%1: the file shrank or was replaced while it was read; values past its new end read as zeros. "
                    "Open it again to see its current content.")
        .arg(m_path);
}

int FileMapping::faultsHandled()
{
    return g_faults.load(std::memory_order_relaxed);
}

namespace {

/// The readahead window of the block device holding a file (`read_ahead_kb` of the device, or of the disk a
/// partition is on), at least 128 KiB, the kernel's default.
off_t readaheadWindow(dev_t device)
{
    constexpr off_t kDefault = off_t(128) << 10;
    const QString base = QStringLiteral("/sys/dev/block/%1:%2/").arg(major(device)).arg(minor(device));
    for (const char* file : { "queue/read_ahead_kb", "../queue/read_ahead_kb" }) {
        QFile sysfs(base + QLatin1String(file));
        if (sysfs.open(QIODevice::ReadOnly)) {
            bool ok = false;
            const qint64 kb = sysfs.readAll().trimmed().toLongLong(&ok);
            if (ok && kb > 0)
                return std::max(kDefault, off_t(std::min<qint64>(kb, 64 << 10)) << 10);
        }
    }
    return kDefault;
}

} // namespace

void prefetchFile(const QString& path)
{
    // The advice can wait for the block queue while it submits a large file's reads: it runs on a thread of its
    // own so that the caller goes on parsing. Bounded, because each such thread holds a descriptor.
    static std::atomic<int> running { 0 };
    constexpr int kMaxRunning = 4;
    if (path.isEmpty() || running.fetch_add(1) >= kMaxRunning) {
        --running;
        return;
    }
    std::thread([name = QFile::encodeName(path)] {
        const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC);
        struct stat st {};
        if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            // The kernel reads at most the device's readahead window per piece of advice: the file is advised
            // one window at a time, each piece read while the next is asked for.
            const off_t piece = readaheadWindow(st.st_dev);
            for (off_t offset = 0; offset < st.st_size; offset += piece)
                ::posix_fadvise(fd, offset, piece, POSIX_FADV_WILLNEED);
        }
        if (fd >= 0)
            ::close(fd);
        --running;
    }).detach();
}

} // namespace runlens::importers
