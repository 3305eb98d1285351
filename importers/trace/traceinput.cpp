#include "importers/trace/traceinput.h"

#include "importers/core/filemapping.h"
#include "importers/core/importbudget.h"
#include "importers/trace/tracecache.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace runlens::importers::trace {

namespace {

bool isGzip(std::string_view bytes)
{
    return bytes.size() >= 2 && std::uint8_t(bytes[0]) == 0x1f && std::uint8_t(bytes[1]) == 0x8b;
}

// Inflates every gzip member of `in` into one buffer.
/// After a gzip member ended at `consumed`: starts the next one when another follows (gzip allows
/// concatenated members; trailing zero padding ends the data). False when the data is over.
bool startNextMember(std::string_view in, std::size_t& consumed, z_stream& stream)
{
    std::size_t next = consumed;
    while (next < in.size() && in[next] == 0)
        ++next;
    if (next >= in.size() || std::uint8_t(in[next]) != 0x1f)
        return false;
    consumed = next;
    inflateReset(&stream);
    return true;
}

TraceInput inflate(std::string_view in, const QString& name, models::Diagnostics& diagnostics,
                   const ImportControl& control)
{
    ImportBudget budget(qint64(in.size()));
    TraceInput result;
    result.compressed = true;
    auto out = std::make_shared<models::trace::TraceBuffer>();
    // The trailer's ISIZE (size mod 2^32) is only a hint: trust it within a sane ratio of the input.
    std::size_t hint = in.size() * 4;
    if (in.size() >= 18) {
        std::uint32_t isize = 0;
        std::memcpy(&isize, in.data() + in.size() - 4, 4);
        if (isize >= in.size() && isize <= in.size() * std::size_t(1100))
            hint = isize;
    }
    hint = std::min<std::size_t>(hint, std::size_t(budget.limits().maxBytes));
    if (!out->reserve(hint + 1)) {
        diagnostics.append(
            { models::Severity::Error, name, -1, -1,
              QCoreApplication::translate("runlens::ChromeTraceReader", "Not enough memory to inflate the trace") });
        return {};
    }

    z_stream stream {};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
        diagnostics.append({ models::Severity::Error, name, -1, -1,
                             QCoreApplication::translate("runlens::ChromeTraceReader",
                                                         "Cannot initialise zlib to inflate the trace") });
        return {};
    }
    std::size_t produced = 0;
    std::size_t consumed = 0;
    bool failed = false;
    bool ended = false;
    bool overBudget = false;
    bool canceled = false;
    while (consumed < in.size()) {
        if (control.canceled()) {
            canceled = true;
            break;
        }
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + consumed));
        const std::size_t chunkIn = std::min<std::size_t>(in.size() - consumed, 1u << 30);
        stream.avail_in = uInt(chunkIn);
        const std::size_t ceiling = std::size_t(budget.limits().maxBytes) + (std::size_t(1) << 20);
        if (out->capacity() - produced < (1u << 16)
            && !out->reserve(std::min(std::max(out->capacity() * 2, out->capacity() + (std::size_t(1) << 20)),
                                      std::max(ceiling, out->capacity() + (std::size_t(1) << 16))))) {
            failed = true;
            break;
        }
        // At most 16 MiB a round, so cancel and the budget are checked often.
        const std::size_t room = std::min<std::size_t>(out->capacity() - produced, std::size_t(16) << 20);
        stream.next_out = reinterpret_cast<Bytef*>(out->data() + produced);
        stream.avail_out = uInt(room);
        const int rc = ::inflate(&stream, Z_NO_FLUSH);
        consumed += chunkIn - stream.avail_in;
        produced += room - stream.avail_out;
        if (!budget.spendBytes(qint64(room - stream.avail_out))) {
            overBudget = true;
            break;
        }
        if (rc == Z_STREAM_END) {
            ended = !startNextMember(in, consumed, stream);
            if (ended)
                break;
            continue;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            failed = true;
            break;
        }
        if (rc == Z_BUF_ERROR && stream.avail_in == 0)
            break;
    }
    failed = failed || !ended;
    inflateEnd(&stream);
    if (overBudget) {
        diagnostics.append(budget.diagnostic(name, qint64(consumed)));
    } else if (canceled) {
        // The caller sees the cancel; nothing to say about the file.
    } else if (failed) {
        diagnostics.append(
            { models::Severity::Warning, name, qint64(consumed), -1,
              QCoreApplication::translate("runlens::ChromeTraceReader",
                                          "The gzip stream is truncated or corrupt; using the %1 bytes inflated so far")
                  .arg(produced) });
    }
    out->setSize(produced);
    out->shrinkToFit();
    out->seal();
    result.expected = produced;
    result.buffer = std::move(out);
    return result;
}

// An inflated cache entry ends with this trailer, so a damaged or foreign file is never taken for one.
constexpr char kInflatedMagic[8] = { 'R', 'L', 'I', 'N', 'F', 'L', '0', '1' };
struct InflatedTrailer
{
    char magic[8];
    std::uint64_t content;
    std::uint64_t compressed;
};
static_assert(sizeof(InflatedTrailer) == 24);

