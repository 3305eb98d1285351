#include "importers/summary/eventfilereader.h"
#include "importers/summary/eventfilewriter.h"
#include "importers/summary/proto/tb_event.pb.h"
#include "importers/summary/summaryvalues.h"
#include "importers/summary/visualdlreader.h"
#include "models/summary/wavdecode.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::summary;

namespace {

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QJsonObject expected()
{
    return QJsonDocument::fromJson(readFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/audio/expected.json"))).object();
}

const AudioSeries* findSeries(const SummaryBatch& batch, const QString& tag)
{
    for (const AudioSeries& series : batch.audio) {
        if (series.tag == tag)
            return &series;
    }
    return nullptr;
}

std::vector<qint64> steps(const AudioSeries& series)
{
    std::vector<qint64> out;
    for (const SummaryAudio& item : series.items)
        out.push_back(item.step);
    return out;
}

std::vector<qint64> steps(const QJsonArray& array)
{
    std::vector<qint64> out;
    for (const QJsonValue v : array)
        out.push_back(v.toInteger());
    return out;
}

QByteArray smallWav()
{
    return readFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/audio/wav/pcm16_stereo.wav"));
}

} // namespace

class TestAudioSummaries : public QObject
{
    Q_OBJECT
private slots:
    void tensorBoardBothEncodings()
    {
        // Summary.Value.audio (torch's add_audio) and the TF2 audio plugin's [k, 2] (WAV, label) tensor.
        const QJsonObject want = expected()[QStringLiteral("tensorboard")].toObject();
        EventFileReader reader(QStringLiteral(RUNLENS_TEST_DATA_DIR "/audio/")
                                   + want[QStringLiteral("file")].toString(),
                               SummaryFlavor::TensorBoard);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.diagnostics.isEmpty());
        QVERIFY(update.summaries);
        QCOMPARE(update.summaries->audio.size(), size_t(2));
        for (const QString tag : { QStringLiteral("speech/legacy"), QStringLiteral("speech/tf2") }) {
            const QJsonObject w = want[tag].toObject();
            const AudioSeries* series = findSeries(*update.summaries, tag);
            QVERIFY2(series, qPrintable(tag));
            QCOMPARE(steps(*series), steps(w[QStringLiteral("steps")].toArray()));
            for (const SummaryAudio& item : series->items) {
                QCOMPARE(item.sampleRate, w[QStringLiteral("sample_rate")].toDouble());
                QCOMPARE(item.channels, w[QStringLiteral("channels")].toInt());
                QCOMPARE(item.frames, qint64(w[QStringLiteral("frames")].toInt()));
                QCOMPARE(item.contentType, QStringLiteral("audio/wav"));
                QVERIFY(item.wallTime >= 1700000000.0);
                for (const AudioClip& clip : item.clips) {
                    models::summary::wav::Header header;
                    QVERIFY(models::summary::wav::readHeader(clip.encoded, &header).isEmpty());
                    QCOMPARE(header.frames, item.frames);
                }
            }
            if (w.contains(QStringLiteral("labels"))) {
                const QJsonArray labels = w[QStringLiteral("labels")].toArray();
                QCOMPARE(series->items.front().clips.size(), labels.size());
                for (int i = 0; i < labels.size(); ++i)
                    QCOMPARE(series->items.front().clips[i].label, labels[i].toString());
            } else {
                QCOMPARE(series->items.front().clips.size(), 1);
            }
        }
        QCOMPARE(findSeries(*update.summaries, QStringLiteral("speech/tf2"))->metadata.pluginName,
                 QStringLiteral("audio"));
    }

