#pragma once

#include "widgets/common/chartexportmenu.h"
#include "widgets/images/summarycardspanel.h"

class QCheckBox;

namespace runlens::widgets::images {

class ImageCard;
class ImageDecodeCache;

/// The Images panel: for every image tag a section with a card per run (step slider, the step's images
/// side by side, fit / real size / zoom, auto contrast, PNG export, pixel under the mouse). Images are
/// decoded on worker threads into a cache shared by the cards and bounded in memory, and only for cards
/// on screen. Live logs update the cards in place; a card left on the newest step follows new steps.
class ImagesPanel final : public SummaryCardsPanel
{
    Q_OBJECT
public:
    explicit ImagesPanel(models::summary::SummaryStore* store = nullptr, QWidget* parent = nullptr);
    ~ImagesPanel() override;

    ImageCard* card(const QString& run, const QString& tag) const;
    QList<ImageCard*> visibleCards() const;
    ImageDecodeCache* decodeCache() const { return m_cache; }

    /// Turns auto contrast on or off in every card (each card's own toggle still works).
    void setAutoContrast(bool enabled);
    bool autoContrast() const { return m_autoContrast; }

    /// File names for "Export PNG" (the application shows a file dialog there).
    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    /// Where exports go without a FileNameProvider (tests; scripted use).
    void setExportDirectory(const QString& directory);

    static constexpr int kCardHeight = 380;
    static constexpr int kMinCardWidth = 340;

signals:
    void imageExported(const QString& fileName);
    void imageExportFailed(const QString& message);

protected:
    QWidget* createCard(const QString& run, const QString& tag) override;
    void refreshCard(QWidget* card, const QString& run, const QString& tag) override;
    QString noDataText() const override;
    int cardHeight() const override { return kCardHeight; }
    int minimumCardWidth() const override { return kMinCardWidth; }

private:
    ImageDecodeCache* m_cache = nullptr;
    QCheckBox* m_contrastCheck = nullptr;
    bool m_autoContrast = false;
    ChartExportMenu::FileNameProvider m_fileNameProvider;
    QString m_exportDirectory;
};

} // namespace runlens::widgets::images
