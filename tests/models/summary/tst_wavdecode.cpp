#include "models/summary/spectrogram.h"
#include "models/summary/wavdecode.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QtEndian>

#include <cmath>
#include <numbers>

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

void put16(QByteArray& bytes, quint16 v)
{
    char b[2];
    qToLittleEndian(v, b);
    bytes.append(b, 2);
}

void put32(QByteArray& bytes, quint32 v)
{
    char b[4];
    qToLittleEndian(v, b);
    bytes.append(b, 4);
}

/// A 16-bit PCM WAV with the given header fields, built by hand so that each can be made wrong.
QByteArray makeWav(quint16 format, quint16 channels, quint32 rate, quint16 bits, quint16 blockAlign, QByteArray data,
                   qint64 declaredData = -1)
{
    QByteArray fmt;
    put16(fmt, format);
    put16(fmt, channels);
    put32(fmt, rate);
    put32(fmt, rate * blockAlign);
    put16(fmt, blockAlign);
    put16(fmt, bits);
    QByteArray body = "WAVEfmt ";
    put32(body, quint32(fmt.size()));
    body += fmt;
    body += "data";
    put32(body, quint32(declaredData < 0 ? data.size() : declaredData));
    body += data;
    QByteArray out = "RIFF";
    put32(out, quint32(body.size()));
    return out + body;
}

} // namespace

