#include "importers/summary/eventfilewriter.h"
#include "importers/summary/proto/ms_summary.pb.h"
#include "importers/summary/proto/tb_event.pb.h"
#include "importers/summary/recordreader.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <string>
#include <vector>

using namespace runlens::importers::summary;
using namespace runlens::models::summary;

namespace {

/// The payloads of a record file, after the version record.
std::vector<std::string> eventPayloads(const QString& file)
{
    std::vector<std::string> payloads;
    RecordReader reader(file);
    if (!reader.open(0))
        return payloads;
    RecordReader::Record record;
    while (reader.next(record) == RecordStatus::Ok)
        payloads.emplace_back(record.data, record.size);
    if (!payloads.empty())
        payloads.erase(payloads.begin());
    return payloads;
}

/// Three buckets over [-1, 2] with known statistics, as a writer of real data would hold them.
Histogram sampleHistogram()
{
    Histogram h;
    h.min = -0.75;
    h.max = 1.5;
    h.count = 6.0;
    h.sum = 2.25;
    h.sumSquares = 4.125;
    h.buckets = { { -1.0, 0.0, 2.0 }, { 0.0, 1.0, 3.0 }, { 1.0, 2.0, 1.0 } };
    h.nanCount = 4;
    h.posInfCount = 2;
    h.negInfCount = 1;
    return h;
}

} // namespace

class TestEventFileWriter : public QObject
{
    Q_OBJECT

private slots:
    void fileNames()
    {
        QCOMPARE(EventFileWriter::tensorBoardFileName(1771594466, QStringLiteral("host"), 21024, 0),
                 QStringLiteral("events.out.tfevents.1771594466.host.21024.0"));
        QCOMPARE(EventFileWriter::mindSporeFileName(1700000000, 0, QStringLiteral("helperhost")),
                 QStringLiteral("events.out.events.summary.1700000000.0.helperhost_MS"));
        const QRegularExpression now(QStringLiteral("^events\\.out\\.tfevents\\.\\d{10}\\..+\\.\\d+\\.3$"));
        QVERIFY(now.match(EventFileWriter::tensorBoardFileName(-1, {}, -1, 3)).hasMatch());
        QVERIFY(EventFileWriter::mindSporeFileName().endsWith(QLatin1String("_MS")));
    }

