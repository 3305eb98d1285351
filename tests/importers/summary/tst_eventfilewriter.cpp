#include "summary/eventfilewriter.h"
#include "summary/recordreader.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens::summary;

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
