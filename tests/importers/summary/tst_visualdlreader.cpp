#include "summary/visualdlreader.h"

#include "core/artifactimporter.h"
#include "core/importsession.h"
#include "core/runscanner.h"
#include "scalars/scalarstore.h"
#include "summary/proto/vdl_record.pb.h"

#include "pollresult.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>
#include <string>
#include <vector>

using namespace runlens;
using namespace runlens::summary;
using namespace runlens::test;

namespace {

using Record = runlens::vdl::Record;

bool writeFile(const QString& path, const QByteArray& bytes, bool append = false)
{
    QFile file(path);
    if (!file.open(append ? QIODevice::Append : (QIODevice::WriteOnly | QIODevice::Truncate)))
        return false;
    return file.write(bytes) == bytes.size();
}

QByteArray le64(std::uint64_t value)
{
    QByteArray out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[i] = char((value >> (8 * i)) & 0xffu);
    return out;
}

/// VisualDL's framing: the payload length as 8 little-endian bytes, then the payload, no checksum.
QByteArray framed(const QByteArray& payload)
{
    return le64(std::uint64_t(payload.size())) + payload;
}

QByteArray framed(const Record& record)
{
    const std::string bytes = record.SerializeAsString();
    return framed(QByteArray(bytes.data(), qsizetype(bytes.size())));
}

Record::Value* addValue(Record& record, const std::string& tag, qint64 step, qint64 timestampMs)
{
    Record::Value* value = record.add_values();
    value->set_tag(tag);
    value->set_id(step);
    value->set_timestamp(timestampMs);
    return value;
}

QByteArray scalarRecord(const std::string& tag, qint64 step, qint64 timestampMs, float number)
{
    Record record;
    addValue(record, tag, step, timestampMs)->set_value(number);
    return framed(record);
}

QByteArray histogramRecord(const std::string& tag, qint64 step)
{
    Record record;
    auto* histogram = addValue(record, tag, step, 1700000000000 + step)->mutable_histogram();
    for (int i = 0; i < 4; ++i) {
        histogram->add_hist(double(i + step));
        histogram->add_bin_edges(double(i));
    }
    histogram->add_bin_edges(4.0);
    return framed(record);
}

QByteArray imageRecord(const std::string& tag, qint64 step)
{
    Record record;
    // Not a real PNG: the reader only counts images, it does not decode them.
    addValue(record, tag, step, 1700000000000 + step)->mutable_image()->set_encoded_image_string("\x89PNG fake");
    return framed(record);
}

} // namespace

