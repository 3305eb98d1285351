#include "widgets/audio/audiocard.h"

#include "widgets/audio/audioplot.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/common/charticons.h"
#include "widgets/common/chartpalette.h"
#include "widgets/images/cardparts.h"

#include <QAudioDevice>
#include <QAudioOutput>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMediaDevices>
#include <QMediaPlayer>
#include <QSaveFile>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

namespace runlens::widgets::audio {

namespace {

QToolButton* toolButton(const QString& text, const QString& toolTip, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setAutoRaise(true);
    button->setFocusPolicy(Qt::TabFocus);
    return button;
}

QString rateText(double hz)
{
    if (hz <= 0.0)
        return AudioCard::tr("unknown rate");
    return hz >= 1000.0 ? AudioCard::tr("%1 kHz").arg(hz / 1000.0, 0, 'g', 4) : AudioCard::tr("%1 Hz").arg(hz);
}

QString channelText(int channels)
{
    if (channels == 1)
        return AudioCard::tr("mono");
    if (channels == 2)
        return AudioCard::tr("stereo");
    return AudioCard::tr("%n channels", nullptr, channels);
}

} // namespace

AudioCard::AudioCard(const QString& run, const QString& tag, const QColor& runColor, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
    , m_tag(tag)
    , m_runColor(runColor)
{
    setObjectName(QStringLiteral("audioCard:%1:%2").arg(run, tag));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    buildUi();
    showCurrent();
}

AudioCard::~AudioCard()
{
    if (m_player)
        m_player->stop();
}

void AudioCard::buildUi()
{
    auto* header
        = images::makeCardHeader(this, m_run, m_tag, tr("Run %1, audio tag %2").arg(m_run, m_tag), &m_colorChip);
    m_colorChip->setPixmap(images::runColorChip(m_runColor));

    m_slider = images::makeStepSlider(this,
                                      tr("Choose the step to show (only steps with audio are on the slider; "
                                         "arrow keys move one step)"));
    connect(m_slider, &QSlider::valueChanged, this, [this] {
        stop();
        showCurrent();
    });
    m_stepLabel = new QLabel(this);
    m_stepLabel->setObjectName(QStringLiteral("stepLabel"));
    m_stepLabel->setMinimumWidth(m_stepLabel->fontMetrics().horizontalAdvance(QStringLiteral("step 000000 · 000/000")));
    m_clipBox = new QSpinBox(this);
    m_clipBox->setObjectName(QStringLiteral("clip"));
    m_clipBox->setPrefix(tr("clip "));
    m_clipBox->setToolTip(tr("This step holds several clips: choose the one to show"));
    m_clipBox->hide();
    connect(m_clipBox, &QSpinBox::valueChanged, this, [this] {
        stop();
        showCurrent();
    });
    auto* stepRow = new QHBoxLayout;
    stepRow->setSpacing(6);
    stepRow->addWidget(m_slider, 1);
    stepRow->addWidget(m_clipBox);
    stepRow->addWidget(m_stepLabel);

    m_playButton = toolButton(tr("Play"), QString(), this);
    m_playButton->setObjectName(QStringLiteral("play"));
    m_playButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_playButton->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    connect(m_playButton, &QToolButton::clicked, this, [this] {
        if (isPlaying())
            stop();
        else
            play();
    });
    m_infoLabel = new QLabel(this);
    m_infoLabel->setObjectName(QStringLiteral("info"));
    m_infoLabel->setForegroundRole(QPalette::PlaceholderText);
    m_infoLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_exportButton
        = toolButton(tr("Export WAV…"), tr("Save the shown clip as a WAV file, exactly as it was recorded"), this);
    m_exportButton->setObjectName(QStringLiteral("exportWav"));
    m_exportButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_exportButton->setIcon(chartIcon(QStringLiteral("chart-export-image")));
    connect(m_exportButton, &QToolButton::clicked, this, [this] { requestExport(); });
    auto* tools = new QHBoxLayout;
    tools->setSpacing(4);
    tools->addWidget(m_playButton);
    tools->addWidget(m_infoLabel, 1);
    tools->addWidget(m_exportButton);

    m_plot = new AudioPlot(this);
    connect(m_plot, &AudioPlot::seekRequested, this, [this](double seconds) {
        if (m_playButton->isEnabled())
            play(seconds);
    });

    m_messageLabel = new QLabel(this);
    m_messageLabel->setObjectName(QStringLiteral("message"));
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette alert = m_messageLabel->palette();
    alert.setColor(QPalette::WindowText, alertColor());
    m_messageLabel->setPalette(alert);
    m_messageLabel->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 6);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addLayout(stepRow);
    layout->addLayout(tools);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_messageLabel);
}

void AudioCard::setRunColor(const QColor& color)
{
    if (color == m_runColor)
        return;
    m_runColor = color;
    m_colorChip->setPixmap(images::runColorChip(color));
}

