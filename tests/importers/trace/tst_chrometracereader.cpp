#include "importers/trace/chrometracereader.h"
#include "importers/trace/jsonscan.h"
#include "importers/trace/tracevalues.h"
#include "models/trace/launchindex.h"
#include "models/trace/opstatistics.h"
#include "models/trace/tracestore.h"

#include "tests/importers/trace/chrometracetestdata.h"
#include "tests/testutils.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <random>
#include <string>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::trace;
using namespace runlens::models;
using namespace runlens::models::trace;

using namespace runlens::test::chrometrace;

class TstChromeTraceReader : public QObject
{
    Q_OBJECT

private slots:
    void samples_data();
    void samples();
    void everySampleLoads();
    void correlationFlowsJoinKernels();
    void nanosecondPrecision();
    void smallTrace();
    void envelopeKeyOrder();
    void topLevelArrayAndSentinels();
    void beginEnd();
    void stringAndIntIds();
    void stringIdsAreNames();
    void collidingStringIdsStayApart();
    void timeEncodings();
    void severalFiles();
    void counters();
    void stepMarkers();
    void externalIdJoinsKernelsWithoutRuntime();
};

void TstChromeTraceReader::samples_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("phases");
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("memory");
    // Without the corpus or its manifest one row remains, so the test reports the skip or the failure.
    const QString root = runlens::test::samplesDir();
    QFile manifest(root + QStringLiteral("/MANIFEST.tsv"));
    if (root.isEmpty() || !manifest.open(QIODevice::ReadOnly)) {
        QTest::newRow("MANIFEST.tsv") << manifest.fileName() << QString() << -1 << 0;
        return;
    }
    int rows = 0;
    const QRegularExpression phases(QStringLiteral("phases=([A-Za-z]:\\d+(?:,[A-Za-z]:\\d+)*)"));
    const QRegularExpression steps(QStringLiteral("ProfilerStep=(\\d+)"));
    const QRegularExpression memory(QStringLiteral("memory_events=yes\\((\\d+)\\)"));
    while (!manifest.atEnd()) {
        const QString line = QString::fromUtf8(manifest.readLine());
        const QString path = line.section(QLatin1Char('\t'), 0, 0);
        const auto p = phases.match(line);
        if (!p.hasMatch())
            continue;
        const auto s = steps.match(line);
        const auto m = memory.match(line);
        QTest::newRow(qPrintable(path)) << root + QLatin1Char('/') + path << p.captured(1)
                                        << (s.hasMatch() ? s.captured(1).toInt() : -1)
                                        << (m.hasMatch() ? m.captured(1).toInt() : 0);
        ++rows;
    }
    if (rows == 0)
        QTest::newRow("no trace in MANIFEST.tsv") << manifest.fileName() << QString() << -1 << 0;
}

void TstChromeTraceReader::samples()
{
    RUNLENS_REQUIRE_SAMPLES(root);
    QFETCH(QString, path);
    QFETCH(QString, phases);
    QFETCH(int, steps);
    QFETCH(int, memory);
    RUNLENS_REQUIRE_SAMPLE_FILE(path);
    QVERIFY2(!phases.isEmpty(), qPrintable(QStringLiteral("%1 lists no trace with phases=").arg(path)));
    const ChromeTraceResult result = ChromeTraceReader::read({ path });
    QVERIFY2(!hasError(result.diagnostics), qPrintable(describe(result.diagnostics)));
    QCOMPARE(result.store->sources().size(), std::size_t(1));
    const TraceSource& source = result.store->sources()[0];
    std::uint64_t total = 0;
    for (const QString& entry : phases.split(QLatin1Char(','))) {
        const char phase = entry.at(0).toLatin1();
        const std::uint64_t expected = entry.mid(2).toULongLong();
        QVERIFY2(source.eventsByPhase[int(phase)] == expected,
                 qPrintable(QStringLiteral("phase %1: %2 != %3")
                                .arg(QChar::fromLatin1(phase))
                                .arg(source.eventsByPhase[int(phase)])
                                .arg(expected)));
        total += expected;
    }
    QCOMPARE(source.events, total);
    if (steps >= 0) {
        // The manifest counts every ProfilerStep# event; copies on GPU tracks (ROCm) are not steps.
        int gpuCopies = 0;
        for (const Track& t : result.store->tracks()) {
            if (t.type != TrackType::GpuStream)
                continue;
            for (StringId n : t.name_)
                gpuCopies += result.store->strings().view(n).starts_with("ProfilerStep#") ? 1 : 0;
        }
        QCOMPARE(int(result.store->steps().size()), steps - gpuCopies);
    }
    QCOMPARE(int(source.memoryEvents), memory);
    QVERIFY(result.store->endTime() > result.store->startTime());
    QVERIFY(!result.store->flows().empty() || source.eventsByPhase[int('s')] == 0);
}

