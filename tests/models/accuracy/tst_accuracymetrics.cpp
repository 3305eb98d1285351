#include "importers/tensor/npyfile.h"
#include "models/accuracy/accuracymetrics.h"
#include "tests/pythonoracle.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>

using namespace runlens;
using namespace runlens::models::accuracy;

namespace {

models::tensor::Tensor floats(const std::vector<float>& values, std::vector<std::int64_t> shape = {})
{
    if (shape.empty() && values.size() != 1)
        shape = { std::int64_t(values.size()) };
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    if (!values.empty())
        std::memcpy(bytes.data(), values.data(), bytes.size());
    models::tensor::Tensor t;
    t.dtype = models::tensor::DType::Float32;
    t.shape = shape;
    t.strides = models::tensor::Tensor::contiguousStrides(shape, sizeof(float));
    t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    return t;
}

void compareValue(const char* what, const std::optional<double>& actual, const QJsonValue& expected)
{
    if (expected.isNull()) {
        QVERIFY2(
            !actual,
            qPrintable(QStringLiteral("%1: expected null, got %2").arg(QLatin1String(what)).arg(actual.value_or(0))));
        return;
    }
    QVERIFY2(actual.has_value(),
             qPrintable(QStringLiteral("%1: expected %2, got null").arg(QLatin1String(what)).arg(expected.toDouble())));
    const double e = expected.toDouble();
    QVERIFY2(std::abs(*actual - e) <= 1e-9 * std::max(1.0, std::abs(e)),
             qPrintable(QStringLiteral("%1: expected %2, got %3")
                            .arg(QLatin1String(what))
                            .arg(e, 0, 'g', 17)
                            .arg(*actual, 0, 'g', 17)));
}

} // namespace

