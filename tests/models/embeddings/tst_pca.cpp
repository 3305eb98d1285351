#include "models/embeddings/pca.h"

#include "models/embeddings/embeddingset.h"
#include "tests/models/embeddings/embeddingtestdata.h"
#include "tests/pythonoracle.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::models::embeddings;

class TestPca : public QObject
{
    Q_OBJECT
private slots:
    void explainedVarianceMatchesNumpySvd_data();
    void explainedVarianceMatchesNumpySvd();
    void componentsAreClampedToDimensions();
    void cancelReturnsNothing();
    void emptySetHasNoResult();
};

void TestPca::explainedVarianceMatchesNumpySvd_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("dims");
    QTest::newRow("2000x32") << 2000 << 32;
    QTest::newRow("5000x128 (several blocks)") << 5000 << 128;
    QTest::newRow("7x3 (fewer rows than a block)") << 7 << 3;
}

void TestPca::explainedVarianceMatchesNumpySvd()
{
    QFETCH(int, rows);
    QFETCH(int, dims);
    const EmbeddingSet set = test::clusteredEmbeddings(rows, dims);
    QTemporaryDir dir;
    const QString raw = dir.filePath(QStringLiteral("values.f32"));
    QVERIFY(test::writeRawFloats(set, raw));
    const int k = std::min(dims, 5);

    // numpy's reference: SVD of the centred data in double; ratios s^2 / sum(s^2), projections U * s.
    const QString code = QStringLiteral(
        "import sys, numpy as np\n"
        "x = np.fromfile(sys.argv[1], dtype='<f4').reshape(int(sys.argv[2]), int(sys.argv[3])).astype(np.float64)\n"
        "x -= x.mean(axis=0)\n"
        "u, s, vt = np.linalg.svd(x, full_matrices=False)\n"
        "k = int(sys.argv[4])\n"
        "print(' '.join(repr(v) for v in (s**2 / (s**2).sum())[:k]))\n"
        "p = u[:, :k] * s[:k]\n"
        "print(' '.join(repr(abs(v)) for v in p[:3].ravel()))\n");
    RUNLENS_PYTHON_ORACLE(
        output, { QStringLiteral("-c"), code, raw, QString::number(rows), QString::number(dims), QString::number(k) });
    const QStringList lines = output.trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 2);
    const QStringList ratios = lines[0].split(QLatin1Char(' '));
    const QStringList projections = lines[1].split(QLatin1Char(' '));

    const std::optional<PcaResult> pca = computePca(set, k);
    QVERIFY(pca);
    QCOMPARE(pca->components, k);
    QCOMPARE(int(pca->explainedVarianceRatio.size()), k);
    for (int c = 0; c < k; ++c) {
        const double expected = ratios[c].toDouble();
        QVERIFY2(std::abs(pca->explainedVarianceRatio[std::size_t(c)] - expected) <= 1e-5,
                 qPrintable(QStringLiteral("component %1: %2 vs numpy %3")
                                .arg(c)
                                .arg(pca->explainedVarianceRatio[std::size_t(c)], 0, 'g', 12)
                                .arg(expected, 0, 'g', 12)));
        if (c > 0)
            QVERIFY(pca->explainedVarianceRatio[std::size_t(c)] <= pca->explainedVarianceRatio[std::size_t(c - 1)]);
    }
    // Coordinates agree up to the sign of each component (SVD's sign is arbitrary).
    for (int i = 0; i < std::min(rows, 3); ++i) {
        for (int c = 0; c < k; ++c) {
            const double expected = projections[i * k + c].toDouble();
            const double actual = std::abs(pca->at(i, c));
            QVERIFY2(
                std::abs(actual - expected) <= 1e-3 * std::max(1.0, expected),
                qPrintable(QStringLiteral("point %1 component %2: %3 vs %4").arg(i).arg(c).arg(actual).arg(expected)));
        }
    }
}

void TestPca::componentsAreClampedToDimensions()
{
    const EmbeddingSet set = test::clusteredEmbeddings(50, 3);
    const std::optional<PcaResult> pca = computePca(set, 10);
    QVERIFY(pca);
    QCOMPARE(pca->components, 3);
    double sum = 0.0;
    for (double r : pca->explainedVarianceRatio)
        sum += r;
    QVERIFY(std::abs(sum - 1.0) < 1e-9);
}

void TestPca::cancelReturnsNothing()
{
    const EmbeddingSet set = test::clusteredEmbeddings(10000, 16);
    std::atomic_bool cancel = true;
    OperationControl control;
    control.cancel = &cancel;
    QVERIFY(!computePca(set, 2, control));
}

void TestPca::emptySetHasNoResult()
{
    QVERIFY(!computePca(EmbeddingSet {}, 2));
}

QTEST_GUILESS_MAIN(TestPca)
#include "tst_pca.moc"
