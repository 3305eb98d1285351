#include "models/embeddings/neighbours.h"

#include "models/embeddings/embeddingset.h"
#include "tests/models/embeddings/embeddingtestdata.h"
#include "tests/pythonoracle.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::models::embeddings;

class TestNeighbours : public QObject
{
    Q_OBJECT
private slots:
    void matchesNumpyBruteForce_data();
    void matchesNumpyBruteForce();
    void excludesTheQueryAndClampsK();
    void zeroVectorIsFarForCosine();
};

void TestNeighbours::matchesNumpyBruteForce_data()
{
    QTest::addColumn<bool>("cosine");
    QTest::addColumn<int>("rows");
    QTest::newRow("cosine, one worker") << true << 3000;
    QTest::newRow("euclidean, one worker") << false << 3000;
    QTest::newRow("cosine, several workers") << true << 20000;
    QTest::newRow("euclidean, several workers") << false << 20000;
}

void TestNeighbours::matchesNumpyBruteForce()
{
    QFETCH(bool, cosine);
    QFETCH(int, rows);
    const int dims = 24;
    const int k = 10;
    const EmbeddingSet set = test::clusteredEmbeddings(rows, dims, 5);
    QTemporaryDir dir;
    const QString raw = dir.filePath(QStringLiteral("values.f32"));
    QVERIFY(test::writeRawFloats(set, raw));
    const QList<int> queries { 0, 17, rows - 1 };
    const QString code
        = QStringLiteral("import sys, numpy as np\n"
                         "x = np.fromfile(sys.argv[1], dtype='<f4').reshape(int(sys.argv[2]), -1).astype(np.float64)\n"
                         "cosine = sys.argv[3] == '1'\n"
                         "for q in (0, 17, x.shape[0] - 1):\n"
                         "    if cosine:\n"
                         "        n = np.linalg.norm(x, axis=1)\n"
                         "        d = 1 - x @ x[q] / (n * n[q])\n"
                         "    else:\n"
                         "        d = np.linalg.norm(x - x[q], axis=1)\n"
                         "    d[q] = np.inf\n"
                         "    print(' '.join(str(i) for i in np.argsort(d, kind='stable')[:10]))\n");
    RUNLENS_PYTHON_ORACLE(
        output,
        { QStringLiteral("-c"), code, raw, QString::number(rows), cosine ? QStringLiteral("1") : QStringLiteral("0") });
    const QStringList lines = output.trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), queries.size());
    const NeighbourIndex index(set);
    for (int q = 0; q < queries.size(); ++q) {
        const std::vector<Neighbour> found
            = index.nearest(queries[q], k, cosine ? Distance::Cosine : Distance::Euclidean);
        QStringList ids;
        for (const Neighbour& n : found)
            ids.append(QString::number(n.index));
        QCOMPARE(ids.join(QLatin1Char(' ')), lines[q]);
        for (std::size_t i = 1; i < found.size(); ++i)
            QVERIFY(found[i - 1].distance <= found[i].distance);
    }
}

void TestNeighbours::excludesTheQueryAndClampsK()
{
    const EmbeddingSet set = test::clusteredEmbeddings(4, 3);
    const NeighbourIndex index(set);
    const std::vector<Neighbour> found = index.nearest(2, 10, Distance::Euclidean);
    QCOMPARE(int(found.size()), 3);
    for (const Neighbour& n : found)
        QVERIFY(n.index != 2);
    QVERIFY(index.nearest(7, 3, Distance::Euclidean).empty());
    QVERIFY(index.nearest(0, 0, Distance::Euclidean).empty());
}

void TestNeighbours::zeroVectorIsFarForCosine()
{
    EmbeddingSet set;
    set.rows = 3;
    set.dims = 2;
    set.values = { 1, 0, 0, 0, 2, 0.1f };
    const NeighbourIndex index(set);
    const std::vector<Neighbour> found = index.nearest(0, 2, Distance::Cosine);
    QCOMPARE(found.size(), std::size_t(2));
    QCOMPARE(found[0].index, 2);
    QCOMPARE(found[1].index, 1);
    QCOMPARE(found[1].distance, 1.0);
}

QTEST_GUILESS_MAIN(TestNeighbours)
#include "tst_neighbours.moc"
