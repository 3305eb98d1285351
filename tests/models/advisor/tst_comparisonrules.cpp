#include "importers/accuracy/dumpcompare.h"
#include "models/advisor/advisor.h"
#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"
#include "tests/testutils.h"

#include <QFile>
#include <QSet>
#include <QtTest>

#include <memory>

using namespace runlens;
using namespace runlens::models::advisor;
using models::accuracy::CompareResult;
using models::accuracy::CompareRow;
using models::accuracy::Verdict;

namespace {

const QString kRuns = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");

const QStringList kComparisonRules {
    QStringLiteral("comparison-error-introduced"), QStringLiteral("comparison-half-underflow"),
    QStringLiteral("comparison-half-overflow"),    QStringLiteral("comparison-nonfinite-mismatch"),
    QStringLiteral("comparison-unmatched"),        QStringLiteral("comparison-shape-differs"),
    QStringLiteral("comparison-dtype-differs")
};

CompareResult compare(const QString& bench, const QString& target, const models::accuracy::NameMapping& mapping = {})
{
    importers::accuracy::CompareOptions options;
    options.mapping = mapping;
    QString error;
    const std::optional<CompareResult> result = importers::accuracy::compareDumps(bench, target, options, &error);
    if (!result)
        qWarning() << error;
    return result.value_or(CompareResult {});
}

AdvisorInput inputOf(const CompareResult& result)
{
    AdvisorInput input;
    input.comparison = std::make_shared<const CompareResult>(result);
    return input;
}

QList<Finding> findingsOf(const AdvisorReport& report, const QString& rule)
{
    QList<Finding> out;
    for (const Finding& finding : report.findings) {
        if (finding.ruleId == rule)
            out << finding;
    }
    return out;
}

/// The row a finding's evidence opens in the Accuracy panel.
QString evidenceRow(const Finding& finding)
{
    if (finding.evidence.isEmpty())
        return {};
    const std::optional<Evidence> evidence = parseEvidence(finding.evidence.first());
    if (!evidence || evidence->kind != QLatin1String("compare"))
        return {};
    return evidence->value(QStringLiteral("name"));
}

/// A row compared element by element, passing unless changed.
CompareRow tensorRow(const QString& name, const QString& op)
{
    CompareRow row;
    row.name = row.benchName = row.targetName = name;
    row.op = op;
    row.kind = models::accuracy::RowKind::Output;
    row.index = 0;
    row.benchDtype = row.targetDtype = QStringLiteral("torch.float16");
    row.benchShape = row.targetShape = { 4, 8 };
    row.benchHasShape = row.targetHasShape = true;
    row.tensor.compared = true;
    row.tensor.elements = 32;
    row.tensor.cosine = 1.0;
    row.verdict = Verdict::Pass;
    return row;
}

} // namespace

