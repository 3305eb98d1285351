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

class TestTensorPanel : public QObject
{
    Q_OBJECT
private slots:
    void emptyState();
    void showsTheFirstSeries();
    void slicingByKeyboardChangesCells();
    void typedSliceAndInvalidSlice();
    void stepSliderSwitchesVersionsKeepingTheSlice();
    void slicesRememberedPerSeries();
    void locationsAndNodeKeys();
    void asynchronousSource();
    void openingErrorNamesTheFile();
    void filterField();
    void compareWithPreviousStep();
    void exportsWithoutDialogs();
    void toolbarDrivesTableAndHeatmap();
    void nanBadgeOnceStatisticsAreKnown();
    void sampleRunDumps();
    void fitsItsDock();
};

void TestTensorPanel::emptyState()
{
    TensorPanel panel;
    panel.show();
    QVERIFY(panel.emptyLabel()->isVisible());
    QVERIFY(panel.emptyLabel()->text().contains(QStringLiteral(".safetensors")));
    QVERIFY(panel.emptyLabel()->text().contains(QStringLiteral("MindSpore")));
    QVERIFY(panel.currentLocation().isEmpty());
    QVERIFY(!panel.showLocation(QStringLiteral("/x.npy")));
    panel.setCatalog(std::make_shared<const models::tensor::TensorCatalog>());
    QVERIFY(panel.emptyLabel()->isVisible());
}

void TestTensorPanel::showsTheFirstSeries()
{
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog());
    QVERIFY(!panel.emptyLabel()->isVisible());
    // Sorted by name: conv1.bias first; it opens on a worker.
    QCOMPARE(panel.currentSeries(), 0);
    QCOMPARE(panel.currentLocation(), QStringLiteral("/run/step_30/conv1.bias.npy"));
    QTRY_VERIFY(panel.currentTensor().has_value());
    QCOMPARE(panel.tableModel()->rowCount(), 5);
    QCOMPARE(cell(panel, 4), 11.0);
    QVERIFY(!panel.stepSlider()->isVisibleTo(&panel));
    QVERIFY(panel.headerLabel()->text().contains(QStringLiteral("conv1.bias")));
    QVERIFY(panel.headerLabel()->text().contains(QStringLiteral("/run/step_30/conv1.bias.npy")));
}

void TestTensorPanel::slicingByKeyboardChangesCells()
{
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog());
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/conv1.weight.npy")));
    QCOMPARE(panel.currentVersion(), 2);
    QVERIFY(panel.headerLabel()->text().contains(QStringLiteral("strides [240, 80, 20, 4]")));
    runlens::widgets::tensor::SliceControls* slice = panel.sliceControls();
    QCOMPARE(panel.tableModel()->rowCount(), 4);
    QCOMPARE(panel.tableModel()->columnCount(), 5);
    QCOMPARE(cell(panel, 3, 4), 590034.0);

    QTest::keyClick(slice->indexSpinBox(1), Qt::Key_Up);
    QCOMPARE(cell(panel, 3, 4), 590134.0);
    QTest::keyClick(slice->indexSpinBox(0), Qt::Key_Up);
    QCOMPARE(cell(panel, 0, 0), 591100.0);

    // Rows: dim 2 -> dim 1 (one up), so dim 2 gets an index (0).
    QTest::keyClick(slice->rowCombo(), Qt::Key_Up);
    QCOMPARE(slice->expression(), QStringLiteral("[1, :, 0, :]"));
    QCOMPARE(panel.tableModel()->rowCount(), 3);
    QCOMPARE(cell(panel, 2, 3), 591203.0);

    // Columns: dim 3 -> none (Home), a vector along dim 1.
    QTest::keyClick(slice->columnCombo(), Qt::Key_Home);
    QCOMPARE(panel.tableModel()->columnCount(), 1);
    QCOMPARE(panel.tableModel()->rowCount(), 3);
    QCOMPARE(cell(panel, 2), 591200.0);

    // Rows after columns: rows dim 3, columns dim 1: the table is 5 x 3.
    slice->setColumnDimension(1);
    slice->setRowDimension(3);
    QVERIFY(slice->isTransposed());
    QCOMPARE(panel.tableModel()->rowCount(), 5);
    QCOMPARE(panel.tableModel()->columnCount(), 3);
    QCOMPARE(cell(panel, 4, 2), 591204.0);
}

