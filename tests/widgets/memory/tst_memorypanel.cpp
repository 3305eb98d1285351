#include "importers/memory/tracememory.h"
#include "importers/trace/chrometracereader.h"
#include "models/core/timerange.h"
#include "models/memory/memorydownsample.h"
#include "models/memory/memoryoptablemodel.h"
#include "tests/models/trace/analysistestdata.h"
#include "tests/testutils.h"
#include "widgets/memory/memoryaxis.h"
#include "widgets/memory/memorychart.h"
#include "widgets/memory/memorylifetimeview.h"
#include "widgets/memory/memorypanel.h"

#include <QAbstractItemModel>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

using namespace runlens;
using namespace runlens::importers::memory;
using namespace runlens::models;
using namespace runlens::models::memory;
using namespace runlens::widgets;
using namespace runlens::widgets::memory;
using models::trace::EventKind;

namespace {

constexpr std::int64_t kT0 = 1'000'000'000; ///< trace start (ns)
constexpr std::int64_t kStep = 10'000; ///< 10 µs between samples
constexpr int kSamples = 1000;
constexpr int kPeakIndex = 600;
constexpr double kPeakBytes = 4.5e9;
constexpr std::int64_t kCapacity = 8'000'000'000;

std::int64_t sampleX(int i)
{
    return kT0 + std::int64_t(i) * kStep;
}

double allocatedAt(int i)
{
    return i == kPeakIndex ? kPeakBytes : 1e9 + double(i % 50) * 1e6;
}

struct Trace
{
    std::shared_ptr<const models::trace::TraceStore> store;
    int cpu = -1;
    std::map<int, std::uint32_t> memorySlices; ///< sample index -> its `[memory]` instant on the CPU track
};

constexpr int kFirstInstant = kPeakIndex - 10;
constexpr int kLastInstant = kPeakIndex + 10;

/// Step 3 over the whole curve; "aten::outer" around the peak holding "aten::inner_alloc".
Trace peakTrace()
{
    test::AnalysisTraceBuilder t;
    t.step(0, 3, kT0, std::int64_t(kSamples) * kStep);
    t.slice(t.cpu(), sampleX(kPeakIndex - 10), 20 * kStep, "aten::outer", EventKind::CpuOp);
    t.slice(t.cpu(), sampleX(kPeakIndex) - kStep / 2, kStep, "aten::inner_alloc", EventKind::CpuOp);
    // The allocations around the peak as `[memory]` instants, so the op table can attribute them.
    auto& strings = t.builder().strings();
    for (int i = kFirstInstant; i <= kLastInstant; ++i)
        t.builder().addSlice(t.cpu(), sampleX(i), 0, strings.intern("[memory]"), strings.intern("cpu_instant_event"),
                             EventKind::Memory, {}, models::trace::Instant);
    Trace trace;
    trace.store = t.finish();
    // Track indices change when the store is finished: find the CPU thread again.
    for (std::size_t i = 0; i < trace.store->tracks().size(); ++i) {
        if (trace.store->tracks()[i].type == models::trace::TrackType::Thread)
            trace.cpu = int(i);
    }
    const models::trace::Track& cpu = trace.store->tracks()[std::size_t(trace.cpu)];
    for (std::size_t s = 0; s < cpu.start.size(); ++s) {
        if (cpu.kind[s] == EventKind::Memory)
            trace.memorySlices[int((cpu.start[s] - kT0) / kStep)] = std::uint32_t(s);
    }
    return trace;
}

/// A Kineto-like device: allocated with one spike, flat reserved, a capacity, two OOMs, and one
/// allocation event per sample (those with a `[memory]` instant in `trace` attributed to it).
std::shared_ptr<const MemoryProfile> kinetoProfile(const Trace* trace = nullptr, bool relative = false)
{
    auto profile = std::make_shared<MemoryProfile>();
    profile->kind = MemorySourceKind::KinetoTrace;
    profile->paths << QStringLiteral("rank0.json");
    MemoryDevice device;
    device.label = QStringLiteral("cuda:0");
    device.deviceType = 1;
    device.deviceId = 0;
    device.capacity = kCapacity;
    device.relative = relative;
    device.allocated.name = QStringLiteral("Allocated");
    device.reserved.name = QStringLiteral("Reserved");
    for (int i = 0; i < kSamples; ++i) {
        device.allocated.x.push_back(sampleX(i));
        device.allocated.bytes.push_back(allocatedAt(i));
        device.reserved.x.push_back(sampleX(i));
        device.reserved.bytes.push_back(5e9);
        MemoryEvent event;
        event.x = sampleX(i);
        event.bytes = i % 2 == 0 ? 4096 : -1024;
        if (trace && trace->memorySlices.count(i)) {
            event.track = trace->cpu;
            event.slice = trace->memorySlices.at(i);
        }
        device.events.push_back(event);
    }
    device.ooms.push_back({ sampleX(700), 1 << 20, 0, -1, 0 });
    device.ooms.push_back({ sampleX(800), 1 << 20, 0, -1, 0 });
    profile->devices.push_back(std::move(device));
    return profile;
}

std::int64_t sliceIndex(const models::trace::TraceStore& store, int track, const QString& name)
{
    const models::trace::Track& t = store.tracks()[std::size_t(track)];
    for (std::size_t i = 0; i < t.start.size(); ++i) {
        if (store.strings().text(t.name_[i]) == name)
            return std::int64_t(i);
    }
    return -1;
}

void showPanel(MemoryPanel& panel)
{
    panel.resize(900, 640);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.chart()->replot();
}

/// The time under a pixel column by the axis rect's geometry and the visible range (independent of the
/// chart's own conversion), and the tolerance of one pixel.
std::int64_t timeAtPixel(const MemoryChart& chart, TimeSpan visible, int px)
{
    const QRect rect = chart.axisRect()->rect();
    return visible.start + std::int64_t(double(px - rect.left()) / rect.width() * double(visible.duration()));
}

QPoint pixelAt(const MemoryChart& chart, double fraction)
{
    const QRect rect = chart.axisRect()->rect();
    return QPoint(rect.left() + int(fraction * rect.width()), rect.center().y());
}

double maxValue(const QCPGraph* graph)
{
    double high = -std::numeric_limits<double>::infinity();
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        high = std::max(high, it->value);
    return high;
}

QCPGraph* graphNamed(const MemoryChart& chart, const QString& name)
{
    for (QCPGraph* graph : chart.curveGraphs()) {
        if (graph->name() == name)
            return graph;
    }
    return nullptr;
}

} // namespace

