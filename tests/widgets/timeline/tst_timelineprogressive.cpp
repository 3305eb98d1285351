#include "importers/core/importcontrol.h"
#include "importers/trace/chrometracereader.h"
#include "models/trace/tracestorebuilder.h"
#include "models/trace/tracestorecodec.h"
#include "widgets/timeline/timelinepanel.h"
#include "widgets/timeline/timelineview.h"

#include <QFile>
#include <QLabel>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>
#include <QtTest>

#include <atomic>
#include <string>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::trace;
using namespace runlens::models::trace;
using namespace runlens::widgets::timeline;

namespace {

// A Kineto-like trace well past the size the reader splits and parses on two threads: four threads of
// nested CPU ops, listed in file order (not sorted) as profilers write them.
bool writeBigTrace(const QString& path, int events)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    std::string out = "{\"traceEvents\": [\n";
    out += R"({"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python"}})";
    for (int i = 0; i < events; ++i) {
        const int tid = i % 4;
        const long long ts = 1000 + (i / 8) * 10 + ((i / 4) % 2) * 2;
        const int dur = (i / 4) % 2 == 0 ? 9 : 5;
        out += ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op" + std::to_string(i % 13)
            + "\", \"pid\": 1, \"tid\": " + std::to_string(tid) + ", \"ts\": " + std::to_string(ts)
            + ", \"dur\": " + std::to_string(dur) + ", \"args\": {\"seq\": " + std::to_string(i) + "}}";
        if (out.size() > (1 << 20)) {
            file.write(out.data(), qint64(out.size()));
            out.clear();
        }
    }
    out += "\n]}\n";
    file.write(out.data(), qint64(out.size()));
    return file.error() == QFile::NoError;
}

} // namespace

class TestTimelineProgressive : public QObject
{
    Q_OBJECT

private slots:
    void aSnapshotIsBoundedSortedAndLeavesTheBuilderAlone()
    {
        TraceStoreBuilder builder;
        const int source = builder.addSource(QStringLiteral("s.json"), nullptr);
        const int process = builder.process(source, 1);
        const int a = builder.threadTrack(process, 1);
        const int b = builder.threadTrack(process, 2);
        const StringId name = builder.strings().intern("op");
        // Added out of order: the snapshot sorts what it copies.
        for (int i = 9999; i >= 0; --i) {
            builder.addSlice(a, std::int64_t(i) * 10, 8, name, kNoString, EventKind::CpuOp);
            builder.addSlice(a, std::int64_t(i) * 10 + 1, 2, name, kNoString, EventKind::CpuOp);
            if (i % 2 == 0)
                builder.addSlice(b, std::int64_t(i) * 10, 5, name, kNoString, EventKind::Kernel);
        }
        const std::shared_ptr<const TraceStore> all = builder.snapshot(1'000'000);
        QCOMPARE(all->eventCount(), std::uint64_t(25000));
        const std::shared_ptr<const TraceStore> small = builder.snapshot(1000);
        QVERIFY(small->eventCount() <= 1000);
        QVERIFY(small->eventCount() >= 990);
        for (const Track& track : small->tracks()) {
            QVERIFY(track.size() > 0); // every track keeps its share
            for (std::size_t i = 1; i < track.size(); ++i)
                QVERIFY(track.start[i - 1] <= track.start[i]);
        }
        QCOMPARE(small->strings().view(name), std::string_view("op"));
        // The builder still holds everything, and finishes as if no snapshot had been taken.
        QCOMPARE(builder.eventCount(), std::size_t(25000));
        const std::shared_ptr<const TraceStore> finished = builder.finish();
        QCOMPARE(finished->eventCount(), std::uint64_t(25000));
        QString why;
        QVERIFY2(TraceStoreCodec::equal(*all, *finished, &why), qPrintable(why));
    }

    void aPartialStoreIsPaintedBeforeTheImportEnds()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.pt.trace.json"));
        constexpr int kEvents = 120000; // about 12 MB
        QVERIFY(writeBigTrace(path, kEvents));

        TimelinePanel panel;
        panel.resize(900, 500);
        panel.show();
        auto* note = panel.findChild<QLabel*>(QStringLiteral("readingNote"));
        QVERIFY(note);
        QVERIFY(!note->isVisible());

        // The reader is held after its first partial store until the panel has been looked at: no timing.
        QSemaphore proceed;
        struct Release
        {
            QSemaphore& semaphore;
            ~Release() { semaphore.release(1000); }
        } release { proceed };
        std::atomic_int published { 0 };
        ImportControl control;
        control.snapshotIntervalMs = 0;
        control.traceSnapshot = [&](std::shared_ptr<const TraceStore> partial, int permille) {
            if (published.fetch_add(1) > 0)
                return;
            QMetaObject::invokeMethod(
                &panel, [&panel, partial, permille]() { panel.showPartialStore(partial, permille); },
                Qt::QueuedConnection);
            proceed.acquire();
        };
        QFuture<ChromeTraceResult> reading
            = QtConcurrent::run([&control, path]() { return ChromeTraceReader::readFiles({ path }, control); });

        QTRY_VERIFY(panel.partialStore() != nullptr);
        QVERIFY(!reading.isFinished());
        const TraceStore* partial = panel.partialStore();
        QVERIFY(partial->eventCount() > 0);
        QVERIFY(partial->eventCount() < std::uint64_t(kEvents));
        QCOMPARE(panel.view()->store(), partial);
        QVERIFY(panel.store() == nullptr); // the whole trace is not there yet
        QVERIFY(note->isVisible());
        QVERIFY2(note->text().contains(QLatin1Char('%')), qPrintable(note->text()));
        QVERIFY(!panel.grab().isNull()); // paints what is indexed so far

        proceed.release(1000);
        const ChromeTraceResult result = reading.result();
        QVERIFY(published.load() >= 1);
        panel.setStore(result.store);
        QVERIFY(panel.partialStore() == nullptr);
        QVERIFY(!note->isVisible());
        QCOMPARE(panel.view()->store(), result.store.get());

        // Publishing partial stores changes nothing in the result.
        const ChromeTraceResult plain = ChromeTraceReader::readFiles({ path });
        QCOMPARE(plain.store->eventCount(), std::uint64_t(kEvents));
        QString why;
        QVERIFY2(TraceStoreCodec::equal(*plain.store, *result.store, &why), qPrintable(why));
    }
};

QTEST_MAIN(TestTimelineProgressive)
#include "tst_timelineprogressive.moc"