void TestTensorPanel::typedSliceAndInvalidSlice()
{
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog());
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_0/conv1.weight.npy")));
    QLineEdit* edit = panel.sliceControls()->expressionEdit();
    edit->selectAll();
    QTest::keyClicks(edit, QStringLiteral("[-1, 2, 1::2, ::-1]"));
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(panel.tableModel()->rowCount(), 2);
    QCOMPARE(panel.tableModel()->columnCount(), 5);
    QCOMPARE(cell(panel, 0, 0), 1214.0);
    QCOMPARE(cell(panel, 1, 4), 1230.0);
    // Headers show the tensor's indices: rows 1, 3; columns 4 .. 0.
    QCOMPARE(panel.tableModel()->headerData(1, Qt::Vertical).toString(), QStringLiteral("3"));
    QCOMPARE(panel.tableModel()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("4"));

    edit->selectAll();
    QTest::keyClicks(edit, QStringLiteral("[0, 5]"));
    QTest::keyClick(edit, Qt::Key_Return);
    QVERIFY(panel.sliceControls()->errorLabel()->isVisible());
    QVERIFY(panel.sliceControls()->errorText().contains(QStringLiteral("out of range")));
    QCOMPARE(cell(panel, 1, 4), 1230.0); // the last valid view stays

    edit->selectAll();
    QTest::keyClicks(edit, QStringLiteral("[0]"));
    QTest::keyClick(edit, Qt::Key_Return);
    QVERIFY(panel.sliceControls()->errorText().contains(QStringLiteral("pick indices for 1 more dimensions")));
}

void TestTensorPanel::stepSliderSwitchesVersionsKeepingTheSlice()
{
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog());
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/conv1.weight.npy")));
    QVERIFY(panel.stepSlider()->isVisible());
    QCOMPARE(panel.stepSlider()->maximum(), 2);
    QCOMPARE(panel.stepSlider()->value(), 2);
    QVERIFY(panel.stepLabel()->text().contains(QStringLiteral("59")));
    QVERIFY(panel.sliceControls()->setExpression(QStringLiteral("[1, 2, :, :]")));
    QCOMPARE(cell(panel, 3, 4), 591234.0);

    QSignalSpy located(&panel, &TensorPanel::currentLocationChanged);
    panel.stepSlider()->setFocus();
    QTest::keyClick(panel.stepSlider(), Qt::Key_Left);
    QCOMPARE(panel.currentLocation(), QStringLiteral("/run/step_30/conv1.weight.npy"));
    QCOMPARE(located.size(), 1);
    QVERIFY(panel.stepLabel()->text().contains(QStringLiteral("30")));
    QCOMPARE(panel.sliceControls()->expression(), QStringLiteral("[1, 2, :, :]"));
    QCOMPARE(cell(panel, 3, 4), 301234.0);
    QTest::keyClick(panel.stepSlider(), Qt::Key_Home);
    QCOMPARE(cell(panel, 3, 4), 1234.0);
    QCOMPARE(panel.currentVersion(), 0);
}

void TestTensorPanel::slicesRememberedPerSeries()
{
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog());
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/conv1.weight.npy")));
    panel.sliceControls()->setIndex(0, 1);
    panel.sliceControls()->setRowDimension(3);
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/fc1.weight.npy")));
    QCOMPARE(panel.sliceControls()->expression(), QStringLiteral("[0, 0, :, :]"));
    QCOMPARE(cell(panel, 3, 4), 500034.0);
    // Back through the list: the slice and the transposed choice come back.
    const QModelIndex weightRow = panel.filterModel()->mapFromSource(
        panel.listModel()->indexOfSeries(panel.catalog()->indexOf(QStringLiteral("conv1.weight"))));
    panel.listView()->setCurrentIndex(weightRow);
    QCOMPARE(panel.currentLocation(), QStringLiteral("/run/step_59/conv1.weight.npy"));
    QCOMPARE(panel.sliceControls()->expression(), QStringLiteral("[1, 0, :, :]"));
    QVERIFY(panel.sliceControls()->isTransposed());
    QCOMPARE(panel.tableModel()->rowCount(), 5);
    QCOMPARE(cell(panel, 4, 3), 591034.0);
}

