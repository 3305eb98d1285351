#pragma once

#include <cstddef>
#include <vector>

namespace runlens::models::summary {

/// The power spectrum of a signal over time (a short-time Fourier transform with a Hann window), in dB
/// relative to a full-scale sine: a sine of amplitude 1 peaks near 0 dB. `power[frame * bins + bin]`; bin
/// `b` is the frequency b * sampleRate / windowSize, frame `f` is centred at sample f * hop + windowSize / 2.
struct Spectrogram
{
    int windowSize = 0;
    int hop = 0;
    int bins = 0; ///< windowSize / 2 + 1, from 0 Hz to the Nyquist frequency
    int frames = 0;
    double sampleRate = 0.0;
    std::vector<float> power;

    double binFrequency(int bin) const { return windowSize > 0 ? bin * sampleRate / windowSize : 0.0; }
    float at(int frame, int bin) const { return power[std::size_t(frame) * std::size_t(bins) + std::size_t(bin)]; }
};

/// Power floor of the spectrogram (silence), in dB.
constexpr float kSpectrogramFloorDb = -120.0f;

/// The spectrogram of `count` mono samples. `windowSize` is a power of two (64 to 8192); the hop is
/// chosen so that at most `maxFrames` frames are computed (a quarter window at least, so short clips get
/// overlapping frames and long ones a bounded cost). A signal shorter than a window is zero-padded.
Spectrogram computeSpectrogram(const float* samples, long long count, double sampleRate, int windowSize = 1024,
                               int maxFrames = 1024);

/// The index of the strongest bin of the spectrogram summed over its frames (tests, the card's readout).
int strongestBin(const Spectrogram& spectrogram);

} // namespace runlens::models::summary
