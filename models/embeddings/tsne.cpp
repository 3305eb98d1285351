#include "models/embeddings/tsne.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <thread>
#include <utility>

namespace runlens::models::embeddings {

namespace {

constexpr double kInitialDeviation = 1e-4; // van der Maaten's initial Gaussian spread
constexpr double kMinGain = 0.01;
constexpr double kInitialMomentum = 0.5;
constexpr double kFinalMomentum = 0.8;
constexpr int kBandwidthSteps = 200;
constexpr double kEntropyTolerance = 1e-5;
constexpr std::size_t kRowsPerChunk = 64;
// Below this many points a step is too short for threads to pay for their start.
constexpr std::size_t kPointsPerThread = 1024;

/// Runs work(begin, end) over [0, count) in chunks on up to `threads` threads (the caller being one of them).
/// Every index is processed by exactly one call, so work that writes only to its own rows gives the same
/// result whatever the thread count and scheduling. The caller reports progress between its chunks and stops
/// handing out chunks when progress returns false; returns false then.
template<typename Work>
bool parallelChunks(std::size_t count, std::size_t chunk, int threads, Work&& work,
                    const TsneRun::Progress* progress = nullptr)
{
    const std::size_t chunks = (count + chunk - 1) / chunk;
    std::atomic<std::size_t> next { 0 };
    std::atomic<std::size_t> done { 0 };
    std::atomic<bool> stop { false };
    auto loop = [&](bool caller) {
        for (;;) {
            if (stop.load(std::memory_order_relaxed))
                return;
            const std::size_t c = next.fetch_add(1);
            if (c >= chunks)
                return;
            work(c * chunk, std::min(count, (c + 1) * chunk));
            const std::size_t finished = done.fetch_add(1) + 1;
            if (caller && progress && *progress && !(*progress)(double(finished) / double(chunks)))
                stop = true;
        }
    };
    const int used = int(std::min<std::size_t>(std::size_t(std::max(threads, 1)), std::max<std::size_t>(chunks, 1)));
    std::vector<std::thread> pool;
    pool.reserve(std::size_t(used - 1));
    for (int t = 1; t < used; ++t)
        pool.emplace_back(loop, false);
    loop(true);
    for (auto& thread : pool)
        thread.join();
    return !stop;
}

/// Squared Euclidean distance; eight partial sums let the compiler vectorise without reassociating.
float squaredDistance(const float* a, const float* b, std::size_t dims)
{
    std::array<float, 8> sums {};
    std::size_t d = 0;
    for (; d + 8 <= dims; d += 8) {
        for (std::size_t k = 0; k < 8; ++k) {
            const float diff = a[d + k] - b[d + k];
            sums[k] += diff * diff;
        }
    }
    for (; d < dims; ++d) {
        const float diff = a[d] - b[d];
        sums[0] += diff * diff;
    }
    return ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5]) + (sums[6] + sums[7]));
}

/// Fills p with the conditional probabilities p_{j|i} of one point's neighbours, whose squared distances are
/// given in ascending order, with the Gaussian bandwidth found by bisection so that the distribution's
/// entropy is log(perplexity).
void conditionalProbabilities(const double* distances, std::size_t k, double perplexity, double* p)
{
    if (k == 1) {
        p[0] = 1.0;
        return;
    }
    // Distances relative to the nearest one: the same distribution, and exp() cannot underflow everywhere.
    const double nearest = distances[0];
    double mean = 0.0;
    for (std::size_t j = 0; j < k; ++j)
        mean += distances[j] - nearest;
    mean /= double(k);
    const double target = std::log(perplexity);
    double beta = mean > 0.0 ? 1.0 / mean : 1.0;
    double low = 0.0;
    double high = std::numeric_limits<double>::infinity();
    for (int step = 0; step < kBandwidthSteps; ++step) {
        double sum = 0.0;
        double weighted = 0.0;
        for (std::size_t j = 0; j < k; ++j) {
            const double shifted = distances[j] - nearest;
            p[j] = std::exp(-beta * shifted);
            sum += p[j];
            weighted += p[j] * shifted;
        }
        const double entropy = std::log(sum) + beta * weighted / sum;
        for (std::size_t j = 0; j < k; ++j)
            p[j] /= sum;
        const double error = entropy - target;
        if (std::abs(error) < kEntropyTolerance)
            break;
        if (error > 0.0) {
            low = beta;
            beta = std::isinf(high) ? beta * 2.0 : (beta + high) / 2.0;
        } else {
            high = beta;
            beta = (beta + low) / 2.0;
        }
        if (!std::isfinite(beta) || beta <= 0.0)
            break;
    }
}

