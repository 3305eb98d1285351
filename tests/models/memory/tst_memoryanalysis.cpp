#include "models/memory/memoryanalysis.h"
#include "models/memory/memoryoptablemodel.h"
#include "models/trace/tracestorebuilder.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

#include <map>

using namespace runlens;
using namespace runlens::models::memory;
using namespace runlens::models::trace;

namespace {

/// A thread with nested ops and memory instants (times in ns):
///   ProfilerStep#3 [0, 110)
///   outer [0, 100) > mid [10, 60) > inner [20, 30);  outer > mid [70, 90);  f [200, 300) > f [210, 250)
///   memory: 5 (+10), 25 (+20), 40 (-5), 75 (+7), 95 (-10), 120 (+1, inside no op), 220 (+4), 260 (-4)
struct Fixture
{
    std::shared_ptr<const TraceStore> store;
    MemoryDevice device;
};

Fixture makeFixture()
{
    TraceStoreBuilder builder;
    const int source = builder.addSource(QStringLiteral("a.json"), nullptr);
    const int process = builder.process(source, 100);
    const int thread = builder.threadTrack(process, 1);
    const int other = builder.threadTrack(process, 2);
    auto name = [&](const char* text) { return builder.strings().intern(text); };
    const StringId memory = name("[memory]");
    builder.addSlice(thread, 0, 110, name("ProfilerStep#3"), 0, EventKind::UserAnnotation);
    builder.addSlice(thread, 0, 100, name("outer"), 0, EventKind::CpuOp);
    builder.addSlice(thread, 10, 50, name("mid"), 0, EventKind::CpuOp);
    builder.addSlice(thread, 20, 10, name("inner"), 0, EventKind::CpuOp);
    builder.addSlice(thread, 70, 20, name("mid"), 0, EventKind::CpuOp);
    builder.addSlice(thread, 200, 100, name("f"), 0, EventKind::CpuOp);
    builder.addSlice(thread, 210, 40, name("f"), 0, EventKind::CpuOp);
    builder.addSlice(other, 0, 1000, name("other_thread_op"), 0, EventKind::CpuOp);
    const std::map<std::int64_t, std::int64_t> events
        = { { 5, 10 }, { 25, 20 }, { 40, -5 }, { 75, 7 }, { 95, -10 }, { 120, 1 }, { 220, 4 }, { 260, -4 } };
    for (const auto& [x, bytes] : events)
        builder.addSlice(thread, x, 0, memory, 0, EventKind::Memory, {}, SliceFlag::Instant);

    Fixture f;
    f.store = builder.finish();
    f.device.label = QStringLiteral("cuda:0");
    const Track& track = f.store->tracks()[std::size_t(thread)];
    double total = 0;
    for (std::size_t i = 0; i < track.size(); ++i) {
        if (track.kind[i] != EventKind::Memory)
            continue;
        MemoryEvent event;
        event.x = track.start[i];
        event.bytes = events.at(event.x);
        event.track = thread;
        event.slice = std::uint32_t(i);
        f.device.events.push_back(event);
        total += double(event.bytes);
        f.device.allocated.x.push_back(event.x);
        f.device.allocated.bytes.push_back(total);
    }
    return f;
}

const MemoryOpStats* rowNamed(const TraceStore& store, const MemoryOpTable& table, std::string_view name)
{
    for (const MemoryOpStats& row : table.rows) {
        if (store.strings().view(row.name) == name)
            return &row;
    }
    return nullptr;
}

} // namespace

class TstMemoryAnalysis : public QObject
{
    Q_OBJECT
private slots:
    void peakAndValues();
    void categoryTotals();
    void context();
    void opTable();
    void opTableRange();
    void tableModel();
};

void TstMemoryAnalysis::peakAndValues()
{
    MemorySeries s;
    QVERIFY(!seriesPeak(s).valid);
    s.x = { 10, 20, 30, 40 };
    s.bytes = { 5, 9, 9, 1 };
    const MemoryPeak peak = seriesPeak(s);
    QVERIFY(peak.valid);
    QCOMPARE(peak.bytes, 9.0);
    QCOMPARE(peak.x, std::int64_t(20)); // the first of equal maxima
    QCOMPARE(peak.index, std::size_t(1));
    QCOMPARE(valueAt(s, 5), 0.0);
    QCOMPARE(valueAt(s, 10), 5.0);
    QCOMPARE(valueAt(s, 29), 9.0);
    QCOMPARE(valueAt(s, 1000), 1.0);
    QVERIFY(!sampleAt(s, 9).has_value());
    QCOMPARE(*sampleAt(s, 35), std::size_t(2));
}

