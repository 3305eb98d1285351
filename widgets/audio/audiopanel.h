#pragma once

#include "widgets/audio/audiocard.h"
#include "widgets/images/summarycardspanel.h"

namespace runlens::widgets::audio {

/// The Audio panel: for every audio tag a section with a card per run (step slider, waveform and
/// spectrogram, sample rate, channels and length, playback, WAV export). TensorBoard's Summary.Audio, the
/// TF2 audio plugin and VisualDL audio records arrive here through the SummaryStore; live logs update the
/// cards in place.
class AudioPanel final : public images::SummaryCardsPanel
{
    Q_OBJECT
public:
    explicit AudioPanel(models::summary::SummaryStore* store = nullptr, QWidget* parent = nullptr);
    ~AudioPanel() override;

    AudioCard* card(const QString& run, const QString& tag) const;
    QList<AudioCard*> visibleCards() const;

    /// File names for "Export WAV…" (the application shows a file dialog there).
    void setExportFileNameProvider(AudioCard::FileNameProvider provider);
    /// Where exports go without a FileNameProvider (tests; scripted use).
    void setExportDirectory(const QString& directory);

    static constexpr int kCardHeight = 330;
    static constexpr int kMinCardWidth = 340;

signals:
    void clipExported(const QString& fileName);
    void clipExportFailed(const QString& message);

protected:
    QWidget* createCard(const QString& run, const QString& tag) override;
    void refreshCard(QWidget* card, const QString& run, const QString& tag) override;
    QString noDataText() const override;
    int cardHeight() const override { return kCardHeight; }
    int minimumCardWidth() const override { return kMinCardWidth; }

private:
    AudioCard::FileNameProvider m_fileNameProvider;
    QString m_exportDirectory;
};

} // namespace runlens::widgets::audio
