#include "traceinput.h"

#include <QCoreApplication>
#include <QFile>

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace runlens::trace {

namespace {

bool isGzip(const std::string& bytes)
{
    return bytes.size() >= 2 && std::uint8_t(bytes[0]) == 0x1f && std::uint8_t(bytes[1]) == 0x8b;
}

// Inflates every gzip member of `in` into one buffer with room for the padding.
TraceInput inflate(const std::string& in, const QString& name, Diagnostics& diagnostics)
{
    TraceInput result;
    result.compressed = true;
    auto out = std::make_shared<std::string>();
    // The trailer's ISIZE (size mod 2^32) is only a hint: trust it within a sane ratio of the input.
    std::size_t hint = in.size() * 4;
    if (in.size() >= 18) {
        std::uint32_t isize = 0;
        std::memcpy(&isize, in.data() + in.size() - 4, 4);
        if (isize >= in.size() && isize <= in.size() * std::size_t(1100))
            hint = isize;
    }
    out->resize(hint + TraceInput::kPadding);

    z_stream stream {};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
        diagnostics.append({ Severity::Error, name, -1, -1,
                             QCoreApplication::translate("runlens::ChromeTraceReader",
                                                         "Cannot initialise zlib to inflate the trace") });
        return {};
    }
    std::size_t produced = 0;
    std::size_t consumed = 0;
    bool failed = false;
    bool ended = false;
    while (consumed < in.size()) {
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + consumed));
        const std::size_t chunkIn = std::min<std::size_t>(in.size() - consumed, 1u << 30);
        stream.avail_in = uInt(chunkIn);
        if (out->size() - TraceInput::kPadding - produced < (1u << 16))
            out->resize(std::max(out->size() * 2, out->size() + (std::size_t(1) << 20)));
        const std::size_t room = std::min<std::size_t>(out->size() - TraceInput::kPadding - produced, 1u << 30);
        stream.next_out = reinterpret_cast<Bytef*>(out->data() + produced);
        stream.avail_out = uInt(room);
        const int rc = ::inflate(&stream, Z_NO_FLUSH);
        consumed += chunkIn - stream.avail_in;
        produced += room - stream.avail_out;
        if (rc == Z_STREAM_END) {
            ended = true;
            // Concatenated members (gzip allows them); trailing zero padding ends the data.
            std::size_t next = consumed;
            while (next < in.size() && in[next] == 0)
                ++next;
            if (next >= in.size() || std::uint8_t(in[next]) != 0x1f)
                break;
            consumed = next;
            ended = false;
            inflateReset(&stream);
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
    if (failed) {
        diagnostics.append(
            { Severity::Warning, name, qint64(consumed), -1,
              QCoreApplication::translate("runlens::ChromeTraceReader",
                                          "The gzip stream is truncated or corrupt; using the %1 bytes inflated so far")
                  .arg(produced) });
    }
    out->resize(produced + TraceInput::kPadding);
    std::fill(out->begin() + std::ptrdiff_t(produced), out->end(), ' ');
    if (out->capacity() > out->size() + out->size() / 8)
        out->shrink_to_fit();
    result.text = std::move(out);
    result.size = produced;
    return result;
}

} // namespace

TraceInput traceInputFromBytes(std::string bytes, const QString& name, Diagnostics& diagnostics)
{
    if (isGzip(bytes))
        return inflate(bytes, name, diagnostics);
    TraceInput result;
    result.size = bytes.size();
    bytes.append(TraceInput::kPadding, ' ');
    result.text = std::make_shared<std::string>(std::move(bytes));
    return result;
}

TraceInput readTraceInput(const QString& path, Diagnostics& diagnostics)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        diagnostics.append(
            { Severity::Error, path, -1, -1,
              QCoreApplication::translate("runlens::ChromeTraceReader",
                                          "Cannot open the trace: %1. Check that the file exists and is readable.")
                  .arg(file.errorString()) });
        return {};
    }
    const qint64 size = file.size();
    unsigned char magic[2] = { 0, 0 };
    const bool gzip = file.peek(reinterpret_cast<char*>(magic), 2) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;

    std::string bytes;
    // Read straight into the padded buffer when no inflation is needed: one copy of the file in memory.
    bytes.resize(std::size_t(size) + (gzip ? 0 : TraceInput::kPadding));
    qint64 done = 0;
    while (done < size) {
        const qint64 n = file.read(bytes.data() + done, size - done);
        if (n <= 0)
            break;
        done += n;
    }
    if (done < size) {
        diagnostics.append(
            { Severity::Warning, path, done, -1,
              QCoreApplication::translate("runlens::ChromeTraceReader", "The file could not be read completely") });
    }
    if (gzip) {
        bytes.resize(std::size_t(done));
        return inflate(bytes, path, diagnostics);
    }
    std::fill(bytes.begin() + done, bytes.end(), ' ');
    bytes.resize(std::size_t(done) + TraceInput::kPadding);
    TraceInput result;
    result.size = std::size_t(done);
    result.text = std::make_shared<std::string>(std::move(bytes));
    return result;
}

} // namespace runlens::trace
