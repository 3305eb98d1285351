#include "models/core/timerange.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/runcomparison.h"
#include "models/summary/summarystore.h"
#include "tests/widgets/scalars/scalartestdata.h"
#include "widgets/advisor/advisorpanel.h"
#include "widgets/cluster/clusterpanel.h"
#include "widgets/common/panelheader.h"
#include "widgets/compare/comparerunspanel.h"
#include "widgets/compare/parallelcoordinateschart.h"
#include "widgets/distributions/distributionspanel.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/images/imagespanel.h"
#include "widgets/images/textpanel.h"
#include "widgets/memory/memorypanel.h"
#include "widgets/operators/operatorspanel.h"
#include "widgets/overview/overviewpanel.h"
#include "widgets/pipeline/datapipelinepanel.h"
#include "widgets/prcurves/prcurvespanel.h"
#include "widgets/scalars/scalarspanel.h"
#include "widgets/steps/stepspanel.h"
#include "widgets/tensor/tensorpanel.h"

#include <QLabel>
#include <QLayout>
#include <QMenu>
#include <QStackedWidget>
#include <QTableView>
#include <QtTest>

#include <functional>
#include <memory>

using namespace runlens;
using namespace runlens::models::scalars;
using namespace runlens::widgets;
using namespace runlens::widgets::cluster;
using namespace runlens::widgets::memory;
using namespace runlens::widgets::operators;
using namespace runlens::widgets::overview;
using namespace runlens::widgets::pipeline;
using namespace runlens::widgets::scalars;
using namespace runlens::widgets::steps;
using runlens::test::makeTag;

// Every panel's top row is a PanelHeader, and none makes a dock wider than its default: at 360 px the
// header fits, nothing in it is cut off at the edge, and the Scalars tag count keeps its whole text (it
// used to read "48 of 4…" with the options cut off to its right). Compare Runs names the opened
// folder's own run after the folder, in its table, tooltips and chart, never ".".

namespace {

constexpr int kNarrowDock = 360;

using PanelFactory = std::function<QWidget*(QWidget* parent)>;

/// The panel's top row: the first widget of its layout, or the header at the top of the page that holds
/// the panel's content (Memory).
PanelHeader* topHeader(QWidget* panel)
{
    QLayout* layout = panel->layout();
    if (!layout)
        return nullptr;
    for (int i = 0; i < layout->count(); ++i) {
        QWidget* widget = layout->itemAt(i)->widget();
        if (!widget)
            continue;
        if (auto* header = qobject_cast<PanelHeader*>(widget))
            return header;
        if (qobject_cast<QStackedWidget*>(widget))
            return widget->findChild<PanelHeader*>();
        return nullptr;
    }
    return nullptr;
}

} // namespace

class TestPanelHeaders : public QObject
{
    Q_OBJECT

private:
    ScalarStore m_scalars;
    models::summary::SummaryStore m_summaries;

private slots:
    void initTestCase()
    {
        // 48 tags, as a real job logs them, in the folder's own run "." and in one run below it.
        m_scalars.setRoot(QStringLiteral("/data/jobs/resnet_job"));
        m_summaries.setRoot(QStringLiteral("/data/jobs/resnet_job"));
        for (const QString& run : { QStringLiteral("."), QStringLiteral("exp1") }) {
            ScalarBatch batch;
            for (int t = 0; t < 48; ++t) {
                batch.push_back(makeTag(QStringLiteral("group%1/metric_%2").arg(t / 8).arg(t), 20,
                                        [t](int i) { return std::sin(i * 0.3 + t); }));
            }
            m_scalars.append(run, batch);
        }
    }

    void everyHeaderFitsTheDefaultDock_data()
    {
        QTest::addColumn<PanelFactory>("factory");
        QTest::newRow("Scalars") << PanelFactory([this](QWidget* p) { return new ScalarsPanel(&m_scalars, p); });
        QTest::newRow("Distributions") << PanelFactory(
            [this](QWidget* p) { return new widgets::distributions::DistributionsPanel(&m_summaries, p); });
        QTest::newRow("Images") << PanelFactory(
            [this](QWidget* p) { return new widgets::images::ImagesPanel(&m_summaries, p); });
        QTest::newRow("Text") << PanelFactory(
            [this](QWidget* p) { return new widgets::images::TextPanel(&m_summaries, p); });
        QTest::newRow("PR Curves") << PanelFactory(
            [this](QWidget* p) { return new widgets::prcurves::PrCurvesPanel(&m_summaries, p); });
        QTest::newRow("Graph") << PanelFactory([](QWidget* p) { return new runlens::widgets::graph::GraphPanel(p); });
        QTest::newRow("Tensors") << PanelFactory(
            [](QWidget* p) { return new runlens::widgets::tensor::TensorPanel(p); });
        QTest::newRow("Compare Runs") << PanelFactory(
            [this](QWidget* p) { return new widgets::compare::CompareRunsPanel(&m_scalars, &m_summaries, p); });
        QTest::newRow("Overview") << PanelFactory([](QWidget* p) { return new OverviewPanel(p); });
        QTest::newRow("Operators") << PanelFactory([](QWidget* p) { return new OperatorsPanel(p); });
        QTest::newRow("Data Pipeline") << PanelFactory([](QWidget* p) { return new DataPipelinePanel(p); });
        QTest::newRow("Steps") << PanelFactory([](QWidget* p) { return new StepsPanel(p); });
        QTest::newRow("Advisor") << PanelFactory([](QWidget* p) { return new widgets::advisor::AdvisorPanel(p); });
        QTest::newRow("Cluster") << PanelFactory([](QWidget* p) { return new ClusterPanel(p); });
        QTest::newRow("Memory") << PanelFactory([](QWidget* p) { return new MemoryPanel(p); });
    }

