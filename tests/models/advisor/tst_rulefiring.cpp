#include "models/advisor/advisor.h"
#include "models/advisor/evidence.h"
#include "tests/models/advisor/accuracytestutils.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::models::advisor;
using test::describe;
using test::findingsOf;
using test::statusOf;

namespace {

/// The value of one entry of an oracle table: a number, or an object with "value".
double oracleValue(const QJsonValue& entry)
{
    return entry.isObject() ? entry.toObject().value(QStringLiteral("value")).toDouble(std::nan(""))
                            : entry.toDouble(std::nan(""));
}

/// The tensors of an oracle table whose value meets `rule`'s condition: the ones it must report.
QStringList tensorsMeeting(const QJsonObject& table, const Rule& rule)
{
    QStringList out;
    for (auto it = table.begin(); it != table.end(); ++it) {
        if (holds(rule.comparator, oracleValue(it.value()), rule.threshold))
            out << it.key();
    }
    out.sort();
    return out;
}

QStringList tensorsOf(const QList<Finding>& findings)
{
    QStringList out;
    for (const Finding& f : findings)
        out << f.scope.tensor;
    out.sort();
    return out;
}

bool near(double measured, double expected, double relative)
{
    return std::abs(measured - expected) <= relative * std::abs(expected);
}

QString numbers(double measured, double expected)
{
    return QStringLiteral("measured %1, numpy %2").arg(measured, 0, 'g', 17).arg(expected, 0, 'g', 17);
}

/// The module a torch-style dump name belongs to: "fc1.weight_grad" -> "fc1".
QString moduleOf(const QString& tensor)
{
    return tensor.section(QLatin1Char('.'), 0, -2);
}

} // namespace

// Each built-in accuracy rule that watches weights, gradients and activations fires on a run where its condition
// came about the way it does in real training: small PyTorch models trained by make_rule_runs.py (an exploding
// regression on unnormalised inputs, a deep sigmoid MLP, a bad initialisation, a learning rate far too small,
// biases that kill the ReLUs, raw 16-bit inputs into tanh, gradients held in float16, mixed-precision dumps). The
// Advisor's findings are checked against what dump_oracle.py reads back from the dumped files with numpy.
class TestRuleFiring : public QObject
{
    Q_OBJECT

private:
    RuleBook m_rules;

    const Rule& rule(const char* id) const { return *m_rules.rule(QString::fromLatin1(id)); }

    /// Weights the oracle measured at step 0 that meet the zero-initialisation rule and never leave zero.
    QStringList zeroWeightsThatStay(const QJsonObject& oracle) const
    {
        const QJsonObject stays = oracle.value(QStringLiteral("init_zero_stays")).toObject();
        QStringList out;
        for (const QString& name :
             tensorsMeeting(oracle.value(QStringLiteral("init_zero_share")).toObject(), rule("weight-initialization")))
            if (stays.value(name).toBool())
                out << name;
        return out;
    }

    /// The findings of `id`, after checking the rule was evaluated and every finding has its severity.
    QList<Finding> findingsOfRule(const AdvisorReport& report, const char* id) const
    {
        const QString ruleId = QString::fromLatin1(id);
        const RuleStatus* status = statusOf(report, ruleId);
        if (!status || !status->evaluated) {
            qWarning("%s was not evaluated: %s", id, status ? qPrintable(status->reason) : "unknown rule");
            return {};
        }
        const QList<Finding> found = findingsOf(report, ruleId);
        for (const Finding& f : found) {
            if (f.severity != rule(id).severity || f.category != Category::Accuracy) {
                qWarning("%s: finding with the wrong severity or category", id);
                return {};
            }
        }
        return found;
    }

