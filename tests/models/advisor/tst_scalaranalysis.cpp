#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"
#include "tests/models/advisor/accuracytestutils.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace runlens;
using namespace runlens::models::advisor;
using runlens::test::measurementsOf;

namespace {

ScalarTrack track(const QString& tag, const std::vector<double>& values, const QString& run = QStringLiteral("run1"))
{
    ScalarTrack t;
    t.run = run;
    t.tag = tag;
    t.values = values;
    for (std::size_t i = 0; i < values.size(); ++i)
        t.steps.push_back(qint64(i) * 10);
    return t;
}

/// A loss that falls as a * exp(-k i) + floor, with a small deterministic wiggle.
std::vector<double> decaying(int count, double a, double k, double floor)
{
    std::vector<double> out;
    for (int i = 0; i < count; ++i)
        out.push_back(a * std::exp(-k * i) + floor + 0.01 * std::sin(i * 1.3));
    return out;
}

std::vector<double> flat(int count, double level)
{
    std::vector<double> out;
    for (int i = 0; i < count; ++i)
        out.push_back(level + 0.02 * std::sin(i * 2.1));
    return out;
}

double mean(const std::vector<double>& v, std::size_t begin, std::size_t end)
{
    double s = 0;
    for (std::size_t i = begin; i < end; ++i)
        s += v[i];
    return s / double(end - begin);
}

std::unique_ptr<AnalysisContext> analyse(const AdvisorInput& input, const RuleBook& rules)
{
    auto context = std::make_unique<AnalysisContext>(rules);
    analyseScalars(input, *context);
    return context;
}

} // namespace

class TestScalarAnalysis : public QObject
{
    Q_OBJECT

private:
    RuleBook m_rules;

private slots:
    void withoutLossTagsNothingIsEvaluated()
    {
        AdvisorInput input;
        auto context = analyse(input, m_rules);
        QVERIFY(!context->isEvaluated(QStringLiteral("loss.nonfinite")));
        QVERIFY(context->missingReason(QStringLiteral("loss.nonfinite")).contains(QLatin1String("no scalar")));

        input.scalars = { track(QStringLiteral("accuracy"), { 0.1, std::nan(""), 0.3 }) };
        context = analyse(input, m_rules);
        QVERIFY(context->measurements().empty());
        for (const char* metric : { "loss.nonfinite", "loss.window_decrease", "loss.spike_ratio" }) {
            QVERIFY(!context->isEvaluated(QString::fromLatin1(metric)));
            QVERIFY(context->missingReason(QString::fromLatin1(metric)).contains(QLatin1String("loss")));
        }
    }

    void firstNonFiniteLossStep()
    {
        AdvisorInput input;
        const double inf = std::numeric_limits<double>::infinity();
        input.scalars = { track(QStringLiteral("Train/Loss"), { 2.0, 1.9, 1.8, inf, std::nan(""), 1.0 }),
                          track(QStringLiteral("val_loss"), { 2.0, 1.5, 1.2 }) };
        const auto context = analyse(input, m_rules);
        QVERIFY(context->isEvaluated(QStringLiteral("loss.nonfinite")));
        const auto bad = measurementsOf(*context, QStringLiteral("loss.nonfinite"), QStringLiteral("Train/Loss"));
        QCOMPARE(bad.size(), std::size_t(1));
        QCOMPARE(bad.front().value, 2.0);
        QCOMPARE(bad.front().scope.step, std::optional<qint64>(30));
        QCOMPARE(bad.front().scope.run, QStringLiteral("run1"));
        QCOMPARE(bad.front().order, 30.0);
        QCOMPARE(bad.front().facts.value(QStringLiteral("kind")).toString(), QStringLiteral("infinite"));
        QCOMPARE(bad.front().facts.value(QStringLiteral("last_finite")).toDouble(), 1.8);
        QCOMPARE(bad.front().facts.value(QStringLiteral("last_finite_step")).toLongLong(), 20);
        const auto evidence = parseEvidence(bad.front().evidence.value(0));
        QVERIFY(evidence);
        QCOMPARE(evidence->kind, QStringLiteral("scalar"));
        QCOMPARE(evidence->value(QStringLiteral("tag")), QStringLiteral("Train/Loss"));
        QCOMPARE(evidence->value(QStringLiteral("step")), QStringLiteral("30"));

        const auto healthy = measurementsOf(*context, QStringLiteral("loss.nonfinite"), QStringLiteral("val_loss"));
        QCOMPARE(healthy.size(), std::size_t(1));
        QCOMPARE(healthy.front().value, 0.0);
        QVERIFY(!healthy.front().scope.step);
    }

    void nanAtTheFirstStepHasNoLastFiniteValue()
    {
        AdvisorInput input;
        input.scalars = { track(QStringLiteral("loss"), { std::nan(""), 1.0 }) };
        const auto context = analyse(input, m_rules);
        const auto bad = measurementsOf(*context, QStringLiteral("loss.nonfinite"));
        QCOMPARE(bad.front().facts.value(QStringLiteral("kind")).toString(), QStringLiteral("NaN"));
        QCOMPARE(bad.front().facts.value(QStringLiteral("last_finite")).toString(), QStringLiteral("none"));
        QCOMPARE(bad.front().scope.step, std::optional<qint64>(0));
    }