    void keptStepsFollowTheLimit()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(EventFileWriter::tensorBoardFileName(1700000000, QStringLiteral("h"), 1));
        EventFileWriter writer;
        QVERIFY(writer.open(file));
        QVERIFY(writer.writeFileVersion(1700000000.0));
        const QByteArray bytes = smallWav();
        for (int step = 0; step < 30; ++step) {
            tb::Event event;
            event.set_step(step);
            event.set_wall_time(1700000000.0 + step);
            auto* value = event.mutable_summary()->add_value();
            value->set_tag("a");
            value->mutable_audio()->set_encoded_audio_string(bytes.constData(), size_t(bytes.size()));
            const std::string payload = event.SerializeAsString();
            QVERIFY(writer.writeRecord(QByteArrayView(payload.data(), qsizetype(payload.size()))));
        }
        QVERIFY(writer.close());
        SummaryLimits limits;
        limits.audio = 5;
        EventFileReader reader(file, SummaryFlavor::TensorBoard, limits);
        const ImportUpdate update = reader.poll({});
        QVERIFY(update.summaries);
        const AudioSeries& series = update.summaries->audio.at(0);
        QCOMPARE(series.items.size(), size_t(5));
        QCOMPARE(series.seen, qint64(30));
        QCOMPARE(series.items.back().step, qint64(29)); // the newest is always kept
        // The writer declared nothing: the WAV header says 16 kHz stereo.
        QCOMPARE(series.items.back().sampleRate, 16000.0);
        QCOMPARE(series.items.back().channels, 2);
        QCOMPARE(series.items.back().frames, qint64(48));
    }

    void badTensorsAreReported_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<int>("strings");
        QTest::addColumn<QString>("reason");
        QTest::newRow("float") << int(tb::DT_FLOAT) << QList<qint64> { 1, 2 } << 0 << QStringLiteral("not a string");
        QTest::newRow("rank 3") << int(tb::DT_STRING) << QList<qint64> { 1, 2, 1 } << 2 << QStringLiteral("shape");
        QTest::newRow("[1, 3]") << int(tb::DT_STRING) << QList<qint64> { 1, 3 } << 3 << QStringLiteral("shape");
        QTest::newRow("fewer strings") << int(tb::DT_STRING) << QList<qint64> { 2, 2 } << 2
                                       << QStringLiteral("declares 4 strings");
        QTest::newRow("huge shape") << int(tb::DT_STRING) << QList<qint64> { qint64(1) << 40, 2 } << 2
                                    << QStringLiteral("declares");
    }

    void badTensorsAreReported()
    {
        QFETCH(int, dtype);
        QFETCH(QList<qint64>, shape);
        QFETCH(int, strings);
        QFETCH(QString, reason);
        tb::TensorProto proto;
        proto.set_dtype(tb::DataType(dtype));
        for (const qint64 size : shape)
            proto.mutable_tensor_shape()->add_dim()->set_size(size);
        for (int i = 0; i < strings; ++i)
            proto.add_string_val("x");
        SummaryAudio audio;
        const QString why = importers::summary::values::audioFromTensor(proto, &audio);
        QVERIFY2(why.contains(reason), qPrintable(why));
    }

    void unlabelledTensorAndUndecodableClip()
    {
        // A rank-1 tensor of clips without labels; a clip that is no WAV keeps the writer's (absent) format.
        tb::TensorProto proto;
        proto.set_dtype(tb::DT_STRING);
        proto.mutable_tensor_shape()->add_dim()->set_size(2);
        proto.add_string_val("not a wav");
        const QByteArray bytes = smallWav();
        proto.add_string_val(bytes.constData(), size_t(bytes.size()));
        SummaryAudio audio;
        QVERIFY(importers::summary::values::audioFromTensor(proto, &audio).isEmpty());
        QCOMPARE(audio.clips.size(), 2);
        QCOMPARE(audio.sampleRate, 0.0);
        QCOMPARE(audio.clips[1].encoded, bytes);
    }

    void visualDlDemoLog()
    {
        // The first two records of VisualDL's audio demo log, clips cut to 2000 frames (see the fixture
        // script). VisualDL fills length_frames with the byte count: the WAV header wins.
        const QJsonObject want = expected()[QStringLiteral("visualdl")].toObject();
        VisualDlReader reader(QStringLiteral(RUNLENS_TEST_DATA_DIR "/audio/")
                              + want[QStringLiteral("file")].toString());
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        for (const Diagnostic& d : update.diagnostics)
            QVERIFY2(!d.message.contains(QStringLiteral("audio")), qPrintable(d.message));
        QVERIFY(update.summaries);
        const QJsonArray clips = want[QStringLiteral("clips")].toArray();
        QCOMPARE(update.summaries->audio.size(), size_t(clips.size()));
        for (const QJsonValue c : clips) {
            const AudioSeries* series = findSeries(*update.summaries, c[QStringLiteral("tag")].toString());
            QVERIFY(series);
            QCOMPARE(series->metadata.pluginName, QStringLiteral("audio"));
            QCOMPARE(series->items.size(), size_t(1));
            const SummaryAudio& item = series->items.front();
            QCOMPARE(item.step, c[QStringLiteral("step")].toInteger());
            QCOMPARE(item.sampleRate, c[QStringLiteral("sample_rate")].toDouble());
            QCOMPARE(item.channels, c[QStringLiteral("channels")].toInt());
            QCOMPARE(item.frames, qint64(c[QStringLiteral("frames")].toInt()));
            QCOMPARE(item.contentType, QStringLiteral("audio/wav"));
        }
        QCOMPARE(reader.otherValueCount(clips[0][QStringLiteral("tag")].toString()), 0);
    }
};

QTEST_GUILESS_MAIN(TestAudioSummaries)
#include "tst_audiosummaries.moc"
