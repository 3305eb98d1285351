#include "models/advisor/advisor.h"
#include "models/advisor/analysis.h"
#include "models/advisor/rule.h"

#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

using namespace runlens::models::advisor;

namespace {

/// Where each built-in rule is made to fire through the engine (evaluate() or applyRules() over what the real
/// analysers measured): the test source in tests/models/advisor and the function whose body asserts the finding.
struct FiringTest
{
    const char* file;
    const char* function;
};

const QHash<QString, FiringTest>& firingTests()
{
    static const QHash<QString, FiringTest> kTests {
        { QStringLiteral("loss-nan"), { "tst_accuracyrules.cpp", "checkBrokenRun" } },
        { QStringLiteral("tensor-overflow"), { "tst_accuracyrules.cpp", "checkBrokenRun" } },
        { QStringLiteral("weight-change-too-large"), { "tst_accuracyrules.cpp", "checkBrokenRun" } },
        { QStringLiteral("weight-not-changed"), { "tst_accuracyrules.cpp", "checkBrokenRun" } },
        { QStringLiteral("gradient-vanishing-depth"), { "tst_accuracyrules.cpp", "checkBrokenRun" } },
        { QStringLiteral("no-gradient"), { "tst_accuracyrules.cpp", "noGradientFinding" } },
        { QStringLiteral("loss-not-decreasing"), { "tst_accuracyrules.cpp", "plateauAfterFall" } },
        { QStringLiteral("loss-spike"), { "tst_accuracyrules.cpp", "convergedNoiseIsNoSpike" } },
        { QStringLiteral("tensor-all-zero"), { "tst_accuracyrules.cpp", "tensorsWithoutStepShowNone" } },
        { QStringLiteral("gradient-exploding"), { "tst_rulefiring.cpp", "checkExploding" } },
        { QStringLiteral("gradient-norm-too-large"), { "tst_rulefiring.cpp", "checkExploding" } },
        { QStringLiteral("gradient-vanishing"), { "tst_rulefiring.cpp", "checkVanishing" } },
        { QStringLiteral("weight-initialization"), { "tst_rulefiring.cpp", "checkBadInit" } },
        { QStringLiteral("weight-initialization-range"), { "tst_rulefiring.cpp", "checkBadInit" } },
        { QStringLiteral("weight-change-too-small"), { "tst_rulefiring.cpp", "checkTinyLr" } },
        { QStringLiteral("activation-dead-relu"), { "tst_rulefiring.cpp", "checkDeadRelu" } },
        { QStringLiteral("activation-saturation"), { "tst_rulefiring.cpp", "checkSaturated" } },
        { QStringLiteral("fp16-risk"), { "tst_rulefiring.cpp", "checkFp16" } },
        { QStringLiteral("dataloader-share"), { "tst_traceanalysis.cpp", "slowLoaderRecordedWithTorch" } },
        { QStringLiteral("synchronous-dataloader"), { "tst_traceanalysis.cpp", "slowLoaderRecordedWithTorch" } },
        { QStringLiteral("low-device-utilization"), { "tst_traceanalysis.cpp", "deviceUtilization" } },
        { QStringLiteral("host-bound-launches"), { "tst_traceanalysis.cpp", "shortKernels" } },
        { QStringLiteral("long-launch-queue"), { "tst_traceanalysis.cpp", "launchDelays" } },
        { QStringLiteral("communication-share"), { "tst_traceanalysis.cpp", "communicationShareAndOverlap" } },
        { QStringLiteral("low-communication-overlap"), { "tst_traceanalysis.cpp", "communicationShareAndOverlap" } },
        { QStringLiteral("dominant-operator"), { "tst_traceanalysis.cpp", "topOperator" } },
        { QStringLiteral("forward-slower-than-backward"), { "tst_traceanalysis.cpp", "forwardSlowerThanBackward" } },
        { QStringLiteral("zero-grad-not-set-to-none"), { "tst_traceanalysis.cpp", "patternMessages" } },
        { QStringLiteral("single-tensor-optimizer"), { "tst_traceanalysis.cpp", "patternMessages" } },
        { QStringLiteral("conv-bias-before-batchnorm"), { "tst_traceanalysis.cpp", "patternMessages" } },
        { QStringLiteral("fp16-matmul-alignment"), { "tst_traceanalysis.cpp", "patternMessages" } },
        { QStringLiteral("copy-after-fill"), { "tst_traceanalysis.cpp", "patternMessages" } },
        { QStringLiteral("host-queue-empty"), { "tst_profileranalysis.cpp", "mindInsightPipelineSample" } },
        { QStringLiteral("pipeline-bottleneck"), { "tst_profileranalysis.cpp", "mindInsightPipelineSample" } },
        { QStringLiteral("cpu-busy"), { "tst_profileranalysis.cpp", "mindInsightPipelineSample" } },
        { QStringLiteral("step-interval"), { "tst_profileranalysis.cpp", "stepInterval" } },
        { QStringLiteral("slow-rank"), { "tst_clusteranalysis.cpp", "kinetoSlowRankEndToEnd" } },
        { QStringLiteral("slow-link"), { "tst_clusteranalysis.cpp", "mindsporeMessages" } },
        { QStringLiteral("straggler-rank"), { "tst_clusteranalysis.cpp", "mindsporeMessages" } },
        { QStringLiteral("communication-rate"), { "tst_clusteranalysis.cpp", "mindsporeMessages" } },
        { QStringLiteral("memory-peak"), { "tst_memoryrules.cpp", "peakAndOomMessages" } },
        { QStringLiteral("memory-oom"), { "tst_memoryrules.cpp", "peakAndOomMessages" } },
        { QStringLiteral("memory-growth"), { "tst_memoryrules.cpp", "growth" } },
        { QStringLiteral("system-gpu-idle-cpu-busy"), { "tst_systemanalysis.cpp", "cpuBoundGpuIdleFires" } },
        { QStringLiteral("system-gpu-alternating"), { "tst_systemanalysis.cpp", "alternatingGpuFires" } },
        { QStringLiteral("system-swap"), { "tst_systemanalysis.cpp", "memoryRules" } },
        { QStringLiteral("system-memory-low"), { "tst_systemanalysis.cpp", "memoryRules" } },
        { QStringLiteral("system-ib-below-peers"), { "tst_systemanalysis.cpp", "peersRules" } },
        { QStringLiteral("system-rank-imbalance"), { "tst_systemanalysis.cpp", "peersRules" } },
        { QStringLiteral("comparison-error-introduced"), { "tst_comparisonrules.cpp", "perturbedLayer" } },
        { QStringLiteral("comparison-difference-introduced"), { "tst_comparisonrules.cpp", "halfLayer" } },
        { QStringLiteral("comparison-half-underflow"), { "tst_comparisonrules.cpp", "halfLayer" } },
        { QStringLiteral("comparison-dtype-differs"), { "tst_comparisonrules.cpp", "halfLayer" } },
        { QStringLiteral("comparison-unmatched"), { "tst_comparisonrules.cpp", "unmatchedCrossPair" } },
        { QStringLiteral("comparison-half-overflow"), { "tst_comparisonrules.cpp", "syntheticRows" } },
        { QStringLiteral("comparison-nonfinite-mismatch"), { "tst_comparisonrules.cpp", "syntheticRows" } },
        { QStringLiteral("comparison-shape-differs"), { "tst_comparisonrules.cpp", "syntheticRows" } },
    };
    return kTests;
}

/// The body of `function` in `source` (its braces matched, string and character literals skipped).
QString functionBody(const QString& source, const QString& function)
{
    const QRegularExpression signature(QStringLiteral("void (?:\\w+::)?%1\\([^)]*\\)\\s*\\{").arg(function));
    const QRegularExpressionMatch match = signature.match(source);
    if (!match.hasMatch())
        return {};
    int depth = 0;
    QChar quote;
    for (qsizetype i = match.capturedEnd() - 1; i < source.size(); ++i) {
        const QChar c = source.at(i);
        if (!quote.isNull()) {
            if (c == u'\\')
                ++i;
            else if (c == quote)
                quote = QChar();
            continue;
        }
        if (c == u'/' && source.mid(i, 2) == QLatin1String("//"))
            i = source.indexOf(u'\n', i); // a comment may hold an apostrophe
        else if (c == u'/' && source.mid(i, 2) == QLatin1String("/*"))
            i = source.indexOf(QLatin1String("*/"), i) + 1;
        else if (c == u'"' || c == u'\'')
            quote = c;
        else if (c == u'{')
            ++depth;
        else if (c == u'}' && --depth == 0)
            return source.mid(match.capturedStart(), i + 1 - match.capturedStart());
    }
    return {};
}

} // namespace

