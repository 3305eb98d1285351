#pragma once

#include "models/embeddings/operationcontrol.h"

#include <QString>

#include <optional>
#include <vector>

namespace runlens::models::embeddings {

struct EmbeddingSet;

/// The top principal components of an embedding set and the points projected onto them.
struct PcaResult
{
    int rows = 0;
    int components = 0; ///< k (at most the dimension count)
    std::vector<float> projected; ///< rows * components, row-major: point i on component c
    std::vector<double> explainedVarianceRatio; ///< per component, of the total variance
    std::vector<double> variance; ///< per component (eigenvalue of the sample covariance, n - 1)
    double totalVariance = 0.0;

    float at(int row, int component) const { return projected[std::size_t(row) * components + component]; }
};

/// Centres the data, forms the D x D sample covariance and takes its top `components` eigenvectors
/// (Eigen's SelfAdjointEigenSolver): the cost is O(N D^2) for the covariance plus O(D^3), which suits
/// many points of a few hundred dimensions. Signs follow numpy's SVD convention loosely: each
/// component is oriented so that its largest-magnitude coefficient is positive, so the picture does not
/// flip between runs. Nothing on cancel.
std::optional<PcaResult> computePca(const EmbeddingSet& set, int components, const OperationControl& control = {});

} // namespace runlens::models::embeddings