void TstChromeTraceReader::everySampleLoads()
{
    RUNLENS_REQUIRE_SAMPLES(root);
    QStringList files;
    for (const QString& dir :
         { root + QStringLiteral("/traces/kineto"), root + QStringLiteral("/runs/pytorch_cnn_baseline/profiler") }) {
        QDirIterator it(dir, { QStringLiteral("*.json"), QStringLiteral("*.json.gz") }, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
    }
    // MindSpore timelines go through the same reader.
    QDirIterator ms(root + QStringLiteral("/profiler/mindspore"), { QStringLiteral("*timeline_display*.json") },
                    QDir::Files, QDirIterator::Subdirectories);
    while (ms.hasNext())
        files << ms.next();
    QVERIFY(files.size() >= 18);
    for (const QString& file : files) {
        const ChromeTraceResult result = ChromeTraceReader::read({ file });
        QVERIFY2(!hasError(result.diagnostics), qPrintable(file + QLatin1Char('\n') + describe(result.diagnostics)));
        QVERIFY2(result.store->eventCount() > 0, qPrintable(file));
        // Slices are sorted and their depths nest.
        for (const Track& track : result.store->tracks()) {
            for (std::size_t i = 1; i < track.size(); ++i)
                QVERIFY(track.start[i - 1] <= track.start[i]);
            QCOMPARE(track.depth.size(), track.size());
        }
        // Args references point at JSON objects in the retained input.
        for (std::size_t t = 0; t < result.store->tracks().size(); ++t) {
            const Track& track = result.store->tracks()[t];
            for (std::size_t i = 0; i < std::min<std::size_t>(track.size(), 50); ++i) {
                const std::string_view args = result.store->argsJson(int(t), i);
                if (!args.empty())
                    QVERIFY(args.front() == '{' && args.back() == '}');
            }
        }
    }
}

void TstChromeTraceReader::correlationFlowsJoinKernels()
{
    RUNLENS_REQUIRE_SAMPLES(root);
    for (const char* rel : { "/traces/kineto/2021_resnet50_v100/worker0.1623143089861.pt.trace.json.gz",
                             "/traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz",
                             "/traces/kineto/2024_nccl_rank0_of_2/nccl_data.json.gz" }) {
        const ChromeTraceResult result = ChromeTraceReader::read({ root + QLatin1String(rel) });
        const TraceStore& store = *result.store;
        std::size_t joined = 0;
        for (const Flow& flow : store.flows()) {
            const Track& from = store.tracks()[std::size_t(flow.fromTrack)];
            const Track& to = store.tracks()[std::size_t(flow.toTrack)];
            const EventKind a = from.kind[flow.fromSlice];
            const EventKind b = to.kind[flow.toSlice];
            if ((a == EventKind::Runtime || a == EventKind::Driver)
                && (b == EventKind::Kernel || b == EventKind::Memcpy || b == EventKind::Memset
                    || b == EventKind::Communication)) {
                QCOMPARE(to.type, TrackType::GpuStream);
                QVERIFY(store.processes()[std::size_t(to.process)].device);
                ++joined;
            }
        }
        QVERIFY2(joined > 100, rel);
        // Every kernel of a Kineto trace was launched by a runtime call.
        std::size_t kernels = 0;
        for (const Track& t : store.tracks()) {
            for (EventKind k : t.kind)
                kernels += k == EventKind::Kernel ? 1 : 0;
        }
        QVERIFY2(joined * 10 >= kernels * 9, rel);
    }
}

void TstChromeTraceReader::nanosecondPrecision()
{
    RUNLENS_REQUIRE_SAMPLES(root);
    const ChromeTraceResult result
        = ChromeTraceReader::read({ root + QStringLiteral("/traces/kineto/2024_nccl_rank0_of_2/nccl_data.json.gz") });
    const TraceStore& store = *result.store;
    QCOMPARE(store.sources()[0].baseTimeNs, std::int64_t(1711964646000000000));
    QCOMPARE(store.sources()[0].rank, 0);
    const std::int64_t expected = std::int64_t(1711964646000000000) + std::int64_t(4458676522690655);
    bool found = false;
    std::size_t notMicro = 0;
    for (const Track& t : store.tracks()) {
        for (std::int64_t s : t.start) {
            found = found || s == expected;
            notMicro += s % 1000 != 0 ? 1 : 0;
        }
    }
    QVERIFY(found);
    QVERIFY(notMicro > 1000);
    QVERIFY(store.sources()[0].metadataJson.contains("\"distributedInfo\""));
    QVERIFY(!store.sources()[0].metadataJson.contains("traceEvents"));
}

void TstChromeTraceReader::smallTrace()
{
    const ChromeTraceResult result = ChromeTraceReader::readBytes(kSmall, QStringLiteral("small.json"));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(describe(result.diagnostics)));
    const TraceStore& store = *result.store;
    const TraceSource& source = store.sources()[0];
    QCOMPARE(source.events, std::uint64_t(9));
    QCOMPARE(source.eventsByPhase[int('X')], std::uint64_t(5));
    QCOMPARE(source.memoryEvents, std::uint64_t(1));
    QCOMPARE(source.rank, 3);
    QCOMPARE(store.steps().size(), std::size_t(1));
    QCOMPARE(store.steps()[0].number, std::int64_t(4));
    QCOMPARE(store.steps()[0].start, std::int64_t(90000));
    QCOMPARE(store.processes().size(), std::size_t(2));
    QCOMPARE(store.processes()[0].pid, std::int64_t(0));
    QVERIFY(store.processes()[0].device);
    QVERIFY(!store.processes()[1].device);
    QCOMPARE(store.strings().view(store.processes()[0].labels), std::string_view("GPU 0"));
    QCOMPARE(store.strings().view(store.processes()[1].name), std::string_view("python"));
    QCOMPARE(store.flows().size(), std::size_t(1));
    const Flow& flow = store.flows()[0];
    QCOMPARE(store.strings().view(flow.category), std::string_view("correlation"));
    QCOMPARE(flow.id, std::uint64_t(77));
    const Track& from = store.tracks()[std::size_t(flow.fromTrack)];
    QCOMPARE(store.strings().view(from.name_[flow.fromSlice]), std::string_view("cudaLaunchKernel"));
    QCOMPARE(store.argsJson(flow.fromTrack, flow.fromSlice),
             std::string_view(R"({"correlation": 77, "External id": 1})"));
    const Track& to = store.tracks()[std::size_t(flow.toTrack)];
    QCOMPARE(store.strings().view(to.name), std::string_view("stream 7 "));
    QCOMPARE(to.maxDepth, 1); // the GPU annotation and the kernel inside it
    QVERIFY(source.metadataJson.startsWith("{\"schemaVersion\":"));
    QVERIFY(source.metadataJson.endsWith("\"traceName\":\"x.json\"}"));
}

