// Summary tensors (TensorBoard and VisualDL histograms as tensors) in the Tensors panel, beside dump files.

#include "widgets/tensor/tensorpanel.h"

#include "models/tensor/tensorlistmodel.h"
#include "widgets/common/colormap.h"
#include "widgets/tensor/heatmapview.h"
#include "widgets/tensor/slicecontrols.h"
#include "widgets/tensor/tensorcomparewidget.h"
#include "widgets/tensor/tensorstatswidget.h"
#include "widgets/tensor/tensortablemodel.h"

#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/tensor/tensorcatalogbuilder.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"
#include "tests/widgets/tensor/tensorpaneltestdata.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <atomic>
#include <cstring>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::models;
using namespace runlens::widgets;
using runlens::widgets::tensor::TensorPanel;
using namespace runlens::test::tensorpanel;

class TestTensorPanelSummaries : public QObject
{
    Q_OBJECT
private slots:
    void summaryTensorsJoinTheList();
    void summaryStepsCompareWithThePreviousOne();
    void summaryPollsKeepTheShownTensor();
    void summaryTensorsBeforeAndAfterFiles();
    void summaryTensorTooShortNamesFileAndTag();
    void summaryTensorsOfASampleRun();
    void summaryPollsBesideManyFiles();
};

void TestTensorPanelSummaries::summaryTensorsJoinTheList()
{
    TensorPanel panel;
    panel.resize(1100, 700);
    panel.show();
    panel.setCatalog(catalog());
    QTRY_VERIFY(panel.currentTensor().has_value());
    const QString shown = panel.currentLocation();
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 0, 10, 20 }));
    // Arriving summaries leave the shown tensor alone.
    QCOMPARE(panel.currentLocation(), shown);
    QCOMPARE(panel.fileCatalog()->series().size(), 4);
    QCOMPARE(panel.catalog()->series().size(), 5);

    // Grouped by run now: the files' tensors and run1's summary.
    QVERIFY(panel.listModel()->isGrouped());
    const int series = panel.catalog()->indexOf(QStringLiteral("layer1/w"), QStringLiteral("run1"));
    QVERIFY(series >= 0);
    const QModelIndex source = panel.listModel()->indexOfSeries(series);
    QCOMPARE(source.siblingAtColumn(models::tensor::TensorListModel::KindColumn).data().toString(),
             QStringLiteral("summary"));
    QCOMPARE(source.siblingAtColumn(models::tensor::TensorListModel::StepsColumn).data().toInt(), 3);
    QCOMPARE(source.parent().data().toString(), QStringLiteral("run1"));

    // Chosen in the list with the mouse: the last step.
    const QModelIndex row = panel.filterModel()->mapFromSource(source);
    panel.listView()->scrollTo(row);
    QTest::mouseClick(panel.listView()->viewport(), Qt::LeftButton, {}, panel.listView()->visualRect(row).center());
    QCOMPARE(panel.currentSeries(), series);
    QCOMPARE(panel.currentLocation(), summaryLocation(20));
    QVERIFY2(panel.headerLabel()->text().contains(QStringLiteral("summary file %1, tag layer1/w").arg(kSummaryFile)),
             qPrintable(panel.headerLabel()->text()));
    QVERIFY(panel.headerLabel()->text().contains(QStringLiteral("float32 [3, 4]")));
    QVERIFY(tableHoldsStep(panel, 20));

    // The step slider walks the summary's steps.
    QVERIFY(panel.stepSlider()->isVisible());
    QCOMPARE(panel.stepSlider()->maximum(), 2);
    QCOMPARE(panel.stepSlider()->value(), 2);
    panel.stepSlider()->setFocus();
    QTest::keyClick(panel.stepSlider(), Qt::Key_Left);
    QCOMPARE(panel.currentLocation(), summaryLocation(10));
    QVERIFY(panel.stepLabel()->text().contains(QStringLiteral("step 10 (2 of 3)")));
    QVERIFY(tableHoldsStep(panel, 10));
    QTest::keyClick(panel.stepSlider(), Qt::Key_Home);
    QVERIFY(tableHoldsStep(panel, 0));
    QTest::keyClick(panel.stepSlider(), Qt::Key_End);
    QVERIFY(tableHoldsStep(panel, 20));

    // Whole-tensor statistics of step 20, against numpy: min 4, max 27, mean 15.5, std 8.241157.
    QTRY_VERIFY(panel.statsWidget()->wholeStatistics().has_value());
    const models::tensor::TensorStatistics stats = *panel.statsWidget()->wholeStatistics();
    QCOMPARE(panel.statsWidget()->location(), summaryLocation(20));
    QCOMPARE(stats.count, 12);
    QCOMPARE(stats.min, 4.0);
    QCOMPARE(stats.max, 27.0);
    QCOMPARE(stats.mean, 15.5);
    QVERIFY(qAbs(stats.std - 8.241157) < 1e-5);
    QTRY_COMPARE(source.siblingAtColumn(models::tensor::TensorListModel::StatusColumn).data().toString(),
                 QStringLiteral("finite"));

    // The filter finds summary tensors by kind.
    QTest::keyClicks(panel.filterEdit(), QStringLiteral("kind:summary"));
    QCOMPARE(panel.filterModel()->rowCount(), 1);
    QCOMPARE(panel.filterModel()->rowCount(panel.filterModel()->index(0, 0)), 1);

    if (qEnvironmentVariableIsSet("RUNLENS_SCREENSHOTS"))
        panel.grab().save(
            QDir(qEnvironmentVariable("RUNLENS_SCREENSHOTS")).filePath(QStringLiteral("tensor-summary.png")));
}

