#pragma once

#include <QByteArrayView>
#include <QString>

#include <vector>

/// Reading of RIFF/WAVE clips as summary writers produce them (TensorBoard, the TF2 audio plugin and VisualDL
/// all write 16-bit PCM; other tools write 8/24/32-bit PCM and 32/64-bit float). The input may come from a
/// damaged or hostile file: every size is checked against the bytes present before it is used, and a clip
/// that cannot be read gives a sentence naming what is wrong.
namespace runlens::models::summary::wav {

/// WAVE_FORMAT_PCM and WAVE_FORMAT_IEEE_FLOAT; WAVE_FORMAT_EXTENSIBLE is resolved to one of them.
enum class SampleFormat { Pcm, Float };

/// Channels beyond this are refused (WAVE_FORMAT_EXTENSIBLE's channel mask names 18 speakers).
constexpr int kMaxChannels = 64;
/// Sample rates above this are refused; 0 is refused too.
constexpr int kMaxSampleRate = 10'000'000;

struct Header
{
    SampleFormat format = SampleFormat::Pcm;
    int channels = 0;
    int sampleRate = 0;
    int bitsPerSample = 0;
    qint64 frames = 0; ///< complete frames in the data chunk that are present
    qsizetype dataOffset = 0; ///< where the samples begin
    /// The data chunk declares more bytes than follow: the clip was cut off (or a streaming writer left the
    /// size open). The frames present are read.
    bool truncated = false;

    double durationSeconds() const { return sampleRate > 0 ? double(frames) / sampleRate : 0.0; }
};

/// Samples as floats in [-1, 1] (integers divided by 2^(bits-1), 8-bit ones offset by 128 first), frames
/// interleaved: sample `c` of frame `f` is `samples[f * channels + c]`.
struct Clip
{
    Header header;
    std::vector<float> samples;

    float sample(qint64 frame, int channel) const { return samples[size_t(frame * header.channels + channel)]; }
};

/// Reads the header and finds the samples; returns an empty string, or why the bytes are not a readable WAV.
QString readHeader(QByteArrayView bytes, Header* out);
/// Reads the header and decodes every sample.
QString decode(QByteArrayView bytes, Clip* out);

} // namespace runlens::models::summary::wav