void TestTensorPanel::locationsAndNodeKeys()
{
    TensorPanel panel;
    panel.setCatalog(catalog());
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_30/conv1.weight.npy")));
    QCOMPARE(panel.currentLocation(), QStringLiteral("/run/step_30/conv1.weight.npy"));
    QVERIFY(!panel.showLocation(QStringLiteral("/run/step_31/conv1.weight.npy")));
    QCOMPARE(panel.currentLocation(), QStringLiteral("/run/step_30/conv1.weight.npy"));
    QVERIFY(panel.showNodeKey(QStringLiteral("fc1")));
    QCOMPARE(panel.currentLocation(), QStringLiteral("/run/step_59/fc1.weight.npy"));
    QVERIFY(!panel.showNodeKey(QStringLiteral("conv9")));
    // The first series of conv1 (conv1.bias), at the step shown when it has one.
    QVERIFY(panel.showNodeKey(QStringLiteral("conv1")));
    QCOMPARE(panel.currentLocation(), QStringLiteral("/run/step_30/conv1.bias.npy"));
    const QModelIndex current = panel.filterModel()->mapToSource(panel.listView()->currentIndex());
    QCOMPARE(current.data().toString(), QStringLiteral("conv1.bias"));

    QVERIFY(!panel.headerLabel()->text().contains(QStringLiteral("File metadata")));
    {
        // A safetensors entry shows what the writer recorded about its file.
        QList<models::tensor::TensorSeries> all = catalog()->series();
        all[0].versions[0].fileMetadata = std::make_shared<const QMap<QString, QString>>(
            QMap<QString, QString> { { QStringLiteral("format"), QStringLiteral("pt") } });
        TensorPanel withMetadata;
        withMetadata.setCatalog(std::make_shared<const models::tensor::TensorCatalog>(all));
        QVERIFY(withMetadata.showLocation(all[0].versions[0].location()));
        QVERIFY2(withMetadata.headerLabel()->text().contains(QStringLiteral("File metadata: format = pt")),
                 qPrintable(withMetadata.headerLabel()->text()));
    }

    // With a graph open, the header links the tensor to its node.
    QVERIFY(!panel.headerLabel()->text().contains(QStringLiteral("href")));
    panel.setNodeLinksEnabled(true);
    QVERIFY2(panel.headerLabel()->text().contains(QStringLiteral("Show conv1 in the graph")),
             qPrintable(panel.headerLabel()->text()));
    QSignalSpy requested(&panel, &TensorPanel::nodeRequested);
    emit panel.headerLabel()->linkActivated(QStringLiteral("node"));
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.first().first().toString(), QStringLiteral("conv1"));
}

void TestTensorPanel::asynchronousSource()
{
    TensorPanel panel;
    panel.setCatalog(catalog());
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/fc1.weight.npy")));
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_30/conv1.bias.npy")));
    QTRY_COMPARE(panel.tableModel()->rowCount(), 5);
    QCOMPARE(cell(panel, 2), 9.0);
    QCOMPARE(panel.sliceControls()->expression(), QStringLiteral("[:]"));
}

void TestTensorPanel::openingErrorNamesTheFile()
{
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog());
    QSignalSpy status(&panel, &TensorPanel::statusMessage);
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/zz.broken.npy")));
    QVERIFY(panel.messageLabel()->isVisible());
    QVERIFY(panel.messageLabel()->text().contains(QStringLiteral("/run/step_59/zz.broken.npy")));
    QVERIFY(panel.messageLabel()->text().contains(QStringLiteral("shorter than the shape claims")));
    QVERIFY(!panel.currentTensor());
    QCOMPARE(panel.tableModel()->rowCount(), 0);
    QVERIFY(!status.isEmpty());
    // The next tensor clears the message.
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/fc1.weight.npy")));
    QVERIFY(!panel.messageLabel()->isVisible());
}

