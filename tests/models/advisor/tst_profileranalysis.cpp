#include "importers/pipeline/pipelinereader.h"
#include "models/advisor/advisor.h"
#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"
#include "models/pipeline/pipelineanalysis.h"
#include "tests/models/advisor/performancetestutils.h"
#include "tests/testutils.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::models::advisor;
using runlens::test::measured;

namespace {

/// One rank's MindSpore step trace (iteration interval, FP+BP, tail) with the given intervals in µs.
models::profiler::ProfilerRankData rankWithIntervals(int rank, const std::vector<double>& intervalsUs)
{
    models::profiler::ProfilerRankData data;
    data.rank = rank;
    data.steps.categoryIds
        = QStringList { QStringLiteral("iteration_interval"), QStringLiteral("fp_and_bp"), QStringLiteral("tail") };
    for (std::size_t i = 0; i < intervalsUs.size(); ++i) {
        models::profiler::StepSeries::Step step;
        step.number = qint64(i) + 1;
        step.valuesUs = { intervalsUs[i], 9000.0, 1000.0 };
        step.totalUs = intervalsUs[i] + 10000.0;
        data.steps.steps.push_back(step);
    }
    data.steps.computeAverage();
    return data;
}

AdvisorInput bundleInput(std::shared_ptr<ProfilerBundle> bundle)
{
    AdvisorInput input;
    input.profilers.push_back({ QStringLiteral("ms_run"), std::move(bundle) });
    return input;
}

AdvisorInput stepInput(const std::vector<double>& intervalsUs)
{
    auto ranks = std::make_shared<models::profiler::ProfilerRunData>();
    ranks->ranks.push_back(rankWithIntervals(0, intervalsUs));
    auto bundle = std::make_shared<ProfilerBundle>();
    bundle->ranks = ranks;
    return bundleInput(bundle);
}

/// A pipeline whose host queue was empty in `empty` of `steps` steps, with an idle curve and three ops:
/// Batch (root) <- Map <- TFReader with the given queue usages of Map and TFReader.
std::shared_ptr<models::pipeline::DataPipeline> pipelineWith(int empty, int steps, const std::vector<double>& idle,
                                                             double mapUsage, double readerUsage)
{
    auto data = std::make_shared<models::pipeline::DataPipeline>();
    data->rank = 0;
    for (int s = 0; s < steps; ++s)
        data->hostQueue.samples.push_back({ s + 1, s < empty ? 0 : 16, 32 });
    data->cpu.processorCount = 8;
    data->cpu.device.push_back({ QStringLiteral("idle_utilization"), idle });
    const auto op = [](int id, const char* type, int parent, std::vector<int> children, double usage) {
        models::pipeline::PipelineOp o;
        o.id = id;
        o.type = QLatin1String(type);
        o.parent = parent;
        o.children = std::move(children);
        o.workers = 4;
        o.queueCapacity = 64;
        o.queueUsage = usage;
        return o;
    };
    data->ops = { op(0, "Batch", -1, { 1 }, std::nan("")), op(1, "Map", 0, { 2 }, mapUsage),
                  op(2, "TFReader", 1, {}, readerUsage) };
    models::pipeline::analysePipeline(*data);
    return data;
}

AdvisorInput pipelineInput(std::shared_ptr<models::pipeline::DataPipeline> data)
{
    auto bundle = std::make_shared<ProfilerBundle>();
    bundle->pipelines.push_back(std::move(data));
    return bundleInput(bundle);
}

} // namespace

class TestProfilerAnalysis : public QObject
{
    Q_OBJECT

private slots:
    void stepInterval();
    void stepIntervalHealthy();
    void hostQueueEmpty();
    void cpuBusy();
    void pipelineBottleneck();
    void pipelineKeepsUp();
    void missingSources();
    void mindInsightPipelineSample();
};