void TstChromeTraceReader::envelopeKeyOrder()
{
    // traceEvents first, baseTimeNanoseconds after it: times still get the base.
    const std::string text = R"({"traceEvents": [{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1.5","dur":2}],
        "baseTimeNanoseconds": 1000000000, "displayTimeUnit": "ns"})";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("order.json"));
    QVERIFY(result.diagnostics.isEmpty());
    QCOMPARE(result.store->tracks()[0].start[0], std::int64_t(1000001500));
    QCOMPARE(result.store->tracks()[0].duration[0], std::int64_t(2000));
    QCOMPARE(result.store->sources()[0].baseTimeNs, std::int64_t(1000000000));
}

void TstChromeTraceReader::topLevelArrayAndSentinels()
{
    const std::string text = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2},{},
        {"ph":"i","name":"b","pid":1,"tid":1,"ts":2,"s":"g"}, {} ])";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("array.json"));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(describe(result.diagnostics)));
    QCOMPARE(result.store->sources()[0].sentinelEvents, std::uint64_t(2));
    QCOMPARE(result.store->sources()[0].events, std::uint64_t(2));
    QCOMPARE(slices(*result.store), std::uint64_t(2));
    QVERIFY(result.store->tracks()[0].flags[1] & SliceFlag::Instant);
}

