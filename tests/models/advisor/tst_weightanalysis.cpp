#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"
#include "models/advisor/tensorroles.h"
#include "models/graph/graph.h"
#include "tests/models/advisor/accuracytestutils.h"
#include "tests/testutils.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>
#include <numeric>

using namespace runlens;
using namespace runlens::models::advisor;
using runlens::test::catalogOf;
using runlens::test::firstOf;
using runlens::test::measurementsOf;
using runlens::test::writeFloats;

namespace {

std::vector<float> filled(int count, float value)
{
    return std::vector<float>(std::size_t(count), value);
}

/// Deterministic values in about [-scale, scale] with no zeros.
std::vector<float> wavy(int count, float scale, float phase = 0.f)
{
    std::vector<float> out(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        out[std::size_t(i)]
            = scale * (0.5f + 0.5f * std::sin(float(i) * 0.7f + phase)) * (i % 2 ? 1.f : -1.f) + scale * 0.01f;
    return out;
}

/// Writes `values` rounded to float16 (as model.half() or a cast stores them) to `root/relative`.
void writeHalves(const QString& root, const QString& relative, const std::vector<float>& values)
{
    std::vector<qfloat16> half;
    for (const float v : values)
        half.push_back(qfloat16(v));
    const QString path = QDir(root).filePath(relative);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(test::npyBytes(half, { std::int64_t(half.size()) }, "<f2"));
}

/// The value of the one measurement of `metric` for `tensor`, or NaN when there is none.
double valueOf(const AnalysisContext& context, const QString& metric, const QString& tensor)
{
    const auto found = measurementsOf(context, metric, tensor);
    return found.size() == 1 ? found.front().value : std::nan("");
}

AdvisorInput inputOf(const QString& root)
{
    AdvisorInput input;
    input.root = root;
    input.tensors = catalogOf(root);
    return input;
}

std::unique_ptr<AnalysisContext> analyse(const AdvisorInput& input, const RuleBook& rules)
{
    auto context = std::make_unique<AnalysisContext>(rules);
    analyseWeights(input, *context);
    return context;
}

models::summary::Histogram histogram(qint64 step, double min, double max, double count, double sum, double sumSquares)
{
    models::summary::Histogram h;
    h.step = step;
    h.min = min;
    h.max = max;
    h.count = count;
    h.sum = sum;
    h.sumSquares = sumSquares;
    h.buckets = { { min, (min + max) / 2, count / 2 }, { (min + max) / 2, max, count / 2 } };
    return h;
}

} // namespace

class TestWeightAnalysis : public QObject
{
    Q_OBJECT

private:
    RuleBook m_rules; // empty: the analyser's defaults

private slots:
    void classifiesTensorsByNameAndKind_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("role");
        QTest::addColumn<QString>("layer");
        QTest::newRow("torch weight") << "conv1.weight"
                                      << "weight" << int(TensorRole::Weight) << "conv1";
        QTest::newRow("torch bias") << "conv1.bias"
                                    << "bias" << int(TensorRole::Bias) << "conv1";
        QTest::newRow("torch weight grad") << "conv1.weight_grad"
                                           << "weight_grad" << int(TensorRole::Gradient) << "conv1";
        QTest::newRow("relu act") << "relu1.act"
                                  << "act" << int(TensorRole::Activation) << "relu1";
        QTest::newRow("plain act") << "fc1.act"
                                   << "act" << int(TensorRole::Other) << "fc1";
        QTest::newRow("fp16 copy") << "fc1.weight_fp16"
                                   << "weight_fp16" << int(TensorRole::Other) << "fc1";
        QTest::newRow("bf16 copy") << "fc1.weight_bf16"
                                   << "weight_bf16" << int(TensorRole::Other) << "fc1";
        QTest::newRow("fp16 gradient copy") << "fc1.weight_grad_fp16"
                                            << "weight_grad_fp16" << int(TensorRole::Gradient) << "fc1";
        QTest::newRow("optimizer state") << "optimizer.exp_avg.fc1.weight"
                                         << "weight" << int(TensorRole::Other) << "optimizer.exp_avg.fc1";
    }

    void classifiesTensorsByNameAndKind()
    {
        QFETCH(QString, name);
        QFETCH(QString, kind);
        QFETCH(int, role);
        QFETCH(QString, layer);
        models::tensor::TensorSeries series;
        series.name = name;
        series.kind = kind;
        series.nodeKey = name.left(name.lastIndexOf(QLatin1Char('.')));
        const TensorClass cls = classifySeries(series);
        QCOMPARE(int(cls.role), role);
        QCOMPARE(cls.layer, layer);
        // The float16 range applies to float16 copies; bfloat16 has float32's.
        QCOMPARE(cls.halfPrecision, kind.contains(QLatin1String("fp16")));
    }

    void precisionCopiesAreNamedAfterTheirTensor()
    {
        QCOMPARE(withoutPrecisionMark(QStringLiteral("fc1.weight_grad_fp16")), QStringLiteral("fc1.weight_grad"));
        QCOMPARE(withoutPrecisionMark(QStringLiteral("fc1.weight.half")), QStringLiteral("fc1.weight"));
        QCOMPARE(withoutPrecisionMark(QStringLiteral("fc1.weight_BF16")), QStringLiteral("fc1.weight"));
        QCOMPARE(withoutPrecisionMark(QStringLiteral("fp16_head.weight")), QStringLiteral("fp16_head.weight"));
        QCOMPARE(gradientTarget(QStringLiteral("fc1.weight_grad_fp16")), QStringLiteral("fc1.weight"));
    }