/// Quadtree (D = 2) or octree (D = 3) over the embedding: each cell keeps its point count and centre of mass,
/// so that a far cell's points act on a point as one (the Barnes-Hut approximation). Leaves hold up to
/// kLeafPoints points, which interact exactly.
template<int D> class SpaceTree
{
public:
    static constexpr int kChildren = 1 << D;
    static constexpr std::uint32_t kLeafPoints = 8;
    static constexpr int kMaxDepth = 32; // coincident points end in one leaf instead of splitting forever

    struct Node
    {
        std::array<double, D> centre {};
        std::array<double, D> centreOfMass {};
        double halfWidth = 0.0;
        std::uint32_t begin = 0;
        std::uint32_t end = 0;
        std::int32_t firstChild = -1; // kChildren consecutive nodes; -1 for a leaf
        std::uint32_t count() const { return end - begin; }
    };

    void build(const double* y, std::size_t n)
    {
        m_y = y;
        m_nodes.clear();
        m_order.resize(n);
        std::iota(m_order.begin(), m_order.end(), std::uint32_t(0));
        m_scratch.resize(n);
        std::array<double, D> lowest;
        std::array<double, D> highest;
        lowest.fill(std::numeric_limits<double>::infinity());
        highest.fill(-std::numeric_limits<double>::infinity());
        for (std::size_t i = 0; i < n; ++i) {
            for (int d = 0; d < D; ++d) {
                lowest[d] = std::min(lowest[d], y[i * D + d]);
                highest[d] = std::max(highest[d], y[i * D + d]);
            }
        }
        Node root;
        for (int d = 0; d < D; ++d) {
            root.centre[d] = (lowest[d] + highest[d]) / 2.0;
            root.halfWidth = std::max(root.halfWidth, (highest[d] - lowest[d]) / 2.0);
        }
        root.end = std::uint32_t(n);
        m_nodes.push_back(root);
        split(0, 0);
    }

    /// Adds the repulsion on point i from all other points: sum of q_ij = 1 / (1 + |y_i - y_j|^2) and of
    /// q_ij^2 (y_i - y_j). theta 0 visits every point.
    void repulsion(std::size_t i, double theta, double& sumQ, double* force) const
    {
        const double thetaSquared = theta * theta;
        const double* yi = m_y + i * D;
        std::array<std::int32_t, kChildren * kMaxDepth + 1> stack;
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            const Node& node = m_nodes[std::size_t(stack[--top])];
            if (node.count() == 0)
                continue;
            if (node.firstChild < 0) {
                for (std::uint32_t k = node.begin; k < node.end; ++k) {
                    const std::uint32_t j = m_order[k];
                    if (j == i)
                        continue;
                    accumulate(yi, m_y + std::size_t(j) * D, 1.0, sumQ, force);
                }
                continue;
            }
            double distanceSquared = 0.0;
            for (int d = 0; d < D; ++d) {
                const double diff = yi[d] - node.centreOfMass[d];
                distanceSquared += diff * diff;
            }
            const double width = 2.0 * node.halfWidth;
            if (width * width < thetaSquared * distanceSquared) {
                accumulate(yi, node.centreOfMass.data(), double(node.count()), sumQ, force);
            } else {
                for (int c = kChildren - 1; c >= 0; --c)
                    stack[top++] = node.firstChild + c;
            }
        }
    }

