#include "widgets/images/imageview.h"

#include "widgets/common/chartpalette.h"
#include "widgets/images/imagedecoding.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::images {

namespace {

constexpr int kCheckerSize = 8;

int scaled(int length, double zoom)
{
    return std::max(1, int(std::ceil(length * zoom)));
}

} // namespace

ImageView::ImageView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ImageView::setImages(const QList<QImage>& shown, const QList<QImage>& originals)
{
    m_shown = shown;
    m_originals = originals.size() == shown.size() ? originals : shown;
    updateGeometryForZoom();
    update();
}

void ImageView::setFitToView(bool fit)
{
    if (fit == m_fit)
        return;
    m_fit = fit;
    updateGeometryForZoom();
    update();
    emit zoomChanged();
}

void ImageView::setZoom(double zoom)
{
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    if (!m_fit && zoom == m_zoom)
        return;
    m_fit = false;
    m_zoom = zoom;
    updateGeometryForZoom();
    update();
    emit zoomChanged();
}

void ImageView::zoomIn()
{
    setZoom(effectiveZoom() * kZoomStep);
}

void ImageView::zoomOut()
{
    setZoom(effectiveZoom() / kZoomStep);
}

QSize ImageView::contentSize(double zoom) const
{
    if (m_shown.isEmpty())
        return { 2 * kMargin, 2 * kMargin };
    int width = 2 * kMargin + kGap * int(m_shown.size() - 1);
    int height = 0;
    for (const QImage& image : m_shown) {
        width += scaled(image.width(), zoom);
        height = std::max(height, scaled(image.height(), zoom));
    }
    return { width, height + 2 * kMargin };
}

double ImageView::effectiveZoom() const
{
    if (!m_fit)
        return m_zoom;
    if (m_shown.isEmpty())
        return 1.0;
    double totalWidth = 0.0;
    double maxHeight = 0.0;
    for (const QImage& image : m_shown) {
        totalWidth += std::max(1, image.width());
        maxHeight = std::max(maxHeight, double(std::max(1, image.height())));
    }
    const double availableWidth = width() - 2 * kMargin - kGap * (m_shown.size() - 1);
    const double availableHeight = height() - 2 * kMargin;
    const double zoom = std::min(availableWidth / totalWidth, availableHeight / maxHeight);
    return std::clamp(zoom, kMinZoom, kMaxFitScale);
}

QRect ImageView::imageRect(int index) const
{
    if (index < 0 || index >= m_shown.size())
        return {};
    const double zoom = effectiveZoom();
    const QSize content = contentSize(zoom);
    int x = std::max(kMargin, (width() - content.width()) / 2 + kMargin);
    for (int i = 0; i < index; ++i)
        x += scaled(m_shown.at(i).width(), zoom) + kGap;
    const QImage& image = m_shown.at(index);
    return { x, kMargin, scaled(image.width(), zoom), scaled(image.height(), zoom) };
}

std::pair<int, QPoint> ImageView::pixelAt(QPoint position) const
{
    for (int i = 0; i < m_shown.size(); ++i) {
        const QRect r = imageRect(i);
        if (!r.contains(position))
            continue;
        const QImage& image = m_originals.at(i);
        const int x = std::clamp(int((position.x() - r.left()) * double(image.width()) / r.width()), 0,
                                 std::max(0, image.width() - 1));
        const int y = std::clamp(int((position.y() - r.top()) * double(image.height()) / r.height()), 0,
                                 std::max(0, image.height() - 1));
        return { i, QPoint(x, y) };
    }
    return { -1, {} };
}

QImage ImageView::renderedImage() const
{
    return const_cast<ImageView*>(this)->grab().toImage();
}

QSize ImageView::sizeHint() const
{
    return m_fit ? QSize(320, 240) : contentSize(m_zoom);
}

void ImageView::updateGeometryForZoom()
{
    if (!m_fit)
        resize(contentSize(m_zoom));
    updateGeometry();
}

void ImageView::paintEvent(QPaintEvent* event)
{
    Q_UNUSED(event)
    emit exposed();
    QPainter painter(this);
    const QPalette pal = palette();
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const double zoom = effectiveZoom();
    // Magnified pixels stay square; reduced pictures are smoothed so that they do not alias.
    painter.setRenderHint(QPainter::SmoothPixmapTransform, zoom < 1.0);
    for (int i = 0; i < m_shown.size(); ++i) {
        const QRect r = imageRect(i);
        const QImage& image = m_shown.at(i);
        if (image.hasAlphaChannel()) {
            const QColor light = blendColors(base, text, 0.06);
            const QColor dark = blendColors(base, text, 0.16);
            for (int y = r.top(); y <= r.bottom(); y += kCheckerSize) {
                for (int x = r.left(); x <= r.right(); x += kCheckerSize) {
                    const bool odd = ((x - r.left()) / kCheckerSize + (y - r.top()) / kCheckerSize) % 2;
                    painter.fillRect(QRect(x, y, kCheckerSize, kCheckerSize).intersected(r), odd ? dark : light);
                }
            }
        }
        painter.drawImage(r, image);
        painter.setPen(QPen(blendColors(text, base, 0.82), 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(r).adjusted(-0.5, -0.5, 0.5, 0.5));
    }
}

void ImageView::wheelEvent(QWheelEvent* event)
{
    if (!(event->modifiers() & Qt::ControlModifier) || m_shown.isEmpty()) {
        event->ignore(); // the scroll area or the page scrolls
        return;
    }
    const int delta = event->angleDelta().y();
    if (delta > 0)
        zoomIn();
    else if (delta < 0)
        zoomOut();
    event->accept();
}

void ImageView::mouseMoveEvent(QMouseEvent* event)
{
    const auto [index, pixel] = pixelAt(event->position().toPoint());
    if (index < 0) {
        emit hovered({});
        return;
    }
    const QString where = describePixel(m_originals.at(index), pixel);
    emit hovered(m_shown.size() > 1 ? tr("image %1 · %2").arg(index + 1).arg(where) : where);
}

void ImageView::leaveEvent(QEvent* event)
{
    QWidget::leaveEvent(event);
    emit hovered({});
}

} // namespace runlens::widgets::images
