#pragma once

#include "core/diagnostic.h"

#include <QString>

#include <memory>
#include <string>

namespace runlens::trace {

/// The bytes of one trace file, inflated when gzip-compressed (detected by the 1f 8b magic, not the
/// name). `text` holds `size` bytes of content followed by kPadding spaces, so parsers that read a
/// little past the end stay inside the buffer. Shared, because the trace store keeps it for lazy args.
struct TraceInput
{
    static constexpr std::size_t kPadding = 64;
    std::shared_ptr<std::string> text;
    std::size_t size = 0;
    bool compressed = false;
};

/// Reads and, if needed, inflates `path`. On failure `text` is null and `diagnostics` says why; a
/// truncated gzip stream yields what could be inflated plus a warning.
TraceInput readTraceInput(const QString& path, Diagnostics& diagnostics);
/// Wraps bytes already in memory (inflating them when they are gzip data).
TraceInput traceInputFromBytes(std::string bytes, const QString& name, Diagnostics& diagnostics);

} // namespace runlens::trace
