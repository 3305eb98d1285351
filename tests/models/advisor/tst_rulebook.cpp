#include "models/advisor/rule.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

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
        qWarning() << "rules_basic.json:" << problems;
    return book;
}

/// The problem that names `ruleId` (exactly one is expected), or an empty string.
QString problemOf(const QStringList& problems, const QString& ruleId)
{
    const QStringList matching = problems.filter(QStringLiteral("rule ") + ruleId + QLatin1Char(':'));
    return matching.size() == 1 ? matching.first() : QString();
}

bool writeFile(const QString& path, const QByteArray& content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

QByteArray thresholdOverride(const QString& id, double threshold)
{
    const QJsonObject entry { { QStringLiteral("id"), id }, { QStringLiteral("threshold"), threshold } };
    return QJsonDocument(QJsonObject { { QStringLiteral("rules"), QJsonArray { entry } } }).toJson();
}

} // namespace

class TestRuleBook : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("RunLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_rulebook"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void builtInRulesAreTheResourceFiles()
    {
        // The compiled-in resource must list exactly the JSON files of resources/rules, and every rule
        // they define must load without a problem: this also proves the resource objects of the static
        // library reached this executable.
        const QDir source(QStringLiteral(RUNLENS_SOURCE_DIR "/resources/rules"));
        const QStringList files = source.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
        QCOMPARE(QDir(QStringLiteral(":/rules")).entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name),
                 files);
        QStringList expectedIds;
        for (const QString& name : files) {
            QFile file(source.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonArray rules
                = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("rules")).toArray();
            QVERIFY2(!rules.isEmpty(), qPrintable(name));
            for (const QJsonValue& rule : rules)
                expectedIds << rule.toObject().value(QStringLiteral("id")).toString();
        }
        QStringList problems;
        const RuleBook book = RuleBook::builtIn(&problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QStringList ids;
        for (const Rule& rule : book.rules()) {
            ids << rule.id;
            QVERIFY2(rule.source.startsWith(QLatin1String(":/rules/")), qPrintable(rule.source));
            QVERIFY2(!rule.metric.isEmpty() && rule.metric.contains(QLatin1Char('.')), qPrintable(rule.id));
            QVERIFY2(!rule.title.isEmpty() && !rule.message.isEmpty() && !rule.advice.isEmpty(), qPrintable(rule.id));
            QVERIFY2(rule.threshold >= rule.minimum && rule.threshold <= rule.maximum, qPrintable(rule.id));
            QCOMPARE(rule.threshold, rule.recommended);
        }
        QCOMPARE(ids, expectedIds);
    }

    void loadsEveryField()
    {
        const RuleBook book = basicBook();
        QCOMPARE(book.rules().size(), 3);
        const Rule* rule = book.rule(QStringLiteral("test-too-large"));
        QVERIFY(rule);
        QCOMPARE(toString(rule->category), toString(Category::Performance));
        QCOMPARE(toString(rule->severity), toString(Severity::Warning));
        QCOMPARE(rule->title, QStringLiteral("Value too large"));
        QCOMPARE(rule->advice, QStringLiteral("Make {tag} smaller."));
        QCOMPARE(rule->metric, QStringLiteral("test.size"));
        QCOMPARE(toString(rule->comparator), toString(Comparator::Greater));
        QCOMPARE(rule->recommended, 10.0);
        QCOMPARE(rule->threshold, 10.0);
        QCOMPARE(rule->minimum, 0.0);
        QCOMPARE(rule->maximum, 1000.0);
        QCOMPARE(toString(rule->unit), toString(Unit::Percent));
        QCOMPARE(toString(rule->scope), toString(ScopeKind::Layer));
        QCOMPARE(rule->evidence, QStringLiteral("scalar"));
        QCOMPARE(toString(rule->report), toString(ReportMode::Each));
        QCOMPARE(rule->limit, 3);
        QVERIFY(rule->enabled);
        QCOMPARE(rule->parameter(QStringLiteral("window"), 0), 20.0);
        QCOMPARE(rule->parameter(QStringLiteral("atol"), 0), 1e-8);
        QCOMPARE(rule->parameter(QStringLiteral("absent"), 7), 7.0);
        QCOMPARE(rule->source, data(QStringLiteral("rules_basic.json")));

        // Defaults: no range means any threshold, limit 50, unit/scope/report from the first entries.
        const Rule* first = book.rule(QStringLiteral("test-first"));
        QVERIFY(first);
        QCOMPARE(toString(first->comparator), toString(Comparator::GreaterEqual));
        QCOMPARE(toString(first->report), toString(ReportMode::First));
        QCOMPARE(toString(first->scope), toString(ScopeKind::Step));
        QCOMPARE(first->limit, 50);
        QVERIFY(std::isinf(first->minimum) && first->minimum < 0);
        QVERIFY(std::isinf(first->maximum) && first->maximum > 0);
        QCOMPARE(toString(book.rule(QStringLiteral("test-too-small"))->comparator), toString(Comparator::LessEqual));
        QCOMPARE(toString(book.rule(QStringLiteral("test-too-small"))->report), toString(ReportMode::Worst));
    }

    void validationNamesFileAndRule_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("expected"); ///< a word the message must contain
        QTest::addColumn<bool>("kept");
        QTest::newRow("category") << "bad-category"
                                  << "unknown category 'speed'" << false;
        QTest::newRow("comparator") << "bad-comparator"
                                    << "unknown comparator '=>'" << false;
        QTest::newRow("unit") << "bad-unit"
                              << "unknown unit 'seconds'" << false;
        QTest::newRow("severity") << "bad-severity"
                                  << "unknown severity 'fatal'" << false;
        QTest::newRow("missing field") << "missing-metric"
                                       << "metric" << false;
        QTest::newRow("recommended outside range") << "recommended-outside"
                                                   << "outside the range 0 to 10" << false;
        QTest::newRow("inverted range") << "bad-range"
                                        << "range" << false;
        QTest::newRow("evidence") << "bad-evidence"
                                  << "unknown evidence 'chart'" << false;
        QTest::newRow("limit") << "bad-limit"
                               << "limit" << false;
        QTest::newRow("duplicate id") << "good-rule"
                                      << "more than once" << true;
        QTest::newRow("unknown field") << "typo-field"
                                       << "unknown field 'treshold'" << true;
    }

    void validationNamesFileAndRule()
    {
        QFETCH(QString, id);
        QFETCH(QString, expected);
        QFETCH(bool, kept);
        const QString path = data(QStringLiteral("rules_invalid.json"));
        RuleBook book;
        QStringList problems;
        QVERIFY(book.load(path, &problems)); // the file is readable: its good entries apply
        const QStringList matching = problems.filter(QStringLiteral("rule ") + id);
        QVERIFY2(!matching.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        const QString message = matching.join(QLatin1Char('\n'));
        QVERIFY2(message.contains(path), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
        QCOMPARE(book.rule(id) != nullptr, kept);
    }

    void invalidEntriesAreReportedAndSkipped()
    {
        const QString path = data(QStringLiteral("rules_invalid.json"));
        RuleBook book;
        QStringList problems;
        QVERIFY(book.load(path, &problems));
        QStringList ids;
        for (const Rule& rule : book.rules())
            ids << rule.id;
        QCOMPARE(ids, (QStringList { QStringLiteral("good-rule"), QStringLiteral("typo-field") }));
        // The duplicate must not have replaced the first definition.
        QCOMPARE(book.rule(QStringLiteral("good-rule"))->title, QStringLiteral("Good"));
        QCOMPARE(toString(book.rule(QStringLiteral("good-rule"))->severity), toString(Severity::Info));
        // Entries 13 and 14 are no rules at all.
        QCOMPARE(problems.filter(QStringLiteral("entry 13")).size(), 1);
        QCOMPARE(problems.filter(QStringLiteral("entry 14")).size(), 1);
        for (const QString& problem : std::as_const(problems))
            QVERIFY2(problem.startsWith(path + QLatin1Char(':')), qPrintable(problem));
    }

    void unreadableFiles_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing") << data(QStringLiteral("no_such_rules.json")) << "cannot read";
        QTest::newRow("broken JSON") << data(QStringLiteral("rules_broken.json")) << "not valid JSON";
        QTest::newRow("no rules array") << data(QStringLiteral("rules_norules.json")) << "not a rule file";
    }

    void unreadableFiles()
    {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        RuleBook book = basicBook();
        QStringList problems;
        QVERIFY(!book.load(path, &problems));
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().startsWith(path + QLatin1Char(':')), qPrintable(problems.first()));
        QVERIFY2(problems.first().contains(expected), qPrintable(problems.first()));
        QCOMPARE(book.rules().size(), 3); // left as it was
    }

    void overridesLayerOverTheBook()
    {
        RuleBook book = basicBook();
        const QString path = data(QStringLiteral("rules_override.json"));
        QStringList problems;
        QVERIFY(book.load(path, &problems));

        const Rule* large = book.rule(QStringLiteral("test-too-large"));
        QCOMPARE(large->threshold, 25.0);
        QCOMPARE(large->recommended, 10.0);
        QCOMPARE(large->parameter(QStringLiteral("window"), 0), 40.0);
        QCOMPARE(large->parameter(QStringLiteral("atol"), 0), 1e-8); // params merge, not replace
        QCOMPARE(large->source, path);

        // 5000 is outside [0, 1000]: rejected, naming file and rule, threshold kept.
        const Rule* small = book.rule(QStringLiteral("test-too-small"));
        QCOMPARE(small->threshold, 1.0);
        const QString rejected = problemOf(problems, QStringLiteral("test-too-small"));
        QVERIFY2(rejected.startsWith(path), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY2(rejected.contains(QLatin1String("5000")) && rejected.contains(QLatin1String("0 to 1000")),
                 qPrintable(rejected));

        const Rule* first = book.rule(QStringLiteral("test-first"));
        QVERIFY(!first->enabled);
        QCOMPARE(toString(first->severity), toString(Severity::Warning));

        // A new id with every field adds a rule after the others, with its own threshold.
        QCOMPARE(book.rules().size(), 4);
        QCOMPARE(book.rules().last().id, QStringLiteral("test-too-large-copy"));
        QCOMPARE(book.rules().last().threshold, 600.0);
        QCOMPARE(book.rules().last().recommended, 500.0);
        QCOMPARE(toString(book.rules().last().scope), toString(ScopeKind::Device));
        QCOMPARE(problems.size(), 1);
    }

    void redefinitionChangesOnlyOverridableFields()
    {
        RuleBook book = basicBook();
        const QString path = data(QStringLiteral("rules_redefine.json"));
        QStringList problems;
        QVERIFY(book.load(path, &problems));
        const Rule* rule = book.rule(QStringLiteral("test-too-small"));
        QCOMPARE(rule->threshold, 2.0);
        QCOMPARE(rule->title, QStringLiteral("Value too small"));
        QCOMPARE(rule->metric, QStringLiteral("test.size"));
        const QString problem = problemOf(problems, QStringLiteral("test-too-small"));
        QVERIFY2(problem.contains(QLatin1String("metric, title")) || problem.contains(QLatin1String("title, metric")),
                 qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void thresholdsStayInRange()
    {
        RuleBook book = basicBook();
        const QString id = QStringLiteral("test-too-large");
        QVERIFY(book.setThreshold(id, 1000));
        QCOMPARE(book.rule(id)->threshold, 1000.0);
        QVERIFY(!book.setThreshold(id, 1000.5));
        QVERIFY(!book.setThreshold(id, -1));
        QVERIFY(!book.setThreshold(id, std::nan("")));
        QCOMPARE(book.rule(id)->threshold, 1000.0);
        QVERIFY(!book.setThreshold(QStringLiteral("no-such-rule"), 1));
        book.resetToRecommended(id);
        QCOMPARE(book.rule(id)->threshold, 10.0);
        QVERIFY(book.setEnabled(id, false));
        QVERIFY(!book.rule(id)->enabled);
        QVERIFY(!book.setEnabled(QStringLiteral("no-such-rule"), false));
        // Without a range any finite threshold goes.
        QVERIFY(book.setThreshold(QStringLiteral("test-first"), -1e300));
    }

    void overridesRoundTrip()
    {
        const RuleBook base = basicBook();
        RuleBook changed = base;
        QVERIFY(changed.setThreshold(QStringLiteral("test-too-large"), 42.5));
        QVERIFY(changed.setEnabled(QStringLiteral("test-first"), false));
        changed.rule(QStringLiteral("test-too-small"))->severity = Severity::Info;
        changed.rule(QStringLiteral("test-too-small"))->params.insert(QStringLiteral("window"), 7.0);
        QStringList problems;
        QVERIFY(changed.load(data(QStringLiteral("rules_override.json")), &problems));
        QVERIFY(changed.setThreshold(QStringLiteral("test-too-large"), 42.5));

        const QJsonObject document = changed.overrides(base);
        // Unchanged rules are left out; changed ones carry only what differs.
        const QJsonArray entries = document.value(QStringLiteral("rules")).toArray();
        QCOMPARE(entries.size(), 4);
        const QJsonObject large = entries[0].toObject();
        QCOMPARE(large.value(QStringLiteral("id")).toString(), QStringLiteral("test-too-large"));
        QCOMPARE(large.value(QStringLiteral("threshold")).toDouble(), 42.5);
        QVERIFY(!large.contains(QStringLiteral("enabled")));
        QVERIFY(!large.contains(QStringLiteral("title")));

        // Through a file, as the pane saves it, onto a fresh copy of the base.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("overrides.json"));
        QVERIFY(writeFile(path, QJsonDocument(document).toJson()));
        RuleBook restored = base;
        problems.clear();
        QVERIFY(restored.load(path, &problems));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(restored.rules().size(), changed.rules().size());
        for (int i = 0; i < changed.rules().size(); ++i) {
            const Rule& a = changed.rules()[i];
            const Rule& b = restored.rules()[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.threshold, a.threshold);
            QCOMPARE(b.recommended, a.recommended);
            QCOMPARE(b.enabled, a.enabled);
            QCOMPARE(toString(b.severity), toString(a.severity));
            QCOMPARE(b.params, a.params);
            QCOMPARE(b.metric, a.metric);
            QCOMPARE(toString(b.unit), toString(a.unit));
            QCOMPARE(toString(b.scope), toString(a.scope));
            QCOMPARE(toString(b.report), toString(a.report));
            QCOMPARE(b.minimum, a.minimum);
            QCOMPARE(b.maximum, a.maximum);
        }
        // Nothing changed, nothing to save.
        QVERIFY(base.overrides(base).value(QStringLiteral("rules")).toArray().isEmpty());
    }

    void userFilesLayerInOrder()
    {
        const QString folder
            = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/rules");
        QDir(folder).removeRecursively();
        QVERIFY(QDir().mkpath(folder));
        // A new rule first, then two overrides of it: the later file (by name) wins, then the extra file.
        QFile::copy(data(QStringLiteral("rules_basic.json")), folder + QStringLiteral("/10-basic.json"));
        QVERIFY(writeFile(folder + QStringLiteral("/30-later.json"),
                          thresholdOverride(QStringLiteral("test-too-large"), 30)));
        QVERIFY(writeFile(folder + QStringLiteral("/20-earlier.json"),
                          thresholdOverride(QStringLiteral("test-too-large"), 20)));
        QVERIFY(writeFile(folder + QStringLiteral("/notes.txt"), "not a rule file"));

        QCOMPARE(RuleBook::userRuleFiles(),
                 (QStringList { folder + QStringLiteral("/10-basic.json"), folder + QStringLiteral("/20-earlier.json"),
                                folder + QStringLiteral("/30-later.json") }));
        QStringList problems;
        RuleBook book = RuleBook::effective({}, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(book.rule(QStringLiteral("test-too-large")));
        QCOMPARE(book.rule(QStringLiteral("test-too-large"))->threshold, 30.0);
        QCOMPARE(book.rule(QStringLiteral("test-too-large"))->source, folder + QStringLiteral("/30-later.json"));
        QCOMPARE(book.rules().size(), RuleBook::builtIn().rules().size() + 3);

        QTemporaryDir dir;
        const QString extra = dir.filePath(QStringLiteral("ci.json"));
        QVERIFY(writeFile(extra, thresholdOverride(QStringLiteral("test-too-large"), 99)));
        book = RuleBook::effective({ extra, data(QStringLiteral("no_such_rules.json")) }, &problems);
        QCOMPARE(book.rule(QStringLiteral("test-too-large"))->threshold, 99.0);
        QCOMPARE(problems.size(), 1);
        QVERIFY(problems.first().contains(QLatin1String("no_such_rules.json")));
        QDir(folder).removeRecursively();
    }
};

QTEST_GUILESS_MAIN(TestRuleBook)
#include "tst_rulebook.moc"