    void classifiesHistogramTags_data()
    {
        QTest::addColumn<QString>("tag");
        QTest::addColumn<int>("role");
        QTest::addColumn<QString>("layer");
        QTest::addColumn<bool>("biasGradient");
        QTest::newRow("weight") << "fc1.weight" << int(TensorRole::Weight) << "fc1" << false;
        QTest::newRow("slash weight") << "Default/fc1/weight" << int(TensorRole::Weight) << "Default/fc1" << false;
        QTest::newRow("grad prefix") << "grad/fc1.weight" << int(TensorRole::Gradient) << "fc1" << false;
        QTest::newRow("grad suffix") << "fc1.bias.grad" << int(TensorRole::Gradient) << "fc1" << true;
        QTest::newRow("Gradients") << "Gradients/conv1/weight" << int(TensorRole::Gradient) << "conv1" << false;
        QTest::newRow("loss") << "train/loss" << int(TensorRole::Other) << "train" << false;
    }

    void classifiesHistogramTags()
    {
        QFETCH(QString, tag);
        QFETCH(int, role);
        QFETCH(QString, layer);
        QFETCH(bool, biasGradient);
        const TensorClass cls = classifyTag(tag);
        QCOMPARE(int(cls.role), role);
        QCOMPARE(cls.layer, layer);
        QCOMPARE(cls.biasGradient, biasGradient);
    }

    void naturalOrderComparesNumbers()
    {
        QVERIFY(naturalLess(QStringLiteral("layer2"), QStringLiteral("layer10")));
        QVERIFY(!naturalLess(QStringLiteral("layer10"), QStringLiteral("layer2")));
        QVERIFY(naturalLess(QStringLiteral("fc1"), QStringLiteral("fc1.weight")));
        QVERIFY(!naturalLess(QStringLiteral("fc1"), QStringLiteral("fc1")));
    }

    void nothingLoadedMarksEveryMetricMissing()
    {
        AdvisorInput input;
        const auto context = analyse(input, m_rules);
        QVERIFY(context->measurements().empty());
        for (const char* metric : { "tensor.nonfinite", "weight.update_ratio", "weight.unchanged_steps",
                                    "gradient.depth_ratio", "activation.dead_share", "tensor.fp16_out_of_range" }) {
            QVERIFY2(!context->isEvaluated(QString::fromLatin1(metric)), metric);
            QVERIFY2(context->missingReason(QString::fromLatin1(metric)).contains(QLatin1String("no tensor")), metric);
        }
    }

    void overflowOriginIsTheFirstForwardLayerOfTheFirstBadStep()
    {
        QTemporaryDir dir;
        const QString root = dir.path();
        for (int step : { 0, 1, 2 }) {
            const QString folder = QStringLiteral("dump/step_%1/").arg(step);
            const bool bad = step == 2;
            writeFloats(root, folder + "fc1.weight.npy", wavy(8, 0.1f));
            writeFloats(root, folder + "fc1.act.npy", wavy(8, 1.f));
            std::vector<float> fc2 = wavy(8, 1.f);
            std::vector<float> fc3 = wavy(8, 1.f);
            std::vector<float> grad = wavy(8, 0.01f);
            if (bad) {
                fc2[3] = std::numeric_limits<float>::infinity();
                fc3[0] = fc3[1] = std::nanf("");
                grad[5] = std::nanf("");
            }
            writeFloats(root, folder + "fc2.act.npy", fc2);
            writeFloats(root, folder + "fc3.act.npy", fc3);
            writeFloats(root, folder + "fc1.weight_grad.npy", grad);
        }
        AdvisorInput input = inputOf(root);
        auto context = analyse(input, m_rules);
        QVERIFY(context->isEvaluated(QStringLiteral("tensor.nonfinite")));
        const auto all = measurementsOf(*context, QStringLiteral("tensor.nonfinite"));
        QCOMPARE(all.size(), std::size_t(3)); // one per overflowing tensor: its first bad step
        const auto first = firstOf(*context, QStringLiteral("tensor.nonfinite"));
        QVERIFY(first);
        QCOMPARE(first->scope.step, std::optional<qint64>(2));
        // Forward values run before gradients, and fc2 before fc3 in name order (no graph loaded).
        QCOMPARE(first->scope.tensor, QStringLiteral("fc2.act"));
        QCOMPARE(first->scope.layer, QStringLiteral("fc2"));
        QCOMPARE(first->value, 1.0);
        QCOMPARE(first->facts.value(QStringLiteral("inf")).toInt(), 1);
        QCOMPARE(first->facts.value(QStringLiteral("nan")).toInt(), 0);
        QCOMPARE(first->facts.value(QStringLiteral("overflowing")).toInt(), 3);
        const auto evidence = parseEvidence(first->evidence.value(0));
        QVERIFY(evidence);
        QCOMPARE(evidence->kind, QStringLiteral("tensor"));
        QCOMPARE(evidence->value(QStringLiteral("name")), QStringLiteral("fc2.act"));
        QCOMPARE(evidence->value(QStringLiteral("step")), QStringLiteral("2"));

        const auto gradient = measurementsOf(*context, QStringLiteral("gradient.nonfinite"));
        QCOMPARE(gradient.size(), std::size_t(1));
        QCOMPARE(gradient.front().scope.tensor, QStringLiteral("fc1.weight_grad"));
        QCOMPARE(gradient.front().value, 1.0);

        // A loaded graph that runs fc3 before fc2 decides the order instead.
        auto graph = std::make_shared<models::graph::Graph>();
        graph->path = root + QStringLiteral("/model.onnx");
        for (const char* scope : { "fc1", "fc3", "fc2" }) {
            models::graph::Node node;
            node.id = std::string(scope) + "/Gemm";
            node.name = "Gemm";
            node.scope = scope;
            graph->nodes.push_back(node);
        }
        graph->finalize();
        input.graphs.push_back({ QStringLiteral("."), graph->path, graph });
        context = analyse(input, m_rules);
        const auto ordered = firstOf(*context, QStringLiteral("tensor.nonfinite"));
        QVERIFY(ordered);
        QCOMPARE(ordered->scope.tensor, QStringLiteral("fc3.act"));
        QCOMPARE(ordered->facts.value(QStringLiteral("nan")).toInt(), 2);
        QVERIFY(ordered->evidence.size() == 2);
        QCOMPARE(parseEvidence(ordered->evidence.at(1))->value(QStringLiteral("node")), QStringLiteral("fc3"));
    }