// Inflates every gzip member of `in` into `out` in chunks; true only when every member ended cleanly within
// the import budget and nothing was canceled (anything less is not cached: the in-memory path reports it).
bool inflateToFile(std::string_view in, QIODevice& out, const ImportControl& control, std::uint64_t& produced)
{
    ImportBudget budget(qint64(in.size()));
    z_stream stream {};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
        return false;
    std::vector<char> chunk(std::size_t(16) << 20);
    std::size_t consumed = 0;
    produced = 0;
    bool ended = false;
    bool ok = true;
    while (ok && consumed < in.size()) {
        if (control.canceled()) {
            ok = false;
            break;
        }
        const std::size_t chunkIn = std::min<std::size_t>(in.size() - consumed, 1u << 30);
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + consumed));
        stream.avail_in = uInt(chunkIn);
        stream.next_out = reinterpret_cast<Bytef*>(chunk.data());
        stream.avail_out = uInt(chunk.size());
        const int rc = ::inflate(&stream, Z_NO_FLUSH);
        consumed += chunkIn - stream.avail_in;
        const std::size_t made = chunk.size() - stream.avail_out;
        produced += made;
        if (!budget.spendBytes(qint64(made)) || out.write(chunk.data(), qint64(made)) != qint64(made)) {
            ok = false;
            break;
        }
        if (rc == Z_STREAM_END) {
            ended = !startNextMember(in, consumed, stream);
            if (ended)
                break;
            continue;
        }
        if (rc != Z_OK && !(rc == Z_BUF_ERROR && stream.avail_in > 0))
            ok = false;
    }
    inflateEnd(&stream);
    return ok && ended;
}

// Maps a complete inflated cache entry (content followed by its trailer); null when there is none or it is
// damaged.
std::shared_ptr<const FileMapping> mapInflated(const QString& entry, std::uint64_t compressedSize,
                                               std::uint64_t& content)
{
    if (!QFileInfo::exists(entry))
        return nullptr;
    QString error;
    std::shared_ptr<const FileMapping> mapping
        = FileMapping::mapPadded(entry, 0, 0, models::trace::TraceBuffer::kPadding, error);
    if (!mapping || mapping->size() < std::int64_t(sizeof(InflatedTrailer)))
        return nullptr;
    InflatedTrailer trailer {};
    std::memcpy(&trailer, mapping->data() + mapping->size() - std::int64_t(sizeof trailer), sizeof trailer);
    if (std::memcmp(trailer.magic, kInflatedMagic, sizeof kInflatedMagic) != 0
        || trailer.content != std::uint64_t(mapping->size()) - sizeof trailer || trailer.compressed != compressedSize
        || mapping->damaged())
        return nullptr;
    content = trailer.content;
    return mapping;
}

// The inflated content of gzip file `path` from the trace cache, inflating it there first when needed.
TraceInput inflateCached(const QString& path, std::string_view compressed, const ImportControl& control)
{
    models::trace::TraceCacheKey key;
    if (!TraceCache::keyOf(QStringList { path }, key))
        return {};
    const QString entry = TraceCache::entryPath(QStringLiteral("inflated"), key);
    std::uint64_t content = 0;
    auto mapping = mapInflated(entry, compressed.size(), content);
    if (!mapping) {
        // Written under a temporary name and renamed when complete: a crash leaves no partial entry.
        QDir().mkpath(QFileInfo(entry).absolutePath());
        QSaveFile file(entry);
        std::uint64_t produced = 0;
        if (!file.open(QIODevice::WriteOnly) || !inflateToFile(compressed, file, control, produced)) {
            file.cancelWriting();
            return {};
        }
        InflatedTrailer trailer {};
        std::memcpy(trailer.magic, kInflatedMagic, sizeof kInflatedMagic);
        trailer.content = produced;
        trailer.compressed = compressed.size();
        if (file.write(reinterpret_cast<const char*>(&trailer), sizeof trailer) != qint64(sizeof trailer)
            || !file.commit())
            return {};
        TraceCache::evict(entry);
        mapping = mapInflated(entry, compressed.size(), content);
        if (!mapping)
            return {};
    } else {
        TraceCache::touch(entry);
    }
    TraceInput result;
    result.compressed = true;
    result.expected = content;
    result.buffer = models::trace::TraceBuffer::wrap(reinterpret_cast<const char*>(mapping->data()),
                                                     std::size_t(content), mapping);
    result.mapping = std::move(mapping);
    return result;
}

} // namespace

bool TraceInput::damaged() const
{
    return mapping && mapping->damaged();
}

void TraceInput::reportDamage(models::Diagnostics& diagnostics, const QString& name) const
{
    if (damaged())
        diagnostics.append({ models::Severity::Warning, name, -1, -1, mapping->damageMessage() });
}

void TraceInput::releaseBefore(std::uint64_t offset) const
{
    if (mapping)
        mapping->release(0, std::int64_t(offset));
}

TraceInput::TraceInput() = default;
TraceInput::~TraceInput() = default;
TraceInput::TraceInput(TraceInput&&) noexcept = default;
TraceInput& TraceInput::operator=(TraceInput&&) noexcept = default;