    /// Raw features in the thousands into a deep regression with a learning rate meant for normalised inputs:
    /// the gradient norm is huge from step 0, and a few steps later the gradients overflow.
    void checkExploding(const QString& folder, const QJsonObject& oracle)
    {
        const AdvisorReport report = evaluate(test::loadRun(folder), m_rules);
        qInfo().noquote() << describe(report.findings);

        const QJsonObject first = oracle.value(QStringLiteral("gradient_nonfinite_first")).toObject();
        QVERIFY2(!first.isEmpty(), "the run did not explode");
        const QList<Finding> exploding = findingsOfRule(report, "gradient-exploding");
        QCOMPARE(exploding.size(), 1);
        const Finding& f = exploding.front();
        QVERIFY(f.severity == models::advisor::Severity::Error);
        const qint64 step = first.value(QStringLiteral("step")).toInteger(-1);
        const qint64 nan = first.value(QStringLiteral("nan")).toInteger(-1);
        const qint64 inf = first.value(QStringLiteral("inf")).toInteger(-1);
        QCOMPARE(f.scope.step, std::optional<qint64>(step));
        QCOMPARE(f.scope.tensor, first.value(QStringLiteral("tensor")).toString());
        QCOMPARE(f.scope.layer, first.value(QStringLiteral("layer")).toString());
        QCOMPARE(f.value, double(nan + inf));
        QVERIFY2(f.message.startsWith(QStringLiteral("Gradient %1 has %2 NaN and %3 infinite values at step %4, the "
                                                     "first gradient to overflow")
                                          .arg(f.scope.tensor)
                                          .arg(nan)
                                          .arg(inf)
                                          .arg(step)),
                 qPrintable(f.message));
        const auto evidence = parseEvidence(f.evidence.value(0));
        QVERIFY(evidence);
        QCOMPARE(evidence->value(QStringLiteral("name")), f.scope.tensor);
        QCOMPARE(evidence->value(QStringLiteral("step")), QString::number(step));

        // The first step whose global gradient norm is above the threshold, as numpy measured it.
        const Rule& normRule = rule("gradient-norm-too-large");
        const QJsonObject norms = oracle.value(QStringLiteral("global_norm")).toObject();
        qint64 firstLarge = -1;
        QJsonObject expected;
        for (auto it = norms.begin(); it != norms.end(); ++it) {
            const qint64 at = it.key().toLongLong();
            if (holds(normRule.comparator, oracleValue(it.value()), normRule.threshold)
                && (firstLarge < 0 || at < firstLarge)) {
                firstLarge = at;
                expected = it.value().toObject();
            }
        }
        QVERIFY2(firstLarge >= 0, "no step with a large gradient norm");
        QVERIFY(firstLarge < step); // large before it overflowed
        const QList<Finding> norm = findingsOfRule(report, "gradient-norm-too-large");
        QCOMPARE(norm.size(), 1);
        QVERIFY(norm.front().severity == models::advisor::Severity::Warning);
        QCOMPARE(norm.front().scope.step, std::optional<qint64>(firstLarge));
        const double value = expected.value(QStringLiteral("value")).toDouble();
        QVERIFY2(near(norm.front().value, value, 1e-6), qPrintable(numbers(norm.front().value, value)));
        const int tensors = expected.value(QStringLiteral("tensors")).toInt();
        QVERIFY2(norm.front().message.startsWith(
                     QStringLiteral("The global norm of the %1 recorded gradients is ").arg(tensors)),
                 qPrintable(norm.front().message));
        QVERIFY2(norm.front().message.contains(QStringLiteral(" at step %1, above %2.")
                                                   .arg(firstLarge)
                                                   .arg(formatValue(normRule.threshold, normRule.unit))),
                 qPrintable(norm.front().message));
        // The loss went with it.
        const QList<Finding> loss = findingsOf(report, QStringLiteral("loss-nan"));
        QCOMPARE(loss.size(), 1);

        // After the run's first overflow the weights, gradients and activations show its consequences: dead
        // ReLUs, zero gradients, weights stuck at NaN. They are not causes of their own, and the overflow findings
        // name the first overflow and say so.
        const qint64 firstStep = std::min(*loss.front().scope.step, step);
        for (const char* consequence : { "weight-not-changed", "tensor-all-zero", "activation-dead-relu",
                                         "gradient-vanishing", "gradient-vanishing-depth", "no-gradient" })
            QVERIFY2(findingsOf(report, QString::fromLatin1(consequence)).isEmpty(),
                     qPrintable(describe(findingsOf(report, QString::fromLatin1(consequence)))));
        for (const Finding& later : findingsOf(report, QStringLiteral("weight-change-too-large")))
            QVERIFY2(later.message.contains(QStringLiteral("(mean over steps 0-%1,").arg(firstStep)),
                     qPrintable(later.message));
        const QString sentence
            = QStringLiteral(" The run's first overflow is %1 at step %2; what weights and gradients "
                             "show after it follows from it and is not reported again.")
                  .arg(*loss.front().scope.step <= step ? loss.front().scope.tensor : f.scope.tensor)
                  .arg(firstStep);
        QVERIFY2(f.message.endsWith(sentence), qPrintable(f.message));
        const QList<Finding> overflow = findingsOfRule(report, "tensor-overflow");
        QCOMPARE(overflow.size(), 1);
        QVERIFY2(overflow.front().message.endsWith(sentence), qPrintable(overflow.front().message));
    }

