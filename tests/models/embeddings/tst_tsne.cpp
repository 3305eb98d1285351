#include "models/embeddings/tsne.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace runlens::models::embeddings;

namespace {

constexpr std::size_t kDims = 50;

/// Three Gaussian clusters (unit spread) in 50-D whose centres are 20 apart, `perCluster` points each, in
/// interleaved order so that the clusters are not contiguous rows.
struct Clusters
{
    std::vector<float> data;
    std::vector<int> label;
    std::size_t n = 0;
};

Clusters makeClusters(std::size_t perCluster, std::uint64_t seed = 7)
{
    std::mt19937_64 engine(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    Clusters result;
    result.n = perCluster * 3;
    result.data.resize(result.n * kDims);
    result.label.resize(result.n);
    for (std::size_t i = 0; i < result.n; ++i) {
        const int cluster = int(i % 3);
        result.label[i] = cluster;
        for (std::size_t d = 0; d < kDims; ++d) {
            const double centre = d == std::size_t(cluster) ? 20.0 / std::sqrt(2.0) : 0.0;
            result.data[i * kDims + d] = float(centre + normal(engine));
        }
    }
    return result;
}

/// Fraction of points whose nearest other point in the embedding has the same label.
double nearestNeighbourAgreement(const std::vector<float>& embedding, int dims, const std::vector<int>& label)
{
    const std::size_t n = label.size();
    std::size_t agree = 0;
    for (std::size_t i = 0; i < n; ++i) {
        double best = std::numeric_limits<double>::infinity();
        std::size_t nearest = i;
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i)
                continue;
            double distance = 0.0;
            for (int d = 0; d < dims; ++d) {
                const double diff = double(embedding[i * std::size_t(dims) + std::size_t(d)])
                    - double(embedding[j * std::size_t(dims) + std::size_t(d)]);
                distance += diff * diff;
            }
            if (distance < best) {
                best = distance;
                nearest = j;
            }
        }
        agree += label[nearest] == label[i] ? 1 : 0;
    }
    return double(agree) / double(n);
}

bool allFinite(const std::vector<float>& values)
{
    for (float value : values)
        if (!std::isfinite(value))
            return false;
    return true;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

} // namespace

class TestTsne : public QObject
{
    Q_OBJECT

private slots:
    void separatesClusters();
    void separatesClustersIn3d();
    void reproducibleForSeed();
    void sameResultOnAnyThreadCount();
    void stepStopsAtIterations();
    void clipsPerplexityForFewPoints();
    void tinyInputs_data();
    void tinyInputs();
    void rejectsBadInput();
    void cancelsDuringAffinities();
    void automaticLearningRate();
    void barnesHutMatchesExactRepulsion();
};

void TestTsne::separatesClusters()
{
    const ::Clusters clusters = makeClusters(200);
    TsneOptions options;
    TsneRun run(clusters.data.data(), clusters.n, kDims, options);
    QVERIFY(run.isValid());
    QCOMPARE(run.neighbours(), 90);
    QVERIFY(!run.perplexityClipped());
    QVERIFY(run.step(300));
    QCOMPARE(run.iteration(), 300);
    const double kl300 = run.klDivergence();
    QVERIFY(run.step(200));
    QCOMPARE(run.iteration(), 500);
    const double kl500 = run.klDivergence();
    qInfo("KL divergence at 300: %.4f, at 500: %.4f", kl300, kl500);
    QVERIFY(std::isfinite(kl300) && kl300 > 0.0);
    QVERIFY(kl500 < kl300);
    QCOMPARE(run.embedding().size(), clusters.n * 2);
    QVERIFY(allFinite(run.embedding()));
    const double agreement = nearestNeighbourAgreement(run.embedding(), 2, clusters.label);
    qInfo("nearest neighbour in the same cluster: %.1f %%", agreement * 100.0);
    QVERIFY(agreement >= 0.98);
}

void TestTsne::separatesClustersIn3d()
{
    const ::Clusters clusters = makeClusters(200);
    TsneOptions options;
    options.outputDims = 3;
    TsneRun run(clusters.data.data(), clusters.n, kDims, options);
    QVERIFY(run.isValid());
    QCOMPARE(run.outputDims(), 3);
    run.step(500);
    QCOMPARE(run.embedding().size(), clusters.n * 3);
    QVERIFY(allFinite(run.embedding()));
    // The layout uses the third axis, not a flat plane.
    double spread = 0.0;
    for (std::size_t i = 0; i < clusters.n; ++i)
        spread += std::abs(double(run.embedding()[i * 3 + 2]));
    QVERIFY(spread / double(clusters.n) > 0.1);
    const double agreement = nearestNeighbourAgreement(run.embedding(), 3, clusters.label);
    qInfo("3-D: nearest neighbour in the same cluster: %.1f %%, KL %.4f", agreement * 100.0, run.klDivergence());
    QVERIFY(agreement >= 0.98);
}