private:
    static void accumulate(const double* yi, const double* yj, double weight, double& sumQ, double* force)
    {
        std::array<double, D> diff;
        double distanceSquared = 0.0;
        for (int d = 0; d < D; ++d) {
            diff[d] = yi[d] - yj[d];
            distanceSquared += diff[d] * diff[d];
        }
        const double q = 1.0 / (1.0 + distanceSquared);
        sumQ += weight * q;
        const double factor = weight * q * q;
        for (int d = 0; d < D; ++d)
            force[d] += factor * diff[d];
    }

    void split(std::size_t index, int depth)
    {
        const Node node = m_nodes[index];
        if (node.count() <= kLeafPoints || depth >= kMaxDepth) {
            std::array<double, D> sum {};
            for (std::uint32_t k = node.begin; k < node.end; ++k)
                for (int d = 0; d < D; ++d)
                    sum[d] += m_y[std::size_t(m_order[k]) * D + d];
            for (int d = 0; d < D; ++d)
                m_nodes[index].centreOfMass[d] = node.count() > 0 ? sum[d] / double(node.count()) : node.centre[d];
            return;
        }
        // Counting sort of the cell's points by child (stable, so the order stays deterministic).
        std::array<std::uint32_t, kChildren + 1> starts {};
        auto childOf = [&](std::uint32_t point) {
            int child = 0;
            for (int d = 0; d < D; ++d)
                if (m_y[std::size_t(point) * D + d] >= node.centre[d])
                    child |= 1 << d;
            return child;
        };
        for (std::uint32_t k = node.begin; k < node.end; ++k)
            ++starts[std::size_t(childOf(m_order[k])) + 1];
        for (int c = 0; c < kChildren; ++c)
            starts[std::size_t(c) + 1] += starts[std::size_t(c)];
        std::array<std::uint32_t, kChildren> fill {};
        for (std::uint32_t k = node.begin; k < node.end; ++k) {
            const int c = childOf(m_order[k]);
            m_scratch[node.begin + starts[std::size_t(c)] + fill[std::size_t(c)]++] = m_order[k];
        }
        std::copy(m_scratch.begin() + node.begin, m_scratch.begin() + node.end, m_order.begin() + node.begin);

        const auto first = std::int32_t(m_nodes.size());
        m_nodes[index].firstChild = first;
        const double half = node.halfWidth / 2.0;
        for (int c = 0; c < kChildren; ++c) {
            Node child;
            for (int d = 0; d < D; ++d)
                child.centre[d] = node.centre[d] + ((c >> d) & 1 ? half : -half);
            child.halfWidth = half;
            child.begin = node.begin + starts[std::size_t(c)];
            child.end = node.begin + starts[std::size_t(c) + 1];
            m_nodes.push_back(child);
        }
        std::array<double, D> weighted {};
        for (int c = 0; c < kChildren; ++c) {
            const std::size_t childIndex = std::size_t(first + c);
            if (m_nodes[childIndex].count() == 0)
                continue;
            split(childIndex, depth + 1);
            for (int d = 0; d < D; ++d)
                weighted[d] += m_nodes[childIndex].centreOfMass[d] * double(m_nodes[childIndex].count());
        }
        for (int d = 0; d < D; ++d)
            m_nodes[index].centreOfMass[d] = weighted[d] / double(node.count());
    }

    const double* m_y = nullptr;
    std::vector<Node> m_nodes;
    std::vector<std::uint32_t> m_order;
    std::vector<std::uint32_t> m_scratch;
};

/// Normal deviates from the seed by Box-Muller over mt19937_64, whose sequence the standard fixes (unlike
/// std::normal_distribution's), so a seed gives the same start on every platform.
class NormalSource
{
public:
    explicit NormalSource(std::uint64_t seed)
        : m_engine(seed)
    { }
    double next()
    {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u;
        do {
            u = uniform();
        } while (u <= 0.0);
        const double v = uniform();
        const double radius = std::sqrt(-2.0 * std::log(u));
        constexpr double kTwoPi = 6.283185307179586476925;
        m_spare = radius * std::sin(kTwoPi * v);
        m_hasSpare = true;
        return radius * std::cos(kTwoPi * v);
    }

private:
    double uniform() { return double(m_engine() >> 11) * 0x1.0p-53; }
    std::mt19937_64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

bool finite(double value)
{
    return std::isfinite(value);
}

} // namespace

const char* describe(TsneError error)
{
    switch (error) {
    case TsneError::None:
        return "no error";
    case TsneError::InvalidOutputDims:
        return "t-SNE output must have 2 or 3 dimensions";
    case TsneError::InvalidOptions:
        return "t-SNE options out of range (perplexity, learning rate, theta, exaggeration or iterations)";
    case TsneError::InvalidInput:
        return "t-SNE input has no data or points without dimensions";
    case TsneError::NonFiniteInput:
        return "t-SNE input contains NaN or infinite values";
    case TsneError::Cancelled:
        return "t-SNE was cancelled";
    }
    return "unknown t-SNE error";
}