    /// A fourteen-layer sigmoid MLP: the first layers' gradients are typically below 1e-9.
    void checkVanishing(const QString& folder, const QJsonObject& oracle)
    {
        const AdvisorReport report = evaluate(test::loadRun(folder), m_rules);
        qInfo().noquote() << describe(report.findings);
        const QJsonObject absMean = oracle.value(QStringLiteral("gradient_abs_mean")).toObject();
        const Rule& vanishing = rule("gradient-vanishing");
        const QStringList expected = tensorsMeeting(absMean, vanishing);
        QVERIFY2(expected.contains(QStringLiteral("fc1.weight_grad")), qPrintable(expected.join(u' ')));
        QVERIFY(!expected.contains(QStringLiteral("fc14.weight_grad"))); // the last layer still learns
        const QList<Finding> found = findingsOfRule(report, "gradient-vanishing");
        QCOMPARE(tensorsOf(found), expected);
        for (const Finding& f : found) {
            const QJsonObject typical = absMean.value(f.scope.tensor).toObject();
            const double value = typical.value(QStringLiteral("value")).toDouble();
            QVERIFY2(near(f.value, value, 1e-6), qPrintable(f.scope.tensor + u' ' + numbers(f.value, value)));
            QCOMPARE(f.scope.step, std::optional<qint64>(typical.value(QStringLiteral("step")).toInteger()));
            QCOMPARE(f.scope.layer, moduleOf(f.scope.tensor));
            QVERIFY2(f.message.contains(QStringLiteral("(the median over its recorded steps: %1), below %2.")
                                            .arg(typical.value(QStringLiteral("steps")).toInt())
                                            .arg(formatValue(vanishing.threshold, vanishing.unit))),
                     qPrintable(f.message));
        }
        // The same run shows the pattern across depth.
        QCOMPARE(findingsOf(report, QStringLiteral("gradient-vanishing-depth")).size(), 1);
        // The early layers' weights are bit for bit the same from step to step: their gradients are far too small
        // to move them in float32. That is the vanishing gradient reported above, not a frozen layer.
        const QJsonObject unchanged = oracle.value(QStringLiteral("unchanged")).toObject();
        QVERIFY(unchanged.value(QStringLiteral("fc1.weight")).toInt() > 0);
        QVERIFY2(findingsOf(report, QStringLiteral("weight-not-changed")).isEmpty(),
                 qPrintable(describe(findingsOf(report, QStringLiteral("weight-not-changed")))));
    }