void TestProfilerAnalysis::stepInterval()
{
    // The first step (warm-up) is left out of the average, as MindInsight does: (800 + 900 + 700) / 3 µs.
    RuleBook rules;
    AnalysisContext context(rules);
    analyseProfiler(stepInput({ 2000, 800, 900, 700 }), context);
    const auto found = measured(context, QStringLiteral("profiler.step_interval"));
    QCOMPARE(found.size(), std::size_t(1));
    QVERIFY(qAbs(found.front().value - 0.8) < 1e-12);
    QCOMPARE(found.front().scope.rank, std::optional<int>(0));
    QCOMPARE(found.front().scope.run, QStringLiteral("ms_run"));
    QCOMPARE(found.front().facts.value(QStringLiteral("worst_step")).toLongLong(), 1);
    const auto evidence = parseEvidence(found.front().evidence.value(0));
    QCOMPARE(evidence->kind, QStringLiteral("profiler"));
    QCOMPARE(evidence->value(QStringLiteral("view")), QStringLiteral("overview"));
    QCOMPARE(evidence->value(QStringLiteral("step")), QStringLiteral("1"));
    QVERIFY(holds(Comparator::Greater, found.front().value, 0.5));
    QVERIFY(test::firedRules(evaluate(stepInput({ 2000, 800, 900, 700 }), RuleBook::builtIn()))
                .contains(QStringLiteral("step-interval")));
}

void TestProfilerAnalysis::stepIntervalHealthy()
{
    RuleBook rules;
    AnalysisContext context(rules);
    analyseProfiler(stepInput({ 5000, 100, 120, 80 }), context);
    const auto found = measured(context, QStringLiteral("profiler.step_interval"));
    QCOMPARE(found.size(), std::size_t(1));
    QVERIFY(qAbs(found.front().value - 0.1) < 1e-12);
    QVERIFY(!holds(Comparator::Greater, found.front().value, 0.5));
}

void TestProfilerAnalysis::hostQueueEmpty()
{
    for (const auto& [empty, expected] : { std::pair { 4, 40.0 }, { 1, 10.0 } }) {
        RuleBook rules;
        AnalysisContext context(rules);
        analyseProfiler(pipelineInput(pipelineWith(empty, 10, { 50 }, 0.9, 0.9)), context);
        const auto found = measured(context, QStringLiteral("profiler.host_queue_empty"));
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().value, expected);
        QCOMPARE(found.front().facts.value(QStringLiteral("empty")).toLongLong(), qint64(empty));
        QCOMPARE(parseEvidence(found.front().evidence.value(0))->value(QStringLiteral("view")),
                 QStringLiteral("pipeline"));
    }
}

void TestProfilerAnalysis::cpuBusy()
{
    // Idle 5, 10, 15 %: busy 90 % (above 80); idle 40 %: busy 60 %.
    for (const auto& [idle, expected] :
         { std::pair { std::vector<double> { 5, 10, 15 }, 90.0 }, { { 40, 40 }, 60.0 } }) {
        RuleBook rules;
        AnalysisContext context(rules);
        analyseProfiler(pipelineInput(pipelineWith(0, 4, idle, 0.9, 0.9)), context);
        const auto found = measured(context, QStringLiteral("profiler.cpu_busy"));
        QCOMPARE(found.size(), std::size_t(1));
        QVERIFY(qAbs(found.front().value - expected) < 1e-9);
        QCOMPARE(holds(Comparator::Greater, found.front().value, 80.0), expected > 80.0);
    }
}

void TestProfilerAnalysis::pipelineBottleneck()
{
    // The reader's queue is 90 % full but Map's only 20 %: Map cannot keep up with its input.
    RuleBook rules;
    AnalysisContext context(rules);
    analyseProfiler(pipelineInput(pipelineWith(5, 10, { 50 }, 0.2, 0.9)), context);
    const auto found = measured(context, QStringLiteral("pipeline.bottleneck"));
    QCOMPARE(found.size(), std::size_t(1));
    QCOMPARE(found.front().scope.op, QStringLiteral("Map_1"));
    QVERIFY(!found.front().facts.value(QStringLiteral("reason")).toString().isEmpty());
    QVERIFY(!found.front().facts.value(QStringLiteral("op_advice")).toString().isEmpty());
    QVERIFY(qAbs(found.front().facts.value(QStringLiteral("usage")).toDouble() - 20.0) < 1e-9);
}

