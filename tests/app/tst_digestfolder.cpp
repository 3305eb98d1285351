#include "app/mainwindow.h"
#include "importers/cluster/rankdigestfile.h"
#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/trace/chrometracereader.h"
#include "models/cluster/clusterreport.h"
#include "models/cluster/kinetocluster.h"
#include "tests/importers/cluster/kinetorankfixture.h"
#include "widgets/cluster/clusterpanel.h"
#include "widgets/runbrowser/runbrowserwidget.h"
#include "widgets/timeline/timelinepanel.h"

#include <QApplication>
#include <QJsonDocument>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

// A folder of rank digests opened as a run: the scanner recognises the files, the session delivers the
// digests, the window's Cluster shows the job from them, and opening a rank reads that rank's trace alone
// when the digest's path is reachable, else says it is not.

using namespace runlens;
using namespace runlens::app;
using namespace runlens::importers;
using namespace runlens::importers::cluster;
using namespace runlens::models;
using namespace runlens::models::cluster;
using namespace runlens::widgets::cluster;
using namespace runlens::widgets::runbrowser;

class TstDigestFolder : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(m_job.isValid() && m_digests.isValid());
        for (int r = 0; r < 4; ++r) {
            const QString path = m_job.filePath(QStringLiteral("rank%1.pt.trace.json").arg(r));
            QVERIFY(test::writeKinetoRankFixture(path, r, 4, 3, 2));
            m_traces << path;
            const RankDigestResult digest = digestTraceFile(path);
            QVERIFY2(digest.digest, qPrintable(digest.error));
            QString error;
            QVERIFY2(writeRankDigestFile(*digest.digest, m_digests.filePath(rankDigestFileName(r)), &error),
                     qPrintable(error));
        }
    }

    void scanAndSession()
    {
        const RunManifest manifest = RunScanner().scan(m_digests.path());
        QCOMPARE(manifest.artifacts.size(), 4);
        for (const Artifact& artifact : manifest.artifacts) {
            QCOMPARE(artifact.kind, ArtifactKind::RankDigest);
            QVERIFY(artifact.rank);
        }
        ImportSession session(manifest);
        QSignalSpy arrived(&session, &ImportSession::rankDigestArrived);
        session.importBlocking();
        QCOMPARE(arrived.size(), 4);
    }

    void clusterAndRanks()
    {
        MainWindow window;
        bool idle = false;
        window.openPath(m_digests.path());
        window.whenIdle([&] { idle = true; });
        QTRY_VERIFY_WITH_TIMEOUT(idle, 30000);
        ClusterPanel* panel = window.clusterPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->cluster() && panel->cluster()->ranks.size() == 4 && !panel->isComputing(),
                                 10000);
        QVERIFY(!panel->isShowingEmptyState());
        QCOMPARE(int(panel->digests().size()), 4);
        // The same table as the four traces read together.
        const auto together = importers::trace::ChromeTraceReader::read(m_traces);
        QCOMPARE(QJsonDocument(clusterReport(*panel->cluster())).toJson(),
                 QJsonDocument(clusterReport(buildKinetoCluster(*together.store))).toJson());

        // A rank whose trace is reachable: its timeline, that rank alone.
        emit panel->rankActivated(1);
        QTRY_VERIFY_WITH_TIMEOUT(window.timelinePanel()->store() != nullptr, 20000);
        const models::trace::TraceStore* store = window.timelinePanel()->store();
        QCOMPARE(int(store->sources().size()), 1);
        QCOMPARE(store->sources().front().path, QFileInfo(m_traces[1]).absoluteFilePath());

        // A rank whose trace is gone: a message naming it, and the cluster stays.
        QVERIFY(QFile::remove(m_traces[3]));
        emit panel->rankActivated(3);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox*>(QStringLiteral("openRankMessage"))) != nullptr);
        QVERIFY2(box->text().contains(QStringLiteral("not reachable")), qPrintable(box->text()));
        QVERIFY(box->text().contains(QFileInfo(m_traces[3]).fileName()));
        QCOMPARE(int(panel->cluster()->ranks.size()), 4);
        box->close();
    }

    /// A job beyond what is read into one timeline (34 ranks > 32): opening one rank's trace shows that
    /// rank alone, and the Cluster is made of one digest per rank, read one rank at a time.
    void jobTooLargeToCombine()
    {
        constexpr int kRanks = 34;
        QTemporaryDir job;
        QStringList traces;
        for (int r = 0; r < kRanks; ++r) {
            traces << job.filePath(QStringLiteral("rank%1.pt.trace.json").arg(r));
            QVERIFY(test::writeKinetoRankFixture(traces.back(), r, kRanks, 3, 7));
        }
        MainWindow window;
        bool idle = false;
        window.openPath(job.path());
        window.whenIdle([&] { idle = true; });
        QTRY_VERIFY_WITH_TIMEOUT(idle, 30000);
        const RunManifest& manifest = window.importSession()->manifest();
        int first = -1;
        for (int i = 0; i < manifest.artifacts.size() && first < 0; ++i) {
            if (manifest.artifacts[i].rank == 0)
                first = i;
        }
        QVERIFY(first >= 0);
        auto* browser = window.findChild<RunBrowserWidget*>();
        QVERIFY(browser);
        emit browser->artifactActivated(first);
        ClusterPanel* panel = window.clusterPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->digests().size() == std::size_t(kRanks) && !panel->isComputing(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(window.timelinePanel()->store() != nullptr, 20000);
        QCOMPARE(int(window.timelinePanel()->store()->sources().size()), 1);
        const auto together = importers::trace::ChromeTraceReader::read(traces);
        QCOMPARE(QJsonDocument(clusterReport(*panel->cluster())).toJson(),
                 QJsonDocument(clusterReport(buildKinetoCluster(*together.store))).toJson());
        QCOMPARE(panel->cluster()->stragglers.front().rank, 7);
    }

private:
    QTemporaryDir m_job;
    QTemporaryDir m_digests;
    QStringList m_traces;
};

QTEST_MAIN(TstDigestFolder)
#include "tst_digestfolder.moc"