void TestTsne::reproducibleForSeed()
{
    const ::Clusters clusters = makeClusters(200);
    TsneOptions options;
    options.iterations = 300;
    TsneRun first(clusters.data.data(), clusters.n, kDims, options);
    TsneRun second(clusters.data.data(), clusters.n, kDims, options);
    first.step(300);
    // In uneven chunks: how the caller splits the work does not matter either.
    second.step(7);
    second.step(250);
    second.step(100);
    QCOMPARE(second.iteration(), 300);
    QVERIFY(sameBits(first.embedding(), second.embedding()));
    QCOMPARE(first.klDivergence(), second.klDivergence());

    options.seed = 2;
    TsneRun other(clusters.data.data(), clusters.n, kDims, options);
    other.step(300);
    QVERIFY(!sameBits(first.embedding(), other.embedding()));
}

void TestTsne::sameResultOnAnyThreadCount()
{
    // Enough points that the gradient really runs on several threads.
    const ::Clusters clusters = makeClusters(1000);
    TsneOptions options;
    options.iterations = 30;
    options.threads = 1;
    TsneRun single(clusters.data.data(), clusters.n, kDims, options);
    options.threads = 3;
    TsneRun several(clusters.data.data(), clusters.n, kDims, options);
    single.step(30);
    several.step(30);
    QVERIFY(sameBits(single.embedding(), several.embedding()));
    QCOMPARE(single.klDivergence(), several.klDivergence());
}

void TestTsne::stepStopsAtIterations()
{
    const ::Clusters clusters = makeClusters(20);
    TsneOptions options;
    options.perplexity = 5;
    options.iterations = 10;
    TsneRun run(clusters.data.data(), clusters.n, kDims, options);
    const std::vector<float> start = run.embedding();
    QCOMPARE(run.iteration(), 0);
    QVERIFY(run.step(4));
    QVERIFY(!sameBits(start, run.embedding()));
    QVERIFY(run.step(4));
    QVERIFY(!run.step(4));
    QCOMPARE(run.iteration(), 10);
    QVERIFY(run.isFinished());
    const std::vector<float> end = run.embedding();
    QVERIFY(!run.step(5));
    QCOMPARE(run.iteration(), 10);
    QVERIFY(sameBits(end, run.embedding()));
}

void TestTsne::clipsPerplexityForFewPoints()
{
    // 20 points cannot have 3 x 30 neighbours: the perplexity comes down to (n - 1) / 3.
    const ::Clusters clusters = makeClusters(7);
    QCOMPARE(clusters.n, std::size_t(21));
    TsneOptions options;
    TsneRun run(clusters.data.data(), clusters.n, kDims, options);
    QVERIFY(run.isValid());
    QVERIFY(run.perplexityClipped());
    QCOMPARE(run.effectivePerplexity(), 20.0 / 3.0);
    QCOMPARE(run.neighbours(), 20);
    run.step(300);
    QVERIFY(allFinite(run.embedding()));
    QVERIFY(std::isfinite(run.klDivergence()));

    // Exactly 3 x perplexity + 1 points is enough.
    options.perplexity = 20.0 / 3.0;
    TsneRun fits(clusters.data.data(), clusters.n, kDims, options);
    QVERIFY(!fits.perplexityClipped());
}

void TestTsne::tinyInputs_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("outputDims");
    QTest::newRow("0 points") << 0 << 2;
    QTest::newRow("1 point") << 1 << 2;
    QTest::newRow("2 points") << 2 << 2;
    QTest::newRow("3 points") << 3 << 2;
    QTest::newRow("0 points 3-D") << 0 << 3;
    QTest::newRow("1 point 3-D") << 1 << 3;
    QTest::newRow("2 points 3-D") << 2 << 3;
}

void TestTsne::tinyInputs()
{
    QFETCH(int, points);
    QFETCH(int, outputDims);
    const ::Clusters clusters = makeClusters(1);
    TsneOptions options;
    options.outputDims = outputDims;
    options.iterations = 100;
    TsneRun run(points == 0 ? nullptr : clusters.data.data(), std::size_t(points), kDims, options);
    QVERIFY(run.isValid());
    QCOMPARE(run.embedding().size(), std::size_t(points * outputDims));
    QVERIFY(!run.step(100));
    QCOMPARE(run.iteration(), 100);
    QCOMPARE(run.embedding().size(), std::size_t(points * outputDims));
    QVERIFY(allFinite(run.embedding()));
    QVERIFY(std::isfinite(run.klDivergence()));
    if (points == 1) {
        for (float value : run.embedding())
            QCOMPARE(value, 0.0f);
    }
    if (points >= 2) {
        QVERIFY(run.perplexityClipped());
        QCOMPARE(run.neighbours(), points - 1);
        // Two different inputs stay two different points.
        bool distinct = false;
        for (int d = 0; d < outputDims; ++d)
            distinct = distinct || run.embedding()[std::size_t(d)] != run.embedding()[std::size_t(outputDims + d)];
        QVERIFY(distinct);
    }
}