class TestVisualDlReader : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void scalarsOfTwoTags()
    {
        const QString file = path(QStringLiteral("vdlrecords.1700000000.log"));
        QByteArray bytes;
        {
            // LogWriter(display_name=...) writes a meta_data value first.
            Record meta;
            addValue(meta, "meta_data_tag", 0, 1700000000000)->mutable_meta_data()->set_display_name("baseline");
            bytes += framed(meta);
        }
        for (int step = 0; step < 100; ++step) {
            const qint64 ms = 1700000000000 + qint64(step) * 1001;
            bytes += scalarRecord("train/loss", step, ms, 1.0f / float(step + 1));
            bytes += scalarRecord("train/acc", step, ms + 7, float(step) * 0.01f);
        }
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        Collected got;
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(!update.mayGrow);
        QCOMPARE(update.recordsRead, 201);
        QCOMPARE(update.bytesRead, QFileInfo(file).size());
        QCOMPARE(reader.offset(), QFileInfo(file).size());
        QVERIFY2(got.diagnostics.isEmpty(), qPrintable(got.diagnostics.value(0).message));
        QCOMPARE(reader.displayName(), QStringLiteral("baseline"));
        QCOMPARE(got.tagOrder, (QStringList { QStringLiteral("train/loss"), QStringLiteral("train/acc") }));
        QCOMPARE(got.metadataBatches, 2);
        const auto& loss = got.series.value(QStringLiteral("train/loss"));
        const auto& acc = got.series.value(QStringLiteral("train/acc"));
        QCOMPARE(loss.size(), std::size_t(100));
        QCOMPARE(acc.size(), std::size_t(100));
        for (int step = 0; step < 100; ++step) {
            const auto i = std::size_t(step);
            const qint64 ms = 1700000000000 + qint64(step) * 1001;
            QCOMPARE(loss[i].step, qint64(step));
            QCOMPARE(loss[i].value, double(1.0f / float(step + 1)));
            // Milliseconds on disk, seconds in the model.
            QCOMPARE(loss[i].wallTime, double(ms) / 1000.0);
            QCOMPARE(acc[i].step, qint64(step));
            QCOMPARE(acc[i].value, double(float(step) * 0.01f));
            QCOMPARE(acc[i].wallTime, double(ms + 7) / 1000.0);
        }

        // Nothing new: a second poll delivers nothing and stays Ok.
        const ImportUpdate again = reader.poll({});
        QVERIFY(again.scalars.empty());
        QCOMPARE(again.recordsRead, 0);
        QCOMPARE(again.status, ImportStatus::Ok);
    }

    void handEncodedRecord()
    {
        // Bytes written from VisualDL's field numbers, independent of our .proto: Record.values = 1;
        // Value.id = 1 (varint), tag = 2 (bytes), timestamp = 3 (varint), value = 4 (fixed32 float).
        const QByteArray value = QByteArray::fromHex("0807" // id = 7
                                                     "120178" // tag = "x"
                                                     "18dc0b" // timestamp = 1500
                                                     "2500002040"); // value = 2.5f
        const QByteArray record = QByteArray("\x0a", 1) + char(value.size()) + value;
        const QString file = path(QStringLiteral("vdlrecords.hand.log"));
        QVERIFY(writeFile(file, framed(record)));
        VisualDlReader reader(file);
        Collected got;
        got.add(reader.poll({}));
        QCOMPARE(got.series.size(), 1);
        const auto& x = got.series.value(QStringLiteral("x"));
        QCOMPARE(x.size(), std::size_t(1));
        QCOMPARE(x[0].step, qint64(7));
        QCOMPARE(x[0].wallTime, 1.5);
        QCOMPARE(x[0].value, 2.5);
    }

    void otherKindsAreCountedAndAnnouncedOnce()
    {
        const QString file = path(QStringLiteral("vdlrecords.others.log"));
        QByteArray bytes;
        bytes += scalarRecord("loss", 0, 1700000000000, 3.0f);
        bytes += histogramRecord("fc.weight", 0);
        bytes += imageRecord("input", 0);
        bytes += histogramRecord("fc.weight", 1);
        {
            Record text;
            addValue(text, "notes", 0, 1700000000000)->mutable_text()->set_encoded_text_string("hello");
            bytes += framed(text);
        }
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        const ImportUpdate first = reader.poll({});
        Collected got;
        got.add(first);
        QCOMPARE(first.status, ImportStatus::Ok);
        QCOMPARE(first.recordsRead, 5);
        QCOMPARE(got.series.size(), 1);
        QCOMPARE(got.series.value(QStringLiteral("loss")).size(), std::size_t(1));
        QCOMPARE(reader.otherValueCount(QStringLiteral("fc.weight")), 2);
        QCOMPARE(reader.otherValueCount(QStringLiteral("input")), 1);
        QCOMPARE(reader.otherValueCount(QStringLiteral("notes")), 1);
        QCOMPARE(reader.otherValueCount(QStringLiteral("loss")), 0);
        // One Info per tag and kind, naming the tag and its count so far.
        QCOMPARE(got.count(Severity::Info), 3);
        QCOMPARE(got.diagnostics.size(), 3);
        bool histogramSeen = false;
        for (const Diagnostic& d : std::as_const(got.diagnostics)) {
            QCOMPARE(d.file, QFileInfo(file).absoluteFilePath());
            if (d.message.contains(QStringLiteral("\"fc.weight\""))) {
                histogramSeen = true;
                QVERIFY2(d.message.contains(QStringLiteral("histograms")), qPrintable(d.message));
                QVERIFY2(d.message.contains(QStringLiteral("2 value")), qPrintable(d.message));
            }
        }
        QVERIFY(histogramSeen);

        // More of the same kinds later: counted, not announced again; a new kind on a known tag is.
        QByteArray more = histogramRecord("fc.weight", 2) + imageRecord("input", 1) + imageRecord("fc.weight", 2);
        QVERIFY(writeFile(file, more, true));
        const ImportUpdate second = reader.poll({});
        QCOMPARE(second.recordsRead, 3);
        QCOMPARE(second.diagnostics.size(), 1);
        QCOMPARE(second.diagnostics[0].severity, Severity::Info);
        QVERIFY2(second.diagnostics[0].message.contains(QStringLiteral("images")),
                 qPrintable(second.diagnostics[0].message));
        QCOMPARE(reader.otherValueCount(QStringLiteral("fc.weight")), 4);
        QCOMPARE(reader.otherValueCount(QStringLiteral("input")), 2);
        QCOMPARE(second.status, ImportStatus::Ok);
    }

    void truncatedLastRecordIsTailed_data()
    {
        QTest::addColumn<int>("keep"); // bytes of the last record present at the first poll
        QTest::newRow("inside the length") << 5;
        QTest::newRow("length only") << 8;
        QTest::newRow("inside the payload") << 12;
    }

    void truncatedLastRecordIsTailed()
    {
        QFETCH(int, keep);
        QByteArray complete;
        QList<qint64> ends;
        for (int step = 0; step < 10; ++step) {
            complete += scalarRecord("loss", step, 1700000000000 + step, 10.0f - float(step));
            ends.append(complete.size());
        }
        const qint64 lastStart = ends[8];
        const QString file = path(QStringLiteral("vdlrecords.live%1.log").arg(keep));
        QVERIFY(writeFile(file, complete.left(lastStart + keep)));

        VisualDlReader reader(file);
        const ImportUpdate first = reader.poll({});
        Collected got;
        got.add(first);
        QVERIFY(first.mayGrow);
        QCOMPARE(first.status, ImportStatus::Ok); // an unfinished record is not damage
        QVERIFY(first.diagnostics.isEmpty());
        QCOMPARE(got.series.value(QStringLiteral("loss")).size(), std::size_t(9));
        QCOMPARE(reader.offset(), lastStart);

        // The writer finishes the record: the next poll yields exactly the missing point.
        QVERIFY(writeFile(file, complete.mid(lastStart + keep), true));
        const ImportUpdate second = reader.poll({});
        QVERIFY(!second.mayGrow);
        QCOMPARE(second.recordsRead, 1);
        QCOMPARE(second.scalars.size(), std::size_t(1));
        QCOMPARE(second.scalars[0].points.size(), std::size_t(1));
        QCOMPARE(second.scalars[0].points[0].step, qint64(9));
        QCOMPARE(second.scalars[0].points[0].value, 1.0);
        QVERIFY(!second.scalars[0].metadata); // metadata came with the tag's first batch
        QCOMPARE(reader.offset(), qint64(complete.size()));
    }

    void hugeLengthStopsWithError()
    {
        QByteArray bytes;
        for (int step = 0; step < 5; ++step)
            bytes += scalarRecord("loss", step, 1700000000000 + step, float(step));
        const qint64 badOffset = bytes.size();
        bytes += le64(std::uint64_t(1) << 40) + QByteArray(64, 'x');
        bytes += scalarRecord("loss", 5, 1700000000005, 5.0f); // unreachable without trustworthy framing
        const QString file = path(QStringLiteral("vdlrecords.huge.log"));
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        Collected got;
        got.add(update);
        QCOMPARE(got.series.value(QStringLiteral("loss")).size(), std::size_t(5));
        QCOMPARE(update.status, ImportStatus::Partial);
        QVERIFY(!update.mayGrow);
        QVERIFY(reader.isDead());
        QCOMPARE(got.count(Severity::Error), 1);
        const Diagnostic& error = got.diagnostics.first();
        QCOMPARE(error.offset, badOffset);
        QCOMPARE(error.file, QFileInfo(file).absoluteFilePath());
        QVERIFY2(error.message.contains(QStringLiteral("1099511627776")), qPrintable(error.message));

        const ImportUpdate again = reader.poll({});
        QVERIFY(again.scalars.empty());
        QVERIFY(again.diagnostics.isEmpty());
        QCOMPARE(again.status, ImportStatus::Partial);
    }

    void lengthAboveTheLimitAtTheStartFails()
    {
        const QString file = path(QStringLiteral("vdlrecords.notvdl.log"));
        QVERIFY(writeFile(file, QByteArray("2024-01-01 12:00:00 epoch 1 loss 0.5\n")));
        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Failed);
        QCOMPARE(update.diagnostics.size(), 1);
        QCOMPARE(update.diagnostics[0].severity, Severity::Error);
        QCOMPARE(update.diagnostics[0].offset, 0);
    }

    void undecodablePayloadIsSkipped()
    {
        QByteArray bytes = scalarRecord("loss", 0, 1000, 1.0f);
        const qint64 badOffset = bytes.size();
        bytes += framed(QByteArray("\x0a\x7f\x01", 3)); // values claims 127 bytes, 1 follows
        bytes += scalarRecord("loss", 1, 2000, 2.0f);
        const QString file = path(QStringLiteral("vdlrecords.bad.log"));
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        Collected got;
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Partial);
        QCOMPARE(update.recordsRead, 3);
        QCOMPARE(got.series.value(QStringLiteral("loss")).size(), std::size_t(2));
        QCOMPARE(got.count(Severity::Warning), 1);
        QCOMPARE(got.diagnostics.first().offset, badOffset);
    }

    void emptyFile()
    {
        const QString file = path(QStringLiteral("vdlrecords.empty.log"));
        QVERIFY(writeFile(file, QByteArray()));
        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.scalars.empty());
        QVERIFY(update.diagnostics.isEmpty());
        QVERIFY(!update.mayGrow);
        QCOMPARE(update.recordsRead, 0);

        // A writer that starts later is picked up by the next poll.
        QVERIFY(writeFile(file, scalarRecord("loss", 3, 4000, 0.25f), true));
        const ImportUpdate later = reader.poll({});
        QCOMPARE(later.scalars.size(), std::size_t(1));
        QCOMPARE(later.scalars[0].points.size(), std::size_t(1));
        QCOMPARE(later.scalars[0].points[0].wallTime, 4.0);
    }

    void missingAndShrunkFiles()
    {
        VisualDlReader missing(path(QStringLiteral("vdlrecords.missing.log")));
        const ImportUpdate update = missing.poll({});
        QCOMPARE(update.status, ImportStatus::Failed);
        QCOMPARE(update.diagnostics.size(), 1);
        QVERIFY(missing.isDead());

        const QString file = path(QStringLiteral("vdlrecords.shrink.log"));
        QVERIFY(writeFile(file, scalarRecord("loss", 0, 1000, 1.0f) + scalarRecord("loss", 1, 2000, 2.0f)));
        VisualDlReader reader(file);
        QCOMPARE(reader.poll({}).status, ImportStatus::Ok);
        QVERIFY(writeFile(file, scalarRecord("loss", 0, 1000, 1.0f)));
        const ImportUpdate shrunk = reader.poll({});
        QCOMPARE(shrunk.status, ImportStatus::Partial);
        QCOMPARE(shrunk.diagnostics.size(), 1);
        QCOMPARE(shrunk.diagnostics[0].severity, Severity::Error);
    }

    void scannedAndImportedThroughTheSession()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("paddle_run")));
        QByteArray bytes;
        for (int step = 0; step < 20; ++step)
            bytes += scalarRecord("eval/acc", step * 10, 1700000000000 + step, float(step) / 20.0f);
        bytes += histogramRecord("conv1.w", 0);
        QVERIFY(writeFile(dir.filePath(QStringLiteral("paddle_run/vdlrecords.1700000000.log")), bytes));

        const RunManifest manifest = RunScanner().scan(dir.path());
        QCOMPARE(manifest.artifacts.size(), 1);
        QCOMPARE(manifest.artifacts[0].kind, ArtifactKind::VisualDlLog);
        ImportSession session(manifest);
        ScalarStore store;
        connect(&session, &ImportSession::scalarsArrived, &store, &ScalarStore::append);
        session.importBlocking();
        QCOMPARE(session.state(0).status, ImportStatus::Ok);
        const TagStatistics stats = session.state(0).scalarTags.value(QStringLiteral("eval/acc"));
        QCOMPARE(stats.points, 20);
        QCOMPARE(stats.firstStep, 0);
        QCOMPARE(stats.lastStep, 190);
        const ScalarSeries* series = store.series(QStringLiteral("paddle_run"), QStringLiteral("eval/acc"));
        QVERIFY(series);
        QCOMPARE(series->points.size(), std::size_t(20));
        QCOMPARE(series->points[5].value, double(5.0f / 20.0f));
        QCOMPARE(session.state(0).diagnostics.size(), 1); // the histogram tag, announced
        QCOMPARE(session.state(0).diagnostics[0].severity, Severity::Info);
    }

    void registeredForItsKind()
    {
        Artifact artifact;
        artifact.kind = ArtifactKind::VisualDlLog;
        artifact.path = path(QStringLiteral("vdlrecords.1.log"));
        QVERIFY(dynamic_cast<VisualDlReader*>(createImporter(artifact).get()) != nullptr);
        QVERIFY(artifactKindImported(ArtifactKind::VisualDlLog));
    }
};

QTEST_GUILESS_MAIN(TestVisualDlReader)
#include "tst_visualdlreader.moc"
