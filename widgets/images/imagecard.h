#pragma once

#include "models/summary/summarydata.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/images/imagedecodecache.h"

#include <QColor>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QWidget>

class QLabel;
class QScrollArea;
class QSlider;
class QToolButton;

namespace runlens::widgets::images {

class ImageView;

/// One image tag of one run in the Images panel: a step slider over the steps that have images, the
/// images of the chosen step side by side (fitted, at real size or zoomed), an auto-contrast toggle for
/// dark pictures, PNG export of what is shown and the pixel under the mouse. Images are decoded on
/// workers through the panel's shared cache, and only once the card is on screen; bytes that are not an
/// image are reported in the card. The card holds a copy of the series (the encoded bytes are shared with
/// the store, not duplicated).
class ImageCard final : public QWidget
{
    Q_OBJECT
public:
    ImageCard(ImageDecodeCache* cache, const QString& run, const QString& tag, const QColor& runColor,
              QWidget* parent = nullptr);
    ~ImageCard() override;

    QString run() const { return m_run; }
    QString tag() const { return m_tag; }
    void setRunColor(const QColor& color);
    /// The run as users see it in the header (runDisplayName); the run itself until set.
    void setRunLabel(const QString& label);

    /// Takes the run's current series of the tag. The slider stays on its step, or follows the newest
    /// step when it was there.
    void setSeries(const models::summary::ImageSeries& series);
    const models::summary::ImageSeries& series() const { return m_series; }

    /// Index of the shown step in the series, -1 when there is none.
    int currentIndex() const;
    void setCurrentIndex(int index);
    /// The shown step (0 when there is none).
    qint64 currentStep() const;

    void setAutoContrast(bool enabled);
    bool autoContrast() const { return m_autoContrast; }

    /// True when every image of the shown step is decoded (or reported as not decodable).
    bool isCurrentStepReady() const { return m_missingKeys.isEmpty() && m_shownIndex == currentIndex(); }
    /// Problems with the shown step's bytes, one line per image ("step 3: the image data is not …").
    QString message() const;
    /// The hover text, or the size of the shown images when the mouse is elsewhere.
    QString statusText() const;

    ImageView* view() const { return m_view; }
    QSlider* slider() const { return m_slider; }

    /// The shown step's images as displayed (auto contrast applied when on) at their real size, side by
    /// side; null when nothing is decoded.
    QImage composedImage() const;
    bool exportPng(const QString& fileName, QString* errorMessage = nullptr) const;
    /// Asks the file name provider (or takes a new file in the export directory) and exports; returns the
    /// written file or an empty string.
    QString requestExport();
    void setFileNameProvider(ChartExportMenu::FileNameProvider provider) { m_fileNameProvider = std::move(provider); }
    void setExportDirectory(const QString& directory) { m_exportDirectory = directory; }

    /// The cache key of image `index` of a step of this card.
    QString cacheKey(const models::summary::SummaryImage& item, int index) const;

signals:
    void exported(const QString& fileName);
    void exportFailed(const QString& message);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void buildUi();
    void showCurrentStep();
    void requestMissing();
    void onDecoded(const QString& key);
    void updateStepLabel();
    void updateZoomControls();
    void updateStatus();

    QPointer<ImageDecodeCache> m_cache;
    QString m_run;
    QString m_tag;
    QColor m_runColor;
    models::summary::ImageSeries m_series;
    bool m_autoContrast = false;
    QSet<QString> m_missingKeys; ///< images of the current step not decoded yet
    /// The current step's decoded images, held here too so that the cache evicting them cannot make the
    /// card decode them over and over.
    QHash<QString, ImageDecodeCache::Entry> m_stepEntries;
    int m_shownIndex = -1; ///< the series index whose images the view holds
    QStringList m_errors;
    QString m_hoverText;
    QString m_exportDirectory;
    ChartExportMenu::FileNameProvider m_fileNameProvider;

    QLabel* m_colorChip = nullptr;
    QLabel* m_title = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_stepLabel = nullptr;
    QToolButton* m_fitButton = nullptr;
    QToolButton* m_realSizeButton = nullptr;
    QToolButton* m_zoomOutButton = nullptr;
    QToolButton* m_zoomInButton = nullptr;
    QLabel* m_zoomLabel = nullptr;
    QToolButton* m_contrastButton = nullptr;
    QToolButton* m_exportButton = nullptr;
    QScrollArea* m_scroll = nullptr;
    ImageView* m_view = nullptr;
    QLabel* m_messageLabel = nullptr;
    QLabel* m_statusLabel = nullptr;
};

} // namespace runlens::widgets::images