void TestTensorPanel::filterField()
{
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog());
    QVERIFY(panel.filterEdit()->toolTip().contains(QStringLiteral("kind:")));
    QVERIFY(panel.filterEdit()->placeholderText().contains(QStringLiteral("step:")));
    QCOMPARE(panel.filterModel()->rowCount(), 4);
    QTest::keyClicks(panel.filterEdit(), QStringLiteral("kind:weight step:30"));
    QCOMPARE(panel.filterModel()->rowCount(), 1);
    QCOMPARE(panel.filterModel()->index(0, 0).data().toString(), QStringLiteral("conv1.weight"));
    panel.filterEdit()->clear();
    QTest::keyClicks(panel.filterEdit(), QStringLiteral("weight step:59"));
    QCOMPARE(panel.filterModel()->rowCount(), 2);
    // Showing a hidden tensor clears the filter.
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_30/conv1.bias.npy")));
    QCOMPARE(panel.filterEdit()->text(), QString());
    QCOMPARE(panel.filterModel()->rowCount(), 4);
}

void TestTensorPanel::compareWithPreviousStep()
{
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog());
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/conv1.weight.npy")));
    panel.setViewMode(TensorPanel::ViewMode::Compare);
    QCOMPARE(panel.viewTabs()->currentIndex(), 2);
    QCOMPARE(panel.compareCombo()->currentText(), QStringLiteral("step 30"));
    // Offered: the other steps, then fc1.weight of the same shape; never conv1.bias.
    QStringList offered;
    for (int i = 0; i < panel.compareCombo()->count(); ++i)
        offered << panel.compareCombo()->itemText(i);
    QCOMPARE(
        offered,
        (QStringList { QStringLiteral("step 0"), QStringLiteral("step 30"), QStringLiteral("fc1.weight (step 59)") }));
    QTRY_VERIFY(!panel.compareWidget()->summaryText().isEmpty());
    QVERIFY2(!panel.compareWidget()->summaryText().contains(QStringLiteral("Pick two")),
             qPrintable(panel.compareWidget()->summaryText()));

    // The first step compares with the next one.
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_0/conv1.weight.npy")));
    QCOMPARE(panel.compareCombo()->currentText(), QStringLiteral("step 30"));
}

void TestTensorPanel::exportsWithoutDialogs()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    TensorPanel panel;
    panel.setDefaultExportDirectory(dir.path());
    panel.setCatalog(catalog());
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_30/conv1.weight.npy")));
    QVERIFY(panel.sliceControls()->setExpression(QStringLiteral("[1, 2, 1:3, ::2]")));

    const QString csv = panel.requestExport(TensorPanel::ExportFormat::Csv);
    QVERIFY(!csv.isEmpty());
    QCOMPARE(QFileInfo(csv).absolutePath(), QDir(dir.path()).absolutePath());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("301210,301212,301214\n301220,301222,301224\n"));
    // A second export never overwrites the first.
    const QString again = panel.requestExport(TensorPanel::ExportFormat::Csv);
    QVERIFY(!again.isEmpty());
    QVERIFY(again != csv);

    const QString npy = panel.requestExport(TensorPanel::ExportFormat::Npy);
    QVERIFY(npy.endsWith(QStringLiteral(".npy")));
    QFile npyFile(npy);
    QVERIFY(npyFile.open(QIODevice::ReadOnly));
    QVERIFY(npyFile.readAll().startsWith("\x93NUMPY"));

    const QString png = panel.requestExport(TensorPanel::ExportFormat::Png);
    QVERIFY(!png.isEmpty());
    QImage image(png);
    QCOMPARE(image.size(), QSize(3, 2));

    // The provider decides; an empty answer cancels.
    QString askedFilter;
    panel.setFileNameProvider([&](const QString&, const QString& filter) {
        askedFilter = filter;
        return QString();
    });
    QCOMPARE(panel.requestExport(TensorPanel::ExportFormat::Csv), QString());
    QVERIFY(askedFilter.contains(QStringLiteral("*.csv")));
    const QString chosen = dir.filePath(QStringLiteral("chosen.npy"));
    panel.setFileNameProvider([&](const QString&, const QString&) { return chosen; });
    QCOMPARE(panel.requestExport(TensorPanel::ExportFormat::Npy), chosen);
    QVERIFY(QFileInfo::exists(chosen));
}

