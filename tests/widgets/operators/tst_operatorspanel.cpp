#include "tests/models/trace/analysistestdata.h"
#include "widgets/operators/operatorspanel.h"

#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace runlens;
using namespace runlens::widgets;
using namespace runlens::widgets::operators;
using models::trace::EventKind;
using models::trace::OperatorStatsModel;

namespace {

std::shared_ptr<const models::trace::TraceStore> smallStore()
{
    test::AnalysisTraceBuilder t;
    t.slice(t.cpu(), 0, 1000, "aten::linear", EventKind::CpuOp, R"({"Input Dims": [[32, 64]]})");
    t.slice(t.cpu(), 100, 800, "aten::addmm", EventKind::CpuOp, R"({"Input Dims": [[128], [32, 64]]})");
    t.launch(0, 200, 50, 300, 400, "sgemm");
    t.slice(t.cpu(), 2000, 500, "aten::linear", EventKind::CpuOp, R"({"Input Dims": [[16, 64]]})");
    t.slice(t.cpu(), 3000, 3000000, "aten::copy_", EventKind::CpuOp, R"({"Input Dims": [[1]]})");
    return t.finish();
}

/// A MindSpore rank with two Conv2D ops (300 and 600 µs) and one Add (100 µs).
std::shared_ptr<const models::profiler::ProfilerRunData> profilerRun()
{
    auto run = std::make_shared<models::profiler::ProfilerRunData>();
    models::profiler::ProfilerRankData rank;
    rank.rank = 5;
    models::profiler::OpStats conv;
    conv.name = QStringLiteral("Default/Conv2D-op1");
    conv.type = QStringLiteral("Conv2D");
    conv.core = QStringLiteral("AI Core");
    conv.calls = 4;
    conv.totalUs = 300.0;
    models::profiler::OpStats add = conv;
    add.name = QStringLiteral("Default/Add-op2");
    add.type = QStringLiteral("Add");
    add.totalUs = 100.0;
    models::profiler::OpStats conv2 = conv;
    conv2.name = QStringLiteral("Default/Conv2D-op3");
    conv2.totalUs = 600.0;
    rank.operators.ops = { add, conv, conv2 };
    rank.operators.finish();
    run->ranks.push_back(rank);
    return run;
}

bool waitReady(OperatorsPanel& panel)
{
    if (!panel.isComputing())
        return true;
    QSignalSpy spy(&panel, &OperatorsPanel::statisticsReady);
    return spy.wait(10000) || !panel.isComputing();
}

int rowOf(const OperatorsPanel& panel, const QString& name)
{
    for (int r = 0; r < panel.proxyModel()->rowCount(); ++r) {
        if (panel.proxyModel()->index(r, 0).data(OperatorStatsModel::NameRole).toString() == name)
            return r;
    }
    return -1;
}

} // namespace

class TstOperatorsPanel : public QObject
{
    Q_OBJECT
private slots:
    void computesOnWorker();
    void filterReducesRows();
    void groupByShapes();
    void views();
    void activation();
    void csvExport();
    void exportThroughProvider();
    void clear();
    void render();
    void profilerViews();
};

void TstOperatorsPanel::computesOnWorker()
{
    OperatorsPanel panel;
    panel.setStore(smallStore());
    QVERIFY(waitReady(panel));
    QCOMPARE(panel.model()->rowCount(), 3);
    // Default sort: self time, longest first.
    QCOMPARE(panel.proxyModel()->index(0, 0).data().toString(), QStringLiteral("aten::copy_"));
    const int total = panel.model()->columnOf(OperatorStatsModel::Column::Total);
    QCOMPARE(panel.proxyModel()->index(0, total).data().toString(), QStringLiteral("3.00 ms"));
    QVERIFY(panel.findChild<QLabel*>(QStringLiteral("operatorsStatus"))->text().contains(QLatin1String("3")));
}

void TstOperatorsPanel::filterReducesRows()
{
    OperatorsPanel panel;
    panel.setStore(smallStore());
    QVERIFY(waitReady(panel));
    auto* edit = panel.findChild<QLineEdit*>(QStringLiteral("operatorsFilter"));
    QVERIFY(edit);
    QTest::keyClicks(edit, QStringLiteral("LIN"));
    QCOMPARE(panel.visibleRowCount(), 1);
    QCOMPARE(panel.proxyModel()->index(0, 0).data().toString(), QStringLiteral("aten::linear"));
    QCOMPARE(panel.filterText(), QStringLiteral("LIN"));
    // Numbers are not matched: "3" is in no name.
    panel.setFilterText(QStringLiteral("3"));
    QCOMPARE(panel.visibleRowCount(), 0);
    edit->clear();
    QCOMPARE(panel.visibleRowCount(), 3);
}

