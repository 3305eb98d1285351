#include "accuracytestutils.h"
#include "advisor/advisor.h"
#include "advisor/evidence.h"
#include "advisor/tensorroles.h"
#include "summary/eventfilereader.h"
#include "testutils.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace runlens;
using namespace runlens::advisor;

namespace {

/// The scalars of every TensorBoard event file below `root` (run = the folder above `tb/`, relative to
/// `root`), plus the tensor catalog of the folder: what the Advisor reads of a PyTorch run.
AdvisorInput loadRun(const QString& root)
{
    AdvisorInput input;
    input.root = root;
    input.tensors = test::catalogOf(root);
    QDirIterator it(root, { QStringLiteral("*tfevents*") }, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        summary::EventFileReader reader(path, summary::SummaryFlavor::TensorBoard);
        std::map<QString, ScalarTrack> tracks;
        for (int polls = 0; polls < 100; ++polls) {
            const ImportUpdate update = reader.poll({});
            for (const TagPoints& points : update.scalars) {
                ScalarTrack& track = tracks[points.tag];
                track.tag = points.tag;
                for (const ScalarPoint& p : points.points) {
                    track.steps.push_back(p.step);
                    track.values.push_back(p.value);
                    track.wallTimes.push_back(p.wallTime);
                }
            }
            if (reader.isDead() || update.recordsRead == 0)
                break;
        }
        QString run = QDir(root).relativeFilePath(QFileInfo(path).absolutePath());
        run = run.endsWith(QLatin1String("tb")) ? run.chopped(2) : run;
        while (run.endsWith(QLatin1Char('/')))
            run.chop(1);
        for (auto& [tag, track] : tracks) {
            track.run = run.isEmpty() ? QStringLiteral(".") : run;
            input.scalars.push_back(std::move(track));
        }
    }
    return input;
}

QList<Finding> findingsOf(const AdvisorReport& report, const QString& ruleId)
{
    QList<Finding> out;
    for (const Finding& f : report.findings) {
        if (f.ruleId == ruleId)
            out << f;
    }
    return out;
}

const RuleStatus* statusOf(const AdvisorReport& report, const QString& ruleId)
{
    for (const RuleStatus& status : report.statuses) {
        if (status.ruleId == ruleId)
            return &status;
    }
    return nullptr;
}

QJsonObject readFacts(const QString& runFolder)
{
    QFile file(runFolder + QStringLiteral("/run_facts.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString describe(const QList<Finding>& findings)
{
    QStringList lines;
    for (const Finding& f : findings)
        lines << f.ruleId + QStringLiteral(": ") + f.message;
    return lines.join(QLatin1Char('\n'));
}

QString fixtures()
{
    return QStringLiteral(RUNLENS_TEST_DATA_DIR "/advisor/accuracy/runs");
}

QList<Finding> accuracyFindings(const AdvisorReport& report, std::optional<advisor::Severity> severity = std::nullopt)
{
    QList<Finding> out;
    for (const Finding& f : report.findings) {
        if (f.category == Category::Accuracy && (!severity || f.severity == *severity))
            out << f;
    }
    return out;
}

/// A loss track of `values` at steps 0, 1, 2, ...
ScalarTrack lossTrack(const QString& run, const std::vector<double>& values)
{
    ScalarTrack track;
    track.run = run;
    track.tag = QStringLiteral("train/loss");
    track.values = values;
    for (std::size_t i = 0; i < values.size(); ++i)
        track.steps.push_back(qint64(i));
    return track;
}

/// Deterministic batch noise in [-1, 1] (a linear congruential generator, the same on every platform).
std::vector<double> noise(int count, std::uint32_t seed)
{
    std::vector<double> out;
    for (int i = 0; i < count; ++i) {
        seed = seed * 1664525u + 1013904223u;
        out.push_back(double(seed >> 8) / double(1u << 23) - 1.0);
    }
    return out;
}

const QStringList kAccuracyRules {
    QStringLiteral("loss-nan"),
    QStringLiteral("loss-not-decreasing"),
    QStringLiteral("loss-spike"),
    QStringLiteral("tensor-overflow"),
    QStringLiteral("gradient-exploding"),
    QStringLiteral("gradient-norm-too-large"),
    QStringLiteral("gradient-vanishing"),
    QStringLiteral("gradient-vanishing-depth"),
    QStringLiteral("weight-initialization"),
    QStringLiteral("weight-initialization-range"),
    QStringLiteral("weight-not-changed"),
    QStringLiteral("weight-change-too-large"),
    QStringLiteral("weight-change-too-small"),
    QStringLiteral("tensor-all-zero"),
    QStringLiteral("activation-dead-relu"),
    QStringLiteral("activation-saturation"),
    QStringLiteral("fp16-risk"),
};

} // namespace

class TestAccuracyRules : public QObject
{
    Q_OBJECT

private:
    RuleBook m_rules;

    /// Checks the findings of a run generated by make_broken_runs.py against what its run_facts.json says.
    void checkBrokenRun(const QString& folder, const QString& name)
    {
        const QJsonObject facts = readFacts(folder);
        QVERIFY2(!facts.isEmpty(), qPrintable(folder));
        const AdvisorReport report = evaluate(loadRun(folder), m_rules);
        const QString all = describe(report.findings);

        if (name == QLatin1String("lr_nan")) {
            // The loss goes non-finite at the first step where a tensor does.
            const qint64 firstBad = facts.value(QStringLiteral("first_nonfinite_step")).toInteger(-1);
            QVERIFY(firstBad > 0);
            const QList<Finding> loss = findingsOf(report, QStringLiteral("loss-nan"));
            QCOMPARE(loss.size(), 1);
            QVERIFY(loss.front().severity == advisor::Severity::Error);
            QCOMPARE(loss.front().scope.step, std::optional<qint64>(firstBad));
            QVERIFY2(loss.front().message.contains(QStringLiteral("step %1").arg(firstBad)), qPrintable(all));
            const QJsonArray losses = facts.value(QStringLiteral("losses")).toArray();
            QVERIFY(losses.at(int(firstBad)).isString()); // "inf" or "nan"
            QVERIFY(losses.at(int(firstBad) - 1).isDouble());

            const QList<Finding> overflow = findingsOf(report, QStringLiteral("tensor-overflow"));
            QCOMPARE(overflow.size(), 1);
            QCOMPARE(overflow.front().scope.step, std::optional<qint64>(firstBad));
            const QString origin = facts.value(QStringLiteral("origin_layer")).toString();
            QCOMPARE(overflow.front().scope.layer, origin);
            QVERIFY2(overflow.front().message.contains(QStringLiteral("layer %1").arg(origin)), qPrintable(all));
            const auto evidence = parseEvidence(overflow.front().evidence.value(0));
            QVERIFY(evidence);
            QCOMPARE(evidence->kind, QStringLiteral("tensor"));
            QCOMPARE(evidence->value(QStringLiteral("step")), QString::number(firstBad));
            // Before it overflowed, the weights moved far too fast.
            QVERIFY2(!findingsOf(report, QStringLiteral("weight-change-too-large")).isEmpty(), qPrintable(all));
        } else if (name == QLatin1String("frozen_layer")) {
            QStringList frozen;
            for (const QJsonValue& v : facts.value(QStringLiteral("frozen")).toArray())
                frozen << v.toString();
            QCOMPARE(frozen, QStringList({ QStringLiteral("fc2.weight"), QStringLiteral("fc2.bias") }));
            QStringList reported;
            for (const Finding& f : findingsOf(report, QStringLiteral("weight-not-changed"))) {
                reported << f.scope.tensor;
                QCOMPARE(f.scope.layer, QStringLiteral("fc2"));
                QVERIFY2(f.message.contains(QLatin1String("layer fc2 looks frozen")), qPrintable(f.message));
            }
            reported.sort();
            frozen.sort();
            QCOMPARE(reported, frozen);
            QVERIFY2(findingsOf(report, QStringLiteral("tensor-overflow")).isEmpty(), qPrintable(all));
            QVERIFY2(findingsOf(report, QStringLiteral("loss-nan")).isEmpty(), qPrintable(all));
        } else if (name == QLatin1String("sigmoid_deep")) {
            const QList<Finding> depth = findingsOf(report, QStringLiteral("gradient-vanishing-depth"));
            QCOMPARE(depth.size(), 1);
            QCOMPARE(depth.front().scope.layer, QStringLiteral("fc1"));
            // The pattern over the steps: the median of the ratios numpy measured (the lower one of an even
            // count, so that it is one step's ratio), beside the smallest.
            std::vector<double> ratios;
            const QJsonObject perStep = facts.value(QStringLiteral("depth_ratio")).toObject();
            for (auto it = perStep.begin(); it != perStep.end(); ++it)
                ratios.push_back(it.value().toDouble());
            QVERIFY(!ratios.empty());
            std::sort(ratios.begin(), ratios.end());
            const double median = ratios[(ratios.size() - 1) / 2];
            QVERIFY(std::abs(depth.front().value - median) <= 1e-6 * median);
            QVERIFY(depth.front().value < depth.front().threshold);
            QStringList medianSteps;
            for (auto it = perStep.begin(); it != perStep.end(); ++it) {
                if (it.value().toDouble() == median)
                    medianSteps << it.key();
            }
            QVERIFY(depth.front().scope.step);
            QVERIFY(medianSteps.contains(QString::number(*depth.front().scope.step)));
            QVERIFY2(depth.front().message.contains(QLatin1String("first layer fc1")),
                     qPrintable(depth.front().message));
        }
    }

private slots:
    void initTestCase()
    {
        QStringList problems;
        m_rules = RuleBook::builtIn(&problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        for (const QString& id : kAccuracyRules) {
            const Rule* rule = m_rules.rule(id);
            QVERIFY2(rule, qPrintable(id));
            QVERIFY(rule->category == Category::Accuracy);
        }
    }

    void documentedDefaults()
    {
        // The defaults the issue and MindInsight's watchpoints name.
        QCOMPARE(m_rules.rule(QStringLiteral("weight-change-too-large"))->threshold, 0.1);
        QCOMPARE(m_rules.rule(QStringLiteral("weight-change-too-small"))->threshold, 1e-4);
        QCOMPARE(m_rules.rule(QStringLiteral("gradient-vanishing"))->threshold, 1e-9);
        QCOMPARE(m_rules.rule(QStringLiteral("activation-dead-relu"))->threshold, 99.9);
        QCOMPARE(m_rules.rule(QStringLiteral("weight-initialization"))->threshold, 100.0);
        QCOMPARE(m_rules.rule(QStringLiteral("weight-not-changed"))->parameter(QStringLiteral("rtol"), 0), 1e-5);
        QCOMPARE(m_rules.rule(QStringLiteral("weight-not-changed"))->parameter(QStringLiteral("atol"), 0), 1e-8);
        QVERIFY(m_rules.rule(QStringLiteral("loss-nan"))->report == ReportMode::First);
        QVERIFY(m_rules.rule(QStringLiteral("tensor-overflow"))->report == ReportMode::First);
    }

    void emptyInputEvaluatesNoAccuracyRule()
    {
        const AdvisorReport report = evaluate(AdvisorInput {}, m_rules);
        for (const QString& id : kAccuracyRules) {
            const RuleStatus* status = statusOf(report, id);
            QVERIFY2(status && !status->evaluated, qPrintable(id));
            QVERIFY2(!status->reason.isEmpty(), qPrintable(id));
        }
    }

    void baselineRaisesNoAccuracyFinding()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString root = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
        const AdvisorInput input = loadRun(root);
        QVERIFY(!input.scalars.empty());
        QVERIFY(input.tensors && !input.tensors->isEmpty());
        const AdvisorReport report = evaluate(input, m_rules);
        QList<Finding> accuracy;
        for (const Finding& f : report.findings) {
            if (f.category == Category::Accuracy)
                accuracy << f;
        }
        QVERIFY2(accuracy.isEmpty(), qPrintable(describe(accuracy)));
        // ... and not because nothing was looked at.
        for (const char* id : { "loss-nan", "loss-not-decreasing", "loss-spike", "tensor-overflow",
                                "weight-not-changed", "weight-change-too-large", "weight-change-too-small",
                                "gradient-vanishing", "gradient-vanishing-depth", "gradient-norm-too-large",
                                "tensor-all-zero", "activation-dead-relu", "fp16-risk", "weight-initialization" }) {
            const RuleStatus* status = statusOf(report, QString::fromLatin1(id));
            QVERIFY2(status && status->evaluated, id);
        }
        // The baseline's dumps have no sigmoid or tanh.
        QVERIFY(!statusOf(report, QStringLiteral("activation-saturation"))->evaluated);
    }

    void committedBrokenRuns_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("lr_nan") << QStringLiteral("lr_nan");
        QTest::newRow("frozen_layer") << QStringLiteral("frozen_layer");
    }

    void committedBrokenRuns()
    {
        QFETCH(QString, name);
        checkBrokenRun(fixtures() + QLatin1Char('/') + name, name);
    }

    void thresholdOverrideTakesEffect()
    {
        // With the threshold lowered to 1e-6 every weight of the frozen run that moves at all is "too large".
        const QString folder = fixtures() + QStringLiteral("/frozen_layer");
        const AdvisorInput input = loadRun(folder);
        // Only fc3's small bias moves by more than the recommended 10 % a step.
        const QList<Finding> recommended
            = findingsOf(evaluate(input, m_rules), QStringLiteral("weight-change-too-large"));
        QCOMPARE(recommended.size(), 1);
        QCOMPARE(recommended.front().scope.tensor, QStringLiteral("fc3.bias"));
        RuleBook strict = m_rules;
        QStringList problems;
        QVERIFY(strict.load(QStringLiteral(RUNLENS_TEST_DATA_DIR "/advisor/accuracy/strict_update.json"), &problems));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(strict.rule(QStringLiteral("weight-change-too-large"))->threshold, 1e-6);
        const QList<Finding> found = findingsOf(evaluate(input, strict), QStringLiteral("weight-change-too-large"));
        QCOMPARE(found.size(), 4); // fc1 and fc3 weights and biases; fc2 is frozen
        for (const Finding& f : found) {
            QVERIFY(f.scope.layer != QLatin1String("fc2"));
            QCOMPARE(f.threshold, 1e-6);
            QVERIFY(f.value > 1e-6);
        }
        // Out of range: rejected with a message naming the file and the rule.
        RuleBook invalid = m_rules;
        problems.clear();
        invalid.load(QStringLiteral(RUNLENS_TEST_DATA_DIR "/advisor/accuracy/invalid_threshold.json"), &problems);
        QCOMPARE(problems.size(), 1);
        QVERIFY(problems.front().contains(QLatin1String("invalid_threshold.json")));
        QVERIFY(problems.front().contains(QLatin1String("activation-dead-relu")));
        QCOMPARE(invalid.rule(QStringLiteral("activation-dead-relu"))->threshold, 99.9);
    }

    void healthyRuns_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("mlp") << QStringLiteral("mlp");
        QTest::newRow("cnn") << QStringLiteral("cnn");
        QTest::newRow("transformer") << QStringLiteral("transformer");
    }

    void healthyRuns()
    {
        // Trained to convergence with Debian's python3-torch: a warning or error in the accuracy category on them
        // would be an alarm without a problem.
        QFETCH(QString, name);
        QTemporaryDir dir;
        const test::PythonRun generated = test::runPythonScript(QStringLiteral("advisor/make_healthy_runs.py"),
                                                                { dir.path(), QStringLiteral("--runs"), name });
        RUNLENS_VERIFY_PYTHON(generated);
        const QString folder = dir.path() + QLatin1Char('/') + name;
        const QJsonObject facts = readFacts(folder);
        QVERIFY2(!facts.isEmpty(), qPrintable(generated.output));
        const AdvisorInput input = loadRun(folder);
        QVERIFY(!input.scalars.empty());
        QVERIFY(input.tensors && !input.tensors->isEmpty());
        const AdvisorReport report = evaluate(input, m_rules);

        const QList<Finding> alarms
            = accuracyFindings(report, advisor::Severity::Warning) + accuracyFindings(report, advisor::Severity::Error);
        QVERIFY2(alarms.isEmpty(), qPrintable(describe(alarms)));
        // ... and not because nothing was looked at.
        for (const char* id :
             { "loss-nan", "loss-not-decreasing", "loss-spike", "tensor-overflow", "gradient-exploding",
               "gradient-norm-too-large", "gradient-vanishing", "gradient-vanishing-depth", "no-gradient",
               "weight-initialization", "weight-initialization-range", "weight-not-changed", "weight-change-too-large",
               "weight-change-too-small", "tensor-all-zero" }) {
            const RuleStatus* status = statusOf(report, QString::fromLatin1(id));
            QVERIFY2(status && status->evaluated, id);
        }
        // The loss fell: these are trained models, not runs that never learned.
        const QJsonArray losses = facts.value(QStringLiteral("losses")).toArray();
        QVERIFY(losses.size() >= 200);
        double first = 0;
        double last = 0;
        for (int i = 0; i < 10; ++i) {
            first += losses.at(i).toDouble() / 10;
            last += losses.at(losses.size() - 1 - i).toDouble() / 10;
        }
        QVERIFY2(last < 0.5 * first, qPrintable(QStringLiteral("%1 -> %2").arg(first).arg(last)));

        // Every info finding is listed, and the ones the model has by construction are there.
        const QList<Finding> infos = accuracyFindings(report, advisor::Severity::Info);
        qInfo().noquote() << name << "info findings:" << (infos.isEmpty() ? QStringLiteral("none") : describe(infos));
        QStringList noGradient;
        for (const Finding& f : findingsOf(report, QStringLiteral("no-gradient"))) {
            noGradient << gradientTarget(f.scope.tensor);
            QVERIFY2(f.message.contains(QLatin1String("receives no gradient; it may be redundant or disconnected")),
                     qPrintable(f.message));
        }
        noGradient.sort();
        QStringList expected;
        for (const QJsonValue& v : facts.value(QStringLiteral("zero_gradient")).toArray())
            expected << v.toString();
        expected.sort();
        QCOMPARE(noGradient, expected);
        if (name == QLatin1String("mlp")) {
            QCOMPARE(expected, QStringList({ QStringLiteral("skip.bias"), QStringLiteral("skip.weight") }));
            // The MLP's loss settles at its label-noise floor: the last 100 steps are flat, yet nothing says that
            // the loss is not decreasing.
            double previous = 0;
            double recent = 0;
            for (int i = 0; i < 100; ++i) {
                previous += losses.at(losses.size() - 200 + i).toDouble() / 100;
                recent += losses.at(losses.size() - 100 + i).toDouble() / 100;
            }
            QVERIFY2(std::abs(previous - recent) < 0.1 * previous,
                     qPrintable(QStringLiteral("%1 -> %2").arg(previous).arg(recent)));
            QVERIFY(findingsOf(report, QStringLiteral("loss-not-decreasing")).isEmpty());
        }
    }

    void noGradientFinding()
    {
        // skip is computed in the forward pass but multiplied by a zero gate: its gradient is zero at every step
        // and its weights never move. That is one finding, an accurate one, not vanishing gradients, an
        // all-zero tensor and a frozen layer.
        QTemporaryDir dir;
        const QString root = dir.path();
        for (int step = 0; step < 3; ++step) {
            const QString at = QStringLiteral("dump/step_%1/").arg(step);
            const float moved = 0.01f * float(step);
            test::writeFloats(root, at + QStringLiteral("fc1.weight.npy"), { 0.5f + moved, -0.3f - moved, 0.2f });
            test::writeFloats(root, at + QStringLiteral("fc1.weight_grad.npy"), { -0.1f, 0.1f, 0.05f });
            test::writeFloats(root, at + QStringLiteral("fc2.weight.npy"), { 0.4f - moved, 0.1f, -0.2f + moved });
            test::writeFloats(root, at + QStringLiteral("fc2.weight_grad.npy"), { 0.1f, -0.02f, -0.1f });
            test::writeFloats(root, at + QStringLiteral("skip.weight.npy"), { 0.25f, -0.5f, 0.75f });
            test::writeFloats(root, at + QStringLiteral("skip.weight_grad.npy"), { 0.f, 0.f, 0.f });
            if (QTest::currentTestFailed())
                return;
        }
        AdvisorInput input;
        input.root = root;
        input.tensors = test::catalogOf(root);
        const AdvisorReport report = evaluate(input, m_rules);

        const QList<Finding> found = findingsOf(report, QStringLiteral("no-gradient"));
        QCOMPARE(found.size(), 1);
        const Finding& f = found.front();
        QVERIFY(f.severity == advisor::Severity::Info);
        QVERIFY(f.category == Category::Accuracy);
        QCOMPARE(f.scope.layer, QStringLiteral("skip"));
        QCOMPARE(f.scope.tensor, QStringLiteral("skip.weight_grad"));
        QCOMPARE(f.value, 100.0);
        QCOMPARE(f.message,
                 QStringLiteral("skip.weight receives no gradient; it may be redundant or disconnected: its gradient "
                                "skip.weight_grad is zero everywhere at 3 of 3 recorded steps (0-2)."));
        const auto evidence = parseEvidence(f.evidence.value(0));
        QVERIFY(evidence);
        QCOMPARE(evidence->value(QStringLiteral("name")), QStringLiteral("skip.weight_grad"));
        // Nothing else about skip: its zero gradient neither vanishes nor is an all-zero tensor, and its weight
        // does not change because it receives no gradient.
        const QList<Finding> alarms
            = accuracyFindings(report, advisor::Severity::Warning) + accuracyFindings(report, advisor::Severity::Error);
        QVERIFY2(alarms.isEmpty(), qPrintable(describe(alarms)));
        QVERIFY(statusOf(report, QStringLiteral("gradient-vanishing"))->evaluated);
        QVERIFY(statusOf(report, QStringLiteral("weight-not-changed"))->evaluated);

        // A weight that does not change although it has a gradient is still a frozen layer.
        for (int step = 0; step < 3; ++step)
            test::writeFloats(root, QStringLiteral("dump/step_%1/skip.weight_grad.npy").arg(step), { 0.2f, 0.f, 0.f });
        input.tensors = test::catalogOf(root);
        const AdvisorReport frozen = evaluate(input, m_rules);
        QVERIFY(findingsOf(frozen, QStringLiteral("no-gradient")).isEmpty());
        const QList<Finding> unchanged = findingsOf(frozen, QStringLiteral("weight-not-changed"));
        QCOMPARE(unchanged.size(), 1);
        QCOMPARE(unchanged.front().scope.tensor, QStringLiteral("skip.weight"));
    }

    void plateauAfterFall()
    {
        // Three losses over 300 steps with the same batch noise: one falls and settles, one never falls, one falls
        // and then climbs again.
        const std::vector<double> wiggle = noise(300, 3);
        std::vector<double> converged;
        std::vector<double> stalled;
        std::vector<double> rising;
        for (int i = 0; i < 300; ++i) {
            const double fall = 2.0 * std::exp(-i / 15.0);
            converged.push_back(0.3 + fall + 0.05 * wiggle[std::size_t(i)]);
            stalled.push_back(2.3 + 0.05 * wiggle[std::size_t(i)]);
            rising.push_back(0.3 + fall + (i >= 250 ? 0.004 * (i - 250) : 0.0) + 0.05 * wiggle[std::size_t(i)]);
        }
        // The converged run's last window is not lower than the one before it: noise decides, as in real runs.
        double previous = 0;
        double last = 0;
        for (int i = 200; i < 250; ++i)
            previous += converged[std::size_t(i)] / 50;
        for (int i = 250; i < 300; ++i)
            last += converged[std::size_t(i)] / 50;
        QVERIFY2(last > previous, qPrintable(QString::number(previous - last)));

        AdvisorInput input;
        input.scalars = { lossTrack(QStringLiteral("converged"), converged),
                          lossTrack(QStringLiteral("stalled"), stalled), lossTrack(QStringLiteral("rising"), rising) };
        const AdvisorReport report = evaluate(input, m_rules);
        QVERIFY(statusOf(report, QStringLiteral("loss-not-decreasing"))->evaluated);
        QStringList runs;
        for (const Finding& f : findingsOf(report, QStringLiteral("loss-not-decreasing")))
            runs << f.scope.run;
        runs.sort();
        QCOMPARE(runs, QStringList({ QStringLiteral("rising"), QStringLiteral("stalled") }));
        QVERIFY2(findingsOf(report, QStringLiteral("loss-spike")).isEmpty(),
                 qPrintable(describe(findingsOf(report, QStringLiteral("loss-spike")))));
    }

    void convergedNoiseIsNoSpike()
    {
        // Near zero a converged loss's batch noise is several times its median; a jump back to where the loss
        // was is a spike.
        std::vector<double> values;
        const std::vector<double> wiggle = noise(200, 11);
        for (int i = 0; i < 200; ++i)
            values.push_back(0.7 * std::exp(-i / 10.0) + 0.003 * (1.0 + wiggle[std::size_t(i)]));
        values[150] = 0.015; // five times the recent median, 2 % of the starting loss
        AdvisorInput input;
        input.scalars = { lossTrack(QStringLiteral("converged"), values) };
        QVERIFY(findingsOf(evaluate(input, m_rules), QStringLiteral("loss-spike")).isEmpty());

        values[150] = 0.5;
        input.scalars = { lossTrack(QStringLiteral("converged"), values) };
        const QList<Finding> spikes = findingsOf(evaluate(input, m_rules), QStringLiteral("loss-spike"));
        QCOMPARE(spikes.size(), 1);
        QCOMPARE(spikes.front().scope.step, std::optional<qint64>(150));
        QVERIFY2(spikes.front().message.contains(QLatin1String("10 % of where the loss started")),
                 qPrintable(spikes.front().message));
    }

    void tensorsWithoutStepShowNone()
    {
        // Members of a checkpoint have no step: findings about them name none, where dumps name theirs.
        QTemporaryDir dir;
        const QString root = dir.path();
        const test::PythonRun written = test::runPython(
            { QStringLiteral("-c"),
              QStringLiteral("import sys, numpy as np\n"
                             "np.savez(sys.argv[1] + '/state_dict.npz', **{'fc1.weight': np.array([1.0, np.nan, "
                             "2.0], np.float32), 'fc2.weight_grad': np.zeros(4, np.float32)})\n"),
              root });
        RUNLENS_VERIFY_PYTHON(written);
        test::writeFloats(root, QStringLiteral("dump/step_3/fc3.act.npy"), { 0.f, 0.f, 0.f });
        AdvisorInput input;
        input.root = root;
        input.tensors = test::catalogOf(root);
        const AdvisorReport report = evaluate(input, m_rules);

        const QList<Finding> overflow = findingsOf(report, QStringLiteral("tensor-overflow"));
        QCOMPARE(overflow.size(), 1);
        QVERIFY(!overflow.front().scope.step);
        QCOMPARE(overflow.front().message,
                 QStringLiteral("state_dict.npz/fc1.weight has 1 NaN and 0 infinite values among 3: the first "
                                "overflow in execution order, so layer fc1 is the likely origin (1 tensors overflow "
                                "in all)."));
        QStringList zero;
        for (const Finding& f : findingsOf(report, QStringLiteral("tensor-all-zero")))
            zero << f.message;
        zero.sort();
        QCOMPARE(zero,
                 QStringList({ QStringLiteral("100 % of the values of fc3.act are zero at step 3."),
                               QStringLiteral("100 % of the values of state_dict.npz/fc2.weight_grad are zero.") }));
        // Nowhere a step of -1 or an unfilled placeholder: not in the messages, the text report or the JSON.
        const QString text = reportText(report);
        QVERIFY2(!text.contains(QLatin1String("step -1")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("{")), qPrintable(text));
        QVERIFY(text.contains(QLatin1String("step 3")));
        const QJsonArray findings = reportJson(report).value(QStringLiteral("findings")).toArray();
        QVERIFY(!findings.isEmpty());
        for (const QJsonValue& f : findings) {
            const QJsonValue step
                = f.toObject().value(QStringLiteral("scope")).toObject().value(QStringLiteral("step"));
            QVERIFY2(step.isNull() || step.toInteger() >= 0, qPrintable(QJsonDocument(f.toObject()).toJson()));
        }
    }

    void generatedBrokenRuns()
    {
        // As a new user would: train broken models with Debian's python3-torch, then ask the Advisor.
        QTemporaryDir dir;
        const test::PythonRun generated
            = test::runPythonScript(QStringLiteral("advisor/make_broken_runs.py"), { dir.path() });
        RUNLENS_VERIFY_PYTHON(generated);
        for (const QString& name :
             { QStringLiteral("lr_nan"), QStringLiteral("frozen_layer"), QStringLiteral("sigmoid_deep") }) {
            checkBrokenRun(dir.path() + QLatin1Char('/') + name, name);
            if (QTest::currentTestFailed())
                return;
        }
    }
};

QTEST_GUILESS_MAIN(TestAccuracyRules)
#include "tst_accuracyrules.moc"