class TstMemoryPanel : public QObject
{
    Q_OBJECT
private slots:
    void emptyState();
    void curvesAndMarkers();
    void peakMarkerAndContext();
    void goToPeak();
    void selectionSyncBothWays();
    void visibleRangeAndWheelFollowModel();
    void hoverCursor();
    void downsamplingKeepsPeak();
    void stackedCategories();
    void nodeAxisDoesNotLink();
    void lifetimes();
    void opTable();
    void exportCsv();
    void relativeNote();
    void byteTicks();
    void realTrace();
};

void TstMemoryPanel::emptyState()
{
    MemoryPanel panel;
    QVERIFY(panel.isEmptyStateShown());
    const auto* label = panel.findChild<QLabel*>(QStringLiteral("emptyState"));
    QVERIFY(label);
    QVERIFY(label->text().contains(QLatin1String("profile_memory=True")));
    QVERIFY(label->text().contains(QLatin1String("MindSpore")));
    QVERIFY(label->text().contains(QLatin1String("memory timeline")));

    panel.setProfiles({ kinetoProfile() });
    QVERIFY(!panel.isEmptyStateShown());
    QCOMPARE(panel.deviceEntryCount(), 1);
    // A profile without devices counts as nothing.
    panel.setProfiles({ std::make_shared<MemoryProfile>() });
    QVERIFY(panel.isEmptyStateShown());
    panel.setProfiles({});
    QVERIFY(panel.isEmptyStateShown());
    QVERIFY(panel.chart()->curveGraphs().isEmpty());
}

void TstMemoryPanel::curvesAndMarkers()
{
    MemoryPanel panel;
    panel.setProfiles({ kinetoProfile() });
    MemoryChart* chart = panel.chart();
    QCOMPARE(chart->curveGraphs().size(), 2);
    QVERIFY(graphNamed(*chart, QStringLiteral("Allocated")));
    QVERIFY(graphNamed(*chart, QStringLiteral("Reserved")));
    QCOMPARE(graphNamed(*chart, QStringLiteral("Allocated"))->lineStyle(), QCPGraph::lsStepLeft);

    // OOM markers: one per report, at its time (ms from the first sample) on the allocated curve.
    QCPGraph* oom = chart->oomGraph();
    QCOMPARE(oom->dataCount(), 2);
    QCOMPARE(oom->data()->at(0)->key, 700 * kStep / 1e6);
    QCOMPARE(oom->data()->at(1)->key, 800 * kStep / 1e6);
    QCOMPARE(oom->data()->at(0)->value, allocatedAt(700));
    QVERIFY(chart->legend->hasItemWithPlottable(oom));
    QVERIFY(panel.findChild<QLabel*>(QStringLiteral("memoryInfo"))->text().contains(QLatin1String("2 out-of-memory")));

    // Capacity: a dashed line at 8 GB, inside the value range since it is near the curves.
    QCOMPARE(chart->capacityLines().size(), 1);
    QCOMPARE(chart->capacityLines().front()->point1->coords().y(), double(kCapacity));
    QCOMPARE(chart->capacityLines().front()->pen().style(), Qt::DashLine);
    QVERIFY(chart->yAxis->range().contains(double(kCapacity)));
    QVERIFY(!chart->relativeNote()->visible());
    QCOMPARE(chart->xAxis->label(), QStringLiteral("Time (ms)"));
}

