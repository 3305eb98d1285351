#include "app/mainwindow.h"

#include "importers/summary/eventfilewriter.h"
#include "widgets/advisor/advisorpanel.h"
#include "widgets/system/systemdetailchart.h"
#include "widgets/system/systempanel.h"

#include <QDir>
#include <QDockWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace runlens;
using namespace runlens::app;
using namespace runlens::widgets::system;

namespace {

constexpr double kStart = 1'700'000'000.0;

/// Rank N's machine as `runlens record --rank N` writes it; rank 2's GPU idles while its CPU is busy.
void writeRank(const QString& root, int rank)
{
    const QString dir = QStringLiteral("%1/system/rank_%2").arg(root).arg(rank);
    QVERIFY(QDir().mkpath(dir));
    importers::summary::EventFileWriter writer;
    QVERIFY(writer.open(dir + QLatin1Char('/') + importers::summary::EventFileWriter::tensorBoardFileName()));
    QVERIFY(writer.writeFileVersion(kStart));
    for (int i = 0; i < 60; ++i) {
        const bool cpuBound = rank == 2 && i >= 20;
        const std::vector<importers::summary::EventFileWriter::NamedValue> values = {
            { QStringLiteral("system/gpu0_util_percent"), cpuBound ? 15.0 : 90.0 },
            { QStringLiteral("system/cpu_busy_percent"), cpuBound ? 90.0 : 30.0 },
            { QStringLiteral("system/mem_used_MiB"), 4000.0 },
        };
        QVERIFY(writer.writeScalars(i, kStart + i, values));
    }
    QVERIFY(writer.close());
}

} // namespace

class TestSystemWorkbench : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void systemFindingOpensThePanelAtTheRank()
    {
        QTemporaryDir dir;
        for (int rank = 0; rank < 4; ++rank)
            writeRank(dir.path(), rank);
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        bool idle = false;
        window.openPath(dir.path());
        window.whenIdle([&] { idle = true; });
        QTRY_VERIFY_WITH_TIMEOUT(idle, 30000);

        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("SystemDock"));
        QVERIFY(dock);
        QVERIFY2(!dock->isHidden(), "the System dock is shown for a folder with system metrics");
        auto* panel = window.findChild<SystemPanel*>();
        QVERIFY(panel);
        QTRY_COMPARE(panel->runCount(), 4);

        auto* advisor = window.findChild<widgets::advisor::AdvisorPanel*>();
        QTRY_VERIFY_WITH_TIMEOUT(advisor->report(), 30000);
        const QList<models::advisor::Finding>& findings = advisor->report()->findings;
        int cpuBound = -1;
        for (int i = 0; i < findings.size(); ++i) {
            if (findings[i].ruleId == QLatin1String("system-gpu-idle-cpu-busy"))
                cpuBound = i;
        }
        QVERIFY(cpuBound >= 0);
        QCOMPARE(findings[cpuBound].scope.rank, std::optional<int>(2));

        QCOMPARE(panel->currentRun(), QStringLiteral("system/rank_0"));
        advisor->selectFinding(cpuBound);
        QVERIFY(advisor->showEvidence());
        QCOMPARE(panel->currentRun(), QStringLiteral("system/rank_2"));
        QVERIFY(panel->isVisible());
        // The CPU-bound stretch (samples 20..59) with a tenth of it on each side.
        QCOMPARE(panel->detailChart()->timeRange().lower, kStart + 20 - 3.9);
        QCOMPARE(panel->detailChart()->timeRange().upper, kStart + 59 + 3.9);
    }
};

QTEST_MAIN(TestSystemWorkbench)
#include "tst_systemworkbench.moc"
