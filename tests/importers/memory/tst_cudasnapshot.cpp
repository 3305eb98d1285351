#include "importers/memory/cudasnapshot.h"

#include "importers/core/filesniffer.h"
#include "importers/core/runscanner.h"
#include "tests/pythonoracle.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::memory;
using namespace runlens::models;
using namespace runlens::models::memory;

namespace {

QString fixture(const QString& name)
{
    return QStringLiteral(RUNLENS_TEST_DATA_DIR "/memory/") + name;
}

QByteArray readFixture(const QString& name)
{
    QFile file(fixture(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

/// BINUNICODE: a string of the pickle protocol 2.
std::string pickleText(std::string_view text)
{
    std::string out("X");
    for (int i = 0; i < 4; ++i)
        out += char((text.size() >> (8 * i)) & 0xff);
    out += text;
    return out;
}

/// BININT1: an integer below 256.
std::string smallInt(int value)
{
    return std::string { 'K', char(value) };
}

/// A list of `count` references to the one value `item` makes: MARK, the item, DUP (count - 1) times,
/// APPENDS. In a pickle the references cost one byte each, to a reader walking the list they are values.
std::string sharedList(const std::string& item, int count)
{
    return "](" + item + std::string(std::size_t(count - 1), '2') + "e";
}

/// A dict of the given keys and already pickled values: EMPTY_DICT MARK ... SETITEMS.
std::string pickleDict(std::initializer_list<std::pair<std::string_view, std::string>> items)
{
    std::string out("}(");
    for (const auto& [key, value] : items)
        out += pickleText(key) + value;
    return out + "u";
}

const MemoryDevice* findDevice(const MemoryProfile& profile, const QString& label)
{
    for (const MemoryDevice& device : profile.devices) {
        if (device.label == label)
            return &device;
    }
    return nullptr;
}

} // namespace

class TestCudaSnapshot : public QObject
{
    Q_OBJECT

private slots:
    void curvesMatchAnIndependentReplay();
    void liveBlocksBecomeLifetimes();
    void entriesWithoutTimeUseTheirOrder();
    void refusesAPickleThatImportsCode();
    void memoSharedBlocksStopAtTheBudget();
    void memoSharedTracesStopAtTheBudget();
    void truncatedSnapshotKeepsWhatWasRead();
    void notASnapshot();
    void missingFile();
    void sniffing();
    void scannerFindsSnapshots();
};

void TestCudaSnapshot::curvesMatchAnIndependentReplay()
{
    // snapshot_expected.json is the replay done by make_fixtures.py in Python from the same dict.
    const QJsonObject expected
        = QJsonDocument::fromJson(readFixture(QStringLiteral("snapshot_expected.json"))).object();
    QVERIFY(!expected.isEmpty());
    const MemoryReadResult result = readCudaSnapshot(fixture(QStringLiteral("snapshot.pickle")));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(result.diagnostics.value(0).toString()));
    QCOMPARE(result.status, ImportStatus::Ok);
    QVERIFY(result.profile);
    const MemoryProfile& profile = *result.profile;
    for (const MemoryDevice& device : profile.devices)
        QVERIFY(!device.relative);
    QCOMPARE(profile.kind, MemorySourceKind::CudaSnapshot);
    QCOMPARE(profile.axis, MemoryAxis::TimeNs);
    QCOMPARE(profile.paths, QStringList { fixture(QStringLiteral("snapshot.pickle")) });
    QCOMPARE(qsizetype(profile.devices.size()), expected.size());

    for (auto it = expected.begin(); it != expected.end(); ++it) {
        const MemoryDevice* device = findDevice(profile, it.key());
        QVERIFY2(device, qPrintable(it.key()));
        QCOMPARE(device->deviceType, 1);
        const QJsonObject want = it.value().toObject();
        const QJsonObject curves = want.value("curves").toObject();
        const std::pair<const char*, const MemorySeries*> series[] = {
            { "allocated", &device->allocated },
            { "active", &device->active },
            { "reserved", &device->reserved },
        };
        for (const auto& [name, curve] : series) {
            const QJsonObject c = curves.value(QLatin1String(name)).toObject();
            const QJsonArray xs = c.value("x").toArray();
            const QJsonArray bytes = c.value("bytes").toArray();
            QCOMPARE(qsizetype(curve->size()), xs.size());
            for (qsizetype i = 0; i < xs.size(); ++i) {
                QCOMPARE(curve->x[std::size_t(i)], xs[i].toString().toLongLong());
                QCOMPARE(curve->bytes[std::size_t(i)], bytes[i].toDouble());
            }
            // The curve ends at what the segments hold at snapshot time.
            QVERIFY(!curve->empty());
        }
        QCOMPARE(qsizetype(device->events.size()), qsizetype(want.value("events").toInt()));
        const QJsonArray ooms = want.value("ooms").toArray();
        QCOMPARE(qsizetype(device->ooms.size()), ooms.size());
        for (qsizetype i = 0; i < ooms.size(); ++i) {
            const QJsonObject oom = ooms[i].toObject();
            QCOMPARE(device->ooms[std::size_t(i)].x, oom.value("x").toString().toLongLong());
            QCOMPARE(device->ooms[std::size_t(i)].bytes, qint64(oom.value("bytes").toDouble()));
            QCOMPARE(device->ooms[std::size_t(i)].deviceFree, qint64(oom.value("device_free").toDouble()));
        }
    }

    // Spot checks by hand on cuda:0: 12 MiB + 512 B allocated at the end; the trace allocates 20 MiB + 512 B
    // and frees 8 MiB + 512 B, so it started at 512 B; the peak is 20 MiB + 512 B after the third alloc.
    const MemoryDevice* cuda0 = findDevice(profile, QStringLiteral("cuda:0"));
    QVERIFY(cuda0);
    const double mib = 1024.0 * 1024.0;
    QCOMPARE(cuda0->allocated.bytes.front(), 512.0);
    QCOMPARE(cuda0->allocated.bytes.back(), 12 * mib + 512);
    QCOMPARE(*std::max_element(cuda0->allocated.bytes.begin(), cuda0->allocated.bytes.end()), 20 * mib + 512);
    QCOMPARE(cuda0->reserved.bytes.front(), 2 * mib); // the 20 MiB segment came during the trace
    QCOMPARE(cuda0->reserved.bytes.back(), 22 * mib);
    QCOMPARE(cuda0->ooms.size(), std::size_t(1));
    QCOMPARE(cuda0->ooms.front().bytes, qint64(64 * mib));
    QVERIFY(std::is_sorted(cuda0->events.begin(), cuda0->events.end(),
                           [](const MemoryEvent& a, const MemoryEvent& b) { return a.x < b.x; }));
    QCOMPARE(cuda0->events.front().bytes, qint64(8 * mib));
    QCOMPARE(cuda0->events.front().address, quint64(0x7F0000000000));
}

void TestCudaSnapshot::liveBlocksBecomeLifetimes()
{
    const QJsonObject expected
        = QJsonDocument::fromJson(readFixture(QStringLiteral("snapshot_expected.json"))).object();
    const MemoryReadResult result = readCudaSnapshot(fixture(QStringLiteral("snapshot.pickle")));
    const MemoryDevice* cuda0 = findDevice(*result.profile, QStringLiteral("cuda:0"));
    QVERIFY(cuda0);
    const QJsonObject want = expected.value("cuda:0").toObject();
    QCOMPARE(qsizetype(cuda0->lifetimes.size()), qsizetype(want.value("live_blocks").toInt()));
    qint64 bytes = 0;
    for (const TensorLifetime& lifetime : cuda0->lifetimes)
        bytes += lifetime.bytes;
    QCOMPARE(bytes, qint64(want.value("live_bytes").toDouble()));

    const std::int64_t t0 = 1'700'000'000'000'000LL * 1000;
    // The first block: innermost frame is a Python file -> "functional.py:1500 linear", allocated at +10 us.
    const TensorLifetime& first = cuda0->lifetimes[0];
    QCOMPARE(first.name, QStringLiteral("functional.py:1500 linear"));
    QCOMPARE(first.type, QStringLiteral("active_allocated"));
    QCOMPARE(first.start, t0 + 10'000);
    QCOMPARE(first.end, t0 + 80'000);
    QCOMPARE(cuda0->lifetimes[1].name, QStringLiteral("train.py:77 step"));
    // A C++ allocator frame first: the Python frame below it names the block.
    QCOMPARE(cuda0->lifetimes[2].name, QStringLiteral("model.py:9 block"));
    QCOMPARE(cuda0->lifetimes[2].start, t0); // allocated before the trace began
    // No frames: the address names it.
    QCOMPARE(cuda0->lifetimes[3].name, QStringLiteral("0x7f1000000200"));
    QCOMPARE(cuda0->lifetimes[3].type, QStringLiteral("active_awaiting_free"));
}

void TestCudaSnapshot::entriesWithoutTimeUseTheirOrder()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("old_snapshot.pickle"));
    // An older snapshot: no time_us, frames in block history, no device key in segments.
    const QString script = QStringLiteral(
        "import pickle,sys\n"
        "s={'segments':[{'address':4096,'total_size':8192,'stream':0,'segment_type':'small',"
        "'allocated_size':1024,'active_size':1024,'blocks':[{'address':4096,'size':1024,'state':'active_allocated',"
        "'history':[{'addr':4096,'real_size':1000,'frames':[{'filename':'a.py','line':3,'name':'f'}]}]},"
        "{'address':5120,'size':7168,'state':'inactive'}]}],"
        "'device_traces':[[{'action':'alloc','addr':4096,'size':1024,'stream':0},"
        "{'action':'alloc','addr':5120,'size':2048,'stream':0},"
        "{'action':'free_requested','addr':5120,'size':2048,'stream':0},"
        "{'action':'free_completed','addr':5120,'size':2048,'stream':0},"
        "{'action':'segment_map','addr':4096,'size':8192,'stream':0}]]}\n"
        "open(sys.argv[1],'wb').write(pickle.dumps(s,protocol=2))\n");
    RUNLENS_PYTHON_ORACLE(written, { QStringLiteral("-c"), script, path });

    const MemoryReadResult result = readCudaSnapshot(path);
    QCOMPARE(result.status, ImportStatus::Ok);
    QCOMPARE(result.profile->axis, MemoryAxis::NodeIndex);
    QCOMPARE(result.profile->devices.size(), std::size_t(1));
    const MemoryDevice& device = result.profile->devices.front();
    QCOMPARE(device.label, QStringLiteral("cuda:0"));
    // Final 1024, net +1024 -> starts at 0; x = entry index.
    QCOMPARE(device.allocated.x, (std::vector<std::int64_t> { 0, 0, 1, 2 }));
    QCOMPARE(device.allocated.bytes, (std::vector<double> { 0, 1024, 3072, 1024 }));
    QCOMPARE(device.active.x, (std::vector<std::int64_t> { 0, 0, 1, 3 }));
    // Reserved: 8192 at the end, mapped during the trace -> 0 before.
    QCOMPARE(device.reserved.bytes, (std::vector<double> { 0, 8192 }));
    QCOMPARE(device.lifetimes.size(), std::size_t(1));
    QCOMPARE(device.lifetimes.front().name, QStringLiteral("a.py:3 f"));
    QCOMPARE(device.lifetimes.front().start, 0);
    QCOMPARE(device.lifetimes.front().end, 4);
}

void TestCudaSnapshot::refusesAPickleThatImportsCode()
{
    const QString marker = QStringLiteral("/tmp/runlens_pickle_was_executed");
    QFile::remove(marker);
    for (const char* name : { "code_reduce_p2.pickle", "code_reduce_p4.pickle" }) {
        const MemoryReadResult result = readCudaSnapshot(fixture(QLatin1String(name)));
        QCOMPARE(result.status, ImportStatus::Failed);
        QVERIFY(result.profile);
        QVERIFY(result.profile->empty());
        QVERIFY(!result.diagnostics.isEmpty());
        const Diagnostic& first = result.diagnostics.first();
        QCOMPARE(first.file, fixture(QLatin1String(name)));
        QVERIFY2(first.message.contains(QStringLiteral("posix.system")), qPrintable(first.message));
        QVERIFY2(first.message.contains(QStringLiteral("refused")), qPrintable(first.message));
    }
    QVERIFY(!QFile::exists(marker));
}

void TestCudaSnapshot::truncatedSnapshotKeepsWhatWasRead()
{
    const QByteArray bytes = readFixture(QStringLiteral("snapshot.pickle"));
    // Cut in the middle of the device traces: the segments are complete, the trace partly there.
    const qsizetype cut = bytes.indexOf("device_traces") + 200;
    QVERIFY(cut > 200 && cut < bytes.size());
    const MemoryReadResult result
        = readCudaSnapshotBytes(std::string_view(bytes.constData(), std::size_t(cut)), QStringLiteral("cut.pickle"));
    QCOMPARE(result.status, ImportStatus::Partial);
    QVERIFY(result.diagnostics.first().message.contains(QStringLiteral("truncated")));
    const MemoryDevice* cuda0 = findDevice(*result.profile, QStringLiteral("cuda:0"));
    QVERIFY(cuda0);
    // The trace's end is missing, so the curves cannot be anchored at the segments: relative, from zero.
    QVERIFY(cuda0->relative);
    QCOMPARE(cuda0->allocated.bytes.front(), 0.0);
    QCOMPARE(cuda0->allocated.bytes[1], 8.0 * 1024 * 1024); // the first alloc, which the cut file still has
    QCOMPARE(cuda0->lifetimes.size(), std::size_t(4));
    QVERIFY(result.diagnostics.last().message.contains(QStringLiteral("from zero")));

    for (qsizetype length = 0; length < bytes.size(); length += 7) {
        const std::string head(bytes.constData(), std::size_t(length));
        const MemoryReadResult any = readCudaSnapshotBytes(head, QStringLiteral("cut.pickle"));
        QVERIFY(any.profile);
        QVERIFY(any.status == ImportStatus::Partial || any.status == ImportStatus::Failed);
    }
}

void TestCudaSnapshot::notASnapshot()
{
    const MemoryReadResult values = readCudaSnapshot(fixture(QStringLiteral("values_p4.pickle")));
    QCOMPARE(values.status, ImportStatus::Failed);
    QVERIFY(values.diagnostics.first().message.contains(QStringLiteral("segments")));
    const MemoryReadResult list
        = readCudaSnapshotBytes(std::string_view("\x80\x02]q\x00.", 6), QStringLiteral("l.pkl"));
    QCOMPARE(list.status, ImportStatus::Failed);
}

void TestCudaSnapshot::missingFile()
{
    const MemoryReadResult result = readCudaSnapshot(QStringLiteral("/nonexistent/snapshot.pickle"));
    QCOMPARE(result.status, ImportStatus::Failed);
    QVERIFY(result.profile);
    QCOMPARE(result.diagnostics.first().file, QStringLiteral("/nonexistent/snapshot.pickle"));
}

void TestCudaSnapshot::sniffing()
{
    const QByteArray bytes = readFixture(QStringLiteral("snapshot.pickle"));
    const std::string_view head(bytes.constData(), std::size_t(std::min<qsizetype>(bytes.size(), 4096)));
    QVERIFY(looksLikeCudaSnapshot(head));
    QVERIFY(FileSniffer::worthReading("memory_snapshot.pickle"));
    QVERIFY(FileSniffer::worthReading("snap.pkl"));
    QCOMPARE(FileSniffer::sniff("memory_snapshot.pickle", "", head, bytes.size()).kind, ArtifactKind::MemorySnapshot);
    QCOMPARE(FileSniffer::sniff("rank0_oom", "", head, bytes.size()).kind, ArtifactKind::MemorySnapshot);

    // Other pickles are not snapshots, whatever their name.
    const QByteArray values = readFixture(QStringLiteral("values_p4.pickle"));
    const std::string_view valuesHead(values.constData(), 4096);
    QVERIFY(!looksLikeCudaSnapshot(valuesHead));
    QCOMPARE(FileSniffer::sniff("data.pkl", "", valuesHead, values.size()).kind, ArtifactKind::Unknown);
    // ... but a file named like a snapshot that is not one is reported as such.
    QCOMPARE(FileSniffer::sniff("snapshot.pickle", "", valuesHead, values.size()).expectedByName,
             ArtifactKind::MemorySnapshot);
    QCOMPARE(artifactKindId(ArtifactKind::MemorySnapshot), QStringLiteral("memory-snapshot"));
}

void TestCudaSnapshot::scannerFindsSnapshots()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto copy = [&](const QString& from, const QString& to) {
        QDir().mkpath(QFileInfo(dir.filePath(to)).path());
        return QFile::copy(fixture(from), dir.filePath(to));
    };
    QVERIFY(copy(QStringLiteral("snapshot.pickle"), QStringLiteral("run1/oom_snapshot.pickle")));
    QVERIFY(copy(QStringLiteral("snapshot.pickle"), QStringLiteral("run1/rank_1/mem.pkl")));
    QVERIFY(copy(QStringLiteral("values_p4.pickle"), QStringLiteral("run1/dataset.pkl")));
    QVERIFY(copy(QStringLiteral("values_p4.pickle"), QStringLiteral("run1/memory_snapshot.pkl")));

    const RunManifest manifest = RunScanner().scan(dir.path());
    auto kindOf = [&](const QString& relative) {
        const int index = manifest.indexOfPath(dir.filePath(relative));
        return index < 0 ? QStringLiteral("absent") : artifactKindId(manifest.artifacts[index].kind);
    };
    QCOMPARE(kindOf(QStringLiteral("run1/oom_snapshot.pickle")), QStringLiteral("memory-snapshot"));
    QCOMPARE(kindOf(QStringLiteral("run1/rank_1/mem.pkl")), QStringLiteral("memory-snapshot"));
    const int ranked = manifest.indexOfPath(dir.filePath(QStringLiteral("run1/rank_1/mem.pkl")));
    QCOMPARE(manifest.artifacts[ranked].rank, std::optional<int>(1));
    // A pickle of something else is not listed as a snapshot (it is not an artifact at all)...
    QVERIFY(kindOf(QStringLiteral("run1/dataset.pkl")) != QStringLiteral("memory-snapshot"));
    // ... and one named like a snapshot is not called one either.
    QVERIFY(kindOf(QStringLiteral("run1/memory_snapshot.pkl")) != QStringLiteral("memory-snapshot"));
}

void TestCudaSnapshot::memoSharedBlocksStopAtTheBudget()
{
    // 3000 segments sharing one segment of 3000 blocks sharing one block of 3000 frames: 9 KB of pickle,
    // 2.7 * 10^10 frames to a walk that follows the references.
    const std::string frame = pickleDict(
        { { "filename", pickleText("train.py") }, { "line", smallInt(7) }, { "name", pickleText("step") } });
    const std::string block = pickleDict({ { "state", pickleText("active_allocated") },
                                           { "size", smallInt(16) },
                                           { "address", smallInt(32) },
                                           { "frames", sharedList(frame, 3000) } });
    const std::string segment = pickleDict(
        { { "device", smallInt(0) }, { "total_size", smallInt(64) }, { "blocks", sharedList(block, 3000) } });
    const std::string bytes = "\x80\x02" + pickleDict({ { "segments", sharedList(segment, 3000) } }) + ".";
    QVERIFY(bytes.size() < 10'000);

    const QString path = QStringLiteral("/runs/laughs.pickle");
    const MemoryReadResult result = readCudaSnapshotBytes(bytes, path);
    QCOMPARE(result.status, ImportStatus::Partial);
    QVERIFY(!result.diagnostics.isEmpty());
    const Diagnostic& stop = result.diagnostics.last();
    QCOMPARE(stop.severity, Severity::Error);
    QCOMPARE(stop.file, path);
    QVERIFY2(stop.message.contains(QStringLiteral("Reading stopped")), qPrintable(stop.message));
    // What was walked before the limit is kept, and it is far from everything the references reach.
    QCOMPARE(result.profile->devices.size(), std::size_t(1));
    const std::size_t kept = result.profile->devices.front().lifetimes.size();
    QVERIFY(kept > 0);
    QVERIFY2(kept < 100'000, qPrintable(QString::number(kept)));
    QCOMPARE(result.profile->devices.front().lifetimes.front().name, QStringLiteral("train.py:7 step"));
}

void TestCudaSnapshot::memoSharedTracesStopAtTheBudget()
{
    // 4000 device traces sharing one trace of 4000 references to one entry: 8 KB, 1.6 * 10^7 entries.
    const std::string entry = pickleDict({ { "action", pickleText("alloc") },
                                           { "addr", smallInt(1) },
                                           { "size", smallInt(16) },
                                           { "time_us", smallInt(2) } });
    const std::string bytes
        = "\x80\x02" + pickleDict({ { "device_traces", sharedList(sharedList(entry, 4000), 4000) } }) + ".";
    QVERIFY(bytes.size() < 10'000);

    const QString path = QStringLiteral("/runs/traces.pickle");
    const MemoryReadResult result = readCudaSnapshotBytes(bytes, path);
    QCOMPARE(result.status, ImportStatus::Partial);
    QVERIFY(!result.diagnostics.isEmpty());
    const auto stop = std::find_if(result.diagnostics.cbegin(), result.diagnostics.cend(), [](const Diagnostic& d) {
        return d.message.contains(QStringLiteral("Reading stopped"));
    });
    QVERIFY(stop != result.diagnostics.cend());
    QCOMPARE(stop->file, path);
    QCOMPARE(stop->severity, Severity::Error);
    QVERIFY(!result.profile->devices.empty());
    QVERIFY(result.profile->devices.size() < 4000);
    std::size_t events = 0;
    for (const MemoryDevice& device : result.profile->devices)
        events += device.events.size();
    QVERIFY(events > 0);
    QVERIFY2(events < std::size_t(4000) * 4000, qPrintable(QString::number(events)));
}

QTEST_GUILESS_MAIN(TestCudaSnapshot)
#include "tst_cudasnapshot.moc"
