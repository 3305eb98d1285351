#include "importers/core/importbudget.h"
#include "importers/summary/eventfilereader.h"
#include "importers/summary/eventfilewriter.h"
#include "importers/summary/proto/tb_event.pb.h"
#include "importers/summary/recordreader.h"
#include "models/core/crc32c.h"

#include "tests/importers/summary/pollresult.h"
#include "tests/testutils.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::scalars;
using namespace runlens::models::summary;
using namespace runlens::test;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes, bool append = false)
{
    QFile file(path);
    if (!file.open(append ? QIODevice::Append : (QIODevice::WriteOnly | QIODevice::Truncate)))
        return false;
    return file.write(bytes) == bytes.size();
}

QByteArray serialized(const google::protobuf::MessageLite& message)
{
    const std::string bytes = message.SerializeAsString();
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}

/// A scalar event (TF2 style) whose tensor the caller fills.
runlens::tb::Event tensorEvent(const std::string& tag, qint64 step, bool scalarMetadata)
{
    runlens::tb::Event event;
    event.set_wall_time(1700000000.0 + double(step));
    event.set_step(step);
    auto* value = event.mutable_summary()->add_value();
    value->set_tag(tag);
    if (scalarMetadata)
        value->mutable_metadata()->mutable_plugin_data()->set_plugin_name("scalars");
    return event;
}

} // namespace

Q_DECLARE_METATYPE(runlens::models::ImportStatus)
Q_DECLARE_METATYPE(runlens::models::Severity)
Q_DECLARE_METATYPE(runlens::importers::summary::SummaryFlavor)

