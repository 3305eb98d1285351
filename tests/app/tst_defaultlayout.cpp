#include "importers/demo/demorun.h"
#include "tests/testutils.h"

#include <QDir>
#include <QImage>
#include <QObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

// The default dock layout on a 1440x900 screen, measured on the real executable: with fresh settings the
// screenshot mode lays the window out at 1440x900, and the window must not grow past that because of the
// panels' minimum sizes, whichever panel is brought to the front.

namespace {

constexpr int kWidth = 1440;
constexpr int kHeight = 900;

} // namespace

class TestDefaultLayout : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_demo;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_demo = m_dir.filePath(QStringLiteral("demo"));
        QString error;
        QVERIFY2(runlens::importers::demo::DemoRun::write(m_demo, &error), qPrintable(error));
    }

    void windowKeepsScreenSize_data()
    {
        QTest::addColumn<QString>("dock");
        QTest::addColumn<QString>("folder");
        QTest::newRow("default") << QString() << QString();
        // One panel of each tab group and the ones with the tallest content.
        for (const char* dock :
             { "Scalars", "Timeline", "Tensors", "Memory", "Cluster", "Compare Runs", "Steps", "Projector" })
            QTest::newRow(dock) << QString::fromLatin1(dock) << QString();
        // A folder with only a profiler trace brings other panels to the front and hides the empty ones; while
        // it does, every panel's minimum counts (a projector wider than the room beside the Run Browser made
        // the window 1454 pixels wide).
        QTest::newRow("profiler only") << QString() << QStringLiteral("baseline/profiler");
        QTest::newRow("profiler only, Timeline") << QStringLiteral("Timeline") << QStringLiteral("baseline/profiler");
        QTest::newRow("graph only") << QString() << QStringLiteral("baseline/graph");
        // Real profiler folders: a legacy PyTorch trace, and a MindSpore profiler folder.
        QTest::newRow("legacy trace") << QString() << QStringLiteral("samples:traces/kineto/2020_toplevel_array");
        QTest::newRow("MindSpore profiler") << QString() << QStringLiteral("samples:profiler/mindspore/run_1_profiler");
    }

    void windowKeepsScreenSize()
    {
        QFETCH(QString, dock);
        QFETCH(QString, folder);
        QTemporaryDir config;
        QVERIFY(config.isValid());
        const QString out = m_dir.filePath(QStringLiteral("window.png"));
        QFile::remove(out);
        QStringList arguments { QStringLiteral("--screenshot"), out };
        if (!dock.isEmpty())
            arguments << QStringLiteral("--dock") << dock;
        QString path = folder.isEmpty() ? m_demo : QDir(m_demo).filePath(folder);
        if (folder.startsWith(QLatin1String("samples:"))) {
            RUNLENS_REQUIRE_SAMPLES(samples);
            path = QDir(samples).filePath(folder.mid(8));
            RUNLENS_REQUIRE_SAMPLE_FILE(path);
        }
        arguments << path;

        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
        env.insert(QStringLiteral("XDG_CACHE_HOME"), config.filePath(QStringLiteral("cache")));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(RUNLENS_EXECUTABLE), arguments);
        QVERIFY(process.waitForFinished(120000));
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, err.constData());
        QVERIFY2(!err.contains("There is no panel"), err.constData());

        const QImage image(out);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), kWidth);
        QCOMPARE(image.height(), kHeight);
    }
};

QTEST_GUILESS_MAIN(TestDefaultLayout)
#include "tst_defaultlayout.moc"
