#include "importers/memory/tracememory.h"
#include "models/advisor/advisor.h"
#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"
#include "tests/models/advisor/performancetestutils.h"
#include "tests/testutils.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models::advisor;
using runlens::test::measured;

namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

models::memory::MemoryDevice cudaDevice(std::int64_t capacity)
{
    models::memory::MemoryDevice device;
    device.label = QStringLiteral("cuda:0");
    device.deviceType = 1;
    device.deviceId = 0;
    device.capacity = capacity;
    device.allocated.name = QStringLiteral("Allocated");
    return device;
}

void sample(models::memory::MemoryDevice& device, std::int64_t x, double bytes)
{
    device.allocated.x.push_back(x);
    device.allocated.bytes.push_back(bytes);
}

AdvisorInput memoryInput(models::memory::MemoryDevice device,
                         std::shared_ptr<const models::trace::TraceStore> store = {})
{
    auto profile = std::make_shared<models::memory::MemoryProfile>();
    profile->paths << QStringLiteral("rank0.json");
    profile->devices.push_back(std::move(device));
    AdvisorInput input = store ? test::traceInput(std::move(store)) : AdvisorInput {};
    input.memory.push_back({ QStringLiteral("run"), QStringLiteral("rank0.json"), std::move(profile) });
    return input;
}

/// 10 ms steps; within step i the allocated memory starts at floorsMiB[i], peaks 1 GiB higher, and falls
/// back.
std::pair<models::memory::MemoryDevice, std::shared_ptr<const models::trace::TraceStore>>
steppedMemory(const std::vector<double>& floorsMiB)
{
    test::AnalysisTraceBuilder t;
    models::memory::MemoryDevice device = cudaDevice(std::int64_t(32 * kGiB));
    for (std::size_t i = 0; i < floorsMiB.size(); ++i) {
        const std::int64_t start = std::int64_t(i) * 10 * kMs;
        const double floor = floorsMiB[i] * kMiB;
        t.step(0, std::int64_t(i) + 1, start, 10 * kMs);
        sample(device, start + 1 * kMs, floor);
        sample(device, start + 4 * kMs, floor + kGiB);
        sample(device, start + 8 * kMs, floor + 0.5 * kGiB);
    }
    return { std::move(device), t.finish() };
}

/// The stepped memory with its trace, as the app pairs a trace's memory with the trace.
AdvisorInput steppedInput(const std::vector<double>& floorsMiB)
{
    auto [device, store] = steppedMemory(floorsMiB);
    return memoryInput(std::move(device), std::move(store));
}

} // namespace

class TestMemoryRules : public QObject
{
    Q_OBJECT

private slots:
    void peakShare();
    void peakShareWithoutCapacity();
    void outOfMemory();
    void peakAndOomMessages();
    void growth();
    void growthHealthy();
    void growthOfOneRankOfCombinedTraces();
    void noMemory();
    void kinetoSample();
};

void TestMemoryRules::peakShare()
{
    for (const auto& [peak, expected] : { std::pair { 15.0, 93.75 }, { 8.0, 50.0 } }) {
        models::memory::MemoryDevice device = cudaDevice(std::int64_t(16 * kGiB));
        sample(device, 1000, 2 * kGiB);
        sample(device, 2000, peak * kGiB);
        sample(device, 3000, 1 * kGiB);
        RuleBook rules;
        AnalysisContext context(rules);
        analyseMemory(memoryInput(std::move(device)), context);
        const auto found = measured(context, QStringLiteral("memory.peak_share"));
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().value, expected);
        QCOMPARE(found.front().scope.device, QStringLiteral("cuda:0"));
        QCOMPARE(found.front().facts.value(QStringLiteral("capacity")).toString(), QStringLiteral("16.0 GiB"));
        const auto evidence = parseEvidence(found.front().evidence.value(0));
        QCOMPARE(evidence->kind, QStringLiteral("memory"));
        QCOMPARE(evidence->value(QStringLiteral("time_ns")).toLongLong(), 2000);
        QCOMPARE(evidence->value(QStringLiteral("device")), QStringLiteral("cuda:0"));
    }
}