class TestComparisonRules : public QObject
{
    Q_OBJECT

private slots:
    // fp32 against the run with layers.2 in float16: the half layer is where the error is born, its underflow
    // named with the share of values flushed to zero, and its dtype; every finding opens its row.
    void halfLayer()
    {
        const CompareResult result
            = compare(kRuns + QStringLiteral("/fp32/msprobe"), kRuns + QStringLiteral("/fp16/msprobe"));
        QVERIFY(result.firstDivergence);
        const QString half = QStringLiteral("Module.layers.2.Linear.forward.0.output.0");
        const AdvisorReport report = evaluate(inputOf(result), RuleBook::builtIn());

        // Its rows reach a warning, not an error: the difference is introduced there.
        QVERIFY(findingsOf(report, QStringLiteral("comparison-error-introduced")).isEmpty());
        const QList<Finding> introduced = findingsOf(report, QStringLiteral("comparison-difference-introduced"));
        QCOMPARE(introduced.size(), 1);
        QVERIFY(introduced.first().severity == models::advisor::Severity::Warning);
        QCOMPARE(evidenceRow(introduced.first()), half);
        QCOMPARE(introduced.first().scope.comparison, QStringLiteral("fp32 vs fp16"));
        QVERIFY2(introduced.first().message.contains(
                     QStringLiteral("The numbers begin to part at %1 (a warning, not an error): its outputs fail while "
                                    "its inputs pass")
                         .arg(half)),
                 qPrintable(introduced.first().message));
        const models::accuracy::CompareSummary s = result.summary();
        QCOMPARE(introduced.first().value, double(s.warning + s.error));

        const QList<Finding> underflow = findingsOf(report, QStringLiteral("comparison-half-underflow"));
        QCOMPARE(underflow.size(), 1);
        const CompareRow& row = result.rows.at(result.firstDivergence->row);
        QCOMPARE(row.name, half);
        QVERIFY(row.tensor.underflow > 0);
        const double share = 100.0 * double(row.tensor.underflow) / double(row.tensor.elements);
        QCOMPARE(underflow.first().value, share);
        QCOMPARE(underflow.first().scope.tensor, half);
        QCOMPARE(evidenceRow(underflow.first()), half);
        const QString expected = QStringLiteral("Half precision underflow at %1: %2 of its values are flushed to zero")
                                     .arg(half, formatValue(share, Unit::Percent));
        QVERIFY2(underflow.first().message.startsWith(expected), qPrintable(underflow.first().message));

        const QList<Finding> dtype = findingsOf(report, QStringLiteral("comparison-dtype-differs"));
        QCOMPARE(dtype.size(), 1);
        QCOMPARE(evidenceRow(dtype.first()), half);
        QVERIFY(dtype.first().message.contains(QLatin1String("torch.float16")));

        for (const QString& rule :
             { QStringLiteral("comparison-half-overflow"), QStringLiteral("comparison-nonfinite-mismatch"),
               QStringLiteral("comparison-unmatched"), QStringLiteral("comparison-shape-differs") })
            QVERIFY2(findingsOf(report, rule).isEmpty(), qPrintable(rule));

        // The underflow threshold is data: above the layer's share, no finding.
        RuleBook raised = RuleBook::builtIn();
        QVERIFY(raised.setThreshold(QStringLiteral("comparison-half-underflow"), share + 1));
        QVERIFY(findingsOf(evaluate(inputOf(result), raised), QStringLiteral("comparison-half-underflow")).isEmpty());
    }

    // A perturbed weight of layers.0: the error is introduced there, by a parameter whose row is an error.
    void perturbedLayer()
    {
        const CompareResult result
            = compare(kRuns + QStringLiteral("/fp32/msprobe"), kRuns + QStringLiteral("/perturbed/msprobe"));
        const AdvisorReport report = evaluate(inputOf(result), RuleBook::builtIn());
        const QList<Finding> introduced = findingsOf(report, QStringLiteral("comparison-error-introduced"));
        QCOMPARE(introduced.size(), 1);
        QCOMPARE(evidenceRow(introduced.first()), QStringLiteral("Module.layers.0.Linear.forward.0.output.0"));
        QCOMPARE(introduced.first().scope.op, QStringLiteral("Module.layers.0.Linear.forward.0"));
        QVERIFY(introduced.first().severity == models::advisor::Severity::Error);
        QVERIFY2(introduced.first().message.startsWith(QLatin1String(
                     "The error is born at Module.layers.0.Linear.forward.0.output.0: a parameter of it differs")),
                 qPrintable(introduced.first().message));
        QVERIFY(findingsOf(report, QStringLiteral("comparison-difference-introduced")).isEmpty());
        QVERIFY(findingsOf(report, QStringLiteral("comparison-half-underflow")).isEmpty());
        QVERIFY(findingsOf(report, QStringLiteral("comparison-dtype-differs")).isEmpty());
    }

    // A run against itself: every comparison rule evaluated, none finds anything.
    void identicalRuns()
    {
        const CompareResult result = compare(kRuns + QStringLiteral("/fp32/npy"), kRuns + QStringLiteral("/fp32/npy"));
        QCOMPARE(result.summary().matched, 16);
        const AdvisorReport report = evaluate(inputOf(result), RuleBook::builtIn());
        QVERIFY2(report.findings.isEmpty(), qPrintable(report.findings.value(0).message));
        int evaluated = 0;
        for (const RuleStatus& status : report.statuses)
            evaluated += kComparisonRules.contains(status.ruleId) && status.evaluated ? 1 : 0;
        QCOMPARE(evaluated, kComparisonRules.size());
    }

