#include "widgets/projector/projectorscatter.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::projector {

namespace {

constexpr int kMargin = 28; ///< room for the axis titles
constexpr double kHoverRadius = 6.0;
constexpr QRgb kBackground = 0xffffffff;
constexpr QRgb kDefaultColor = 0xff4c78a8;

/// Blends an opaque colour towards white, for points outside a search.
QRgb faded(QRgb color)
{
    auto mix = [](int c) { return (c + 3 * 255) / 4; };
    return qRgb(mix(qRed(color)), mix(qGreen(color)), mix(qBlue(color)));
}

/// Fills a disc of `radius` around (cx, cy), clipped to the image (a square up to radius 1).
void stamp(QImage& image, int cx, int cy, int radius, QRgb color)
{
    const int y0 = std::max(0, cy - radius);
    const int y1 = std::min(image.height() - 1, cy + radius);
    const int limit = radius * radius + radius;
    for (int y = y0; y <= y1; ++y) {
        const int dy = y - cy;
        int half = radius;
        while (half > 0 && half * half + dy * dy > limit)
            --half;
        const int x0 = std::max(0, cx - half);
        const int x1 = std::min(image.width() - 1, cx + half);
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = x0; x <= x1; ++x)
            line[x] = color;
    }
}

/// Few points are drawn large enough to see and click; many small so that clusters keep their shape.
int pointRadius(std::size_t count)
{
    return count <= 2000 ? 3 : count <= 20000 ? 2 : 1;
}

} // namespace