void TstChromeTraceReader::beginEnd()
{
    const std::string text = R"({"traceEvents":[
        {"ph":"B","name":"outer","pid":1,"tid":1,"ts":0},
        {"ph":"B","name":"inner","pid":1,"tid":1,"ts":10},
        {"ph":"E","pid":1,"tid":1,"ts":20},
        {"ph":"E","pid":1,"tid":2,"ts":25},
        {"ph":"X","name":"late","pid":1,"tid":3,"ts":100,"dur":10},
        {"ph":"X","name":"forever","pid":1,"tid":3,"ts":200,"dur":1e12}
    ]})";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("be.json"));
    QVERIFY(!hasError(result.diagnostics));
    QCOMPARE(result.diagnostics.size(), 2); // unmatched E, unterminated B
    const TraceStore& store = *result.store;
    const Track* thread1 = nullptr;
    const Track* thread3 = nullptr;
    for (const Track& t : store.tracks()) {
        if (t.tid == 1)
            thread1 = &t;
        if (t.tid == 3)
            thread3 = &t;
    }
    QVERIFY(thread1 && thread3);
    QCOMPARE(thread1->size(), std::size_t(2));
    QCOMPARE(thread1->start[0], std::int64_t(0));
    QVERIFY(thread1->flags[0] & SliceFlag::Unterminated);
    QCOMPARE(thread1->end(0), store.endTime());
    QCOMPARE(thread1->duration[1], std::int64_t(10000));
    QCOMPARE(thread1->depth[1], std::uint16_t(1));
    QVERIFY(thread3->flags[1] & SliceFlag::AbsurdDuration);
}

void TstChromeTraceReader::stringAndIntIds()
{
    const std::string text = R"J([
        {"ph":"X","cat":"Operator","name":"op","pid":"25738","tid":"25738","ts":10,"dur":5},
        {"ph":"s","cat":"async","name":"launch","pid":25738,"tid":25738,"ts":11,"id":3},
        {"ph":"X","cat":"Kernel","name":"k","pid":0,"tid":"stream 7","ts":20,"dur":5},
        {"ph":"f","cat":"async","name":"launch","pid":0,"tid":"stream 7","ts":20,"id":3,"bp":"e"},
        {"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":0,"dur":50}
    ])J";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("ids.json"));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(describe(result.diagnostics)));
    const TraceStore& store = *result.store;
    QCOMPARE(store.processes().size(), std::size_t(3));
    QCOMPARE(store.flows().size(), std::size_t(1));
    const Flow& flow = store.flows()[0];
    QCOMPARE(store.tracks()[std::size_t(flow.fromTrack)].tid, std::int64_t(25738));
    const Track& stream = store.tracks()[std::size_t(flow.toTrack)];
    QCOMPARE(stream.type, TrackType::GpuStream);
    QCOMPARE(store.strings().view(stream.name), std::string_view("stream 7"));
    bool spans = false;
    for (const Process& p : store.processes())
        spans = spans || store.strings().view(p.name) == "Spans";
    QVERIFY(spans);
}

