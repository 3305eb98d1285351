#include "widgets/audio/audiopanel.h"

namespace runlens::widgets::audio {

AudioPanel::AudioPanel(models::summary::SummaryStore* store, QWidget* parent)
    : SummaryCardsPanel(store, models::summary::SummaryKind::Audio, parent)
{
    setObjectName(QStringLiteral("AudioPanel"));
    initialize();
}

AudioPanel::~AudioPanel() = default;

QWidget* AudioPanel::createCard(const QString& run, const QString& tag)
{
    auto* card = new AudioCard(run, tag, colorOfRun(run));
    card->setRunLabel(store()->runDisplayName(run));
    if (m_fileNameProvider)
        card->setFileNameProvider(m_fileNameProvider);
    card->setExportDirectory(m_exportDirectory);
    connect(card, &AudioCard::exported, this, &AudioPanel::clipExported);
    connect(card, &AudioCard::exportFailed, this, &AudioPanel::clipExportFailed);
    card->setSeries(store()->audio(run, tag));
    return card;
}

void AudioPanel::refreshCard(QWidget* widget, const QString& run, const QString& tag)
{
    auto* card = static_cast<AudioCard*>(widget);
    card->setRunColor(colorOfRun(run));
    if (store())
        card->setSeries(store()->audio(run, tag));
}

QString AudioPanel::noDataText() const
{
    return tr("<p><b>No audio yet</b></p><p>Open a run folder with TensorBoard event files (<tt>add_audio</tt>, "
              "<tt>tf.summary.audio</tt>) or VisualDL logs that record audio; the clips appear here while they "
              "load.</p>");
}

AudioCard* AudioPanel::card(const QString& run, const QString& tag) const
{
    return static_cast<AudioCard*>(cardWidget(run, tag));
}

QList<AudioCard*> AudioPanel::visibleCards() const
{
    QList<AudioCard*> out;
    for (QWidget* widget : visibleCardWidgets())
        out << static_cast<AudioCard*>(widget);
    return out;
}

void AudioPanel::setExportFileNameProvider(AudioCard::FileNameProvider provider)
{
    m_fileNameProvider = std::move(provider);
    for (QWidget* widget : allCardWidgets())
        static_cast<AudioCard*>(widget)->setFileNameProvider(m_fileNameProvider);
}

void AudioPanel::setExportDirectory(const QString& directory)
{
    m_exportDirectory = directory;
    for (QWidget* widget : allCardWidgets())
        static_cast<AudioCard*>(widget)->setExportDirectory(directory);
}

} // namespace runlens::widgets::audio