void TestTensorPanel::toolbarDrivesTableAndHeatmap()
{
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog());
    QVERIFY(panel.showLocation(QStringLiteral("/run/step_59/conv1.weight.npy")));
    QTest::keyClick(panel.precisionSpinBox(), Qt::Key_Down);
    QCOMPARE(panel.tableModel()->precision(), 5);
    panel.scientificAction()->trigger();
    QVERIFY(panel.tableModel()->scientific());

    panel.setViewMode(TensorPanel::ViewMode::Heatmap);
    panel.colorMapCombo()->setCurrentIndex(panel.colorMapCombo()->findData(int(ColorMap::Grey)));
    QCOMPARE(panel.heatmap()->colorMap(), ColorMap::Grey);
    // Slice range: [590000, 590034] for [0, 0, :, :]; whole range: [590000, 591234] once computed.
    QCOMPARE(panel.heatmap()->shownRange(), (std::pair<double, double>(590000, 590034)));
    panel.scaleCombo()->setCurrentIndex(1);
    QTRY_COMPARE(panel.heatmap()->scale(), runlens::widgets::tensor::HeatmapView::Scale::Fixed);
    QCOMPARE(panel.heatmap()->shownRange(), (std::pair<double, double>(590000, 591234)));
    panel.scaleCombo()->setCurrentIndex(0);
    QCOMPARE(panel.heatmap()->scale(), runlens::widgets::tensor::HeatmapView::Scale::Slice);
    // The colour scale under the heatmap follows the map and the range.
    auto* legend = panel.findChild<QLabel*>(QStringLiteral("tensorHeatmapLegend"));
    QVERIFY(legend && legend->isVisible());
    const QImage legendImage = legend->pixmap().toImage();
    QCOMPARE(legendImage, panel.heatmap()->colorLegend());
    QCOMPARE(QColor(legendImage.pixel(0, 2)), QColor(colorTable(ColorMap::Grey).front()));
    panel.colorMapCombo()->setCurrentIndex(panel.colorMapCombo()->findData(int(ColorMap::Viridis)));
    QCOMPARE(QColor(legend->pixmap().toImage().pixel(0, 2)), QColor(colorTable(ColorMap::Viridis).front()));
    // A vector of a 4-D tensor is one row; choosing no dimensions at all is explained, not drawn.
    QVERIFY(panel.sliceControls()->setExpression(QStringLiteral("[0, 0, 0, 0]")));
    auto* note = panel.findChild<QLabel*>(QStringLiteral("tensorHeatmapNote"));
    QVERIFY(note);
    QVERIFY2(!note->text().isEmpty() && !legend->isVisible(), qPrintable(note->text()));
    QVERIFY(panel.sliceControls()->setExpression(QStringLiteral("[0, 0, :, :]")));
    QVERIFY(note->text().isEmpty() && legend->isVisible());

    // Hovering reports the element in the tensor's indices.
    QSignalSpy status(&panel, &TensorPanel::statusMessage);
    QVERIFY(panel.sliceControls()->setExpression(QStringLiteral("[0, 0, 1:, ::2]")));
    emit panel.heatmap()->hovered(1, 2, 590024.0);
    QVERIFY(!status.isEmpty());
    QVERIFY2(status.last().first().toString().contains(QStringLiteral("[2, 4]")),
             qPrintable(status.last().first().toString()));
}

void TestTensorPanel::nanBadgeOnceStatisticsAreKnown()
{
    std::vector<std::byte> bytes(4 * 4);
    const float values[4] = { 1.0f, std::numeric_limits<float>::quiet_NaN(), 2.0f, 3.0f };
    std::memcpy(bytes.data(), values, sizeof values);
    models::tensor::Tensor t;
    t.shape = { 4 };
    t.strides = { 4 };
    t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    models::tensor::TensorSeries s;
    s.name = QStringLiteral("loss.act");
    s.kind = QStringLiteral("act");
    models::tensor::TensorInfo info;
    info.path = QStringLiteral("/run/loss.act.npy");
    info.shape = { 4 };
    info.byteSize = 16;
    info.source = std::make_shared<TestSource>(t, QString());
    s.versions << info;
    TensorPanel panel;
    panel.setCatalog(std::make_shared<const models::tensor::TensorCatalog>(QList<models::tensor::TensorSeries> { s }));
    const QModelIndex status = panel.listModel()->index(0, models::tensor::TensorListModel::StatusColumn);
    QTRY_COMPARE(status.data(models::tensor::TensorListModel::NanInfRole), QVariant(true));
    QCOMPARE(status.data().toString(), QStringLiteral("NaN/Inf"));
}