    /// fc1 initialised with std sqrt(fan_in) where 1/sqrt(fan_in) was meant, fc2 with nn.init.zeros_.
    void checkBadInit(const QString& folder, const QJsonObject& oracle)
    {
        const AdvisorReport report = evaluate(test::loadRun(folder), m_rules);
        qInfo().noquote() << describe(report.findings);

        // fc2 and fc3 start at zero and, with fc2's outputs all zero, neither ever gets a gradient.
        const QStringList zeroed = zeroWeightsThatStay(oracle);
        QCOMPARE(zeroed, (QStringList { QStringLiteral("fc2.weight"), QStringLiteral("fc3.weight") }));
        const QList<Finding> init = findingsOfRule(report, "weight-initialization");
        QCOMPARE(tensorsOf(init), zeroed);
        const QJsonObject zero = oracle.value(QStringLiteral("init_zero_share")).toObject();
        for (const Finding& f : init) {
            QVERIFY(f.severity == models::advisor::Severity::Error);
            QCOMPARE(f.value, oracleValue(zero.value(f.scope.tensor)));
            QCOMPARE(f.scope.step, std::optional<qint64>(0));
            QCOMPARE(f.scope.layer, f.scope.tensor.section(QLatin1Char('.'), 0, 0));
            QCOMPARE(f.message, QStringLiteral("100 % of the values of %1 are zero at step 0.").arg(f.scope.tensor));
        }

        const QJsonObject range = oracle.value(QStringLiteral("init_abs_max")).toObject();
        const QStringList wide = tensorsMeeting(range, rule("weight-initialization-range"));
        QCOMPARE(wide, QStringList { QStringLiteral("fc1.weight") });
        const QList<Finding> found = findingsOfRule(report, "weight-initialization-range");
        QCOMPARE(tensorsOf(found), wide);
        const Finding& f = found.front();
        QVERIFY(f.severity == models::advisor::Severity::Warning);
        const QJsonObject expected = range.value(f.scope.tensor).toObject();
        const double value = expected.value(QStringLiteral("value")).toDouble();
        QVERIFY2(near(f.value, value, 1e-12), qPrintable(numbers(f.value, value)));
        QCOMPARE(f.scope.step, std::optional<qint64>(0));
        QCOMPARE(f.scope.layer, QStringLiteral("fc1"));
        QVERIFY2(
            f.message.startsWith(QStringLiteral("fc1.weight spans %1 to %2 at step 0;")
                                     .arg(formatValue(expected.value(QStringLiteral("min")).toDouble(), Unit::Value),
                                          formatValue(expected.value(QStringLiteral("max")).toDouble(), Unit::Value))),
            qPrintable(f.message));
    }

    /// A classifier head zeroed on purpose: it is all zero at step 0, gets a gradient at once and learns apart,
    /// so zero initialisation is no fault there.
    void checkZeroHead(const QString& folder, const QJsonObject& oracle)
    {
        const AdvisorReport report = evaluate(test::loadRun(folder), m_rules);
        qInfo().noquote() << describe(report.findings);
        const QJsonObject zero = oracle.value(QStringLiteral("init_zero_share")).toObject();
        QVERIFY(holds(rule("weight-initialization").comparator, oracleValue(zero.value(QStringLiteral("fc3.weight"))),
                      rule("weight-initialization").threshold));
        QCOMPARE(oracle.value(QStringLiteral("init_zero_stays")).toObject().value(QStringLiteral("fc3.weight")),
                 QJsonValue(false));
        QCOMPARE(zeroWeightsThatStay(oracle), QStringList());
        QVERIFY2(findingsOfRule(report, "weight-initialization").isEmpty(), qPrintable(describe(report.findings)));
        // With the head at zero, fc1 and fc2 get an exactly zero gradient at step 0 only: they are the same at
        // steps 0 and 1 and learn from then on. Held for a step is not frozen.
        const QJsonObject unchanged = oracle.value(QStringLiteral("unchanged")).toObject();
        const QJsonObject last = oracle.value(QStringLiteral("unchanged_last")).toObject();
        for (const char* held : { "fc1.weight", "fc2.weight" }) {
            QVERIFY2(unchanged.value(QLatin1String(held)).toInt() > 0, held);
            QCOMPARE(last.value(QLatin1String(held)), QJsonValue(false));
        }
        QVERIFY2(findingsOf(report, QStringLiteral("weight-not-changed")).isEmpty(),
                 qPrintable(describe(findingsOf(report, QStringLiteral("weight-not-changed")))));
    }

