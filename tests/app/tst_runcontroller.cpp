#include "runcontroller.h"

#include "core/importsession.h"
#include "core/runbrowsermodel.h"
#include "graph/dumpindex.h"
#include "scalars/scalarstore.h"
#include "summary/eventfilewriter.h"
#include "tensor/tensorcatalog.h"

#include <QDir>
#include <QFile>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace runlens;

namespace {

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray npyBytes()
{
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header.append(' ');
    header.append('\n');
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out.append(char(header.size() & 0xff)).append(char(header.size() >> 8));
    return out + header + QByteArray(8, '\0');
}

/// A run folder as a training job leaves it: a run with a scalars event file (`tag`, `steps` points), a profiler
/// trace and a dumped tensor at step 5.
bool writeRunFolder(const QString& root, const QString& tag, int steps)
{
    QDir().mkpath(root + QStringLiteral("/train"));
    summary::EventFileWriter writer;
    if (!writer.open(root + QStringLiteral("/train/events.out.tfevents.1700000000.host")))
        return false;
    writer.writeFileVersion(1000.0);
    for (int step = 0; step < steps; ++step)
        writer.writeScalar(tag, step, 1000.0 + step, step * 0.5);
    writer.close();
    QFile fixture(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tiny.pt.trace.json"));
    if (!fixture.open(QIODevice::ReadOnly))
        return false;
    return writeBytes(root + QStringLiteral("/profile/worker0.pt.trace.json"), fixture.readAll())
        && writeBytes(root + QStringLiteral("/dump/step_5/conv1.weight.npy"), npyBytes());
}

} // namespace

class TestRunController : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        QVERIFY(writeRunFolder(m_dir.filePath(QStringLiteral("a")), QStringLiteral("loss_a"), 5000));
        QVERIFY(writeRunFolder(m_dir.filePath(QStringLiteral("b")), QStringLiteral("loss_b"), 20));
    }

    void opensAFolder()
    {
        RunController run;
        QSignalSpy created(&run, &RunController::sessionCreated);
        QSignalSpy finished(&run, &RunController::importFinished);
        QSignalSpy catalogs(&run, &RunController::catalogReady);
        const QString root = m_dir.filePath(QStringLiteral("a"));
        run.open(root);
        QCOMPARE(run.path(), root);
        QVERIFY(run.isScanning());
        QVERIFY(run.isBusy());
        QVERIFY(!run.session());

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(catalogs.size(), 1, 30000);
        QCOMPARE(created.size(), 1);
        QVERIFY(!run.isScanning());
        QVERIFY(run.session());
        QCOMPARE(created.first().first().value<ImportSession*>(), run.session());

        const RunManifest& manifest = run.session()->manifest();
        QCOMPARE(manifest.root, root);
        QVERIFY2(manifest.runs().contains(QStringLiteral("train")), qPrintable(manifest.runs().join(u',')));
        QCOMPARE(run.runModel()->manifest().root, root);

        QCOMPARE(run.scalars()->tags(), QStringList { QStringLiteral("loss_a") });
        QCOMPARE(run.scalars()->pointCount(), 5000);

        // The catalog and the dump index reach the listeners and stay with the controller.
        QVERIFY(run.catalog());
        QVERIFY(run.dumps());
        QCOMPARE(catalogs.first().at(0).value<std::shared_ptr<const tensor::TensorCatalog>>(), run.catalog());
        QCOMPARE(catalogs.first().at(1).value<std::shared_ptr<const graph::DumpIndex>>(), run.dumps());
        QCOMPARE(run.catalog()->series().size(), 1);
        QCOMPARE(run.catalog()->series().first().name, QStringLiteral("conv1.weight"));
        QCOMPARE(run.dumps()->entries().size(), 1);
        QCOMPARE(run.dumps()->entries().first().step, 5);

        // What PanelChoice is given: scalars, one trace found, one tensor series; no graph or summaries.
        const ImportedContent content = run.importedContent();
        QCOMPARE(content.scalarTags, 1);
        QCOMPARE(content.traces, 1);
        QCOMPARE(content.tensors, 1);
        QCOMPARE(content.graphs, 0);
        QCOMPARE(content.histogramTags, 0);
        QCOMPARE(content.imageTags, 0);
        const PanelChoice choice(content);
        QVERIFY(choice.hasContent(QStringLiteral("ScalarsDock")));
        QVERIFY(choice.hasContent(QStringLiteral("TensorDock")));
        QVERIFY(!choice.hasContent(QStringLiteral("GraphDock")));
        QCOMPARE(choice.front(
                     { QStringLiteral("TimelineDock"), QStringLiteral("TensorDock"), QStringLiteral("ScalarsDock") }),
                 QStringLiteral("ScalarsDock"));

        // Closing clears the run and forgets the path.
        QSignalSpy cleared(&run, &RunController::runCleared);
        run.close();
        QCOMPARE(cleared.size(), 1);
        QVERIFY(run.path().isEmpty());
        QVERIFY(!run.session());
        QVERIFY(!run.isBusy());
        QVERIFY(!run.catalog());
        QVERIFY(!run.dumps());
        QVERIFY(run.scalars()->tags().isEmpty());
        QCOMPARE(run.runModel()->rowCount(), 0);
        QVERIFY(run.importedContent().isEmpty());
    }

    void emptyFolderHasNothingToImport()
    {
        QTemporaryDir empty;
        RunController run;
        QSignalSpy nothing(&run, &RunController::nothingToImport);
        run.open(empty.path());
        QTRY_COMPARE_WITH_TIMEOUT(nothing.size(), 1, 30000);
        QVERIFY(run.session());
        QVERIFY(!run.isBusy());
        QVERIFY(run.importedContent().isEmpty());
    }

    void switchingFoldersDropsTheFirst_data()
    {
        QTest::addColumn<bool>("whileScanning");
        QTest::newRow("while importing") << false;
        QTest::newRow("while scanning") << true;
    }

    // Opening a second folder while the first is still being read: nothing of the first may arrive after the
    // switch (its session is gone, its catalog is dropped, its scan result is ignored).
    void switchingFoldersDropsTheFirst()
    {
        QFETCH(bool, whileScanning);
        RunController run;
        const QString a = m_dir.filePath(QStringLiteral("a"));
        const QString b = m_dir.filePath(QStringLiteral("b"));

        // From the switch on, record every tag the store shows and every catalog and session that arrive.
        bool switched = false;
        QStringList tagsSeen;
        connect(run.scalars(), &ScalarStore::structureChanged, this, [&] {
            if (switched)
                tagsSeen += run.scalars()->tags();
        });
        QList<std::shared_ptr<const tensor::TensorCatalog>> catalogsSeen;
        QStringList rootsSeen;
        connect(&run, &RunController::catalogReady, this,
                [&](std::shared_ptr<const tensor::TensorCatalog> catalog, std::shared_ptr<const graph::DumpIndex>) {
                    if (!switched)
                        return; // the first folder's, in before the switch
                    catalogsSeen << catalog;
                    rootsSeen << run.session()->manifest().root;
                });
        QStringList sessionsSeen;
        connect(&run, &RunController::sessionCreated, this,
                [&](ImportSession* session) { sessionsSeen << session->manifest().root; });
        QSignalSpy finished(&run, &RunController::importFinished);

        QPointer<ImportSession> first;
        bool firstWasBusy = false;
        auto switchToB = [&] {
            first = run.session();
            firstWasBusy = first && first->isBusy();
            switched = true;
            run.open(b);
        };
        run.open(a);
        if (whileScanning) {
            QVERIFY(run.isScanning());
            switchToB();
        } else {
            // The moment the first session has started reading, as a user's click could come.
            QMetaObject::Connection once;
            once = connect(&run, &RunController::importStarted, this, [&] {
                disconnect(once);
                switchToB();
            });
            QTRY_VERIFY_WITH_TIMEOUT(switched, 30000);
            QVERIFY(firstWasBusy);
        }
        QVERIFY(first.isNull());
        QCOMPARE(run.path(), b);

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(catalogsSeen.size(), 1, 30000);
        // Let anything still under way for the first folder end.
        QTest::qWait(200);
        QCOMPARE(sessionsSeen.last(), b);
        QCOMPARE(sessionsSeen.size(), whileScanning ? 1 : 2);
        QCOMPARE(run.session()->manifest().root, b);
        QCOMPARE(run.runModel()->manifest().root, b);
        QCOMPARE(rootsSeen, QStringList { b });
        QCOMPARE(catalogsSeen.first(), run.catalog());
        QVERIFY2(!tagsSeen.contains(QStringLiteral("loss_a")), qPrintable(tagsSeen.join(u',')));
        QCOMPARE(run.scalars()->tags(), QStringList { QStringLiteral("loss_b") });
        QCOMPARE(run.scalars()->pointCount(), 20);
        QCOMPARE(finished.size(), 1);
        run.close();
        QVERIFY(!run.session());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestRunController)
#include "tst_runcontroller.moc"
