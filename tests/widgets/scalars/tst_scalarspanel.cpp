#include "tests/widgets/scalars/scalartestdata.h"

#include "models/scalars/smoothing.h"
#include "widgets/common/cardgrid.h"
#include "widgets/common/chartpalette.h"
#include "widgets/scalars/chartsection.h"
#include "widgets/scalars/runlegendmodel.h"
#include "widgets/scalars/scalarspanel.h"

#include <QAbstractItemModelTester>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QToolButton>
#include <QtTest>

#include <memory>

using namespace runlens;
using namespace runlens::models::scalars;
using namespace runlens::widgets;
using namespace runlens::widgets::scalars;
using runlens::test::countColor;
using runlens::test::makeTag;

namespace {

const QString kAlpha = QStringLiteral("alpha");
const QString kBeta = QStringLiteral("beta");
const QString kLoss = QStringLiteral("train/loss");
const QString kAcc = QStringLiteral("train/acc");
const QString kLr = QStringLiteral("lr");
constexpr int kPoints = 100;

double lossValue(int i, int run)
{
    return 2.0 * std::exp(-i / 30.0) + 0.1 * std::sin(i * 1.7 + run) + 0.2 + 0.3 * run;
}

void fillStore(ScalarStore& store)
{
    for (int run = 0; run < 2; ++run) {
        ScalarBatch batch;
        batch.push_back(makeTag(kLoss, kPoints, [run](int i) { return lossValue(i, run); }));
        batch.push_back(makeTag(kAcc, kPoints, [run](int i) { return 1.0 - std::exp(-i / (20.0 + 10 * run)); }));
        batch.push_back(makeTag(kLr, kPoints, [run](int i) { return 0.1 / (1 + run) * std::pow(0.97, i); }));
        store.append(run == 0 ? kAlpha : kBeta, batch);
    }
}

std::vector<double> storedValues(const ScalarStore& store, const QString& run, const QString& tag)
{
    std::vector<double> v;
    for (const ScalarPoint& p : store.series(run, tag)->points)
        v.push_back(p.value);
    return v;
}

} // namespace