    /// Plain SGD with a learning rate of 1e-4: the weights move, but by 1e-6 to 1e-4 of their size a step.
    void checkTinyLr(const QString& folder, const QJsonObject& oracle)
    {
        const AdvisorReport report = evaluate(test::loadRun(folder), m_rules);
        qInfo().noquote() << describe(report.findings);
        const QJsonObject ratios = oracle.value(QStringLiteral("update_ratio")).toObject();
        const QStringList expected = tensorsMeeting(ratios, rule("weight-change-too-small"));
        QVERIFY2(expected.contains(QStringLiteral("fc1.weight")), qPrintable(expected.join(u' ')));
        const QList<Finding> found = findingsOfRule(report, "weight-change-too-small");
        QCOMPARE(tensorsOf(found), expected);
        for (const Finding& f : found) {
            QVERIFY(f.severity == models::advisor::Severity::Info);
            const double value = oracleValue(ratios.value(f.scope.tensor));
            QVERIFY2(near(f.value, value, 1e-6), qPrintable(f.scope.tensor + u' ' + numbers(f.value, value)));
            QCOMPARE(f.scope.layer, moduleOf(f.scope.tensor));
            QVERIFY2(f.message.startsWith(f.scope.tensor + QStringLiteral(" changes by only ")), qPrintable(f.message));
        }
        // They do move: numpy.allclose tells every pair of dumps apart, so no layer looks frozen.
        const QJsonObject unchanged = oracle.value(QStringLiteral("unchanged")).toObject();
        QStringList frozen;
        for (auto it = unchanged.begin(); it != unchanged.end(); ++it) {
            if (it.value().toInt() > 0)
                frozen << it.key();
        }
        frozen.sort();
        QCOMPARE(tensorsOf(findingsOf(report, QStringLiteral("weight-not-changed"))), frozen);
    }

    /// fc1's biases initialised to -2 for inputs of unit scale: almost no unit of relu1 ever fires.
    void checkDeadRelu(const QString& folder, const QJsonObject& oracle)
    {
        const AdvisorReport report = evaluate(test::loadRun(folder), m_rules);
        qInfo().noquote() << describe(report.findings);
        const QJsonObject dead = oracle.value(QStringLiteral("dead_share")).toObject();
        const QStringList expected = tensorsMeeting(dead, rule("activation-dead-relu"));
        QCOMPARE(expected, QStringList { QStringLiteral("relu1.act") });
        QVERIFY(dead.contains(QStringLiteral("relu2.act"))); // measured, and alive
        const QList<Finding> found = findingsOfRule(report, "activation-dead-relu");
        QCOMPARE(tensorsOf(found), expected);
        const Finding& f = found.front();
        QVERIFY(f.severity == models::advisor::Severity::Warning);
        const QJsonObject worst = dead.value(f.scope.tensor).toObject();
        const double value = worst.value(QStringLiteral("value")).toDouble();
        QVERIFY2(near(f.value, value, 1e-12), qPrintable(numbers(f.value, value)));
        // Almost every unit: the tensor is not all zero unless numpy says so.
        QCOMPARE(tensorsOf(findingsOf(report, QStringLiteral("tensor-all-zero"))).contains(f.scope.tensor),
                 value >= 100.0);
        QCOMPARE(f.scope.step, std::optional<qint64>(worst.value(QStringLiteral("step")).toInteger()));
        QCOMPARE(f.scope.layer, QStringLiteral("relu1"));
        // The share as measured: one output in a thousand alive is not "100 %".
        QVERIFY2(
            f.message.startsWith(formatValue(value, Unit::Percent) + QStringLiteral(" of the outputs of relu1.act")),
            qPrintable(f.message));
        QVERIFY2(value >= 100.0 || !f.message.startsWith(QLatin1String("100 %")), qPrintable(f.message));
        QVERIFY2(f.message.endsWith(QStringLiteral(": almost every unit of relu1 is dead.")), qPrintable(f.message));
    }

    /// Raw 16-bit sensor readings into a tanh layer: its outputs sit at +-1, where tanh has no gradient.
    void checkSaturated(const QString& folder, const QJsonObject& oracle)
    {
        const AdvisorReport report = evaluate(test::loadRun(folder), m_rules);
        qInfo().noquote() << describe(report.findings);
        const QJsonObject saturation = oracle.value(QStringLiteral("saturation_share")).toObject();
        const QStringList expected = tensorsMeeting(saturation, rule("activation-saturation"));
        QCOMPARE(expected, QStringList { QStringLiteral("tanh1.act") });
        const QList<Finding> found = findingsOfRule(report, "activation-saturation");
        QCOMPARE(tensorsOf(found), expected);
        const Finding& f = found.front();
        QVERIFY(f.severity == models::advisor::Severity::Warning);
        const QJsonObject worst = saturation.value(f.scope.tensor).toObject();
        const double value = worst.value(QStringLiteral("value")).toDouble();
        QVERIFY2(near(f.value, value, 1e-12), qPrintable(numbers(f.value, value)));
        QCOMPARE(f.scope.step, std::optional<qint64>(worst.value(QStringLiteral("step")).toInteger()));
        QCOMPARE(f.scope.layer, QStringLiteral("tanh1"));
        QVERIFY2(
            f.message.startsWith(formatValue(value, Unit::Percent) + QStringLiteral(" of the outputs of tanh1.act")),
            qPrintable(f.message));
        QVERIFY2(value >= 100.0 || !f.message.startsWith(QLatin1String("100 %")), qPrintable(f.message));
        QVERIFY2(f.message.contains(QStringLiteral("where the gradient through tanh1 is almost zero")),
                 qPrintable(f.message));
    }

