#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace runlens {

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

    const std::byte* data() const { return m_data; }
    std::int64_t size() const { return m_size; }
    const QString& path() const { return m_path; }
    /// The file shrank while mapped: some bytes read as zeros instead of the file's content.
    bool damaged() const;
    /// "PATH: the file changed while it was read (…)": the message for a damaged mapping.
    QString damageMessage() const;

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

} // namespace runlens
