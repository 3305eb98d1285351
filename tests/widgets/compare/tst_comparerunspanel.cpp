#include "importers/summary/eventfilereader.h"
#include "importers/summary/lineagereader.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/runcomparison.h"
#include "models/summary/summarystore.h"
#include "tests/models/summary/comparisontestdata.h"
#include "tests/testutils.h"
#include "widgets/compare/comparerunspanel.h"
#include "widgets/compare/parallelcoordinateschart.h"
#include "widgets/scalars/scalarspanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::models::scalars;
using namespace runlens::widgets;
using namespace runlens::widgets::compare;
using namespace runlens::widgets::scalars;
using namespace runlens::test::comparison;
using models::summary::RunComparison;
using models::summary::SummaryStore;

namespace {

/// Runs of the proxy's rows that have a value in `column`, in table order.
QStringList runsWithValue(const CompareRunsPanel& panel, int column)
{
    QStringList out;
    const QSortFilterProxyModel* proxy = panel.proxy();
    for (int r = 0; r < proxy->rowCount(); ++r) {
        const QModelIndex i = proxy->index(r, column);
        if (proxy->data(i, RunComparison::ValueRole).isValid())
            out << proxy->data(i, RunComparison::RunRole).toString();
    }
    return out;
}

void moveMouse(QWidget* widget, QPointF pos)
{
    QMouseEvent move(QEvent::MouseMove, pos, widget->mapToGlobal(pos), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(widget, &move);
}

void clickHeader(QTableView* table, int column)
{
    QHeaderView* header = table->horizontalHeader();
    const int x = header->sectionViewportPosition(column) + header->sectionSize(column) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
}

void clickRun(CompareRunsPanel& panel, const QString& run, Qt::KeyboardModifiers modifiers = {})
{
    const RunComparison* model = panel.model();
    const QModelIndex index = panel.proxy()->mapFromSource(model->index(model->rowOfRun(run), 0));
    QVERIFY2(index.isValid(), qPrintable(run));
    panel.table()->scrollTo(index);
    const QRect rect = panel.table()->visualRect(index);
    QTest::mouseClick(panel.table()->viewport(), Qt::LeftButton, modifiers, rect.center());
}

/// Pixels that are neither the background nor grey: the coloured lines of the chart.
int colouredPixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            const QColor c = image.pixelColor(x, y);
            if (c.hsvSaturation() > 60 && c.alpha() > 0)
                ++n;
        }
    }
    return n;
}

} // namespace