    void everyHeaderFitsTheDefaultDock()
    {
        QFETCH(PanelFactory, factory);
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        layout->setContentsMargins(0, 0, 0, 0);
        QWidget* panel = factory(&window);
        layout->addWidget(panel);

        PanelHeader* header = topHeader(panel);
        QVERIFY2(header, "the panel's top row is not a PanelHeader");
        QVERIFY2(header->minimumSizeHint().width() <= kNarrowDock,
                 qPrintable(QStringLiteral("minimum width %1").arg(header->minimumSizeHint().width())));

        // Steps and Memory are wider than that for their content below the header (a table's columns).
        const int width = std::max(kNarrowDock, panel->minimumSizeHint().width());
        window.resize(width, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(panel->width(), width);
        QTRY_VERIFY(header->width() <= width);
        // Nothing in the row is cut off at the panel's edge: a widget either fits or is in the "…" menu.
        QCoreApplication::processEvents();
        for (QWidget* child : header->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
            if (child->isVisible() && !child->isWindow()) {
                QVERIFY2(header->rect().contains(child->geometry()),
                         qPrintable(QStringLiteral("%1 (%2) at %3..%4 of %5")
                                        .arg(child->objectName(), QString::fromUtf8(child->metaObject()->className()))
                                        .arg(child->geometry().left())
                                        .arg(child->geometry().right())
                                        .arg(header->width())));
            }
        }
        // Widgets that left the row are all in its menu.
        if (!header->overflowWidgets().isEmpty()) {
            QVERIFY(header->overflowButton()->isVisible());
            QVERIFY(!header->overflowMenu()->actions().isEmpty());
        }
    }

    void scalarsTagCountIsReadableInANarrowDock()
    {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* panel = new ScalarsPanel(&m_scalars, &window);
        layout->addWidget(panel);
        window.resize(kNarrowDock, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        PanelHeader* header = topHeader(panel);
        QVERIFY(header);
        auto* count = header->findChild<QLabel*>(QStringLiteral("summary"));
        QVERIFY(count);
        QTRY_VERIFY(count->text().startsWith(QStringLiteral("48 of 48 tags")));
        QTRY_VERIFY(count->isVisible());
        QTRY_VERIFY(count->width() >= count->fontMetrics().horizontalAdvance(count->text()));
        QVERIFY(header->rect().contains(count->geometry()));
        // The options that did not fit went into the "…" menu, buttons first.
        QVERIFY(header->overflowButton()->isVisible());
        QVERIFY(header->overflowWidgets().contains(header->findChild<QWidget*>(QStringLiteral("cardSize"))));
        QVERIFY(header->overflowWidgets().contains(header->findChild<QWidget*>(QStringLiteral("fitAll"))));
        QStringList entries;
        for (QAction* action : header->overflowMenu()->actions())
            entries << action->text();
        QVERIFY2(entries.contains(QStringLiteral("Fit All")), qPrintable(entries.join(QLatin1String(", "))));
        QVERIFY2(entries.contains(QStringLiteral("Cards")), qPrintable(entries.join(QLatin1String(", "))));
    }

    void compareRunsNamesTheFolderRunAfterTheFolder()
    {
        widgets::compare::CompareRunsPanel panel(&m_scalars, &m_summaries);
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const models::summary::RunComparison* model = panel.model();
        QTRY_COMPARE(model->rowCount(), 2);
        QStringList names;
        for (int row = 0; row < model->rowCount(); ++row) {
            names << model->index(row, 0).data().toString();
            for (int column = 0; column < model->columnCount(); ++column) {
                const QString tip = model->index(row, column).data(Qt::ToolTipRole).toString();
                QVERIFY2(!tip.contains(QLatin1String("Run: .")), qPrintable(tip));
                QVERIFY2(!tip.contains(QLatin1String("<b>.</b>")), qPrintable(tip));
            }
        }
        names.sort();
        QCOMPARE(names, (QStringList { QStringLiteral("exp1"), QStringLiteral("resnet_job") }));
        // The chart's tooltips and exports name runs the same way.
        widgets::compare::ParallelCoordinatesChart* chart = panel.chart();
        for (const QString& run : { QStringLiteral("."), QStringLiteral("exp1") }) {
            const QString tip = chart->runToolTip(run);
            QVERIFY2(!tip.contains(QLatin1String("<b>.</b>")), qPrintable(tip));
            QVERIFY2(!tip.contains(QLatin1String("Run: .")), qPrintable(tip));
        }
        QCOMPARE(chart->runName(QStringLiteral(".")), QStringLiteral("resnet_job"));
    }
};

QTEST_MAIN(TestPanelHeaders)
#include "tst_panelheaders.moc"