TsneRun::TsneRun(const float* data, std::size_t n, std::size_t dims, const TsneOptions& options,
                 const Progress& progress)
    : m_options(options)
    , m_n(n)
{
    if (options.outputDims != 2 && options.outputDims != 3) {
        m_error = TsneError::InvalidOutputDims;
        return;
    }
    if (!finite(options.perplexity) || options.perplexity <= 0.0 || !finite(options.learningRate)
        || options.learningRate < 0.0 || !finite(options.theta) || options.theta < 0.0 || options.iterations < 0
        || options.exaggerationIterations < 0 || !finite(options.earlyExaggeration)
        || options.earlyExaggeration <= 0.0) {
        m_error = TsneError::InvalidOptions;
        return;
    }
    if (n > 0 && (data == nullptr || dims == 0)) {
        m_error = TsneError::InvalidInput;
        return;
    }
    // Column indices are 32-bit; a larger set is far beyond what t-SNE can lay out anyway.
    if (n > std::numeric_limits<std::uint32_t>::max()) {
        m_error = TsneError::InvalidInput;
        return;
    }
    for (std::size_t k = 0; k < n * dims; ++k) {
        if (!std::isfinite(data[k])) {
            m_error = TsneError::NonFiniteInput;
            return;
        }
    }
    m_threads = options.threads > 0 ? options.threads : int(std::max(1u, std::thread::hardware_concurrency()));
    m_learningRate = options.learningRate > 0.0 ? options.learningRate
                                                : std::max(double(n) / options.earlyExaggeration / 4.0, 50.0);
    m_perplexity = options.perplexity;
    if (n >= 2) {
        // Each point needs 3 x perplexity neighbours; with fewer points the perplexity comes down to fit.
        const double largest = double(n - 1) / 3.0;
        if (m_perplexity > largest) {
            m_perplexity = largest;
            m_perplexityClipped = true;
        }
        // The small allowance keeps 3 x (20 / 3) from rounding down to 19.
        m_neighbours = m_perplexityClipped
            ? int(n - 1)
            : int(std::clamp<double>(std::floor(3.0 * m_perplexity + 1e-9), 1.0, double(n - 1)));
        computeAffinities(data, dims, progress);
        if (m_error != TsneError::None) {
            m_rowStart.clear();
            m_columns.clear();
            m_values.clear();
            return;
        }
    } else if (n == 1 && options.perplexity > 0.0) {
        m_perplexity = 0.0;
        m_perplexityClipped = true;
    }
    initialiseEmbedding();
    publish();
}

TsneRun::~TsneRun() = default;

void TsneRun::computeAffinities(const float* data, std::size_t dims, const Progress& progress)
{
    const std::size_t n = m_n;
    const auto k = std::size_t(m_neighbours);
    std::vector<std::uint32_t> neighbourIndex(n * k);
    std::vector<double> conditional(n * k);

    const bool finished = parallelChunks(
        n, kRowsPerChunk, m_threads,
        [&](std::size_t begin, std::size_t end) {
            std::vector<std::pair<float, std::uint32_t>> candidates(n - 1);
            std::vector<double> distances(k);
            for (std::size_t i = begin; i < end; ++i) {
                const float* row = data + i * dims;
                std::size_t c = 0;
                for (std::size_t j = 0; j < n; ++j) {
                    if (j != i)
                        candidates[c++] = { squaredDistance(row, data + j * dims, dims), std::uint32_t(j) };
                }
                // (distance, index) is a total order, so ties resolve the same way every time.
                if (k < candidates.size())
                    std::nth_element(candidates.begin(), candidates.begin() + std::ptrdiff_t(k), candidates.end());
                std::sort(candidates.begin(), candidates.begin() + std::ptrdiff_t(k));
                for (std::size_t m = 0; m < k; ++m) {
                    distances[m] = double(candidates[m].first);
                    neighbourIndex[i * k + m] = candidates[m].second;
                }
                conditionalProbabilities(distances.data(), k, m_perplexity, conditional.data() + i * k);
            }
        },
        &progress);
    if (!finished) {
        m_error = TsneError::Cancelled;
        return;
    }

    // P = (P_{j|i} + P_{i|j}) / 2n as sparse rows: each pair appears in i's row and in j's row.
    std::vector<std::size_t> rowCount(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t m = 0; m < k; ++m) {
            ++rowCount[i + 1];
            ++rowCount[std::size_t(neighbourIndex[i * k + m]) + 1];
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        rowCount[i + 1] += rowCount[i];
    std::vector<std::pair<std::uint32_t, double>> entries(rowCount[n]);
    std::vector<std::size_t> fill(rowCount.begin(), rowCount.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t m = 0; m < k; ++m) {
            const std::uint32_t j = neighbourIndex[i * k + m];
            const double p = conditional[i * k + m];
            entries[fill[i]++] = { j, p };
            entries[fill[j]++] = { std::uint32_t(i), p };
        }
    }
    m_rowStart.assign(n + 1, 0);
    m_columns.clear();
    m_values.clear();
    m_columns.reserve(entries.size());
    m_values.reserve(entries.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto first = entries.begin() + std::ptrdiff_t(rowCount[i]);
        const auto last = entries.begin() + std::ptrdiff_t(rowCount[i + 1]);
        std::sort(first, last);
        for (auto it = first; it != last; ++it) {
            // A pair found from both ends appears twice: add the two halves (order-free: two terms).
            if (!m_columns.empty() && m_values.size() > m_rowStart[i] && m_columns.back() == it->first)
                m_values.back() += it->second;
            else {
                m_columns.push_back(it->first);
                m_values.push_back(it->second);
            }
        }
        m_rowStart[i + 1] = m_columns.size();
    }
    double total = 0.0;
    for (double value : m_values)
        total += value;
    for (double& value : m_values)
        value /= total;
    if (progress)
        progress(1.0);
}