void TestTsne::rejectsBadInput()
{
    const ::Clusters clusters = makeClusters(20);
    {
        TsneOptions options;
        options.outputDims = 4;
        TsneRun run(clusters.data.data(), clusters.n, kDims, options);
        QCOMPARE(run.error(), TsneError::InvalidOutputDims);
        QVERIFY(!run.step(10));
        QVERIFY(run.embedding().empty());
    }
    for (double perplexity : { 0.0, -1.0, std::nan("") }) {
        TsneOptions options;
        options.perplexity = perplexity;
        TsneRun run(clusters.data.data(), clusters.n, kDims, options);
        QCOMPARE(run.error(), TsneError::InvalidOptions);
    }
    {
        TsneOptions options;
        options.theta = -0.5;
        QCOMPARE(TsneRun(clusters.data.data(), clusters.n, kDims, options).error(), TsneError::InvalidOptions);
    }
    {
        QCOMPARE(TsneRun(nullptr, 10, kDims).error(), TsneError::InvalidInput);
        QCOMPARE(TsneRun(clusters.data.data(), clusters.n, 0).error(), TsneError::InvalidInput);
    }
    {
        std::vector<float> data = clusters.data;
        data[17] = std::numeric_limits<float>::quiet_NaN();
        TsneRun run(data.data(), clusters.n, kDims);
        QCOMPARE(run.error(), TsneError::NonFiniteInput);
        QVERIFY(!run.step(1));
        QCOMPARE(run.klDivergence(), 0.0);
        data[17] = std::numeric_limits<float>::infinity();
        QCOMPARE(TsneRun(data.data(), clusters.n, kDims).error(), TsneError::NonFiniteInput);
    }
    QVERIFY(QByteArray(describe(TsneError::NonFiniteInput)).contains("NaN"));
}

void TestTsne::cancelsDuringAffinities()
{
    const ::Clusters clusters = makeClusters(200);
    std::vector<double> reported;
    TsneRun finished(clusters.data.data(), clusters.n, kDims, {}, [&](double fraction) {
        reported.push_back(fraction);
        return true;
    });
    QVERIFY(finished.isValid());
    QVERIFY(!reported.empty());
    QCOMPARE(reported.back(), 1.0);
    QVERIFY(std::is_sorted(reported.begin(), reported.end()));

    TsneRun cancelled(clusters.data.data(), clusters.n, kDims, {}, [](double) { return false; });
    QCOMPARE(cancelled.error(), TsneError::Cancelled);
    QVERIFY(!cancelled.isValid());
    QVERIFY(!cancelled.step(10));
    QVERIFY(cancelled.embedding().empty());
}

void TestTsne::automaticLearningRate()
{
    const ::Clusters clusters = makeClusters(200);
    TsneOptions options;
    QCOMPARE(TsneRun(clusters.data.data(), clusters.n, kDims, options).learningRate(), 200.0);
    options.learningRate = TsneOptions::kAutoLearningRate;
    // max(600 / 12 / 4, 50)
    QCOMPARE(TsneRun(clusters.data.data(), clusters.n, kDims, options).learningRate(), 50.0);
    const ::Clusters many = makeClusters(1000);
    options.earlyExaggeration = 4;
    QCOMPARE(TsneRun(many.data.data(), many.n, kDims, options).learningRate(), 3000.0 / 4.0 / 4.0);
}

void TestTsne::barnesHutMatchesExactRepulsion()
{
    // theta = 0 is the exact gradient; the approximation at 0.5 converges to a layout of the same quality (the
    // trajectories differ on the way, so only the converged divergences are compared).
    const ::Clusters clusters = makeClusters(100);
    TsneOptions options;
    options.theta = 0.0;
    TsneRun exact(clusters.data.data(), clusters.n, kDims, options);
    options.theta = 0.5;
    TsneRun approximate(clusters.data.data(), clusters.n, kDims, options);
    exact.step(1000);
    approximate.step(1000);
    qInfo("KL exact gradient %.4f, Barnes-Hut %.4f", exact.klDivergence(), approximate.klDivergence());
    QVERIFY(std::abs(exact.klDivergence() - approximate.klDivergence()) < 0.05 * exact.klDivergence());
}

QTEST_GUILESS_MAIN(TestTsne)
#include "tst_tsne.moc"
