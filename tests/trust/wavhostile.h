#pragma once

#include "tests/trust/mutators.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace runlens::test {

/// Decodes a WAV clip as the Audio panel does (header, samples, spectrogram) and says what is inconsistent
/// in the result, or nothing.
QString readWav(const QString& folder, const QByteArray& bytes);
/// WAV clips whose chunk sizes, channel counts, sample rates and sample widths are made hostile.
Mutations wavHostile(const QByteArray& seed, std::uint64_t rowSeed);

} // namespace runlens::test
