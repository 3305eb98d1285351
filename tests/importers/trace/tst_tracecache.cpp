#include "importers/trace/chrometracereader.h"
#include "importers/trace/tracecache.h"
#include "models/trace/tracelod.h"
#include "models/trace/tracestorebuilder.h"
#include "models/trace/tracestorecodec.h"

#include "tests/testutils.h"

#include <QBuffer>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

#include <zlib.h>

#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace runlens;
using namespace runlens::importers::trace;
using namespace runlens::models;
using namespace runlens::models::trace;

namespace {

std::string gzipped(const std::string& text)
{
    z_stream stream {};
    deflateInit2(&stream, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&stream, uLong(text.size())) + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = uInt(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

bool writeFile(const QString& path, const std::string& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

// A Kineto-like trace: nested CPU ops with args, kernels with correlation flows, ProfilerStep markers.
std::string kinetoTrace(int steps, int opsPerStep)
{
    std::string s = R"({"schemaVersion": 1, "distributedInfo": {"rank": 3}, "traceEvents": [)";
    bool first = true;
    auto add = [&](const std::string& event) {
        if (!first)
            s += ",\n";
        first = false;
        s += event;
    };
    add(R"({"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}})");
    add(R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": 7, "args": {"name": "main"}})");
    long long t = 1000;
    int correlation = 1;
    for (int step = 0; step < steps; ++step) {
        const long long stepStart = t;
        const long long stepLength = 10 + opsPerStep * 20;
        add(R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" + std::to_string(step)
            + R"(", "pid": 1, "tid": 7, "ts": )" + std::to_string(stepStart) + R"(, "dur": )"
            + std::to_string(stepLength) + "}");
        for (int op = 0; op < opsPerStep; ++op) {
            const long long opStart = stepStart + 5 + op * 20;
            add(R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 7, "ts": )"
                + std::to_string(opStart) + R"(, "dur": 15, "args": {"External id": )" + std::to_string(correlation)
                + R"(, "Input Dims": [[8, 8], [8, 8]]}})");
            add(R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 7, "ts": )"
                + std::to_string(opStart + 2) + R"(, "dur": 5, "args": {"correlation": )" + std::to_string(correlation)
                + "}}");
            add(R"({"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": )"
                + std::to_string(opStart + 8) + R"(, "dur": 9, "args": {"correlation": )" + std::to_string(correlation)
                + R"(, "stream": 7, "device": 0}})");
            add(R"({"ph": "s", "id": )" + std::to_string(correlation) + R"(, "pid": 1, "tid": 7, "ts": )"
                + std::to_string(opStart + 2) + R"(, "cat": "ac2g", "name": "ac2g"})");
            add(R"({"ph": "f", "id": )" + std::to_string(correlation) + R"(, "pid": 0, "tid": 7, "ts": )"
                + std::to_string(opStart + 8) + R"(, "cat": "ac2g", "name": "ac2g", "bp": "e"})");
            ++correlation;
        }
        add(R"({"ph": "C", "name": "Memory", "pid": 1, "ts": )" + std::to_string(stepStart)
            + R"(, "args": {"allocated": )" + std::to_string(step * 1024) + "}}");
        t += stepLength + 10;
    }
    s += "]}";
    return s;
}

QString describe(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

bool sameDiagnostics(const Diagnostics& a, const Diagnostics& b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].severity != b[i].severity || a[i].file != b[i].file || a[i].offset != b[i].offset
            || a[i].line != b[i].line || a[i].message != b[i].message)
            return false;
    }
    return true;
}

QStringList entriesOf(const QString& folder)
{
    QStringList files;
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    return files;
}

// Sets a file's modification time (seconds since the epoch), so "changed" does not depend on the clock.
void setMtime(const QString& path, long seconds)
{
    const struct timespec times[2] = { { seconds, 0 }, { seconds, 0 } };
    ::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0);
}

