#include "widgets/images/imagecard.h"

#include "widgets/common/charticons.h"
#include "widgets/common/chartpalette.h"
#include "widgets/images/cardparts.h"
#include "widgets/images/imagedecodecache.h"
#include "widgets/images/imageview.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QSlider>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::images {

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

} // namespace

ImageCard::ImageCard(ImageDecodeCache* cache, const QString& run, const QString& tag, const QColor& runColor,
                     QWidget* parent)
    : QWidget(parent)
    , m_cache(cache)
    , m_run(run)
    , m_tag(tag)
    , m_runColor(runColor)
{
    setObjectName(QStringLiteral("imageCard:%1:%2").arg(run, tag));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    buildUi();
    if (m_cache)
        connect(m_cache, &ImageDecodeCache::decoded, this, &ImageCard::onDecoded);
    showCurrentStep();
}

ImageCard::~ImageCard() = default;

void ImageCard::setRunLabel(const QString& label)
{
    setCardHeaderRun(this, label, tr("Run %1, image tag %2").arg(label, m_tag));
}

void ImageCard::buildUi()
{
    auto* header = makeCardHeader(this, m_run, m_tag, tr("Run %1, image tag %2").arg(m_run, m_tag), &m_colorChip);
    m_colorChip->setPixmap(runColorChip(m_runColor));

    m_slider = makeStepSlider(this,
                              tr("Choose the step to show (only steps with images are on the slider; arrow "
                                 "keys move one step)"));
    connect(m_slider, &QSlider::valueChanged, this, [this] { showCurrentStep(); });
    m_stepLabel = new QLabel(this);
    m_stepLabel->setObjectName(QStringLiteral("stepLabel"));
    m_stepLabel->setMinimumWidth(m_stepLabel->fontMetrics().horizontalAdvance(QStringLiteral("step 000000 · 000/000")));
    auto* stepRow = new QHBoxLayout;
    stepRow->setSpacing(6);
    stepRow->addWidget(m_slider, 1);
    stepRow->addWidget(m_stepLabel);

    m_fitButton = toolButton(tr("Fit"), tr("Scale the images to fit the card"), this);
    m_fitButton->setObjectName(QStringLiteral("fit"));
    m_fitButton->setCheckable(true);
    m_fitButton->setChecked(true);
    m_fitButton->setIcon(chartIcon(QStringLiteral("chart-fit")));
    m_realSizeButton = toolButton(tr("1:1"),
                                  tr("Show the images at their real size (one screen pixel per image "
                                     "pixel); scroll to see the rest"),
                                  this);
    m_realSizeButton->setObjectName(QStringLiteral("realSize"));
    m_zoomOutButton = toolButton(QStringLiteral("−"), tr("Zoom out (Ctrl+wheel over the image)"), this);
    m_zoomOutButton->setObjectName(QStringLiteral("zoomOut"));
    m_zoomInButton = toolButton(QStringLiteral("+"), tr("Zoom in (Ctrl+wheel over the image)"), this);
    m_zoomInButton->setObjectName(QStringLiteral("zoomIn"));
    m_zoomLabel = new QLabel(this);
    m_zoomLabel->setObjectName(QStringLiteral("zoomLabel"));
    m_zoomLabel->setForegroundRole(QPalette::PlaceholderText);
    m_zoomLabel->setToolTip(tr("Screen pixels per image pixel"));
    m_contrastButton = toolButton(tr("Auto contrast"),
                                  tr("Stretch the shown images' values to the full range, so that dark or "
                                     "low-contrast pictures become readable (display only; hover still reports "
                                     "the recorded values)"),
                                  this);
    m_contrastButton->setObjectName(QStringLiteral("autoContrast"));
    m_contrastButton->setCheckable(true);
    m_exportButton = toolButton(tr("PNG"), tr("Export the shown images as a PNG file, at their real size"), this);
    m_exportButton->setObjectName(QStringLiteral("exportPng"));
    m_exportButton->setIcon(chartIcon(QStringLiteral("chart-export-image")));
    m_exportButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto* tools = new QHBoxLayout;
    tools->setSpacing(2);
    tools->addWidget(m_fitButton);
    tools->addWidget(m_realSizeButton);
    tools->addWidget(m_zoomOutButton);
    tools->addWidget(m_zoomInButton);
    tools->addWidget(m_zoomLabel);
    tools->addStretch(1);
    tools->addWidget(m_contrastButton);
    tools->addWidget(m_exportButton);

    m_view = new ImageView;
    m_view->setObjectName(QStringLiteral("imageView"));
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("imageScroll"));
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setAlignment(Qt::AlignCenter);
    m_scroll->setBackgroundRole(QPalette::Base);
    m_scroll->setWidget(m_view);
    m_scroll->setMinimumHeight(60);

    m_messageLabel = new QLabel(this);
    m_messageLabel->setObjectName(QStringLiteral("message"));
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette alert = m_messageLabel->palette();
    alert.setColor(QPalette::WindowText, alertColor());
    m_messageLabel->setPalette(alert);
    m_messageLabel->hide();
    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("status"));
    m_statusLabel->setForegroundRole(QPalette::PlaceholderText);
    m_statusLabel->setMinimumWidth(20);

    connect(m_fitButton, &QToolButton::clicked, this, [this] { m_view->setFitToView(true); });
    connect(m_realSizeButton, &QToolButton::clicked, this, [this] { m_view->setZoom(1.0); });
    connect(m_zoomInButton, &QToolButton::clicked, m_view, &ImageView::zoomIn);
    connect(m_zoomOutButton, &QToolButton::clicked, m_view, &ImageView::zoomOut);
    connect(m_contrastButton, &QToolButton::toggled, this, &ImageCard::setAutoContrast);
    connect(m_exportButton, &QToolButton::clicked, this, [this] { requestExport(); });
    connect(m_view, &ImageView::zoomChanged, this, &ImageCard::updateZoomControls);
    connect(m_view, &ImageView::exposed, this, &ImageCard::requestMissing);
    connect(m_view, &ImageView::hovered, this, [this](const QString& text) {
        m_hoverText = text;
        updateStatus();
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 6);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addLayout(stepRow);
    layout->addLayout(tools);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_messageLabel);
    layout->addWidget(m_statusLabel);
    updateZoomControls();
}

