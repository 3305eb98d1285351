#pragma once

#include "models/summary/summarydata.h"
#include "models/summary/wavdecode.h"

#include <QColor>
#include <QWidget>

#include <functional>

class QAudioOutput;
class QLabel;
class QMediaPlayer;
class QSlider;
class QSpinBox;
class QToolButton;

namespace runlens::widgets::audio {

class AudioPlot;

/// One audio tag of one run in the Audio panel: a step slider over the steps that have clips, a chooser
/// among the step's clips when it has several, the clip's waveform and spectrogram, its sample rate,
/// channels and length, playback through Qt Multimedia and export of the clip's bytes as a WAV file. The
/// card holds a copy of the series (the encoded bytes are shared with the store) and decodes only the clip
/// it shows. Playback plays a copy written to the user's cache folder, never into the run folder.
class AudioCard final : public QWidget
{
    Q_OBJECT
public:
    /// Asks where to save a clip; returns an empty string when the user cancels.
    using FileNameProvider = std::function<QString(const QString& suggestedFileName)>;

    AudioCard(const QString& run, const QString& tag, const QColor& runColor, QWidget* parent = nullptr);
    ~AudioCard() override;

    QString run() const { return m_run; }
    QString tag() const { return m_tag; }
    void setRunColor(const QColor& color);
    void setRunLabel(const QString& label);

    /// Takes the run's current series of the tag; the slider stays on its step, or follows the newest.
    void setSeries(const models::summary::AudioSeries& series);
    const models::summary::AudioSeries& series() const { return m_series; }

    int currentIndex() const;
    void setCurrentIndex(int index);
    qint64 currentStep() const;
    /// The clip of the step shown (0 unless the step has several).
    int currentClip() const;
    void setCurrentClip(int clip);

    /// The shown clip's bytes as recorded, and its decoded samples (empty when it cannot be decoded).
    QByteArray currentBytes() const;
    const models::summary::wav::Clip& decodedClip() const { return m_clip; }
    /// The format line ("16 kHz · mono · 0.50 s"), and why the clip cannot be shown when it cannot.
    QString infoText() const;
    QString message() const;

    AudioPlot* plot() const { return m_plot; }
    QSlider* slider() const { return m_slider; }
    QToolButton* playButton() const { return m_playButton; }
    QToolButton* exportButton() const { return m_exportButton; }

    /// Whether the machine has an audio output to play to.
    static bool hasAudioOutput();
    bool isPlaying() const;
    void play(double fromSeconds = 0.0);
    void stop();

    /// Writes the shown clip's bytes unchanged.
    bool exportWav(const QString& fileName, QString* errorMessage = nullptr) const;
    /// Asks the file name provider (or takes a new file in the export directory) and exports; returns the
    /// written file or an empty string.
    QString requestExport();
    void setFileNameProvider(FileNameProvider provider) { m_fileNameProvider = std::move(provider); }
    void setExportDirectory(const QString& directory) { m_exportDirectory = directory; }

signals:
    void exported(const QString& fileName);
    void exportFailed(const QString& message);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void buildUi();
    void showCurrent();
    void updatePlayButton();
    QString playbackFile(QString* errorMessage) const;

    QString m_run;
    QString m_tag;
    QColor m_runColor;
    models::summary::AudioSeries m_series;
    models::summary::wav::Clip m_clip;
    QString m_error;
    int m_shownIndex = -1;
    int m_shownClip = -1;
    QString m_exportDirectory;
    FileNameProvider m_fileNameProvider;

    QLabel* m_colorChip = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_stepLabel = nullptr;
    QSpinBox* m_clipBox = nullptr;
    QLabel* m_infoLabel = nullptr;
    QToolButton* m_playButton = nullptr;
    QToolButton* m_exportButton = nullptr;
    AudioPlot* m_plot = nullptr;
    QLabel* m_messageLabel = nullptr;
    QMediaPlayer* m_player = nullptr; ///< created on first play
    QAudioOutput* m_output = nullptr;
};

} // namespace runlens::widgets::audio
