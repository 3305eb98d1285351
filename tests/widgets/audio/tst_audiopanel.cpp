#include "models/summary/summarystore.h"
#include "widgets/audio/audiocard.h"
#include "widgets/audio/audiopanel.h"
#include "widgets/audio/audioplot.h"

#include <QFile>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace runlens;
using namespace runlens::models::summary;

namespace {

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QByteArray fixture(const char* name)
{
    return readFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/audio/wav/%1.wav").arg(QLatin1String(name)));
}

AudioSeries series(const QString& tag, const QList<QByteArray>& steps)
{
    AudioSeries out;
    out.tag = tag;
    out.metadata.pluginName = QStringLiteral("audio");
    for (int i = 0; i < steps.size(); ++i) {
        SummaryAudio item;
        item.step = i * 10;
        item.wallTime = 1700000000.0 + i;
        item.clips.append(AudioClip { steps[i], QStringLiteral("clip %1").arg(i) });
        out.items.push_back(item);
    }
    out.seen = qint64(out.items.size());
    return out;
}

} // namespace

class TestAudioPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void cardShowsClipsAndExportsTheirBytes()
    {
        SummaryStore store;
        SummaryBatch batch;
        batch.audio.push_back(series(QStringLiteral("speech"), { fixture("pcm16_stereo"), fixture("float32_mono") }));
        store.update(QStringLiteral("run1"), QStringLiteral("events"), batch);

        widgets::audio::AudioPanel panel(&store);
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.flushPendingUpdates();
        QCOMPARE(panel.visibleTags(), QStringList { QStringLiteral("speech") });
        QVERIFY(panel.emptyStateText().isEmpty());
        widgets::audio::AudioCard* card = panel.card(QStringLiteral("run1"), QStringLiteral("speech"));
        QVERIFY(card);
        // Left on the newest step: the float clip.
        QCOMPARE(card->currentIndex(), 1);
        QCOMPARE(card->currentStep(), qint64(10));
        QVERIFY2(card->message().isEmpty(), qPrintable(card->message()));
        QVERIFY2(card->infoText().contains(QStringLiteral("22.05 kHz")), qPrintable(card->infoText()));
        QVERIFY(card->infoText().contains(QStringLiteral("mono")));
        QVERIFY(card->infoText().contains(QStringLiteral("clip 1")));
        QVERIFY(card->plot()->hasClip());

        card->slider()->setValue(0);
        QCOMPARE(card->currentStep(), qint64(0));
        QVERIFY2(card->infoText().contains(QStringLiteral("16 kHz")), qPrintable(card->infoText()));
        QVERIFY(card->infoText().contains(QStringLiteral("stereo")));
        QCOMPARE(card->decodedClip().header.channels, 2);

        // Export writes the recorded bytes unchanged.
        QTemporaryDir dir;
        panel.setExportDirectory(dir.path());
        QSignalSpy exported(&panel, &widgets::audio::AudioPanel::clipExported);
        QTest::mouseClick(card->exportButton(), Qt::LeftButton);
        QCOMPARE(exported.size(), 1);
        const QString written = exported.at(0).at(0).toString();
        QVERIFY(written.endsWith(QStringLiteral(".wav")));
        QCOMPARE(readFile(written), fixture("pcm16_stereo"));

        // Playback is offered only where an output exists; without one the button says why.
        QCOMPARE(card->playButton()->isEnabled(), widgets::audio::AudioCard::hasAudioOutput());
        if (!widgets::audio::AudioCard::hasAudioOutput())
            QVERIFY(card->playButton()->toolTip().contains(QStringLiteral("No audio output")));
        card->play(); // a no-op without an output; must not crash either way
        card->stop();
        QCOMPARE(card->plot()->playPosition(), -1.0);
    }

    void plotDrawsWaveformAndSpectrogram()
    {
        widgets::audio::AudioPlot plot;
        plot.resize(400, 240);
        models::summary::wav::Clip clip;
        QVERIFY(models::summary::wav::decode(fixture("pcm16_stereo"), &clip).isEmpty());
        plot.setClip(clip);
        QVERIFY(plot.spectrogram().frames > 0);
        const QImage image = plot.grab().toImage();
        // The spectrogram area is coloured by the map, not left blank.
        const QRect spec = plot.spectrogramRect();
        QVERIFY(spec.height() > 40);
        QSet<QRgb> colours;
        for (int x = spec.left() + 2; x < spec.right(); x += 7)
            colours.insert(image.pixel(x, spec.center().y()));
        QVERIFY(colours.size() > 1 || image.pixel(spec.center()) != plot.palette().color(QPalette::Window).rgb());
        // A click asks to play from that time.
        QSignalSpy seek(&plot, &widgets::audio::AudioPlot::seekRequested);
        const QRect wave = plot.waveformRect();
        QTest::mouseClick(&plot, Qt::LeftButton, {}, QPoint(wave.left() + wave.width() / 2, wave.center().y()));
        QCOMPARE(seek.size(), 1);
        QVERIFY(qAbs(seek.at(0).at(0).toDouble() - 0.5 * 48 / 16000.0) < 2.0 / 16000.0 + 1e-4);
    }

    void undecodableClipSaysWhy()
    {
        SummaryStore store;
        SummaryBatch batch;
        batch.audio.push_back(series(QStringLiteral("bad"), { QByteArray("OggS and more bytes") }));
        store.update(QStringLiteral("run1"), QStringLiteral("events"), batch);
        widgets::audio::AudioPanel panel(&store);
        panel.flushPendingUpdates();
        widgets::audio::AudioCard* card = panel.card(QStringLiteral("run1"), QStringLiteral("bad"));
        QVERIFY(card);
        QVERIFY2(card->message().contains(QStringLiteral("RIFF")), qPrintable(card->message()));
        QVERIFY(!card->playButton()->isEnabled());
        // The bytes can still be saved as recorded.
        QVERIFY(card->exportButton()->isEnabled());
    }

    void emptyStoreShowsTheEmptyState()
    {
        SummaryStore store;
        widgets::audio::AudioPanel panel(&store);
        QVERIFY(panel.emptyStateText().contains(QStringLiteral("No audio")));
    }
};

QTEST_MAIN(TestAudioPanel)
#include "tst_audiopanel.moc"