ProjectorScatter::ProjectorScatter(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(240, 160);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void ProjectorScatter::setPoints(std::vector<float> xs, std::vector<float> ys)
{
    m_xs = std::move(xs);
    m_ys = std::move(ys);
    m_ys.resize(m_xs.size());
    m_hovered = -1;
    resetView();
}

void ProjectorScatter::setColors(std::vector<QRgb> colors)
{
    m_colors = std::move(colors);
    invalidate();
}

void ProjectorScatter::setMarks(std::vector<quint8> marks, bool dimUnmatched)
{
    m_marks = std::move(marks);
    m_dimUnmatched = dimUnmatched;
    invalidate();
}

void ProjectorScatter::setSprites(SpriteSheet sheet, std::vector<int> cells)
{
    m_sheet = std::move(sheet);
    m_cells = std::move(cells);
    invalidate();
}

void ProjectorScatter::setShowSprites(bool show)
{
    if (m_showSprites == show)
        return;
    m_showSprites = show;
    invalidate();
}

int ProjectorScatter::spriteSide() const
{
    const QSize cell = m_sheet.cellSize();
    return std::clamp(std::max(cell.width(), cell.height()), 16, 32);
}

void ProjectorScatter::setAxisTitles(const QString& x, const QString& y)
{
    m_xTitle = x;
    m_yTitle = y;
    update();
}

void ProjectorScatter::resetView()
{
    float minX = INFINITY, maxX = -INFINITY, minY = INFINITY, maxY = -INFINITY;
    for (std::size_t i = 0; i < m_xs.size(); ++i) {
        if (!std::isfinite(m_xs[i]) || !std::isfinite(m_ys[i]))
            continue;
        minX = std::min(minX, m_xs[i]);
        maxX = std::max(maxX, m_xs[i]);
        minY = std::min(minY, m_ys[i]);
        maxY = std::max(maxY, m_ys[i]);
    }
    if (!(minX <= maxX)) {
        m_view = QRectF(-1, -1, 2, 2);
    } else {
        const double w = std::max(1e-9, double(maxX - minX));
        const double h = std::max(1e-9, double(maxY - minY));
        m_view = QRectF(minX - 0.04 * w, minY - 0.04 * h, w * 1.08, h * 1.08);
    }
    invalidate();
}

QRectF ProjectorScatter::plotRect(QSize size) const
{
    return QRectF(kMargin, 8, std::max(1, size.width() - kMargin - 8), std::max(1, size.height() - 8 - kMargin));
}

ProjectorScatter::Transform ProjectorScatter::transformFor(QSize size) const
{
    const QRectF plot = plotRect(size);
    Transform t;
    t.sx = plot.width() / std::max(1e-12, m_view.width());
    t.sy = -plot.height() / std::max(1e-12, m_view.height());
    t.ox = plot.left() - m_view.left() * t.sx;
    t.oy = plot.bottom() - m_view.top() * t.sy;
    return t;
}

QPointF ProjectorScatter::pointPosition(int index) const
{
    const Transform t = transformFor(size());
    return { m_xs[std::size_t(index)] * t.sx + t.ox, m_ys[std::size_t(index)] * t.sy + t.oy };
}

int ProjectorScatter::pointAt(QPointF pos) const
{
    const Transform t = transformFor(size());
    int best = -1;
    const double radius = showsSprites() ? spriteSide() * 0.5 : kHoverRadius;
    double bestDistance = radius * radius;
    for (std::size_t i = 0; i < m_xs.size(); ++i) {
        const double dx = m_xs[i] * t.sx + t.ox - pos.x();
        const double dy = m_ys[i] * t.sy + t.oy - pos.y();
        const double d = dx * dx + dy * dy;
        if (d <= bestDistance) {
            bestDistance = d;
            best = int(i);
        }
    }
    return best;
}

QImage ProjectorScatter::render(QSize size, qreal devicePixelRatio) const
{
    const QSize pixels = size * devicePixelRatio;
    QImage image(pixels, QImage::Format_RGB32);
    image.fill(kBackground);
    const Transform t = transformFor(size);
    const double sx = t.sx * devicePixelRatio, sy = t.sy * devicePixelRatio;
    const double ox = t.ox * devicePixelRatio, oy = t.oy * devicePixelRatio;
    const QRect clip
        = QRectF(plotRect(size).topLeft() * devicePixelRatio, plotRect(size).size() * devicePixelRatio).toAlignedRect();
    const int radius = std::max(1, int(std::lround(pointRadius(m_xs.size()) * devicePixelRatio)));
    const bool marked = m_marks.size() == m_xs.size();
    const bool colored = m_colors.size() == m_xs.size();

    if (showsSprites()) {
        // Thumbnails framed in the point's colour; outside a search they show faintly.
        QPainter painter(&image);
        painter.scale(devicePixelRatio, devicePixelRatio);
        painter.setClipRect(plotRect(size));
        const double side = spriteSide();
        for (int pass = 0; pass < 2; ++pass) {
            for (std::size_t i = 0; i < m_xs.size(); ++i) {
                const quint8 mark = marked ? m_marks[i] : quint8(0);
                if ((pass == 1) != (mark != 0))
                    continue;
                const QPointF at(m_xs[i] * t.sx + t.ox, m_ys[i] * t.sy + t.oy);
                const QRgb color = colored ? m_colors[i] : kDefaultColor;
                const QRect cell = i < m_cells.size() ? m_sheet.cellRect(m_cells[i]) : QRect();
                if (cell.isEmpty()) {
                    painter.setOpacity(1.0);
                    painter.setPen(Qt::NoPen);
                    painter.setBrush(QColor(mark == 0 && m_dimUnmatched ? faded(color) : color));
                    painter.drawEllipse(at, 2.5, 2.5);
                    continue;
                }
                const double s = mark ? side + 6 : side;
                const QRectF target(at.x() - s / 2, at.y() - s / 2, s, s);
                if (!target.intersects(plotRect(size)))
                    continue;
                painter.setOpacity(mark == 0 && m_dimUnmatched ? 0.3 : 1.0);
                painter.fillRect(target, Qt::white);
                painter.drawImage(target, m_sheet.image(), cell);
                painter.setPen(QPen(QColor(color), 1.0));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(target.adjusted(0.5, 0.5, -0.5, -0.5));
            }
        }
    }
    // Two passes: ordinary (or dimmed) points first, so marked points are never hidden under them.
    for (int pass = showsSprites() ? 2 : 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < m_xs.size(); ++i) {
            const quint8 mark = marked ? m_marks[i] : quint8(0);
            const bool highlighted = mark != 0;
            if ((pass == 1) != highlighted)
                continue;
            const double px = m_xs[i] * sx + ox;
            const double py = m_ys[i] * sy + oy;
            if (!(px >= clip.left() && px <= clip.right() && py >= clip.top() && py <= clip.bottom()))
                continue;
            QRgb color = colored ? m_colors[i] : kDefaultColor;
            if (!highlighted && m_dimUnmatched)
                color = faded(color);
            stamp(image, int(px), int(py), highlighted ? radius + 1 : radius, color);
        }
    }

    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(devicePixelRatio, devicePixelRatio);
    // Rings around neighbours and the selected point: few, so QPainter is cheap here.
    if (marked) {
        for (std::size_t i = 0; i < m_xs.size(); ++i) {
            if (!(m_marks[i] & (Neighbour | Selected)))
                continue;
            const QPointF p(m_xs[i] * t.sx + t.ox, m_ys[i] * t.sy + t.oy);
            const bool selected = m_marks[i] & Selected;
            painter.setPen(QPen(selected ? QColor(0xd6, 0x27, 0x28) : QColor(0x20, 0x20, 0x20), selected ? 2.0 : 1.2));
            painter.setBrush(Qt::NoBrush);
            const double ring = (showsSprites() ? spriteSide() * 0.5 + 3 : 0.0) + (selected ? 7.0 : 5.0);
            painter.drawEllipse(p, ring, ring);
        }
    }
    const QRectF plot = plotRect(size);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QColor(0xc8, 0xc8, 0xc8));
    painter.drawRect(plot);
    painter.setPen(QColor(0x50, 0x50, 0x50));
    painter.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), kMargin - 6), Qt::AlignCenter, m_xTitle);
    painter.save();
    painter.translate(4, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), kMargin - 6), Qt::AlignCenter, m_yTitle);
    painter.restore();
    return image;
}