void AudioCard::setRunLabel(const QString& label)
{
    images::setCardHeaderRun(this, label, tr("Run %1, audio tag %2").arg(label, m_tag));
}

void AudioCard::setSeries(const models::summary::AudioSeries& series)
{
    const int previousCount = int(m_series.items.size());
    const int index = images::indexAfterUpdate(series.items, previousCount, m_slider->value(), currentStep());
    const bool sameClip = index >= 0 && index < previousCount && m_shownIndex == index
        && series.items[size_t(index)].step == m_series.items[size_t(index)].step
        && series.items[size_t(index)].wallTime == m_series.items[size_t(index)].wallTime;
    m_series = series;
    if (!sameClip) {
        stop();
        m_shownIndex = -1;
    }
    images::resetStepSlider(m_slider, int(m_series.items.size()), index);
    showCurrent();
}

int AudioCard::currentIndex() const
{
    return m_series.items.empty() ? -1 : m_slider->value();
}

void AudioCard::setCurrentIndex(int index)
{
    m_slider->setValue(index);
}

qint64 AudioCard::currentStep() const
{
    return images::stepAtIndex(m_series.items, currentIndex());
}

int AudioCard::currentClip() const
{
    return m_clipBox->value() - 1;
}

void AudioCard::setCurrentClip(int clip)
{
    m_clipBox->setValue(clip + 1);
}

QByteArray AudioCard::currentBytes() const
{
    const int index = currentIndex();
    if (index < 0)
        return {};
    const models::summary::SummaryAudio& item = m_series.items[size_t(index)];
    const int clip = currentClip();
    return clip >= 0 && clip < item.clips.size() ? item.clips[clip].encoded : QByteArray();
}

void AudioCard::showCurrent()
{
    const int index = currentIndex();
    const int clipCount = index < 0 ? 0 : int(m_series.items[size_t(index)].clips.size());
    {
        const QSignalBlocker blocker(m_clipBox);
        m_clipBox->setRange(1, std::max(1, clipCount));
        m_clipBox->setSuffix(tr(" of %1").arg(std::max(1, clipCount)));
        m_clipBox->setVisible(clipCount > 1);
    }
    const int clip = currentClip();
    m_stepLabel->setText(index < 0
                             ? tr("no audio")
                             : tr("step %1 · %2/%3").arg(currentStep()).arg(index + 1).arg(m_series.items.size()));
    if (index != m_shownIndex || clip != m_shownClip) {
        m_shownIndex = index;
        m_shownClip = clip;
        m_clip = models::summary::wav::Clip();
        m_error.clear();
        if (index >= 0) {
            const QByteArray bytes = currentBytes();
            if (bytes.isEmpty())
                m_error = tr("step %1: no audio data was recorded").arg(currentStep());
            else if (const QString why = models::summary::wav::decode(bytes, &m_clip); !why.isEmpty())
                m_error = tr("step %1: the clip cannot be shown: %2").arg(currentStep()).arg(why);
            else if (m_clip.header.truncated)
                m_error = tr("step %1: the clip is cut off; the %n frames present are shown", nullptr,
                             int(std::min<qint64>(m_clip.header.frames, INT32_MAX)))
                              .arg(currentStep());
        }
        m_plot->setClip(m_clip);
    }
    m_infoLabel->setText(infoText());
    m_messageLabel->setText(m_error);
    m_messageLabel->setVisible(!m_error.isEmpty());
    m_exportButton->setEnabled(!currentBytes().isEmpty());
    updatePlayButton();
}

QString AudioCard::infoText() const
{
    const int index = currentIndex();
    if (index < 0)
        return {};
    const models::summary::SummaryAudio& item = m_series.items[size_t(index)];
    QStringList parts;
    if (m_clip.header.sampleRate > 0) {
        parts << rateText(m_clip.header.sampleRate) << channelText(m_clip.header.channels)
              << tr("%1 s").arg(m_clip.header.durationSeconds(), 0, 'f', 2)
              << tr("%1-bit %2")
                     .arg(m_clip.header.bitsPerSample)
                     .arg(m_clip.header.format == models::summary::wav::SampleFormat::Float ? tr("float") : tr("PCM"));
    } else {
        parts << rateText(item.sampleRate);
        if (item.channels > 0)
            parts << channelText(item.channels);
    }
    const int clip = currentClip();
    if (clip >= 0 && clip < item.clips.size() && !item.clips[clip].label.isEmpty())
        parts << item.clips[clip].label;
    return parts.join(QStringLiteral(" · "));
}

QString AudioCard::message() const
{
    return m_error;
}

bool AudioCard::hasAudioOutput()
{
    return !QMediaDevices::audioOutputs().isEmpty();
}

bool AudioCard::isPlaying() const
{
    return m_player && m_player->playbackState() == QMediaPlayer::PlayingState;
}