// Every built-in rule can fire: its metric is owned by an analyser, and a test makes it fire through the engine.
class TestRuleCoverage : public QObject
{
    Q_OBJECT

private slots:
    void everyMetricHasAnAnalyser()
    {
        // On an empty input every analyser marks each metric it owns as missing, saying what data it lacks; a
        // rule whose metric no analyser mentions could never fire.
        QStringList problems;
        const RuleBook rules = RuleBook::builtIn(&problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QVERIFY(rules.rules().size() >= 40);
        AnalysisContext context(rules);
        const AdvisorInput input;
        analyseScalars(input, context);
        analyseWeights(input, context);
        analyseTraces(input, context);
        analyseMemory(input, context);
        analyseProfiler(input, context);
        analyseCluster(input, context);
        analyseSystem(input, context);
        analyseComparison(input, context);
        QStringList orphans;
        for (const Rule& rule : rules.rules()) {
            if (!context.isEvaluated(rule.metric) && context.missingReason(rule.metric).isEmpty())
                orphans << QStringLiteral("%1 (%2)").arg(rule.id, rule.metric);
        }
        QVERIFY2(orphans.isEmpty(),
                 qPrintable(QStringLiteral("rules whose metric no analyser measures: ")
                            + orphans.join(QStringLiteral(", "))));
    }

    void everyRuleHasAFiringTest()
    {
        const RuleBook rules = RuleBook::builtIn();
        QSet<QString> ids;
        QHash<QString, QString> sources;
        for (const Rule& rule : rules.rules()) {
            ids.insert(rule.id);
            QVERIFY2(firingTests().contains(rule.id),
                     qPrintable(QStringLiteral("built-in rule %1 has no test that makes it fire").arg(rule.id)));
            const ::FiringTest test = firingTests().value(rule.id);
            const QString file = QString::fromLatin1(test.file);
            if (!sources.contains(file)) {
                QFile source(QStringLiteral(RUNLENS_TEST_DATA_DIR "/../models/advisor/") + file);
                QVERIFY2(source.open(QIODevice::ReadOnly), qPrintable(source.fileName()));
                sources.insert(file, QString::fromUtf8(source.readAll()));
            }
            const QString body = functionBody(sources.value(file), QString::fromLatin1(test.function));
            const QString where = QStringLiteral("%1 %2()").arg(file, QString::fromLatin1(test.function));
            QVERIFY2(!body.isEmpty(), qPrintable(where + QStringLiteral(" not found")));
            QVERIFY2(body.contains(QLatin1Char('"') + rule.id + QLatin1Char('"')),
                     qPrintable(QStringLiteral("%1 does not name %2").arg(where, rule.id)));
            QVERIFY2(body.contains(QLatin1String("evaluate(")) || body.contains(QLatin1String("applyRules(")),
                     qPrintable(where + QStringLiteral(" does not run the advisor engine")));
        }
        for (auto it = firingTests().begin(); it != firingTests().end(); ++it)
            QVERIFY2(ids.contains(it.key()), qPrintable(it.key() + QStringLiteral(" is not a built-in rule")));
    }
};

QTEST_GUILESS_MAIN(TestRuleCoverage)
#include "tst_rulecoverage.moc"