void TstMemoryAnalysis::categoryTotals()
{
    MemoryDevice device;
    device.categories.resize(kMemoryCategoryCount);
    device.categories[int(MemoryCategory::Parameter)].x = { 0, 10 };
    device.categories[int(MemoryCategory::Parameter)].bytes = { 100, 100 };
    device.categories[int(MemoryCategory::Activation)].x = { 0, 10 };
    device.categories[int(MemoryCategory::Activation)].bytes = { 0, 50 };
    const auto totals = categoryTotalsAt(device, 12);
    QCOMPARE(totals[int(MemoryCategory::Parameter)], 100.0);
    QCOMPARE(totals[int(MemoryCategory::Activation)], 50.0);
    QCOMPARE(totals[int(MemoryCategory::Gradient)], 0.0);
    // Without an allocated curve the device's peak is that of the category sum.
    const MemoryPeak peak = devicePeak(device);
    QCOMPARE(peak.bytes, 150.0);
    QCOMPARE(peak.x, std::int64_t(10));
    QCOMPARE(QString::fromLatin1(memoryCategoryId(MemoryCategory::OptimizerState)), QStringLiteral("optimizer_state"));
    QCOMPARE(memoryCategoryName(MemoryCategory::AutogradDetail), QStringLiteral("Autograd detail"));
}

void TstMemoryAnalysis::context()
{
    const ::Fixture f = makeFixture();
    const TraceStore& store = *f.store;
    MemoryContext c = memoryContextAt(store, f.device, 25);
    QVERIFY(c.hasOp());
    QCOMPARE(c.chain.size(), std::size_t(3));
    QCOMPARE(contextOpName(store, c), QStringLiteral("inner"));
    const Track& track = store.tracks()[std::size_t(c.track)];
    QCOMPARE(store.strings().view(track.name_[c.chain.front()]), std::string_view("outer"));
    QCOMPARE(store.strings().view(track.name_[c.chain[1]]), std::string_view("mid"));
    QVERIFY(c.step >= 0);
    QCOMPARE(store.steps()[std::size_t(c.step)].number, std::int64_t(3));

    // Between events the ops on the last event's thread still answer: at 65 only `outer` runs there.
    c = memoryContextAt(store, f.device, 65);
    QCOMPARE(contextOpName(store, c), QStringLiteral("outer"));
    // An op end is exclusive: at 100 `outer` is over; nothing on that thread, the other thread's op wins.
    c = memoryContextAt(store, f.device, 100);
    QCOMPARE(contextOpName(store, c), QStringLiteral("other_thread_op"));
    QCOMPARE(store.steps()[std::size_t(c.step)].number, std::int64_t(3));
    QCOMPARE(memoryContextAt(store, f.device, 150).step, -1); // after the step

    // A device without events falls back to the CPU threads of its source: the deepest op wins.
    MemoryDevice bare;
    c = memoryContextAt(store, bare, 22);
    QCOMPARE(contextOpName(store, c), QStringLiteral("inner"));
    bare.source = 5; // no such source: nothing
    QVERIFY(!memoryContextAt(store, bare, 22).hasOp());
}

void TstMemoryAnalysis::opTable()
{
    const ::Fixture f = makeFixture();
    const TraceStore& store = *f.store;
    const MemoryOpTable table = memoryOpTable(store, f.device);
    QCOMPARE(table.events, std::uint64_t(8));
    QCOMPARE(table.unattributed, std::uint64_t(1)); // the event at 120
    QCOMPARE(table.rows.size(), std::size_t(4));

    // Worked out by hand from the fixture's comment.
    const MemoryOpStats* outer = rowNamed(store, table, "outer");
    QVERIFY(outer);
    QCOMPARE(outer->calls, std::uint64_t(1));
    QCOMPARE(outer->self.allocations, std::uint64_t(1));
    QCOMPARE(outer->self.allocatedBytes, std::int64_t(10));
    QCOMPARE(outer->self.frees, std::uint64_t(1));
    QCOMPARE(outer->self.freedBytes, std::int64_t(10));
    QCOMPARE(outer->self.net(), std::int64_t(0));
    QCOMPARE(outer->total.allocations, std::uint64_t(3));
    QCOMPARE(outer->total.allocatedBytes, std::int64_t(37));
    QCOMPARE(outer->total.frees, std::uint64_t(2));
    QCOMPARE(outer->total.freedBytes, std::int64_t(15));
    QCOMPARE(outer->total.net(), std::int64_t(22));

    const MemoryOpStats* mid = rowNamed(store, table, "mid");
    QVERIFY(mid);
    QCOMPARE(mid->calls, std::uint64_t(2));
    QCOMPARE(mid->self.allocatedBytes, std::int64_t(7));
    QCOMPARE(mid->self.freedBytes, std::int64_t(5));
    QCOMPARE(mid->total.allocations, std::uint64_t(2));
    QCOMPARE(mid->total.allocatedBytes, std::int64_t(27));
    QCOMPARE(mid->total.net(), std::int64_t(22));

    const MemoryOpStats* inner = rowNamed(store, table, "inner");
    QVERIFY(inner);
    QCOMPARE(inner->calls, std::uint64_t(1));
    QCOMPARE(inner->self.allocatedBytes, std::int64_t(20));
    QCOMPARE(inner->total.allocatedBytes, std::int64_t(20));
    QCOMPARE(inner->total.frees, std::uint64_t(0));

    // f inside f: the event at 220 counts once in f's total; both occurrences had an event inside.
    const MemoryOpStats* fn = rowNamed(store, table, "f");
    QVERIFY(fn);
    QCOMPARE(fn->calls, std::uint64_t(2));
    QCOMPARE(fn->total.allocations, std::uint64_t(1));
    QCOMPARE(fn->total.allocatedBytes, std::int64_t(4));
    QCOMPARE(fn->total.freedBytes, std::int64_t(4));
    QCOMPARE(fn->self.allocatedBytes, std::int64_t(4));
    QCOMPARE(fn->self.frees, std::uint64_t(1));

    QVERIFY(!rowNamed(store, table, "other_thread_op")); // no event of the device inside it
    // Rows come by descending total allocation.
    QCOMPARE(store.strings().view(table.rows.front().name), std::string_view("outer"));

    // Cancelling early gives what was counted so far without looping.
    const MemoryOpTable canceled = memoryOpTable(store, f.device, std::numeric_limits<std::int64_t>::min(),
                                                 std::numeric_limits<std::int64_t>::max(), [] { return true; });
    QVERIFY(canceled.rows.empty());
}