class TestAccuracyMetrics : public QObject
{
    Q_OBJECT

private slots:
    // Every case of the numpy oracle (edge cases and random data) gives the oracle's metrics.
    void matchesNumpyOracle()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const test::PythonRun run
            = test::runPython({ QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/accuracy_oracle.py"),
                                QStringLiteral("cases"), dir.path() });
        if (run.status == test::PythonRun::Status::Unavailable)
            QSKIP(qPrintable(run.message));
        QVERIFY2(run.ok(), qPrintable(run.message));
        const QJsonArray cases = QJsonDocument::fromJson(run.output.toUtf8()).array();
        QVERIFY(cases.size() >= 15);
        for (const QJsonValue& value : cases) {
            const QJsonObject c = value.toObject();
            const QString name = c.value(QLatin1String("name")).toString();
            const importers::tensor::NpyFileResult bench
                = importers::tensor::openNpyFile(c.value(QLatin1String("bench")).toString());
            const importers::tensor::NpyFileResult target
                = importers::tensor::openNpyFile(c.value(QLatin1String("target")).toString());
            QVERIFY2(bench.tensor && target.tensor, qPrintable(name));
            const std::optional<TensorMetrics> m = computeTensorMetrics(*bench.tensor, *target.tensor);
            QVERIFY(m);
            QVERIFY2(m->compared, qPrintable(name));
            const QJsonObject e = c.value(QLatin1String("metrics")).toObject();
            const QByteArray label = name.toUtf8();
            compareValue(QByteArray(label + " cosine").constData(), m->cosine, e.value(QLatin1String("cosine")));
            compareValue(QByteArray(label + " max_abs").constData(), m->maxAbs, e.value(QLatin1String("max_abs")));
            compareValue(QByteArray(label + " max_rel").constData(), m->maxRel, e.value(QLatin1String("max_rel")));
            compareValue(QByteArray(label + " mean_abs").constData(), m->meanAbs, e.value(QLatin1String("mean_abs")));
            compareValue(QByteArray(label + " rmse").constData(), m->rmse, e.value(QLatin1String("rmse")));
            compareValue(QByteArray(label + " rel_euclidean").constData(), m->relEuclidean,
                         e.value(QLatin1String("rel_euclidean")));
            compareValue(QByteArray(label + " within_1e-3").constData(), m->within1e3,
                         e.value(QLatin1String("within_1e-3")));
            compareValue(QByteArray(label + " within_5e-3").constData(), m->within5e3,
                         e.value(QLatin1String("within_5e-3")));
            QCOMPARE(m->nanMismatch + m->infMismatch, e.value(QLatin1String("nan_mismatch")).toInteger());
            QCOMPARE(m->underflow, e.value(QLatin1String("underflow")).toInteger());
            QCOMPARE(m->overflow, e.value(QLatin1String("overflow")).toInteger());
        }
    }

    void zeroVectorsForCosine()
    {
        const auto both = computeTensorMetrics(floats({ 0, 0, 0 }), floats({ 0, 0, 0 }));
        QCOMPARE(both->cosine, std::optional<double>(1.0));
        QCOMPARE(tensorVerdict(*both, {}), Verdict::Pass);
        const auto one = computeTensorMetrics(floats({ 0, 0, 0 }), floats({ 0, 1, 0 }));
        QVERIFY(!one->cosine);
        QVERIFY(!one->note.isEmpty());
        QCOMPARE(tensorVerdict(*one, {}), Verdict::Error);
    }

    void bothNanAgreeAndMismatchIsAnError()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const auto same = computeTensorMetrics(floats({ 1, float(nan), 3 }), floats({ 1, float(nan), 3 }));
        QCOMPARE(same->nanMismatch, 0);
        QCOMPARE(same->maxAbs, std::optional<double>(0.0));
        QCOMPARE(tensorVerdict(*same, {}), Verdict::Pass);
        const auto mismatch = computeTensorMetrics(floats({ 1, float(nan), 3 }), floats({ 1, 2, 3 }));
        QCOMPARE(mismatch->nanMismatch, 1);
        QCOMPARE(tensorVerdict(*mismatch, {}), Verdict::Error);
    }

    void equalInfinitiesAgree()
    {
        const float inf = std::numeric_limits<float>::infinity();
        const auto same = computeTensorMetrics(floats({ inf, -inf, 2 }), floats({ inf, -inf, 2 }));
        QCOMPARE(same->infMismatch, 0);
        QCOMPARE(same->cosine, std::optional<double>(1.0));
        const auto opposite = computeTensorMetrics(floats({ inf, 1, 2 }), floats({ -inf, 1, 2 }));
        QCOMPARE(opposite->infMismatch, 1);
        QCOMPARE(tensorVerdict(*opposite, {}), Verdict::Error);
    }

    void emptyAndShapeDifferencesAreNotCompared()
    {
        models::tensor::Tensor empty = floats({}, { 0, 3 });
        const auto e = computeTensorMetrics(empty, empty);
        QVERIFY(!e->compared);
        QCOMPARE(tensorVerdict(*e, {}), Verdict::None);
        const auto s = computeTensorMetrics(floats({ 1, 2, 3, 4 }, { 2, 2 }), floats({ 1, 2, 3, 4 }, { 4 }));
        QVERIFY(!s->compared);
        QVERIFY(s->note.contains(QLatin1String("[2, 2]")));
    }

    void oneElementHasNoCosine()
    {
        const auto m = computeTensorMetrics(floats({ 2 }), floats({ 2.5 }));
        QVERIFY(!m->cosine);
        QCOMPARE(m->maxAbs, std::optional<double>(0.5));
    }

    void cancelStopsTheWalk()
    {
        const auto m = computeTensorMetrics(floats({ 1, 2 }), floats({ 1, 2 }), [] { return true; });
        QVERIFY(!m);
    }

    void msprobeThresholds()
    {
        // The rule file is compiled in (the values below would also be the fallback without it).
        QVERIFY(QFile::exists(QStringLiteral(":/accuracy/comparethresholds.json")));
        const CompareThresholds t = CompareThresholds::builtIn();
        QCOMPARE(t.errorCosine, 0.9);
        QCOMPARE(t.errorCosineWithAbs, 0.99);
        QCOMPARE(t.errorCosineAbs, 0.001);
        QCOMPARE(t.errorMaxAbs, 1.0);
        QCOMPARE(t.statisticsWarningRatio, 0.5);
        TensorMetrics m;
        m.compared = true;
        m.elements = 10;
        m.within1e3 = 1.0;
        m.cosine = 0.985;
        m.maxAbs = 0.0005;
        QCOMPARE(tensorVerdict(m, t), Verdict::Warning); // cosine < 0.99 but max_abs small
        m.maxAbs = 0.002;
        QCOMPARE(tensorVerdict(m, t), Verdict::Error);
        m.cosine = 0.99999;
        m.maxAbs = 1.5;
        QCOMPARE(tensorVerdict(m, t), Verdict::Error);
        m.maxAbs = 0.0;
        QCOMPARE(tensorVerdict(m, t), Verdict::Pass);
        m.underflow = 1;
        QCOMPARE(tensorVerdict(m, t), Verdict::Warning);
        const CompareThresholds custom
            = CompareThresholds::fromJson(QJsonDocument::fromJson(R"({"tensor": {"error_max_abs": 0.1}})").object(), t);
        QCOMPARE(custom.errorMaxAbs, 0.1);
        QCOMPARE(custom.errorCosine, 0.9);
    }

    void statisticsDifferences()
    {
        const StatisticsMetrics m = computeStatisticsMetrics({ 2.0, -1.0, 0.0, 4.0 }, { 3.0, -1.0, 0.5, 4.0 });
        QCOMPARE(m.diff[0], std::optional<double>(1.0));
        QCOMPARE(m.rel[0], std::optional<double>(0.5));
        QVERIFY(!m.rel[2]); // bench Mean is 0
        QCOMPARE(m.diff[2], std::optional<double>(0.5));
        QVERIFY(std::abs(*m.ratio[0] - 1.0 / 3.0) < 1e-9);
        QCOMPARE(statisticsVerdict(m, {}), Verdict::Warning); // Mean: 0.5 / 0.5 > 0.5
        const StatisticsMetrics same = computeStatisticsMetrics({ 2.0, 1.0, 1.5, 3.0 }, { 2.0, 1.0, 1.5, 3.0 });
        QCOMPARE(statisticsVerdict(same, {}), Verdict::Pass);
        const StatisticsMetrics inf = computeStatisticsMetrics(
            { 2.0, 1.0, 1.5, 3.0 }, { std::numeric_limits<double>::infinity(), 1.0, 1.5, 3.0 });
        QCOMPARE(statisticsVerdict(inf, {}), Verdict::Error);
        QCOMPARE(statisticsVerdict(computeStatisticsMetrics({}, {}), {}), Verdict::None);
        QCOMPARE(md5Verdict(QStringLiteral("00d69ba8"), QStringLiteral("00d69ba8")), Verdict::Pass);
        QCOMPARE(md5Verdict(QStringLiteral("00d69ba8"), QStringLiteral("10d69ba8")), Verdict::Error);
    }
};

QTEST_GUILESS_MAIN(TestAccuracyMetrics)
#include "tst_accuracymetrics.moc"
