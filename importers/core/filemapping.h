#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace runlens::importers {

/// A read-only memory mapping of part of a file that survives the file shrinking under it.
///
/// A training job that overwrites `latest.safetensors` or a dump while it is viewed truncates the file;
/// reading a mapped page past the new end raises SIGBUS, which would kill the process. Every mapping made
/// here is registered with one process-wide SIGBUS handler: a fault inside a registered mapping replaces
/// the rest of it with zero pages and marks it damaged, so the reader goes on, sees zeros, and reports the
/// file as changed (check damaged() after reading). Faults anywhere else keep their default meaning.
/// Thread safe; the mapping lives as long as the object.
class FileMapping
{
public:
    ~FileMapping();
    FileMapping(const FileMapping&) = delete;
    FileMapping& operator=(const FileMapping&) = delete;

    /// Maps `length` bytes of `path` from `offset` (length 0: to the end of the file). On failure returns null
    /// and sets `error` to a sentence naming the file.
    static std::unique_ptr<FileMapping> map(const QString& path, std::int64_t offset, std::int64_t length,
                                            QString& error);
    /// As map(), followed by at least `padding` readable zero bytes after the last mapped byte, for parsers
    /// that read a little past the end (simdjson); the file itself is never read past its end.
    static std::unique_ptr<FileMapping> mapPadded(const QString& path, std::int64_t offset, std::int64_t length,
                                                  std::size_t padding, QString& error);

    const std::byte* data() const { return m_data; }
    std::int64_t size() const { return m_size; }
    const QString& path() const { return m_path; }
    /// The file shrank while mapped: some bytes read as zeros instead of the file's content.
    bool damaged() const;
    /// "PATH: the file changed while it was read (…)": the message for a damaged mapping.
    QString damageMessage() const;

    /// The pages wholly inside [offset, offset + length) leave this process's memory; the bytes stay in the
    /// page cache and read back unchanged when touched again. Lets a single pass over a file larger than
    /// memory keep its resident size small.
    void release(std::int64_t offset, std::int64_t length) const;
    /// Tells the kernel the mapping is about to be read front to back (more read-ahead).
    void adviseSequential() const;

    /// How many registered mappings faulted since the program started (for tests).
    static int faultsHandled();

private:
    FileMapping() = default;

    QString m_path;
    void* m_base = nullptr; ///< page-aligned start of the mapping
    std::size_t m_length = 0; ///< bytes mapped from m_base
    const std::byte* m_data = nullptr;
    std::int64_t m_size = 0;
    int m_slot = -1;
};

/// Starts reading `path` into the page cache in the background and returns at once: for a file that will be read
/// next, so that the disk works while the one before is parsed. At most a few files are read ahead at a time
/// (a call beyond that does nothing), and a file that cannot be opened is left alone. Reads, never writes.
void prefetchFile(const QString& path);

} // namespace runlens::importers