void ImageCard::setRunColor(const QColor& color)
{
    if (color == m_runColor)
        return;
    m_runColor = color;
    m_colorChip->setPixmap(runColorChip(color));
}

void ImageCard::setSeries(const models::summary::ImageSeries& series)
{
    const int previousCount = int(m_series.items.size());
    const int index = indexAfterUpdate(series.items, previousCount, m_slider->value(), currentStep());
    m_series = series;
    const int count = int(m_series.items.size());
    m_shownIndex = -1;
    resetStepSlider(m_slider, count, index);
    showCurrentStep();
}

int ImageCard::currentIndex() const
{
    return m_series.items.empty() ? -1 : m_slider->value();
}

void ImageCard::setCurrentIndex(int index)
{
    m_slider->setValue(index);
}

qint64 ImageCard::currentStep() const
{
    return stepAtIndex(m_series.items, currentIndex());
}

void ImageCard::setAutoContrast(bool enabled)
{
    if (enabled == m_autoContrast)
        return;
    m_autoContrast = enabled;
    const QSignalBlocker blocker(m_contrastButton);
    m_contrastButton->setChecked(enabled);
    m_shownIndex = -1;
    showCurrentStep();
}

QString ImageCard::cacheKey(const models::summary::SummaryImage& item, int index) const
{
    const QByteArray& bytes = item.encoded.at(index);
    return QStringLiteral("%1\x1f%2\x1f%3\x1f%4\x1f%5\x1f%6")
        .arg(m_run, m_tag)
        .arg(item.step)
        .arg(item.wallTime, 0, 'g', 17)
        .arg(index)
        .arg(bytes.size());
}

void ImageCard::showCurrentStep()
{
    const int index = currentIndex();
    m_missingKeys.clear();
    if (index < 0) {
        m_errors.clear();
        m_stepEntries.clear();
        m_shownIndex = -1;
        m_view->setImages({});
        updateStepLabel();
        updateStatus();
        return;
    }
    const models::summary::SummaryImage& item = m_series.items.at(size_t(index));
    QList<QImage> shown;
    QList<QImage> originals;
    QStringList errors;
    QHash<QString, ImageDecodeCache::Entry> current;
    for (int i = 0; i < item.encoded.size(); ++i) {
        const QString key = cacheKey(item, i);
        const ImageDecodeCache::Entry* entry = m_cache ? m_cache->find(key, m_autoContrast) : nullptr;
        if (!entry) {
            // Decoded for this card but evicted since by other cards' images.
            const auto held = m_stepEntries.constFind(key);
            if (held != m_stepEntries.cend()
                && (!m_autoContrast || !held->decoded.isValid() || !held->stretched.isNull()))
                entry = &*held;
        }
        if (entry)
            current.insert(key, *entry);
        if (!entry) {
            m_missingKeys.insert(key);
            continue;
        }
        if (!entry->decoded.isValid()) {
            errors << (item.encoded.size() > 1 ? tr("step %1, image %2: %3").arg(item.step).arg(i + 1)
                                               : tr("step %1: %2").arg(item.step))
                          .arg(entry->decoded.error);
            continue;
        }
        originals << entry->decoded.image;
        shown << (m_autoContrast ? entry->stretched : entry->decoded.image);
    }
    m_stepEntries = current;
    if (item.encoded.isEmpty())
        errors << tr("step %1: no image data was recorded").arg(item.step);
    if (m_missingKeys.isEmpty()) {
        m_view->setImages(shown, originals);
        m_errors = errors;
        m_shownIndex = index;
    }
    updateStepLabel();
    updateStatus();
    if (!m_missingKeys.isEmpty() && !m_view->visibleRegion().isEmpty())
        requestMissing();
}