class TestEventFileReader : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // ---- synthetic files ----------------------------------------------------------------------------

    void roundTripBothFlavours_data()
    {
        QTest::addColumn<SummaryFlavor>("flavor");
        QTest::newRow("tensorboard") << SummaryFlavor::TensorBoard;
        QTest::newRow("mindspore") << SummaryFlavor::MindSpore;
    }

    void roundTripBothFlavours()
    {
        QFETCH(SummaryFlavor, flavor);
        const QString file = path(QStringLiteral("roundtrip"));
        EventFileWriter writer(flavor);
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1000.0));
        for (int step = 0; step < 50; ++step) {
            const EventFileWriter::NamedValue values[]
                = { { QStringLiteral("loss"), 1.0 / (step + 1) }, { QStringLiteral("ünïcode/tag"), double(step) } };
            QVERIFY(writer.writeScalars(step, 1000.0 + step, values));
        }
        QVERIFY(writer.writeScalar(QStringLiteral("loss"), 50, 1050.5, std::numeric_limits<double>::quiet_NaN()));
        QVERIFY(writer.close());

        EventFileReader reader(file, flavor);
        const PollResult r = pollOnce(reader);
        QCOMPARE(r.update.status, ImportStatus::Ok);
        QVERIFY(!r.update.mayGrow);
        QCOMPARE(r.update.recordsRead, 52);
        QCOMPARE(r.update.bytesRead, QFileInfo(file).size());
        QCOMPARE(reader.fileVersion(), EventFileWriter::defaultFileVersion(flavor));
        QCOMPARE(r.collected.tagOrder, (QStringList { QStringLiteral("loss"), QStringLiteral("ünïcode/tag") }));
        const auto& loss = r.collected.series.value(QStringLiteral("loss"));
        QCOMPARE(loss.size(), std::size_t(51));
        for (int step = 0; step < 50; ++step) {
            QCOMPARE(loss[std::size_t(step)].step, qint64(step));
            QCOMPARE(loss[std::size_t(step)].wallTime, 1000.0 + step);
            QCOMPARE(loss[std::size_t(step)].value, double(float(1.0 / (step + 1))));
        }
        QVERIFY(std::isnan(loss.back().value)); // NaN values are data (a diverging loss), not damage
        QCOMPARE(r.collected.metadataBatches, 2);
    }

    void liveTail()
    {
        // Complete reference content, written once by the project's writer.
        const QString reference = path(QStringLiteral("live-reference"));
        EventFileWriter writer;
        QVERIFY(writer.open(reference));
        QVERIFY(writer.writeFileVersion(100.0));
        QList<qint64> ends; // file offset after each scalar record
        for (int step = 0; step < 10; ++step) {
            QVERIFY(writer.writeScalar(QStringLiteral("train/loss"), step, 100.0 + step, 10.0 - step));
            ends.append(writer.bytesWritten());
        }
        QVERIFY(writer.close());
        const QByteArray bytes = readFile(reference);
        const qint64 recordSize = ends[1] - ends[0];

        const QString live = path(QStringLiteral("live"));
        EventFileReader reader(live, SummaryFlavor::TensorBoard);
        auto steps = [](const PollResult& r) {
            QList<qint64> out;
            for (const TagPoints& batch : r.update.scalars)
                for (const ScalarPoint& p : batch.points)
                    out.append(p.step);
            return out;
        };

        // 1. Records 0..4 complete, record 5 cut in its payload.
        QVERIFY(writeFile(live, bytes.left(ends[4] + recordSize / 2)));
        PollResult first = pollOnce(reader);
        QCOMPARE(steps(first), (QList<qint64> { 0, 1, 2, 3, 4 }));
        QVERIFY(first.update.mayGrow);
        QVERIFY(first.update.diagnostics.isEmpty());
        QCOMPARE(reader.offset(), ends[4]);
        QVERIFY(first.update.scalars.front().metadata.has_value());

        // 2. The rest of record 5, records 6 and 7, and half of record 8's header.
        QVERIFY(writeFile(live, bytes.mid(ends[4] + recordSize / 2, ends[7] + 5 - (ends[4] + recordSize / 2)), true));
        PollResult second = pollOnce(reader);
        QCOMPARE(steps(second), (QList<qint64> { 5, 6, 7 }));
        QVERIFY(second.update.mayGrow);
        QVERIFY(!second.update.scalars.front().metadata.has_value()); // delivered with the first batch
        QCOMPARE(reader.offset(), ends[7]);

        // 3. Nothing new: nothing delivered.
        PollResult idle = pollOnce(reader);
        QVERIFY(idle.update.scalars.empty());
        QVERIFY(idle.update.mayGrow);

        // 4. The rest of the file.
        QVERIFY(writeFile(live, bytes.mid(ends[7] + 5), true));
        PollResult third = pollOnce(reader);
        QCOMPARE(steps(third), (QList<qint64> { 8, 9 }));
        QVERIFY(!third.update.mayGrow);
        QCOMPARE(reader.offset(), qint64(bytes.size()));

        // 5. The writer continues the file (a restarted job appending).
        EventFileWriter appender;
        QVERIFY(appender.open(live, EventFileWriter::OpenMode::Append));
        for (int step = 10; step < 13; ++step)
            QVERIFY(appender.writeScalar(QStringLiteral("train/loss"), step, 100.0 + step, 0.0));
        QVERIFY(appender.flush());
        PollResult fourth = pollOnce(reader);
        QCOMPARE(steps(fourth), (QList<qint64> { 10, 11, 12 }));
        QCOMPARE(fourth.update.status, ImportStatus::Ok);
        QVERIFY(!reader.isDead());
    }

    void splitAtEveryByte()
    {
        const QString reference = path(QStringLiteral("split-reference"));
        EventFileWriter writer;
        QVERIFY(writer.open(reference));
        QVERIFY(writer.writeFileVersion(5.0));
        for (int step = 0; step < 4; ++step)
            QVERIFY(writer.writeScalar(QStringLiteral("a"), step, 5.0 + step, step * 2.0));
        QVERIFY(writer.writeTensorScalar(QStringLiteral("b"), 4, 10.0, 8.0));
        QVERIFY(writer.close());
        const QByteArray bytes = readFile(reference);

        const QString live = path(QStringLiteral("split"));
        for (qint64 cut = 0; cut <= bytes.size(); ++cut) {
            QVERIFY(writeFile(live, bytes.left(cut)));
            EventFileReader reader(live, SummaryFlavor::TensorBoard);
            Collected all;
            const ImportUpdate first = reader.poll({});
            all.add(first);
            QVERIFY(writeFile(live, bytes.mid(cut), true));
            const ImportUpdate second = reader.poll({});
            all.add(second);
            const QByteArray context = "cut at " + QByteArray::number(cut);
            QVERIFY2(all.diagnostics.isEmpty(), context.constData());
            QVERIFY2(all.totalPoints() == 5, context.constData());
            QVERIFY2(!second.mayGrow && second.status == ImportStatus::Ok, context.constData());
            QCOMPARE(all.series.value(QStringLiteral("a")).size(), std::size_t(4));
            QCOMPARE(all.series.value(QStringLiteral("b")).front().value, 8.0);
            QCOMPARE(all.metadataBatches, 2);
        }
    }

    void tensorEncodings_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<bool>("isScalar");
        QTest::addColumn<double>("expected");

        auto add = [](const char* name, const runlens::tb::Event& event, bool isScalar, double expected) {
            QTest::newRow(name) << serialized(event) << isScalar << expected;
        };
        auto tensorOf
            = [](runlens::tb::Event& event) { return event.mutable_summary()->mutable_value(0)->mutable_tensor(); };

        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_FLOAT);
            tensorOf(e)->add_float_val(2.5f);
            add("float_val", e, true, 2.5);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_FLOAT);
            const char content[4] = { 0, 0, 0x20, 0x40 }; // 2.5f little-endian
            tensorOf(e)->set_tensor_content(content, 4);
            add("float tensor_content", e, true, 2.5);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_DOUBLE);
            tensorOf(e)->add_double_val(0.1);
            add("double_val", e, true, 0.1);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_DOUBLE);
            const double v = -1.25e-7;
            char content[8];
            std::memcpy(content, &v, 8);
            tensorOf(e)->set_tensor_content(content, 8);
            add("double tensor_content", e, true, v);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_HALF);
            tensorOf(e)->add_half_val(0x3e00); // 1.5
            add("half_val", e, true, 1.5);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_HALF);
            tensorOf(e)->add_half_val(0x0001); // smallest subnormal
            add("half_val subnormal", e, true, std::ldexp(1.0, -24));
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_HALF);
            const char content[2] = { 0x00, char(0xc0) }; // -2.0
            tensorOf(e)->set_tensor_content(content, 2);
            add("half tensor_content", e, true, -2.0);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_BFLOAT16);
            tensorOf(e)->add_half_val(0x4049); // 3.140625
            add("bfloat16 half_val", e, true, 3.140625);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_INT64);
            tensorOf(e)->add_int64_val(123456789012LL);
            add("int64_val", e, true, 123456789012.0);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_INT32);
            tensorOf(e)->add_int_val(-7);
            add("int_val", e, true, -7.0);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_FLOAT);
            tensorOf(e)->mutable_tensor_shape()->add_dim()->set_size(1);
            tensorOf(e)->add_float_val(4.0f);
            add("shape [1]", e, true, 4.0);
        }
        {
            auto e = tensorEvent("t", 3, false);
            auto* metadata = e.mutable_summary()->mutable_value(0)->mutable_metadata();
            metadata->set_data_class(runlens::tb::DATA_CLASS_SCALAR);
            tensorOf(e)->set_dtype(runlens::tb::DT_FLOAT);
            tensorOf(e)->add_float_val(6.0f);
            add("data class scalar, no plugin name", e, true, 6.0);
        }
        {
            auto e = tensorEvent("t", 3, false);
            tensorOf(e)->set_dtype(runlens::tb::DT_FLOAT);
            tensorOf(e)->add_float_val(6.0f);
            add("no scalar metadata: not a scalar", e, false, 0.0);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_FLOAT);
            tensorOf(e)->mutable_tensor_shape()->add_dim()->set_size(2);
            tensorOf(e)->add_float_val(1.0f);
            tensorOf(e)->add_float_val(2.0f);
            add("two elements: not a scalar", e, false, 0.0);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_STRING);
            tensorOf(e)->add_string_val(QByteArray("x").toStdString());
            add("string: not a scalar", e, false, 0.0);
        }
        {
            auto e = tensorEvent("t", 3, true);
            tensorOf(e)->set_dtype(runlens::tb::DT_FLOAT);
            tensorOf(e)->set_tensor_content(QByteArray("abc").toStdString());
            add("content of the wrong size", e, false, 0.0);
        }
    }

    void tensorEncodings()
    {
        QFETCH(QByteArray, payload);
        QFETCH(bool, isScalar);
        QFETCH(double, expected);
        const QString file = path(QStringLiteral("tensor"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1.0));
        QVERIFY(writer.writeRecord(payload));
        QVERIFY(writer.close());
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const PollResult r = pollOnce(reader);
        if (isScalar) {
            QCOMPARE(r.collected.totalPoints(), 1);
            const ScalarPoint p = r.collected.series.value(QStringLiteral("t")).front();
            QCOMPARE(p.value, expected);
            QCOMPARE(p.step, 3);
            QCOMPARE(r.update.status, ImportStatus::Ok);
        } else {
            QCOMPARE(r.collected.totalPoints(), 0);
        }
    }

    void badScalarTensorIsReportedOnce()
    {
        const QString file = path(QStringLiteral("badtensor"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        for (int step = 0; step < 5; ++step) {
            auto e = tensorEvent("t", step, step == 0);
            auto* tensor = e.mutable_summary()->mutable_value(0)->mutable_tensor();
            tensor->set_dtype(runlens::tb::DT_FLOAT);
            tensor->mutable_tensor_shape()->add_dim()->set_size(3);
            QVERIFY(writer.writeRecord(serialized(e)));
        }
        QVERIFY(writer.close());
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const PollResult r = pollOnce(reader);
        QCOMPARE(r.collected.totalPoints(), 0);
        QCOMPARE(r.collected.count(Severity::Warning), 1);
        QVERIFY(r.collected.diagnostics.first().message.contains(QLatin1String("\"t\"")));
    }

    void valuesDeclaringHugeShapesStopAtTheBudget()
    {
        // Each text value records one string and declares a shape of 100000 cells: a few hundred bytes on
        // disk that expand to 16 MB of text. Scalars between them must still be read.
        const QString file = path(QStringLiteral("splat"));
        constexpr int kSteps = 40;
        constexpr int kCells = 100'000;
        const std::string cell(160, 'x');
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1.0));
        for (int step = 0; step < kSteps; ++step) {
            runlens::tb::Event event;
            event.set_wall_time(1700000000.0 + step);
            event.set_step(step);
            auto* text = event.mutable_summary()->add_value();
            text->set_tag("notes");
            text->mutable_metadata()->mutable_plugin_data()->set_plugin_name("text");
            auto* tensor = text->mutable_tensor();
            tensor->set_dtype(runlens::tb::DT_STRING);
            tensor->mutable_tensor_shape()->add_dim()->set_size(kCells);
            tensor->add_string_val(cell);
            QVERIFY(writer.writeRecord(serialized(event)));
            QVERIFY(writer.writeScalar(QStringLiteral("loss"), step, 1700000000.0 + step, 1.0 / (step + 1)));
        }
        QVERIFY(writer.close());
        const qint64 fileSize = QFileInfo(file).size();

        EventFileReader reader(file, SummaryFlavor::TensorBoard, SummaryLimits { 0, 500, 100, kSteps, 100, 20 });
        const PollResult r = pollOnce(reader);
        // Read to the end: every scalar is there, and nothing was cut short.
        QCOMPARE(r.collected.series.value(QStringLiteral("loss")).size(), std::size_t(kSteps));
        QCOMPARE(reader.offset(), fileSize);
        QCOMPARE(r.update.status, ImportStatus::Partial);
        QCOMPARE(r.collected.count(Severity::Error), 1);
        QCOMPARE(r.collected.count(Severity::Warning), 0);
        const Diagnostic& stopped = r.collected.diagnostics.first();
        QCOMPARE(stopped.file, QFileInfo(file).absoluteFilePath());
        QVERIFY(stopped.offset > 0 && stopped.offset < fileSize);
        QVERIFY2(stopped.message.contains(QLatin1String("scalars")), qPrintable(stopped.message));

        // What was kept stays within the budget of the bytes read, and some values were left out.
        QVERIFY(r.update.summaries);
        QCOMPARE(r.update.summaries->texts.size(), std::size_t(1));
        const auto& kept = r.update.summaries->texts.front().items;
        QVERIFY(!kept.empty());
        QVERIFY(kept.size() < std::size_t(kSteps));
        qint64 expanded = 0;
        for (const SummaryText& text : kept) {
            QCOMPARE(text.cells.size(), kCells);
            expanded += qint64(text.cells.size()) * qint64(cell.size());
        }
        QVERIFY(expanded <= ImportLimits::forInputSize(fileSize).maxBytes);

        // The next poll has a budget of its own and nothing new to read.
        const PollResult again = pollOnce(reader);
        QCOMPARE(again.collected.totalPoints(), 0);
        QCOMPARE(again.collected.count(Severity::Error), 0);
    }

    void metadataFromFirstValueOnly()
    {
        // TF2 writers put the plugin metadata on the first value of a tag; later tensors of that tag are
        // scalars too, even in a later poll.
        const QString file = path(QStringLiteral("metadata"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeTensorScalar(QStringLiteral("m"), 0, 1.0, 0.5, EventFileWriter::TensorEncoding::FloatVal));
        QVERIFY(writer.writeTensorScalar(QStringLiteral("m"), 1, 2.0, 1.5));
        QVERIFY(writer.flush());
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const PollResult first = pollOnce(reader);
        QCOMPARE(first.collected.totalPoints(), 2);
        QCOMPARE(first.collected.metadata.value(QStringLiteral("m")).pluginName, QStringLiteral("scalars"));
        QVERIFY(writer.writeTensorScalar(QStringLiteral("m"), 2, 3.0, 2.5));
        QVERIFY(writer.close());
        const PollResult second = pollOnce(reader);
        QCOMPARE(second.collected.totalPoints(), 1);
        QCOMPARE(second.collected.series.value(QStringLiteral("m")).front().value, 2.5);
        QCOMPARE(second.collected.metadataBatches, 0);
    }

    void stepAbsentIsZero()
    {
        runlens::tb::Event event;
        event.set_wall_time(3.0);
        auto* value = event.mutable_summary()->add_value();
        value->set_tag("s");
        value->set_simple_value(1.0f);
        const QString file = path(QStringLiteral("nostep"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeRecord(serialized(event)));
        QVERIFY(writer.close());
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const Collected c = pollOnce(reader).collected;
        QCOMPARE(c.series.value(QStringLiteral("s")).front().step, 0);
    }

    void fileOrderAndEmptyRecords()
    {
        // A restarted job writes lower steps again: the reader reports what the file says, in file order
        // (the preemption rule is the series' business). Empty records are valid framing and carry nothing.
        const QString file = path(QStringLiteral("restart"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1.0));
        for (const qint64 step : { 0, 1, 2, 3, 4, 5 })
            QVERIFY(writer.writeScalar(QStringLiteral("loss"), step, 1.0 + double(step), double(step)));
        QVERIFY(writer.writeRecord(QByteArrayView()));
        for (const qint64 step : { 3, 4 })
            QVERIFY(writer.writeScalar(QStringLiteral("loss"), step, 10.0 + double(step), -double(step)));
        QVERIFY(writer.close());
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const PollResult r = pollOnce(reader);
        QCOMPARE(r.update.status, ImportStatus::Ok);
        QVERIFY(r.update.diagnostics.isEmpty());
        QCOMPARE(r.update.scalars.size(), std::size_t(1));
        QList<qint64> steps;
        for (const ScalarPoint& point : r.update.scalars.front().points)
            steps.append(point.step);
        QCOMPARE(steps, (QList<qint64> { 0, 1, 2, 3, 4, 5, 3, 4 }));
        QCOMPARE(r.update.scalars.front().points.back().value, -4.0);
    }

    void damagedRecords_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("points");
        QTest::addColumn<ImportStatus>("status");
        QTest::addColumn<Severity>("severity");
        QTest::addColumn<bool>("dead");
        QTest::newRow("nan wall time") << "nan" << 4 << ImportStatus::Partial << Severity::Warning << false;
        QTest::newRow("undecodable payload") << "garbage" << 4 << ImportStatus::Partial << Severity::Warning << false;
        QTest::newRow("bad data crc") << "datacrc" << 4 << ImportStatus::Partial << Severity::Warning << false;
        QTest::newRow("bad length crc") << "lengthcrc" << 2 << ImportStatus::Partial << Severity::Error << true;
        QTest::newRow("too large") << "toolarge" << 2 << ImportStatus::Partial << Severity::Error << true;
    }

    void damagedRecords()
    {
        QFETCH(QString, kind);
        QFETCH(int, points);
        QFETCH(ImportStatus, status);
        QFETCH(Severity, severity);
        QFETCH(bool, dead);

        const QString file = path(QStringLiteral("damaged"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1.0));
        QVERIFY(writer.writeScalar(QStringLiteral("x"), 0, 1.0, 0.0));
        QVERIFY(writer.writeScalar(QStringLiteral("x"), 1, 1.0, 1.0));
        const qint64 damagedAt = writer.bytesWritten();
        if (kind == QLatin1String("nan")) {
            QVERIFY(writer.writeScalar(QStringLiteral("x"), 2, std::numeric_limits<double>::quiet_NaN(), 2.0));
        } else if (kind == QLatin1String("garbage")) {
            QVERIFY(writer.writeRecord("\xff\xff\xff\xff garbage that is no protobuf"));
        } else {
            QVERIFY(writer.writeScalar(QStringLiteral("x"), 2, 1.0, 2.0));
        }
        QVERIFY(writer.writeScalar(QStringLiteral("x"), 3, 1.0, 3.0));
        QVERIFY(writer.writeScalar(QStringLiteral("x"), 4, 1.0, 4.0));
        QVERIFY(writer.close());

        QByteArray bytes = readFile(file);
        if (kind == QLatin1String("datacrc")) {
            bytes[damagedAt + 14] = char(bytes[damagedAt + 14] ^ 0x55);
        } else if (kind == QLatin1String("lengthcrc")) {
            bytes[damagedAt + 9] = char(bytes[damagedAt + 9] ^ 0x55);
        } else if (kind == QLatin1String("toolarge")) {
            QByteArray header(8, 0);
            header[5] = 1; // 2^40 bytes
            const std::uint32_t crc = maskedCrc32c(header.constData(), 8);
            for (int i = 0; i < 4; ++i)
                header.append(char((crc >> (8 * i)) & 0xffu));
            bytes.replace(damagedAt, 12, header);
        }
        QVERIFY(writeFile(file, bytes));

        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const PollResult r = pollOnce(reader);
        QCOMPARE(r.collected.totalPoints(), qint64(points));
        QCOMPARE(r.update.status, status);
        QCOMPARE(reader.isDead(), dead);
        QCOMPARE(r.collected.diagnostics.size(), 1);
        const Diagnostic& diagnostic = r.collected.diagnostics.first();
        QCOMPARE(diagnostic.severity, severity);
        QCOMPARE(diagnostic.offset, damagedAt);
        QCOMPARE(diagnostic.file, QFileInfo(file).absoluteFilePath());
        QVERIFY(!diagnostic.message.isEmpty());
        QVERIFY(!diagnostic.toString().isEmpty());
        if (dead) {
            QCOMPARE(reader.offset(), damagedAt);
            const PollResult again = pollOnce(reader);
            QVERIFY(again.update.diagnostics.isEmpty());
            QCOMPARE(again.update.status, status);
        }
    }

    void notAnEventFile()
    {
        const QString file = path(QStringLiteral("notes.txt"));
        QVERIFY(writeFile(file, "This is a plain text file, certainly not TFRecord framed.\n"));
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const PollResult r = pollOnce(reader);
        QCOMPARE(r.update.status, ImportStatus::Failed);
        QVERIFY(reader.isDead());
        QCOMPARE(r.collected.diagnostics.size(), 1);
        QCOMPARE(r.collected.diagnostics.first().severity, Severity::Error);
        QCOMPARE(r.collected.diagnostics.first().offset, 0);
    }

    void missingFile()
    {
        EventFileReader reader(path(QStringLiteral("does-not-exist")), SummaryFlavor::TensorBoard);
        const PollResult r = pollOnce(reader);
        QCOMPARE(r.update.status, ImportStatus::Failed);
        QCOMPARE(r.collected.count(Severity::Error), 1);
    }

    void emptyFile()
    {
        const QString file = path(QStringLiteral("empty"));
        QVERIFY(writeFile(file, QByteArray()));
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const PollResult r = pollOnce(reader);
        QCOMPARE(r.update.status, ImportStatus::Ok);
        QVERIFY(!r.update.mayGrow);
        QVERIFY(r.update.scalars.empty());
        QVERIFY(r.update.diagnostics.isEmpty());
        QCOMPARE(reader.fileVersion(), QString());
    }

    void fileReplacedByShorterOne()
    {
        const QString file = path(QStringLiteral("shrinks"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        for (int step = 0; step < 10; ++step)
            QVERIFY(writer.writeScalar(QStringLiteral("x"), step, 1.0, 0.0));
        QVERIFY(writer.close());
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        QCOMPARE(pollOnce(reader).collected.totalPoints(), 10);
        QVERIFY(writeFile(file, QByteArray()));
        const PollResult r = pollOnce(reader);
        QCOMPARE(r.collected.count(Severity::Error), 1);
        QVERIFY(reader.isDead());
    }

    void manyProblemsAreSummarised()
    {
        const QString file = path(QStringLiteral("manyproblems"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeScalar(QStringLiteral("x"), 0, 1.0, 0.0));
        for (int i = 0; i < 50; ++i)
            QVERIFY(writer.writeRecord("\xff\xff not protobuf"));
        QVERIFY(writer.writeScalar(QStringLiteral("x"), 1, 1.0, 0.0));
        QVERIFY(writer.close());
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const PollResult r = pollOnce(reader);
        QCOMPARE(r.collected.totalPoints(), 2);
        QCOMPARE(r.collected.diagnostics.size(), 21); // 20 reported, then one summary of the other 30
        QVERIFY(r.collected.diagnostics.last().message.contains(QLatin1String("30")));
        QCOMPARE(r.update.status, ImportStatus::Partial);
    }

    void cancellationAndProgress()
    {
        const QString file = path(QStringLiteral("big"));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1.0));
        const int records = 100000;
        for (int step = 0; step < records; ++step)
            QVERIFY(writer.writeScalar(QStringLiteral("x"), step, 1.0, double(step)));
        QVERIFY(writer.close());

        std::atomic_bool cancel = true;
        QList<int> progress;
        ImportControl control;
        control.cancel = &cancel;
        control.progress = [&](int permille) { progress.append(permille); };

        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const PollResult canceled = pollOnce(reader, control);
        QCOMPARE(canceled.update.status, ImportStatus::Canceled);
        const qint64 firstPart = canceled.collected.totalPoints();
        QVERIFY(firstPart < records);
        QVERIFY(reader.offset() > 0);
        QVERIFY(!reader.isDead());

        cancel = false;
        progress.clear();
        const PollResult rest = pollOnce(reader, control);
        QCOMPARE(rest.update.status, ImportStatus::Ok);
        QCOMPARE(firstPart + rest.collected.totalPoints(), qint64(records));
        QCOMPARE(rest.collected.series.value(QStringLiteral("x")).front().step, firstPart);
        QVERIFY(progress.size() > 2);
        QVERIFY(std::is_sorted(progress.begin(), progress.end()));
        QCOMPARE(progress.last(), 1000);
    }
};

QTEST_GUILESS_MAIN(TestEventFileReader)
#include "tst_eventfilereader.moc"