class TestCompareRunsPanel : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    struct Fixture
    {
        ScalarStore scalars;
        SummaryStore summaries;
        CompareRunsPanel panel { &scalars, &summaries };

        Fixture()
        {
            fill(scalars, summaries);
            panel.resize(1100, 800);
            panel.show();
            panel.flushPendingUpdates();
        }
    };

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void emptyState()
    {
        ScalarStore scalars;
        SummaryStore summaries;
        CompareRunsPanel panel(&scalars, &summaries);
        panel.resize(600, 400);
        panel.show();
        auto* stack = panel.findChild<QStackedWidget*>();
        QVERIFY(stack);
        QCOMPARE(stack->currentIndex(), 0);
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("emptyLabel"))->text().contains("Open a run folder"));
        QVERIFY(!panel.metricBox()->isEnabled());
        fill(scalars, summaries);
        panel.flushPendingUpdates();
        QCOMPARE(stack->currentIndex(), 1);
        QCOMPARE(panel.table()->model()->rowCount(), 5);
        QVERIFY(panel.metricBox()->isEnabled());
    }

    void defaultColumns()
    {
        Fixture f;
        QVERIFY(f.panel.isColumnVisible("run"));
        QVERIFY(f.panel.isColumnVisible("hparam/lr"));
        QVERIFY(f.panel.isColumnVisible("lineage/optimizer"));
        QVERIFY(f.panel.isColumnVisible("final/accuracy"));
        QVERIFY(!f.panel.isColumnVisible("beststep/accuracy"));
        QVERIFY(!f.panel.isColumnVisible("final/train/loss"));
        const RunComparison* model = f.panel.model();
        QVERIFY(f.panel.table()->isColumnHidden(model->columnOf("beststep/accuracy")));
        QVERIFY(!f.panel.table()->isColumnHidden(model->columnOf("hparam/lr")));
        // The chart is coloured by the first declared metric.
        QCOMPARE(f.panel.chartMetric(), QStringLiteral("final/accuracy"));
        QCOMPARE(f.panel.metricBox()->currentData().toString(), QStringLiteral("final/accuracy"));
    }

    void clickingHeaderSorts()
    {
        Fixture f;
        const int layers = f.panel.model()->columnOf("hparam/layers");
        QVERIFY(layers > 0);
        clickHeader(f.panel.table(), layers);
        QCOMPARE(f.panel.table()->horizontalHeader()->sortIndicatorSection(), layers);
        const Qt::SortOrder first = f.panel.table()->horizontalHeader()->sortIndicatorOrder();
        const QStringList ascending { "b", "a", "d" }; // 2 < 10 < 100
        const QStringList descending { "d", "a", "b" };
        QCOMPARE(runsWithValue(f.panel, layers), first == Qt::AscendingOrder ? ascending : descending);
        clickHeader(f.panel.table(), layers);
        QVERIFY(f.panel.table()->horizontalHeader()->sortIndicatorOrder() != first);
        QCOMPARE(runsWithValue(f.panel, layers), first == Qt::AscendingOrder ? descending : ascending);
    }

    void filterHidesRows()
    {
        Fixture f;
        QCOMPARE(f.panel.shownRuns().size(), 5);
        QTest::keyClicks(f.panel.filterEdit(), "SGD");
        f.panel.flushPendingUpdates();
        QCOMPARE(f.panel.shownRuns(), QStringList { "b" });
        QCOMPARE(f.panel.chart()->lineCount(), 1);
        // Values of any column match, hidden ones too: the lineage run's network.
        f.panel.filterEdit()->clear();
        QTest::keyClicks(f.panel.filterEdit(), "lenet");
        QCOMPARE(f.panel.shownRuns(), QStringList { "c" });
        // Run names match.
        f.panel.setFilterText(QStringLiteral("valid"));
        QCOMPARE(f.panel.shownRuns(), QStringList { "a/validation" });
        f.panel.setFilterText(QString());
        f.panel.flushPendingUpdates();
        QCOMPARE(f.panel.shownRuns().size(), 5);
        QCOMPARE(f.panel.chart()->lineCount(), 5);
    }

    void untickingColumnHidesIt()
    {
        Fixture f;
        const int opt = f.panel.model()->columnOf("hparam/optimizer");
        QVERIFY(!f.panel.table()->isColumnHidden(opt));
        QVERIFY(f.panel.chartParameterKeys().contains("hparam/optimizer"));
        QAction* action = f.panel.columnAction("hparam/optimizer");
        QVERIFY(action);
        QVERIFY(action->isChecked());

        // Through the menu as a user would: it stays open for the next choice.
        QMenu* menu = f.panel.columnsMenu();
        menu->popup(f.panel.mapToGlobal(QPoint(10, 10)));
        QVERIFY(QTest::qWaitForWindowExposed(menu));
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(action).center());
        QVERIFY(!action->isChecked());
        QVERIFY(menu->isVisible());
        QVERIFY(f.panel.table()->isColumnHidden(opt));
        QVERIFY(!f.panel.isColumnVisible("hparam/optimizer"));
        f.panel.flushPendingUpdates();
        QVERIFY(!f.panel.chartParameterKeys().contains("hparam/optimizer"));
        QVERIFY(!f.panel.chart()->axisTitles().contains("optimizer"));

        // Tick a hidden metric column.
        QAction* bestStep = f.panel.columnAction("beststep/accuracy");
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(bestStep).center());
        QVERIFY(!f.panel.table()->isColumnHidden(f.panel.model()->columnOf("beststep/accuracy")));
        menu->close();

        // The choice survives a rebuild of the table (a new run).
        f.scalars.append(QStringLiteral("z"), { tagPoints(QStringLiteral("accuracy"), { { 0, 0.1 } }) });
        f.panel.flushPendingUpdates();
        QCOMPARE(f.panel.model()->rowCount(), 6);
        QVERIFY(f.panel.table()->isColumnHidden(f.panel.model()->columnOf("hparam/optimizer")));
        QVERIFY(f.panel.columnAction("hparam/optimizer") && !f.panel.columnAction("hparam/optimizer")->isChecked());
    }

    void selectingRowsEmitsVisibleRuns()
    {
        Fixture f;
        QSignalSpy spy(&f.panel, &CompareRunsPanel::visibleRunsChanged);
        clickRun(f.panel, "b");
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.last().at(0).toStringList(), QStringList { "b" });
        clickRun(f.panel, "d", Qt::ControlModifier);
        QCOMPARE(spy.last().at(0).toStringList(), (QStringList { "b", "d" }));
        clickRun(f.panel, "b", Qt::ControlModifier);
        QCOMPARE(spy.last().at(0).toStringList(), QStringList { "d" });
        // The chart draws the selected run's line in front and bold.
        QVERIFY(f.panel.chart()->line("d")->pen().widthF() > f.panel.chart()->line("a")->pen().widthF());
        // A rebuilt table keeps the selection and emits nothing new.
        const int before = spy.count();
        f.scalars.append(QStringLiteral("z"), { tagPoints(QStringLiteral("accuracy"), { { 0, 0.1 } }) });
        f.panel.flushPendingUpdates();
        QCOMPARE(f.panel.selectedRuns(), QStringList { "d" });
        QCOMPARE(spy.count(), before);
        f.panel.table()->clearSelection();
        QCOMPARE(spy.last().at(0).toStringList(), QStringList());
    }

    // The selection drives the Scalars panel the way the application wires them.
    void selectionFiltersScalarsPanel()
    {
        Fixture f;
        ScalarsPanel scalars(&f.scalars);
        connect(&f.panel, &CompareRunsPanel::visibleRunsChanged, &scalars, &ScalarsPanel::setVisibleRuns);
        scalars.flushPendingUpdates();
        QVERIFY(scalars.isRunVisible("a") && scalars.isRunVisible("b"));
        clickRun(f.panel, "b");
        QVERIFY(scalars.isRunVisible("b"));
        QVERIFY(!scalars.isRunVisible("a"));
        QVERIFY(!scalars.isRunVisible("c"));
        // A run that appears while the selection holds stays hidden.
        f.scalars.append(QStringLiteral("new"), { tagPoints(QStringLiteral("train/loss"), { { 0, 1.0 } }) });
        scalars.flushPendingUpdates();
        QVERIFY(!scalars.isRunVisible("new"));
        f.panel.table()->clearSelection();
        QVERIFY(scalars.isRunVisible("a") && scalars.isRunVisible("new"));
    }

    void chartHasOneLinePerShownRun()
    {
        Fixture f;
        ParallelCoordinatesChart* chart = f.panel.chart();
        QCOMPARE(chart->lineCount(), 5);
        QCOMPARE(chart->runs(), f.panel.shownRuns());
        // Shown hyper-parameters, then the metric last.
        const QStringList axes = chart->axisTitles();
        QVERIFY(axes.size() >= 3);
        QCOMPARE(axes.last(), QStringLiteral("accuracy (final)"));
        QVERIFY(axes.contains("Learning rate"));
        QVERIFY(axes.contains("optimizer"));
        QVERIFY(axes.contains("Optimizer")); // lineage
        const int lrAxis = int(axes.indexOf("Learning rate"));
        const int optAxis = int(axes.indexOf("optimizer"));
        const int metricAxis = int(axes.size()) - 1;
        // Each line passes every axis; lr spans 0.001 .. 0.1, two decades: a log axis.
        QCOMPARE(chart->line("a")->data()->size(), axes.size());
        QVERIFY(chart->isLogarithmic(lrAxis));
        QCOMPARE(chart->positionOf("d", lrAxis), 0.0);
        QCOMPARE(chart->positionOf("b", lrAxis), 1.0);
        QVERIFY(std::abs(chart->positionOf("a", lrAxis) - 0.5) < 1e-12); // log10 midpoint of 0.001 .. 0.1
        // Categories sorted: adam, adamw, sgd.
        QCOMPARE(chart->positionOf("a", optAxis), 0.0);
        QCOMPARE(chart->positionOf("d", optAxis), 0.5);
        QCOMPARE(chart->positionOf("b", optAxis), 1.0);
        // The metric: a's final accuracy 0.75, b's 0.9; runs without it have no point there.
        QCOMPARE(chart->positionOf("a", metricAxis), 0.0);
        QCOMPARE(chart->positionOf("b", metricAxis), 1.0);
        QVERIFY(std::isnan(chart->positionOf("c", metricAxis)));
        QVERIFY(chart->line("a")->pen().color() != chart->line("b")->pen().color());

        // Choosing another metric from the box.
        const int best = f.panel.metricBox()->findData("best/accuracy");
        QVERIFY(best >= 0);
        f.panel.metricBox()->setCurrentIndex(best);
        emit f.panel.metricBox()->activated(best);
        f.panel.flushPendingUpdates();
        QCOMPARE(f.panel.chartMetric(), QStringLiteral("best/accuracy"));
        QCOMPARE(chart->axisTitles().last(), QStringLiteral("accuracy (best)"));
        // a's best accuracy is 0.8, b's 0.9: both on the axis ends.
        QCOMPARE(chart->positionOf("a", metricAxis), 0.0);
        QCOMPARE(chart->positionOf("b", metricAxis), 1.0);
    }

    void hoverHighlightsRun()
    {
        Fixture f;
        ParallelCoordinatesChart* chart = f.panel.chart();
        chart->replot();
        QSignalSpy spy(chart, &ParallelCoordinatesChart::runHovered);
        const int metricAxis = chart->axisCount() - 1;
        const QPointF p = chart->pointOf("b", metricAxis);
        QVERIFY(!std::isnan(p.x()));
        moveMouse(chart, p);
        QTRY_COMPARE(chart->highlightedRun(), QStringLiteral("b"));
        QCOMPARE(spy.last().at(0).toString(), QStringLiteral("b"));
        QVERIFY(chart->line("b")->pen().widthF() > chart->line("a")->pen().widthF());
        QVERIFY(chart->line("a")->pen().color().alpha() < 255);
        // Far from every line: nothing highlighted.
        moveMouse(chart, QPointF(2, 2));
        QTRY_COMPARE(chart->highlightedRun(), QString());
        // Clicking a line selects its run in the table.
        QSignalSpy visible(&f.panel, &CompareRunsPanel::visibleRunsChanged);
        QTest::mouseClick(chart, Qt::LeftButton, {}, chart->pointOf("a", metricAxis).toPoint());
        QCOMPARE(f.panel.selectedRuns(), QStringList { "a" });
        QCOMPARE(visible.last().at(0).toStringList(), QStringList { "a" });
    }

    void exportsChart()
    {
        Fixture f;
        const QString png = m_dir.filePath("compare.png");
        const QString csv = m_dir.filePath("compare.csv");
        const QString svg = m_dir.filePath("compare.svg");
        QString error;
        auto* menu = f.panel.chart()->exportMenu();
        QVERIFY2(menu->exportTo(ChartExporter::Format::Png, png, &error), qPrintable(error));
        QVERIFY2(menu->exportTo(ChartExporter::Format::Csv, csv, &error), qPrintable(error));
        QVERIFY2(menu->exportTo(ChartExporter::Format::Svg, svg, &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(colouredPixels(image) > 100);
        QVERIFY(QFileInfo(svg).size() > 1000);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 5);
        QVERIFY(lines.first().startsWith("run,"));
        QVERIFY(lines.first().contains("0=adam"));
        // b: lr 0.1, final accuracy 0.9 (last column).
        const QString b = lines.filter(QRegularExpression("^b,")).value(0);
        QVERIFY2(b.contains(",0.1,"), qPrintable(b));
        QVERIFY2(b.endsWith(",0.9"), qPrintable(b));
        // The export action without a file name provider writes into the default directory.
        f.panel.setExportDirectory(m_dir.path());
        QSignalSpy exported(&f.panel, &CompareRunsPanel::chartExported);
        menu->action(ChartExporter::Format::Png)->trigger();
        QCOMPARE(exported.count(), 1);
        QVERIFY(QFileInfo(exported.last().at(0).toString()).size() > 0);
        if (qEnvironmentVariableIsSet("RUNLENS_SCREENSHOT_DIR")) {
            const QString dir = qEnvironmentVariable("RUNLENS_SCREENSHOT_DIR");
            f.panel.selectRuns({ "b" });
            f.panel.chart()->replot();
            f.panel.grab().save(dir + "/compare-runs.png");
            QFile::copy(png, dir + "/compare-chart.png");
        }
    }

    void goalFromHeaderMenu()
    {
        Fixture f;
        RunComparison* model = f.panel.model();
        model->setGoal(QStringLiteral("accuracy"), RunComparison::Goal::Minimize);
        f.panel.flushPendingUpdates();
        // a's lowest accuracy is 0.5 at step 0.
        QCOMPARE(model->number(model->rowOfRun("a"), model->columnOf("best/accuracy")), 0.5);
    }

    // torch's add_hparams sub-run: a session with three hyper-parameters and two declared metrics. Expected
    // values as tests/data/summary/summary_sample_decode.py (an independent wire-format decoder) reads them.
    void hparamsSample()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString file = samples
            + QStringLiteral("/summaries/tensorboard/torch2_hparams/events.out.tfevents.1771595857.zyzkings.1216.1");
        importers::summary::EventFileReader reader(file, importers::summary::SummaryFlavor::TensorBoard);
        const ImportUpdate update = reader.poll({});
        QVERIFY(update.summaries);
        ScalarStore scalars;
        SummaryStore summaries;
        const QString run = QStringLiteral("hparams_search_exp_1/1771595857.3236299");
        scalars.append(run, update.scalars);
        summaries.update(run, file, *update.summaries);
        CompareRunsPanel panel(&scalars, &summaries);
        panel.resize(900, 600);
        panel.show();
        panel.flushPendingUpdates();
        const RunComparison* model = panel.model();
        QCOMPARE(model->runs(), QStringList { run });
        QStringList params;
        QStringList metrics;
        for (const auto& c : model->columns()) {
            if (c.kind == RunComparison::ColumnKind::HParam)
                params << c.name;
            if (c.kind == RunComparison::ColumnKind::MetricFinal)
                metrics << c.name;
        }
        QCOMPARE(params, (QStringList { "lr", "batch_size", "optimizer" })); // the experiment's order
        QCOMPARE(metrics, (QStringList { "hparam/Final_Val_Accuracy", "hparam/Final_Val_Loss" }));
        QVERIFY(model->column(model->columnOf("final/hparam/Final_Val_Loss")).declared);
        QCOMPARE(model->number(0, model->columnOf("hparam/lr")), 0.1);
        QCOMPARE(model->number(0, model->columnOf("hparam/batch_size")), 32.0);
        QCOMPARE(model->value(0, model->columnOf("hparam/optimizer")).toString(), QStringLiteral("SGD"));
        QCOMPARE(model->number(0, model->columnOf("final/hparam/Final_Val_Accuracy")), 84.03559875488281);
        QCOMPARE(model->number(0, model->columnOf("final/hparam/Final_Val_Loss")), 1.183273196220398);
        QCOMPARE(model->value(0, model->columnOf("status")).toString(), QStringLiteral("success"));
        QVERIFY(panel.isColumnVisible("final/hparam/Final_Val_Accuracy"));
        QVERIFY(panel.isColumnVisible("final/hparam/Final_Val_Loss"));
        QCOMPARE(panel.chartMetric(), QStringLiteral("final/hparam/Final_Val_Accuracy"));
        QCOMPARE(panel.chart()->lineCount(), 1);
        QCOMPARE(panel.chart()->axisTitles(),
                 (QStringList { "lr", "batch_size", "optimizer", "hparam/Final_Val_Accuracy (final)" }));
    }

    // MindSpore lineage of the generated sample, through the reader. Expected values from
    // tests/data/summary/lineage_sample_decode.py (an independent wire-format walker).
    void lineageSample()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        importers::summary::LineageReader reader(
            samples
            + QStringLiteral("/summaries/mindspore_generated/run_a/"
                             "events.out.events.summary.1700000000.0.helperhost_lineage"));
        const ImportUpdate update = reader.poll({});
        QVERIFY(update.lineage);
        ScalarStore scalars;
        SummaryStore summaries;
        summaries.setLineage(QStringLiteral("run_a"), *update.lineage);
        CompareRunsPanel panel(&scalars, &summaries);
        panel.resize(900, 600);
        panel.show();
        panel.flushPendingUpdates();
        const RunComparison* model = panel.model();
        QCOMPARE(model->runs(), QStringList { "run_a" });
        const auto text = [&](const char* key) {
            const int c = model->columnOf(QLatin1String(key));
            return c < 0 ? QStringLiteral("<none>") : panel.proxy()->index(0, c).data().toString();
        };
        QCOMPARE(text("lineage/optimizer"), QStringLiteral("Momentum"));
        QCOMPARE(text("lineage/learning_rate"), QStringLiteral("0.01"));
        QCOMPARE(text("lineage/batch_size"), QStringLiteral("32"));
        QCOMPARE(text("lineage/epoch"), QStringLiteral("1"));
        QCOMPARE(text("lineage/loss_function"), QStringLiteral("SoftmaxCrossEntropyWithLogits"));
        QCOMPARE(text("lineage/train_dataset_path"), QStringLiteral("/data/mnist/train"));
        QCOMPARE(text("lineage/train_dataset_size"), QStringLiteral("1875"));
        QCOMPARE(text("lineage/network"), QStringLiteral("LeNet5"));
        QCOMPARE(text("lineage/device_num"), QStringLiteral("1"));
        QCOMPARE(text("lineage/metric/Accuracy"), QStringLiteral("0.9712"));
        QCOMPARE(text("lineage/dataset_pipeline"), QStringLiteral("MnistDataset -> BatchDataset"));
        QVERIFY(panel.isColumnVisible("lineage/optimizer"));
        QVERIFY(!panel.isColumnVisible("lineage/model_path"));
        // The evaluation accuracy is the only metric: it colours the chart.
        QCOMPARE(panel.chartMetric(), QStringLiteral("lineage/metric/Accuracy"));
        QCOMPARE(panel.chart()->lineCount(), 1);
    }
};

QTEST_MAIN(TestCompareRunsPanel)
#include "tst_comparerunspanel.moc"