    void overflowOrderFollowsMindSporeDumpTimestamps()
    {
        QTemporaryDir dir;
        const QString root = dir.path();
        std::vector<float> bad = wavy(4, 1.f);
        bad[1] = std::nanf("");
        // By name Add-op3 comes first; by the dump timestamps Mul-op1 ran earlier.
        writeFloats(root, "net/0/0/Add.Add-op3.5.0.1623124369613540.output.0.DefaultFormat.npy", wavy(4, 1.f));
        writeFloats(root, "net/0/0/Mul.Mul-op1.6.0.1623124369613000.output.0.DefaultFormat.npy", wavy(4, 1.f));
        writeFloats(root, "net/0/1/Add.Add-op3.5.0.1623124369713540.output.0.DefaultFormat.npy", bad);
        writeFloats(root, "net/0/1/Mul.Mul-op1.6.0.1623124369713000.output.0.DefaultFormat.npy", bad);
        const auto context = analyse(inputOf(root), m_rules);
        const auto first = firstOf(*context, QStringLiteral("tensor.nonfinite"));
        QVERIFY(first);
        QCOMPARE(first->scope.step, std::optional<qint64>(1));
        QCOMPARE(first->scope.layer, QStringLiteral("Mul-op1"));
    }

    void healthyTensorsHaveNoOverflow()
    {
        QTemporaryDir dir;
        writeFloats(dir.path(), "dump/step_0/fc1.act.npy", wavy(16, 3.f));
        const auto context = analyse(inputOf(dir.path()), m_rules);
        QVERIFY(context->isEvaluated(QStringLiteral("tensor.nonfinite")));
        QVERIFY(measurementsOf(*context, QStringLiteral("tensor.nonfinite")).empty());
    }

    void weightInitialisation()
    {
        QTemporaryDir dir;
        const QString root = dir.path();
        writeFloats(root, "dump/step_0/fc1.weight.npy", filled(12, 0.f)); // all zero: fires
        writeFloats(root, "dump/step_0/fc1.bias.npy", filled(3, 0.f)); // a zero bias is normal
        writeFloats(root, "dump/step_0/fc2.weight.npy", { 0.5f, -50.f, 3.f, 0.f }); // abnormal range
        writeFloats(root, "dump/step_0/fc3.weight.npy", wavy(12, 0.2f)); // healthy
        // A later step shows whether the zeros last: fc1 stays all zero, the others vary.
        writeFloats(root, "dump/step_1/fc1.weight.npy", filled(12, 0.f));
        writeFloats(root, "dump/step_1/fc2.weight.npy", { 0.5f, -50.f, 3.f, 0.1f });
        writeFloats(root, "dump/step_1/fc3.weight.npy", wavy(12, 0.2f, 0.1f));
        const auto context = analyse(inputOf(root), m_rules);

        // Only the weight whose zeros last is measured; the bias is not a weight here.
        const auto zero = measurementsOf(*context, QStringLiteral("weight.init_zero_share"));
        QCOMPARE(zero.size(), std::size_t(1));
        QCOMPARE(zero.front().scope.tensor, QStringLiteral("fc1.weight"));
        QCOMPARE(zero.front().value, 100.0);
        QCOMPARE(zero.front().scope.layer, QStringLiteral("fc1"));
        QCOMPARE(zero.front().scope.step, std::optional<qint64>(0));
        const auto range
            = measurementsOf(*context, QStringLiteral("weight.init_abs_max"), QStringLiteral("fc2.weight"));
        QCOMPARE(range.size(), std::size_t(1));
        QCOMPARE(range.front().value, 50.0);
        QCOMPARE(range.front().facts.value(QStringLiteral("min")).toDouble(), -50.0);
        const auto healthy
            = measurementsOf(*context, QStringLiteral("weight.init_abs_max"), QStringLiteral("fc3.weight"));
        QCOMPARE(healthy.size(), std::size_t(1));
        QVERIFY(healthy.front().value < 0.25);
        // The zero bias at its first step is not reported as an all-zero tensor either.
        QVERIFY(measurementsOf(*context, QStringLiteral("tensor.zero_share"), QStringLiteral("fc1.bias")).empty());
    }