void TstOperatorsPanel::groupByShapes()
{
    OperatorsPanel panel;
    panel.setStore(smallStore());
    QVERIFY(waitReady(panel));
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("operatorsGroupBy"));
    QVERIFY(combo);
    combo->setCurrentIndex(1);
    QVERIFY(panel.groupByInputDims());
    QVERIFY(waitReady(panel));
    QCOMPARE(panel.model()->rowCount(), 4);
    QCOMPARE(panel.model()->columnOf(OperatorStatsModel::Column::InputDims), 1);
    // Shapes are matched by the filter too.
    panel.setFilterText(QStringLiteral("[[16"));
    QCOMPARE(panel.visibleRowCount(), 1);
    // Back to names: the cached result, no worker.
    combo->setCurrentIndex(0);
    QVERIFY(!panel.isComputing());
    panel.setFilterText({});
    QCOMPARE(panel.model()->rowCount(), 3);
}

void TstOperatorsPanel::views()
{
    OperatorsPanel panel;
    panel.setStore(smallStore());
    QVERIFY(waitReady(panel));
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("operatorsView"));
    combo->setCurrentIndex(combo->findData(int(OperatorStatsModel::View::Device)));
    QCOMPARE(panel.view(), OperatorStatsModel::View::Device);
    // Sorted by device self time: aten::addmm launched the only kernel.
    QCOMPARE(panel.proxyModel()->index(0, 0).data().toString(), QStringLiteral("aten::addmm"));
    panel.setView(OperatorStatsModel::View::Kernels);
    QCOMPARE(combo->currentData().toInt(), int(OperatorStatsModel::View::Kernels));
    QCOMPARE(panel.visibleRowCount(), 1);
    QCOMPARE(panel.proxyModel()->index(0, 0).data().toString(), QStringLiteral("sgemm"));
}

void TstOperatorsPanel::activation()
{
    OperatorsPanel panel;
    panel.resize(900, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto store = smallStore();
    panel.setStore(store);
    QVERIFY(waitReady(panel));
    QSignalSpy activated(&panel, &OperatorsPanel::operatorActivated);
    QSignalSpy selected(&panel, &OperatorsPanel::operatorSelected);
    QSignalSpy jump(&panel, &OperatorsPanel::longestOccurrenceRequested);
    QTableView* table = panel.tableView();
    const int row = rowOf(panel, QStringLiteral("aten::linear"));
    QVERIFY(row >= 0);
    const QRect rect = table->visualRect(panel.proxyModel()->index(row, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.last().at(0).toString(), QStringLiteral("aten::linear"));
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.last().at(0).toString(), QStringLiteral("aten::linear"));
    QCOMPARE(jump.count(), 1);
    const int track = jump.last().at(0).toInt();
    const quint32 slice = jump.last().at(1).toUInt();
    QCOMPARE(store->tracks()[std::size_t(track)].duration[slice], std::int64_t(1000)); // the longer call
}

void TstOperatorsPanel::csvExport()
{
    OperatorsPanel panel;
    panel.setStore(smallStore());
    QVERIFY(waitReady(panel));
    QTemporaryDir dir;
    panel.setExportDirectory(dir.path());
    panel.setFilterText(QStringLiteral("aten::l"));
    QSignalSpy exported(&panel, &OperatorsPanel::exported);
    QTest::mouseClick(panel.findChild<QToolButton*>(QStringLiteral("operatorsExport")), Qt::LeftButton);
    QCOMPARE(exported.count(), 1);
    const QString fileName = exported.last().at(0).toString();
    QCOMPARE(fileName, dir.filePath(QStringLiteral("operators.csv")));
    QFile file(fileName);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.value(0),
             QByteArray("operator,calls,host_total_ns,host_self_ns,host_average_ns,host_min_ns,host_max_ns,share"));
    QCOMPARE(lines.value(1), QByteArray("aten::linear,2,1500,700,750,500,1000,0.000233217"));
    QCOMPARE(lines.size(), 3); // header, one row, final newline
    // A second export does not overwrite the first.
    QCOMPARE(panel.requestCsvExport(), dir.filePath(QStringLiteral("operators-2.csv")));
}

void TstOperatorsPanel::exportThroughProvider()
{
    OperatorsPanel panel;
    panel.setStore(smallStore());
    QVERIFY(waitReady(panel));
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("chosen.csv"));
    QString suggested;
    panel.setExportFileNameProvider([&](ChartExporter::Format format, const QString& name) {
        suggested = name;
        return format == ChartExporter::Format::Csv ? target : QString();
    });
    QCOMPARE(panel.requestCsvExport(), target);
    QVERIFY(suggested.endsWith(QLatin1String("operators.csv")));
    QVERIFY(QFile::exists(target));
    panel.setExportFileNameProvider([](ChartExporter::Format, const QString&) { return QString(); });
    QCOMPARE(panel.requestCsvExport(), QString()); // cancelled
    QSignalSpy failed(&panel, &OperatorsPanel::exportFailed);
    QVERIFY(!panel.exportCsv(dir.filePath(QStringLiteral("missing/dir/x.csv"))));
}