void TstChromeTraceReader::stringIdsAreNames()
{
    // The legacy autograd profiler writes "CPU functions"; Kineto "Spans"/"Traces"; some producers "".
    const std::string text = R"J([
        {"ph":"X","name":"aten::mm","pid":"CPU functions","tid":1,"ts":0,"dur":5},
        {"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":0,"dur":50},
        {"ph":"i","s":"g","name":"Iteration Start","pid":"Traces","tid":"Trace PyTorch Profiler","ts":0},
        {"ph":"i","s":"g","name":"Record Window End","pid":"","tid":"","ts":50},
        {"ph":"X","name":"numeric","pid":"42","tid":"7","ts":0,"dur":5}
    ])J";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("names.json"));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(describe(result.diagnostics)));
    const TraceStore& store = *result.store;
    QCOMPARE(store.processes().size(), std::size_t(5));
    std::map<std::string, const Process*> byName;
    const Process* numeric = nullptr;
    for (const Process& p : store.processes()) {
        if (p.pid == 42)
            numeric = &p;
        else
            byName[std::string(store.strings().view(p.name))] = &p;
    }
    for (const char* name : { "CPU functions", "Spans", "Traces", "" }) {
        QVERIFY2(byName.count(name), name);
        QVERIFY(byName[name]->namedId);
    }
    // A numeric string is a number, shown as one.
    QVERIFY(numeric);
    QVERIFY(!numeric->namedId);
    for (const Track& t : store.tracks()) {
        const std::string_view name = store.strings().view(t.name);
        if (name == "PyTorch Profiler" || name == "Trace PyTorch Profiler")
            QVERIFY(t.namedId);
        if (t.tid == 1 || t.tid == 7)
            QVERIFY(!t.namedId);
    }
}

void TstChromeTraceReader::collidingStringIdsStayApart()
{
    NamedIds ids([](std::string_view) { return std::int64_t(1) << 62; });
    Ident a { 0, "CPU functions", true };
    Ident b { 0, "Spans", true };
    Ident a2 { 0, "CPU functions", true };
    Ident numeric { 12, {}, false };
    ids.resolve(a);
    ids.resolve(b);
    ids.resolve(a2);
    ids.resolve(numeric);
    QCOMPARE(a.value, std::int64_t(1) << 62);
    QVERIFY(b.value != a.value);
    QCOMPARE(a2.value, a.value);
    QCOMPARE(numeric.value, std::int64_t(12));
    // The same name always gets the same key, whatever came in between.
    Ident b2 { 0, "Spans", true };
    ids.resolve(b2);
    QCOMPARE(b2.value, b.value);
}

void TstChromeTraceReader::timeEncodings()
{
    const std::string text = R"([
        {"ph":"X","name":"a","pid":1,"tid":1,"ts":4458676522690.655,"dur":1.5},
        {"ph":"X","name":"b","pid":1,"tid":2,"ts":"4458676522690.6559","dur":"0.001"},
        {"ph":"X","name":"c","pid":1,"tid":3,"ts":1623143089861000,"dur":0},
        {"ph":"X","name":"d","pid":1,"tid":4,"ts":1.5e3,"dur":2},
        {"ph":"X","name":"e","pid":1,"tid":5,"ts":-3,"dur":2}
    ])";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("ts.json"));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(describe(result.diagnostics)));
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> byTid;
    for (const Track& t : result.store->tracks())
        byTid[t.tid] = { t.start[0], t.duration[0] };
    QCOMPARE(byTid[1].first, std::int64_t(4458676522690655));
    QCOMPARE(byTid[1].second, std::int64_t(1500));
    QCOMPARE(byTid[2].first, std::int64_t(4458676522690656));
    QCOMPARE(byTid[2].second, std::int64_t(1));
    QCOMPARE(byTid[3].first, std::int64_t(1623143089861000000));
    QCOMPARE(byTid[4].first, std::int64_t(1500000));
    QCOMPARE(byTid[5].first, std::int64_t(-3000));
}