class TestScalarsPanel : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        m_store = std::make_unique<ScalarStore>();
        fillStore(*m_store);
        m_panel = std::make_unique<ScalarsPanel>(m_store.get());
        m_panel->resize(1300, 900);
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
        m_panel->flushPendingUpdates();
        m_tester = std::make_unique<QAbstractItemModelTester>(m_panel->runModel(),
                                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void cleanup()
    {
        m_tester.reset();
        m_panel.reset();
        m_store.reset();
    }

    void chartsInGroups()
    {
        QCOMPARE(m_panel->visibleTags(), (QStringList { kLr, kAcc, kLoss }));
        QCOMPARE(m_panel->visibleGroups(), (QStringList { kLr, QStringLiteral("train") }));
        QCOMPARE(m_panel->charts().size(), 3);
        QCOMPARE(m_panel->sectionForGroup(QStringLiteral("train"))->widgets().size(), 2);
        QCOMPARE(m_panel->sectionForGroup(kLr)->widgets().size(), 1);
        ScalarChart* loss = m_panel->chartForTag(kLoss);
        QVERIFY(loss);
        QCOMPARE(loss->tag(), kLoss);
        QCOMPARE(loss->runs(), (QStringList { kAlpha, kBeta }));
        QCOMPARE(loss->pointCount(kAlpha), kPoints);
        QCOMPARE(m_panel->runModel()->rowCount(), 2);
        QCOMPARE(ScalarsPanel::groupOfTag(QStringLiteral("a/b/c")), QStringLiteral("a"));
        QCOMPARE(ScalarsPanel::groupOfTag(QStringLiteral("plain")), QStringLiteral("plain"));
        // Defaults as in TensorBoard.
        QCOMPARE(m_panel->smoothing(), 0.6);
        QCOMPARE(m_panel->xAxisMode(), XAxisMode::Step);
        QCOMPARE(m_panel->findChild<QSlider*>(QStringLiteral("smoothingSlider"))->value(), 600);
    }

    void systemGroupFoldedAtTheBottom()
    {
        // Two dozen machine metrics from `runlens record` next to the user's own "system"-less tags.
        ScalarBatch batch;
        for (int i = 0; i < 24; ++i)
            batch.push_back(makeTag(QStringLiteral("system/metric%1_percent").arg(i, 2, 10, QLatin1Char('0')), 10,
                                    [i](int k) { return k + i; }));
        batch.push_back(makeTag(QStringLiteral("zeta/own"), 10, [](int k) { return k; }));
        m_store->append(kAlpha, batch);
        m_panel->flushPendingUpdates();
        const QString system = QStringLiteral("system");
        // Kept, last (after "zeta", which sorts after it), folded, with a note that points to the System dock.
        QCOMPARE(m_panel->visibleGroups(),
                 (QStringList { kLr, QStringLiteral("train"), QStringLiteral("zeta"), system }));
        QCOMPARE(m_panel->visibleTags().size(), 3 + 1 + 24);
        QCOMPARE(m_panel->visibleTags().last(), QStringLiteral("system/metric23_percent"));
        ChartSection* section = m_panel->sectionForGroup(system);
        QVERIFY(section);
        QVERIFY(!section->isHidden());
        QVERIFY(!section->isExpanded());
        QVERIFY(section->note().contains(QStringLiteral("System dock")));
        // The user's own groups stay open, the system one comes below them on the page.
        QVERIFY(m_panel->sectionForGroup(QStringLiteral("zeta"))->isExpanded());
        QVERIFY(m_panel->sectionForGroup(QStringLiteral("train"))->isExpanded());
        QTRY_VERIFY(section->y() > m_panel->sectionForGroup(QStringLiteral("zeta"))->y());
        QVERIFY(m_panel->sectionForGroup(kLr)->note().isEmpty());
        // The user may open it, and a saved layout keeps it open.
        section->headerButton()->click();
        QVERIFY(section->isExpanded());
        ScalarsPanel other(m_store.get());
        other.flushPendingUpdates();
        QVERIFY(!other.sectionForGroup(system)->isExpanded());
        other.restoreState(m_panel->saveState());
        QVERIFY(other.sectionForGroup(system)->isExpanded());
    }

    void markStep()
    {
        m_panel->markStep(kLoss, 3);
        QCOMPARE(m_panel->chartForTag(kLoss)->markedStep(), std::optional<qint64>(3));
        // One mark at a time: marking another tag removes the first.
        m_panel->markStep(kAcc, 2);
        QVERIFY(!m_panel->chartForTag(kLoss)->markedStep());
        QCOMPARE(m_panel->chartForTag(kAcc)->markedStep(), std::optional<qint64>(2));
        m_panel->markStep(kAcc, std::nullopt);
        QVERIFY(!m_panel->chartForTag(kAcc)->markedStep());
    }

    void tagFilter()
    {
        m_panel->setTagFilter(QStringLiteral("LOSS"));
        QVERIFY(m_panel->isTagFilterValid());
        QCOMPARE(m_panel->visibleTags(), QStringList { kLoss });
        QCOMPARE(m_panel->visibleGroups(), QStringList { QStringLiteral("train") });
        QVERIFY(m_panel->chartForTag(kLoss));
        QVERIFY(!m_panel->chartForTag(kAcc));
        QVERIFY(m_panel->sectionForGroup(kLr)->isHidden());

        m_panel->setTagFilter(QStringLiteral("^train/(acc|loss)$"));
        QCOMPARE(m_panel->visibleTags(), (QStringList { kAcc, kLoss }));

        // An invalid pattern is flagged and the previous filter stays.
        m_panel->setTagFilter(QStringLiteral("train/("));
        QVERIFY(!m_panel->isTagFilterValid());
        QCOMPARE(m_panel->visibleTags(), (QStringList { kAcc, kLoss }));
        auto* edit = m_panel->findChild<QLineEdit*>(QStringLiteral("tagFilter"));
        QVERIFY(edit);
        QCOMPARE(edit->palette().color(QPalette::Text), alertColor());
        QVERIFY(!edit->toolTip().isEmpty());

        // Typing goes through the debounce timer.
        edit->setText(QStringLiteral("^lr"));
        QVERIFY(m_panel->isTagFilterValid());
        QTRY_COMPARE(m_panel->visibleTags(), QStringList { kLr });

        m_panel->setTagFilter(QString());
        QCOMPARE(m_panel->visibleTags().size(), 3);
        QVERIFY(!m_panel->sectionForGroup(kLr)->isHidden());

        m_panel->setTagFilter(QStringLiteral("nothing-matches"));
        QVERIFY(m_panel->visibleTags().isEmpty());
        QVERIFY(m_panel->charts().isEmpty());
    }

    void toggleRuns()
    {
        ScalarChart* loss = m_panel->chartForTag(kLoss);
        QVERIFY(loss->smoothedGraph(kBeta)->visible());
        m_panel->setRunVisible(kBeta, false);
        QVERIFY(!m_panel->isRunVisible(kBeta));
        for (ScalarChart* chart : m_panel->charts()) {
            QVERIFY(!chart->smoothedGraph(kBeta)->visible());
            QVERIFY(!chart->rawGraph(kBeta)->visible());
            QVERIFY(chart->smoothedGraph(kAlpha)->visible());
        }
        // Through the legend's check box, as a click would do.
        RunLegendModel* model = m_panel->runModel();
        QVERIFY(model->setData(model->index(0), Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(!loss->smoothedGraph(kAlpha)->visible());
        QVERIFY(model->setData(model->index(1), Qt::Checked, Qt::CheckStateRole));
        QVERIFY(loss->smoothedGraph(kBeta)->visible());
        QVERIFY(!loss->chartData().series.empty());
        QCOMPARE(loss->chartData().series.front().name, kBeta);
    }

    void smoothingUpdatesGraphs()
    {
        ScalarChart* loss = m_panel->chartForTag(kLoss);
        for (double weight : { 0.9, 0.3, 0.0, 0.999 }) {
            m_panel->setSmoothing(weight);
            QCOMPARE(m_panel->smoothing(), weight);
            QCOMPARE(loss->smoothing(), weight);
            for (const QString& run : { kAlpha, kBeta }) {
                const auto expected = smoothDebiasedEma(storedValues(*m_store, run, kLoss), weight);
                const auto data = loss->smoothedGraph(run)->data();
                QCOMPARE(data->size(), kPoints); // small series: every point is drawn
                for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
                    const auto i = std::size_t(std::lround(it->key));
                    QVERIFY(qFuzzyCompare(it->value, expected[i]));
                }
                // The raw curve is drawn faint behind, only when smoothing.
                QCOMPARE(loss->rawGraph(run)->visible(), weight > 0);
                if (weight > 0)
                    QVERIFY(loss->rawGraph(run)->pen().color().alphaF() < 0.4);
            }
        }
        // The controls follow.
        QCOMPARE(m_panel->findChild<QSlider*>(QStringLiteral("smoothingSlider"))->value(), 999);
        QCOMPARE(m_panel->findChild<QDoubleSpinBox*>(QStringLiteral("smoothingValue"))->value(), 0.999);
        m_panel->findChild<QSlider*>(QStringLiteral("smoothingSlider"))->setValue(250);
        QCOMPARE(m_panel->smoothing(), 0.25);
        QCOMPARE(loss->smoothing(), 0.25);
        m_panel->setSmoothing(5.0); // clamped
        QCOMPARE(m_panel->smoothing(), 0.999);
    }

    void liveUpdates()
    {
        ScalarChart* loss = m_panel->chartForTag(kLoss);
        ScalarChart* acc = m_panel->chartForTag(kAcc);
        QVERIFY(loss && acc);
        QSignalSpy accReplots(acc, &QCustomPlot::beforeReplot);
        const double upperBefore = loss->xAxis->range().upper;

        m_store->append(kAlpha,
                        { makeTag(
                            kLoss, 50, [](int i) { return ::lossValue(i, 0); }, kPoints) });
        QCOMPARE(loss->pointCount(kAlpha), kPoints); // coalesced, not yet applied
        QTRY_COMPARE(loss->pointCount(kAlpha), kPoints + 50);
        QCOMPARE(acc->pointCount(kAlpha), kPoints);
        QVERIFY(loss->xAxis->range().upper > upperBefore); // the view follows new data
        const auto last = loss->smoothedGraph(kAlpha)->data()->constEnd() - 1;
        QCOMPARE(last->key, double(kPoints + 49));

        // A new tag in a new group and a new run appear without a rebuild by hand.
        m_store->append(QStringLiteral("gamma"),
                        { makeTag(QStringLiteral("eval/loss"), 10, [](int i) { return i; }),
                          makeTag(kLoss, 10, [](int i) { return 1.0 / (i + 1); }) });
        QTRY_VERIFY(m_panel->visibleTags().contains(QStringLiteral("eval/loss")));
        QCOMPARE(m_panel->visibleGroups(), (QStringList { QStringLiteral("eval"), kLr, QStringLiteral("train") }));
        QCOMPARE(m_panel->runModel()->rowCount(), 3);
        QCOMPARE(loss->runs(), (QStringList { kAlpha, kBeta, QStringLiteral("gamma") }));
        QVERIFY(m_panel->chartForTag(QStringLiteral("eval/loss")));

        // Removing a run updates the legend and the charts.
        m_store->removeRun(QStringLiteral("gamma"));
        m_panel->flushPendingUpdates();
        QCOMPARE(m_panel->runModel()->rowCount(), 2);
        QCOMPARE(loss->runs(), (QStringList { kAlpha, kBeta }));
        QVERIFY(!m_panel->visibleTags().contains(QStringLiteral("eval/loss")));

        m_store->clear();
        m_panel->flushPendingUpdates();
        QVERIFY(m_panel->visibleTags().isEmpty());
        QCOMPARE(m_panel->runModel()->rowCount(), 0);
    }

    void logScale()
    {
        m_panel->setLogY(true);
        for (ScalarChart* chart : m_panel->charts()) {
            QCOMPARE(chart->yAxis->scaleType(), QCPAxis::stLogarithmic);
            QVERIFY(chart->yAxis->range().lower > 0);
        }
        m_panel->setLogY(false);
        for (ScalarChart* chart : m_panel->charts())
            QCOMPARE(chart->yAxis->scaleType(), QCPAxis::stLinear);
    }

    void xAxisModes()
    {
        ScalarChart* loss = m_panel->chartForTag(kLoss);
        m_panel->setXAxisMode(XAxisMode::WallTime);
        QVERIFY(loss->xAxis->ticker().dynamicCast<QCPAxisTickerDateTime>());
        QVERIFY(loss->xAxis->range().contains(1000.0 + 2.0 * 50));
        QCOMPARE(loss->smoothedGraph(kAlpha)->data()->constBegin()->key, 1000.0);
        m_panel->setXAxisMode(XAxisMode::RelativeTime);
        QCOMPARE(loss->smoothedGraph(kAlpha)->data()->constBegin()->key, 0.0);
        QCOMPARE((loss->smoothedGraph(kAlpha)->data()->constEnd() - 1)->key, 2.0 * (kPoints - 1));
        m_panel->setXAxisMode(XAxisMode::Step);
        QCOMPARE((loss->smoothedGraph(kAlpha)->data()->constEnd() - 1)->key, double(kPoints - 1));
    }

    void doubleClickFits()
    {
        ScalarChart* loss = m_panel->chartForTag(kLoss);
        QVERIFY(loss->isVisible());
        loss->xAxis->setRange(40, 50);
        loss->yAxis->setRange(100, 200);
        const QPoint center = loss->axisRect()->rect().center();
        QTest::mouseDClick(loss, Qt::LeftButton, Qt::NoModifier, center);
        QVERIFY(loss->isAutoFit());
        QVERIFY(loss->xAxis->range().lower <= 0.0);
        QVERIFY(loss->xAxis->range().upper >= kPoints - 1);
        QVERIFY(loss->yAxis->range().upper < 10.0);
        QVERIFY(loss->yAxis->range().lower >= 0.0);
    }

    void wheelScrollsPageAndCtrlWheelZooms()
    {
        ScalarChart* loss = m_panel->chartForTag(kLoss);
        loss->fitToData();
        const QCPRange before = loss->xAxis->range();
        const QPointF pos = loss->axisRect()->rect().center();
        QWheelEvent plain(pos, loss->mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(loss, &plain);
        QCOMPARE(loss->xAxis->range(), before);
        QVERIFY(loss->isAutoFit());
        QWheelEvent zoom(pos, loss->mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                         Qt::NoScrollPhase, false);
        QApplication::sendEvent(loss, &zoom);
        QVERIFY(loss->xAxis->range().size() < before.size());
        QVERIFY(!loss->isAutoFit());
        m_panel->fitAll();
        QVERIFY(loss->isAutoFit());
        // The application may prefer the plain wheel to zoom.
        m_panel->setWheelZoomModifiers(Qt::NoModifier);
        QCOMPARE(loss->wheelZoomModifiers(), Qt::NoModifier);
        QApplication::sendEvent(loss, &plain);
        QVERIFY(!loss->isAutoFit());
    }

    void dragPans()
    {
        ScalarChart* loss = m_panel->chartForTag(kLoss);
        loss->fitToData();
        const QCPRange before = loss->xAxis->range();
        const QPoint start = loss->axisRect()->rect().center();
        QTest::mousePress(loss, Qt::LeftButton, Qt::NoModifier, start);
        QMouseEvent move(QEvent::MouseMove, QPointF(start + QPoint(-80, 0)),
                         loss->mapToGlobal(QPointF(start + QPoint(-80, 0))), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(loss, &move);
        QTest::mouseRelease(loss, Qt::LeftButton, Qt::NoModifier, start + QPoint(-80, 0));
        QVERIFY(loss->xAxis->range().lower > before.lower);
        QVERIFY(!loss->isAutoFit());
    }

    void collapseSections()
    {
        ChartSection* train = m_panel->sectionForGroup(QStringLiteral("train"));
        m_panel->setGroupExpanded(QStringLiteral("train"), false);
        QVERIFY(!train->isExpanded());
        QVERIFY(!m_panel->chartForTag(kLoss)->isVisible());
        const QVariantMap state = m_panel->saveState();
        QCOMPARE(state.value(QStringLiteral("collapsedGroups")).toStringList(),
                 QStringList { QStringLiteral("train") });
        m_panel->setGroupExpanded(QStringLiteral("train"), true);
        QVERIFY(m_panel->chartForTag(kLoss)->isVisible());

        // A panel restored with the group collapsed creates no charts for it.
        ScalarsPanel other;
        other.restoreState(state);
        other.setStore(m_store.get());
        other.resize(1000, 700);
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        other.flushPendingUpdates();
        QVERIFY(!other.chartForTag(kLoss));
        QVERIFY(other.chartForTag(kLr));
        other.setGroupExpanded(QStringLiteral("train"), true);
        QTRY_VERIFY(other.chartForTag(kLoss));
    }

    void chartsCreatedWhenInView()
    {
        ScalarStore store;
        ScalarBatch batch;
        for (int i = 0; i < 60; ++i)
            batch.push_back(makeTag(QStringLiteral("g%1/t%2").arg(i / 10).arg(i % 10, 2, 10, QLatin1Char('0')), 20,
                                    [](int k) { return k; }));
        store.append(kAlpha, batch);
        ScalarsPanel panel(&store);
        QVERIFY(panel.charts().isEmpty()); // nothing before the panel is shown
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.flushPendingUpdates();
        const int first = int(panel.charts().size());
        QVERIFY(first > 0);
        QVERIFY2(first < 30, qPrintable(QString::number(first))); // only what is in (or near) view
        QVERIFY(panel.chartForTag(QStringLiteral("g0/t00")));
        QVERIFY(!panel.chartForTag(QStringLiteral("g5/t09")));
        // Scrolling to the end brings the last charts.
        auto* scroll = panel.findChild<QScrollArea*>(QStringLiteral("chartScroll"));
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        QTRY_VERIFY(panel.chartForTag(QStringLiteral("g5/t09")));
        // Filtering to far-away tags creates them at once (they move into view).
        panel.setTagFilter(QStringLiteral("g3/"));
        QTRY_VERIFY(panel.chartForTag(QStringLiteral("g3/t09"))); // the page is still scrolled to the end
        scroll->verticalScrollBar()->setValue(0);
        QTRY_VERIFY(panel.chartForTag(QStringLiteral("g3/t00")));
    }

    void gridFollowsWidth()
    {
        // 40 tags of one group: a grid of cards whose column count follows the width, not a column of charts.
        ScalarStore store;
        ScalarBatch batch;
        for (int i = 0; i < 40; ++i)
            batch.push_back(makeTag(QStringLiteral("train/m%1").arg(i, 2, 10, QLatin1Char('0')), 20,
                                    [i](int k) { return k * (i + 1); }));
        store.append(kAlpha, batch);
        ScalarsPanel panel(&store);
        panel.resize(1700, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.flushPendingUpdates();
        auto* scroll = panel.findChild<QScrollArea*>(QStringLiteral("chartScroll"));
        ChartSection* section = panel.sectionForGroup(QStringLiteral("train"));
        QVERIFY(scroll && section);
        const auto expectedColumns = [&](CardSize size) {
            // The page's margins (12 px each side) are not the cards'.
            return cardGridGeometry(ScalarsPanel::cardGridSpec(size), scroll->viewport()->width() - 24).columns;
        };
        const auto checkCells = [&](int columns) {
            QCOMPARE(section->columns(), columns);
            const QList<QWidget*> cards = section->widgets();
            QCOMPARE(cards.size(), 40);
            for (int i : { 0, 1, columns - 1, columns, 39 })
                QCOMPARE(section->grid()->cellOf(cards[i]), qMakePair(i / columns, i % columns));
            // The row fits the page: no card runs past its right edge.
            QWidget* last = cards[columns - 1];
            QTRY_VERIFY(last->mapTo(scroll->viewport(), QPoint(last->width(), 0)).x() <= scroll->viewport()->width());
        };
        QTRY_COMPARE(panel.columnCount(), expectedColumns(CardSize::Medium));
        const int wide = panel.columnCount();
        QVERIFY2(wide >= 3, qPrintable(QString::number(wide)));
        checkCells(wide);
        // Cards of one row side by side, the same size.
        const QList<QWidget*> cards = section->widgets();
        QCOMPARE(cards[1]->y(), cards[0]->y());
        QVERIFY(cards[1]->x() > cards[0]->x() + cards[0]->width() - 1);
        QCOMPARE(cards[1]->height(), cards[0]->height());
        QVERIFY(std::abs(cards[1]->width() - cards[0]->width()) <= 1); // the layout's rounding

        // A narrower dock reflows the same cards into fewer columns.
        panel.resize(900, 800);
        QTRY_COMPARE(panel.columnCount(), expectedColumns(CardSize::Medium));
        QVERIFY(panel.columnCount() < wide);
        checkCells(panel.columnCount());

        // Small cards put more on a row, large ones fewer; the toolbar's control sets the size.
        panel.resize(1700, 800);
        QTRY_COMPARE(panel.columnCount(), wide);
        auto* sizeButton = panel.findChild<QToolButton*>(QStringLiteral("cardSize"));
        QVERIFY(sizeButton && sizeButton->menu());
        const auto sizeAction = [&](CardSize size) -> QAction* {
            for (QAction* action : sizeButton->menu()->actions()) {
                if (action->data().toInt() == int(size))
                    return action;
            }
            return nullptr;
        };
        QVERIFY(sizeAction(CardSize::Medium)->isChecked());
        sizeAction(CardSize::Small)->trigger();
        QCOMPARE(panel.cardSize(), CardSize::Small);
        QCOMPARE(panel.columnCount(), expectedColumns(CardSize::Small));
        QVERIFY(panel.columnCount() > wide);
        checkCells(panel.columnCount());
        const int smallHeight = section->grid()->cardHeight();
        panel.setCardSize(CardSize::Large);
        QVERIFY(sizeAction(CardSize::Large)->isChecked());
        QVERIFY(!sizeAction(CardSize::Small)->isChecked());
        QCOMPARE(panel.columnCount(), expectedColumns(CardSize::Large));
        QVERIFY(panel.columnCount() < wide);
        QVERIFY(section->grid()->cardHeight() > smallHeight);
        checkCells(panel.columnCount());

        // The size is part of the panel's saved view.
        ScalarsPanel other(&store);
        other.restoreState(panel.saveState());
        QCOMPARE(other.cardSize(), CardSize::Large);
    }

    void stateRoundTrip()
    {
        m_panel->setSmoothing(0.85);
        m_panel->setXAxisMode(XAxisMode::RelativeTime);
        m_panel->setLogY(true);
        m_panel->setIgnoreOutliers(false);
        m_panel->setTagFilter(QStringLiteral("loss"));
        m_panel->setRunVisible(kBeta, false);
        ScalarsPanel other(m_store.get());
        other.restoreState(m_panel->saveState());
        QCOMPARE(other.smoothing(), 0.85);
        QCOMPARE(other.xAxisMode(), XAxisMode::RelativeTime);
        QVERIFY(other.logY());
        QVERIFY(!other.ignoreOutliers());
        QCOMPARE(other.tagFilter(), QStringLiteral("loss"));
        QVERIFY(!other.isRunVisible(kBeta));
        QCOMPARE(other.chartOptions().hiddenRuns, QSet<QString> { kBeta });
    }

    void exportFromPanel()
    {
        QTemporaryDir dir;
        m_panel->setExportDirectory(dir.path());
        QSignalSpy exported(m_panel.get(), &ScalarsPanel::chartExported);
        ScalarChart* loss = m_panel->chartForTag(kLoss);
        loss->exportMenu()->action(ChartExporter::Format::Csv)->trigger();
        QCOMPARE(exported.count(), 1);
        const QString path = exported.at(0).at(0).toString();
        QCOMPARE(path, dir.filePath(QStringLiteral("train_loss.csv")));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.at(0), QByteArray("run,step,wall_time,relative_time,value,smoothed"));
        QCOMPARE(lines.size(), 1 + 2 * kPoints + 1); // trailing newline

        QString asked;
        m_panel->setExportFileNameProvider([&](ChartExporter::Format, const QString& suggested) {
            asked = suggested;
            return dir.filePath(QStringLiteral("picked.png"));
        });
        loss->exportMenu()->action(ChartExporter::Format::Png)->trigger();
        QVERIFY(asked.endsWith(QStringLiteral("train_loss.png")));
        QCOMPARE(exported.count(), 2);
        QVERIFY(!QImage(dir.filePath(QStringLiteral("picked.png"))).isNull());

        // The context menu offers fit, log scale, copy and the four exports.
        const std::unique_ptr<QMenu> menu(loss->createContextMenu(nullptr));
        QStringList texts;
        for (QAction* a : menu->actions()) {
            if (!a->isSeparator())
                texts << a->text();
        }
        QCOMPARE(texts.size(), 7);
        QVERIFY(texts.filter(QStringLiteral("CSV")).size() == 1);
    }

    void picture()
    {
        m_panel->setSmoothing(0.6);
        const QImage image = m_panel->grab().toImage();
        QVERIFY(!image.isNull());
        // Both runs' smoothed curves are drawn in their colours (the legend swatches alone are far fewer pixels).
        const int alpha = countColor(image, runColor(0));
        const int beta = countColor(image, runColor(1));
        QVERIFY2(alpha > 600, qPrintable(QString::number(alpha)));
        QVERIFY2(beta > 600, qPrintable(QString::number(beta)));
        // Hiding a run removes its colour from the charts.
        m_panel->setRunVisible(kBeta, false);
        const QImage hidden = m_panel->grab().toImage();
        QVERIFY(countColor(hidden, runColor(1)) < beta / 5);
        if (qEnvironmentVariableIsSet("RUNLENS_TEST_SAVE_IMAGES"))
            image.save(QStringLiteral("/tmp/tst_scalarspanel.png"));
    }

    void emptyStore()
    {
        ScalarsPanel panel(nullptr);
        QVERIFY(panel.visibleTags().isEmpty());
        ScalarStore store;
        panel.setStore(&store);
        store.append(QStringLiteral("r"), { makeTag(QStringLiteral("x"), 3, [](int i) { return i; }) });
        panel.flushPendingUpdates();
        QCOMPARE(panel.visibleTags(), QStringList { QStringLiteral("x") });
        panel.setStore(nullptr);
        QVERIFY(panel.visibleTags().isEmpty());
        {
            auto temporary = std::make_unique<ScalarStore>();
            panel.setStore(temporary.get());
        } // the store goes away before the panel
        QVERIFY(!panel.store());
    }

private:
    std::unique_ptr<ScalarStore> m_store;
    std::unique_ptr<ScalarsPanel> m_panel;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

QTEST_MAIN(TestScalarsPanel)
#include "tst_scalarspanel.moc"