    void weightsAndGradientsMatchNumpy()
    {
        QTemporaryDir dir;
        const test::PythonRun run = test::runAccuracyOracle(QStringLiteral("weight_oracle.py"), { dir.path() });
        RUNLENS_VERIFY_PYTHON(run);
        const QString out = run.output;
        const QJsonObject expected = QJsonDocument::fromJson(out.toUtf8()).object();
        QVERIFY(!expected.isEmpty());
        const auto context = analyse(inputOf(dir.path()), m_rules);

        const QJsonObject ratios = expected.value(QStringLiteral("update_ratio")).toObject();
        QCOMPARE(measurementsOf(*context, QStringLiteral("weight.update_ratio")).size(), std::size_t(ratios.size()));
        for (auto it = ratios.begin(); it != ratios.end(); ++it) {
            const auto m = measurementsOf(*context, QStringLiteral("weight.update_ratio"), it.key());
            QCOMPARE(m.size(), std::size_t(1));
            QVERIFY2(std::abs(m.front().value - it.value().toDouble()) <= 1e-6 * it.value().toDouble(),
                     qPrintable(it.key()));
        }
        const QJsonObject unchanged = expected.value(QStringLiteral("unchanged")).toObject();
        for (auto it = unchanged.begin(); it != unchanged.end(); ++it) {
            const auto m = measurementsOf(*context, QStringLiteral("weight.unchanged_steps"), it.key());
            QCOMPARE(m.size(), std::size_t(1));
            QCOMPARE(m.front().value, it.value().toDouble());
        }
        const auto frozen
            = measurementsOf(*context, QStringLiteral("weight.unchanged_steps"), QStringLiteral("fc3.weight"));
        QCOMPARE(frozen.front().scope.layer, QStringLiteral("fc3"));
        QCOMPARE(frozen.front().facts.value(QStringLiteral("from_step")).toInt(), 0);
        QCOMPARE(frozen.front().facts.value(QStringLiteral("to_step")).toInt(), 1);

        const QJsonObject norms = expected.value(QStringLiteral("global_norm")).toObject();
        const auto measuredNorms = measurementsOf(*context, QStringLiteral("gradient.global_norm"));
        QCOMPARE(measuredNorms.size(), std::size_t(norms.size()));
        for (const Measurement& m : measuredNorms) {
            const double want = norms.value(QString::number(*m.scope.step)).toDouble();
            QVERIFY2(std::abs(m.value - want) <= 1e-6 * want, qPrintable(QString::number(*m.scope.step)));
        }
        // One depth pattern for the run: the step with the median ratio, and the lowest one beside it.
        const QJsonObject depth = expected.value(QStringLiteral("depth_ratio")).toObject();
        const auto measuredDepth = measurementsOf(*context, QStringLiteral("gradient.depth_ratio"));
        QCOMPARE(measuredDepth.size(), std::size_t(1));
        const Measurement& typical = measuredDepth.front();
        const double median = expected.value(QStringLiteral("depth_ratio_median")).toDouble();
        QVERIFY(std::abs(typical.value - median) <= 1e-6 * median);
        QVERIFY(std::abs(depth.value(QString::number(*typical.scope.step)).toDouble() - median) <= 1e-6 * median);
        QCOMPARE(typical.facts.value(QStringLiteral("steps")).toInt(), depth.size());
        double lowest = std::numeric_limits<double>::infinity();
        for (auto it = depth.begin(); it != depth.end(); ++it)
            lowest = std::min(lowest, it.value().toDouble());
        QVERIFY(std::abs(typical.facts.value(QStringLiteral("lowest")).toDouble() - lowest) <= 1e-6 * lowest);
        QCOMPARE(typical.facts.value(QStringLiteral("first_layer")).toString(), QStringLiteral("fc1"));
        QCOMPARE(typical.facts.value(QStringLiteral("last_layer")).toString(), QStringLiteral("fc3"));
        QCOMPARE(typical.scope.layer, QStringLiteral("fc1"));
        const QJsonObject absMeans = expected.value(QStringLiteral("abs_mean_median")).toObject();
        for (auto it = absMeans.begin(); it != absMeans.end(); ++it) {
            const auto m = measurementsOf(*context, QStringLiteral("gradient.abs_mean"), it.key());
            QCOMPARE(m.size(), std::size_t(1));
            QVERIFY2(std::abs(m.front().value - it.value().toDouble()) <= 1e-6 * it.value().toDouble(),
                     qPrintable(it.key()));
        }
    }

    void tolerancesComeFromTheRuleBook()
    {
        QTemporaryDir dir;
        writeFloats(dir.path(), "dump/step_0/fc1.weight.npy", { 1.f, 2.f, 3.f });
        writeFloats(dir.path(), "dump/step_1/fc1.weight.npy", { 1.001f, 2.f, 3.f });
        AdvisorInput input = inputOf(dir.path());
        auto context = analyse(input, m_rules);
        QCOMPARE(measurementsOf(*context, QStringLiteral("weight.unchanged_steps")).front().value, 0.0);
        RuleBook loose;
        QStringList problems;
        QVERIFY(loose.load(QStringLiteral(RUNLENS_TEST_DATA_DIR "/advisor/accuracy/loose_rtol.json"), &problems));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(loose.rule(QStringLiteral("weight-not-changed")));
        context = analyse(input, loose);
        QCOMPARE(measurementsOf(*context, QStringLiteral("weight.unchanged_steps")).front().value, 1.0);
    }

