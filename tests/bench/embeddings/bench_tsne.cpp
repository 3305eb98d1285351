// Barnes-Hut t-SNE benchmark: 10k points in 50 dimensions (ten Gaussian clusters), default options (perplexity
// 30, theta 0.5, 1000 iterations). Prints the time of the input affinities (exact kNN + bandwidths), iterations
// per second of the gradient descent, the final KL divergence, and how often a point's nearest neighbour in the
// layout is from its own cluster. There is no peer: a python t-SNE without numpy/sklearn says nothing about
// ours, so the figures are printed as they are (the RESULT line has no ratio).
//
//   bench_tsne [--points N] [--dims D] [--iterations I] [--threads T] [--runs R]

#include "models/embeddings/tsne.h"

#include "tests/bench/benchcommon.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace runlens;

namespace {

constexpr int kClusters = 10;

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double nearestNeighbourAgreement(const std::vector<float>& embedding, const std::vector<int>& label)
{
    const std::size_t n = label.size();
    std::size_t agree = 0;
    for (std::size_t i = 0; i < n; ++i) {
        float best = std::numeric_limits<float>::infinity();
        std::size_t nearest = i;
        for (std::size_t j = 0; j < n; ++j) {
            const float dx = embedding[i * 2] - embedding[j * 2];
            const float dy = embedding[i * 2 + 1] - embedding[j * 2 + 1];
            const float distance = dx * dx + dy * dy;
            if (j != i && distance < best) {
                best = distance;
                nearest = j;
            }
        }
        agree += label[nearest] == label[i] ? 1 : 0;
    }
    return double(agree) / double(n);
}

} // namespace

int main(int argc, char** argv)
{
    std::size_t points = 10000;
    std::size_t dims = 50;
    int iterations = 1000;
    int threads = 0;
    int runs = 1;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--points"))
            points = std::strtoull(argv[++i], nullptr, 10);
        else if (!std::strcmp(argv[i], "--dims"))
            dims = std::strtoull(argv[++i], nullptr, 10);
        else if (!std::strcmp(argv[i], "--iterations"))
            iterations = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--threads"))
            threads = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--runs"))
            runs = std::max(1, std::atoi(argv[++i]));
    }

    // Cluster centres drawn with spread 10 per axis, points with spread 1 around them.
    std::mt19937_64 engine(42);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> centres(std::size_t(kClusters) * dims);
    for (double& value : centres)
        value = 10.0 * normal(engine);
    std::vector<float> data(points * dims);
    std::vector<int> label(points);
    for (std::size_t i = 0; i < points; ++i) {
        label[i] = int(i % kClusters);
        for (std::size_t d = 0; d < dims; ++d)
            data[i * dims + d] = float(centres[std::size_t(label[i]) * dims + d] + normal(engine));
    }

    models::embeddings::TsneOptions options;
    options.iterations = iterations;
    options.threads = threads;
    const int usedThreads = threads > 0 ? threads : bench::hardwareThreads();
    std::printf("t-SNE: %zu points x %zu dims, %d iterations, perplexity %.0f, theta %.1f, %s\n", points, dims,
                iterations, options.perplexity, options.theta, bench::threadsText(usedThreads).c_str());

    std::vector<double> affinityMs;
    std::vector<double> descentMs;
    double kl = 0.0;
    std::vector<float> embedding;
    for (int run = 0; run < runs; ++run) {
        auto start = std::chrono::steady_clock::now();
        models::embeddings::TsneRun tsne(data.data(), points, dims, options);
        if (!tsne.isValid()) {
            std::fprintf(stderr, "t-SNE refused the input: %s\n", models::embeddings::describe(tsne.error()));
            return 1;
        }
        affinityMs.push_back(seconds(start) * 1e3);
        start = std::chrono::steady_clock::now();
        // In chunks of 50, as the projector animates it.
        while (tsne.step(50)) { }
        descentMs.push_back(seconds(start) * 1e3);
        kl = tsne.klDivergence();
        embedding = tsne.embedding();
        std::printf("run %d: affinities %.0f ms, %d iterations %.0f ms (%.1f iterations/s), KL %.4f%s\n", run + 1,
                    affinityMs.back(), iterations, descentMs.back(), iterations / descentMs.back() * 1e3, kl,
                    points > models::embeddings::TsneRun::kExactKlPoints ? " (Barnes-Hut estimate of Z)" : " (exact)");
    }
    const double descent = bench::median(descentMs);
    std::printf("input affinities: %.0f ms (median of %d)\n", bench::median(affinityMs), runs);
    std::printf("gradient descent: %.1f iterations/s (median of %d)\n", iterations / descent * 1e3, runs);
    std::printf("final KL divergence: %.4f\n", kl);
    std::printf("nearest neighbour in the same cluster: %.2f %%\n", nearestNeighbourAgreement(embedding, label) * 100);
    bench::printNoRatio("t-SNE " + std::to_string(points) + " x " + std::to_string(dims) + ", "
                            + std::to_string(iterations) + " iterations",
                        { "RunLens", descent, runs, bench::threadsText(usedThreads) },
                        "no peer for t-SNE; figures above");
    return 0;
}
