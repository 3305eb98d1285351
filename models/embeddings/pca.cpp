#include "models/embeddings/pca.h"

#include "models/embeddings/embeddingset.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace runlens::models::embeddings {

namespace {

// Rows per block: large enough for Eigen's blocked products, small enough to report progress and
// check for cancel often and to keep the double copy of a block in cache-sized pieces.
constexpr int kBlockRows = 2048;

using RowMatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

} // namespace

std::optional<PcaResult> computePca(const EmbeddingSet& set, int components, const OperationControl& control)
{
    const int n = set.rows;
    const int d = set.dims;
    if (n <= 0 || d <= 0 || set.values.size() < std::size_t(n) * std::size_t(d))
        return std::nullopt;
    components = std::clamp(components, 1, d);
    const Eigen::Map<const RowMatrixF> data(set.values.data(), n, d);

    // The mean in double: a float sum over 100k rows loses the digits the explained variance needs.
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(d);
    for (int start = 0; start < n; start += kBlockRows) {
        const int count = std::min(kBlockRows, n - start);
        mean += data.middleRows(start, count).cast<double>().colwise().sum().transpose();
    }
    mean /= double(n);
    if (control.canceled())
        return std::nullopt;

    // Covariance: only the lower triangle is accumulated (rankUpdate), half the work of a full product.
    Eigen::MatrixXd scatter = Eigen::MatrixXd::Zero(d, d);
    RowMatrixD block;
    const int blocks = (n + kBlockRows - 1) / kBlockRows;
    for (int b = 0; b < blocks; ++b) {
        const int start = b * kBlockRows;
        const int count = std::min(kBlockRows, n - start);
        block = data.middleRows(start, count).cast<double>();
        block.rowwise() -= mean.transpose();
        scatter.selfadjointView<Eigen::Lower>().rankUpdate(block.transpose());
        if (control.canceled())
            return std::nullopt;
        control.report(int(800LL * (b + 1) / blocks));
    }
    scatter.triangularView<Eigen::StrictlyUpper>() = scatter.transpose();

    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(scatter);
    if (solver.info() != Eigen::Success)
        return std::nullopt;
    control.report(850);

    PcaResult result;
    result.rows = n;
    result.components = components;
    const double denominator = n > 1 ? double(n - 1) : 1.0;
    const double trace = scatter.trace();
    result.totalVariance = trace / denominator;
    // Eigenvalues come in increasing order: the top components are at the end.
    Eigen::MatrixXd basis(d, components);
    for (int c = 0; c < components; ++c) {
        const int column = d - 1 - c;
        const double eigenvalue = std::max(0.0, solver.eigenvalues()(column));
        result.variance.push_back(eigenvalue / denominator);
        result.explainedVarianceRatio.push_back(trace > 0.0 ? eigenvalue / trace : 0.0);
        Eigen::VectorXd vector = solver.eigenvectors().col(column);
        Eigen::Index largest = 0;
        vector.cwiseAbs().maxCoeff(&largest);
        if (vector(largest) < 0.0)
            vector = -vector;
        basis.col(c) = vector;
    }

    result.projected.resize(std::size_t(n) * std::size_t(components));
    Eigen::Map<RowMatrixF> projected(result.projected.data(), n, components);
    for (int b = 0; b < blocks; ++b) {
        const int start = b * kBlockRows;
        const int count = std::min(kBlockRows, n - start);
        block = data.middleRows(start, count).cast<double>();
        block.rowwise() -= mean.transpose();
        projected.middleRows(start, count) = (block * basis).cast<float>();
        if (control.canceled())
            return std::nullopt;
    }
    control.report(1000);
    return result;
}

} // namespace runlens::models::embeddings