void TstChromeTraceReader::severalFiles()
{
    QTemporaryDir dir;
    QStringList paths;
    for (int rank = 0; rank < 2; ++rank) {
        const std::string text = R"({"distributedInfo":{"rank":)" + std::to_string(rank) + R"(},"baseTimeNanoseconds":)"
            + std::to_string(1000000000LL * (rank + 1))
            + R"(,"traceEvents":[{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":5,"tid":5,"ts":10,"dur":5}]})";
        const QString path = dir.filePath(QStringLiteral("rank%1.json").arg(rank));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.data(), qint64(text.size()));
        paths << path;
    }
    const ChromeTraceResult result = ChromeTraceReader::read(paths);
    QVERIFY(result.diagnostics.isEmpty());
    const TraceStore& store = *result.store;
    QCOMPARE(store.sources().size(), std::size_t(2));
    QCOMPARE(store.processes().size(), std::size_t(2));
    QCOMPARE(store.processes()[1].rank, 1);
    QCOMPARE(store.steps().size(), std::size_t(2));
    QCOMPARE(store.steps()[1].start - store.steps()[0].start, std::int64_t(1000000000));
}

void TstChromeTraceReader::counters()
{
    const std::string text = R"([
        {"ph":"C","name":"mem","pid":1,"ts":1,"args":{"used":10,"free":5}},
        {"ph":"C","name":"util","pid":1,"ts":2,"args":{"value":0.5}},
        {"ph":"C","name":"util","pid":1,"ts":1,"args":{"value":0.25}},
        {"ph":"b","cat":"io","name":"read","id":"0x10","pid":1,"tid":1,"ts":1},
        {"ph":"e","cat":"io","name":"read","id":"0x10","pid":1,"tid":1,"ts":4}
    ])";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("c.json"));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(describe(result.diagnostics)));
    QStringList names;
    for (const Track& t : result.store->tracks()) {
        if (t.type == TrackType::Counter)
            names << result.store->strings().text(t.name);
        if (t.type == TrackType::Counter && result.store->strings().view(t.name) == "util") {
            QCOMPARE(t.counterValue.size(), std::size_t(2));
            QCOMPARE(t.counterValue[0], 0.25);
        }
        if (t.type == TrackType::Async) {
            QCOMPARE(t.size(), std::size_t(1));
            QCOMPARE(t.duration[0], std::int64_t(3000));
        }
    }
    names.sort();
    QCOMPARE(names, QStringList({ QStringLiteral("mem.free"), QStringLiteral("mem.used"), QStringLiteral("util") }));
}

void TstChromeTraceReader::stepMarkers()
{
    // MindInsight: a "Steps" thread with slices named by the step number.
    const std::string mindinsight = R"([
      {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "Ascend Op"}},
      {"name": "thread_name", "ph": "M", "pid": 1, "tid": 100000, "args": {"name": "Steps"}},
      {"name": "1", "ph": "X", "pid": 1, "tid": 100000, "ts": 0, "dur": 100},
      {"name": "2", "ph": "X", "pid": 1, "tid": 100000, "ts": 100, "dur": 120},
      {"name": "Conv2D-op1", "ph": "X", "pid": 1, "tid": 7, "ts": 10, "dur": 5},
      {"name": "42", "ph": "X", "pid": 1, "tid": 7, "ts": 20, "dur": 5}])";
    ChromeTraceResult result = ChromeTraceReader::readBytes(mindinsight, QStringLiteral("timeline_display_0.json"));
    QCOMPARE(result.store->steps().size(), std::size_t(2));
    QCOMPARE(result.store->steps()[1].number, std::int64_t(2));
    QCOMPARE(result.store->steps()[1].start, std::int64_t(100000));
    QCOMPARE(result.store->steps()[1].end, std::int64_t(220000));

    // CANN msprof: a "Step Trace" process with "Iteration N" slices.
    const std::string msprof = R"([
      {"name": "process_name", "ph": "M", "pid": 5, "args": {"name": "Step Trace"}},
      {"name": "Iteration 3", "ph": "X", "pid": 5, "tid": 0, "ts": 50, "dur": 10},
      {"name": "FP_BP Time 3", "ph": "X", "pid": 5, "tid": 1, "ts": 50, "dur": 8},
      {"name": "Iteration 4", "ph": "X", "pid": 5, "tid": 0, "ts": 60, "dur": 10}])";
    result = ChromeTraceReader::readBytes(msprof, QStringLiteral("msprof_0_1_1.json"));
    QCOMPARE(result.store->steps().size(), std::size_t(2));
    QCOMPARE(result.store->steps()[0].number, std::int64_t(3));

    // ProfilerStep#N wins: markers are not added to a source that has them.
    const std::string both = R"([
      {"name": "thread_name", "ph": "M", "pid": 1, "tid": 9, "args": {"name": "Steps"}},
      {"name": "1", "ph": "X", "pid": 1, "tid": 9, "ts": 0, "dur": 100},
      {"name": "ProfilerStep#7", "ph": "X", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 0, "dur": 90}])";
    result = ChromeTraceReader::readBytes(both, QStringLiteral("both.json"));
    QCOMPARE(result.store->steps().size(), std::size_t(1));
    QCOMPARE(result.store->steps()[0].number, std::int64_t(7));
}

