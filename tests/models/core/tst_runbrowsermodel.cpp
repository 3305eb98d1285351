#include "core/runbrowsermodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace runlens;

namespace {

Artifact artifact(const QString& relative, ArtifactKind kind, const QString& run, std::optional<int> rank = {},
                  qint64 size = 100)
{
    Artifact a;
    a.path = QStringLiteral("/runs/") + relative;
    a.relativePath = relative;
    a.kind = kind;
    a.run = run;
    a.rank = rank;
    a.size = size;
    return a;
}

RunManifest sampleManifest()
{
    RunManifest m;
    m.root = QStringLiteral("/runs");
    m.artifacts = {
        artifact(QStringLiteral("events.out.tfevents.1"), ArtifactKind::TensorBoardEvents, QStringLiteral(".")),
        artifact(QStringLiteral("a/events.out.tfevents.2"), ArtifactKind::TensorBoardEvents, QStringLiteral("a"), {},
                 2500),
        artifact(QStringLiteral("a/rank_0/trace.json"), ArtifactKind::ChromeTrace, QStringLiteral("a"), 0),
        artifact(QStringLiteral("a/rank_1/trace.json"), ArtifactKind::ChromeTrace, QStringLiteral("a"), 1),
    };
    return m;
}

} // namespace

class TestRunBrowserModel : public QObject
{
    Q_OBJECT
private slots:
    void treeShape()
    {
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setManifest(sampleManifest());
        QCOMPARE(model.rowCount(), 2); // runs "." and "a"
        const QModelIndex root = model.index(0, 0);
        QCOMPARE(root.data().toString(), QStringLiteral("runs")); // "." shows the folder name
        QCOMPARE(model.rowCount(root), 1);
        const QModelIndex runA = model.index(1, 0);
        QCOMPARE(runA.data().toString(), QStringLiteral("a"));
        // Run "a" has an artifact without rank plus two ranks: rank rows appear, the unranked file stays direct.
        QCOMPARE(model.rowCount(runA), 3);
        int rankRows = 0;
        for (int r = 0; r < model.rowCount(runA); ++r) {
            const QModelIndex child = model.index(r, 0, runA);
            if (child.data(RunBrowserModel::NodeTypeRole).toInt() == int(RunBrowserModel::NodeType::Rank)) {
                ++rankRows;
                QCOMPARE(model.rowCount(child), 1);
            }
        }
        QCOMPARE(rankRows, 2);
        QCOMPARE(model.index(1, RunBrowserModel::SizeColumn).data().toString(), QStringLiteral("2.7 KB"));
    }

    void stateUpdates()
    {
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setManifest(sampleManifest());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        ArtifactState state;
        state.status = ImportStatus::Partial;
        state.diagnostics.append({Severity::Warning, QStringLiteral("/runs/a/events.out.tfevents.2"), 120, -1,
                                  QStringLiteral("bad data CRC")});
        state.scalarTags.insert(QStringLiteral("loss"), {10, 0, 9});
        model.setArtifactState(1, state);
        QVERIFY(changed.count() >= 2); // the artifact row and its run row
        const QModelIndex index = model.indexOfArtifact(1);
        QVERIFY(index.isValid());
        QCOMPARE(index.data(RunBrowserModel::SeverityRole).toInt(), int(Severity::Warning));
        QCOMPARE(index.data(RunBrowserModel::StatusRole).toInt(), int(ImportStatus::Partial));
        QVERIFY(index.data(Qt::ToolTipRole).toString().contains(QStringLiteral("bad data CRC")));
        QVERIFY(index.data(Qt::ToolTipRole).toString().contains(QStringLiteral("offset 120")));
        QCOMPARE(index.parent().data(RunBrowserModel::SeverityRole).toInt(), int(Severity::Warning));
        QCOMPARE(model.index(0, 0).data(RunBrowserModel::SeverityRole).toInt(), -1);
    }

    void emptyAndReset()
    {
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setManifest(sampleManifest());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.indexOfArtifact(0).isValid());
    }

    void byteSizes()
    {
        QCOMPARE(formatByteSize(999), QStringLiteral("999 B"));
        QCOMPARE(formatByteSize(1500), QStringLiteral("1.5 KB"));
        QCOMPARE(formatByteSize(250'000'000), QStringLiteral("250 MB"));
    }
};

QTEST_GUILESS_MAIN(TestRunBrowserModel)
#include "tst_runbrowsermodel.moc"