void TstMemoryPanel::peakMarkerAndContext()
{
    const ::Trace trace = peakTrace();
    MemoryPanel panel;
    panel.setTraceStore(trace.store);
    panel.setProfiles({ kinetoProfile(&trace) });
    showPanel(panel);
    MemoryChart* chart = panel.chart();

    // The data's maximum, found here by scanning the values the profile was built from.
    int expectedIndex = 0;
    for (int i = 1; i < kSamples; ++i) {
        if (allocatedAt(i) > allocatedAt(expectedIndex))
            expectedIndex = i;
    }
    QCOMPARE(expectedIndex, kPeakIndex);
    QCPGraph* peak = chart->peakGraph();
    QCOMPARE(peak->dataCount(), 1);
    QCOMPARE(peak->data()->at(0)->key, double(sampleX(expectedIndex) - trace.store->startTime()) / 1e6);
    QCOMPARE(peak->data()->at(0)->value, allocatedAt(expectedIndex));
    // On screen the marker sits on the allocated curve's peak.
    const double px = chart->xAxis->coordToPixel(peak->data()->at(0)->key);
    const double py = chart->yAxis->coordToPixel(peak->data()->at(0)->value);
    QVERIFY(chart->axisRect()->rect().contains(QPoint(int(px), int(py))));
    QCPGraph* allocated = graphNamed(*chart, QStringLiteral("Allocated"));
    QCOMPARE(maxValue(allocated), kPeakBytes);

    QCOMPARE(panel.peak().bytes, kPeakBytes);
    QCOMPARE(panel.peak().x, sampleX(kPeakIndex));
    QVERIFY(panel.peakContext().hasOp());
    QCOMPARE(panel.peakContext().track, trace.cpu);
    QCOMPARE(std::int64_t(panel.peakContext().innermost()),
             sliceIndex(*trace.store, trace.cpu, QStringLiteral("aten::inner_alloc")));
    const QString text = panel.peakText();
    QVERIFY2(text.contains(QLatin1String("4.5 GB")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("aten::inner_alloc")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("aten::outer")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("step 3")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("6.000 ms")), qPrintable(text)); // sample 600 at 10 µs each
}

void TstMemoryPanel::goToPeak()
{
    const ::Trace trace = peakTrace();
    TimeRangeModel model;
    model.setTraceRange(trace.store->startTime(), trace.store->endTime());
    MemoryPanel panel;
    panel.setTimeRangeModel(&model);
    panel.setTraceStore(trace.store);
    panel.setProfiles({ kinetoProfile(&trace) });
    QVERIFY(panel.chart()->isLinked());
    panel.goToPeak();
    QCOMPARE(model.selectedTrack(), trace.cpu);
    QCOMPARE(model.selectedIndex(), sliceIndex(*trace.store, trace.cpu, QStringLiteral("aten::inner_alloc")));
    const TimeSpan visible = model.visibleRange();
    QVERIFY(visible.start <= sampleX(kPeakIndex) && sampleX(kPeakIndex) <= visible.end);
    QVERIFY(visible.duration() < model.traceRange().duration());
    QVERIFY(model.canUndoZoom());
    QCOMPARE(panel.chart()->xAxis->range().lower, double(visible.start - trace.store->startTime()) / 1e6);
}