void TstMemoryAnalysis::opTableRange()
{
    const ::Fixture f = makeFixture();
    const MemoryOpTable table = memoryOpTable(*f.store, f.device, 30, 100);
    QCOMPARE(table.events, std::uint64_t(3)); // 40, 75, 95
    QCOMPARE(table.unattributed, std::uint64_t(0));
    const MemoryOpStats* outer = rowNamed(*f.store, table, "outer");
    QVERIFY(outer);
    QCOMPARE(outer->total.allocatedBytes, std::int64_t(7));
    QCOMPARE(outer->total.freedBytes, std::int64_t(15));
    QCOMPARE(outer->total.net(), std::int64_t(-8));
    QVERIFY(!rowNamed(*f.store, table, "inner"));

    // A range late on the thread: the sweep starts near it and still sees both enclosing f.
    const MemoryOpTable late = memoryOpTable(*f.store, f.device, 200, 300);
    QCOMPARE(late.events, std::uint64_t(2));
    QCOMPARE(late.rows.size(), std::size_t(1));
    QCOMPARE(f.store->strings().view(late.rows[0].name), std::string_view("f"));
    QCOMPARE(late.rows[0].calls, std::uint64_t(2));
    QCOMPARE(late.rows[0].total.allocatedBytes, std::int64_t(4));
    QCOMPARE(late.rows[0].total.freedBytes, std::int64_t(4));

    // Events pointing nowhere are unattributed, never a crash.
    MemoryDevice broken = f.device;
    broken.events[0].track = 99;
    broken.events[1].slice = 100000;
    broken.events[2].track = -1;
    const MemoryOpTable brokenTable = memoryOpTable(*f.store, broken);
    QCOMPARE(brokenTable.unattributed, std::uint64_t(4));
}

void TstMemoryAnalysis::tableModel()
{
    const ::Fixture f = makeFixture();
    auto table = std::make_shared<const MemoryOpTable>(memoryOpTable(*f.store, f.device));
    MemoryOpTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setTable(table, f.store);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), MemoryOpTableModel::kColumnCount);
    QCOMPARE(model.headerData(int(MemoryOpTableModel::Column::SizeIncrease), Qt::Horizontal).toString(),
             QStringLiteral("Size increase"));
    QCOMPARE(model
                 .headerData(int(MemoryOpTableModel::Column::SelfFreedBytes), Qt::Horizontal,
                             MemoryOpTableModel::ColumnIdRole)
                 .toString(),
             QStringLiteral("self_freed_bytes"));
    QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("outer"));
    QCOMPARE(model.data(model.index(0, int(MemoryOpTableModel::Column::SizeIncrease)), MemoryOpTableModel::SortRole)
                 .toLongLong(),
             22);
    QCOMPARE(model.data(model.index(0, int(MemoryOpTableModel::Column::Allocations))).toString(), QStringLiteral("3"));
    QCOMPARE(model.data(model.index(0, int(MemoryOpTableModel::Column::AllocatedBytes))).toString(),
             QStringLiteral("37 B"));
    QVERIFY(model.rowStats(0));
    QVERIFY(!model.rowStats(4));

    // Sorting by the raw self size increase: inner (20) above mid (7 - 5) above outer and f (0).
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(MemoryOpTableModel::SortRole);
    proxy.sort(int(MemoryOpTableModel::Column::SelfSizeIncrease), Qt::DescendingOrder);
    QCOMPARE(proxy.data(proxy.index(0, 0)).toString(), QStringLiteral("inner"));
    QCOMPARE(proxy.data(proxy.index(1, 0)).toString(), QStringLiteral("mid"));

    QCOMPARE(formatSignedBytes(-1500), QStringLiteral("-1.5 KB"));
    QCOMPARE(formatSignedBytes(2'500'000'000), QStringLiteral("2.5 GB"));
}

QTEST_GUILESS_MAIN(TstMemoryAnalysis)
#include "tst_memoryanalysis.moc"