void ProjectorScatter::invalidate()
{
    m_cache = QImage();
    update();
}

void ProjectorScatter::paintEvent(QPaintEvent*)
{
    const qreal dpr = devicePixelRatioF();
    if (m_cache.isNull() || m_cache.size() != size() * dpr) {
        m_cache = render(size(), dpr);
        m_cache.setDevicePixelRatio(dpr);
    }
    QPainter painter(this);
    painter.drawImage(0, 0, m_cache);
    if (m_hovered >= 0 && m_hovered < pointCount()) {
        const QPointF p = pointPosition(m_hovered);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(p, 6.0, 6.0);
        const QString label = m_labelProvider ? m_labelProvider(m_hovered) : QString::number(m_hovered);
        if (!label.isEmpty()) {
            const QFontMetrics metrics(font());
            QRectF box = metrics.boundingRect(label).adjusted(-5, -3, 5, 3);
            box.moveTopLeft(p + QPointF(10, -box.height() - 4));
            if (box.right() > width() - 2)
                box.moveRight(p.x() - 10);
            if (box.top() < 2)
                box.moveTop(p.y() + 10);
            painter.setPen(QColor(0x40, 0x40, 0x40));
            painter.setBrush(QColor(255, 255, 240, 235));
            painter.drawRoundedRect(box, 3, 3);
            painter.setPen(Qt::black);
            painter.drawText(box, Qt::AlignCenter, label);
        }
    }
}

void ProjectorScatter::resizeEvent(QResizeEvent* event)
{
    m_cache = QImage();
    QWidget::resizeEvent(event);
}

void ProjectorScatter::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragging) {
        const Transform t = transformFor(size());
        const QPointF delta = event->position() - QPointF(m_pressPos);
        m_view = m_pressView.translated(-delta.x() / t.sx, -delta.y() / t.sy);
        invalidate();
        return;
    }
    const int hovered = pointAt(event->position());
    if (hovered != m_hovered) {
        m_hovered = hovered;
        update();
    }
}

void ProjectorScatter::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_pressPos = event->position().toPoint();
    m_pressView = m_view;
    m_dragging = false;
    const int index = pointAt(event->position());
    if (index >= 0)
        emit pointClicked(index);
    else
        m_dragging = true;
}

void ProjectorScatter::mouseReleaseEvent(QMouseEvent*)
{
    m_dragging = false;
}

void ProjectorScatter::mouseDoubleClickEvent(QMouseEvent*)
{
    resetView();
}

void ProjectorScatter::wheelEvent(QWheelEvent* event)
{
    const Transform t = transformFor(size());
    const QPointF at = event->position();
    const QPointF data((at.x() - t.ox) / t.sx, (at.y() - t.oy) / t.sy);
    const double factor = std::pow(0.85, event->angleDelta().y() / 120.0);
    m_view = QRectF(data.x() - (data.x() - m_view.left()) * factor, data.y() - (data.y() - m_view.top()) * factor,
                    m_view.width() * factor, m_view.height() * factor);
    invalidate();
}

void ProjectorScatter::leaveEvent(QEvent*)
{
    if (m_hovered >= 0) {
        m_hovered = -1;
        update();
    }
}

} // namespace runlens::widgets::projector
