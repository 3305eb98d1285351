#include "tests/trust/wavhostile.h"

#include "models/summary/spectrogram.h"
#include "models/summary/wavdecode.h"

#include <QtEndian>

#include <cmath>

namespace runlens::test {

namespace {

/// The offset of a chunk's size field, or -1.
qsizetype chunkSizeAt(const QByteArray& bytes, const char* id)
{
    qsizetype at = 12;
    while (at + 8 <= bytes.size()) {
        const quint32 size = qFromLittleEndian<quint32>(bytes.constData() + at + 4);
        if (bytes.mid(at, 4) == id)
            return at + 4;
        at += 8 + qsizetype(size) + (size & 1);
    }
    return -1;
}

Mutation patch(const QByteArray& seed, const QString& name, qsizetype at, QByteArray value)
{
    return { name, [seed, at, value] {
                QByteArray out = seed;
                if (at >= 0 && at + value.size() <= out.size())
                    out.replace(at, value.size(), value);
                return out;
            } };
}

QByteArray le32(quint32 v)
{
    QByteArray out(4, '\0');
    qToLittleEndian(v, out.data());
    return out;
}

QByteArray le16(quint16 v)
{
    QByteArray out(2, '\0');
    qToLittleEndian(v, out.data());
    return out;
}

} // namespace

QString readWav(const QString& folder, const QByteArray& bytes)
{
    Q_UNUSED(folder)
    models::summary::wav::Clip clip;
    if (!models::summary::wav::decode(bytes, &clip).isEmpty())
        return {};
    const models::summary::wav::Header& h = clip.header;
    if (h.channels < 1 || h.channels > models::summary::wav::kMaxChannels || h.sampleRate < 1)
        return QStringLiteral("accepted %1 channels at %2 Hz").arg(h.channels).arg(h.sampleRate);
    if (h.dataOffset + h.frames * h.channels * (h.bitsPerSample / 8) > bytes.size())
        return QStringLiteral("%1 frames claimed beyond the %2 bytes").arg(h.frames).arg(bytes.size());
    if (qint64(clip.samples.size()) != h.frames * h.channels)
        return QStringLiteral("%1 samples for %2 frames").arg(clip.samples.size()).arg(h.frames);
    std::vector<float> mono(size_t(h.frames), 0.0f);
    for (qint64 f = 0; f < h.frames; ++f) {
        const float v = clip.sample(f, 0);
        if (h.format == models::summary::wav::SampleFormat::Pcm && (v < -1.0f || v >= 1.0f))
            return QStringLiteral("PCM sample %1 outside [-1, 1)").arg(v);
        mono[size_t(f)] = std::isfinite(v) ? v : 0.0f;
    }
    const models::summary::Spectrogram s
        = models::summary::computeSpectrogram(mono.data(), h.frames, h.sampleRate, 256, 64);
    if (h.frames > 0 && (s.frames < 1 || s.frames > 64))
        return QStringLiteral("%1 spectrogram frames").arg(s.frames);
    return {};
}

Mutations wavHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Q_UNUSED(rowSeed)
    Mutations out;
    const qsizetype fmt = chunkSizeAt(seed, "fmt ");
    const qsizetype data = chunkSizeAt(seed, "data");
    out << patch(seed, QStringLiteral("RIFF size 4 GiB"), 4, le32(0xFFFFFFFFu));
    out << patch(seed, QStringLiteral("fmt size 4 GiB"), fmt, le32(0xFFFFFFFFu));
    out << patch(seed, QStringLiteral("fmt size 2"), fmt, le32(2));
    out << patch(seed, QStringLiteral("data size 4 GiB"), data, le32(0xFFFFFFFFu));
    out << patch(seed, QStringLiteral("data size odd"), data, le32(3));
    out << patch(seed, QStringLiteral("65535 channels"), fmt + 6, le16(65535));
    out << patch(seed, QStringLiteral("no channels"), fmt + 6, le16(0));
    out << patch(seed, QStringLiteral("sample rate 0"), fmt + 8, le32(0));
    out << patch(seed, QStringLiteral("sample rate 4G"), fmt + 8, le32(0xFFFFFFFFu));
    out << patch(seed, QStringLiteral("block align 0"), fmt + 16, le16(0));
    out << patch(seed, QStringLiteral("block align 65535"), fmt + 16, le16(65535));
    out << patch(seed, QStringLiteral("0 bits"), fmt + 18, le16(0));
    out << patch(seed, QStringLiteral("64-bit PCM"), fmt + 18, le16(64));
    out << patch(seed, QStringLiteral("float tag"), fmt + 4, le16(3));
    out << patch(seed, QStringLiteral("extensible tag, short chunk"), fmt + 4, le16(0xFFFE));
    out << Mutation { QStringLiteral("a million empty chunks"), [seed, data] {
                         QByteArray out = seed.left(data - 4);
                         const QByteArray chunk = QByteArray("junk") + le32(0);
                         out += chunk.repeated(1'000'000);
                         return out + seed.mid(data - 4);
                     } };
    return out;
}

} // namespace runlens::test
