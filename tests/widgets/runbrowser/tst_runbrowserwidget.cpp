#include "widgets/runbrowser/runbrowserwidget.h"

#include "models/core/runbrowsermodel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QtTest>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::widgets::runbrowser;

namespace {

Artifact artifact(const QString& relative, ArtifactKind kind, qint64 size = 1000)
{
    Artifact a;
    a.path = QStringLiteral("/data/job/") + relative;
    a.relativePath = relative;
    a.kind = kind;
    a.run = QStringLiteral(".");
    a.size = size;
    return a;
}

/// A job folder read as one run: a dump of 321 tensors in step_0..step_59 and a few small folders.
RunManifest jobManifest()
{
    RunManifest m;
    m.root = QStringLiteral("/data/job");
    for (int step = 0; step < 60; ++step) {
        for (int i = 0; i < (step < 21 ? 6 : 5); ++i)
            m.artifacts.append(
                artifact(QStringLiteral("dump/step_%1/Default.network-Net.fc%2.Linear.output.0.DefaultFormat.npy")
                             .arg(step)
                             .arg(i),
                         ArtifactKind::TensorNpy, 50'000));
    }
    m.artifacts.append(artifact(QStringLiteral("graph/fx/forward.dot"), ArtifactKind::GraphDot));
    m.artifacts.append(artifact(QStringLiteral("graph/model.onnx"), ArtifactKind::GraphOnnx));
    m.artifacts.append(artifact(QStringLiteral("metrics.csv"), ArtifactKind::Table));
    m.artifacts.append(
        artifact(QStringLiteral("profiler/worker0.1623143089861.pt.trace.json.gz"), ArtifactKind::ChromeTrace));
    m.artifacts.append(artifact(QStringLiteral("state_dict.npz"), ArtifactKind::TensorNpz));
    m.artifacts.append(
        artifact(QStringLiteral("tb/events.out.tfevents.1771594466.host.21024.0"), ArtifactKind::TensorBoardEvents));
    return m;
}

QModelIndex childNamed(const QAbstractItemModel* model, const QModelIndex& parent, const QString& name)
{
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex child = model->index(r, 0, parent);
        if (child.data(RunBrowserModel::NameRole).toString() == name)
            return child;
    }
    return {};
}

} // namespace

class TestRunBrowserWidget : public QObject
{
    Q_OBJECT
private slots:
    void defaultExpansionAndFilter()
    {
        RunBrowserModel model;
        RunBrowserWidget widget(&model);
        widget.resize(420, 500);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        model.setManifest(jobManifest());

        QTreeView* view = widget.view();
        const QAbstractItemModel* shown = view->model();
        const QModelIndex run = shown->index(0, 0);
        const QModelIndex dump = childNamed(shown, run, QStringLiteral("dump"));
        const QModelIndex graph = childNamed(shown, run, QStringLiteral("graph"));
        const QModelIndex fx = childNamed(shown, graph, QStringLiteral("fx"));
        QVERIFY(view->isExpanded(run));
        QVERIFY(!view->isExpanded(dump)); // 321 files
        QVERIFY(view->isExpanded(graph));
        QVERIFY(view->isExpanded(fx));

        // Filtering opens the way to each match, and clearing it returns to the default.
        auto* filter = widget.findChild<QLineEdit*>();
        QVERIFY(filter);
        filter->setText(QStringLiteral("fc3.Linear"));
        const QModelIndex filteredDump = childNamed(shown, shown->index(0, 0), QStringLiteral("dump"));
        QVERIFY(filteredDump.isValid());
        QVERIFY(view->isExpanded(filteredDump));
        QCOMPARE(shown->rowCount(filteredDump), 60);
        const QModelIndex step59 = shown->index(59, 0, filteredDump);
        QVERIFY(view->isExpanded(step59));
        QCOMPARE(shown->rowCount(step59), 1);
        QVERIFY(view->visualRect(shown->index(0, 0, step59)).isValid());

        filter->clear();
        QVERIFY(!view->isExpanded(childNamed(shown, shown->index(0, 0), QStringLiteral("dump"))));
        QVERIFY(view->isExpanded(childNamed(shown, shown->index(0, 0), QStringLiteral("graph"))));
    }

