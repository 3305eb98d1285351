#include "models/embeddings/neighbours.h"

#include "models/embeddings/embeddingset.h"

#include <Eigen/Dense>

#include <QtGlobal>
#include <algorithm>
#include <cmath>

#include <atomic>
#include <thread>

namespace runlens::models::embeddings {

namespace {

// Rows whose distances are computed in one product: a few hundred KiB of floats, cache-sized.
constexpr int kBlockRows = 512;

using RowMatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

bool closer(const Neighbour& a, const Neighbour& b)
{
    return a.distance < b.distance || (a.distance == b.distance && a.index < b.index);
}

double dot(const float* a, const float* b, int dims)
{
    double sum = 0.0;
    for (int i = 0; i < dims; ++i)
        sum += double(a[i]) * double(b[i]);
    return sum;
}

} // namespace

NeighbourIndex::NeighbourIndex(const EmbeddingSet& set)
    : m_set(set)
{
    m_norms.resize(std::size_t(std::max(0, set.rows)));
    for (int i = 0; i < set.rows; ++i)
        m_norms[std::size_t(i)] = std::sqrt(dot(set.row(i), set.row(i), set.dims));
}

std::vector<Neighbour> NeighbourIndex::nearest(int query, int k, Distance distance,
                                               const OperationControl& control) const
{
    const int n = m_set.rows;
    const int dims = m_set.dims;
    if (query < 0 || query >= n || k <= 0)
        return {};
    k = std::min(k, n - 1);
    const double queryNorm = m_norms[std::size_t(query)];

    // Each worker keeps its own best k over a contiguous range; the lists are merged at the end.
    const int workers = std::clamp(int(std::thread::hardware_concurrency()), 1, std::max(1, n / 4096));
    std::vector<std::vector<Neighbour>> partial(static_cast<std::size_t>(workers));
    std::atomic_bool stopped = false;
    // Keeps the k closest seen so far in a max-heap: the front is the farthest of them.
    auto consider = [k](std::vector<Neighbour>& best, const Neighbour& candidate) {
        if (int(best.size()) == k && !closer(candidate, best.front()))
            return;
        best.push_back(candidate);
        std::push_heap(best.begin(), best.end(), closer);
        if (int(best.size()) > k) {
            std::pop_heap(best.begin(), best.end(), closer);
            best.pop_back();
        }
    };
    auto work = [&](int worker) {
        const int begin = int(qint64(n) * worker / workers);
        const int end = int(qint64(n) * (worker + 1) / workers);
        std::vector<Neighbour>& best = partial[std::size_t(worker)];
        best.reserve(std::size_t(k) + 1);
        // Distances of a block of rows at once through Eigen, which vectorises the products and sums that a
        // plain loop over floats cannot be (the compiler may not reorder the additions).
        const Eigen::Map<const Eigen::VectorXf> q(m_set.row(query), dims);
        Eigen::VectorXf blockDistances;
        for (int blockStart = begin; blockStart < end; blockStart += kBlockRows) {
            if (control.canceled()) {
                stopped = true;
                return;
            }
            const int count = std::min(kBlockRows, end - blockStart);
            const Eigen::Map<const RowMatrixF> block(m_set.row(blockStart), count, dims);
            if (distance == Distance::Euclidean)
                blockDistances = (block.rowwise() - q.transpose()).rowwise().squaredNorm();
            else
                blockDistances = block * q;
            for (int j = 0; j < count; ++j) {
                const int i = blockStart + j;
                if (i == query)
                    continue;
                double d = 0.0;
                if (distance == Distance::Euclidean) {
                    d = std::sqrt(double(blockDistances(j)));
                } else {
                    // A zero vector has no direction: it is as far as anything can be.
                    const double denominator = queryNorm * m_norms[std::size_t(i)];
                    d = denominator > 0.0 ? 1.0 - double(blockDistances(j)) / denominator : 1.0;
                }
                consider(best, Neighbour { i, d });
            }
        }
    };
    if (workers == 1) {
        work(0);
    } else {
        std::vector<std::thread> threads;
        for (int w = 1; w < workers; ++w)
            threads.emplace_back(work, w);
        work(0);
        for (std::thread& thread : threads)
            thread.join();
    }
    if (stopped)
        return {};
    std::vector<Neighbour> merged;
    for (const auto& list : partial)
        merged.insert(merged.end(), list.begin(), list.end());
    std::sort(merged.begin(), merged.end(), closer);
    if (int(merged.size()) > k)
        merged.resize(std::size_t(k));
    control.report(1000);
    return merged;
}

} // namespace runlens::models::embeddings