    void windowDecrease()
    {
        AdvisorInput input;
        const std::vector<double> stalled = flat(120, 2.3);
        const std::vector<double> learning = decaying(120, 2.0, 0.03, 0.1);
        input.scalars = { track(QStringLiteral("loss"), stalled, QStringLiteral("stalled")),
                          track(QStringLiteral("loss"), learning, QStringLiteral("learning")) };
        const auto context = analyse(input, m_rules);
        QVERIFY(context->isEvaluated(QStringLiteral("loss.window_decrease")));
        const auto all = measurementsOf(*context, QStringLiteral("loss.window_decrease"));
        QCOMPARE(all.size(), std::size_t(2));
        for (const Measurement& m : all) {
            const std::vector<double>& v = m.scope.run == QLatin1String("stalled") ? stalled : learning;
            // Default window 50: points 20..69 against 70..119.
            const double previous = mean(v, 20, 70);
            const double last = mean(v, 70, 120);
            QVERIFY(std::abs(m.value - 100.0 * (previous - last) / previous) < 1e-9);
            QCOMPARE(m.facts.value(QStringLiteral("window")).toInt(), 50);
            QCOMPARE(m.facts.value(QStringLiteral("window_start")).toLongLong(), 700);
            QCOMPARE(m.scope.step, std::optional<qint64>(1190));
        }
        const double stalledValue = all[0].scope.run == QLatin1String("stalled") ? all[0].value : all[1].value;
        const double learningValue = all[0].scope.run == QLatin1String("stalled") ? all[1].value : all[0].value;
        QVERIFY(std::abs(stalledValue) < 1.0); // below the recommended 1 %
        QVERIFY(learningValue > 10.0);
    }

    void shortSeriesUseHalfTheirPointsAndTinyOnesNone()
    {
        AdvisorInput input;
        input.scalars = { track(QStringLiteral("loss"), decaying(30, 1.0, 0.1, 0.0)) };
        auto context = analyse(input, m_rules);
        const auto m = measurementsOf(*context, QStringLiteral("loss.window_decrease"));
        QCOMPARE(m.size(), std::size_t(1));
        QCOMPARE(m.front().facts.value(QStringLiteral("window")).toInt(), 15);

        input.scalars = { track(QStringLiteral("loss"), { 1.0, 0.9, 0.8 }) };
        context = analyse(input, m_rules);
        QVERIFY(measurementsOf(*context, QStringLiteral("loss.window_decrease")).empty());
        QVERIFY(!context->isEvaluated(QStringLiteral("loss.window_decrease")));
        QVERIFY(!context->missingReason(QStringLiteral("loss.window_decrease")).isEmpty());
    }

    void spikes()
    {
        AdvisorInput input;
        std::vector<double> values = flat(60, 1.0);
        values[40] = 5.0;
        input.scalars = { track(QStringLiteral("loss"), values) };
        const auto context = analyse(input, m_rules);
        const auto all = measurementsOf(*context, QStringLiteral("loss.spike_ratio"));
        QCOMPARE(all.size(), std::size_t(1)); // only the spike passes the recommended 3x
        const Measurement& spike = all.front();
        QCOMPARE(spike.scope.step, std::optional<qint64>(400));
        std::vector<double> before(values.begin() + 20, values.begin() + 40);
        std::sort(before.begin(), before.end());
        const double median = (before[9] + before[10]) / 2.0;
        QVERIFY(std::abs(spike.value - 5.0 / median) < 1e-12);
        QCOMPARE(spike.facts.value(QStringLiteral("loss")).toDouble(), 5.0);
        QVERIFY(std::abs(spike.facts.value(QStringLiteral("baseline")).toDouble() - median) < 1e-12);
    }

    void noSpikeStillReportsTheLargestRatio()
    {
        AdvisorInput input;
        input.scalars = { track(QStringLiteral("loss"), decaying(60, 2.0, 0.05, 0.2)) };
        const auto context = analyse(input, m_rules);
        const auto all = measurementsOf(*context, QStringLiteral("loss.spike_ratio"));
        QCOMPARE(all.size(), std::size_t(1));
        QVERIFY(all.front().value < 3.0);
        QVERIFY(context->isEvaluated(QStringLiteral("loss.spike_ratio")));
    }

    void windowComesFromTheRuleBook()
    {
        RuleBook rules;
        QStringList problems;
        QVERIFY(rules.load(QStringLiteral(RUNLENS_TEST_DATA_DIR "/advisor/accuracy/short_windows.json"), &problems));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        AdvisorInput input;
        input.scalars = { track(QStringLiteral("loss"), decaying(120, 2.0, 0.03, 0.1)) };
        const auto context = analyse(input, rules);
        const auto m = measurementsOf(*context, QStringLiteral("loss.window_decrease"));
        QCOMPARE(m.front().facts.value(QStringLiteral("window")).toInt(), 10);
        QCOMPARE(measurementsOf(*context, QStringLiteral("loss.spike_ratio"))
                     .front()
                     .facts.value(QStringLiteral("window"))
                     .toInt(),
                 8);
    }
};

QTEST_GUILESS_MAIN(TestScalarAnalysis)
#include "tst_scalaranalysis.moc"