void TstMemoryPanel::selectionSyncBothWays()
{
    const ::Trace trace = peakTrace();
    TimeRangeModel model;
    model.setTraceRange(trace.store->startTime(), trace.store->endTime());
    MemoryPanel panel;
    panel.setTimeRangeModel(&model);
    panel.setTraceStore(trace.store);
    panel.setProfiles({ kinetoProfile(&trace) });
    showPanel(panel);
    MemoryChart* chart = panel.chart();
    QVERIFY(chart->isLinked());

    // Chart -> model: a drag selects the range under it.
    const TimeSpan visible = model.visibleRange();
    const QPoint a = pixelAt(*chart, 0.3);
    const QPoint b = pixelAt(*chart, 0.6);
    QSignalSpy spy(&model, &TimeRangeModel::selectionChanged);
    QTest::mousePress(chart, Qt::LeftButton, {}, a);
    QTest::mouseMove(chart, (a + b) / 2);
    QTest::mouseMove(chart, b);
    QTest::mouseRelease(chart, Qt::LeftButton, {}, b);
    QVERIFY(spy.count() >= 1);
    const std::int64_t tolerance = 2 * visible.duration() / chart->axisRect()->width();
    const TimeSpan selection = model.selection();
    QVERIFY(selection.valid());
    QVERIFY2(std::abs(selection.start - timeAtPixel(*chart, visible, a.x())) <= tolerance,
             qPrintable(QString::number(selection.start)));
    QVERIFY(std::abs(selection.end - timeAtPixel(*chart, visible, b.x())) <= tolerance);
    QVERIFY(chart->selectionBand()->visible());

    // Model -> chart: the band covers the model's selection.
    const std::int64_t s = sampleX(100);
    const std::int64_t e = sampleX(250);
    model.setSelection(s, e);
    QCOMPARE(chart->selection(), (TimeSpan { s, e }));
    QVERIFY(chart->selectionBand()->visible());
    QCOMPARE(chart->selectionBand()->topLeft->coords().x(), double(s - trace.store->startTime()) / 1e6);
    QCOMPARE(chart->selectionBand()->bottomRight->coords().x(), double(e - trace.store->startTime()) / 1e6);
    // The band is drawn: the top of the plot inside it changes colour when it is shown.
    const double midKey = double((s + e) / 2 - trace.store->startTime()) / 1e6;
    const QPoint probe(int(chart->xAxis->coordToPixel(midKey)), chart->axisRect()->top() + 3);
    chart->replot();
    const QColor withBand = chart->toPixmap(chart->width(), chart->height(), 1.0).toImage().pixelColor(probe);
    chart->selectionBand()->setVisible(false);
    chart->replot();
    const QColor withoutBand = chart->toPixmap(chart->width(), chart->height(), 1.0).toImage().pixelColor(probe);
    QVERIFY(withBand != withoutBand);
    chart->selectionBand()->setVisible(true);

    // A click clears it, in the model too.
    QTest::mouseClick(chart, Qt::LeftButton, {}, pixelAt(*chart, 0.5));
    QVERIFY(!model.selection().valid());
    QVERIFY(!chart->selectionBand()->visible());
    model.setSelection(s, e);
    model.clearSelection();
    QVERIFY(!chart->selectionBand()->visible());
}