void TestMemoryRules::peakShareWithoutCapacity()
{
    models::memory::MemoryDevice device = cudaDevice(0);
    sample(device, 1000, 2 * kGiB);
    RuleBook rules;
    AnalysisContext context(rules);
    analyseMemory(memoryInput(std::move(device)), context);
    QVERIFY(!context.isEvaluated(QStringLiteral("memory.peak_share")));
    QVERIFY(context.missingReason(QStringLiteral("memory.peak_share")).contains(QLatin1String("capacity")));
    QVERIFY(context.isEvaluated(QStringLiteral("memory.oom")));
    QVERIFY(measured(context, QStringLiteral("memory.oom")).empty());
}

void TestMemoryRules::outOfMemory()
{
    models::memory::MemoryDevice device = cudaDevice(std::int64_t(16 * kGiB));
    sample(device, 1000, 15 * kGiB);
    device.ooms.push_back({ 5000, std::int64_t(2 * kGiB), std::int64_t(512 * kMiB), -1, 0 });
    device.ooms.push_back({ 3000, std::int64_t(4 * kGiB), std::int64_t(256 * kMiB), -1, 0 });
    RuleBook rules;
    AnalysisContext context(rules);
    analyseMemory(memoryInput(std::move(device)), context);
    const auto found = measured(context, QStringLiteral("memory.oom"));
    QCOMPARE(found.size(), std::size_t(1));
    QCOMPARE(found.front().value, 2.0);
    // The first failure in time, not in file order.
    QCOMPARE(found.front().facts.value(QStringLiteral("requested")).toString(), QStringLiteral("4.0 GiB"));
    QCOMPARE(found.front().facts.value(QStringLiteral("free")).toString(), QStringLiteral("256.0 MiB"));
    QCOMPARE(parseEvidence(found.front().evidence.value(0))->value(QStringLiteral("time_ns")).toLongLong(), 3000);
}

void TestMemoryRules::peakAndOomMessages()
{
    models::memory::MemoryDevice device = cudaDevice(std::int64_t(16 * kGiB));
    sample(device, 1000, 15.5 * kGiB);
    device.ooms.push_back({ 3000, std::int64_t(4 * kGiB), std::int64_t(256 * kMiB), -1, 0 });
    const AdvisorReport report = evaluate(memoryInput(std::move(device)), RuleBook::builtIn());
    const QStringList fired = test::firedRules(report);
    QVERIFY(fired.contains(QStringLiteral("memory-peak")));
    QVERIFY(fired.contains(QStringLiteral("memory-oom")));
    QCOMPARE(report.findings.front().ruleId, QStringLiteral("memory-oom")); // errors first
}

void TestMemoryRules::growth()
{
    // Floors 100, 100, 110, ..., 160 MiB: the floor rises in 6 consecutive steps, from step 2 to step 8.
    const std::vector<double> floors { 100, 100, 110, 120, 130, 140, 150, 160 };
    RuleBook rules;
    AnalysisContext context(rules);
    analyseMemory(steppedInput(floors), context);
    const auto found = measured(context, QStringLiteral("memory.growth"));
    QCOMPARE(found.size(), std::size_t(1));
    QCOMPARE(found.front().value, 6.0);
    QCOMPARE(found.front().scope.step, std::optional<qint64>(2));
    QCOMPARE(found.front().facts.value(QStringLiteral("last_step")).toLongLong(), 8);
    QCOMPARE(found.front().facts.value(QStringLiteral("growth")).toString(), QStringLiteral("60.0 MiB"));
    QCOMPARE(found.front().facts.value(QStringLiteral("per_step")).toString(), QStringLiteral("10.0 MiB"));
    QVERIFY(holds(Comparator::GreaterEqual, found.front().value, 5.0));

    // The built-in rule reports it once, with the numbers in its message.
    const AdvisorReport report = evaluate(steppedInput(floors), RuleBook::builtIn());
    QCOMPARE(report.findings.size(), 1);
    const Finding& finding = report.findings.front();
    QCOMPARE(finding.ruleId, QStringLiteral("memory-growth"));
    QVERIFY2(finding.message.contains(QLatin1String("rose in 6 consecutive steps, from step 2 to 8, by 60.0 MiB")),
             qPrintable(finding.message));
    QVERIFY2(!finding.message.contains(QLatin1Char('{')), qPrintable(finding.message));
}