    /// Gradients held in float16 without loss scaling: a share of each falls below the smallest fp16 normal.
    void checkFp16(const QString& folder, const QJsonObject& oracle)
    {
        const AdvisorReport report = evaluate(test::loadRun(folder), m_rules);
        qInfo().noquote() << describe(report.findings);
        const QJsonObject shares = oracle.value(QStringLiteral("fp16_share")).toObject();
        const QStringList expected = tensorsMeeting(shares, rule("fp16-risk"));
        QVERIFY2(expected.contains(QStringLiteral("fc1.weight_grad")), qPrintable(expected.join(u' ')));
        QVERIFY(expected.size() < shares.size()); // not every gradient: the condition is measured, not assumed
        const QList<Finding> found = findingsOfRule(report, "fp16-risk");
        QCOMPARE(tensorsOf(found), expected);
        for (const Finding& f : found) {
            QVERIFY(f.severity == models::advisor::Severity::Warning);
            const QJsonObject worst = shares.value(f.scope.tensor).toObject();
            const double value = worst.value(QStringLiteral("value")).toDouble();
            QVERIFY2(near(f.value, value, 1e-12), qPrintable(f.scope.tensor + u' ' + numbers(f.value, value)));
            const qint64 step = worst.value(QStringLiteral("step")).toInteger();
            QCOMPARE(f.scope.step, std::optional<qint64>(step));
            QCOMPARE(f.scope.layer, moduleOf(f.scope.tensor));
            QVERIFY2(f.message.contains(QStringLiteral("of the non-zero values of %1 at step %2 lie below the "
                                                       "float16 normal range")
                                            .arg(f.scope.tensor)
                                            .arg(step)),
                     qPrintable(f.message));
        }
    }