    void framesEveryRecord()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("framed"));
        EventFileWriter writer;
        writer.setBufferSize(64); // exercise the buffer flushing on the way
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion());
        for (int step = 0; step < 100; ++step)
            QVERIFY(writer.writeScalar(QStringLiteral("tag"), step, 1.0, step));
        QVERIFY(writer.writeRecord(QByteArrayView()));
        QCOMPARE(writer.recordsWritten(), 102);
        QVERIFY(writer.close());
        QCOMPARE(QFileInfo(file).size(), writer.bytesWritten());

        RecordReader reader(file);
        QVERIFY(reader.open(0));
        RecordReader::Record record;
        int records = 0;
        RecordStatus status;
        while ((status = reader.next(record)) == RecordStatus::Ok)
            ++records;
        QCOMPARE(status, RecordStatus::End);
        QCOMPARE(records, 102);
    }

    void appendContinues()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("append"));
        {
            EventFileWriter writer;
            QVERIFY(writer.open(file));
            QVERIFY(writer.writeFileVersion(1.0));
        }
        const qint64 before = QFileInfo(file).size();
        QVERIFY(before > 0);
        EventFileWriter writer;
        QVERIFY(writer.open(file, EventFileWriter::OpenMode::Append));
        QVERIFY(writer.writeScalar(QStringLiteral("x"), 1, 2.0, 3.0));
        QVERIFY(writer.close());
        QCOMPARE(QFileInfo(file).size(), before + writer.bytesWritten());
    }

    void histogramsAsTensorBoardProtos()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("histo"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1.0));
        QVERIFY(writer.writeHistogram(QStringLiteral("conv1/weight"), 7, 12.5, sampleHistogram()));
        Histogram bucketsOnly; // as a TF2 tensor arrives: no statistics
        bucketsOnly.buckets = { { 0.5, 1.5, 0.0 }, { 1.5, 2.5, 4.0 }, { 2.5, 3.5, 5.0 }, { 3.5, 4.5, 0.0 } };
        const std::vector<EventFileWriter::NamedHistogram> two { { QStringLiteral("a"), sampleHistogram() },
                                                                 { QStringLiteral("b"), bucketsOnly } };
        QVERIFY(writer.writeHistograms(8, 13.0, two));
        QVERIFY(writer.close());

        const std::vector<std::string> payloads = eventPayloads(file);
        QCOMPARE(payloads.size(), std::size_t(2));
        runlens::tb::Event event;
        QVERIFY(event.ParseFromString(payloads[0]));
        QCOMPARE(event.step(), 7);
        QCOMPARE(event.wall_time(), 12.5);
        QCOMPARE(event.summary().value_size(), 1);
        const runlens::tb::Summary::Value& value = event.summary().value(0);
        QCOMPARE(value.tag(), std::string("conv1/weight"));
        QVERIFY(value.has_histo());
        QVERIFY(!value.has_metadata());
        const runlens::tb::HistogramProto& histo = value.histo();
        QCOMPARE(histo.min(), -0.75);
        QCOMPARE(histo.max(), 1.5);
        QCOMPARE(histo.num(), 6.0);
        QCOMPARE(histo.sum(), 2.25);
        QCOMPARE(histo.sum_squares(), 4.125);
        QCOMPARE(std::vector<double>(histo.bucket_limit().begin(), histo.bucket_limit().end()),
                 (std::vector<double> { 0.0, 1.0, 2.0 }));
        QCOMPARE(std::vector<double>(histo.bucket().begin(), histo.bucket().end()),
                 (std::vector<double> { 2.0, 3.0, 1.0 }));

        QVERIFY(event.ParseFromString(payloads[1]));
        QCOMPARE(event.step(), 8);
        QCOMPARE(event.summary().value_size(), 2);
        QCOMPARE(event.summary().value(0).tag(), std::string("a"));
        QCOMPARE(event.summary().value(0).histo().num(), 6.0);
        // Unknown statistics: count from the buckets, min/max from the outer edges of counted buckets.
        const runlens::tb::HistogramProto& derived = event.summary().value(1).histo();
        QCOMPARE(derived.num(), 9.0);
        QCOMPARE(derived.min(), 1.5);
        QCOMPARE(derived.max(), 3.5);
        QCOMPARE(derived.sum(), 0.0);
        QCOMPARE(derived.bucket_size(), 4);
    }

    void histogramsAsTf2Tensors()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("tf2"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1.0));
        for (int step = 0; step < 2; ++step) {
            QVERIFY(writer.writeHistogram(QStringLiteral("dense/kernel"), step, 1.0, sampleHistogram(),
                                          EventFileWriter::HistogramEncoding::Tensor));
        }
        QVERIFY(writer.close());

        const std::vector<std::string> payloads = eventPayloads(file);
        QCOMPARE(payloads.size(), std::size_t(2));
        for (std::size_t i = 0; i < payloads.size(); ++i) {
            runlens::tb::Event event;
            QVERIFY(event.ParseFromString(payloads[i]));
            const runlens::tb::Summary::Value& value = event.summary().value(0);
            QVERIFY(!value.has_histo());
            // Plugin metadata on the tag's first value only, as TF2's writer does.
            QCOMPARE(value.has_metadata(), i == 0);
            if (i == 0) {
                QCOMPARE(value.metadata().plugin_data().plugin_name(), std::string("histograms"));
                QCOMPARE(value.metadata().data_class(), runlens::tb::DATA_CLASS_TENSOR);
            }
            const runlens::tb::TensorProto& tensor = value.tensor();
            QCOMPARE(tensor.dtype(), runlens::tb::DT_DOUBLE);
            QCOMPARE(tensor.tensor_shape().dim_size(), 2);
            QCOMPARE(tensor.tensor_shape().dim(0).size(), 3);
            QCOMPARE(tensor.tensor_shape().dim(1).size(), 3);
            const std::string& content = tensor.tensor_content();
            QCOMPARE(content.size(), std::size_t(9 * 8));
            // Little-endian IEEE doubles, rows of (left, right, count): decoded here byte by byte.
            std::vector<double> cells;
            for (std::size_t c = 0; c < 9; ++c) {
                std::uint64_t bits = 0;
                for (int b = 7; b >= 0; --b)
                    bits = (bits << 8) | std::uint8_t(content[c * 8 + std::size_t(b)]);
                double cell;
                std::memcpy(&cell, &bits, sizeof cell);
                cells.push_back(cell);
            }
            QCOMPARE(cells, (std::vector<double> { -1.0, 0.0, 2.0, 0.0, 1.0, 3.0, 1.0, 2.0, 1.0 }));
        }
    }

    void histogramsAsMindSporeHistograms()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("ms"));
        EventFileWriter writer(SummaryFlavor::MindSpore);
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1.0));
        QVERIFY(writer.writeHistogram(QStringLiteral("fc1.weight"), 3, 2.0, sampleHistogram()));
        QVERIFY(writer.close());

        const std::vector<std::string> payloads = eventPayloads(file);
        QCOMPARE(payloads.size(), std::size_t(1));
        runlens::ms::Event event;
        QVERIFY(event.ParseFromString(payloads[0]));
        QCOMPARE(event.step(), 3);
        const runlens::ms::Summary::Value& value = event.summary().value(0);
        QCOMPARE(value.tag(), std::string("fc1.weight"));
        QVERIFY(value.has_histogram());
        const runlens::ms::Summary::Histogram& histogram = value.histogram();
        QCOMPARE(histogram.buckets_size(), 3);
        QCOMPARE(histogram.buckets(1).left(), 0.0);
        QCOMPARE(histogram.buckets(1).width(), 1.0);
        QCOMPARE(histogram.buckets(1).count(), 3);
        QCOMPARE(histogram.buckets(2).left(), 1.0);
        QCOMPARE(histogram.nan_count(), 4);
        QCOMPARE(histogram.pos_inf_count(), 2);
        QCOMPARE(histogram.neg_inf_count(), 1);
        QCOMPARE(histogram.min(), -0.75);
        QCOMPARE(histogram.max(), 1.5);
        QCOMPARE(histogram.sum(), 2.25);
        QCOMPARE(histogram.count(), 6);
    }

    void failures()
    {
        EventFileWriter closed;
        QVERIFY(!closed.writeScalar(QStringLiteral("x"), 0, 0.0, 0.0));
        QVERIFY(!closed.errorString().isEmpty());

        EventFileWriter writer;
        QVERIFY(!writer.open(QStringLiteral("/nonexistent-directory/file")));
        QVERIFY(!writer.errorString().isEmpty());

        QTemporaryDir dir;
        EventFileWriter mindSpore(SummaryFlavor::MindSpore);
        QVERIFY(mindSpore.open(dir.filePath(QStringLiteral("ms"))));
        QVERIFY(!mindSpore.writeTensorScalar(QStringLiteral("x"), 0, 0.0, 0.0));
        QCOMPARE(EventFileWriter::defaultFileVersion(SummaryFlavor::MindSpore), QStringLiteral("MindSpore.Event:1"));
    }
};

QTEST_GUILESS_MAIN(TestEventFileWriter)
#include "tst_eventfilewriter.moc"
