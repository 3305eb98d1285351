#include "models/advisor/evidence.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace runlens::models::advisor;

class TestEvidence : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("plain") << QStringLiteral("train/loss");
        QTest::newRow("ampersand and equals") << QStringLiteral("a&b=c");
        QTest::newRow("plus") << QStringLiteral("x+y");
        QTest::newRow("hash") << QStringLiteral("conv#3");
        QTest::newRow("slashes") << QStringLiteral("Default/network/conv1/Conv2D-op12");
        QTest::newRow("spaces") << QStringLiteral("run with  two spaces ");
        QTest::newRow("chinese") << QStringLiteral("训练/损失");
        QTest::newRow("percent") << QStringLiteral("100%25 done %");
        QTest::newRow("question mark") << QStringLiteral("what?ever");
        QTest::newRow("everything") << QStringLiteral("运行 1/a&b=c+d#e?f%g;h,i");
    }

    void roundTrip()
    {
        QFETCH(QString, name);
        auto check
            = [&name](const QString& locator, const QString& kind, const QList<std::pair<QString, QString>>& expected) {
                  const std::optional<Evidence> parsed = parseEvidence(locator);
                  QVERIFY2(parsed, qPrintable(locator));
                  QCOMPARE(parsed->kind, kind);
                  for (const auto& [key, value] : expected) {
                      QVERIFY2(parsed->has(key), qPrintable(locator + QLatin1Char(' ') + key));
                      QCOMPARE(parsed->value(key), value);
                  }
                  QCOMPARE(parsed->query.queryItems().size(), expected.size());
                  // Locators are plain ASCII, so JSON reports and clipboards carry them unchanged.
                  for (const QChar c : locator)
                      QVERIFY2(c.unicode() < 128 && c.unicode() > 32, qPrintable(locator));
                  Q_UNUSED(name);
              };
        const QString run = name + QStringLiteral(" run");
        check(scalarEvidence(run, name, 12), QStringLiteral("scalar"),
              { { QStringLiteral("run"), run }, { QStringLiteral("tag"), name }, { QStringLiteral("step"), "12" } });
        check(histogramEvidence(run, name, 0), QStringLiteral("histogram"),
              { { QStringLiteral("run"), run }, { QStringLiteral("tag"), name }, { QStringLiteral("step"), "0" } });
        check(tensorEvidence(name, run, 7), QStringLiteral("tensor"),
              { { QStringLiteral("name"), name }, { QStringLiteral("run"), run }, { QStringLiteral("step"), "7" } });
        check(
            graphEvidence(name, QStringLiteral("/tmp/") + name + QStringLiteral(".onnx")), QStringLiteral("graph"),
            { { QStringLiteral("node"), name }, { QStringLiteral("path"), QStringLiteral("/tmp/") + name + ".onnx" } });
        check(traceEvidence(name, 1000, 2000000000000, 3, name), QStringLiteral("trace"),
              { { QStringLiteral("path"), name },
                { QStringLiteral("start_ns"), "1000" },
                { QStringLiteral("end_ns"), "2000000000000" },
                { QStringLiteral("rank"), "3" },
                { QStringLiteral("op"), name } });
        check(memoryEvidence(name, QStringLiteral("cuda:0"), 55), QStringLiteral("memory"),
              { { QStringLiteral("path"), name },
                { QStringLiteral("device"), QStringLiteral("cuda:0") },
                { QStringLiteral("time_ns"), "55" } });
        check(profilerEvidence(run, 0, QStringLiteral("pipeline"), 4), QStringLiteral("profiler"),
              { { QStringLiteral("run"), run },
                { QStringLiteral("rank"), "0" },
                { QStringLiteral("view"), QStringLiteral("pipeline") },
                { QStringLiteral("step"), "4" } });
        check(clusterEvidence(run, 5, name), QStringLiteral("cluster"),
              { { QStringLiteral("run"), run }, { QStringLiteral("rank"), "5" }, { QStringLiteral("link"), name } });
        // Keys are identifiers; any value goes.
        check(makeEvidence(QStringLiteral("scalar"), { { QStringLiteral("custom_key"), name } }),
              QStringLiteral("scalar"), { { QStringLiteral("custom_key"), name } });
    }

    void unsetPartsAreLeftOut()
    {
        const QString locator = scalarEvidence(QStringLiteral("r"), QStringLiteral("t"), -1);
        QCOMPARE(locator, QStringLiteral("runlens://scalar?run=r&tag=t"));
        const std::optional<Evidence> parsed = parseEvidence(locator);
        QVERIFY(parsed && !parsed->has(QStringLiteral("step")));
        QCOMPARE(traceEvidence(QStringLiteral("a.json"), 0, 10),
                 QStringLiteral("runlens://trace?path=a.json&start_ns=0&end_ns=10"));
        QCOMPARE(profilerEvidence(QStringLiteral("r"), -1, QStringLiteral("overview")),
                 QStringLiteral("runlens://profiler?run=r&view=overview"));
        QCOMPARE(makeEvidence(QStringLiteral("graph"), {}), QStringLiteral("runlens://graph"));
        QCOMPARE(parseEvidence(QStringLiteral("runlens://graph"))->kind, QStringLiteral("graph"));
    }

    void survivesJson()
    {
        const QString locator = tensorEvidence(QStringLiteral("层/权重 a&b"), QStringLiteral("运行"), 3);
        const QJsonArray array { locator };
        const QJsonArray back = QJsonDocument::fromJson(QJsonDocument(array).toJson()).array();
        const std::optional<Evidence> parsed = parseEvidence(back.first().toString());
        QVERIFY(parsed);
        QCOMPARE(parsed->value(QStringLiteral("name")), QStringLiteral("层/权重 a&b"));
        QCOMPARE(parsed->value(QStringLiteral("run")), QStringLiteral("运行"));
    }

    void rejectsOtherUrls_data()
    {
        QTest::addColumn<QString>("locator");
        QTest::newRow("empty") << QString();
        QTest::newRow("http") << QStringLiteral("http://scalar?run=a");
        QTest::newRow("file") << QStringLiteral("/tmp/a.json");
        QTest::newRow("no kind") << QStringLiteral("runlens://?run=a");
        QTest::newRow("text") << QStringLiteral("not a locator");
    }

    void rejectsOtherUrls()
    {
        QFETCH(QString, locator);
        QVERIFY(!parseEvidence(locator));
    }
};

QTEST_GUILESS_MAIN(TestEvidence)
#include "tst_evidence.moc"