    /// Mixed precision as it is dumped: float16 weights under their plain names, each gradient in float32 with a
    /// float16 copy beside it, and inputs so small that many of fc1's gradients underflow to zero in the copy.
    void checkHalfPrecision(const QString& folder, const QJsonObject& oracle)
    {
        const AdvisorInput input = test::loadRun(folder);
        const AdvisorReport report = evaluate(input, m_rules);
        qInfo().noquote() << describe(report.findings);

        // fc1.weight is stored as float16 and is still a weight: its initial range is checked.
        bool half = false;
        for (const models::tensor::TensorSeries& series : input.tensors->series())
            half = half
                || (series.name == QLatin1String("fc1.weight") && !series.versions.isEmpty()
                    && series.versions.first().dtype == models::tensor::DType::Float16);
        QVERIFY(half);
        const QStringList wide = tensorsMeeting(oracle.value(QStringLiteral("init_abs_max")).toObject(),
                                                rule("weight-initialization-range"));
        QCOMPARE(wide, QStringList { QStringLiteral("fc1.weight") });
        QCOMPARE(tensorsOf(findingsOfRule(report, "weight-initialization-range")), wide);

        // Each parameter's gradient counts once in the global norm, whatever copies of it are dumped.
        AnalysisContext context(m_rules);
        analyseWeights(input, context);
        const QJsonObject norms = oracle.value(QStringLiteral("global_norm")).toObject();
        const auto measured = test::measurementsOf(context, QStringLiteral("gradient.global_norm"));
        QCOMPARE(int(measured.size()), norms.size());
        for (const Measurement& m : measured) {
            const QJsonObject expected = norms.value(QString::number(*m.scope.step)).toObject();
            const double value = expected.value(QStringLiteral("value")).toDouble();
            QVERIFY2(near(m.value, value, 1e-6), qPrintable(numbers(m.value, value)));
            QCOMPARE(m.facts.value(QStringLiteral("tensors")).toInt(),
                     expected.value(QStringLiteral("tensors")).toInt());
        }

        // The values that underflowed to zero in a copy count as below the float16 range.
        const QJsonObject shares = oracle.value(QStringLiteral("fp16_share")).toObject();
        const QStringList expected = tensorsMeeting(shares, rule("fp16-risk"));
        QVERIFY2(expected.contains(QStringLiteral("fc1.weight_grad_fp16")), qPrintable(expected.join(u' ')));
        const QList<Finding> found = findingsOfRule(report, "fp16-risk");
        QCOMPARE(tensorsOf(found), expected);
        for (const Finding& f : found) {
            const QJsonObject worst = shares.value(f.scope.tensor).toObject();
            const double value = worst.value(QStringLiteral("value")).toDouble();
            QVERIFY2(near(f.value, value, 1e-12), qPrintable(f.scope.tensor + u' ' + numbers(f.value, value)));
            QCOMPARE(f.scope.step, std::optional<qint64>(worst.value(QStringLiteral("step")).toInteger()));
            const double underflow = worst.value(QStringLiteral("underflow")).toDouble();
            const QString note
                = QStringLiteral(" (%1 of its values that are non-zero in %2 are exactly zero here: they "
                                 "underflowed).")
                      .arg(formatValue(underflow, Unit::Percent), worst.value(QStringLiteral("master")).toString());
            QVERIFY2(f.message.endsWith(underflow > 0 ? note : QStringLiteral("(65504).")), qPrintable(f.message));
        }
        const QJsonObject fc1 = shares.value(QStringLiteral("fc1.weight_grad_fp16")).toObject();
        QVERIFY(fc1.value(QStringLiteral("underflow")).toDouble() > 10.0);
    }

private slots:
    void initTestCase()
    {
        QStringList problems;
        m_rules = RuleBook::builtIn(&problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void generatedRuns_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name : { "exploding", "sigmoid_vanishing", "bad_init", "zero_head", "tiny_lr", "dead_relu",
                                  "tanh_saturation", "fp16_gradients", "half_precision" })
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void generatedRuns()
    {
        // As a user would: train with Debian's python3-torch, then ask the Advisor; numpy reads the dump back.
        QFETCH(QString, name);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const test::PythonRun generated = test::runPythonScript(QStringLiteral("advisor/make_rule_runs.py"),
                                                                { dir.path(), QStringLiteral("--runs"), name });
        RUNLENS_VERIFY_PYTHON(generated);
        const QString folder = dir.path() + QLatin1Char('/') + name;
        const test::PythonRun measured = test::runAccuracyOracle(QStringLiteral("dump_oracle.py"), { folder });
        RUNLENS_VERIFY_PYTHON(measured);
        QJsonParseError error;
        const QJsonObject oracle = QJsonDocument::fromJson(measured.output.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        qInfo().noquote() << generated.output.trimmed();

        if (name == QLatin1String("exploding"))
            checkExploding(folder, oracle);
        else if (name == QLatin1String("sigmoid_vanishing"))
            checkVanishing(folder, oracle);
        else if (name == QLatin1String("bad_init"))
            checkBadInit(folder, oracle);
        else if (name == QLatin1String("zero_head"))
            checkZeroHead(folder, oracle);
        else if (name == QLatin1String("tiny_lr"))
            checkTinyLr(folder, oracle);
        else if (name == QLatin1String("dead_relu"))
            checkDeadRelu(folder, oracle);
        else if (name == QLatin1String("tanh_saturation"))
            checkSaturated(folder, oracle);
        else if (name == QLatin1String("fp16_gradients"))
            checkFp16(folder, oracle);
        else if (name == QLatin1String("half_precision"))
            checkHalfPrecision(folder, oracle);
        else
            QFAIL(qPrintable(name));
    }
};

QTEST_GUILESS_MAIN(TestRuleFiring)
#include "tst_rulefiring.moc"
