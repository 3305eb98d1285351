#include "models/core/runbrowsermodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace runlens;
using namespace runlens::models;

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

constexpr int kDumpFiles = 321;
constexpr qint64 kDumpFileSize = 50'000;

/// The common PyTorch job layout: job/{tb/, profiler/, dump/step_0..step_59/*.npy, graph/, metrics.csv,
/// state_dict.npz}. `oneRun` names the job as one run (the folder itself); otherwise each artifact folder
/// is its own run, as folder-per-run grouping does.
RunManifest jobManifest(bool oneRun)
{
    RunManifest m;
    m.root = QStringLiteral("/runs/job");
    auto add = [&](const QString& relative, ArtifactKind kind, qint64 size = 100) {
        const QString folder
            = relative.contains(QLatin1Char('/')) ? relative.section(QLatin1Char('/'), 0, 0) : QStringLiteral(".");
        Artifact a = artifact(relative, kind, oneRun ? QStringLiteral(".") : folder, {}, size);
        a.path = QStringLiteral("/runs/job/") + relative;
        m.artifacts.append(a);
    };
    add(QStringLiteral("tb/events.out.tfevents.1.host"), ArtifactKind::TensorBoardEvents);
    add(QStringLiteral("profiler/worker0.pt.trace.json.gz"), ArtifactKind::ChromeTrace);
    add(QStringLiteral("graph/model.onnx"), ArtifactKind::GraphOnnx);
    add(QStringLiteral("graph/fx/forward.dot"), ArtifactKind::GraphDot);
    add(QStringLiteral("graph/fx/backward/grad.dot"), ArtifactKind::GraphDot);
    add(QStringLiteral("metrics.csv"), ArtifactKind::Table);
    add(QStringLiteral("state_dict.npz"), ArtifactKind::TensorNpz);
    // 321 tensors over 60 steps: 6 in the first 21 steps, 5 in the others.
    for (int step = 0, n = 0; step < 60; ++step) {
        for (int i = 0; i < (step < 21 ? 6 : 5); ++i, ++n)
            add(QStringLiteral("dump/step_%1/Default.network-Net.fc%2.Linear.output.0.DefaultFormat.npy")
                    .arg(step)
                    .arg(i),
                ArtifactKind::TensorNpy, kDumpFileSize);
    }
    // Sorted by run, then path, as RunScanner returns them.
    std::sort(m.artifacts.begin(), m.artifacts.end(), [](const Artifact& l, const Artifact& r) {
        return std::pair(l.run, l.relativePath) < std::pair(r.run, r.relativePath);
    });
    return m;
}

QModelIndex childNamed(const QAbstractItemModel& model, const QModelIndex& parent, const QString& name)
{
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex child = model.index(r, 0, parent);
        if (child.data(RunBrowserModel::NameRole).toString() == name)
            return child;
    }
    return {};
}

QStringList childNames(const QAbstractItemModel& model, const QModelIndex& parent)
{
    QStringList names;
    for (int r = 0; r < model.rowCount(parent); ++r)
        names << model.index(r, 0, parent).data(RunBrowserModel::NameRole).toString();
    return names;
}