void TestTensorPanelSummaries::summaryStepsCompareWithThePreviousOne()
{
    TensorPanel panel;
    panel.show();
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 0, 10, 20 }));
    QVERIFY(panel.showLocation(summaryLocation(20)));
    panel.setViewMode(TensorPanel::ViewMode::Compare);
    QCOMPARE(panel.compareCombo()->currentText(), QStringLiteral("step 10"));
    QCOMPARE(panel.compareCombo()->currentData().toString(), summaryLocation(10));
    // 0.01 (400 - 100) = 3 everywhere (numpy: max, mean and RMSE of |a - b| are 3).
    QTRY_VERIFY(panel.compareWidget()->summaryText().contains(QStringLiteral("max |diff| 3 ")));
    const QString text = panel.compareWidget()->summaryText();
    QVERIFY2(text.contains(QStringLiteral("mean |diff| 3 ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("RMSE 3 ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("differing 12 of 12")), qPrintable(text));

    // Step 10 against step 0: 1 everywhere.
    panel.stepSlider()->setValue(1);
    QCOMPARE(panel.currentLocation(), summaryLocation(10));
    QCOMPARE(panel.compareCombo()->currentText(), QStringLiteral("step 0"));
    QTRY_VERIFY2(panel.compareWidget()->summaryText().contains(QStringLiteral("max |diff| 1 ")),
                 qPrintable(panel.compareWidget()->summaryText()));
}

void TestTensorPanelSummaries::summaryPollsKeepTheShownTensor()
{
    TensorPanel panel;
    panel.show();
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 0, 10, 20 }));
    QVERIFY(panel.showLocation(summaryLocation(10)));
    QVERIFY(panel.sliceControls()->setExpression(QStringLiteral("[1:, ::2]")));
    QCOMPARE(panel.tableModel()->rowCount(), 2);
    QCOMPARE(cell(panel, 1, 1), summaryValue(10, 2, 2));
    panel.setViewMode(TensorPanel::ViewMode::Compare);
    panel.compareCombo()->setCurrentIndex(panel.compareCombo()->findData(summaryLocation(20)));
    QSignalSpy located(&panel, &TensorPanel::currentLocationChanged);

    // Other kinds of data from the same file change nothing.
    const auto before = panel.catalog();
    models::summary::SummaryBatch histograms;
    histograms.histograms.push_back(
        models::summary::HistogramSeries { QStringLiteral("h"), {}, { models::summary::Histogram {} } });
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, histograms);
    QCOMPARE(panel.catalog(), before);

    // The run goes on: step 30 arrives; the shown step, its slice and the comparison stay.
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 0, 10, 20, 30 }));
    QVERIFY(panel.catalog() != before);
    QCOMPARE(panel.currentLocation(), summaryLocation(10));
    QCOMPARE(located.size(), 0);
    QCOMPARE(panel.sliceControls()->expression(), QStringLiteral("[1:, ::2]"));
    QCOMPARE(cell(panel, 1, 1), summaryValue(10, 2, 2));
    QCOMPARE(panel.stepSlider()->maximum(), 3);
    QCOMPARE(panel.stepSlider()->value(), 1);
    QCOMPARE(panel.compareCombo()->currentData().toString(), summaryLocation(20));
    QVERIFY(panel.compareCombo()->findData(summaryLocation(30)) >= 0);
    QCOMPARE(panel.listView()->currentIndex().data().toString(), QStringLiteral("layer1/w"));

    // The reservoir let step 10 go: the nearest step is shown, with the same slice.
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 0, 20, 30 }));
    QCOMPARE(panel.currentLocation(), summaryLocation(0));
    QCOMPARE(panel.sliceControls()->expression(), QStringLiteral("[1:, ::2]"));
    QCOMPARE(cell(panel, 1, 1), summaryValue(0, 2, 2));
    QCOMPARE(panel.stepSlider()->maximum(), 2);
}