void TstMemoryPanel::visibleRangeAndWheelFollowModel()
{
    const ::Trace trace = peakTrace();
    TimeRangeModel model;
    model.setTraceRange(trace.store->startTime(), trace.store->endTime());
    MemoryPanel panel;
    panel.setTimeRangeModel(&model);
    panel.setProfiles({ kinetoProfile(&trace) });
    showPanel(panel);
    MemoryChart* chart = panel.chart();
    const std::int64_t origin = trace.store->startTime();
    model.setVisibleRange(sampleX(200), sampleX(400));
    QCOMPARE(chart->xAxis->range().lower, double(sampleX(200) - origin) / 1e6);
    QCOMPARE(chart->xAxis->range().upper, double(sampleX(400) - origin) / 1e6);

    // The wheel zooms the shared range around the mouse.
    const QPoint at = pixelAt(*chart, 0.5);
    const std::int64_t anchor = timeAtPixel(*chart, model.visibleRange(), at.x());
    QWheelEvent wheel(at, chart->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(chart, &wheel);
    const TimeSpan zoomed = model.visibleRange();
    QVERIFY(zoomed.duration() < sampleX(400) - sampleX(200));
    QVERIFY(zoomed.start <= anchor && anchor <= zoomed.end);
    QCOMPARE(chart->xAxis->range().lower, double(zoomed.start - origin) / 1e6);

    // Ctrl+drag pans the shared range.
    const TimeSpan before = model.visibleRange();
    QTest::mousePress(chart, Qt::LeftButton, Qt::ControlModifier, pixelAt(*chart, 0.6));
    QTest::mouseMove(chart, pixelAt(*chart, 0.4));
    QTest::mouseRelease(chart, Qt::LeftButton, Qt::ControlModifier, pixelAt(*chart, 0.4));
    QVERIFY(model.visibleRange().start > before.start);
    QCOMPARE(model.visibleRange().duration(), before.duration());
    QVERIFY(!model.selection().valid());
}

void TstMemoryPanel::hoverCursor()
{
    const ::Trace trace = peakTrace();
    TimeRangeModel model;
    model.setTraceRange(trace.store->startTime(), trace.store->endTime());
    MemoryPanel panel;
    panel.setTimeRangeModel(&model);
    panel.setProfiles({ kinetoProfile(&trace) });
    showPanel(panel);
    MemoryChart* chart = panel.chart();
    QVERIFY(!chart->cursorLine()->visible());
    // The timeline's hover moves the cursor line.
    model.setHoverTime(sampleX(333));
    QVERIFY(chart->cursorLine()->visible());
    QCOMPARE(chart->cursorLine()->point1->coords().x(), double(sampleX(333) - trace.store->startTime()) / 1e6);
    model.setHoverTime(TimeRangeModel::kNoHover);
    QVERIFY(!chart->cursorLine()->visible());
    // Hovering the chart publishes the time under the mouse.
    const QPoint at = pixelAt(*chart, 0.25);
    QTest::mouseMove(chart, at);
    QVERIFY(model.hoverTime() != TimeRangeModel::kNoHover);
    const TimeSpan visible = model.visibleRange();
    QVERIFY(std::abs(model.hoverTime() - timeAtPixel(*chart, visible, at.x()))
            <= 2 * visible.duration() / chart->axisRect()->width());
    QVERIFY(chart->cursorLine()->visible());
    QVERIFY(chart->hoverText(sampleX(kPeakIndex)).contains(QLatin1String("4.5 GB")));
}

void TstMemoryPanel::downsamplingKeepsPeak()
{
    // A million samples (over the worker threshold) with one spike far above a noisy floor.
    constexpr int kCount = 1'000'000;
    constexpr int kSpike = 777'777;
    constexpr std::int64_t kEvery = 100;
    auto profile = std::make_shared<MemoryProfile>();
    MemoryDevice device;
    device.label = QStringLiteral("cuda:0");
    std::uint64_t state = 12345;
    for (int i = 0; i < kCount; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        device.allocated.x.push_back(kT0 + i * kEvery);
        device.allocated.bytes.push_back(i == kSpike ? 9e8 : 1e8 + double(state >> 40));
    }
    profile->devices.push_back(std::move(device));
    const MemorySeries& raw = profile->devices.front().allocated;
    TimeRangeModel model;
    model.setTraceRange(kT0, raw.x.back());
    MemoryPanel panel;
    panel.setTimeRangeModel(&model);
    panel.setProfiles({ profile });
    MemoryChart* chart = panel.chart();
    QTRY_VERIFY_WITH_TIMEOUT(!chart->isResampling(), 20000);
    QCPGraph* allocated = graphNamed(*chart, QStringLiteral("Allocated"));
    QVERIFY(allocated->dataCount() > 1000);
    QVERIFY(allocated->dataCount() <= kMaxCurvePoints);
    QCOMPARE(maxValue(allocated), 9e8);
    bool spikeDrawn = false;
    for (auto it = allocated->data()->constBegin(); it != allocated->data()->constEnd(); ++it)
        spikeDrawn = spikeDrawn || (it->value == 9e8 && it->key == double(kSpike * kEvery) / 1e6);
    QVERIFY(spikeDrawn);

    // Zoomed somewhere else: still bounded, and the local maximum of that range is drawn.
    const int from = 100'000;
    const int to = 300'000;
    model.setVisibleRange(raw.x[from], raw.x[to]);
    QTRY_VERIFY_WITH_TIMEOUT(!chart->isResampling(), 20000);
    QVERIFY(allocated->dataCount() <= kMaxCurvePoints);
    const double localMax = *std::max_element(raw.bytes.begin() + from, raw.bytes.begin() + to + 1);
    QCOMPARE(maxValue(allocated), localMax);
    QVERIFY(allocated->data()->constBegin()->key <= double(raw.x[from] - kT0) / 1e6);
    QVERIFY((allocated->data()->constEnd() - 1)->key <= double(raw.x[to] - kT0) / 1e6);

    // A small range is drawn whole.
    model.setVisibleRange(raw.x[kSpike - 50], raw.x[kSpike + 50]);
    QTRY_VERIFY_WITH_TIMEOUT(!chart->isResampling(), 20000);
    QCOMPARE(allocated->dataCount(), 101);
    QCOMPARE(maxValue(allocated), 9e8);
}

void TstMemoryPanel::stackedCategories()
{
    auto profile = std::make_shared<MemoryProfile>();
    profile->kind = MemorySourceKind::MemoryTimeline;
    MemoryDevice device;
    device.label = QStringLiteral("cuda:0");
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        MemorySeries series;
        series.name = memoryCategoryName(MemoryCategory(c));
        for (int k = 0; k < 10; ++k) {
            series.x.push_back(kT0 + k * 1000);
            series.bytes.push_back(double(c + 1) * 1e6 * (k + 1));
        }
        device.categories.push_back(std::move(series));
    }
    // The total, as the memory timeline reader gives it.
    for (int k = 0; k < 10; ++k) {
        device.allocated.x.push_back(kT0 + k * 1000);
        device.allocated.bytes.push_back(36e6 * (k + 1));
    }
    profile->devices.push_back(std::move(device));
    MemoryPanel panel;
    panel.setProfiles({ profile });
    MemoryChart* chart = panel.chart();
    const QList<QCPGraph*> graphs = chart->curveGraphs();
    QCOMPARE(graphs.size(), kMemoryCategoryCount);
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        QCOMPARE(graphs[c]->name(), memoryCategoryName(MemoryCategory(c)));
        QVERIFY(chart->legend->hasItemWithPlottable(graphs[c]));
        QVERIFY(graphs[c]->brush().style() != Qt::NoBrush);
        QCOMPARE(graphs[c]->channelFillGraph(), c == 0 ? nullptr : graphs[c - 1]);
    }
    // Layer c holds the sum of categories 0..c: (1 + .. + (c+1)) MB times (k+1).
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        QCOMPARE(graphs[c]->dataCount(), 10);
        for (int k = 0; k < 10; ++k)
            QCOMPARE(graphs[c]->data()->at(k)->value, double((c + 1) * (c + 2) / 2) * 1e6 * (k + 1));
    }
    QCOMPARE(chart->peakGraph()->data()->at(0)->value, 360e6);
    QCOMPARE(chart->peakGraph()->data()->at(0)->key, 9000 / 1e6);
}