// The cache is process-wide: each test gets a folder of its own and leaves it off.
class CacheScope
{
public:
    explicit CacheScope(const QString& folder)
    {
        TraceCache::setDirectory(folder);
        TraceCache::setSizeLimit(TraceCache::kDefaultSizeLimit);
        TraceCache::setEnabled(true);
    }
    ~CacheScope()
    {
        TraceCache::setEnabled(false);
        TraceCache::setDirectory({});
        TraceCache::setSizeLimit(TraceCache::kDefaultSizeLimit);
    }
};

} // namespace

class TestTraceCache : public QObject
{
    Q_OBJECT
private slots:
    void plainTracesAreMappedNotCopied()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("trace.json"));
        QVERIFY(writeFile(path, kinetoTrace(4, 6)));
        const ChromeTraceResult result = ChromeTraceReader::read({ path });
        QVERIFY2(result.diagnostics.isEmpty(), qPrintable(describe(result.diagnostics)));
        const TraceSource& source = result.store->sources().at(0);
        QVERIFY(source.input);
        QVERIFY(source.input->borrowed());
        QCOMPARE(source.input->size(), std::size_t(QFileInfo(path).size()));
        // Args are still read lazily, from the mapping.
        bool sawArgs = false;
        for (std::size_t t = 0; t < result.store->tracks().size(); ++t) {
            for (std::size_t i = 0; i < result.store->tracks()[t].size(); ++i)
                sawArgs = sawArgs || result.store->argsJson(int(t), i).find("correlation") != std::string_view::npos;
        }
        QVERIFY(sawArgs);
    }

    void aTraceThatShrinksWhileReadIsReportedAsChanged()
    {
        // A child process imports a trace that is truncated under it mid-import (and then to nothing before
        // its args are read): it must say the file changed, and a fault the handler missed would end it by
        // SIGBUS instead of taking this test down.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        // Large enough to be read in several batches on two threads.
        const std::string text = kinetoTrace(400, 100);
        QVERIFY(text.size() > (std::size_t(8) << 20));
        QVERIFY(writeFile(path, text));
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            const QByteArray program(RUNLENS_TRACE_SHRINK_CHILD);
            const QByteArray file = QFile::encodeName(path);
            execl(program.constData(), program.constData(), file.constData(), static_cast<char*>(nullptr));
            _exit(127);
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY2(WIFEXITED(status), qPrintable(QStringLiteral("ended by signal %1").arg(WTERMSIG(status))));
        QCOMPARE(WEXITSTATUS(status), 0);
    }

    void gzipTracesAreInflatedOnceIntoTheCache()
    {
        QTemporaryDir cache;
        QTemporaryDir run;
        const ::CacheScope scope(cache.path());
        const QString path = run.filePath(QStringLiteral("trace.json.gz"));
        const std::string text = kinetoTrace(3, 5);
        QVERIFY(writeFile(path, gzipped(text)));
        // Compared with an in-memory inflation: a store from the cache borrows the entry's pages.
        TraceCache::setEnabled(false);
        const ChromeTraceResult reference = ChromeTraceReader::readFiles({ path });
        QVERIFY(!reference.store->sources().at(0).input->borrowed());
        TraceCache::setEnabled(true);
        const ChromeTraceResult fresh = ChromeTraceReader::readFiles({ path });
        QVERIFY(fresh.store->sources().at(0).input->borrowed());
        QString same;
        QVERIFY2(TraceStoreCodec::equal(*reference.store, *fresh.store, &same), qPrintable(same));
        const QString entry = TraceCache::entryPath(QStringLiteral("inflated"), { [&] {
                                                        TraceSourceKey k;
                                                        TraceCache::keyOf(path, k);
                                                        return k;
                                                    }() });
        QVERIFY(QFileInfo::exists(entry));
        QCOMPARE(QFileInfo(entry).size(), qint64(text.size()) + 24);
        // Nothing is written next to the trace.
        QCOMPARE(QDir(run.path()).entryList(QDir::Files), QStringList { QStringLiteral("trace.json.gz") });

        // A damaged entry (truncated, or garbage of the right size) is rebuilt.
        for (int damage = 0; damage < 2; ++damage) {
            {
                QFile file(entry);
                QVERIFY(file.open(QIODevice::ReadWrite));
                if (damage == 0)
                    QVERIFY(file.resize(100));
                else
                    file.write(QByteArray(int(file.size()), 'x'));
            }
            const ChromeTraceResult again = ChromeTraceReader::readFiles({ path });
            QString why;
            QVERIFY2(TraceStoreCodec::equal(*reference.store, *again.store, &why), qPrintable(why));
            QCOMPARE(QFileInfo(entry).size(), qint64(text.size()) + 24);
        }
    }

    void reopeningReadsTheIndexCacheAndEqualsAFreshParse()
    {
        QTemporaryDir cache;
        QTemporaryDir run;
        const ::CacheScope scope(cache.path());
        const QString plain = run.filePath(QStringLiteral("rank3.pt.trace.json"));
        const QString packed = run.filePath(QStringLiteral("rank4.pt.trace.json.gz"));
        QVERIFY(writeFile(plain, kinetoTrace(5, 8)));
        // A damaged event: the problem it causes comes back from the cache too.
        std::string withProblem = kinetoTrace(2, 3);
        withProblem.insert(withProblem.find("\"ts\": 1000"), "\"ts\": \"bad\", ");
        QVERIFY(writeFile(packed, gzipped(withProblem)));

        const QStringList paths { plain, packed };
        const ChromeTraceResult parsed = ChromeTraceReader::readFiles(paths);
        QVERIFY(!parsed.diagnostics.isEmpty());
        const int reads = TraceCache::indexReads();
        const ChromeTraceResult first = ChromeTraceReader::read(paths);
        QCOMPARE(TraceCache::indexReads(), reads);
        const ChromeTraceResult second = ChromeTraceReader::read(paths);
        QCOMPARE(TraceCache::indexReads(), reads + 1);
        QString why;
        QVERIFY2(TraceStoreCodec::equal(*parsed.store, *second.store, &why), qPrintable(why));
        QVERIFY2(sameDiagnostics(parsed.diagnostics, second.diagnostics), qPrintable(describe(second.diagnostics)));
        // Lazy args still come from the trace itself.
        QCOMPARE(second.store->argsJson(0, 1), parsed.store->argsJson(0, 1));

        // A changed trace is parsed again (and its new content seen), then cached again.
        QVERIFY(writeFile(plain, kinetoTrace(6, 8)));
        setMtime(plain, 1700000000);
        const ChromeTraceResult changed = ChromeTraceReader::read(paths);
        QCOMPARE(TraceCache::indexReads(), reads + 1);
        QVERIFY(!TraceStoreCodec::equal(*parsed.store, *changed.store));
        QVERIFY(TraceStoreCodec::equal(*ChromeTraceReader::readFiles(paths).store, *changed.store));
        ChromeTraceReader::read(paths);
        QCOMPARE(TraceCache::indexReads(), reads + 2);
    }

    void eachInterfaceLanguageHasItsOwnIndex()
    {
        // The problems come back as the first import wrote them: a cache written in English must not answer
        // a reader whose interface is in another language.
        QTemporaryDir cache;
        QTemporaryDir run;
        const ::CacheScope scope(cache.path());
        const QString path = run.filePath(QStringLiteral("trace.json"));
        std::string text = kinetoTrace(2, 3);
        text.insert(text.find("\"ts\": 1000"), "\"ts\": \"bad\", ");
        QVERIFY(writeFile(path, text));
        ChromeTraceReader::read({ path });
        const int reads = TraceCache::indexReads();
        ChromeTraceReader::read({ path });
        QCOMPARE(TraceCache::indexReads(), reads + 1);

        class Marked final : public QTranslator
        {
        public:
            QString translate(const char* context, const char* source, const char*, int) const override
            {
                return QLatin1String(context) == QLatin1String("runlens::ChromeTraceReader")
                    ? QStringLiteral("[xx] ") + QString::fromUtf8(source)
                    : QString();
            }
            bool isEmpty() const override { return false; }
        };
        Marked marked;
        QCoreApplication::installTranslator(&marked);
        const ChromeTraceResult translated = ChromeTraceReader::read({ path });
        const ChromeTraceResult again = ChromeTraceReader::read({ path });
        QCoreApplication::removeTranslator(&marked);
        QCOMPARE(TraceCache::indexReads(), reads + 2);
        QVERIFY(!translated.diagnostics.isEmpty());
        for (const ChromeTraceResult* result : { &translated, &again }) {
            bool seen = false;
            for (const Diagnostic& d : result->diagnostics)
                seen = seen || d.message.contains(QStringLiteral("[xx]"));
            QVERIFY2(seen, qPrintable(describe(result->diagnostics)));
        }
        ChromeTraceReader::read({ path });
        QCOMPARE(TraceCache::indexReads(), reads + 3);
    }

    void aDamagedIndexIsRebuiltWithoutACrash()
    {
        QTemporaryDir cache;
        QTemporaryDir run;
        const ::CacheScope scope(cache.path());
        const QString path = run.filePath(QStringLiteral("trace.json"));
        QVERIFY(writeFile(path, kinetoTrace(3, 4)));
        const ChromeTraceResult parsed = ChromeTraceReader::readFiles({ path });
        ChromeTraceReader::read({ path });
        TraceCacheKey key;
        QVERIFY(TraceCache::keyOf(QStringList { path }, key));
        const QString entry = TraceCache::indexPath(key);
        QVERIFY(QFileInfo::exists(entry));
        QFile file(entry);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray good = file.readAll();
        file.close();

        auto variants = QList<QPair<QString, QByteArray>> {
            { QStringLiteral("truncated"), good.left(good.size() / 2) },
            { QStringLiteral("empty"), QByteArray() },
            { QStringLiteral("garbage"), QByteArray(good.size(), 'g') },
        };
        QByteArray flipped = good;
        flipped[flipped.size() * 3 / 4] = char(flipped[flipped.size() * 3 / 4] ^ 0x5a);
        variants.append({ QStringLiteral("flipped byte"), flipped });
        QByteArray otherFormat = good;
        otherFormat[8] = char(otherFormat[8] + 1);
        variants.append({ QStringLiteral("other format version"), otherFormat });
        for (const auto& [name, bytes] : variants) {
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(bytes);
            file.close();
            const int reads = TraceCache::indexReads();
            const ChromeTraceResult result = ChromeTraceReader::read({ path });
            QVERIFY2(TraceCache::indexReads() == reads, qPrintable(name));
            QString why;
            QVERIFY2(TraceStoreCodec::equal(*parsed.store, *result.store, &why),
                     qPrintable(name + QLatin1String(": ") + why));
            // ... and the rewritten entry is good again.
            ChromeTraceReader::read({ path });
            QVERIFY2(TraceCache::indexReads() == reads + 1, qPrintable(name));
        }
    }

    void theCodecRefusesHostileSizesAndIndices()
    {
        QTemporaryDir run;
        const QString path = run.filePath(QStringLiteral("trace.json"));
        QVERIFY(writeFile(path, kinetoTrace(2, 3)));
        const ChromeTraceResult parsed = ChromeTraceReader::readFiles({ path });
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(TraceStoreCodec::write(*parsed.store, parsed.diagnostics, {}, buffer));
        const QByteArray good = buffer.data();
        auto decode = [](const QByteArray& bytes, bool checksum) {
            QString why;
            const auto span
                = std::span(reinterpret_cast<const std::byte*>(bytes.constData()), std::size_t(bytes.size()));
            return TraceStoreCodec::read(span, nullptr, checksum, why).store;
        };
        QVERIFY(decode(good, true));
        // Every single corrupted 8-byte word (without the checksum to stop it) is refused or decodes to
        // something consistent: never a crash, never an allocation the bytes cannot back.
        for (qsizetype at = 0; at + 8 <= good.size(); at += 3) {
            for (const quint64 value : { quint64(0xffffffffffffffffull), quint64(0x7fffffff), quint64(1) << 40 }) {
                QByteArray bad = good;
                std::memcpy(bad.data() + at, &value, 8);
                decode(bad, false);
            }
        }
        for (qsizetype cut = 0; cut < good.size(); cut += 7)
            QVERIFY(!decode(good.left(cut), false));
    }

    void thePaintingIndexRoundTripsAndComesBackWithTheStore()
    {
        // Rows long enough to have coverage levels, nested rows, and a counter track.
        TraceStoreBuilder builder;
        const int source = builder.addSource(QStringLiteral("lod.json"), nullptr);
        const int process = builder.process(source, 1);
        const int thread = builder.threadTrack(process, 7);
        const int stream = builder.threadTrack(process, 9, TrackType::GpuStream);
        const StringId outer = builder.strings().intern("outer");
        const StringId inner = builder.strings().intern("inner");
        for (int i = 0; i < 6000; ++i) {
            builder.addSlice(thread, std::int64_t(i) * 1000, 900, outer, kNoString, EventKind::CpuOp);
            builder.addSlice(thread, std::int64_t(i) * 1000 + 100, 300, inner, kNoString, EventKind::CpuOp);
            if (i % 3 == 0)
                builder.addSlice(stream, std::int64_t(i) * 1000 + 50, 2000, inner, kNoString, EventKind::Kernel);
        }
        const int counter = builder.counterTrack(process, "memory");
        for (int i = 0; i < 100; ++i)
            builder.addCounter(counter, std::int64_t(i) * 60000, double(i % 7) - 2.5);
        const std::shared_ptr<const TraceStore> store = builder.finish();
        const TraceLod built(*store);
        QVERIFY(built.levelFor(0, 0, 1e6) != nullptr); // the test covers coverage levels

        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(TraceStoreCodec::write(*store, {}, {}, buffer));
        const QByteArray good = buffer.data();
        const auto span = std::span(reinterpret_cast<const std::byte*>(good.constData()), std::size_t(good.size()));
        QString why;
        const TraceStoreCodec::Decoded decoded = TraceStoreCodec::read(span, nullptr, true, why);
        QVERIFY2(decoded.store, qPrintable(why));
        QVERIFY(decoded.store->lod());
        QVERIFY2(TraceStoreCodec::equal(built, *decoded.store->lod(), &why), qPrintable(why));
        QVERIFY2(TraceStoreCodec::equal(TraceLod(*decoded.store), *decoded.store->lod(), &why), qPrintable(why));

        // Damage anywhere in the painting index (the end of the file, before the checksum) is refused or
        // decodes to an index consistent with its tracks; never a crash.
        const qsizetype lodBytes = good.size() / 4;
        for (qsizetype at = good.size() - lodBytes; at + 8 <= good.size() - 4; at += 61) {
            for (const quint64 value : { quint64(0xffffffffffffffffull), quint64(0x7fffffff), quint64(1) << 40 }) {
                QByteArray bad = good;
                std::memcpy(bad.data() + at, &value, 8);
                QString refused;
                const auto badSpan
                    = std::span(reinterpret_cast<const std::byte*>(bad.constData()), std::size_t(bad.size()));
                const TraceStoreCodec::Decoded damaged = TraceStoreCodec::read(badSpan, nullptr, false, refused);
                if (damaged.store)
                    QVERIFY(damaged.store->lod());
            }
        }
    }

    void aReopenHandsThePaintingIndexWithTheStore()
    {
        QTemporaryDir cache;
        QTemporaryDir run;
        const ::CacheScope scope(cache.path());
        const QString path = run.filePath(QStringLiteral("trace.json"));
        QVERIFY(writeFile(path, kinetoTrace(4, 6)));
        const ChromeTraceResult parsed = ChromeTraceReader::readFiles({ path });
        QVERIFY(!parsed.store->lod()); // a plain parse leaves the index to the timeline
        const ChromeTraceResult first = ChromeTraceReader::read({ path });
        QVERIFY(first.store->lod()); // built once for the cache, and kept
        const int reads = TraceCache::indexReads();
        const ChromeTraceResult second = ChromeTraceReader::read({ path });
        QCOMPARE(TraceCache::indexReads(), reads + 1);
        QVERIFY(second.store->lod());
        QString why;
        QVERIFY2(TraceStoreCodec::equal(TraceLod(*parsed.store), *second.store->lod(), &why), qPrintable(why));

        // An entry of the previous format (no painting index) is rebuilt, not read.
        TraceCacheKey key;
        QVERIFY(TraceCache::keyOf(QStringList { path }, key));
        QFile file(TraceCache::indexPath(key));
        QVERIFY(file.open(QIODevice::ReadWrite));
        file.seek(8);
        const quint32 previous = 1;
        file.write(reinterpret_cast<const char*>(&previous), sizeof previous);
        file.close();
        const ChromeTraceResult rebuilt = ChromeTraceReader::read({ path });
        QCOMPARE(TraceCache::indexReads(), reads + 1);
        QVERIFY2(TraceStoreCodec::equal(*parsed.store, *rebuilt.store, &why), qPrintable(why));
        ChromeTraceReader::read({ path });
        QCOMPARE(TraceCache::indexReads(), reads + 2);
    }

    void theLeastRecentlyUsedEntriesAreEvicted()
    {
        QTemporaryDir cache;
        QTemporaryDir run;
        const ::CacheScope scope(cache.path());
        QStringList paths;
        for (int i = 0; i < 3; ++i) {
            paths << run.filePath(QStringLiteral("trace%1.json").arg(i));
            QVERIFY(writeFile(paths.last(), kinetoTrace(4 + i, 6)));
            ChromeTraceReader::read({ paths.last() });
        }
        const QStringList all = entriesOf(cache.path());
        QCOMPARE(all.size(), 3);
        // Re-opening the first one makes it the most recently used.
        for (const QString& entry : all)
            setMtime(entry, 1600000000);
        const int reads = TraceCache::indexReads();
        ChromeTraceReader::read({ paths[0] });
        QCOMPARE(TraceCache::indexReads(), reads + 1);
        const qint64 size = TraceCache::size();
        QVERIFY(size > 0);
        TraceCache::setSizeLimit(size - 1);
        TraceCache::evict();
        QCOMPARE(entriesOf(cache.path()).size(), 2);
        ChromeTraceReader::read({ paths[0] });
        QCOMPARE(TraceCache::indexReads(), reads + 2);
        QVERIFY(TraceCache::clear());
        QCOMPARE(TraceCache::size(), 0);
    }

    void samplesReadBackEqualToAFreshParse()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        QTemporaryDir cache;
        const ::CacheScope scope(cache.path());
        QDirIterator it(root + QStringLiteral("/traces/kineto"), QDir::Files, QDirIterator::Subdirectories);
        int checked = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            const ChromeTraceResult parsed = ChromeTraceReader::readFiles({ path });
            ChromeTraceReader::read({ path });
            const int reads = TraceCache::indexReads();
            const ChromeTraceResult cached = ChromeTraceReader::read({ path });
            QVERIFY2(TraceCache::indexReads() == reads + 1, qPrintable(path));
            QString why;
            QVERIFY2(TraceStoreCodec::equal(*parsed.store, *cached.store, &why),
                     qPrintable(path + QLatin1String(": ") + why));
            QVERIFY2(sameDiagnostics(parsed.diagnostics, cached.diagnostics), qPrintable(path));
            ++checked;
        }
        QVERIFY(checked >= 9);
    }
};

QTEST_GUILESS_MAIN(TestTraceCache)
#include "tst_tracecache.moc"
