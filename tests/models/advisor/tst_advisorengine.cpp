#include "models/advisor/advisor.h"
#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTranslator>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace runlens::models::advisor;

namespace {

QString data(const QString& name)
{
    return QStringLiteral(RUNLENS_TEST_DATA_DIR "/advisor/") + name;
}

RuleBook basicBook()
{
    RuleBook book;
    QStringList problems;
    if (!book.load(data(QStringLiteral("rules_basic.json")), &problems) || !problems.isEmpty())
        qWarning() << problems;
    return book;
}

Measurement measure(const QString& metric, double value, const QString& run, const QString& layer, qint64 step,
                    double order)
{
    Measurement m;
    m.metric = metric;
    m.value = value;
    m.scope.run = run;
    m.scope.layer = layer;
    m.scope.step = step;
    m.order = order;
    m.facts.insert(QStringLiteral("tag"), QStringLiteral("train/loss"));
    m.evidence << scalarEvidence(run, QStringLiteral("train/loss"), step);
    return m;
}

QList<Finding> findingsOf(const AdvisorReport& report, const QString& ruleId)
{
    QList<Finding> out;
    for (const Finding& finding : report.findings) {
        if (finding.ruleId == ruleId)
            out << finding;
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

/// Prefixes every rule text with "ZH:" as a translation would replace it, keeping the placeholders.
class PrefixTranslator : public QTranslator
{
public:
    QString translate(const char* context, const char* sourceText, const char*, int) const override
    {
        if (QByteArray(context) == "runlens::advisor::Rules")
            return QStringLiteral("ZH:") + QString::fromUtf8(sourceText);
        return {};
    }
    bool isEmpty() const override { return false; }
};

QStringList keys(const QJsonObject& object)
{
    QStringList out = object.keys();
    out.sort();
    return out;
}

} // namespace

class TestAdvisorEngine : public QObject
{
    Q_OBJECT
private slots:
    void formatsByUnit_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("unit");
        QTest::addColumn<QString>("expected");
        // The forms the rule texts promise (the shared design): percent "37.5 %", ms "12.3 ms", bytes
        // "1.5 GiB", ratio with 3 significant digits, count as an integer.
        QTest::newRow("percent") << 37.5 << int(Unit::Percent) << "37.5 %";
        QTest::newRow("percent whole") << 100.0 << int(Unit::Percent) << "100 %";
        QTest::newRow("percent small") << 0.05 << int(Unit::Percent) << "0.05 %";
        QTest::newRow("percent almost whole") << 99.96337890625 << int(Unit::Percent) << "99.96 %";
        QTest::newRow("percent one in a hundred thousand short") << 99.999 << int(Unit::Percent) << "99.999 %";
        QTest::newRow("percent rounds below") << 99.94 << int(Unit::Percent) << "99.9 %";
        QTest::newRow("ms") << 12.3456 << int(Unit::Milliseconds) << "12.3 ms";
        QTest::newRow("bytes GiB") << 1.5 * 1024 * 1024 * 1024 << int(Unit::Bytes) << "1.5 GiB";
        QTest::newRow("bytes small") << 512.0 << int(Unit::Bytes) << "512 B";
        QTest::newRow("bytes MiB") << 3.0 * 1024 * 1024 << int(Unit::Bytes) << "3 MiB";
        QTest::newRow("ratio") << 0.123456 << int(Unit::Ratio) << "0.123";
        QTest::newRow("ratio large") << 3.14159 << int(Unit::Ratio) << "3.14";
        QTest::newRow("ratio tiny") << 1.23456e-9 << int(Unit::Ratio) << "1.23e-09";
        QTest::newRow("count") << 3.0 << int(Unit::Count) << "3";
        QTest::newRow("count rounds") << 2.6 << int(Unit::Count) << "3";
        QTest::newRow("count big") << 1234567.0 << int(Unit::Count) << "1234567";
        QTest::newRow("ns") << 850.0 << int(Unit::Nanoseconds) << "850 ns";
        QTest::newRow("ns as us") << 1234.0 << int(Unit::Nanoseconds) << "1.23 µs";
        QTest::newRow("ns as ms") << 3.4e6 << int(Unit::Nanoseconds) << "3.4 ms";
        QTest::newRow("ns as s") << 1.5e9 << int(Unit::Nanoseconds) << "1.5 s";
        QTest::newRow("value") << 2.345678 << int(Unit::Value) << "2.346";
        QTest::newRow("value integer") << 12345.0 << int(Unit::Value) << "12345";
        QTest::newRow("value tiny") << 1.2345e-5 << int(Unit::Value) << "1.234e-05";
        QTest::newRow("value negative") << -0.5 << int(Unit::Value) << "-0.5";
        QTest::newRow("nan") << std::nan("") << int(Unit::Count) << "NaN";
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << int(Unit::Value) << "inf";
    }

    void formatsByUnit()
    {
        QFETCH(double, value);
        QFETCH(int, unit);
        QFETCH(QString, expected);
        QCOMPARE(formatValue(value, Unit(unit)), expected);
    }

    void fillsTheMessage()
    {
        const RuleBook book = basicBook();
        AnalysisContext context(book);
        Measurement m
            = measure(QStringLiteral("test.size"), 37.5, QStringLiteral("baseline"), QStringLiteral("fc3"), 120, 120);
        m.facts.insert(QStringLiteral("previous"), 2.345678);
        context.add(m);
        const AdvisorReport report = applyRules(context, book);
        const QList<Finding> findings = findingsOf(report, QStringLiteral("test-too-large"));
        QCOMPARE(findings.size(), 1);
        const Finding& f = findings.first();
        QCOMPARE(f.message,
                 QStringLiteral("train/loss of run baseline is 37.5 % at step 120, above 10 %; "
                                "previous 2.346, unknown {nothing}."));
        QCOMPARE(f.advice, QStringLiteral("Make train/loss smaller."));
        QCOMPARE(f.title, QStringLiteral("Value too large"));
        QCOMPARE(f.scope.layer, QStringLiteral("fc3"));
        QCOMPARE(f.value, 37.5);
        QCOMPARE(f.threshold, 10.0);
        QCOMPARE(toString(f.unit), toString(Unit::Percent));
        QCOMPARE(toString(f.severity), toString(Severity::Warning));
        QCOMPARE(toString(f.category), toString(Category::Performance));
        QCOMPARE(f.evidence, m.evidence);
        // Facts win over the scope, integers stay whole.
        Measurement again = m;
        again.facts.insert(QStringLiteral("step"), qint64(123456789));
        again.facts.insert(QStringLiteral("run"), QStringLiteral("from facts"));
        AnalysisContext second(book);
        second.add(again);
        const Finding g = findingsOf(applyRules(second, book), QStringLiteral("test-too-large")).first();
        QVERIFY2(g.message.startsWith(QLatin1String("train/loss of run from facts is 37.5 % at step 123456789,")),
                 qPrintable(g.message));
    }

    void translatesRuleTextsBeforeFilling()
    {
        PrefixTranslator translator;
        QVERIFY(QCoreApplication::installTranslator(&translator));
        const RuleBook book = basicBook();
        AnalysisContext context(book);
        context.add(measure(QStringLiteral("test.size"), 50, QStringLiteral("r"), QStringLiteral("fc1"), 1, 1));
        const Finding f = findingsOf(applyRules(context, book), QStringLiteral("test-too-large")).first();
        QCoreApplication::removeTranslator(&translator);
        QCOMPARE(f.title, QStringLiteral("ZH:Value too large"));
        QVERIFY2(f.message.startsWith(QLatin1String("ZH:train/loss of run r is 50 %")), qPrintable(f.message));
        QCOMPARE(f.advice, QStringLiteral("ZH:Make train/loss smaller."));
    }

    void eachKeepsTheWorstUpToTheLimit()
    {
        const RuleBook book = basicBook(); // test-too-large: > 10, each, limit 3
        AnalysisContext context(book);
        const double values[] = { 11, 50, 5, 30, 12, 90 };
        for (int i = 0; i < 6; ++i)
            context.add(measure(QStringLiteral("test.size"), values[i], QStringLiteral("run"),
                                QStringLiteral("layer%1").arg(i), i, i));
        const AdvisorReport report = applyRules(context, book);
        const QList<Finding> findings = findingsOf(report, QStringLiteral("test-too-large"));
        QCOMPARE(findings.size(), 3);
        QCOMPARE(findings[0].value, 90.0);
        QCOMPARE(findings[1].value, 50.0);
        QCOMPARE(findings[2].value, 30.0);
        for (const Finding& f : findings)
            QCOMPARE(f.occurrences, 1);
        const RuleStatus* status = statusOf(report, QStringLiteral("test-too-large"));
        QVERIFY(status && status->evaluated);
        QCOMPARE(status->findings, 3);
        QCOMPARE(status->matches, 5);
    }

    void worstKeepsOnePerGroup()
    {
        const RuleBook book = basicBook(); // test-too-small: <= 1 ms, worst, scope run
        AnalysisContext context(book);
        context.add(measure(QStringLiteral("test.size"), 0.5, QStringLiteral("a"), QStringLiteral("x"), 1, 1));
        context.add(measure(QStringLiteral("test.size"), 0.1, QStringLiteral("a"), QStringLiteral("y"), 2, 2));
        context.add(measure(QStringLiteral("test.size"), 1.0, QStringLiteral("a"), QStringLiteral("z"), 3, 3));
        context.add(measure(QStringLiteral("test.size"), 0.9, QStringLiteral("b"), QStringLiteral("x"), 1, 1));
        context.add(measure(QStringLiteral("test.size"), 2.0, QStringLiteral("b"), QStringLiteral("y"), 1, 1));
        const QList<Finding> findings = findingsOf(applyRules(context, book), QStringLiteral("test-too-small"));
        QCOMPARE(findings.size(), 2);
        // The smallest value is the worst for "<=": 0.1 in run a (of 3 matches), 0.9 in run b (of 1).
        QCOMPARE(findings[0].scope.run, QStringLiteral("a"));
        QCOMPARE(findings[0].value, 0.1);
        QCOMPARE(findings[0].occurrences, 3);
        QCOMPARE(findings[0].message, QStringLiteral("y is 0.1 ms."));
        QCOMPARE(findings[1].scope.run, QStringLiteral("b"));
        QCOMPARE(findings[1].value, 0.9);
        QCOMPARE(findings[1].occurrences, 1);
    }

    void firstKeepsTheEarliest()
    {
        RuleBook book = basicBook(); // test-first: >= 1 count, first, scope step (grouped by run and rank)
        AnalysisContext context(book);
        auto bad = [&](const QString& run, std::optional<int> rank, const QString& tensor, double order, double value) {
            Measurement m;
            m.metric = QStringLiteral("test.bad");
            m.value = value;
            m.scope.run = run;
            m.scope.rank = rank;
            m.scope.tensor = tensor;
            m.scope.step = qint64(order);
            m.order = order;
            context.add(m);
        };
        bad(QStringLiteral("a"), std::nullopt, QStringLiteral("late"), 30, 100);
        bad(QStringLiteral("a"), std::nullopt, QStringLiteral("origin"), 10.5, 1);
        bad(QStringLiteral("a"), std::nullopt, QStringLiteral("healthy"), 1, 0); // does not match
        bad(QStringLiteral("a"), std::nullopt, QStringLiteral("same step, later node"), 10.7, 5);
        bad(QStringLiteral("a"), 1, QStringLiteral("rank one"), 20, 2);
        const AdvisorReport report = applyRules(context, book);
        const QList<Finding> findings = findingsOf(report, QStringLiteral("test-first"));
        QCOMPARE(findings.size(), 2);
        QCOMPARE(findings[0].scope.tensor, QStringLiteral("origin"));
        QCOMPARE(findings[0].occurrences, 3);
        QCOMPARE(findings[0].message, QStringLiteral("origin first bad at step 10."));
        QCOMPARE(findings[1].scope.tensor, QStringLiteral("rank one"));
        QVERIFY(findings[1].scope.rank == 1);
        QCOMPARE(statusOf(report, QStringLiteral("test-first"))->matches, 4);
    }

    void statusesSayWhyNot()
    {
        RuleBook book = basicBook();
        QVERIFY(book.setEnabled(QStringLiteral("test-too-small"), false));
        QStringList problems;
        QVERIFY(book.load(data(QStringLiteral("rules_statuses.json")), &problems));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        AnalysisContext context(book);
        context.markEvaluated(QStringLiteral("test.size")); // measured, healthy: no measurement
        context.markMissing(QStringLiteral("test.missing"), QStringLiteral("no trace is loaded"));
        context.markMissing(QStringLiteral("test.bad"), QStringLiteral("no tensor dump"));
        context.markEvaluated(QStringLiteral("test.bad")); // another source had it
        const AdvisorReport report = applyRules(context, book);
        QCOMPARE(report.statuses.size(), book.rules().size());
        QCOMPARE(report.rules.size(), book.rules().size());
        for (int i = 0; i < book.rules().size(); ++i)
            QCOMPARE(report.statuses[i].ruleId, book.rules()[i].id);

        const RuleStatus* large = statusOf(report, QStringLiteral("test-too-large"));
        QVERIFY(large->evaluated);
        QVERIFY(large->reason.isEmpty());
        QCOMPARE(large->findings, 0);
        const RuleStatus* small = statusOf(report, QStringLiteral("test-too-small"));
        QVERIFY(!small->evaluated);
        QCOMPARE(small->reason, QStringLiteral("disabled"));
        QVERIFY(statusOf(report, QStringLiteral("test-first"))->evaluated);
        const RuleStatus* unmeasured = statusOf(report, QStringLiteral("unmeasured"));
        QVERIFY(!unmeasured->evaluated);
        QCOMPARE(unmeasured->reason, QStringLiteral("no analyser measures test.nobody"));
        QCOMPARE(statusOf(report, QStringLiteral("missing"))->reason, QStringLiteral("no trace is loaded"));
        QVERIFY(report.findings.isEmpty());
        QVERIFY(!report.worst());
    }

    void disabledRulesFindNothing()
    {
        RuleBook book = basicBook();
        QVERIFY(book.setEnabled(QStringLiteral("test-too-large"), false));
        AnalysisContext context(book);
        context.add(measure(QStringLiteral("test.size"), 500, QStringLiteral("r"), QStringLiteral("l"), 1, 1));
        const AdvisorReport report = applyRules(context, book);
        QVERIFY(findingsOf(report, QStringLiteral("test-too-large")).isEmpty());
        QCOMPARE(statusOf(report, QStringLiteral("test-too-large"))->findings, 0);
    }

    void ordersBySeverityCategoryAndRule()
    {
        RuleBook book = basicBook();
        QStringList problems;
        // Later in the book than test-too-large, same severity: it must come after; an error comes first.
        QVERIFY(book.load(data(QStringLiteral("rules_order.json")), &problems));
        QVERIFY(problems.isEmpty());
        QVERIFY(book.setThreshold(QStringLiteral("test-too-small"), 1000)); // error, accuracy
        AnalysisContext context(book);
        context.add(measure(QStringLiteral("test.size"), 20, QStringLiteral("r"), QStringLiteral("l"), 1, 1));
        const AdvisorReport report = applyRules(context, book);
        QStringList order;
        for (const Finding& f : report.findings)
            order << f.ruleId;
        QCOMPARE(order,
                 (QStringList { QStringLiteral("test-too-small"), QStringLiteral("z-accuracy-warning"),
                                QStringLiteral("test-too-large"), QStringLiteral("z-memory-warning"),
                                QStringLiteral("z-info") }));
        QCOMPARE(report.count(Severity::Error), 1);
        QCOMPARE(report.count(Severity::Warning), 3);
        QCOMPARE(report.count(Severity::Info), 1);
        QVERIFY(report.worst() == Severity::Error);
    }

    void jsonFollowsTheContract()
    {
        RuleBook book = basicBook();
        AnalysisContext context(book);
        Measurement m = measure(QStringLiteral("test.size"), std::numeric_limits<double>::infinity(),
                                QStringLiteral("baseline"), QStringLiteral("fc3"), 7, 7);
        m.scope.rank = 2;
        context.add(m);
        AdvisorReport report = applyRules(context, book);
        report.root = QStringLiteral("/runs/x");
        const QJsonObject json = QJsonDocument::fromJson(QJsonDocument(reportJson(report)).toJson()).object();
        QCOMPARE(keys(json),
                 (QStringList { QStringLiteral("findings"), QStringLiteral("root"), QStringLiteral("rules"),
                                QStringLiteral("summary") }));
        const QJsonArray findings = json.value(QStringLiteral("findings")).toArray();
        QCOMPARE(findings.size(), report.findings.size());
        QCOMPARE(findings.size(), 1); // inf > 10; inf is not <= 1
        const QJsonObject f = findings.first().toObject();
        for (const char* key :
             { "rule", "severity", "category", "scope", "value", "threshold", "message", "advice", "evidence" })
            QVERIFY2(f.contains(QLatin1String(key)), key);
        QCOMPARE(f.value(QStringLiteral("rule")).toString(), QStringLiteral("test-too-large"));
        QCOMPARE(f.value(QStringLiteral("severity")).toString(), QStringLiteral("warning"));
        QCOMPARE(f.value(QStringLiteral("category")).toString(), QStringLiteral("performance"));
        QVERIFY(f.value(QStringLiteral("value")).isNull()); // JSON has no infinity
        QCOMPARE(f.value(QStringLiteral("threshold")).toDouble(), 10.0);
        QVERIFY(f.value(QStringLiteral("message")).toString().contains(QLatin1String("inf %")));
        QCOMPARE(f.value(QStringLiteral("evidence")).toArray().first().toString(), m.evidence.first());
        const QJsonObject scope = f.value(QStringLiteral("scope")).toObject();
        QCOMPARE(
            keys(scope),
            (QStringList { QStringLiteral("device"), QStringLiteral("layer"), QStringLiteral("link"),
                           QStringLiteral("node"), QStringLiteral("op"), QStringLiteral("rank"), QStringLiteral("run"),
                           QStringLiteral("run_display_name"), QStringLiteral("step"), QStringLiteral("tensor") }));
        QCOMPARE(scope.value(QStringLiteral("run")).toString(), QStringLiteral("baseline"));
        QCOMPARE(scope.value(QStringLiteral("run_display_name")).toString(), QStringLiteral("baseline"));
        QCOMPARE(scope.value(QStringLiteral("rank")).toInt(), 2);
        QCOMPARE(scope.value(QStringLiteral("step")).toInt(), 7);
        QCOMPARE(scope.value(QStringLiteral("layer")).toString(), QStringLiteral("fc3"));
        QVERIFY(scope.value(QStringLiteral("node")).isNull());
        QVERIFY(scope.value(QStringLiteral("op")).isNull());

        const QJsonArray rules = json.value(QStringLiteral("rules")).toArray();
        QCOMPARE(rules.size(), book.rules().size());
        for (int i = 0; i < rules.size(); ++i) {
            const QJsonObject r = rules[i].toObject();
            for (const char* key : { "id", "evaluated", "reason", "findings", "threshold", "recommended", "enabled" })
                QVERIFY2(r.contains(QLatin1String(key)), key);
            QCOMPARE(r.value(QStringLiteral("id")).toString(), book.rules()[i].id);
            QCOMPARE(r.value(QStringLiteral("threshold")).toDouble(), book.rules()[i].threshold);
            QCOMPARE(r.value(QStringLiteral("recommended")).toDouble(), book.rules()[i].recommended);
            QVERIFY(r.value(QStringLiteral("enabled")).isBool());
            QVERIFY(r.value(QStringLiteral("evaluated")).isBool());
        }
        QCOMPARE(rules[0].toObject().value(QStringLiteral("findings")).toInt(), 1);
        QCOMPARE(rules[2].toObject().value(QStringLiteral("evaluated")).toBool(), false);
        QCOMPARE(rules[2].toObject().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("no analyser measures test.bad"));
        const QJsonObject summary = json.value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("errors")).toInt(), 0);
        QCOMPARE(summary.value(QStringLiteral("warnings")).toInt(), 1);
        QCOMPARE(summary.value(QStringLiteral("infos")).toInt(), 0);
    }

    void documentsEscapeWhatTheyQuote()
    {
        RuleBook book = basicBook();
        AnalysisContext context(book);
        Measurement m = measure(QStringLiteral("test.size"), 20, QStringLiteral("<script>alert(1)</script> & |x|"),
                                QStringLiteral("fc*1*"), 3, 3);
        m.facts.insert(QStringLiteral("tag"), QStringLiteral("a<b>&c"));
        context.add(m);
        AdvisorReport report = applyRules(context, book);
        report.root = QStringLiteral("/runs/a&b");

        const QString html = reportHtml(report);
        QVERIFY(html.startsWith(QLatin1String("<!DOCTYPE html>")));
        QVERIFY(html.contains(QLatin1String("<meta charset=\"utf-8\">")));
        QVERIFY(!html.contains(QLatin1String("<script>")));
        QVERIFY(!html.contains(QLatin1String("a<b>")));
        QVERIFY(html.contains(QLatin1String("a&lt;b&gt;&amp;c")));
        QVERIFY(html.contains(QLatin1String("/runs/a&amp;b")));
        QVERIFY(!html.contains(QLatin1String("src=")) && !html.contains(QLatin1String("<link"))); // self-contained
        QVERIFY(html.contains(QLatin1String("Value too large")));
        QVERIFY(html.contains(QLatin1String("Make a&lt;b&gt;&amp;c smaller.")));

        const QString markdown = reportMarkdown(report);
        QVERIFY(markdown.contains(QLatin1String("### Value too large")));
        QVERIFY(markdown.contains(QLatin1String("\\<script\\>")));
        QVERIFY(markdown.contains(QLatin1String("\\|x\\|")));
        QVERIFY(markdown.contains(QLatin1String("fc\\*1\\*")));
        QVERIFY(markdown.contains(QLatin1String("`") + m.evidence.first() + QLatin1String("`")));
        // One table row per rule.
        QCOMPARE(markdown.count(QLatin1String("\n| `test-")), book.rules().size());

        const QString text = reportText(report);
        QVERIFY(text.contains(QLatin1String("[warning] Value too large (test-too-large, performance)")));
        QVERIFY(text.contains(QLatin1String("  a<b>&c of run <script>alert(1)</script> & |x| is 20 %")));
        QVERIFY(text.contains(QLatin1String("  advice: Make a<b>&c smaller.")));
        QVERIFY(text.contains(QLatin1String("  evidence: ") + m.evidence.first()));
        QVERIFY(text.contains(QLatin1String("20 % (threshold > 10 %)")));
        QVERIFY(text.contains(QLatin1String("no analyser measures test.bad: test-first")));
    }

    void findingsNameTheJob()
    {
        // The opened folder is the job: its run "." is named after the folder in messages and reports, and
        // stays "." where it is a key (evidence, grouping, the JSON `run`).
        const RuleBook book = basicBook();
        AnalysisContext context(book);
        context.setRoot(QStringLiteral("/data/cnn_baseline"));
        context.add(measure(QStringLiteral("test.size"), 37.5, QStringLiteral("."), QStringLiteral("fc3"), 120, 120));
        context.add(
            measure(QStringLiteral("test.size"), 38.5, QStringLiteral("runs/exp1"), QStringLiteral("fc3"), 120, 120));
        // A cluster of the opened folder names its run by the folder's path; it reads as the job too.
        context.add(measure(QStringLiteral("test.size"), 39.5, QStringLiteral("/data/cnn_baseline"),
                            QStringLiteral("fc3"), 120, 120));
        AdvisorReport report = applyRules(context, book);
        report.root = QStringLiteral("/data/cnn_baseline");
        const QList<Finding> findings = findingsOf(report, QStringLiteral("test-too-large"));
        QCOMPARE(findings.size(), 3);
        QStringList messages;
        for (const Finding& f : findings) {
            messages << f.message;
            if (f.scope.run == QLatin1String(".")) {
                QCOMPARE(f.scope.shownRun(), QStringLiteral("cnn_baseline"));
                QVERIFY2(f.message.startsWith(QLatin1String("train/loss of run cnn_baseline is 37.5 %")),
                         qPrintable(f.message));
                QVERIFY(f.evidence.first().contains(QLatin1String("run=.")));
            } else if (f.scope.run == QLatin1String("/data/cnn_baseline")) {
                QCOMPARE(f.scope.shownRun(), QStringLiteral("cnn_baseline"));
            } else {
                QCOMPARE(f.scope.shownRun(), QStringLiteral("runs/exp1"));
            }
        }
        const QString text = reportText(report);
        QVERIFY2(text.contains(QLatin1String("run cnn_baseline")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("run .")), qPrintable(text));
        const QJsonObject json = reportJson(report);
        for (const QJsonValue& value : json.value(QStringLiteral("findings")).toArray()) {
            const QJsonObject scope = value.toObject().value(QStringLiteral("scope")).toObject();
            if (scope.value(QStringLiteral("run")).toString() == QLatin1String("."))
                QCOMPARE(scope.value(QStringLiteral("run_display_name")).toString(), QStringLiteral("cnn_baseline"));
        }
    }

    void evaluateRunsTheAnalysers()
    {
        // An empty input: every analyser runs and finds nothing to measure, every rule gets a status.
        const RuleBook book = RuleBook::builtIn();
        AdvisorInput input;
        input.root = QStringLiteral("/nowhere");
        const AdvisorReport report = evaluate(input, book);
        QCOMPARE(report.root, QStringLiteral("/nowhere"));
        QCOMPARE(report.statuses.size(), book.rules().size());
        QVERIFY(report.findings.isEmpty());
        for (const RuleStatus& status : report.statuses)
            QVERIFY2(!status.evaluated ? !status.reason.isEmpty() : status.findings == 0, qPrintable(status.ruleId));

        // Canceled before it starts: no analyser runs, so nothing is evaluated.
        const std::atomic_bool canceled { true };
        const AdvisorReport stopped = evaluate(input, book, &canceled);
        for (const RuleStatus& status : stopped.statuses)
            QVERIFY(!status.evaluated);
    }
};

QTEST_GUILESS_MAIN(TestAdvisorEngine)
#include "tst_advisorengine.moc"