std::shared_ptr<const MemoryProfile> graphProfile()
{
    auto profile = std::make_shared<MemoryProfile>();
    profile->kind = MemorySourceKind::MindSporeSummary;
    profile->axis = MemoryAxis::NodeIndex;
    MemoryDevice device;
    device.label = QStringLiteral("graph 1");
    for (int n = 0; n < 10; ++n) {
        MemoryNode node;
        node.name = QStringLiteral("Conv2D-op%1").arg(n);
        device.nodes.push_back(node);
        device.allocated.x.push_back(n);
        device.allocated.bytes.push_back(n == 4 ? 900 : 100 + n);
    }
    struct Life
    {
        const char* name;
        std::int64_t start, end, bytes;
    };
    const Life lives[]
        = { { "t0", 0, 3, 100 }, { "t1", 2, 5, 400 }, { "t2", 4, 9, 50 }, { "t3", 1, 1, 300 }, { "t4", 6, 8, 200 } };
    for (const Life& l : lives) {
        TensorLifetime t;
        t.name = QString::fromLatin1(l.name);
        t.start = l.start;
        t.end = l.end;
        t.bytes = l.bytes;
        t.shape = QStringLiteral("[2, 3]");
        t.dataType = QStringLiteral("float32");
        t.type = QStringLiteral("output");
        t.node = int(l.start);
        device.lifetimes.push_back(t);
    }
    profile->devices.push_back(std::move(device));
    return profile;
}

void TstMemoryPanel::nodeAxisDoesNotLink()
{
    TimeRangeModel model;
    model.setTraceRange(0, 1'000'000);
    MemoryPanel panel;
    panel.setTimeRangeModel(&model);
    panel.setProfiles({ graphProfile() });
    showPanel(panel);
    MemoryChart* chart = panel.chart();
    QVERIFY(!chart->isLinked());
    QCOMPARE(chart->xAxis->label(), QStringLiteral("Node (execution order)"));
    QCOMPARE(chart->peakGraph()->data()->at(0)->key, 4.0);
    QVERIFY(panel.peakText().contains(QLatin1String("node 4 (Conv2D-op4)")));
    const QPoint a = pixelAt(*chart, 0.2);
    const QPoint b = pixelAt(*chart, 0.7);
    QTest::mousePress(chart, Qt::LeftButton, {}, a);
    QTest::mouseMove(chart, b);
    QTest::mouseRelease(chart, Qt::LeftButton, {}, b);
    QVERIFY(chart->selection().valid());
    QVERIFY(!model.selection().valid());
    QTest::mouseMove(chart, a);
    QCOMPARE(model.hoverTime(), TimeRangeModel::kNoHover);
    model.setVisibleRange(10, 20);
    QCOMPARE(chart->visibleRange(), (TimeSpan { 0, 9 }));
    // A click on a node shows the tensors alive there.
    QSignalSpy spy(chart, &MemoryChart::nodeClicked);
    const QPoint node2(int(chart->xAxis->coordToPixel(2.0)), chart->axisRect()->center().y());
    QTest::mouseClick(chart, Qt::LeftButton, {}, node2);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(0).toLongLong(), 2);
    QCOMPARE(panel.lifetimeView()->node(), 2);
}

