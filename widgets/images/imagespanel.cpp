#include "widgets/images/imagespanel.h"

#include "widgets/images/imagecard.h"
#include "widgets/images/imagedecodecache.h"

#include <QCheckBox>

namespace runlens::widgets::images {

ImagesPanel::ImagesPanel(models::summary::SummaryStore* store, QWidget* parent)
    : SummaryCardsPanel(store, models::summary::SummaryKind::Images, parent)
{
    setObjectName(QStringLiteral("ImagesPanel"));
    m_cache = new ImageDecodeCache(this);
    m_contrastCheck = new QCheckBox(tr("Auto contrast"));
    m_contrastCheck->setObjectName(QStringLiteral("autoContrastAll"));
    m_contrastCheck->setToolTip(tr("Stretch every shown image's values to the full range, for dark or low-contrast "
                                   "pictures (display only)"));
    connect(m_contrastCheck, &QCheckBox::toggled, this, &ImagesPanel::setAutoContrast);
    addToolbarWidget(m_contrastCheck);
    initialize();
}

ImagesPanel::~ImagesPanel() = default;

QWidget* ImagesPanel::createCard(const QString& run, const QString& tag)
{
    auto* card = new ImageCard(m_cache, run, tag, colorOfRun(run));
    card->setRunLabel(store()->runDisplayName(run));
    card->setAutoContrast(m_autoContrast);
    if (m_fileNameProvider)
        card->setFileNameProvider(m_fileNameProvider);
    card->setExportDirectory(m_exportDirectory);
    connect(card, &ImageCard::exported, this, &ImagesPanel::imageExported);
    connect(card, &ImageCard::exportFailed, this, &ImagesPanel::imageExportFailed);
    card->setSeries(store()->images(run, tag));
    return card;
}

void ImagesPanel::refreshCard(QWidget* widget, const QString& run, const QString& tag)
{
    auto* card = static_cast<ImageCard*>(widget);
    card->setRunColor(colorOfRun(run));
    if (store())
        card->setSeries(store()->images(run, tag));
}

QString ImagesPanel::noDataText() const
{
    return tr("<p><b>No images yet</b></p><p>Open a run folder with TensorBoard event files, MindSpore summaries or "
              "VisualDL logs that record images; they appear here while they load.</p>");
}

ImageCard* ImagesPanel::card(const QString& run, const QString& tag) const
{
    return static_cast<ImageCard*>(cardWidget(run, tag));
}

QList<ImageCard*> ImagesPanel::visibleCards() const
{
    QList<ImageCard*> out;
    for (QWidget* widget : visibleCardWidgets())
        out << static_cast<ImageCard*>(widget);
    return out;
}

void ImagesPanel::setAutoContrast(bool enabled)
{
    m_autoContrast = enabled;
    {
        const QSignalBlocker blocker(m_contrastCheck);
        m_contrastCheck->setChecked(enabled);
    }
    for (QWidget* widget : allCardWidgets())
        static_cast<ImageCard*>(widget)->setAutoContrast(enabled);
}

void ImagesPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_fileNameProvider = std::move(provider);
    for (QWidget* widget : allCardWidgets())
        static_cast<ImageCard*>(widget)->setFileNameProvider(m_fileNameProvider);
}

void ImagesPanel::setExportDirectory(const QString& directory)
{
    m_exportDirectory = directory;
    for (QWidget* widget : allCardWidgets())
        static_cast<ImageCard*>(widget)->setExportDirectory(directory);
}

} // namespace runlens::widgets::images