void AudioCard::updatePlayButton()
{
    const bool output = hasAudioOutput();
    const bool playable = output && m_clip.header.frames > 0;
    m_playButton->setEnabled(playable);
    const bool playing = isPlaying();
    m_playButton->setText(playing ? tr("Stop") : tr("Play"));
    m_playButton->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaStop : QStyle::SP_MediaPlay));
    if (!output)
        m_playButton->setToolTip(tr("No audio output was found on this machine: export the clip as WAV to listen "
                                    "to it elsewhere"));
    else if (!playable)
        m_playButton->setToolTip(tr("This clip cannot be played: it could not be decoded"));
    else
        m_playButton->setToolTip(playing ? tr("Stop playing")
                                         : tr("Play the clip (click the waveform to play from "
                                              "that point)"));
}

QString AudioCard::playbackFile(QString* errorMessage) const
{
    // Players read files more reliably than devices; the copy goes to the cache folder, named by content,
    // so the run folder is never written to and playing a clip twice writes it once.
    const QByteArray bytes = currentBytes();
    QString folder = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (folder.isEmpty())
        folder = QDir::tempPath();
    QDir dir(folder);
    if (!dir.mkpath(QStringLiteral("audio"))) {
        *errorMessage = tr("Cannot create the folder %1 for playback.").arg(dir.filePath(QStringLiteral("audio")));
        return {};
    }
    const QString name = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex())
        + QStringLiteral(".wav");
    const QString path = dir.filePath(QStringLiteral("audio/") + name);
    if (QFileInfo(path).size() == bytes.size())
        return path;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *errorMessage = tr("Cannot write %1 for playback: %2").arg(path, file.errorString());
        return {};
    }
    return path;
}

void AudioCard::play(double fromSeconds)
{
    if (!hasAudioOutput() || m_clip.header.frames <= 0)
        return;
    QString error;
    const QString path = playbackFile(&error);
    if (path.isEmpty()) {
        m_messageLabel->setText(error);
        m_messageLabel->show();
        return;
    }
    if (!m_player) {
        m_player = new QMediaPlayer(this);
        m_output = new QAudioOutput(this);
        m_player->setAudioOutput(m_output);
        connect(m_player, &QMediaPlayer::positionChanged, this, [this](qint64 ms) {
            if (isPlaying())
                m_plot->setPlayPosition(double(ms) / 1000.0);
        });
        connect(m_player, &QMediaPlayer::playbackStateChanged, this, [this](QMediaPlayer::PlaybackState state) {
            if (state == QMediaPlayer::StoppedState)
                m_plot->setPlayPosition(-1.0);
            updatePlayButton();
        });
        connect(m_player, &QMediaPlayer::errorOccurred, this, [this](QMediaPlayer::Error, const QString& text) {
            m_messageLabel->setText(tr("The clip cannot be played: %1").arg(text));
            m_messageLabel->show();
        });
    }
    const QUrl source = QUrl::fromLocalFile(path);
    if (m_player->source() != source)
        m_player->setSource(source);
    m_player->setPosition(qint64(std::llround(fromSeconds * 1000.0)));
    m_plot->setPlayPosition(fromSeconds);
    m_player->play();
    updatePlayButton();
}

void AudioCard::stop()
{
    if (m_player)
        m_player->stop();
    m_plot->setPlayPosition(-1.0);
}

bool AudioCard::exportWav(const QString& fileName, QString* errorMessage) const
{
    const QByteArray bytes = currentBytes();
    if (bytes.isEmpty()) {
        if (errorMessage)
            *errorMessage = tr("There is no clip to export.");
        return false;
    }
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (errorMessage)
            *errorMessage = tr("Cannot write %1: %2. Check that the folder exists and is writable.")
                                .arg(fileName, file.errorString());
        return false;
    }
    return true;
}

QString AudioCard::requestExport()
{
    const int clip = currentClip();
    QString base = QStringLiteral("%1_%2_step%3").arg(m_run, m_tag).arg(currentStep());
    if (currentIndex() >= 0 && m_series.items[size_t(currentIndex())].clips.size() > 1)
        base += QStringLiteral("_clip%1").arg(clip + 1);
    base = ChartExportMenu::safeFileName(base);
    const QString fileName = images::cardExportFileName(m_exportDirectory, QStandardPaths::MusicLocation, base,
                                                        QStringLiteral(".wav"), m_fileNameProvider);
    if (fileName.isEmpty())
        return {};
    QString error;
    if (!exportWav(fileName, &error)) {
        emit exportFailed(error);
        return {};
    }
    emit exported(fileName);
    return fileName;
}

void AudioCard::paintEvent(QPaintEvent* event)
{
    Q_UNUSED(event)
    images::paintCardFrame(this);
}

} // namespace runlens::widgets::audio