    // At the width the main window gives the Run Browser dock, Kind, Size and State stay in view beside the
    // names, which are cut at their end (never in the middle) with the absolute path in the tooltip; in a wide
    // dock the whole name fits.
    void namesAndStatesFit()
    {
        constexpr int kDefaultDockWidth = 440;
        RunBrowserModel model;
        RunBrowserWidget widget(&model);
        widget.resize(kDefaultDockWidth, 500);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        const RunManifest manifest = jobManifest();
        model.setManifest(manifest);
        const int trace
            = manifest.indexOfPath(QStringLiteral("/data/job/profiler/worker0.1623143089861.pt.trace.json.gz"));
        ArtifactState deferred;
        deferred.status = ImportStatus::Deferred;
        model.setArtifactState(trace, deferred);
        QCoreApplication::processEvents();

        QTreeView* view = widget.view();
        QHeaderView* header = view->header();
        QCOMPARE(view->textElideMode(), Qt::ElideRight);
        const QModelIndex traceRow = childNamed(
            view->model(), childNamed(view->model(), view->model()->index(0, 0), QStringLiteral("profiler")),
            QStringLiteral("worker0.1623143089861.pt.trace.json.gz"));
        QVERIFY(traceRow.isValid());
        QCOMPARE(traceRow.data(Qt::ToolTipRole).toString().section(u'\n', 0, 0),
                 QStringLiteral("/data/job/profiler/worker0.1623143089861.pt.trace.json.gz"));

        const auto columnsInView = [&] {
            const int viewport = view->viewport()->width();
            for (int column :
                 { RunBrowserModel::KindColumn, RunBrowserModel::SizeColumn, RunBrowserModel::StatusColumn }) {
                const int left = header->sectionViewportPosition(column);
                const int right = left + header->sectionSize(column);
                if (left < 0 || right > viewport) {
                    qWarning("column %d spans %d..%d, the viewport is %d wide", column, left, right, viewport);
                    return false;
                }
            }
            return true;
        };
        QVERIFY(columnsInView());
        QCOMPARE(view->horizontalScrollBar()->maximum(), 0);
        // Name has a good part of the width, and the State column holds its words.
        const QFontMetrics metrics = view->fontMetrics();
        QVERIFY(header->sectionSize(RunBrowserModel::NameColumn) >= view->viewport()->width() / 3);
        const QString state = traceRow.siblingAtColumn(RunBrowserModel::StatusColumn).data().toString();
        QCOMPARE(state, QStringLiteral("double-click to open"));
        QVERIFY(header->sectionSize(RunBrowserModel::StatusColumn) > metrics.horizontalAdvance(state));
        QVERIFY(header->sectionSize(RunBrowserModel::SizeColumn)
                >= metrics.horizontalAdvance(traceRow.siblingAtColumn(RunBrowserModel::SizeColumn).data().toString()));

        // Wide, the whole name fits its column.
        widget.resize(1000, 500);
        QCoreApplication::processEvents();
        QVERIFY(columnsInView());
        const QRect nameRect = view->visualRect(traceRow);
        const int nameRight = header->sectionViewportPosition(RunBrowserModel::NameColumn)
            + header->sectionSize(RunBrowserModel::NameColumn);
        QVERIFY2(
            nameRight - nameRect.left() > metrics.horizontalAdvance(traceRow.data().toString()),
            qPrintable(QStringLiteral("name column ends at %1, row starts at %2").arg(nameRight).arg(nameRect.left())));

        // Narrower than the default, the columns still show.
        widget.resize(360, 500);
        QCoreApplication::processEvents();
        QVERIFY(columnsInView());
    }
};

QTEST_MAIN(TestRunBrowserWidget)
#include "tst_runbrowserwidget.moc"