void ImageCard::requestMissing()
{
    if (m_missingKeys.isEmpty() || !m_cache)
        return;
    const int index = currentIndex();
    if (index < 0)
        return;
    const models::summary::SummaryImage& item = m_series.items.at(size_t(index));
    for (int i = 0; i < item.encoded.size(); ++i) {
        const QString key = cacheKey(item, i);
        if (m_missingKeys.contains(key))
            m_cache->request(key, item.encoded.at(i), m_autoContrast);
    }
}

void ImageCard::onDecoded(const QString& key)
{
    if (!m_missingKeys.contains(key))
        return;
    m_missingKeys.remove(key);
    if (const ImageDecodeCache::Entry* entry = m_cache ? m_cache->find(key, false) : nullptr)
        m_stepEntries.insert(key, *entry);
    if (m_missingKeys.isEmpty())
        showCurrentStep();
}

void ImageCard::updateStepLabel()
{
    const int index = currentIndex();
    const int count = int(m_series.items.size());
    m_stepLabel->setText(index < 0 ? tr("no images")
                                   : tr("step %1 · %2/%3").arg(currentStep()).arg(index + 1).arg(count));
}

void ImageCard::updateZoomControls()
{
    const bool fit = m_view->fitToView();
    m_fitButton->setChecked(fit);
    m_scroll->setWidgetResizable(fit);
    if (!fit)
        m_view->resize(m_view->contentSize(m_view->effectiveZoom()));
    m_zoomLabel->setText(QStringLiteral("%1 %").arg(std::lround(m_view->effectiveZoom() * 100.0)));
}

QString ImageCard::message() const
{
    return m_errors.join(QLatin1Char('\n'));
}

QString ImageCard::statusText() const
{
    return m_statusLabel->text();
}

void ImageCard::updateStatus()
{
    const QString message = this->message();
    m_messageLabel->setText(message);
    m_messageLabel->setVisible(!message.isEmpty());
    m_exportButton->setEnabled(m_view->imageCount() > 0);
    if (!m_hoverText.isEmpty()) {
        m_statusLabel->setText(m_hoverText);
        return;
    }
    if (!m_missingKeys.isEmpty()) {
        m_statusLabel->setText(tr("decoding…"));
        return;
    }
    const QList<QImage> images = m_view->shownImages();
    if (images.isEmpty()) {
        m_statusLabel->setText(QString());
        return;
    }
    QSize size = images.first().size();
    const bool sameSize = std::all_of(images.begin(), images.end(), [&](const QImage& i) { return i.size() == size; });
    const QString dims = sameSize ? tr("%1 × %2 px").arg(size.width()).arg(size.height()) : tr("mixed sizes");
    m_statusLabel->setText(images.size() > 1 ? tr("%n images · %1", nullptr, int(images.size())).arg(dims) : dims);
    if (m_view->isVisible())
        m_zoomLabel->setText(QStringLiteral("%1 %").arg(std::lround(m_view->effectiveZoom() * 100.0)));
}

QImage ImageCard::composedImage() const
{
    const QList<QImage> images = m_view->shownImages();
    if (images.isEmpty())
        return {};
    if (images.size() == 1)
        return images.first();
    int width = ImageView::kGap * int(images.size() - 1);
    int height = 0;
    for (const QImage& image : images) {
        width += image.width();
        height = std::max(height, image.height());
    }
    QImage out(width, height, QImage::Format_ARGB32);
    out.fill(Qt::transparent);
    QPainter painter(&out);
    int x = 0;
    for (const QImage& image : images) {
        painter.drawImage(x, 0, image);
        x += image.width() + ImageView::kGap;
    }
    return out;
}

bool ImageCard::exportPng(const QString& fileName, QString* errorMessage) const
{
    const QImage image = composedImage();
    if (image.isNull()) {
        if (errorMessage)
            *errorMessage = tr("Cannot export %1: step %2 of %3 has no decoded image to save.")
                                .arg(fileName)
                                .arg(currentStep())
                                .arg(m_tag);
        return false;
    }
    if (!image.save(fileName, "PNG")) {
        if (errorMessage)
            *errorMessage = tr("Cannot write %1: check that the folder exists and is writable.").arg(fileName);
        return false;
    }
    return true;
}

QString ImageCard::requestExport()
{
    const QString base
        = ChartExportMenu::safeFileName(QStringLiteral("%1_%2_step%3").arg(m_run, m_tag).arg(currentStep()));
    std::function<QString(const QString&)> provider;
    if (m_fileNameProvider)
        provider
            = [this](const QString& suggested) { return m_fileNameProvider(ChartExporter::Format::Png, suggested); };
    const QString fileName = cardExportFileName(m_exportDirectory, QStandardPaths::PicturesLocation, base,
                                                QStringLiteral(".png"), provider);
    if (fileName.isEmpty())
        return {};
    QString error;
    if (!exportPng(fileName, &error)) {
        emit exportFailed(error);
        return {};
    }
    emit exported(fileName);
    return fileName;
}

void ImageCard::paintEvent(QPaintEvent* event)
{
    Q_UNUSED(event)
    paintCardFrame(this);
}

} // namespace runlens::widgets::images
