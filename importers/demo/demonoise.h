#pragma once

#include <QtGlobal>

namespace runlens::importers::demo {

/// A small deterministic noise source, so the demo run is the same folder on every machine and library
/// (std::normal_distribution and friends differ between standard libraries).
class DemoNoise
{
public:
    explicit DemoNoise(quint64 seed)
        : m_state(seed)
    { }
    /// Uniform in [-1, 1).
    double next()
    {
        m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
        return double(m_state >> 11) / double(1ULL << 52) - 1.0;
    }
    /// Roughly normal (sum of uniforms), mean 0, standard deviation about 1.
    double gaussian() { return (next() + next() + next() + next()) * 0.866; }

private:
    quint64 m_state;
};

} // namespace runlens::importers::demo