void TestMemoryRules::growthHealthy()
{
    // The same floor every step after a warm-up step that allocates the optimizer state.
    const std::vector<double> floors { 100, 180, 180, 180, 180, 180, 180, 180 };
    RuleBook rules;
    AnalysisContext context(rules);
    analyseMemory(steppedInput(floors), context);
    QVERIFY(context.isEvaluated(QStringLiteral("memory.growth")));
    const auto found = measured(context, QStringLiteral("memory.growth"));
    QCOMPARE(found.size(), std::size_t(1));
    QCOMPARE(found.front().value, 1.0);
    QVERIFY(!holds(Comparator::GreaterEqual, found.front().value, 5.0));

    // Without steps on the memory's clock the growth is not judged.
    AnalysisContext bare(rules);
    analyseMemory(memoryInput(steppedMemory(floors).first), bare);
    QVERIFY(!bare.isEvaluated(QStringLiteral("memory.growth")));
    QVERIFY(!bare.missingReason(QStringLiteral("memory.growth")).isEmpty());
}

void TestMemoryRules::growthOfOneRankOfCombinedTraces()
{
    // Two ranks read into one store; the memory file of rank 1 was read alone (its device is source 0 of
    // its own profile) and named by an absolute path. Only rank 1 has steps where its floor rises.
    test::AnalysisTraceBuilder t(2);
    models::memory::MemoryDevice device = cudaDevice(std::int64_t(32 * kGiB));
    for (int i = 0; i < 6; ++i) {
        const std::int64_t start = 1000 * kMs + std::int64_t(i) * 10 * kMs;
        t.step(1, i + 1, start, 10 * kMs);
        sample(device, start + 1 * kMs, (100.0 + 10.0 * i) * kMiB);
        sample(device, start + 5 * kMs, (600.0 + 10.0 * i) * kMiB);
    }
    t.step(0, 1, 0, 10 * kMs);
    AdvisorInput input = test::traceInput(t.finish());
    auto profile = std::make_shared<models::memory::MemoryProfile>();
    profile->paths << QStringLiteral("/data/runs/job/rank1.json");
    profile->devices.push_back(std::move(device));
    input.memory.push_back({ QStringLiteral("job"), QStringLiteral("/data/runs/job/rank1.json"), profile });
    RuleBook rules;
    AnalysisContext context(rules);
    analyseMemory(input, context);
    const auto found = measured(context, QStringLiteral("memory.growth"));
    QCOMPARE(found.size(), std::size_t(1));
    QCOMPARE(found.front().value, 5.0);
    QCOMPARE(found.front().facts.value(QStringLiteral("growth")).toString(), QStringLiteral("50.0 MiB"));
}

void TestMemoryRules::noMemory()
{
    RuleBook rules;
    AnalysisContext context(rules);
    analyseMemory(AdvisorInput {}, context);
    for (const char* metric : { "memory.peak_share", "memory.oom", "memory.growth" })
        QCOMPARE(context.missingReason(QLatin1String(metric)), QStringLiteral("no memory profile is loaded"));
}

void TestMemoryRules::kinetoSample()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz");
    const auto store = test::readTraces({ path });
    QVERIFY(store);
    const importers::memory::MemoryReadResult read = importers::memory::memoryFromTrace(*store);
    QVERIFY(read.profile && !read.profile->empty());
    AdvisorInput input = test::traceInput(store);
    input.memory.push_back({ QStringLiteral("run"), store->sources().front().path, read.profile });
    RuleBook rules;
    AnalysisContext context(rules);
    analyseMemory(input, context);
    const auto peaks = measured(context, QStringLiteral("memory.peak_share"));
    const auto cuda1 = std::find_if(peaks.begin(), peaks.end(),
                                    [](const Measurement& m) { return m.scope.device == QLatin1String("cuda:1"); });
    QVERIFY(cuda1 != peaks.end());
    QVERIFY(!cuda1->scope.op.isEmpty()); // what ran at the peak, from the trace the curve came from
    const test::PythonRun peak
        = test::runPerformanceOracle(QStringLiteral("memory_peak.py"), { path, QStringLiteral("1") });
    RUNLENS_VERIFY_PYTHON(peak);
    const QString oracle = peak.output;
    QVERIFY2(qAbs(cuda1->value - oracle.split(QLatin1Char(' ')).first().toDouble()) < 1e-6,
             qPrintable(QStringLiteral("%1 vs %2").arg(cuda1->value).arg(oracle)));
    // A healthy run: far from the 32 GB of the V100, no OOM.
    QVERIFY(cuda1->value < 90.0);
    QVERIFY(measured(context, QStringLiteral("memory.oom")).empty());
    QVERIFY(context.isEvaluated(QStringLiteral("memory.growth")));
}

QTEST_GUILESS_MAIN(TestMemoryRules)
#include "tst_memoryrules.moc"