void TestProfilerAnalysis::pipelineKeepsUp()
{
    RuleBook rules;
    AnalysisContext context(rules);
    analyseProfiler(pipelineInput(pipelineWith(0, 10, { 50 }, 0.9, 0.95)), context);
    QVERIFY(context.isEvaluated(QStringLiteral("pipeline.bottleneck")));
    QVERIFY(measured(context, QStringLiteral("pipeline.bottleneck")).empty());
}

void TestProfilerAnalysis::missingSources()
{
    RuleBook rules;
    AnalysisContext none(rules);
    analyseProfiler(AdvisorInput {}, none);
    for (const char* metric :
         { "profiler.step_interval", "profiler.host_queue_empty", "profiler.cpu_busy", "pipeline.bottleneck" })
        QCOMPARE(none.missingReason(QLatin1String(metric)), QStringLiteral("no MindSpore profiler output is loaded"));

    // Steps without pipeline files: the step interval is judged, the pipeline metrics say what is missing.
    AnalysisContext steps(rules);
    analyseProfiler(stepInput({ 100, 100 }), steps);
    QVERIFY(steps.isEvaluated(QStringLiteral("profiler.step_interval")));
    QVERIFY(steps.missingReason(QStringLiteral("profiler.host_queue_empty")).contains(QLatin1String("pipeline")));
}

void TestProfilerAnalysis::mindInsightPipelineSample()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString folder = samples + QStringLiteral("/profiler/mindspore/profiler_misc");
    const importers::pipeline::PipelineReadResult read = importers::pipeline::readDataPipeline(folder, 0);
    QVERIFY(read.pipeline);
    auto bundle = std::make_shared<ProfilerBundle>();
    bundle->pipelines.push_back(read.pipeline);
    RuleBook rules;
    AnalysisContext context(rules);
    analyseProfiler(bundleInput(bundle), context);
    const test::PythonRun run
        = test::runPerformanceOracle(QStringLiteral("pipeline_oracle.py"), { folder, QStringLiteral("0") });
    RUNLENS_VERIFY_PYTHON(run);
    const QString oracle = run.output;
    const QStringList expected = oracle.trimmed().split(QLatin1Char(' '));
    const auto empty = measured(context, QStringLiteral("profiler.host_queue_empty"));
    QCOMPARE(empty.size(), std::size_t(1));
    QVERIFY(qAbs(empty.front().value - expected[0].toDouble()) < 1e-6);
    const auto busy = measured(context, QStringLiteral("profiler.cpu_busy"));
    QCOMPARE(busy.size(), std::size_t(1));
    QVERIFY(qAbs(busy.front().value - expected[1].toDouble()) < 1e-6);
    QStringList slow;
    for (const Measurement& m : measured(context, QStringLiteral("pipeline.bottleneck")))
        slow << m.scope.op;
    slow.sort();
    QCOMPARE(slow.join(QLatin1Char(',')), expected[2]);

    // Through the engine with the built-in rules: each problem is a finding with its numbers filled in.
    const AdvisorReport report = evaluate(bundleInput(bundle), RuleBook::builtIn());
    QStringList fired;
    for (const Finding& f : report.findings) {
        fired << f.ruleId;
        QVERIFY2(!f.message.contains(QLatin1Char('{')), qPrintable(f.message));
    }
    QVERIFY(fired.contains(QStringLiteral("host-queue-empty")));
    QVERIFY(fired.contains(QStringLiteral("cpu-busy")));
    QCOMPARE(fired.count(QStringLiteral("pipeline-bottleneck")), 2);
}

QTEST_GUILESS_MAIN(TestProfilerAnalysis)
#include "tst_profileranalysis.moc"
