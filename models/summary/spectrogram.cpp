#include "models/summary/spectrogram.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

namespace runlens::models::summary {

namespace {

/// In-place iterative radix-2 FFT; `data.size()` is a power of two.
void fft(std::vector<std::complex<double>>& data, const std::vector<std::complex<double>>& twiddles)
{
    const size_t n = data.size();
    for (size_t i = 1, j = 0; i < n; ++i) {
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j)
            std::swap(data[i], data[j]);
    }
    for (size_t length = 2; length <= n; length <<= 1) {
        const size_t stride = n / length;
        for (size_t start = 0; start < n; start += length) {
            for (size_t k = 0; k < length / 2; ++k) {
                const std::complex<double> t = twiddles[k * stride] * data[start + k + length / 2];
                data[start + k + length / 2] = data[start + k] - t;
                data[start + k] += t;
            }
        }
    }
}

bool isPowerOfTwo(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

} // namespace

Spectrogram computeSpectrogram(const float* samples, long long count, double sampleRate, int windowSize, int maxFrames)
{
    Spectrogram out;
    if (!isPowerOfTwo(windowSize))
        windowSize = 1024;
    windowSize = std::clamp(windowSize, 64, 8192);
    maxFrames = std::max(1, maxFrames);
    out.windowSize = windowSize;
    out.bins = windowSize / 2 + 1;
    out.sampleRate = sampleRate;
    if (count <= 0 || !samples)
        return out;
    const long long span = std::max(0LL, count - windowSize);
    const long long minimumHop = windowSize / 4;
    out.hop = int(std::max(minimumHop, (span + maxFrames - 1) / maxFrames));
    out.frames = int(span / out.hop) + 1;

    std::vector<double> window(std::size_t(windowSize), 0.0);
    double windowSum = 0.0;
    for (int i = 0; i < windowSize; ++i) {
        window[size_t(i)] = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * i / windowSize);
        windowSum += window[size_t(i)];
    }
    std::vector<std::complex<double>> twiddles(std::size_t(windowSize / 2), 0.0);
    for (int k = 0; k < windowSize / 2; ++k)
        twiddles[size_t(k)] = std::polar(1.0, -2.0 * std::numbers::pi * k / windowSize);
    // A sine of amplitude A gives |X| = A * windowSum / 2 at its bin: that is 0 dB for A = 1.
    const double reference = windowSum / 2.0;
    const double scale = 1.0 / (reference * reference);

    out.power.resize(size_t(out.frames) * size_t(out.bins));
    std::vector<std::complex<double>> buffer(std::size_t(windowSize), 0.0);
    for (int frame = 0; frame < out.frames; ++frame) {
        const long long start = frame * (long long)out.hop;
        for (int i = 0; i < windowSize; ++i) {
            const long long at = start + i;
            buffer[size_t(i)] = at < count ? samples[at] * window[size_t(i)] : 0.0;
        }
        fft(buffer, twiddles);
        float* row = out.power.data() + size_t(frame) * size_t(out.bins);
        for (int bin = 0; bin < out.bins; ++bin) {
            const double p = std::norm(buffer[size_t(bin)]) * scale;
            row[bin] = p > 0.0 ? std::max(kSpectrogramFloorDb, float(10.0 * std::log10(p))) : kSpectrogramFloorDb;
        }
    }
    return out;
}

int strongestBin(const Spectrogram& spectrogram)
{
    if (spectrogram.frames == 0)
        return -1;
    std::vector<double> total(size_t(spectrogram.bins), 0.0);
    for (int frame = 0; frame < spectrogram.frames; ++frame) {
        for (int bin = 0; bin < spectrogram.bins; ++bin)
            total[size_t(bin)] += std::pow(10.0, spectrogram.at(frame, bin) / 10.0);
    }
    return int(std::max_element(total.begin(), total.end()) - total.begin());
}

} // namespace runlens::models::summary