void TestTensorPanelSummaries::summaryTensorsBeforeAndAfterFiles()
{
    TensorPanel panel;
    panel.show();
    // A folder's summaries arrive before its tensor files are listed.
    panel.setCatalog(nullptr);
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 5 }));
    QVERIFY(!panel.emptyLabel()->isVisible());
    QCOMPARE(panel.currentLocation(), summaryLocation(5));
    QVERIFY(!panel.stepSlider()->isVisibleTo(&panel));
    QVERIFY(tableHoldsStep(panel, 5));

    panel.setCatalog(catalog());
    QCOMPARE(panel.catalog()->series().size(), 5);
    QVERIFY(panel.showLocation(summaryLocation(5)));
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/fc1.weight.npy")));

    // A second file of the run (a restart) adds its steps to the same series.
    panel.addSummaryTensors(QStringLiteral("run1"), QStringLiteral("/logs/run1/events.out.tfevents.2"),
                            summaryBatch({ 6 }));
    const int series = panel.catalog()->indexOf(QStringLiteral("layer1/w"), QStringLiteral("run1"));
    QCOMPARE(panel.catalog()->series()[series].steps(), (QList<int> { 5, 6 }));
    QCOMPARE(panel.currentLocation(), QStringLiteral("/run/step_59/fc1.weight.npy"));

    panel.removeSummaryRun(QStringLiteral("run1"));
    QCOMPARE(panel.catalog(), panel.fileCatalog());
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 5 }));
    panel.setCatalog(nullptr);
    QCOMPARE(panel.catalog()->series().size(), 1);
    QVERIFY(!panel.emptyLabel()->isVisible());
    panel.clearSummaryTensors();
    QVERIFY(!panel.catalog());
    QVERIFY(panel.emptyLabel()->isVisible());
    QVERIFY(panel.currentLocation().isEmpty());
}

void TestTensorPanelSummaries::summaryTensorTooShortNamesFileAndTag()
{
    TensorPanel panel;
    panel.show();
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 0, 10 }, 10));
    QVERIFY(panel.showLocation(summaryLocation(10)));
    QVERIFY(panel.messageLabel()->isVisible());
    QVERIFY2(panel.messageLabel()->text().contains(kSummaryFile), qPrintable(panel.messageLabel()->text()));
    QVERIFY(panel.messageLabel()->text().contains(QStringLiteral("tag layer1/w, step 10")));
    QVERIFY(!panel.currentTensor());
    // The other step still opens.
    panel.stepSlider()->setValue(0);
    QVERIFY(!panel.messageLabel()->isVisible());
    QVERIFY(tableHoldsStep(panel, 0));
}