    // Without a comparison the rules say why they were not evaluated.
    void notEvaluatedWithoutComparison()
    {
        AdvisorInput input;
        input.scalars.push_back({ QStringLiteral("run"), QStringLiteral("loss"), { 0, 1 }, { 1.0, 0.5 }, {} });
        const AdvisorReport report = evaluate(input, RuleBook::builtIn());
        int seen = 0;
        for (const RuleStatus& status : report.statuses) {
            if (!kComparisonRules.contains(status.ruleId))
                continue;
            ++seen;
            QVERIFY(!status.evaluated);
            QCOMPARE(status.reason, QStringLiteral("no dump comparison was run"));
        }
        QCOMPARE(seen, kComparisonRules.size());
    }

    // npy dumps against msprobe dumps without a mapping: nothing matches, and the finding counts both sides.
    void unmatchedCrossPair()
    {
        const CompareResult result
            = compare(kRuns + QStringLiteral("/fp32/npy"), kRuns + QStringLiteral("/fp16/msprobe"));
        const models::accuracy::CompareSummary s = result.summary();
        QCOMPARE(s.matched, 0);
        QCOMPARE(s.unmatchedBench, 16);
        QCOMPARE(s.unmatchedTarget, 16);
        const AdvisorReport report = evaluate(inputOf(result), RuleBook::builtIn());
        const QList<Finding> unmatched = findingsOf(report, QStringLiteral("comparison-unmatched"));
        QCOMPARE(unmatched.size(), 1);
        QCOMPARE(unmatched.first().value, 100.0);
        // Five layers on each side: layers.0 ... layers.4.
        QVERIFY2(unmatched.first().message.startsWith(
                     QLatin1String("10 ops unmatched: 5 ops (16 of 16 tensors) only in the bench, 5 ops (16 of 16 "
                                   "tensors) only in the target; 100 % of all tensors have no partner")),
                 qPrintable(unmatched.first().message));
        QCOMPARE(evidenceRow(unmatched.first()), result.rows.first().name);
        QVERIFY(findingsOf(report, QStringLiteral("comparison-error-introduced")).isEmpty());
    }