    void gradientVanishingAndAllZero()
    {
        QTemporaryDir dir;
        const QString root = dir.path();
        writeFloats(root, "dump/step_0/fc1.weight_grad.npy", wavy(10, 1e-12f));
        writeFloats(root, "dump/step_0/fc2.weight_grad.npy", filled(10, 0.f));
        writeFloats(root, "dump/step_0/fc3.weight_grad.npy", wavy(10, 1e-2f));
        writeFloats(root, "dump/step_0/fc4.weight_grad.npy", wavy(10, 1e-2f));
        const auto context = analyse(inputOf(root), m_rules);
        const auto tiny
            = measurementsOf(*context, QStringLiteral("gradient.abs_mean"), QStringLiteral("fc1.weight_grad"));
        QCOMPARE(tiny.size(), std::size_t(1));
        const std::vector<float> values = wavy(10, 1e-12f);
        const double meanAbs
            = std::accumulate(values.begin(), values.end(), 0.0, [](double s, float v) { return s + std::abs(v); })
            / 10;
        QVERIFY(std::abs(tiny.front().value - meanAbs) <= 1e-6 * meanAbs);
        QVERIFY(tiny.front().value < 1e-9);
        const auto healthy
            = measurementsOf(*context, QStringLiteral("gradient.abs_mean"), QStringLiteral("fc3.weight_grad"));
        QVERIFY(healthy.front().value > 1e-3);

        const auto zero
            = measurementsOf(*context, QStringLiteral("tensor.zero_share"), QStringLiteral("fc2.weight_grad"));
        QCOMPARE(zero.size(), std::size_t(1));
        QCOMPARE(zero.front().value, 100.0);
        QCOMPARE(zero.front().scope.step, std::optional<qint64>(0));
        QCOMPARE(measurementsOf(*context, QStringLiteral("tensor.zero_share"), QStringLiteral("fc3.weight_grad"))
                     .front()
                     .value,
                 0.0);
        // Three layers with a gradient: fc1 is the first, fc4 the last; fc2, whose gradient is zero, is left out.
        const auto depth = measurementsOf(*context, QStringLiteral("gradient.depth_ratio"));
        QCOMPARE(depth.size(), std::size_t(1));
        QVERIFY(depth.front().value < 1e-9);
        QCOMPARE(depth.front().facts.value(QStringLiteral("layers")).toInt(), 3);
        QCOMPARE(depth.front().facts.value(QStringLiteral("last_layer")).toString(), QStringLiteral("fc4"));
        // Zero at its only recorded step may be chance: not yet "receives no gradient".
        QVERIFY(measurementsOf(*context, QStringLiteral("gradient.zero_step_share")).empty());
    }

    void tinyGradientIsVanishingNotFrozen()
    {
        // A deep sigmoid network: fc1's gradient is 1e-12, far below what moves a weight of 0.5 in float32, so the
        // weight is bit for bit the same at every step. That is vanishing gradients, not a frozen layer. fc2 has
        // no gradient recorded and fc3 a sizeable one that was never applied: both are frozen.
        QTemporaryDir dir;
        const QString root = dir.path();
        for (int step = 0; step < 3; ++step) {
            const QString at = QStringLiteral("dump/step_%1/").arg(step);
            writeFloats(root, at + "fc1.weight.npy", { 0.5f, -0.3f, 0.2f });
            writeFloats(root, at + "fc1.weight_grad.npy", wavy(3, 1e-12f, float(step)));
            writeFloats(root, at + "fc2.weight.npy", { 0.4f, 0.1f, -0.2f });
            writeFloats(root, at + "fc3.weight.npy", { 0.25f, -0.5f, 0.75f });
            writeFloats(root, at + "fc3.weight_grad.npy", { 0.2f, 0.1f, -0.1f });
        }
        const auto context = analyse(inputOf(root), m_rules);
        const QString unchanged = QStringLiteral("weight.unchanged_steps");
        QCOMPARE(valueOf(*context, unchanged, QStringLiteral("fc1.weight")), 0.0);
        QCOMPARE(valueOf(*context, unchanged, QStringLiteral("fc2.weight")), 2.0);
        QCOMPARE(valueOf(*context, unchanged, QStringLiteral("fc3.weight")), 2.0);
        QVERIFY(valueOf(*context, QStringLiteral("gradient.abs_mean"), QStringLiteral("fc1.weight_grad")) < 1e-9);
    }

    void unchangedThenLearningIsNotFrozen()
    {
        // A head zeroed on purpose: the layers before it get an exactly zero gradient at step 0 only, so their
        // weights are the same at steps 0 and 1 and move from then on. fc3 moves at first and then stops: frozen.
        QTemporaryDir dir;
        const QString root = dir.path();
        for (int step = 0; step < 4; ++step) {
            const QString at = QStringLiteral("dump/step_%1/").arg(step);
            writeFloats(root, at + "fc1.weight.npy", wavy(8, 0.5f, float(std::max(step, 1))));
            writeFloats(root, at + "fc1.weight_grad.npy", step == 0 ? filled(8, 0.f) : wavy(8, 1e-2f, float(step)));
            writeFloats(root, at + "fc3.weight.npy", wavy(8, 0.5f, float(std::min(step, 2))));
            writeFloats(root, at + "fc3.weight_grad.npy", step < 2 ? wavy(8, 1e-2f, float(step)) : filled(8, 0.f));
        }
        const auto context = analyse(inputOf(root), m_rules);
        const QString unchanged = QStringLiteral("weight.unchanged_steps");
        QCOMPARE(valueOf(*context, unchanged, QStringLiteral("fc1.weight")), 0.0);
        const auto frozen = measurementsOf(*context, unchanged, QStringLiteral("fc3.weight"));
        QCOMPARE(frozen.size(), std::size_t(1));
        QCOMPARE(frozen.front().value, 1.0);
        QCOMPARE(frozen.front().facts.value(QStringLiteral("from_step")).toInt(), 2);
        QCOMPARE(frozen.front().facts.value(QStringLiteral("to_step")).toInt(), 3);
        QCOMPARE(frozen.front().facts.value(QStringLiteral("pairs")).toInt(), 3);
    }

