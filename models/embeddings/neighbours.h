#pragma once

#include "models/embeddings/operationcontrol.h"

#include <vector>

namespace runlens::models::embeddings {

struct EmbeddingSet;

enum class Distance { Cosine, Euclidean };

struct Neighbour
{
    int index = 0;
    double distance = 0.0; ///< cosine distance (1 - cos) or Euclidean distance
};

/// Precomputed row norms so that repeated queries over the same set stay cheap.
class NeighbourIndex
{
public:
    explicit NeighbourIndex(const EmbeddingSet& set);

    /// The `k` points nearest to point `query` in the original space, nearest first, the point itself
    /// excluded; ties are ordered by index. Brute force, split over the available cores. Empty on cancel.
    std::vector<Neighbour> nearest(int query, int k, Distance distance, const OperationControl& control = {}) const;

private:
    const EmbeddingSet& m_set;
    std::vector<double> m_norms;
};

} // namespace runlens::models::embeddings