void TstOperatorsPanel::clear()
{
    OperatorsPanel panel;
    panel.setStore(smallStore());
    QVERIFY(waitReady(panel));
    panel.setStore(nullptr);
    QCOMPARE(panel.model()->rowCount(), 0);
    QCOMPARE(panel.toCsv().count('\n'), 1);
}

void TstOperatorsPanel::render()
{
    OperatorsPanel panel;
    panel.resize(1100, 460);
    panel.setStore(test::syntheticTrainingTrace(8));
    QVERIFY(waitReady(panel));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QImage image = panel.grab().toImage();
    QVERIFY(!image.isNull());
    const QString out = qEnvironmentVariable("RUNLENS_RENDER_DIR");
    if (!out.isEmpty()) {
        QVERIFY(image.save(out + QStringLiteral("/operators-host.png")));
        panel.setGroupByInputDims(true);
        QVERIFY(waitReady(panel));
        QCoreApplication::processEvents();
        QVERIFY(panel.grab().save(out + QStringLiteral("/operators-shapes.png")));
        panel.setGroupByInputDims(false);
        QVERIFY(waitReady(panel));
        panel.setView(OperatorStatsModel::View::Device);
        QVERIFY(panel.grab().save(out + QStringLiteral("/operators-device.png")));
        panel.setView(OperatorStatsModel::View::Kernels);
        QVERIFY(panel.grab().save(out + QStringLiteral("/operators-kernels.png")));
    }
}

void TstOperatorsPanel::profilerViews()
{
    OperatorsPanel panel;
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("operatorsView"));
    auto* group = panel.findChild<QComboBox*>(QStringLiteral("operatorsGroupBy"));
    auto* status = panel.findChild<QLabel*>(QStringLiteral("operatorsStatus"));
    QVERIFY(combo && group && status);
    QCOMPARE(combo->count(), 3);

    // Without a trace, the profiler's type view shows at once: Conv2D (900 µs) above Add (100 µs).
    panel.setProfilerData(profilerRun(), 0);
    QVERIFY(panel.isShowingProfiler());
    QCOMPARE(combo->count(), 2);
    QVERIFY(combo->currentText().contains(QLatin1String("rank 5")));
    QVERIFY(group->isHidden());
    QCOMPARE(panel.visibleRowCount(), 2);
    QCOMPARE(panel.tableView()->model()->index(0, 0).data().toString(), QStringLiteral("Conv2D"));
    QVERIFY(status->text().contains(QLatin1Char('2')));

    // The op level, filtered and exported as shown.
    QVERIFY(panel.showProfilerView(false));
    QCOMPARE(panel.visibleRowCount(), 3);
    panel.setFilterText(QStringLiteral("conv2d"));
    QCOMPARE(panel.visibleRowCount(), 2);
    const QList<QByteArray> lines = panel.toCsv().split('\n');
    QVERIFY(lines.size() >= 3);
    QVERIFY(lines[0].startsWith("name,"));
    QVERIFY(lines[0].contains("total_us"));
    QVERIFY(lines[1].startsWith("Default/Conv2D-op3,"));
    QVERIFY(lines[2].startsWith("Default/Conv2D-op1,"));
    panel.setFilterText({});

    // A trace adds its views; the profiler view stays selected until another is picked.
    panel.setStore(smallStore());
    QVERIFY(waitReady(panel));
    QCOMPARE(combo->count(), 6); // three trace views, a separator, two profiler views
    QVERIFY(panel.isShowingProfiler());
    panel.setView(OperatorsPanel::View::Host);
    QVERIFY(!panel.isShowingProfiler());
    QVERIFY(!group->isHidden());
    QCOMPARE(panel.tableView()->model(), panel.proxyModel());
    QCOMPARE(panel.visibleRowCount(), 3); // aten::linear, aten::addmm, aten::copy_
    QSignalSpy selected(&panel, &OperatorsPanel::operatorSelected);
    panel.tableView()->selectRow(0);
    QCOMPARE(selected.size(), 1);

    panel.setProfilerData(nullptr, -1);
    QCOMPARE(combo->count(), 3);
    QVERIFY(!panel.isShowingProfiler());
}

QTEST_MAIN(TstOperatorsPanel)
#include "tst_operatorspanel.moc"