class TestWavDecode : public QObject
{
    Q_OBJECT
private slots:
    void decodesEveryFormat_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name :
             { "pcm8_mono", "pcm16_stereo", "pcm24_mono", "pcm32_stereo", "float32_mono", "float64_stereo" })
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void decodesEveryFormat()
    {
        // Written by tests/data/audio/make_audio_fixtures.py (Python's wave module; float by hand).
        QFETCH(QString, name);
        const QJsonObject want = expected()[name].toObject();
        QVERIFY(!want.isEmpty());
        const QByteArray bytes = readFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/audio/wav/%1.wav").arg(name));
        wav::Clip clip;
        const QString why = wav::decode(bytes, &clip);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(clip.header.channels, want[QStringLiteral("channels")].toInt());
        QCOMPARE(clip.header.sampleRate, want[QStringLiteral("sample_rate")].toInt());
        QCOMPARE(clip.header.bitsPerSample, want[QStringLiteral("bits")].toInt());
        QCOMPARE(clip.header.frames, qint64(want[QStringLiteral("frames")].toInt()));
        QVERIFY(!clip.header.truncated);
        const bool isFloat = want[QStringLiteral("format")].toString() == QLatin1String("float");
        QCOMPARE(clip.header.format,
                 isFloat ? wav::SampleFormat::Float : wav::SampleFormat::Pcm);
        const QJsonArray samples = want[QStringLiteral("samples")].toArray();
        QCOMPARE(qsizetype(clip.samples.size()), samples.size());
        const double full = std::ldexp(1.0, clip.header.bitsPerSample - 1);
        for (qsizetype i = 0; i < samples.size(); ++i) {
            // PCM integers divided by 2^(bits-1); float samples as written (float64 ones rounded to float).
            const float wanted = isFloat ? float(samples[i].toDouble()) : float(samples[i].toDouble() / full);
            if (clip.samples[size_t(i)] != wanted)
                QFAIL(qPrintable(QStringLiteral("sample %1: %2, expected %3")
                                     .arg(i)
                                     .arg(clip.samples[size_t(i)], 0, 'g', 9)
                                     .arg(wanted, 0, 'g', 9)));
        }
        // Full scale maps to exactly -1 at the negative end.
        QCOMPARE(clip.samples[0], -1.0f);
    }

    void refusesHostileHeaders_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        const QByteArray frames(8, '\x01');
        QTest::newRow("empty") << QByteArray() << QStringLiteral("too short");
        QTest::newRow("not riff") << QByteArray("OggS").append(20, '\0') << QStringLiteral("RIFF");
        QTest::newRow("rf64") << QByteArray("RF64").append(20, '\0') << QStringLiteral("RF64");
        QTest::newRow("not wave") << QByteArray("RIFF\4\0\0\0AVI ", 12) << QStringLiteral("AVI");
        QTest::newRow("no chunks") << QByteArray("RIFF\4\0\0\0WAVE", 12) << QStringLiteral("no format chunk");
        QTest::newRow("adpcm") << makeWav(2, 1, 8000, 4, 1, frames) << QStringLiteral("sample format 2");
        QTest::newRow("no channels") << makeWav(1, 0, 8000, 16, 0, frames) << QStringLiteral("0 channels");
        QTest::newRow("65535 channels") << makeWav(1, 65535, 8000, 16, 2, frames) << QStringLiteral("65535 channels");
        QTest::newRow("rate 0") << makeWav(1, 1, 0, 16, 2, frames) << QStringLiteral("sample rate 0");
        QTest::newRow("rate 4G") << makeWav(1, 1, 0xFFFFFFFFu, 16, 2, frames) << QStringLiteral("sample rate");
        QTest::newRow("12-bit") << makeWav(1, 1, 8000, 12, 2, frames) << QStringLiteral("12-bit PCM");
        QTest::newRow("16-bit float") << makeWav(3, 1, 8000, 16, 2, frames) << QStringLiteral("16-bit float");
        QTest::newRow("block size") << makeWav(1, 2, 8000, 16, 2, frames) << QStringLiteral("block size 2");
        QByteArray dataFirst = makeWav(1, 1, 8000, 16, 2, frames);
        dataFirst.replace(12, 4, "data"); // the format chunk renamed: data comes first
        dataFirst.replace(16, 4, QByteArray("\0\0\0\0", 4));
        QTest::newRow("data before format") << dataFirst << QStringLiteral("before the format chunk");
        QByteArray hugeFormat = makeWav(1, 1, 8000, 16, 2, frames);
        hugeFormat.replace(16, 4, QByteArray("\xff\xff\xff\x7f", 4));
        QTest::newRow("format chunk past the end") << hugeFormat << QStringLiteral("format chunk declares");
        QByteArray noData = makeWav(1, 1, 8000, 16, 2, frames);
        noData.replace(36, 4, "LIST");
        QTest::newRow("no data chunk") << noData << QStringLiteral("no data chunk");
    }

    void refusesHostileHeaders()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        wav::Clip clip;
        const QString why = wav::decode(bytes, &clip);
        QVERIFY2(why.contains(reason), qPrintable(why));
        QVERIFY(clip.samples.empty());
        // Every prefix of the input is read safely too.
        for (qsizetype n = 0; n < bytes.size(); ++n)
            wav::decode(QByteArrayView(bytes.constData(), n), &clip);
    }

    void readsWhatIsPresentOfACutClip()
    {
        // A streaming writer's open size (0xFFFFFFFF) or a cut file: the whole frames present are read.
        QByteArray data;
        for (int i = 0; i < 5; ++i)
            put16(data, quint16(i * 1000));
        const QByteArray bytes = makeWav(1, 1, 8000, 16, 2, data, 0xFFFFFFFFu).chopped(1);
        wav::Clip clip;
        QVERIFY(wav::decode(bytes, &clip).isEmpty());
        QVERIFY(clip.header.truncated);
        QCOMPARE(clip.header.frames, qint64(4));
        QCOMPARE(clip.samples[3], float(3000 / 32768.0));
    }

    void extensibleFormatIsResolved()
    {
        // WAVE_FORMAT_EXTENSIBLE with the IEEE float sub-format.
        QByteArray fmt;
        put16(fmt, 0xFFFE);
        put16(fmt, 1);
        put32(fmt, 8000);
        put32(fmt, 32000);
        put16(fmt, 4);
        put16(fmt, 32);
        put16(fmt, 22);
        put16(fmt, 32);
        put32(fmt, 4);
        put16(fmt, 3); // sub-format GUID 00000003-0000-0010-8000-00aa00389b71
        fmt += QByteArray::fromHex("000000001000800000aa00389b71");
        QByteArray body = "WAVEfmt ";
        put32(body, quint32(fmt.size()));
        body += fmt + "data";
        put32(body, 4);
        const float half = 0.5f;
        body.append(reinterpret_cast<const char*>(&half), 4);
        QByteArray bytes = "RIFF";
        put32(bytes, quint32(body.size()));
        bytes += body;
        wav::Clip clip;
        const QString why = wav::decode(bytes, &clip);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(clip.header.format, wav::SampleFormat::Float);
        QCOMPARE(clip.samples.size(), size_t(1));
        QCOMPARE(clip.samples[0], 0.5f);
    }

    void spectrogramOfASinePeaksAtItsBin_data()
    {
        QTest::addColumn<double>("frequency");
        QTest::addColumn<double>("rate");
        QTest::addColumn<int>("window");
        QTest::newRow("1 kHz at 16 kHz") << 1000.0 << 16000.0 << 1024;
        QTest::newRow("440 Hz at 44.1 kHz") << 440.0 << 44100.0 << 2048;
        QTest::newRow("3 kHz at 8 kHz, 256") << 3000.0 << 8000.0 << 256;
    }

    void spectrogramOfASinePeaksAtItsBin()
    {
        QFETCH(double, frequency);
        QFETCH(double, rate);
        QFETCH(int, window);
        std::vector<float> samples(std::size_t(rate), 0.0f); // one second
        for (size_t i = 0; i < samples.size(); ++i)
            samples[i] = float(std::sin(2.0 * std::numbers::pi * frequency * double(i) / rate));
        const Spectrogram s = computeSpectrogram(samples.data(), qint64(samples.size()), rate, window, 200);
        QCOMPARE(s.bins, window / 2 + 1);
        QVERIFY(s.frames > 1 && s.frames <= 200);
        const int bin = strongestBin(s);
        const int expectedBin = int(std::lround(frequency * window / rate));
        QCOMPARE(bin, expectedBin);
        QVERIFY(std::abs(s.binFrequency(bin) - frequency) <= rate / window / 2.0);
        // A full-scale sine is near 0 dB at its bin (the Hann window's scalloping costs up to 1.5 dB), and
        // far below it away from the peak.
        const float peak = s.at(s.frames / 2, bin);
        QVERIFY2(peak > -2.0f && peak < 0.5f, qPrintable(QString::number(peak)));
        QVERIFY(s.at(s.frames / 2, (bin + s.bins / 2) % s.bins) < peak - 60.0f);
    }

    void spectrogramOfNothingIsEmpty()
    {
        const Spectrogram s = computeSpectrogram(nullptr, 0, 8000.0);
        QCOMPARE(s.frames, 0);
        QCOMPARE(strongestBin(s), -1);
        // Shorter than a window: one zero-padded frame.
        const float few[3] = { 0.1f, 0.2f, 0.3f };
        QCOMPARE(computeSpectrogram(few, 3, 8000.0).frames, 1);
    }
};

QTEST_GUILESS_MAIN(TestWavDecode)
#include "tst_wavdecode.moc"