    void consequencesOfTheFirstOverflowAreLeftOut()
    {
        // The loss overflows at step 2. Afterwards the ReLUs are dead, the gradients zero and the weights stuck:
        // consequences of the overflow, not causes of their own.
        QTemporaryDir dir;
        const QString root = dir.path();
        for (int step = 0; step < 4; ++step) {
            const QString at = QStringLiteral("dump/step_%1/").arg(step);
            const bool after = step > 2;
            writeFloats(root, at + "fc1.weight.npy", step < 2 ? wavy(8, 0.5f, float(step)) : wavy(8, 0.5f, 2.f));
            writeFloats(root, at + "fc1.weight_grad.npy", after ? filled(8, 0.f) : wavy(8, 1e-2f, float(step)));
            writeFloats(root, at + "relu1.act.npy", after ? filled(8, 0.f) : wavy(8, 1.f, float(step)));
            writeFloats(root, at + "fc2.act.npy", after ? filled(8, std::nanf("")) : wavy(8, 1.f, float(step)));
        }
        AdvisorInput input = inputOf(root);
        ScalarTrack loss {
            QStringLiteral("."), QStringLiteral("train/loss"), { 0, 1, 2, 3 }, { 1.2, 1.1, HUGE_VAL, NAN }, {}
        };
        input.scalars.push_back(loss);
        const auto context = analyse(input, m_rules);

        // fc1.weight did not change from 2 to 3 and its gradient is zero at 3: after the overflow.
        QCOMPARE(valueOf(*context, QStringLiteral("weight.unchanged_steps"), QStringLiteral("fc1.weight")), 0.0);
        QVERIFY(valueOf(*context, QStringLiteral("tensor.zero_share"), QStringLiteral("fc1.weight_grad")) < 100.0);
        QVERIFY(valueOf(*context, QStringLiteral("activation.dead_share"), QStringLiteral("relu1.act")) < 99.9);
        for (const Measurement& m : measurementsOf(*context, QStringLiteral("gradient.global_norm")))
            QVERIFY(*m.scope.step <= 2);
        // The overflow itself is reported, naming the first one and what is left out.
        const auto overflow = firstOf(*context, QStringLiteral("tensor.nonfinite"));
        QVERIFY(overflow);
        QCOMPARE(overflow->scope.tensor, QStringLiteral("fc2.act"));
        QCOMPARE(overflow->facts.value(QStringLiteral("consequences")).toString(),
                 QStringLiteral(" The run's first overflow is train/loss at step 2; what weights and gradients show "
                                "after it follows from it and is not reported again."));
    }

    void halfPrecisionWeightKeepsItsRole()
    {
        // After model.half() the weights are stored as float16 under their plain names: still weights.
        QTemporaryDir dir;
        const QString root = dir.path();
        writeHalves(root, "dump/step_0/fc1.weight.npy", { 0.f, 0.f, 0.f, 0.f });
        writeHalves(root, "dump/step_1/fc1.weight.npy", { 0.f, 0.f, 0.f, 0.f });
        writeHalves(root, "dump/step_0/fc1.weight_fp16.npy", { 0.5f, 1.f }); // a copy named as such is not
        const AdvisorInput input = inputOf(root);
        for (const models::tensor::TensorSeries& series : input.tensors->series()) {
            const TensorClass cls = classifySeries(series);
            QVERIFY(cls.halfPrecision);
            QCOMPARE(int(cls.role),
                     int(series.name == QLatin1String("fc1.weight") ? TensorRole::Weight : TensorRole::Other));
        }
        const auto context = analyse(input, m_rules);
        QCOMPARE(valueOf(*context, QStringLiteral("weight.init_zero_share"), QStringLiteral("fc1.weight")), 100.0);
        QCOMPARE(valueOf(*context, QStringLiteral("weight.unchanged_steps"), QStringLiteral("fc1.weight")), 1.0);
    }

    void halfShadowGradientCountsOnce()
    {
        // fc1's gradient is recorded twice, in float32 and as its float16 copy: one gradient in the global norm.
        QTemporaryDir dir;
        const QString root = dir.path();
        writeFloats(root, "dump/step_0/fc1.weight_grad.npy", { 3.f, 4.f });
        writeHalves(root, "dump/step_0/fc1.weight_grad_fp16.npy", { 3.f, 4.f });
        writeFloats(root, "dump/step_0/fc2.weight_grad.npy", { 0.f, 12.f });
        const auto context = analyse(inputOf(root), m_rules);
        const auto norm = measurementsOf(*context, QStringLiteral("gradient.global_norm"));
        QCOMPARE(norm.size(), std::size_t(1));
        QCOMPARE(norm.front().value, 13.0);
        QCOMPARE(norm.front().facts.value(QStringLiteral("tensors")).toInt(), 2);
    }

    void halfUnderflowAgainstTheMasterCopy()
    {
        // Six of ten gradient values are 1e-9: in the float16 copy they are exactly zero, below even its smallest
        // subnormal. The half tensor alone shows four values, all in range; its float32 copy shows the loss.
        QTemporaryDir dir;
        const QString root = dir.path();
        const std::vector<float> values { 1e-9f, -1e-9f, 1e-9f, 1e-9f, -1e-9f, 1e-9f, 0.5f, 0.25f, 1.f, 0.125f };
        writeFloats(root, "dump/step_0/fc1.weight_grad.npy", values);
        writeHalves(root, "dump/step_0/fc1.weight_grad_fp16.npy", values);
        const auto context = analyse(inputOf(root), m_rules);
        const auto risk = measurementsOf(*context, QStringLiteral("tensor.fp16_out_of_range"),
                                         QStringLiteral("fc1.weight_grad_fp16"));
        QCOMPARE(risk.size(), std::size_t(1));
        QCOMPARE(risk.front().value, 60.0);
        const QString note = risk.front().facts.value(QStringLiteral("underflow")).toString();
        QVERIFY2(note.contains(QLatin1String("60 %")) && note.contains(QLatin1String("fc1.weight_grad ")),
                 qPrintable(note));
        // The float32 gradient is not at risk by itself: it is not a half-precision tensor.
        QVERIFY(measurementsOf(*context, QStringLiteral("tensor.fp16_out_of_range"), QStringLiteral("fc1.weight_grad"))
                    .empty());
    }

