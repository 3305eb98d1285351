#include "importers/demo/demorun.h"
#include "tests/app/commandlinetestutils.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace runlens;
using namespace runlens::importers::demo;

using namespace runlens::test::cli;

class TestCommandLine : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_demo = m_dir.filePath(QStringLiteral("demo"));
        const Result r = run({ QStringLiteral("demo"), m_demo });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QDir(m_demo).exists(QStringLiteral("baseline")));
        m_listing = listing(m_demo);
        QVERIFY(!m_listing.isEmpty());
    }

    void scanJson()
    {
        const Result r = run({ QStringLiteral("scan"), m_demo, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.value(QStringLiteral("root")).toString(), QDir(m_demo).absolutePath());
        const QJsonArray artifacts = root.value(QStringLiteral("artifacts")).toArray();
        // An event file per run; the first run also has a profiler trace, a graph and tensor dumps.
        QStringList runs;
        QSet<QString> kinds;
        for (const QJsonValue& v : artifacts) {
            const QString kind = v[QStringLiteral("kind")].toString();
            kinds << kind;
            if (kind == QLatin1String("tensorboard-events"))
                runs << v[QStringLiteral("run")].toString();
            else
                QCOMPARE(v[QStringLiteral("run")].toString(), DemoRun::runNames().first());
        }
        runs.sort();
        QCOMPARE(runs, DemoRun::runNames());
        QCOMPARE(kinds,
                 (QSet<QString> { QStringLiteral("tensorboard-events"), QStringLiteral("chrome-trace"),
                                  QStringLiteral("graph-dot"), QStringLiteral("tensor-npy") }));
    }

    void infoJsonFollowsTheContract()
    {
        const Result r = run({ QStringLiteral("info"), m_demo, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonArray artifacts = root.value(QStringLiteral("artifacts")).toArray();
        int eventFiles = 0;
        for (const QJsonValue& v : artifacts) {
            const QJsonObject a = v.toObject();
            for (const char* key : { "path", "kind", "run", "rank", "status", "diagnostics" })
                QVERIFY2(a.contains(QLatin1String(key)), key);
            QVERIFY(a.value(QStringLiteral("rank")).isNull());
            QCOMPARE(a.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
            QVERIFY(a.value(QStringLiteral("diagnostics")).toArray().isEmpty());
            const QString kind = a.value(QStringLiteral("kind")).toString();
            // Only the sections that apply: a trace has no scalars, an event file no trace.
            const char* section = kind == QLatin1String("chrome-trace") ? "trace"
                : kind == QLatin1String("graph-dot")                    ? "graph"
                : kind == QLatin1String("tensor-npy")                   ? "tensor"
                                                                        : "scalars";
            QVERIFY2(a.contains(QLatin1String(section)), section);
            if (kind != QLatin1String("tensorboard-events")) {
                QVERIFY(!a.contains(QStringLiteral("scalars")));
                continue;
            }
            ++eventFiles;
            const QJsonObject tags = a[QStringLiteral("scalars")][QStringLiteral("tags")].toObject();
            QCOMPARE(tags.keys(), DemoRun::tags());
            const QJsonObject loss = tags.value(QStringLiteral("train/loss")).toObject();
            QCOMPARE(loss.value(QStringLiteral("points")).toInt(), DemoRun::kSteps);
            QCOMPARE(loss.value(QStringLiteral("first_step")).toInt(), 0);
            QCOMPARE(loss.value(QStringLiteral("last_step")).toInt(), DemoRun::kSteps - 1);
            QCOMPARE(tags[QStringLiteral("eval/loss")][QStringLiteral("points")].toInt(),
                     DemoRun::kSteps / DemoRun::kEvalEvery);
        }
        QCOMPARE(eventFiles, DemoRun::runNames().size());
        QCOMPARE(listing(m_demo), m_listing);
    }

    void infoReportsBadFiles()
    {
        QTemporaryDir dir;
        QFile bad(dir.filePath(QStringLiteral("events.out.tfevents.1.host")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(QByteArray(64, 'x'));
        bad.close();
        const Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
        QVERIFY(r.exitCode == 0 || r.exitCode == 1);
        QCOMPARE(r.exitCode == -1, false);
        // Content, not the name, decides: garbage named like an event file is not imported as one.
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        for (const QJsonValue& v : artifacts)
            QVERIFY(v[QStringLiteral("kind")].toString() != QLatin1String("tensorboard-events"));
    }

    void exportDistributionsCsv()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        // The CNN sample writes a histogram of conv2.weight every 5 steps from 0 to 55.
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("d.csv"));
        const Result r = run({ QStringLiteral("export"), samples + QStringLiteral("/runs/pytorch_cnn_baseline/tb"),
                                 QStringLiteral("--chart"), QStringLiteral("distributions:weights/conv2.weight"),
                                 QStringLiteral("--out"), csv });
        QCOMPARE(r.exitCode, 0);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 13);
        const QStringList header = lines[0].split(u',');
        const int p0 = int(header.indexOf(QStringLiteral("p0")));
        const int p50 = int(header.indexOf(QStringLiteral("p50")));
        const int p100 = int(header.indexOf(QStringLiteral("p100")));
        QVERIFY(p0 > 0 && p50 > p0 && p100 > p50);
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList cells = lines[i].split(u',');
            QCOMPARE(cells[1].toInt(), (i - 1) * 5);
            QVERIFY(cells[p0].toDouble() <= cells[p50].toDouble());
            QVERIFY(cells[p50].toDouble() <= cells[p100].toDouble());
        }
        // An unknown tag names the tags there are.
        const Result missing
            = run({ QStringLiteral("export"), samples + QStringLiteral("/runs/pytorch_cnn_baseline/tb"),
                    QStringLiteral("--chart"), QStringLiteral("distributions:nope"), QStringLiteral("--out"),
                    dir.filePath(QStringLiteral("x.png")) });
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("weights/conv2.weight"), missing.err.constData());
    }

    void exportFormats_data()
    {
        QTest::addColumn<QString>("extension");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << QStringLiteral("png") << QByteArray("\x89PNG");
        QTest::newRow("svg") << QStringLiteral("svg") << QByteArray("<?xml");
        QTest::newRow("pdf") << QStringLiteral("pdf") << QByteArray("%PDF");
        QTest::newRow("csv") << QStringLiteral("csv") << QByteArray();
    }

    void exportFormats()
    {
        QFETCH(QString, extension);
        QFETCH(QByteArray, magic);
        const QString out = m_dir.filePath(QStringLiteral("loss.") + extension);
        const Result r = run({ QStringLiteral("export"), m_demo, QStringLiteral("--chart"),
                                 QStringLiteral("scalars:train/loss"), QStringLiteral("--out"), out });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QVERIFY(content.size() > 100);
        if (!magic.isEmpty())
            QVERIFY(content.startsWith(magic));
        if (extension == QLatin1String("png")) {
            QImage image;
            QVERIFY(image.loadFromData(content, "PNG"));
            QVERIFY(image.width() > 100 && image.height() > 100);
        }
        if (extension == QLatin1String("svg"))
            QVERIFY(content.contains("<svg"));
        if (extension == QLatin1String("csv")) {
            const QList<QByteArray> lines = content.trimmed().split('\n');
            // A header, then one row per point of each run.
            QCOMPARE(lines.size(), 1 + DemoRun::kSteps * DemoRun::runNames().size());
        }
        QCOMPARE(listing(m_demo), m_listing);
    }

    void exportUnknownTagFails()
    {
        const Result r
            = run({ QStringLiteral("export"), m_demo, QStringLiteral("--chart"), QStringLiteral("scalars:nope"),
                    QStringLiteral("--out"), m_dir.filePath(QStringLiteral("x.png")) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("nope"));
        QVERIFY(r.err.contains("train/loss")); // lists what is there
    }

    void missingPathIsAnError()
    {
        const Result r = run({ QStringLiteral("info"), m_dir.filePath(QStringLiteral("does-not-exist")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("does-not-exist"));
        // Without a window nobody could close a message box: the screenshot mode says so and stops.
        QTemporaryDir out;
        const Result shot = run({ QStringLiteral("--screenshot"), out.filePath(QStringLiteral("s.png")),
                                    m_dir.filePath(QStringLiteral("does-not-exist")) });
        QCOMPARE(shot.exitCode, 2);
        QVERIFY(shot.err.contains("does-not-exist"));
        QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("s.png"))));
    }

    void screenshot()
    {
        const QString out = m_dir.filePath(QStringLiteral("window.png"));
        const Result r = run({ QStringLiteral("--screenshot"), out, m_demo });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QImage image(out);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 800 && image.height() >= 600);
        // The window is not blank: a good share of pixels differ from the most common colour.
        QHash<QRgb, int> counts;
        for (int y = 0; y < image.height(); y += 4) {
            for (int x = 0; x < image.width(); x += 4)
                ++counts[image.pixel(x, y)];
        }
        int top = 0;
        int total = 0;
        for (int c : counts) {
            top = std::max(top, c);
            total += c;
        }
        QVERIFY(top < total * 0.9);
        QCOMPARE(listing(m_demo), m_listing);
    }

    void adviseJsonFollowsTheContract()
    {
        const Result r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        for (const char* key : { "findings", "rules", "summary" })
            QVERIFY2(root.contains(QLatin1String(key)), key);

        // Every built-in rule (the rule files of the source tree) has a status.
        QStringList expectedIds;
        QMap<QString, double> recommended;
        const QDir rulesDir(QStringLiteral(RUNLENS_TEST_DATA_DIR "/../../resources/rules"));
        for (const QString& name : rulesDir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
            QFile file(rulesDir.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            for (const QJsonValue& rule :
                 QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("rules")).toArray()) {
                const QString id = rule[QStringLiteral("id")].toString();
                expectedIds << id;
                recommended.insert(id, rule[QStringLiteral("condition")][QStringLiteral("recommended")].toDouble());
            }
        }
        QVERIFY(!expectedIds.isEmpty());
        QStringList ids;
        QMap<QString, int> findingsPerRule;
        for (const QJsonValue& v : root.value(QStringLiteral("rules")).toArray()) {
            const QJsonObject rule = v.toObject();
            for (const char* key : { "id", "evaluated", "reason", "findings", "threshold", "recommended", "enabled" })
                QVERIFY2(rule.contains(QLatin1String(key)), key);
            const QString id = rule.value(QStringLiteral("id")).toString();
            ids << id;
            QVERIFY(rule.value(QStringLiteral("evaluated")).isBool());
            QVERIFY(rule.value(QStringLiteral("enabled")).toBool());
            QVERIFY(rule.value(QStringLiteral("reason")).isString());
            QCOMPARE(rule.value(QStringLiteral("evaluated")).toBool(),
                     rule.value(QStringLiteral("reason")).toString().isEmpty());
            QCOMPARE(rule.value(QStringLiteral("recommended")).toDouble(), recommended.value(id));
            QCOMPARE(rule.value(QStringLiteral("threshold")).toDouble(), recommended.value(id));
            findingsPerRule.insert(id, rule.value(QStringLiteral("findings")).toInt());
        }
        QCOMPARE(ids, expectedIds);

        // The demo's trace has no communication: the rules over it say why they were not evaluated.
        bool traceRuleSkipped = false;
        for (const QJsonValue& v : root.value(QStringLiteral("rules")).toArray())
            traceRuleSkipped = traceRuleSkipped
                || (v[QStringLiteral("metric")].toString().startsWith(QLatin1String("trace."))
                    && !v[QStringLiteral("evaluated")].toBool());
        QVERIFY(traceRuleSkipped);

        const QStringList severities { QStringLiteral("info"), QStringLiteral("warning"), QStringLiteral("error") };
        const QStringList categories { QStringLiteral("accuracy"), QStringLiteral("performance"),
                                       QStringLiteral("memory"), QStringLiteral("distributed"),
                                       QStringLiteral("data") };
        QMap<QString, int> bySeverity;
        QMap<QString, int> counted;
        for (const QJsonValue& v : root.value(QStringLiteral("findings")).toArray()) {
            const QJsonObject f = v.toObject();
            for (const char* key :
                 { "rule", "severity", "category", "scope", "value", "threshold", "message", "advice", "evidence" })
                QVERIFY2(f.contains(QLatin1String(key)), key);
            QVERIFY(severities.contains(f.value(QStringLiteral("severity")).toString()));
            QVERIFY(categories.contains(f.value(QStringLiteral("category")).toString()));
            const QJsonObject scope = f.value(QStringLiteral("scope")).toObject();
            for (const char* key : { "run", "rank", "step", "layer", "node", "tensor", "op" })
                QVERIFY2(scope.contains(QLatin1String(key)), key);
            QVERIFY(DemoRun::runNames().contains(scope.value(QStringLiteral("run")).toString()));
            QVERIFY(f.value(QStringLiteral("threshold")).isDouble());
            QVERIFY(!f.value(QStringLiteral("message")).toString().isEmpty());
            for (const QJsonValue& locator : f.value(QStringLiteral("evidence")).toArray())
                QVERIFY(locator.toString().startsWith(QLatin1String("runlens://")));
            ++bySeverity[f.value(QStringLiteral("severity")).toString()];
            ++counted[f.value(QStringLiteral("rule")).toString()];
        }
        for (auto it = counted.cbegin(); it != counted.cend(); ++it)
            QCOMPARE(findingsPerRule.value(it.key()), it.value());
        const QJsonObject summary = root.value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("errors")).toInt(-1), bySeverity.value(QStringLiteral("error")));
        QCOMPARE(summary.value(QStringLiteral("warnings")).toInt(-1), bySeverity.value(QStringLiteral("warning")));
        QCOMPARE(summary.value(QStringLiteral("infos")).toInt(-1), bySeverity.value(QStringLiteral("info")));
        QCOMPARE(listing(m_demo), m_listing);
    }

    void adviseRuleFileChangesAThreshold()
    {
        // Any positive loss decreases by less than 100 % between two windows, so with that threshold the
        // rule fires on the train/loss curve of every demo run; and no positive loss falls by more than 100 %
        // from its start, so with that converged_fall no demo run counts as converged.
        const QString rules = writeRules(
            QStringLiteral("strict.json"),
            { QJsonObject { { QStringLiteral("id"), QStringLiteral("loss-not-decreasing") },
                            { QStringLiteral("threshold"), 100 },
                            { QStringLiteral("params"), QJsonObject { { QStringLiteral("converged_fall"), 101 } } },
                            { QStringLiteral("severity"), QStringLiteral("error") } } });
        const Result r
            = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json"), QStringLiteral("--rules"), rules });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QJsonObject status;
        for (const QJsonValue& v : root.value(QStringLiteral("rules")).toArray()) {
            if (v[QStringLiteral("id")].toString() == QLatin1String("loss-not-decreasing"))
                status = v.toObject();
        }
        QCOMPARE(status.value(QStringLiteral("threshold")).toDouble(), 100.0);
        QVERIFY(status.value(QStringLiteral("evaluated")).toBool());
        QStringList runs;
        for (const QJsonValue& v : root.value(QStringLiteral("findings")).toArray()) {
            if (v[QStringLiteral("rule")].toString() != QLatin1String("loss-not-decreasing"))
                continue;
            QCOMPARE(v[QStringLiteral("severity")].toString(), QStringLiteral("error"));
            QCOMPARE(v[QStringLiteral("threshold")].toDouble(), 100.0);
            QVERIFY(v[QStringLiteral("value")].toDouble() < 100.0);
            if (v[QStringLiteral("message")].toString().contains(QLatin1String("train/loss")))
                runs << v[QStringLiteral("scope")][QStringLiteral("run")].toString();
        }
        runs.sort();
        QCOMPARE(runs, DemoRun::runNames());
        QCOMPARE(root[QStringLiteral("summary")][QStringLiteral("errors")].toInt(),
                 status[QStringLiteral("findings")].toInt()
                     + countErrorsBesides(root, QStringLiteral("loss-not-decreasing")));

        // The text report names the rule and its new severity.
        const Result text = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--rules"), rules });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("[error] Loss is not decreasing (loss-not-decreasing, accuracy)"),
                 text.out.constData());
    }

    void adviseFailOnSetsTheExitCode()
    {
        const QString strict
            = writeRules(QStringLiteral("fail.json"),
                         { QJsonObject { { QStringLiteral("id"), QStringLiteral("loss-not-decreasing") },
                                         { QStringLiteral("threshold"), 100 },
                                         { QStringLiteral("severity"), QStringLiteral("warning") } } });
        auto advise = [this](const QStringList& more) {
            return run(QStringList { QStringLiteral("advise"), m_demo } + more).exitCode;
        };
        QCOMPARE(advise({ QStringLiteral("--rules"), strict, QStringLiteral("--fail-on"), QStringLiteral("warning") }),
                 1);
        QCOMPARE(advise({ QStringLiteral("--rules"), strict }), 0);

        // Every rule disabled: nothing can be found, whatever the level.
        const Result all = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json") });
        QJsonArray off;
        for (const QJsonValue& v : QJsonDocument::fromJson(all.out).object().value(QStringLiteral("rules")).toArray())
            off.append(QJsonObject { { QStringLiteral("id"), v[QStringLiteral("id")].toString() },
                                     { QStringLiteral("enabled"), false } });
        QVERIFY(!off.isEmpty());
        const QString quiet = writeRules(QStringLiteral("quiet.json"), off);
        const Result none
            = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json"), QStringLiteral("--rules"), quiet,
                    QStringLiteral("--fail-on"), QStringLiteral("warning") });
        QCOMPARE(none.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(none.out).object();
        QVERIFY(root.value(QStringLiteral("findings")).toArray().isEmpty());
        for (const QJsonValue& v : root.value(QStringLiteral("rules")).toArray()) {
            QVERIFY(!v[QStringLiteral("enabled")].toBool());
            QCOMPARE(v[QStringLiteral("reason")].toString(), QStringLiteral("disabled"));
        }
        // Only the strict rule on, as a warning: a warning gate fails, an error gate does not.
        const QString only = writeRules(QStringLiteral("only.json"),
                                        { QJsonObject { { QStringLiteral("id"), QStringLiteral("loss-not-decreasing") },
                                                        { QStringLiteral("enabled"), true } } });
        const QStringList onlyStrict { QStringLiteral("--rules"), quiet, QStringLiteral("--rules"), only,
                                       QStringLiteral("--rules"), strict };
        QCOMPARE(advise(onlyStrict + QStringList { QStringLiteral("--fail-on"), QStringLiteral("warning") }), 1);
        QCOMPARE(advise(onlyStrict + QStringList { QStringLiteral("--fail-on"), QStringLiteral("error") }), 0);
        QCOMPARE(advise({ QStringLiteral("--fail-on"), QStringLiteral("fatal") }), 2);
    }

    void adviseRejectsBadInput()
    {
        const QString broken = m_dir.filePath(QStringLiteral("broken rules.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{ \"rules\": [ { \"id\": ");
        file.close();
        Result r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--rules"), broken });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(broken.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());

        const QString missing = m_dir.filePath(QStringLiteral("no-such-rules.json"));
        r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--rules"), missing });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(missing.toUtf8()), r.err.constData());

        // A readable file with one bad entry: the entry is reported, naming file and rule, and the rest runs.
        const QString outside = writeRules(QStringLiteral("outside.json"),
                                           { QJsonObject { { QStringLiteral("id"), QStringLiteral("loss-spike") },
                                                           { QStringLiteral("threshold"), -5 } } });
        r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json"), QStringLiteral("--rules"), outside });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(outside.toUtf8()) && r.err.contains("loss-spike"), r.err.constData());
        QVERIFY(QJsonDocument::fromJson(r.out).isObject());

        r = run({ QStringLiteral("advise"), m_dir.filePath(QStringLiteral("does-not-exist")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("does-not-exist"));
        r = run({ QStringLiteral("advise") });
        QCOMPARE(r.exitCode, 2);
        // A CI gate must tell a typo from a finding.
        r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--fail-onn"), QStringLiteral("error") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("fail-onn"));
    }

    // `runlens compare --json` on the generated float32 and float16 runs: exactly the documented keys, the half
    // layer as the first divergence, non-finite and absent values as null.
    void compareJsonFollowsTheContract()
    {
        const QString runs = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");
        const Result r = run({ QStringLiteral("compare"), runs + QStringLiteral("/fp32/msprobe"),
                                 runs + QStringLiteral("/fp16/msprobe"), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(keySet(root),
                 QSet<QString>({ "bench", "target", "mode", "summary", "first_divergence", "rows", "findings" }));
        QCOMPARE(root.value(QLatin1String("mode")).toString(), QStringLiteral("tensor"));
        const QJsonObject summary = root.value(QLatin1String("summary")).toObject();
        QCOMPARE(keySet(summary),
                 QSet<QString>({ "matched", "unmatched_bench", "unmatched_target", "pass", "warning", "error" }));
        QCOMPARE(summary.value(QLatin1String("matched")).toInt(), 16);
        QCOMPARE(summary.value(QLatin1String("pass")).toInt() + summary.value(QLatin1String("warning")).toInt()
                     + summary.value(QLatin1String("error")).toInt(),
                 16);
        const QJsonObject first = root.value(QLatin1String("first_divergence")).toObject();
        QCOMPARE(keySet(first), QSet<QString>({ "name", "kind", "index", "reason" }));
        QCOMPARE(first.value(QLatin1String("name")).toString(),
                 QStringLiteral("Module.layers.2.Linear.forward.0.output.0"));
        QCOMPARE(first.value(QLatin1String("kind")).toString(), QStringLiteral("output"));
        QCOMPARE(first.value(QLatin1String("index")).toInt(), 0);
        const QSet<QString> rowKeys { "name",      "bench_name", "target_name",   "kind",        "index",
                                      "dtype",     "shape",      "cosine",        "max_abs",     "max_rel",
                                      "mean_abs",  "rmse",       "rel_euclidean", "within_1e-3", "within_5e-3",
                                      "underflow", "overflow",   "nan_mismatch",  "verdict",     "introduced",
                                      "step",      "rank" };
        const QJsonArray rows = root.value(QLatin1String("rows")).toArray();
        QCOMPARE(rows.size(), 16);
        int introduced = 0;
        for (const QJsonValue& value : rows) {
            const QJsonObject row = value.toObject();
            QCOMPARE(keySet(row), rowKeys);
            QCOMPARE(row.value(QLatin1String("dtype")).toArray().size(), 2);
            QCOMPARE(row.value(QLatin1String("shape")).toArray().size(), 2);
            QVERIFY(QStringList({ "pass", "warning", "error", "none", "unmatched" })
                        .contains(row.value(QLatin1String("verdict")).toString()));
            QVERIFY(row.value(QLatin1String("introduced")).isBool());
            introduced += row.value(QLatin1String("introduced")).toBool();
            if (row.value(QLatin1String("name")).toString() == first.value(QLatin1String("name")).toString()) {
                QVERIFY(row.value(QLatin1String("underflow")).toInt() > 0);
                QCOMPARE(row.value(QLatin1String("dtype")).toArray().at(1).toString(), QStringLiteral("torch.float16"));
            }
        }
        QCOMPARE(introduced, 1);

        // The Advisor's comparison rules, as `advise` writes findings: the difference is introduced at the half
        // layer (a warning), which underflows; each finding opens its row in the Accuracy panel.
        QHash<QString, QJsonObject> findings;
        for (const QJsonValue& value : root.value(QLatin1String("findings")).toArray())
            findings.insert(value.toObject().value(QLatin1String("rule")).toString(), value.toObject());
        QCOMPARE(QSet<QString>(findings.keyBegin(), findings.keyEnd()),
                 QSet<QString>(
                     { "comparison-difference-introduced", "comparison-half-underflow", "comparison-dtype-differs" }));
        const QString half = first.value(QLatin1String("name")).toString();
        for (const QJsonObject& finding : std::as_const(findings)) {
            QCOMPARE(keySet(finding),
                     QSet<QString>({ "rule", "severity", "category", "title", "scope", "value", "threshold",
                                     "comparator", "unit", "message", "advice", "evidence", "occurrences" }));
            const QJsonObject scope = finding.value(QLatin1String("scope")).toObject();
            QCOMPARE(scope.value(QLatin1String("comparison")).toString(), QStringLiteral("fp32 vs fp16"));
            QCOMPARE(scope.value(QLatin1String("tensor")).toString(), half);
            QCOMPARE(finding.value(QLatin1String("evidence")).toArray().first().toString(),
                     QStringLiteral("runlens://compare?name=") + half);
        }
        const QJsonObject underflow = findings.value(QStringLiteral("comparison-half-underflow"));
        QCOMPARE(underflow.value(QLatin1String("severity")).toString(), QStringLiteral("warning"));
        QCOMPARE(underflow.value(QLatin1String("unit")).toString(), QStringLiteral("percent"));
        QVERIFY(underflow.value(QLatin1String("message"))
                    .toString()
                    .startsWith(QStringLiteral("Half precision underflow at ") + half));

        // Checkpoints of two formats: the perturbed weight is where they part.
        const Result ckpt = run({ QStringLiteral("compare"), runs + QStringLiteral("/fp32/model.pt"),
                                    runs + QStringLiteral("/perturbed/model.npz"), QStringLiteral("--json") });
        QVERIFY2(ckpt.exitCode == 0, ckpt.err.constData());
        const QJsonObject c = QJsonDocument::fromJson(ckpt.out).object();
        QCOMPARE(c.value(QLatin1String("first_divergence")).toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("0.weight"));
    }

    void compareOutputsAndExitCodes()
    {
        const QString runs = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");
        const QString bench = runs + QStringLiteral("/fp32/npy");
        auto compare = [&](const QString& target, const QStringList& more) {
            return run(QStringList { QStringLiteral("compare"), bench, runs + target } + more);
        };
        // The float16 run has warnings only, the perturbed one an error.
        QCOMPARE(
            compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--fail-on"), QStringLiteral("warning") }).exitCode,
            1);
        QCOMPARE(
            compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--fail-on"), QStringLiteral("error") }).exitCode, 0);
        QCOMPARE(compare(QStringLiteral("/perturbed/npy"), { QStringLiteral("--fail-on"), QStringLiteral("error") })
                     .exitCode,
                 1);
        QCOMPARE(
            compare(QStringLiteral("/fp32/npy"), { QStringLiteral("--fail-on"), QStringLiteral("warning") }).exitCode,
            0);
        QCOMPARE(compare(QStringLiteral("/perturbed/npy"), {}).exitCode, 0);

        const Result csv = compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--csv") });
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 17);
        QVERIFY(lines.front().startsWith("name,bench_name,target_name,kind,index"));
        const Result md = compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--md") });
        QVERIFY(md.out.contains("layers.2.output"));
        QVERIFY(md.out.contains("| name |"));
        QVERIFY2(md.out.contains("## Findings\n\n- **Numbers part at an op** (Warning): The numbers begin to part at "
                                 "layers.2.output"),
                 md.out.constData());
        const Result text = compare(QStringLiteral("/fp16/npy"), {});
        QVERIFY2(text.out.contains("layers.2.output"), text.out.constData());
        QVERIFY2(text.out.contains(
                     "Findings:\n  [warning] Numbers part at an op: The numbers begin to part at layers.2.output"),
                 text.out.constData());
        QVERIFY(text.out.contains("[warning] Half precision underflow: Half precision underflow at layers.2.output: "));
        // A run against itself has nothing to say.
        QVERIFY(compare(QStringLiteral("/fp32/npy"), {}).out.endsWith("Findings:\n  none\n"));

        QCOMPARE(
            compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--fail-on"), QStringLiteral("fatal") }).exitCode, 2);
        QCOMPARE(run({ QStringLiteral("compare"), bench }).exitCode, 2);
        Result missing = run({ QStringLiteral("compare"), bench, m_dir.filePath(QStringLiteral("nowhere")) });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("nowhere"));
        const QString badMapping = m_dir.filePath(QStringLiteral("bad-mapping.yaml"));
        QFile f(badMapping);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("sections:\n  a: b\n");
        f.close();
        missing = compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--mapping"), badMapping });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("bad-mapping.yaml"));
    }

    void adviseHealthyRunHasNoAccuracyFinding()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString healthy = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
        RUNLENS_REQUIRE_SAMPLE_FILE(healthy);
        const Result r = run({ QStringLiteral("advise"), healthy, QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QVERIFY(root.contains(QStringLiteral("findings")));
        for (const QJsonValue& v : root.value(QStringLiteral("findings")).toArray())
            QVERIFY2(v[QStringLiteral("category")].toString() != QLatin1String("accuracy"),
                     qPrintable(v[QStringLiteral("rule")].toString() + QStringLiteral(": ")
                                + v[QStringLiteral("message")].toString()));
    }

    void jobFolderIsOneRunEverywhere()
    {
        // A job folder (tb/, profiler/, dump/step_N/, graph/, metrics.csv, state_dict.npz) is one run, named
        // after the folder by scan, info and advise alike, as the window names it.
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString job = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
        RUNLENS_REQUIRE_SAMPLE_FILE(job);
        const QString name = QStringLiteral("pytorch_cnn_baseline");

        const Result scanText = run({ QStringLiteral("scan"), job });
        QCOMPARE(scanText.exitCode, 0);
        QStringList runLines;
        for (const QByteArray& line : scanText.out.split('\n')) {
            if (line.startsWith("run "))
                runLines << QString::fromUtf8(line);
        }
        QCOMPARE(runLines.size(), 1);
        QVERIFY2(runLines.first().startsWith(QStringLiteral("run ") + name + QStringLiteral(" (")),
                 qPrintable(runLines.first()));

        const Result scanJson = run({ QStringLiteral("scan"), job, QStringLiteral("--json") });
        QCOMPARE(scanJson.exitCode, 0);
        const QJsonObject scan = QJsonDocument::fromJson(scanJson.out).object();
        const QJsonArray runs = scan.value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first()[QStringLiteral("name")].toString(), QStringLiteral("."));
        QCOMPARE(runs.first()[QStringLiteral("display_name")].toString(), name);
        for (const QJsonValue& v : scan.value(QStringLiteral("artifacts")).toArray())
            QCOMPARE(v[QStringLiteral("run_display_name")].toString(), name);

        const Result info = run({ QStringLiteral("info"), job });
        QVERIFY2(info.exitCode == 0, info.err.constData());
        int artifactLines = 0;
        for (const QByteArray& line : info.out.split('\n')) {
            if (line.contains("  run ")) {
                ++artifactLines;
                QVERIFY2(line.contains(QStringLiteral("  run %1  ").arg(name).toUtf8()), line.constData());
            }
        }
        QVERIFY(artifactLines > 100);

        const Result advise = run({ QStringLiteral("advise"), job, QStringLiteral("--json") });
        QVERIFY2(advise.exitCode == 0, advise.err.constData());
        const QJsonArray findings
            = QJsonDocument::fromJson(advise.out).object().value(QStringLiteral("findings")).toArray();
        for (const QJsonValue& v : findings) {
            const QJsonObject scope = v[QStringLiteral("scope")].toObject();
            if (scope.value(QStringLiteral("run")).isNull())
                continue;
            QCOMPARE(scope.value(QStringLiteral("run")).toString(), QStringLiteral("."));
            QCOMPARE(scope.value(QStringLiteral("run_display_name")).toString(), name);
            const QString message = v[QStringLiteral("message")].toString();
            for (const char* other : { "run .", "run tb", "run dump", "run graph", "run profiler" })
                QVERIFY2(!message.contains(QLatin1String(other)), qPrintable(message));
        }
        // export --run takes the name scan shows too.
        QTemporaryDir dir;
        const Result exported = run({ QStringLiteral("export"), job, QStringLiteral("--chart"),
                                        QStringLiteral("distributions:weights/conv2.weight"), QStringLiteral("--run"),
                                        name, QStringLiteral("--out"), dir.filePath(QStringLiteral("d.csv")) });
        QVERIFY2(exported.exitCode == 0, exported.err.constData());

        const Result adviseText = run({ QStringLiteral("advise"), job });
        QVERIFY2(adviseText.exitCode == 0, adviseText.err.constData());
        for (const char* other : { "run .", "run tb,", "run dump", "run graph", "run profiler" })
            QVERIFY2(!adviseText.out.contains(other), adviseText.out.constData());
    }

private:
    QString writeRules(const QString& name, const QJsonArray& entries)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(QJsonDocument(QJsonObject { { QStringLiteral("rules"), entries } }).toJson());
        return path;
    }

    static int countErrorsBesides(const QJsonObject& root, const QString& ruleId)
    {
        int count = 0;
        for (const QJsonValue& v : root.value(QStringLiteral("findings")).toArray())
            count += v[QStringLiteral("severity")].toString() == QLatin1String("error")
                && v[QStringLiteral("rule")].toString() != ruleId;
        return count;
    }

    QTemporaryDir m_dir;
    QString m_demo;
    QStringList m_listing;
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
