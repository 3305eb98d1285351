#include "models/summary/wavdecode.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstring>
#include <limits>

namespace runlens::models::summary::wav {

namespace {

constexpr quint16 kFormatPcm = 1;
constexpr quint16 kFormatFloat = 3;
constexpr quint16 kFormatExtensible = 0xFFFE;

/// The translation context of the decoder's messages.
struct WavTr
{
    Q_DECLARE_TR_FUNCTIONS(runlens::summary::wav)
};

quint16 u16(const char* p)
{
    return quint16(quint8(p[0]) | (quint8(p[1]) << 8));
}

quint32 u32(const char* p)
{
    return quint32(quint8(p[0])) | (quint32(quint8(p[1])) << 8) | (quint32(quint8(p[2])) << 16)
        | (quint32(quint8(p[3])) << 24);
}

bool isId(const char* p, const char (&id)[5])
{
    return std::memcmp(p, id, 4) == 0;
}

QString fourCc(const char* p)
{
    QString out;
    for (int i = 0; i < 4; ++i) {
        const char c = p[i];
        out += c >= 0x20 && c < 0x7F ? QChar::fromLatin1(c) : QChar(u'?');
    }
    return out;
}

} // namespace

QString readHeader(QByteArrayView bytes, Header* out)
{
    *out = Header();
    const qsizetype size = bytes.size();
    const char* data = bytes.data();
    if (size < 12)
        return WavTr::tr("%1 bytes are too short for a WAV header (12 bytes at least)").arg(size);
    if (!isId(data, "RIFF"))
        return isId(data, "RF64") ? WavTr::tr("RF64 (WAV over 4 GiB) is not supported")
                                  : WavTr::tr("the bytes do not begin with \"RIFF\" (a WAV file does)");
    if (!isId(data + 8, "WAVE"))
        return WavTr::tr("the RIFF file holds \"%1\", not \"WAVE\" audio").arg(fourCc(data + 8));

    // The RIFF size is not trusted (streaming writers leave it 0 or too large): chunks are walked over
    // the bytes that are present.
    qsizetype at = 12;
    bool haveFormat = false;
    int blockAlign = 0;
    while (at + 8 <= size) {
        const char* chunk = data + at;
        const quint32 chunkSize = u32(chunk + 4);
        const qsizetype body = at + 8;
        const qsizetype available = size - body;
        if (isId(chunk, "fmt ")) {
            if (chunkSize < 16 || qsizetype(chunkSize) > available)
                return WavTr::tr("the format chunk declares %1 bytes; 16 to %2 are possible here")
                    .arg(chunkSize)
                    .arg(std::max<qsizetype>(16, available));
            const char* f = data + body;
            quint16 tag = u16(f);
            out->channels = u16(f + 2);
            const quint32 rate = u32(f + 4);
            blockAlign = u16(f + 12);
            out->bitsPerSample = u16(f + 14);
            if (tag == kFormatExtensible) {
                if (chunkSize < 40)
                    return WavTr::tr("the extensible format chunk has %1 bytes, not the 40 it needs").arg(chunkSize);
                tag = u16(f + 24); // the sub-format GUID begins with the format tag
            }
            if (tag == kFormatPcm)
                out->format = SampleFormat::Pcm;
            else if (tag == kFormatFloat)
                out->format = SampleFormat::Float;
            else
                return WavTr::tr("the sample format %1 is not supported (only PCM and IEEE float are)").arg(tag);
            if (out->channels < 1 || out->channels > kMaxChannels)
                return WavTr::tr("%1 channels declared; 1 to %2 are supported").arg(out->channels).arg(kMaxChannels);
            if (rate < 1 || rate > quint32(kMaxSampleRate))
                return WavTr::tr("the sample rate %1 Hz is not possible").arg(rate);
            out->sampleRate = int(rate);
            const int bits = out->bitsPerSample;
            const bool bitsOk = out->format == SampleFormat::Pcm ? (bits == 8 || bits == 16 || bits == 24 || bits == 32)
                                                                 : (bits == 32 || bits == 64);
            if (!bitsOk)
                return out->format == SampleFormat::Pcm
                    ? WavTr::tr("%1-bit PCM is not supported (8, 16, 24 and 32 bits are)").arg(bits)
                    : WavTr::tr("%1-bit float samples are not supported (32 and 64 bits are)").arg(bits);
            if (blockAlign != out->channels * bits / 8)
                return WavTr::tr("the block size %1 does not match %2 channels of %3 bits")
                    .arg(blockAlign)
                    .arg(out->channels)
                    .arg(bits);
            haveFormat = true;
        } else if (isId(chunk, "data")) {
            if (!haveFormat)
                return WavTr::tr("the data chunk comes before the format chunk");
            qsizetype length = qsizetype(chunkSize);
            if (length > available) {
                out->truncated = true;
                length = available;
            }
            out->dataOffset = body;
            out->frames = length / blockAlign;
            return {};
        }
        // Chunks are padded to an even size.
        const qint64 next = qint64(body) + qint64(chunkSize) + (chunkSize & 1);
        if (next > size)
            break;
        at = qsizetype(next);
    }
    return haveFormat ? WavTr::tr("no data chunk was found") : WavTr::tr("no format chunk was found");
}

QString decode(QByteArrayView bytes, Clip* out)
{
    out->samples.clear();
    QString why = readHeader(bytes, &out->header);
    if (!why.isEmpty())
        return why;
    const Header& h = out->header;
    const qint64 count = h.frames * h.channels;
    out->samples.resize(size_t(count));
    const char* p = bytes.data() + h.dataOffset;
    float* dst = out->samples.data();
    const int width = h.bitsPerSample / 8;
    if (h.format == SampleFormat::Float) {
        for (qint64 i = 0; i < count; ++i, p += width) {
            if (width == 4) {
                float v;
                std::memcpy(&v, p, 4); // little-endian hosts only, as every target of RunLens
                dst[i] = v;
            } else {
                double v;
                std::memcpy(&v, p, 8);
                dst[i] = float(v);
            }
        }
        return {};
    }
    switch (width) {
    case 1:
        for (qint64 i = 0; i < count; ++i)
            dst[i] = float((int(quint8(p[i])) - 128) * (1.0 / 128.0));
        break;
    case 2:
        for (qint64 i = 0; i < count; ++i, p += 2)
            dst[i] = float(qint16(u16(p)) * (1.0 / 32768.0));
        break;
    case 3:
        for (qint64 i = 0; i < count; ++i, p += 3) {
            const qint32 v
                = qint32((quint32(quint8(p[0])) << 8) | (quint32(quint8(p[1])) << 16) | (quint32(quint8(p[2])) << 24))
                >> 8;
            dst[i] = float(v * (1.0 / 8388608.0));
        }
        break;
    case 4:
        for (qint64 i = 0; i < count; ++i, p += 4)
            dst[i] = float(qint32(u32(p)) * (1.0 / 2147483648.0));
        break;
    }
    return {};
}

} // namespace runlens::models::summary::wav
