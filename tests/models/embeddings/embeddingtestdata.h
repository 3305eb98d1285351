#pragma once

#include "models/embeddings/embeddingset.h"

#include <QFile>
#include <QString>

#include <random>

namespace runlens::test {

/// Points from a few clusters with correlated dimensions (so the components are well separated), from a
/// fixed seed.
inline models::embeddings::EmbeddingSet clusteredEmbeddings(int rows, int dims, unsigned seed = 11)
{
    models::embeddings::EmbeddingSet set;
    set.name = QStringLiteral("generated");
    set.rows = rows;
    set.dims = dims;
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> centres(std::size_t(5) * dims);
    for (float& c : centres)
        c = normal(random) * 3.0f;
    set.values.resize(std::size_t(rows) * dims);
    for (int i = 0; i < rows; ++i) {
        const float* centre = centres.data() + std::size_t(i % 5) * dims;
        const float shared = normal(random);
        for (int d = 0; d < dims; ++d)
            set.values[std::size_t(i) * dims + d] = centre[d] + normal(random) / float(1 + d % 7) + shared * 0.5f;
    }
    return set;
}

/// Writes the values as raw little-endian float32 for numpy's `fromfile`.
inline bool writeRawFloats(const models::embeddings::EmbeddingSet& set, const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    const auto bytes = qint64(set.values.size() * sizeof(float));
    return file.write(reinterpret_cast<const char*>(set.values.data()), bytes) == bytes;
}

} // namespace runlens::test