RunBrowserModel::NodeType typeOf(const QModelIndex& index)
{
    return RunBrowserModel::NodeType(index.data(RunBrowserModel::NodeTypeRole).toInt());
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
                // The rank's own folder is the rank row: its file sits right below it.
                QCOMPARE(model.index(0, 0, child).data().toString(), QStringLiteral("trace.json"));
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
        state.diagnostics.append({ Severity::Warning, QStringLiteral("/runs/a/events.out.tfevents.2"), 120, -1,
                                   QStringLiteral("bad data CRC") });
        state.scalarTags.insert(QStringLiteral("loss"), { 10, 0, 9 });
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

    void jobAsOneRun()
    {
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const RunManifest manifest = jobManifest(true);
        QCOMPARE(manifest.artifacts.size(), 7 + kDumpFiles);
        model.setManifest(manifest);
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex run = model.index(0, 0);
        QCOMPARE(run.data().toString(), QStringLiteral("job"));
        QVERIFY(run.data(RunBrowserModel::DefaultExpandedRole).toBool());
        // Folders first, then files, by name.
        QCOMPARE(
            childNames(model, run),
            (QStringList { QStringLiteral("dump"), QStringLiteral("graph"), QStringLiteral("profiler"),
                           QStringLiteral("tb"), QStringLiteral("metrics.csv"), QStringLiteral("state_dict.npz") }));

        const QModelIndex dump = childNamed(model, run, QStringLiteral("dump"));
        QCOMPARE(typeOf(dump), RunBrowserModel::NodeType::Folder);
        QCOMPARE(dump.data().toString(), QStringLiteral("dump — 321 tensors, steps 0–59, 16 MB"));
        QCOMPARE(dump.siblingAtColumn(RunBrowserModel::KindColumn).data().toString(), QStringLiteral("321 file(s)"));
        QCOMPARE(dump.siblingAtColumn(RunBrowserModel::SizeColumn).data().toString(), QStringLiteral("16 MB"));
        QCOMPARE(dump.data(RunBrowserModel::PathRole).toString(), QStringLiteral("/runs/job/dump"));
        QVERIFY(dump.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("/runs/job/dump")));
        QCOMPARE(dump.data(RunBrowserModel::ArtifactIndexRole).toInt(), -1);
        QCOMPARE(dump.data(RunBrowserModel::RunRole).toString(), QStringLiteral("."));
        // 321 files: collapsed until the user opens it.
        QVERIFY(!dump.data(RunBrowserModel::DefaultExpandedRole).toBool());

        // Steps in counting order, each folder collapsed among its 60 siblings; inside the dump folder the
        // step folders count files instead of repeating the summary.
        QCOMPARE(model.rowCount(dump), 60);
        QCOMPARE(model.index(2, 0, dump).data(RunBrowserModel::NameRole).toString(), QStringLiteral("step_2"));
        QCOMPARE(model.index(10, 0, dump).data(RunBrowserModel::NameRole).toString(), QStringLiteral("step_10"));
        const QModelIndex step0 = model.index(0, 0, dump);
        QCOMPARE(step0.data().toString(), QStringLiteral("step_0"));
        QCOMPARE(step0.siblingAtColumn(RunBrowserModel::KindColumn).data().toString(), QStringLiteral("6 file(s)"));
        QCOMPARE(step0.siblingAtColumn(RunBrowserModel::SizeColumn).data().toString(), QStringLiteral("300 KB"));
        QVERIFY(!step0.data(RunBrowserModel::DefaultExpandedRole).toBool());
        const QModelIndex file = model.index(3, 0, step0);
        QCOMPARE(typeOf(file), RunBrowserModel::NodeType::Artifact);
        // The whole file name, and its absolute path in the tooltip.
        QCOMPARE(file.data().toString(), QStringLiteral("Default.network-Net.fc3.Linear.output.0.DefaultFormat.npy"));
        QVERIFY(file.data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral(
                        "/runs/job/dump/step_0/Default.network-Net.fc3.Linear.output.0.DefaultFormat.npy")));
        const int artifactIndex = file.data(RunBrowserModel::ArtifactIndexRole).toInt();
        QCOMPARE(manifest.artifacts[artifactIndex].relativePath,
                 QStringLiteral("dump/step_0/Default.network-Net.fc3.Linear.output.0.DefaultFormat.npy"));
        QCOMPARE(model.indexOfArtifact(artifactIndex), file);

        // Nested folders of a small folder start open; other folders count their files.
        const QModelIndex graph = childNamed(model, run, QStringLiteral("graph"));
        QVERIFY(graph.data(RunBrowserModel::DefaultExpandedRole).toBool());
        QCOMPARE(graph.data().toString(), QStringLiteral("graph"));
        QCOMPARE(graph.siblingAtColumn(RunBrowserModel::KindColumn).data().toString(), QStringLiteral("3 file(s)"));
        QCOMPARE(childNames(model, graph), (QStringList { QStringLiteral("fx"), QStringLiteral("model.onnx") }));
        const QModelIndex fx = childNamed(model, graph, QStringLiteral("fx"));
        QCOMPARE(childNames(model, fx), (QStringList { QStringLiteral("backward"), QStringLiteral("forward.dot") }));
        const QModelIndex backward = childNamed(model, fx, QStringLiteral("backward"));
        QCOMPARE(backward.data(RunBrowserModel::PathRole).toString(), QStringLiteral("/runs/job/graph/fx/backward"));
        QCOMPARE(model.index(0, 0, backward).data().toString(), QStringLiteral("grad.dot"));

        // A lone tensor file is not a folder of tensors.
        const QModelIndex npz = childNamed(model, run, QStringLiteral("state_dict.npz"));
        QCOMPARE(typeOf(npz), RunBrowserModel::NodeType::Artifact);
    }

    void folderPerRun()
    {
        // Each artifact folder its own run: the tree starts below the run's folder.
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setManifest(jobManifest(false));
        QModelIndex dump;
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.index(r, 0).data(RunBrowserModel::RunRole).toString() == QLatin1String("dump"))
                dump = model.index(r, 0);
        }
        QVERIFY(dump.isValid());
        QCOMPARE(typeOf(dump), RunBrowserModel::NodeType::Run);
        QCOMPARE(model.rowCount(dump), 60);
        // Outside a dump folder each step folder summarises its tensors; its name already says the step.
        const QModelIndex step12 = model.index(12, 0, dump);
        QCOMPARE(step12.data().toString(), QStringLiteral("step_12 — 6 tensors, 300 KB"));
        QCOMPARE(model.index(30, 0, dump).data().toString(), QStringLiteral("step_30 — 5 tensors, 250 KB"));
        QVERIFY(!step12.data(RunBrowserModel::DefaultExpandedRole).toBool());
        QCOMPARE(model.index(0, 0, step12).data().toString(),
                 QStringLiteral("Default.network-Net.fc0.Linear.output.0.DefaultFormat.npy"));
    }

    void stepRangeAndMixedFolders_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("summary");
        QTest::newRow("one step") << QStringList { QStringLiteral("dump/step_7/a.npy"),
                                                   QStringLiteral("dump/step_7/b.npy") }
                                  << QStringLiteral("dump — 2 tensors, step 7, 200 B");
        QTest::newRow("Iteration_N and stepN")
            << QStringList { QStringLiteral("tensors/Iteration_3/a.npy"), QStringLiteral("tensors/step12/b.npy") }
            << QStringLiteral("tensors — 2 tensors, steps 3–12, 200 B");
        QTest::newRow("no steps") << QStringList { QStringLiteral("weights/a.safetensors") }
                                  << QStringLiteral("weights — 1 tensor, 100 B");
        QTest::newRow("dump with statistics")
            << QStringList { QStringLiteral("dump/step_1/a.npy"), QStringLiteral("dump/statistic.csv") }
            << QStringLiteral("dump — 1 tensor, step 1, 200 B");
        QTest::newRow("not a tensor folder")
            << QStringList { QStringLiteral("out/a.npy"), QStringLiteral("out/model.onnx") } << QStringLiteral("out");
    }

    void stepRangeAndMixedFolders()
    {
        QFETCH(QStringList, files);
        QFETCH(QString, summary);
        RunManifest m;
        m.root = QStringLiteral("/runs");
        for (const QString& f : files) {
            ArtifactKind kind = ArtifactKind::TensorNpy;
            if (f.endsWith(QLatin1String(".onnx")))
                kind = ArtifactKind::GraphOnnx;
            else if (f.endsWith(QLatin1String(".csv")))
                kind = ArtifactKind::Table;
            else if (f.endsWith(QLatin1String(".safetensors")))
                kind = ArtifactKind::TensorSafetensors;
            m.artifacts.append(artifact(f, kind, QStringLiteral(".")));
        }
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setManifest(m);
        QCOMPARE(model.index(0, 0, model.index(0, 0)).data().toString(), summary);
    }

    // A folder holding nothing but one folder shares its row with it: msprobe's step0/rank/ chain is one row
    // named by its path, and the row's path is the innermost folder. Step folders keep their own rows.
    void foldersOfOneFolderShareARow()
    {
        RunManifest m;
        m.root = QStringLiteral("/runs");
        m.artifacts = {
            artifact(QStringLiteral("msprobe/step0/rank/construct.json"), ArtifactKind::MsprobeDump,
                     QStringLiteral(".")),
            artifact(QStringLiteral("msprobe/step0/rank/dump_tensor_data/Module.fc.forward.0.input.0.pt"),
                     ArtifactKind::TensorPt, QStringLiteral(".")),
            artifact(QStringLiteral("msprobe/step0/rank/dump_tensor_data/Module.fc.forward.0.output.0.pt"),
                     ArtifactKind::TensorPt, QStringLiteral(".")),
            artifact(QStringLiteral("graph/fx/forward.dot"), ArtifactKind::GraphDot, QStringLiteral(".")),
            artifact(QStringLiteral("graph/model.onnx"), ArtifactKind::GraphOnnx, QStringLiteral(".")),
        };
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setManifest(m);
        const QModelIndex run = model.index(0, 0);
        QCOMPARE(childNames(model, run), (QStringList { QStringLiteral("graph"), QStringLiteral("msprobe") }));
        const QModelIndex msprobe = childNamed(model, run, QStringLiteral("msprobe"));
        QCOMPARE(childNames(model, msprobe), QStringList { QStringLiteral("step0/rank") });
        const QModelIndex chain = childNamed(model, msprobe, QStringLiteral("step0/rank"));
        QCOMPARE(chain.data(RunBrowserModel::PathRole).toString(), QStringLiteral("/runs/msprobe/step0/rank"));
        QCOMPARE(model.rowCount(chain), 2);
        const QModelIndex data = childNamed(model, chain, QStringLiteral("dump_tensor_data"));
        QVERIFY(data.isValid());
        QCOMPARE(model.rowCount(data), 2);
        QCOMPARE(model.parent(model.index(0, 0, data)), data);
        QCOMPARE(model.parent(data), chain);
        QCOMPARE(model.parent(chain), msprobe);
        // A folder beside a file keeps its own row.
        const QModelIndex graph = childNamed(model, run, QStringLiteral("graph"));
        QCOMPARE(childNames(model, graph), (QStringList { QStringLiteral("fx"), QStringLiteral("model.onnx") }));
        // Every artifact is still found at its row.
        for (int i = 0; i < m.artifacts.size(); ++i) {
            const QModelIndex row = model.indexOfArtifact(i);
            QVERIFY(row.isValid());
            QCOMPARE(row.data(RunBrowserModel::PathRole).toString(), m.artifacts[i].path);
        }
    }

    void filterKeepsParents()
    {
        RunBrowserModel model;
        model.setManifest(jobManifest(true));
        QSortFilterProxyModel proxy;
        RunBrowserModel::configureFilter(&proxy);
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        // A file name: its run and folders stay, so the match is shown where it lives.
        proxy.setFilterFixedString(QStringLiteral("FC3.linear"));
        QCOMPARE(proxy.rowCount(), 1);
        const QModelIndex run = proxy.index(0, 0);
        QCOMPARE(childNames(proxy, run), QStringList { QStringLiteral("dump") });
        const QModelIndex dump = proxy.index(0, 0, run);
        QCOMPARE(proxy.rowCount(dump), 60);
        QCOMPARE(childNames(proxy, proxy.index(59, 0, dump)),
                 QStringList { QStringLiteral("Default.network-Net.fc3.Linear.output.0.DefaultFormat.npy") });

        // A folder name: the folder keeps its contents.
        proxy.setFilterFixedString(QStringLiteral("step_42"));
        QCOMPARE(childNames(proxy, proxy.index(0, 0, proxy.index(0, 0))), QStringList { QStringLiteral("step_42") });
        QCOMPARE(proxy.rowCount(proxy.index(0, 0, proxy.index(0, 0, proxy.index(0, 0)))), 5);

        // The filter matches names, not the summary text.
        proxy.setFilterFixedString(QStringLiteral("tensors"));
        QCOMPARE(proxy.rowCount(), 0);

        proxy.setFilterFixedString(QStringLiteral("backward"));
        const QModelIndex graph = proxy.index(0, 0, proxy.index(0, 0));
        QCOMPARE(graph.data(RunBrowserModel::NameRole).toString(), QStringLiteral("graph"));
        QCOMPARE(proxy.rowCount(proxy.index(0, 0, proxy.index(0, 0, graph))), 1); // fx/backward/grad.dot

        proxy.setFilterFixedString(QString());
        QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 6);
    }

    void ranksBelowOneRun()
    {
        // One run for the job with a folder per rank: the rank row stands for the rank folder.
        RunManifest m;
        m.root = QStringLiteral("/runs");
        for (int rank = 0; rank < 2; ++rank) {
            m.artifacts.append(artifact(QStringLiteral("rank_%1/dump/step_1/a.npy").arg(rank), ArtifactKind::TensorNpy,
                                        QStringLiteral("."), rank));
            m.artifacts.append(artifact(QStringLiteral("rank_%1/profiler/trace.json").arg(rank),
                                        ArtifactKind::ChromeTrace, QStringLiteral("."), rank));
        }
        m.artifacts.append(
            artifact(QStringLiteral("tb/events.out.tfevents.1"), ArtifactKind::TensorBoardEvents, QStringLiteral(".")));
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setManifest(m);
        const QModelIndex run = model.index(0, 0);
        QCOMPARE(childNames(model, run),
                 (QStringList { QStringLiteral("tb"), QStringLiteral("rank 0"), QStringLiteral("rank 1") }));
        const QModelIndex rank1 = model.index(2, 0, run);
        QCOMPARE(typeOf(rank1), RunBrowserModel::NodeType::Rank);
        QCOMPARE(childNames(model, rank1), (QStringList { QStringLiteral("dump"), QStringLiteral("profiler") }));
        const QModelIndex dump = model.index(0, 0, rank1);
        QCOMPARE(dump.data().toString(), QStringLiteral("dump — 1 tensor, step 1, 100 B"));
        QCOMPARE(dump.data(RunBrowserModel::PathRole).toString(), QStringLiteral("/runs/rank_1/dump"));
    }

    // A run named by its logger is not a folder: its tooltip names the folder that holds it.
    void loggerNamedRunShowsItsFolder()
    {
        RunManifest m;
        m.root = QStringLiteral("/runs");
        m.artifacts.append(artifact(QStringLiteral("wandb/offline-run-20261127_101010-abc123/run-abc123.wandb"),
                                    ArtifactKind::WandbRun, QStringLiteral("wandb/bright-fox-7")));
        m.artifacts.append(
            artifact(QStringLiteral("wandb/plain/metrics.csv"), ArtifactKind::Table, QStringLiteral("wandb/plain")));
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setManifest(m);
        QCOMPARE(model.index(0, 0).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("/runs/wandb/offline-run-20261127_101010-abc123"));
        QCOMPARE(model.index(1, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("/runs/wandb/plain"));
    }

    // A job of many ranks lists them collapsed; a few ranks start open.
    void manyRanksStartCollapsed()
    {
        for (const int ranks : { 2, 64 }) {
            RunManifest m;
            m.root = QStringLiteral("/runs");
            for (int rank = 0; rank < ranks; ++rank)
                m.artifacts.append(artifact(QStringLiteral("rank-%1.rldigest").arg(rank), ArtifactKind::RankDigest,
                                            QStringLiteral("."), rank));
            RunBrowserModel model;
            QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
            model.setManifest(m);
            const QModelIndex run = model.index(0, 0);
            QCOMPARE(model.rowCount(run), ranks);
            const QModelIndex first = model.index(0, 0, run);
            QCOMPARE(typeOf(first), RunBrowserModel::NodeType::Rank);
            QCOMPARE(first.data(RunBrowserModel::DefaultExpandedRole).toBool(), ranks == 2);
        }
    }

    // A thousand-rank job is a few rows of 64 ranks under its run, each closed, not a thousand rank rows.
    void thousandRanksInRanges()
    {
        RunManifest m;
        m.root = QStringLiteral("/runs");
        const int ranks = 1024 + 3;
        for (int rank = 0; rank < ranks; ++rank)
            m.artifacts.append(artifact(QStringLiteral("rank-%1.rldigest").arg(rank), ArtifactKind::RankDigest,
                                        QStringLiteral("."), rank));
        m.artifacts.append(artifact(QStringLiteral("job.json"), ArtifactKind::ChromeTrace, QStringLiteral(".")));
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setManifest(m);
        const QModelIndex run = model.index(0, 0);
        // The unranked file, then 17 ranges: 16 full ones and the last three ranks.
        QCOMPARE(model.rowCount(run), 1 + 17);
        QCOMPARE(typeOf(model.index(0, 0, run)), RunBrowserModel::NodeType::Artifact);
        const QModelIndex firstRange = model.index(1, 0, run);
        QCOMPARE(typeOf(firstRange), RunBrowserModel::NodeType::RankRange);
        QCOMPARE(firstRange.data().toString(), QStringLiteral("ranks 0–63"));
        QCOMPARE(firstRange.data(RunBrowserModel::DefaultExpandedRole).toBool(), false);
        QCOMPARE(model.rowCount(firstRange), RunBrowserModel::kRankRangeSize);
        QCOMPARE(model.index(63, 0, firstRange).data().toString(), QStringLiteral("rank 63"));
        const QModelIndex lastRange = model.index(17, 0, run);
        QCOMPARE(lastRange.data().toString(), QStringLiteral("ranks 1024–1026"));
        QCOMPARE(model.rowCount(lastRange), 3);
        QCOMPARE(lastRange.siblingAtColumn(RunBrowserModel::KindColumn).data().toString(), QStringLiteral("3 rank(s)"));
        // Filtering finds a rank inside its range.
        QSortFilterProxyModel proxy;
        RunBrowserModel::configureFilter(&proxy);
        proxy.setSourceModel(&model);
        proxy.setFilterFixedString(QStringLiteral("rank 700"));
        const QModelIndex proxyRun = proxy.index(0, 0);
        QCOMPARE(proxy.rowCount(proxyRun), 1);
        QCOMPARE(proxy.index(0, 0, proxyRun).data().toString(), QStringLiteral("ranks 640–703"));
        QCOMPARE(proxy.rowCount(proxy.index(0, 0, proxyRun)), 1);
    }

    void stateWords()
    {
        RunBrowserModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const RunManifest manifest = jobManifest(true);
        model.setManifest(manifest);
        int trace = -1;
        int onnx = -1;
        for (int i = 0; i < manifest.artifacts.size(); ++i) {
            if (manifest.artifacts[i].kind == ArtifactKind::ChromeTrace)
                trace = i;
            if (manifest.artifacts[i].kind == ArtifactKind::GraphOnnx)
                onnx = i;
        }
        ArtifactState ok;
        ok.status = ImportStatus::Ok;
        for (int i = 0; i < manifest.artifacts.size(); ++i)
            model.setArtifactState(i, ok);
        ArtifactState deferred;
        deferred.status = ImportStatus::Deferred;
        model.setArtifactState(trace, deferred);
        QCOMPARE(model.indexOfArtifact(trace).siblingAtColumn(RunBrowserModel::StatusColumn).data().toString(),
                 QStringLiteral("double-click to open"));
        ArtifactState failed;
        failed.status = ImportStatus::Failed;
        failed.diagnostics.append(
            { Severity::Error, manifest.artifacts[onnx].path, -1, -1, QStringLiteral("truncated") });
        model.setArtifactState(onnx, failed);
        const QModelIndex onnxIndex = model.indexOfArtifact(onnx);
        QCOMPARE(onnxIndex.siblingAtColumn(RunBrowserModel::StatusColumn).data().toString(),
                 QStringLiteral("failed — hover for why"));
        QVERIFY(onnxIndex.data(Qt::ToolTipRole).toString().contains(QStringLiteral("truncated")));
        // The folder holding it says so and carries the severity up.
        const QModelIndex graph = onnxIndex.parent();
        QCOMPARE(graph.data(RunBrowserModel::NameRole).toString(), QStringLiteral("graph"));
        QCOMPARE(graph.siblingAtColumn(RunBrowserModel::StatusColumn).data().toString(),
                 QStringLiteral("1 file(s) with problems"));
        QCOMPARE(graph.data(RunBrowserModel::SeverityRole).toInt(), int(Severity::Error));
        model.setArtifactState(onnx, ok);
        QCOMPARE(onnxIndex.siblingAtColumn(RunBrowserModel::StatusColumn).data().toString(),
                 QStringLiteral("imported"));
        QCOMPARE(graph.siblingAtColumn(RunBrowserModel::StatusColumn).data().toString(), QString());
        QCOMPARE(graph.data(RunBrowserModel::SeverityRole).toInt(), -1);
        // Totals follow the states: a file read past its scanned size grows its folders and run.
        ArtifactState grown = ok;
        grown.bytesRead = 1'000'000;
        model.setArtifactState(onnx, grown);
        QCOMPARE(graph.siblingAtColumn(RunBrowserModel::SizeColumn).data().toString(), QStringLiteral("1.0 MB"));
        QCOMPARE(model.index(0, RunBrowserModel::SizeColumn).data().toString(), QStringLiteral("17 MB"));
        QCOMPARE(model.index(0, RunBrowserModel::StatusColumn).data().toString(), QStringLiteral("328 file(s)"));
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