void TsneRun::initialiseEmbedding()
{
    const auto dims = std::size_t(m_options.outputDims);
    m_y.assign(m_n * dims, 0.0);
    if (m_n >= 2) {
        NormalSource normal(m_options.seed);
        for (double& value : m_y)
            value = normal.next() * kInitialDeviation;
    }
    m_update.assign(m_y.size(), 0.0);
    m_gains.assign(m_y.size(), 1.0);
    m_gradient.assign(m_y.size(), 0.0);
}

void TsneRun::publish()
{
    m_embedding.resize(m_y.size());
    for (std::size_t k = 0; k < m_y.size(); ++k)
        m_embedding[k] = float(m_y[k]);
}

bool TsneRun::step(int iterations)
{
    if (!isValid())
        return false;
    const int count = std::clamp(m_options.iterations - m_iteration, 0, std::max(iterations, 0));
    if (m_n < 2) {
        // Nothing to lay out; the count still advances so that progress reaches its end.
        m_iteration += count;
        return !isFinished();
    }
    for (int i = 0; i < count; ++i)
        iterate();
    if (count > 0)
        publish();
    return !isFinished();
}

void TsneRun::iterate()
{
    if (m_options.outputDims == 2)
        gradient<2>(m_gradient);
    else
        gradient<3>(m_gradient);

    // Gradient descent with momentum and per-coordinate gains (Jacobs 1988), as in van der Maaten's t-SNE.
    const bool early = m_iteration < m_options.exaggerationIterations;
    const double momentum = early ? kInitialMomentum : kFinalMomentum;
    for (std::size_t k = 0; k < m_y.size(); ++k) {
        const bool sameSign = (m_gradient[k] > 0.0) == (m_update[k] > 0.0);
        m_gains[k] = std::max(sameSign ? m_gains[k] * 0.8 : m_gains[k] + 0.2, kMinGain);
        m_update[k] = momentum * m_update[k] - m_learningRate * m_gains[k] * m_gradient[k];
        m_y[k] += m_update[k];
    }
    // Keep the layout centred; the sums run in point order so the result does not depend on threads.
    const auto dims = std::size_t(m_options.outputDims);
    std::array<double, 3> mean {};
    for (std::size_t i = 0; i < m_n; ++i)
        for (std::size_t d = 0; d < dims; ++d)
            mean[d] += m_y[i * dims + d];
    for (std::size_t d = 0; d < dims; ++d)
        mean[d] /= double(m_n);
    for (std::size_t i = 0; i < m_n; ++i)
        for (std::size_t d = 0; d < dims; ++d)
            m_y[i * dims + d] -= mean[d];
    ++m_iteration;
}