void TstChromeTraceReader::externalIdJoinsKernelsWithoutRuntime()
{
    // Kernel "k1" has no runtime call: only its External id ties it to aten::conv. Kernel "k2" is
    // joined by correlation to cudaLaunchKernel and must not get a second launcher.
    const std::string text = R"([
      {"ph": "X", "cat": "cpu_op", "name": "aten::conv", "pid": 1, "tid": 1, "ts": 0, "dur": 50, "args": {"External id": 5}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 60, "dur": 30, "args": {"External id": 6}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 65, "dur": 5, "args": {"External id": 6, "correlation": 900}},
      {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 20, "dur": 40, "args": {"External id": 5, "stream": 7}},
      {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 70, "dur": 10, "args": {"External id": 6, "correlation": 900}},
      {"ph": "X", "cat": "kernel", "name": "orphan", "pid": 0, "tid": 7, "ts": 95, "dur": 3, "args": {"External id": 77}}])";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("external.json"));
    const TraceStore& store = *result.store;
    int external = 0;
    for (const Flow& flow : store.flows())
        external += store.strings().view(flow.category) == "External id";
    QCOMPARE(external, 1);

    const LaunchIndex launches(store);
    auto nameOf = [&store](int track, std::uint32_t slice) {
        return store.strings().view(store.tracks()[std::size_t(track)].name_[slice]);
    };
    int stream = -1;
    for (std::size_t t = 0; t < store.tracks().size(); ++t)
        stream = store.tracks()[t].type == TrackType::GpuStream ? int(t) : stream;
    QVERIFY(stream >= 0);
    const LaunchIndex::Launch* k1 = launches.launcherOf(stream, 0);
    QVERIFY(k1);
    QCOMPARE(nameOf(k1->hostTrack, k1->hostSlice), std::string_view("aten::conv"));
    const LaunchIndex::Launch* k2 = launches.launcherOf(stream, 1);
    QVERIFY(k2);
    QCOMPARE(nameOf(k2->hostTrack, k2->hostSlice), std::string_view("cudaLaunchKernel"));
    QVERIFY(!launches.launcherOf(stream, 2)); // no op with External id 77

    // The op statistics charge k1's time to aten::conv and k2's to aten::mm (through its runtime call).
    const OperatorStatistics stats = computeOperatorStatistics(store);
    std::map<std::string, std::int64_t> device;
    for (const OperatorStats& op : stats.operators)
        device[std::string(store.strings().view(op.name))] = op.deviceSelf;
    QCOMPARE(device["aten::conv"], std::int64_t(40000));
    QCOMPARE(device["aten::mm"], std::int64_t(10000));
}

QTEST_GUILESS_MAIN(TstChromeTraceReader)
#include "tst_chrometracereader.moc"