TraceInput traceInputFromBytes(const std::string& bytes, const QString& name, models::Diagnostics& diagnostics,
                               const ImportControl& control)
{
    if (isGzip(bytes))
        return inflate(bytes, name, diagnostics, control);
    TraceInput result;
    auto buffer = std::make_shared<models::trace::TraceBuffer>(bytes.size());
    buffer->append(bytes);
    buffer->seal();
    result.expected = bytes.size();
    result.buffer = std::move(buffer);
    return result;
}

TraceInput openTraceInput(const QString& path, models::Diagnostics& diagnostics, const ImportControl& control)
{
    QString mapError;
    std::shared_ptr<const FileMapping> mapping
        = FileMapping::mapPadded(path, 0, 0, models::trace::TraceBuffer::kPadding, mapError);
    if (mapping) {
        const auto* data = reinterpret_cast<const char*>(mapping->data());
        const std::string_view bytes(data, std::size_t(mapping->size()));
        if (isGzip(bytes)) {
            if (TraceCache::enabled()) {
                TraceInput cached = inflateCached(path, bytes, control);
                if (cached.buffer)
                    return cached;
            }
            TraceInput inflated = inflate(bytes, path, diagnostics, control);
            if (mapping->damaged())
                diagnostics.append({ models::Severity::Warning, path, -1, -1, mapping->damageMessage() });
            return inflated;
        }
        mapping->adviseSequential();
        TraceInput result;
        result.expected = bytes.size();
        result.buffer = models::trace::TraceBuffer::wrap(data, bytes.size(), mapping);
        result.mapping = std::move(mapping);
        return result;
    }
    // Not mappable (a pipe, a special file): read it.
    auto file = std::make_unique<QFile>(path);
    if (!file->open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        diagnostics.append(
            { models::Severity::Error, path, -1, -1,
              QCoreApplication::translate("runlens::ChromeTraceReader",
                                          "Cannot open the trace: %1. Check that the file exists and is readable.")
                  .arg(file->errorString()) });
        return {};
    }
    const qint64 size = std::max<qint64>(file->size(), 0);
    char magic[2] = { 0, 0 };
    const bool gzip = file->read(magic, 2) == 2 && isGzip(std::string_view(magic, 2));
    file->seek(0);
    if (gzip) {
        std::string compressed(std::size_t(size), '\0');
        const qint64 n = file->read(compressed.data(), size);
        compressed.resize(std::size_t(std::max<qint64>(n, 0)));
        return inflate(compressed, path, diagnostics, control);
    }
    TraceInput result;
    result.buffer = std::make_shared<models::trace::TraceBuffer>(std::size_t(size));
    if (result.buffer->capacity() < std::size_t(size)) {
        diagnostics.append({ models::Severity::Error, path, -1, -1,
                             QCoreApplication::translate("runlens::ChromeTraceReader",
                                                         "Not enough memory to read the trace (%1 bytes)")
                                 .arg(size) });
        return {};
    }
    result.expected = std::uint64_t(size);
    result.file = std::move(file);
    if (size == 0)
        readMore(result, 1);
    return result;
}

std::size_t readMore(TraceInput& input, std::size_t chunk)
{
    if (!input.file || !input.buffer)
        return 0;
    models::trace::TraceBuffer& buffer = *input.buffer;
    const std::size_t want = std::min<std::size_t>(chunk, std::size_t(input.expected) - buffer.size());
    qint64 n = 0;
    if (want > 0) {
        n = input.file->read(buffer.data() + buffer.size(), qint64(want));
        if (n > 0)
            buffer.setSize(buffer.size() + std::size_t(n));
    }
    if (n <= 0 || buffer.size() >= input.expected) {
        input.truncatedRead = buffer.size() < input.expected;
        input.expected = buffer.size();
        input.file.reset();
        buffer.seal();
    }
    return std::size_t(std::max<qint64>(n, 0));
}

void placeInflatedOffsets(models::Diagnostics& diagnostics, qsizetype first, const TraceInput& input)
{
    if (!input.compressed)
        return;
    for (qsizetype i = std::max<qsizetype>(first, 0); i < diagnostics.size(); ++i) {
        models::Diagnostic& d = diagnostics[i];
        if (d.offset < 0)
            continue;
        d.message = QCoreApplication::translate("runlens::ChromeTraceReader", "At byte %1 of the inflated content: %2")
                        .arg(d.offset)
                        .arg(d.message);
        d.offset = -1;
    }
}

TraceInput readTraceInput(const QString& path, models::Diagnostics& diagnostics, const ImportControl& control)
{
    TraceInput input = openTraceInput(path, diagnostics, control);
    while (!input.complete())
        readMore(input, std::size_t(64) << 20);
    // A mapped input is read by the caller's parser after this: it calls reportDamage() when done.
    if (input.truncatedRead) {
        diagnostics.append(
            { models::Severity::Warning, path, qint64(input.expected), -1,
              QCoreApplication::translate("runlens::ChromeTraceReader", "The file could not be read completely") });
    }
    return input;
}

} // namespace runlens::importers::trace