void TstMemoryPanel::lifetimes()
{
    MemoryPanel panel;
    const auto profile = graphProfile();
    panel.setProfiles({ profile });
    QVERIFY(panel.lifetimeView()->hasLifetimes());
    MemoryLifetimeView view;
    view.setDevice(profile, 0);
    const auto names = [&view, &profile] {
        QStringList out;
        for (int i : view.shownLifetimes())
            out << profile->devices.front().lifetimes[std::size_t(i)].name;
        return out;
    };
    // All tensors, largest first.
    QCOMPARE(names(), (QStringList { "t1", "t3", "t4", "t0", "t2" }));
    // Alive at node 2: t0 (0..3) and t1 (2..5).
    view.setNode(2);
    QCOMPARE(names(), (QStringList { "t1", "t0" }));
    view.setNode(9);
    QCOMPARE(names(), (QStringList { "t2" }));
    view.setNode(-1);
    QCOMPARE(view.matchingCount(), 5);
    view.resize(700, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
    QCOMPARE(view.barAt(view.barCenter(1)), 1);
    const QString tip = view.toolTipForBar(1);
    QVERIFY(tip.contains(QLatin1String("t3")));
    QVERIFY(tip.contains(QLatin1String("300 B")));
    QVERIFY(tip.contains(QLatin1String("[2, 3]")));
    QVERIFY(tip.contains(QLatin1String("float32")));
    QVERIFY(tip.contains(QLatin1String("Conv2D-op1")));
    // Bars from life_start to life_end inclusive.
    auto* bars = qobject_cast<QCPBars*>(view.plot()->plottable(1));
    QVERIFY(bars);
    QCOMPARE(bars->data()->at(0)->value, 4.0); // t1: nodes 2..5
    QCOMPARE(view.chartData().series.size(), std::size_t(5));
}

void TstMemoryPanel::opTable()
{
    const ::Trace trace = peakTrace();
    MemoryPanel panel;
    QSignalSpy ready(&panel, &MemoryPanel::opTableReady);
    panel.setTraceStore(trace.store);
    panel.setProfiles({ kinetoProfile(&trace) });
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputingOps(), 10000);
    QAbstractItemModel* model = panel.opTable()->model();
    QVERIFY(model->rowCount() > 0);
    QStringList names;
    for (int r = 0; r < model->rowCount(); ++r)
        names << model->index(r, 0).data(MemoryOpTableModel::NameRole).toString();
    QVERIFY2(names.contains(QStringLiteral("aten::inner_alloc")), qPrintable(names.join(',')));
    // Counted from the fixture: inner_alloc holds sample 600 (+4096 B); outer covers samples 590..609,
    // whose even ones allocate 4096 B and odd ones free 1024 B.
    const auto cell = [model, &names](const char* op, MemoryOpTableModel::Column column) {
        const int r = int(names.indexOf(QLatin1String(op)));
        return model->index(r, int(column)).data(MemoryOpTableModel::SortRole).toLongLong();
    };
    QCOMPARE(cell("aten::inner_alloc", MemoryOpTableModel::Column::SelfAllocations), 1);
    QCOMPARE(cell("aten::inner_alloc", MemoryOpTableModel::Column::SelfAllocatedBytes), 4096);
    QCOMPARE(cell("aten::outer", MemoryOpTableModel::Column::Allocations), 10);
    QCOMPARE(cell("aten::outer", MemoryOpTableModel::Column::Frees), 10);
    QCOMPARE(cell("aten::outer", MemoryOpTableModel::Column::SizeIncrease), 10 * 4096 - 10 * 1024);
    QCOMPARE(cell("aten::outer", MemoryOpTableModel::Column::SelfAllocations), 9);
    // Self and total columns swap with the toggle.
    const int self = int(MemoryOpTableModel::Column::SelfAllocatedBytes);
    const int total = int(MemoryOpTableModel::Column::AllocatedBytes);
    QVERIFY(panel.opTable()->isColumnHidden(self));
    QVERIFY(!panel.opTable()->isColumnHidden(total));
    panel.setIncludeChildren(false);
    QVERIFY(!panel.opTable()->isColumnHidden(self));
    QVERIFY(panel.opTable()->isColumnHidden(total));
    QVERIFY(!panel.opTable()->isColumnHidden(int(MemoryOpTableModel::Column::Calls)));
    // Sorting is by the raw numbers.
    panel.opTable()->sortByColumn(self, Qt::DescendingOrder);
    for (int r = 1; r < model->rowCount(); ++r)
        QVERIFY(model->index(r - 1, self).data(MemoryOpTableModel::SortRole).toLongLong()
                >= model->index(r, self).data(MemoryOpTableModel::SortRole).toLongLong());

    QSignalSpy selected(&panel, &MemoryPanel::operatorSelected);
    const int row = int(names.indexOf(QStringLiteral("aten::inner_alloc")));
    QVERIFY(row >= 0);
    const int sortedRow = [&] {
        for (int r = 0; r < model->rowCount(); ++r) {
            if (model->index(r, 0).data(MemoryOpTableModel::NameRole).toString() == QLatin1String("aten::inner_alloc"))
                return r;
        }
        return -1;
    }();
    panel.opTable()->selectRow(sortedRow);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.last().at(0).toString(), QStringLiteral("aten::inner_alloc"));
}

void TstMemoryPanel::exportCsv()
{
    MemoryPanel panel;
    panel.setProfiles({ kinetoProfile() });
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("memory.csv"));
    QString error;
    QVERIFY2(panel.exportMenu()->exportTo(ChartExportMenu::Format::Csv, file, &error), qPrintable(error));
    QFile in(file);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = in.readAll().trimmed().split('\n');
    QCOMPARE(lines.front().trimmed(), QByteArray("series,time_ms,bytes"));
    QCOMPARE(lines.size(), 1 + 2 * kSamples); // every sample of both curves
    int allocatedRows = 0;
    bool peakRow = false;
    for (const QByteArray& line : lines.mid(1)) {
        const QList<QByteArray> fields = line.trimmed().split(',');
        QCOMPARE(fields.size(), 3);
        if (fields[0] == "Allocated") {
            ++allocatedRows;
            peakRow = peakRow || (fields[1].toDouble() == 6.0 && fields[2].toDouble() == kPeakBytes);
        }
    }
    QCOMPARE(allocatedRows, kSamples);
    QVERIFY(peakRow);

    // Zoomed in, only the visible samples (and the one in force at the left edge).
    panel.chart()->setVisibleRange(sampleX(100), sampleX(199));
    QCOMPARE(panel.chartData().series.front().rowCount(), std::size_t(100));
    const QString png = dir.filePath(QStringLiteral("memory.png"));
    QVERIFY(panel.exportMenu()->exportTo(ChartExportMenu::Format::Png, png, &error));
    QVERIFY(QFileInfo(png).size() > 0);
}