    void zeroWeightAtTheOnlyStepIsNoError()
    {
        // With step 0 alone recorded, nothing tells whether the zeros last (a zero-initialised head learns apart
        // at once): no error.
        QTemporaryDir dir;
        const QString root = dir.path();
        writeFloats(root, "dump/step_0/fc1.weight.npy", filled(12, 0.f));
        writeFloats(root, "dump/step_0/fc2.weight.npy", wavy(12, 0.2f));
        const RuleBook rules = RuleBook::builtIn();
        const AdvisorReport report = evaluate(inputOf(root), rules);
        QVERIFY2(test::findingsOf(report, QStringLiteral("weight-initialization")).isEmpty(),
                 qPrintable(test::describe(report.findings)));
        QVERIFY(test::statusOf(report, QStringLiteral("weight-initialization"))->evaluated);
        // With a later step where the zeros last, it is one.
        writeFloats(root, "dump/step_1/fc1.weight.npy", filled(12, 0.f));
        writeFloats(root, "dump/step_1/fc2.weight.npy", wavy(12, 0.2f, 0.5f));
        const AdvisorReport later = evaluate(inputOf(root), rules);
        const QList<Finding> found = test::findingsOf(later, QStringLiteral("weight-initialization"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.front().scope.tensor, QStringLiteral("fc1.weight"));
        QVERIFY(found.front().severity == models::advisor::Severity::Error);
    }

    void activations()
    {
        QTemporaryDir dir;
        const QString root = dir.path();
        std::vector<float> dead = filled(2000, 0.f);
        dead[7] = 0.5f; // 1 of 2000 alive: 99.95 % dead
        writeFloats(root, "dump/step_0/relu1.act.npy", dead);
        writeFloats(root, "dump/step_0/relu2.act.npy", { 0.f, 1.f, 2.f, 0.f }); // 50 %
        std::vector<float> sigmoid = filled(1000, 1.0f);
        sigmoid[0] = 0.5f; // 99.9 % saturated
        writeFloats(root, "dump/step_0/sigmoid1.act.npy", sigmoid);
        writeFloats(root, "dump/step_0/tanh1.act.npy", { -1.f, 0.2f, 0.99f, -0.3f }); // 25 %
        const auto context = analyse(inputOf(root), m_rules);
        auto one = [&](const char* metric, const char* tensor) {
            const auto m = measurementsOf(*context, QString::fromLatin1(metric), QString::fromLatin1(tensor));
            return m.size() == 1 ? m.front().value : std::nan("");
        };
        QCOMPARE(one("activation.dead_share", "relu1.act"), 99.95);
        QCOMPARE(one("activation.dead_share", "relu2.act"), 50.0);
        QCOMPARE(one("activation.saturation_share", "sigmoid1.act"), 99.9);
        QCOMPARE(one("activation.saturation_share", "tanh1.act"), 25.0);
        QVERIFY(measurementsOf(*context, QStringLiteral("activation.dead_share"), QStringLiteral("tanh1.act")).empty());
        QCOMPARE(measurementsOf(*context, QStringLiteral("activation.dead_share")).front().scope.layer,
                 QStringLiteral("relu1"));
    }

    void fp16Risk()
    {
        QTemporaryDir dir;
        const QString root = dir.path();
        // float16 bits: 0x0001 is the smallest subnormal, 0x3c00 is 1.0, 0x7c00 is +Inf, 0x0000 is zero.
        const std::vector<quint16> half { 0x0001, 0x3c00, 0x3c00, 0x7c00, 0x0000 };
        const QString path = QDir(root).filePath(QStringLiteral("dump/step_0/fc1.weight_fp16.npy"));
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(test::npyBytes(half, { 5 }, "<f2"));
        file.close();
        writeFloats(root, "dump/step_0/fc1.weight.npy", { 1e-7f, 1.f }); // float32: not at risk by itself
        const auto context = analyse(inputOf(root), m_rules);
        const auto risk = measurementsOf(*context, QStringLiteral("tensor.fp16_out_of_range"));
        QCOMPARE(risk.size(), std::size_t(1));
        QCOMPARE(risk.front().scope.tensor, QStringLiteral("fc1.weight_fp16"));
        QCOMPARE(risk.front().value, 50.0); // the subnormal and the infinity among four non-zero values
    }

    void histograms()
    {
        AdvisorInput input;
        HistogramTrack frozen { QStringLiteral("r"), QStringLiteral("fc1.weight"), {} };
        frozen.items = { histogram(0, 0, 0, 10, 0, 0), histogram(1, 0, 0, 10, 0, 0), histogram(2, -1, 1, 10, 0, 4) };
        // fc2 starts at zero and stays there; fc1 starts at zero too but has spread out by step 2.
        HistogramTrack stuck { QStringLiteral("r"), QStringLiteral("fc2.weight"), {} };
        stuck.items = { histogram(0, 0, 0, 10, 0, 0), histogram(1, 0, 0, 10, 0, 0) };
        HistogramTrack grad { QStringLiteral("r"), QStringLiteral("grad/fc1.weight"), {} };
        grad.items = { histogram(0, -2, 2, 4, 0, 16), histogram(1, -2, 2, 4, 0, 16), histogram(2, -2, 2, 4, 0, 16) };
        grad.items[2].nanCount = 3;
        input.histograms = { frozen, stuck, grad };
        const auto context = analyse(input, m_rules);

        const auto init = measurementsOf(*context, QStringLiteral("weight.init_zero_share"));
        QCOMPARE(init.size(), std::size_t(1));
        QCOMPARE(init.front().value, 100.0);
        QCOMPARE(init.front().scope.layer, QStringLiteral("fc2"));
        const auto unchanged
            = measurementsOf(*context, QStringLiteral("weight.unchanged_steps"), QStringLiteral("fc1.weight"));
        QCOMPARE(unchanged.size(), std::size_t(1));
        QCOMPARE(unchanged.front().value, 0.0); // 0 -> 1 identical, 1 -> 2 changed: held, not frozen
        QCOMPARE(unchanged.front().facts.value(QStringLiteral("pairs")).toInt(), 2);
        const auto overflow = firstOf(*context, QStringLiteral("gradient.nonfinite"));
        QVERIFY(overflow);
        QCOMPARE(overflow->scope.step, std::optional<qint64>(2));
        QCOMPARE(overflow->value, 3.0);
        QCOMPARE(parseEvidence(overflow->evidence.value(0))->kind, QStringLiteral("histogram"));
        const auto norm = measurementsOf(*context, QStringLiteral("gradient.global_norm"));
        QCOMPARE(norm.size(), std::size_t(2)); // step 2 has NaN: no norm
        QCOMPARE(norm.front().value, 4.0);
        QVERIFY(!context->isEvaluated(QStringLiteral("weight.update_ratio")));
        QVERIFY(context->missingReason(QStringLiteral("weight.update_ratio")).contains(QLatin1String("histograms")));
    }

    void histogramsOfAGradientThatIsAlwaysZero()
    {
        // Weight and gradient histograms of a parameter that receives no gradient: the gradient's histogram is
        // zero at every step and the weight's never changes. One measurement says so; no vanishing gradient and
        // no frozen weight.
        AdvisorInput input;
        HistogramTrack weight { QStringLiteral("r"), QStringLiteral("skip.weight"), {} };
        HistogramTrack gradient { QStringLiteral("r"), QStringLiteral("grad/skip.weight"), {} };
        HistogramTrack moving { QStringLiteral("r"), QStringLiteral("grad/fc1.weight"), {} };
        for (qint64 step : { 0, 10, 20 }) {
            weight.items.push_back(histogram(step, -1, 1, 10, 0, 4));
            gradient.items.push_back(histogram(step, 0, 0, 10, 0, 0));
            moving.items.push_back(histogram(step, -0.1, 0.1 * double(step + 1), 10, 0, 0.01));
        }
        input.histograms = { weight, gradient, moving };
        const auto context = analyse(input, m_rules);

        const auto share = measurementsOf(*context, QStringLiteral("gradient.zero_step_share"));
        QCOMPARE(share.size(), std::size_t(2));
        for (const Measurement& m : share) {
            const bool zero = m.scope.tensor == QLatin1String("grad/skip.weight");
            QCOMPARE(m.value, zero ? 100.0 : 0.0);
            QCOMPARE(m.facts.value(QStringLiteral("parameter")).toString(),
                     zero ? QStringLiteral("skip.weight") : QStringLiteral("fc1.weight"));
            QCOMPARE(m.facts.value(QStringLiteral("steps")).toInt(), 3);
            QVERIFY(!m.scope.step); // a pattern over the steps, not one of them
        }
        QVERIFY(
            measurementsOf(*context, QStringLiteral("gradient.abs_mean"), QStringLiteral("grad/skip.weight")).empty());
        QCOMPARE(
            measurementsOf(*context, QStringLiteral("gradient.abs_mean"), QStringLiteral("grad/fc1.weight")).size(),
            std::size_t(1));
        QVERIFY(measurementsOf(*context, QStringLiteral("weight.unchanged_steps")).empty());
        QVERIFY(context->isEvaluated(QStringLiteral("weight.unchanged_steps")));
    }

    void cancelStopsEarly()
    {
        QTemporaryDir dir;
        writeFloats(dir.path(), "dump/step_0/fc1.act.npy", { std::nanf("") });
        std::atomic_bool canceled { true };
        AnalysisContext context(m_rules, &canceled);
        analyseWeights(inputOf(dir.path()), context);
        QVERIFY(context.measurements().empty());
    }

    void baselineSampleIsHealthy()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString root = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
        const auto context = analyse(inputOf(root), m_rules);
        QVERIFY(measurementsOf(*context, QStringLiteral("tensor.nonfinite")).empty());
        const auto ratios = measurementsOf(*context, QStringLiteral("weight.update_ratio"));
        QVERIFY(ratios.size() >= 10); // weights and biases of five layers from the dumps
        for (const Measurement& m : ratios)
            QVERIFY2(m.value > 1e-4 && m.value < 0.1, qPrintable(m.scope.tensor));
        for (const Measurement& m : measurementsOf(*context, QStringLiteral("weight.unchanged_steps")))
            QCOMPARE(m.value, 0.0);
        for (const Measurement& m : measurementsOf(*context, QStringLiteral("activation.dead_share")))
            QVERIFY(m.value < 99.9);
        const auto depth = measurementsOf(*context, QStringLiteral("gradient.depth_ratio"));
        QCOMPARE(depth.size(), std::size_t(1));
        QCOMPARE(depth.front().facts.value(QStringLiteral("steps")).toInt(), 3); // steps 0, 30, 59
        QVERIFY(depth.front().value > 0.01);
        QVERIFY(depth.front().facts.value(QStringLiteral("lowest")).toDouble() > 0.01);
    }
};

QTEST_GUILESS_MAIN(TestWeightAnalysis)
#include "tst_weightanalysis.moc"