void TestTensorPanel::sampleRunDumps()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString root = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
    const QString file = root + QStringLiteral("/dump/step_30/conv1.weight.npy");
    RUNLENS_REQUIRE_SAMPLE_FILE(file);
    auto catalog = std::make_shared<const models::tensor::TensorCatalog>(
        importers::tensor::TensorCatalogBuilder::build(RunScanner().scan(root)));
    TensorPanel panel;
    panel.show();
    panel.setCatalog(catalog);
    QVERIFY(panel.showLocation(QDir::cleanPath(file)));
    QVERIFY(panel.currentTensor());
    QVERIFY(panel.stepSlider()->isVisible());
    QVERIFY(panel.stepSlider()->maximum() >= 2);

    // The shown cells against numpy reading the same file.
    RUNLENS_PYTHON_ORACLE(
        python,
        { QStringLiteral("-c"),
          QStringLiteral("import numpy as np, sys\n"
                         "a = np.load(sys.argv[1])\n"
                         "print(a.ndim)\n"
                         "v = a[(0,) * (a.ndim - 2)] if a.ndim > 2 else a\n"
                         "print(v.shape[0], v.shape[1] if v.ndim > 1 else 1)\n"
                         "print(' '.join('%.9g' % x for x in np.atleast_2d(v).reshape(v.shape[0], -1).ravel()))\n"),
          file });
    const QStringList lines = python.split(QLatin1Char('\n'));
    QVERIFY(lines.size() >= 3);
    const QStringList dims = lines[1].split(QLatin1Char(' '));
    const int rows = dims[0].toInt();
    const int columns = dims[1].toInt();
    QCOMPARE(panel.tableModel()->rowCount(), rows);
    QCOMPARE(panel.tableModel()->columnCount(), columns);
    const QStringList values = lines[2].split(QLatin1Char(' '));
    QCOMPARE(values.size(), rows * columns);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c)
            QCOMPARE(float(cell(panel, r, c)), values[r * columns + c].toFloat());

    // Another step of the same series keeps the slice and shows that file's values.
    QTest::keyClick(panel.stepSlider(), Qt::Key_Home);
    QVERIFY(panel.currentLocation().contains(QStringLiteral("step_0")));
    QCOMPARE(panel.tableModel()->rowCount(), rows);
}

void TestTensorPanel::fitsItsDock()
{
    TensorPanel panel;
    panel.resize(997, 809);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setCatalog(catalog());
    QTRY_VERIFY(panel.currentTensor().has_value());
    QScrollArea* page = nullptr;
    for (QScrollArea* area : panel.findChildren<QScrollArea*>()) {
        if (area->widget() && area->widget()->isAncestorOf(panel.headerLabel()))
            page = area;
    }
    QVERIFY(page);
    auto* stats = panel.findChild<runlens::widgets::tensor::TensorStatsWidget*>();
    QVERIFY(stats);
    QCoreApplication::processEvents();
    QCOMPARE(page->horizontalScrollBar()->maximum(), 0);
    QCOMPARE(page->verticalScrollBar()->maximum(), 0);
    QVERIFY(!stats->isStacked());
    QVERIFY(stats->table()->isVisible());
    QVERIFY(stats->height() >= stats->minimumSizeHint().height());

    panel.resize(640, 809);
    QCoreApplication::processEvents();
    QTRY_VERIFY(stats->isStacked());
    QCOMPARE(page->horizontalScrollBar()->maximum(), 0);
    QVERIFY(stats->width() <= page->viewport()->width());
}

QTEST_MAIN(TestTensorPanel)
#include "tst_tensorpanel.moc"