void TestTensorPanelSummaries::summaryTensorsOfASampleRun()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString folder = samples + QStringLiteral("/summaries/mindspore_generated/run_a");
    const QString file = folder + QStringLiteral("/events.out.events.summary.1700000000.0.helperhost_MS");
    RUNLENS_REQUIRE_SAMPLE_FILE(file);
    // What an independent wire-format decoder reads of the TensorSummary "fc3.bias".
    RUNLENS_PYTHON_ORACLE(oracle, { QStringLiteral(RUNLENS_TEST_DATA_DIR "/summary/summary_sample_decode.py"), file });
    const QJsonObject want = QJsonDocument::fromJson(oracle.toUtf8())
                                 .object()
                                 .value(QStringLiteral("tags"))
                                 .toObject()
                                 .value(QStringLiteral("fc3.bias"))
                                 .toObject();
    QCOMPARE(want.value(QStringLiteral("kind")).toString(), QStringLiteral("ms_tensor"));
    const QJsonArray wantSteps = want.value(QStringLiteral("steps")).toArray();
    const QJsonArray wantValues = want.value(QStringLiteral("values")).toArray();
    QCOMPARE(wantSteps.size(), 4);

    // Wired as the application wires it: every poll of a summary file goes to the panel.
    TensorPanel panel;
    panel.show();
    const RunManifest manifest = RunScanner().scan(folder);
    ImportSession session(manifest);
    QObject::connect(&session, &ImportSession::summariesArrived, &panel, &TensorPanel::addSummaryTensors);
    session.importBlocking();
    QVERIFY(panel.catalog());
    const int series = panel.catalog()->indexOf(QStringLiteral("fc3.bias"));
    QVERIFY(series >= 0);
    const models::tensor::TensorSeries& s = panel.catalog()->series()[series];
    QCOMPARE(s.kind, QStringLiteral("summary"));
    QList<int> steps;
    for (const QJsonValue& step : wantSteps)
        steps << step.toInt();
    QCOMPARE(s.steps(), steps);
    QVERIFY(panel.showLocation(s.versions.first().location()));
    QVERIFY(panel.headerLabel()->text().contains(QStringLiteral("tag fc3.bias")));
    QVERIFY(panel.headerLabel()->text().contains(QFileInfo(file).fileName()));
    for (int v = 0; v < int(steps.size()); ++v) {
        panel.setVersion(v);
        QCOMPARE(panel.stepLabel()->text().left(QStringLiteral("step %1").arg(steps[v]).size()),
                 QStringLiteral("step %1").arg(steps[v]));
        const QJsonObject value = wantValues[v].toObject();
        QCOMPARE(value.value(QStringLiteral("dims")).toArray(), (QJsonArray { 2, 5 }));
        const QJsonArray data = value.value(QStringLiteral("float_data")).toArray();
        QCOMPARE(panel.tableModel()->rowCount(), 2);
        QCOMPARE(panel.tableModel()->columnCount(), 5);
        for (int k = 0; k < 10; ++k)
            QCOMPARE(cell(panel, k / 5, k % 5), data[k].toDouble());
    }
    // The last step against the one before.
    panel.setViewMode(TensorPanel::ViewMode::Compare);
    QCOMPARE(panel.compareCombo()->currentText(), QStringLiteral("step %1").arg(steps[2]));
    QTRY_VERIFY(panel.compareWidget()->summaryText().contains(QStringLiteral("differing")));
}

void TestTensorPanelSummaries::summaryPollsBesideManyFiles()
{
    // A folder of many dumps: polls may be gathered, but every one of them reaches the list.
    QList<models::tensor::TensorSeries> files;
    for (int i = 0; i < 20000; ++i) {
        models::tensor::TensorSeries s;
        s.name = QStringLiteral("layer%1.weight").arg(i);
        s.run = QStringLiteral("dumps");
        s.versions << version(QStringLiteral("/run/dumps/layer%1.weight.npy").arg(i), 0, { 3, 4 }, float(i));
        files << s;
    }
    TensorPanel panel;
    panel.show();
    panel.setCatalog(std::make_shared<const models::tensor::TensorCatalog>(files));
    const QString shown = panel.currentLocation();
    QVERIFY(!shown.isEmpty());
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 0 }));
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 0, 10 }));
    panel.addSummaryTensors(QStringLiteral("run1"), kSummaryFile, summaryBatch({ 0, 10, 20 }));
    QTRY_VERIFY(!panel.hasPendingSummaryTensors());
    const int series = panel.catalog()->indexOf(QStringLiteral("layer1/w"), QStringLiteral("run1"));
    QVERIFY(series >= 0);
    QCOMPARE(panel.catalog()->series()[series].steps(), (QList<int> { 0, 10, 20 }));
    QCOMPARE(panel.catalog()->series().size(), 20001);
    QCOMPARE(panel.currentLocation(), shown);
    QVERIFY(panel.showLocation(summaryLocation(20)));
    QVERIFY(tableHoldsStep(panel, 20));
}

// At the size the main window gives the Tensors dock (1440×900 screen), the inspector fits without scroll
// bars, the numbers beside the histogram; narrower, the histogram moves below the numbers and the page
// scrolls down, never sideways.

QTEST_MAIN(TestTensorPanelSummaries)
#include "tst_tensorpanelsummaries.moc"
