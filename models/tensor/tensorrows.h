#pragma once

#include "models/embeddings/embeddingset.h"
#include "models/tensor/tensor.h"

#include <QString>

#include <cstdint>
#include <functional>

namespace runlens::models::tensor {

/// Values a tensor may have to become points: 64 Mi floats (256 MiB), past the Projector's 100k × 256.
constexpr std::int64_t kMaxProjectedValues = std::int64_t(64) << 20;

struct TensorRows
{
    embeddings::EmbeddingSetPtr set; ///< null on failure
    QString error; ///< why there is no set (a sentence)
};

/// The rows of `tensor` as points for the Projector, as TensorBoard's projector takes a 2-D tensor: dimension
/// 0 indexes the points and the other dimensions, flattened in C order, are each point's coordinates (an
/// [N, C, H, W] batch of images gives N points of C·H·W). Complex values give their real part; elements
/// outside the data read as NaN. Fails for rank < 2, fewer than two rows, no columns or more values than
/// kMaxProjectedValues. The metadata column "row" numbers the points. `cancelled` is polled between rows.
TensorRows tensorRowsAsEmbeddings(const Tensor& tensor, const QString& name, const QString& source,
                                  const std::function<bool()>& cancelled = {});

} // namespace runlens::models::tensor
