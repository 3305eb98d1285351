#pragma once

#include "importers/core/importcontrol.h"

#include "models/core/diagnostic.h"
#include "models/trace/tracebuffer.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <string>

class QFile;

namespace runlens::importers {
class FileMapping;
}

namespace runlens::importers::trace {

/// The bytes of one trace file, inflated when gzip-compressed (detected by the 1f 8b magic, not the
/// name). A plain file is memory-mapped read-only (the buffer borrows the mapping: page cache the system
/// can drop, not a copy); a gzip file is inflated into the trace cache once and mapped from there when the
/// cache is on, else into memory. Files that cannot be mapped (pipes, special files) are read
/// progressively: openTraceInput() reserves the whole buffer (so pointers into it stay valid) and
/// readMore() fills it chunk by chunk, letting a parser start on the first chunks while the rest is read.
struct TraceInput
{
    TraceInput();
    ~TraceInput();
    TraceInput(TraceInput&&) noexcept;
    TraceInput& operator=(TraceInput&&) noexcept;

    std::shared_ptr<models::trace::TraceBuffer> buffer; ///< null when the file could not be opened
    bool compressed = false;
    std::unique_ptr<QFile> file; ///< still open while bytes remain to be read
    std::uint64_t expected = 0; ///< content size once fully read (the file size for plain files)
    bool truncatedRead = false; ///< the file ended before `expected` bytes (it shrank while read)
    std::shared_ptr<const FileMapping> mapping; ///< the mapping `buffer` borrows from, when mapped

    bool complete() const { return !file; }
    /// The mapped file shrank while it was read: part of the buffer reads as zeros.
    bool damaged() const;
    /// When damaged(), appends the "file changed" warning naming `name` (call after parsing the buffer).
    void reportDamage(models::Diagnostics& diagnostics, const QString& name) const;
    /// Lets the pages of [0, offset) of a mapped input leave memory (a parser is done with them).
    void releaseBefore(std::uint64_t offset) const;
};

/// Opens `path`: gzip files are inflated completely, plain files are only opened (read with readMore()).
/// On failure `buffer` is null and `diagnostics` says why; a truncated gzip stream yields what could be
/// inflated plus a warning. Inflation stops at the import budget of the compressed size (a gzip bomb keeps
/// what was inflated up to the limit, with an error naming it) and when `control` is canceled.
TraceInput openTraceInput(const QString& path, models::Diagnostics& diagnostics, const ImportControl& control = {});
/// Reads up to `chunk` more bytes of a progressively read input; returns how many. When the file is
/// exhausted (or shrank), closes it, seals the buffer and sets `truncatedRead` if it ended early.
std::size_t readMore(TraceInput& input, std::size_t chunk);
/// openTraceInput() followed by reading everything.
TraceInput readTraceInput(const QString& path, models::Diagnostics& diagnostics, const ImportControl& control = {});
/// Offsets into inflated content mean nothing in the compressed file: for a compressed `input`, the
/// diagnostics from index `first` on move their offset into the message ("at byte N of the inflated
/// content") and keep none, so every offset a diagnostic carries lies inside the file it names.
void placeInflatedOffsets(models::Diagnostics& diagnostics, qsizetype first, const TraceInput& input);
/// Wraps bytes already in memory (inflating them when they are gzip data).
TraceInput traceInputFromBytes(const std::string& bytes, const QString& name, models::Diagnostics& diagnostics,
                               const ImportControl& control = {});

} // namespace runlens::importers::trace