template<int D> void TsneRun::gradient(std::vector<double>& gradient) const
{
    const double exaggeration = m_iteration < m_options.exaggerationIterations ? m_options.earlyExaggeration : 1.0;
    SpaceTree<D> tree;
    tree.build(m_y.data(), m_n);
    std::vector<double> attraction(m_n * D);
    std::vector<double> repulsion(m_n * D);
    std::vector<double> sumQ(m_n);
    const int threads
        = int(std::min<std::size_t>(std::size_t(m_threads), std::max<std::size_t>(m_n / kPointsPerThread, 1)));
    parallelChunks(m_n, kRowsPerChunk, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const double* yi = m_y.data() + i * D;
            std::array<double, D> attract {};
            for (std::size_t e = m_rowStart[i]; e < m_rowStart[i + 1]; ++e) {
                const double* yj = m_y.data() + std::size_t(m_columns[e]) * D;
                std::array<double, D> diff;
                double distanceSquared = 0.0;
                for (int d = 0; d < D; ++d) {
                    diff[d] = yi[d] - yj[d];
                    distanceSquared += diff[d] * diff[d];
                }
                const double factor = m_values[e] / (1.0 + distanceSquared);
                for (int d = 0; d < D; ++d)
                    attract[d] += factor * diff[d];
            }
            for (int d = 0; d < D; ++d)
                attraction[i * D + std::size_t(d)] = attract[d];
            double q = 0.0;
            tree.repulsion(i, m_options.theta, q, repulsion.data() + i * D);
            sumQ[i] = q;
        }
    });
    double z = 0.0;
    for (double q : sumQ)
        z += q;
    z = std::max(z, std::numeric_limits<double>::min());
    // dC/dy_i = 4 (sum_j p_ij q_ij Z (y_i - y_j) - sum_j q_ij^2 Z (y_i - y_j)) with unnormalised q here.
    for (std::size_t k = 0; k < m_n * D; ++k)
        gradient[k] = 4.0 * (exaggeration * attraction[k] - repulsion[k] / z);
}

template<int D> double TsneRun::normalisation() const
{
    std::vector<double> sumQ(m_n);
    const int threads
        = int(std::min<std::size_t>(std::size_t(m_threads), std::max<std::size_t>(m_n / kPointsPerThread, 1)));
    if (m_n <= kExactKlPoints) {
        parallelChunks(m_n, kRowsPerChunk, threads, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                double sum = 0.0;
                for (std::size_t j = 0; j < m_n; ++j) {
                    if (j == i)
                        continue;
                    double distanceSquared = 0.0;
                    for (int d = 0; d < D; ++d) {
                        const double diff = m_y[i * D + std::size_t(d)] - m_y[j * D + std::size_t(d)];
                        distanceSquared += diff * diff;
                    }
                    sum += 1.0 / (1.0 + distanceSquared);
                }
                sumQ[i] = sum;
            }
        });
    } else {
        SpaceTree<D> tree;
        tree.build(m_y.data(), m_n);
        parallelChunks(m_n, kRowsPerChunk, threads, [&](std::size_t begin, std::size_t end) {
            std::array<double, D> unused {};
            for (std::size_t i = begin; i < end; ++i) {
                double q = 0.0;
                tree.repulsion(i, m_options.theta, q, unused.data());
                sumQ[i] = q;
            }
        });
    }
    double z = 0.0;
    for (double q : sumQ)
        z += q;
    return z;
}

double TsneRun::klDivergence() const
{
    if (!isValid() || m_n < 2)
        return 0.0;
    if (m_klIteration == m_iteration)
        return m_kl;
    const auto dims = std::size_t(m_options.outputDims);
    const double z = dims == 2 ? normalisation<2>() : normalisation<3>();
    std::vector<double> rowSums(m_n);
    const int threads
        = int(std::min<std::size_t>(std::size_t(m_threads), std::max<std::size_t>(m_n / kPointsPerThread, 1)));
    parallelChunks(m_n, kRowsPerChunk, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            double sum = 0.0;
            for (std::size_t e = m_rowStart[i]; e < m_rowStart[i + 1]; ++e) {
                const double p = m_values[e];
                if (p <= 0.0)
                    continue;
                const std::size_t j = m_columns[e];
                double distanceSquared = 0.0;
                for (std::size_t d = 0; d < dims; ++d) {
                    const double diff = m_y[i * dims + d] - m_y[j * dims + d];
                    distanceSquared += diff * diff;
                }
                const double q = 1.0 / (1.0 + distanceSquared) / z;
                sum += p * std::log(p / std::max(q, std::numeric_limits<double>::min()));
            }
            rowSums[i] = sum;
        }
    });
    double kl = 0.0;
    for (double value : rowSums)
        kl += value;
    m_kl = kl;
    m_klIteration = m_iteration;
    return kl;
}

} // namespace runlens::models::embeddings
