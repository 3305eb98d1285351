#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace runlens::models::embeddings {

/// Settings of a t-SNE run. The defaults are those of van der Maaten's Barnes-Hut t-SNE (2014).
struct TsneOptions
{
    /// A learningRate of kAutoLearningRate picks max(n / earlyExaggeration / 4, 50), the rule of
    /// Belkina et al. (2019) that scikit-learn calls "auto"; any positive value is used as is.
    static constexpr double kAutoLearningRate = 0.0;

    int outputDims = 2; ///< 2 or 3
    /// Effective number of neighbours. Clipped to (n - 1) / 3 when there are too few points (see
    /// TsneRun::perplexityClipped()).
    double perplexity = 30.0;
    /// Step size. The gradient includes its factor 4 (as scikit-learn's does, unlike bhtsne's), so 200 here
    /// is scikit-learn's 200.
    double learningRate = 200.0;
    int iterations = 1000; ///< Total iterations; step() stops there.
    /// Barnes-Hut accuracy: a cell is summarised when its width / distance < theta. 0 gives the exact
    /// repulsion (quadratic time; only for small sets).
    double theta = 0.5;
    /// Iterations with the input affinities multiplied by earlyExaggeration and momentum 0.5; momentum is
    /// 0.8 afterwards.
    int exaggerationIterations = 250;
    double earlyExaggeration = 12.0;
    std::uint64_t seed = 1;
    int threads = 0; ///< 0: one per hardware thread
};

/// Why a run cannot proceed. The projector turns these into translated messages.
enum class TsneError {
    None,
    InvalidOutputDims, ///< outputDims is neither 2 nor 3
    InvalidOptions, ///< perplexity, learning rate, theta, exaggeration or iterations out of range
    InvalidInput, ///< no data pointer for n > 0, or points with zero dimensions
    NonFiniteInput, ///< a NaN or an infinity among the input values
    Cancelled, ///< the progress callback asked to stop while the input affinities were computed
};

/// English description of an error, for logs.
const char* describe(TsneError error);

/// One t-SNE reduction in progress: the input affinities are computed by the constructor (exact k nearest
/// neighbours, k = 3 x perplexity, by brute force parallelised over rows, and a binary search for each point's
/// Gaussian bandwidth), then each step() runs gradient-descent iterations with a Barnes-Hut quadtree (2-D) or
/// octree (3-D) for the repulsive forces. A UI animates the run by calling step() with a few iterations at a time
/// and drawing embedding() in between; a worker thread runs it in chunks and cancels by no longer calling step().
/// The object owns everything it needs (the input data is not kept after construction) and is not thread-safe:
/// use it from one thread at a time.
///
/// The result depends only on the input, the options and the seed: every per-point computation is independent
/// and every sum runs in point order, so the thread count does not change a single bit of the output.
class TsneRun
{
public:
    /// Called during construction with the fraction done (0..1) of the affinity computation, from the calling
    /// thread; returning false cancels (error() then says Cancelled).
    using Progress = std::function<bool(double fraction)>;

    /// `data` holds n rows of `dims` floats, row-major. It is read during construction only.
    TsneRun(const float* data, std::size_t n, std::size_t dims, const TsneOptions& options = {},
            const Progress& progress = {});
    ~TsneRun();
    TsneRun(const TsneRun&) = delete;
    TsneRun& operator=(const TsneRun&) = delete;

    bool isValid() const { return m_error == TsneError::None; }
    TsneError error() const { return m_error; }

    /// Runs up to `iterations` more iterations (never past options.iterations). Returns true while iterations
    /// remain after this call; false once the run is finished, or when it is invalid.
    bool step(int iterations);
    bool isFinished() const { return !isValid() || m_iteration >= m_options.iterations; }

    /// Current positions: pointCount() rows of outputDims() floats, row-major, centred on the origin.
    /// Empty when the run is invalid.
    const std::vector<float>& embedding() const { return m_embedding; }
    int iteration() const { return m_iteration; }
    std::size_t pointCount() const { return m_n; }
    int outputDims() const { return m_options.outputDims; }

    /// KL(P || Q) of the current embedding against the input affinities (not exaggerated, also during early
    /// exaggeration). Exact for up to kExactKlPoints points; above that the normalisation of Q is the
    /// Barnes-Hut estimate at theta (the sum over P's non-zero entries is always exact). Computed on demand and
    /// cached until the next step. 0 for fewer than two points.
    double klDivergence() const;
    static constexpr std::size_t kExactKlPoints = 4096;

    /// The perplexity actually used, and whether it was lowered because there are fewer than
    /// 3 x perplexity + 1 points: it is then (n - 1) / 3, each point's neighbours being all other points.
    double effectivePerplexity() const { return m_perplexity; }
    bool perplexityClipped() const { return m_perplexityClipped; }
    /// Neighbours per point in the input affinities (3 x perplexity, at most n - 1).
    int neighbours() const { return m_neighbours; }
    /// The learning rate in use (resolved when the options ask for the automatic one).
    double learningRate() const { return m_learningRate; }

private:
    void computeAffinities(const float* data, std::size_t dims, const Progress& progress);
    void initialiseEmbedding();
    void iterate();
    void publish();
    template<int D> void gradient(std::vector<double>& gradient) const;
    template<int D> double normalisation() const;

    TsneOptions m_options;
    TsneError m_error = TsneError::None;
    std::size_t m_n = 0;
    int m_threads = 1;
    int m_neighbours = 0;
    double m_perplexity = 0.0;
    bool m_perplexityClipped = false;
    double m_learningRate = 0.0;
    int m_iteration = 0;

    // Symmetric input affinities P in compressed sparse rows, summing to 1.
    std::vector<std::size_t> m_rowStart;
    std::vector<std::uint32_t> m_columns;
    std::vector<double> m_values;

    std::vector<double> m_y; // n x outputDims
    std::vector<double> m_update;
    std::vector<double> m_gains;
    std::vector<double> m_gradient;
    std::vector<float> m_embedding;

    mutable double m_kl = 0.0;
    mutable int m_klIteration = -1;
};

} // namespace runlens::models::embeddings