void TstMemoryPanel::relativeNote()
{
    MemoryPanel panel;
    panel.setProfiles({ kinetoProfile(nullptr, true) });
    QVERIFY(panel.chart()->relativeNote()->visible());
    QVERIFY(panel.findChild<QLabel*>(QStringLiteral("memoryInfo"))->text().contains(QLatin1String("relative")));
    // Two devices: the overlay entry draws both, each curve named by its device.
    auto second = std::make_shared<MemoryProfile>(*kinetoProfile());
    second->devices.front().label = QStringLiteral("cuda:1");
    panel.setProfiles({ kinetoProfile(nullptr, true), second });
    QCOMPARE(panel.deviceEntryCount(), 3);
    // The picked device stays picked when the profiles are set again.
    panel.setCurrentDeviceEntry(1);
    panel.setProfiles({ kinetoProfile(nullptr, true), second });
    QCOMPARE(panel.currentDeviceEntry(), 1);
    panel.setCurrentDeviceEntry(2);
    QCOMPARE(panel.chart()->devices().size(), std::size_t(2));
    QCOMPARE(panel.chart()->peakGraph()->dataCount(), 2);
    QVERIFY(graphNamed(*panel.chart(), QStringLiteral("cuda:1 · rank0.json Allocated")));
}

void TstMemoryPanel::byteTicks()
{
    // Decimal units, three significant digits, like formatByteSize elsewhere.
    QCOMPARE(MemoryByteTicker::text(3.08e9), QStringLiteral("3.08 GB"));
    QCOMPARE(MemoryByteTicker::text(512e6), QStringLiteral("512 MB"));
    QCOMPARE(MemoryByteTicker::text(1500), QStringLiteral("1.5 KB"));
    QCOMPARE(MemoryByteTicker::text(12), QStringLiteral("12 B"));
    QCOMPARE(MemoryByteTicker::text(-340e3), QStringLiteral("-340 KB"));
    MemoryPanel panel;
    panel.setProfiles({ kinetoProfile() });
    showPanel(panel);
    QCPAxis* y = panel.chart()->yAxis;
    const QVector<QString> labels = y->tickVectorLabels();
    QVERIFY(!labels.isEmpty());
    for (const QString& label : labels)
        QVERIFY2(label.endsWith(QLatin1String(" GB")), qPrintable(label));
}

void TstMemoryPanel::realTrace()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz");
    const importers::trace::ChromeTraceResult trace = importers::trace::ChromeTraceReader::read({ path });
    QVERIFY(trace.store);
    const MemoryReadResult memory = memoryFromTrace(*trace.store);
    QVERIFY(memory.profile);
    TimeRangeModel model;
    model.setTraceRange(trace.store->startTime(), trace.store->endTime());
    MemoryPanel panel;
    panel.setTimeRangeModel(&model);
    panel.setTraceStore(trace.store);
    panel.setProfiles({ memory.profile });
    int cuda = -1;
    for (int e = 0; e < panel.deviceEntryCount(); ++e) {
        if (panel.deviceEntryText(e) == QLatin1String("cuda:1"))
            cuda = e;
    }
    QVERIFY(cuda >= 0);
    panel.setCurrentDeviceEntry(cuda);
    QVERIFY(panel.chart()->isLinked());
    // The largest "Total Allocated" of the file's Device Type 1 / Device Id 1 events (read with Python's json).
    constexpr double kFilePeak = 6629508096.0;
    QCOMPARE(panel.chart()->peakGraph()->data()->at(0)->value, kFilePeak);
    QCOMPARE(panel.peak().bytes, kFilePeak);
    QVERIFY(panel.peakContext().hasOp());
    QVERIFY2(panel.peakText().contains(QLatin1String("6.63 GB")), qPrintable(panel.peakText()));
    QCOMPARE(maxValue(graphNamed(*panel.chart(), QStringLiteral("Allocated"))), kFilePeak);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputingOps(), 20000);
    QVERIFY(panel.opTableModel()->rowCount() > 0);
    showPanel(panel);
    QVERIFY(panel.chart()->maxDrawnPoints() <= kMaxCurvePoints);
    panel.goToPeak();
    QVERIFY(model.visibleRange().start <= panel.peak().x && panel.peak().x <= model.visibleRange().end);
    QVERIFY(model.selectedTrack() >= 0);
}

QTEST_MAIN(TstMemoryPanel)
#include "tst_memorypanel.moc"