    // The PanGu pair (PyTorch bench, MindSpore target) without a mapping: the counts of the rows without a
    // partner, and the ops they belong to, counted here from the rows.
    void panguUnmatched()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString bench = samples + QStringLiteral("/accuracy/msprobe/pytorch_data");
        const QString target = samples + QStringLiteral("/accuracy/msprobe/mindspore_data");
        RUNLENS_REQUIRE_SAMPLE_FILE(bench + QStringLiteral("/dump.json"));
        const CompareResult result = compare(bench, target);
        int benchOnly = 0;
        int targetOnly = 0;
        int matched = 0;
        QSet<QString> benchOps;
        QSet<QString> targetOps;
        for (const CompareRow& row : result.rows) {
            if (row.verdict != Verdict::Unmatched) {
                ++matched;
            } else if (row.benchName.isEmpty()) {
                ++targetOnly;
                targetOps.insert(row.op);
            } else {
                ++benchOnly;
                benchOps.insert(row.op);
            }
        }
        QVERIFY(benchOnly > 0 && targetOnly > 0 && matched > 0);
        QCOMPARE(result.summary().unmatchedBench, benchOnly);
        QCOMPARE(result.summary().unmatchedTarget, targetOnly);
        const AdvisorReport report = evaluate(inputOf(result), RuleBook::builtIn());
        const QList<Finding> unmatched = findingsOf(report, QStringLiteral("comparison-unmatched"));
        QCOMPARE(unmatched.size(), 1);
        const QString expected = QStringLiteral("%1 ops unmatched: %2 ops (%3 of %4 tensors) only in the bench, %5 ops "
                                                "(%6 of %7 tensors) only in the target")
                                     .arg(benchOps.size() + targetOps.size())
                                     .arg(benchOps.size())
                                     .arg(benchOnly)
                                     .arg(matched + benchOnly)
                                     .arg(targetOps.size())
                                     .arg(targetOnly)
                                     .arg(matched + targetOnly);
        QVERIFY2(unmatched.first().message.startsWith(expected), qPrintable(unmatched.first().message));
        QCOMPARE(unmatched.first().value, 100.0 * (benchOnly + targetOnly) / (2.0 * matched + benchOnly + targetOnly));
        QCOMPARE(unmatched.first().scope.comparison, QStringLiteral("pytorch_data vs mindspore_data"));
        // Cross-framework spellings of one dtype (torch.bfloat16, BFloat16) are not a difference.
        QVERIFY(findingsOf(report, QStringLiteral("comparison-dtype-differs")).isEmpty());
    }

    // Rows the fixtures do not have: a half precision overflow, NaN/Inf on one side (the first in execution
    // order is named), a statistics row whose target is not finite, a shape that differs.
    void syntheticRows()
    {
        CompareResult result;
        result.bench = QStringLiteral("/data/gpu/dump");
        result.target = QStringLiteral("/data/npu/dump");
        CompareRow ok = tensorRow(QStringLiteral("a.output.0"), QStringLiteral("a"));
        CompareRow overflow = tensorRow(QStringLiteral("b.output.0"), QStringLiteral("b"));
        overflow.tensor.overflow = 3;
        overflow.verdict = Verdict::Warning;
        CompareRow nan = tensorRow(QStringLiteral("c.output.0"), QStringLiteral("c"));
        nan.tensor.nanMismatch = 2;
        nan.tensor.infMismatch = 1;
        nan.verdict = Verdict::Error;
        CompareRow laterNan = tensorRow(QStringLiteral("d.output.0"), QStringLiteral("d"));
        laterNan.tensor.nanMismatch = 30;
        laterNan.verdict = Verdict::Error;
        CompareRow shape = tensorRow(QStringLiteral("e.output.0"), QStringLiteral("e"));
        shape.targetShape = { 8, 4 };
        shape.tensor = {};
        shape.verdict = Verdict::Warning;
        CompareRow statistics = tensorRow(QStringLiteral("f.output.0"), QStringLiteral("f"));
        statistics.tensor = {};
        statistics.statistics = models::accuracy::StatisticsMetrics {};
        statistics.statistics->targetNonFinite = true;
        statistics.verdict = Verdict::Error;
        result.rows = { ok, overflow, nan, laterNan, shape, statistics };

        const AdvisorReport report = evaluate(inputOf(result), RuleBook::builtIn());
        const QList<Finding> overflows = findingsOf(report, QStringLiteral("comparison-half-overflow"));
        QCOMPARE(overflows.size(), 1);
        QCOMPARE(overflows.first().value, 3.0);
        QCOMPARE(evidenceRow(overflows.first()), QStringLiteral("b.output.0"));
        QCOMPARE(overflows.first().scope.comparison, QStringLiteral("gpu vs npu"));

        const QList<Finding> nonFinite = findingsOf(report, QStringLiteral("comparison-nonfinite-mismatch"));
        QCOMPARE(nonFinite.size(), 1);
        QCOMPARE(evidenceRow(nonFinite.first()), QStringLiteral("c.output.0"));
        QCOMPARE(nonFinite.first().occurrences, 3);
        QVERIFY2(nonFinite.first().message.contains(QLatin1String("2 NaN and 1 infinite values on one side only")),
                 qPrintable(nonFinite.first().message));

        const QList<Finding> shapes = findingsOf(report, QStringLiteral("comparison-shape-differs"));
        QCOMPARE(shapes.size(), 1);
        QCOMPARE(evidenceRow(shapes.first()), QStringLiteral("e.output.0"));
        QVERIFY2(shapes.first().message.contains(QLatin1String("[4, 8] in the bench, [8, 4] in the target")),
                 qPrintable(shapes.first().message));

        // No divergence was searched for in this hand-made result, nor are dtypes different.
        QVERIFY(findingsOf(report, QStringLiteral("comparison-error-introduced")).isEmpty());
        QVERIFY(findingsOf(report, QStringLiteral("comparison-dtype-differs")).isEmpty());
    }

    void displayNames()
    {
        QCOMPARE(comparisonDisplayName(QStringLiteral("runs/fp32/msprobe/step0/rank"),
                                       QStringLiteral("runs/fp16/msprobe/step0/rank")),
                 QStringLiteral("fp32 vs fp16"));
        QCOMPARE(comparisonDisplayName(QStringLiteral("a/model.pt"), QStringLiteral("b/model.npz")),
                 QStringLiteral("model.pt vs model.npz"));
        QCOMPARE(comparisonDisplayName(QStringLiteral("runs/fp32/"), QStringLiteral("runs/fp32")),
                 QStringLiteral("fp32 vs fp32"));
    }
};

QTEST_GUILESS_MAIN(TestComparisonRules)
#include "tst_comparisonrules.moc"
