#include "widgets/tensor/heatmapview.h"

#include "models/tensor/tensorcompare.h"

#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>
#include <QThread>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

namespace runlens::widgets::tensor {

namespace {

constexpr double kMinZoom = 1.0 / 64;
constexpr double kMaxZoom = 256;
/// Beyond this many elements (a 256 MiB picture, e.g. 8192 x 8192) no picture is built.
constexpr std::int64_t kMaxElements = std::int64_t(1) << 26;
/// Contents larger than this (in pixels) would overflow the scroll bars' int ranges.
constexpr double kMaxContentPixels = 1e9;
/// From this many pixels per element on, infinite cells get a marker dot.
constexpr double kMarkerZoom = 6;

/// Finite min/max of one row of float32 elements, folded into `lo`/`hi`. Written without branches and with
/// a separate loop for rows of adjacent floats so the compiler can vectorise it.
template<std::int64_t kStride>
void foldFiniteRange(const std::byte* source, std::int64_t stride, std::int64_t count, float& lo, float& hi)
{
    const std::int64_t step = kStride > 0 ? kStride : stride;
    float l = lo;
    float h = hi;
    for (std::int64_t c = 0; c < count; ++c) {
        float v;
        std::memcpy(&v, source + c * step, sizeof(float));
        // NaN and infinities stay out: they would flatten every finite value into one colour.
        const bool finite = std::abs(v) <= std::numeric_limits<float>::max();
        l = finite && v < l ? v : l;
        h = finite && v > h ? v : h;
    }
    lo = l;
    hi = h;
}

/// Colours of one row of float32 elements through the table: the loop the benchmark measures.
template<std::int64_t kStride>
void mapFloatRow(const std::byte* source, std::int64_t stride, std::int64_t count, float lo, float scale,
                 const QRgb* table, QRgb nan, QRgb* out)
{
    const std::int64_t step = kStride > 0 ? kStride : stride;
    for (std::int64_t c = 0; c < count; ++c) {
        float v;
        std::memcpy(&v, source + c * step, sizeof(float));
        float t = (v - lo) * scale;
        t = t > 0.f ? t : 0.f; // also NaN -> 0, drawn in the NaN colour below
        t = t < 255.f ? t : 255.f;
        const QRgb colour = table[int(t)];
        out[c] = v != v ? nan : colour;
    }
}

/// Runs `work(firstRow, endRow, block)` over blocks of rows, in parallel when the picture is large enough to
/// repay the threads; returns the number of blocks.
template<typename Work> int forRowBlocks(std::int64_t rows, std::int64_t columns, const Work& work)
{
    constexpr std::int64_t kParallelElements = std::int64_t(1) << 18;
    const int threads = std::max(1, QThread::idealThreadCount());
    const int blocks = rows * columns >= kParallelElements ? int(std::min<std::int64_t>(threads, rows)) : 1;
    if (blocks == 1) {
        work(0, rows, 0);
        return 1;
    }
    std::vector<int> ids(static_cast<size_t>(blocks));
    std::iota(ids.begin(), ids.end(), 0);
    QtConcurrent::blockingMap(ids, [&](int block) { work(rows * block / blocks, rows * (block + 1) / blocks, block); });
    return blocks;
}

} // namespace

HeatmapView::HeatmapView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
}

HeatmapView::~HeatmapView() = default;

QRgb HeatmapView::nanColor()
{
    return qRgb(0xff, 0x00, 0xff);
}

QRgb HeatmapView::infMarkerColor()
{
    return qRgb(0xff, 0x80, 0x00);
}

void HeatmapView::setTensor(const models::tensor::Tensor& view)
{
    m_tensor = {};
    m_rows = m_columns = 0;
    m_message.clear();
    if (view.rank() != 1 && view.rank() != 2)
        m_message = tr("A heatmap shows one or two dimensions; choose the row and column dimensions of the slice.");
    else if (!models::tensor::viewInsideData(view))
        m_message = tr("The data of %1 is shorter than its shape needs.").arg(view.name);
    else if (view.elementCount() > kMaxElements)
        m_message = tr("%L1 elements are too many to draw; slice a smaller part.").arg(view.elementCount());
    if (m_message.isEmpty()) {
        m_tensor = view;
        m_rows = view.rank() == 2 ? view.shape[0] : 1;
        m_columns = view.rank() == 2 ? view.shape[1] : view.shape[0];
        if (m_rows == 0 || m_columns == 0)
            m_rows = m_columns = 0;
    }
    m_sliceRangeValid = false;
    m_hoverRow = m_hoverColumn = -1;
    m_overlayText.clear();
    invalidateImage();
    updateScrollBars();
}

void HeatmapView::setColorMap(ColorMap map)
{
    if (map == m_colorMap)
        return;
    m_colorMap = map;
    invalidateImage();
}

void HeatmapView::setScale(Scale scale)
{
    if (scale == m_scale)
        return;
    m_scale = scale;
    invalidateImage();
}

void HeatmapView::setFixedRange(double lo, double hi)
{
    if (lo > hi)
        std::swap(lo, hi);
    m_fixedLo = lo;
    m_fixedHi = hi;
    if (m_scale == Scale::Fixed)
        invalidateImage();
}

void HeatmapView::invalidateImage()
{
    m_imageValid = false;
    m_image = QImage();
    viewport()->update();
}

std::int64_t HeatmapView::rowStride() const
{
    return m_tensor.rank() == 2 ? m_tensor.strides[0] : 0;
}

std::int64_t HeatmapView::columnStride() const
{
    return m_tensor.rank() == 2 ? m_tensor.strides[1] : (m_tensor.rank() == 1 ? m_tensor.strides[0] : 0);
}

double HeatmapView::elementValue(std::int64_t row, std::int64_t column) const
{
    if (row < 0 || column < 0 || row >= m_rows || column >= m_columns)
        return std::numeric_limits<double>::quiet_NaN();
    const std::byte* p = m_tensor.data->data() + m_tensor.offset + row * rowStride() + column * columnStride();
    return models::tensor::loadElement(p, m_tensor.dtype, m_tensor.swap);
}

bool HeatmapView::isFastFloat() const
{
    return m_tensor.dtype == models::tensor::DType::Float32 && !m_tensor.swap;
}

std::pair<double, double> HeatmapView::shownRange() const
{
    double lo = m_fixedLo;
    double hi = m_fixedHi;
    if (m_scale == Scale::Slice) {
        if (!m_sliceRangeValid) {
            computeSliceRange();
            m_sliceRangeValid = true;
        }
        lo = m_sliceLo;
        hi = m_sliceHi;
    }
    if (m_colorMap == ColorMap::Diverging) {
        // Zero sits in the white middle so that the sign reads at a glance.
        const double extent = std::max(std::abs(lo), std::abs(hi));
        return { -extent, extent };
    }
    return { lo, hi };
}

void HeatmapView::computeSliceRange() const
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    if (m_rows > 0 && m_columns > 0) {
        const std::byte* base = m_tensor.data->data() + m_tensor.offset;
        const std::int64_t rs = rowStride();
        const std::int64_t cs = columnStride();
        const bool fast = isFastFloat();
        const models::tensor::DType type = m_tensor.dtype;
        const bool swap = m_tensor.swap;
        const std::int64_t columns = m_columns;
        std::vector<std::pair<double, double>> parts(size_t(std::max(1, QThread::idealThreadCount())), { lo, hi });
        const int blocks = forRowBlocks(m_rows, m_columns, [&](std::int64_t r0, std::int64_t r1, int block) {
            double blockLo = lo;
            double blockHi = hi;
            if (fast) {
                float flo = std::numeric_limits<float>::infinity();
                float fhi = -std::numeric_limits<float>::infinity();
                for (std::int64_t r = r0; r < r1; ++r) {
                    if (cs == 4)
                        foldFiniteRange<4>(base + r * rs, cs, columns, flo, fhi);
                    else
                        foldFiniteRange<0>(base + r * rs, cs, columns, flo, fhi);
                }
                blockLo = flo;
                blockHi = fhi;
            } else {
                for (std::int64_t r = r0; r < r1; ++r) {
                    for (std::int64_t c = 0; c < columns; ++c) {
                        const double v = models::tensor::loadElement(base + r * rs + c * cs, type, swap);
                        if (std::isfinite(v)) {
                            blockLo = std::min(blockLo, v);
                            blockHi = std::max(blockHi, v);
                        }
                    }
                }
            }
            parts[size_t(block)] = { blockLo, blockHi };
        });
        for (int block = 0; block < blocks; ++block) {
            lo = std::min(lo, parts[size_t(block)].first);
            hi = std::max(hi, parts[size_t(block)].second);
        }
    }
    if (lo > hi) // no finite element
        lo = hi = 0;
    m_sliceLo = lo;
    m_sliceHi = hi;
}

void HeatmapView::ensureImage() const
{
    if (m_imageValid)
        return;
    m_imageValid = true;
    m_image = QImage();
    if (m_rows == 0 || m_columns == 0)
        return;
    QImage image(int(m_columns), int(m_rows), QImage::Format_RGB32);
    if (image.isNull())
        return;
    const auto [lo, hi] = shownRange();
    const auto& table = colorTable(m_colorMap);
    const QRgb nan = nanColor();
    // 256 equal bins over [lo, hi]; a single-valued range puts everything in the middle of the map.
    const bool flat = !(hi > lo);
    const double scale = flat ? 0.0 : 256.0 / (hi - lo);
    const double origin = flat ? lo - 128.0 : lo;
    const double offset = flat ? 128.0 : 0.0;
    const std::byte* base = m_tensor.data->data() + m_tensor.offset;
    const std::int64_t rs = rowStride();
    const std::int64_t cs = columnStride();
    const bool fast = isFastFloat() && !flat;
    const models::tensor::DType type = m_tensor.dtype;
    const bool swap = m_tensor.swap;
    const std::int64_t columns = m_columns;
    // Row addresses taken here, on this thread: scanLine() may detach, which must not happen in the workers.
    uchar* bits = image.bits();
    const qsizetype bytesPerLine = image.bytesPerLine();
    forRowBlocks(m_rows, m_columns, [&](std::int64_t r0, std::int64_t r1, int) {
        for (std::int64_t r = r0; r < r1; ++r) {
            auto* out = reinterpret_cast<QRgb*>(bits + r * bytesPerLine);
            const std::byte* row = base + r * rs;
            if (fast) {
                if (cs == 4)
                    mapFloatRow<4>(row, cs, columns, float(lo), float(scale), table.data(), nan, out);
                else
                    mapFloatRow<0>(row, cs, columns, float(lo), float(scale), table.data(), nan, out);
                continue;
            }
            for (std::int64_t c = 0; c < columns; ++c) {
                const double v = models::tensor::loadElement(row + c * cs, type, swap);
                if (std::isnan(v)) {
                    out[c] = nan;
                    continue;
                }
                const double t = flat ? (std::isinf(v) ? (v > 0 ? 255.0 : 0.0) : offset) : (v - origin) * scale;
                const int entry = t <= 0 ? 0 : (t >= 255 ? 255 : int(t));
                out[c] = table[size_t(entry)];
            }
        }
    });
    m_image = std::move(image);
}

QImage HeatmapView::renderImage() const
{
    ensureImage();
    return m_image;
}

QImage HeatmapView::colorLegend() const
{
    const auto [lo, hi] = shownRange();
    const QFontMetrics metrics(font());
    const int width = 256;
    const int barHeight = 14;
    QImage image(width, barHeight + metrics.height() + 4, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.drawImage(0, 0, colorBar(m_colorMap, QSize(width, barHeight)));
    painter.setPen(palette().color(QPalette::WindowText));
    painter.setFont(font());
    const QRect textRect(0, barHeight + 2, width, metrics.height());
    painter.drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, QString::number(lo, 'g', 4));
    painter.drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, QString::number(hi, 'g', 4));
    return image;
}

QPointF HeatmapView::origin() const
{
    // Contents smaller than the viewport are centred; larger ones follow the scroll bars.
    const QSize area = viewport()->size();
    const double width = m_columns * m_zoom;
    const double height = m_rows * m_zoom;
    const double x = width < area.width() ? (area.width() - width) / 2 : -horizontalScrollBar()->value();
    const double y = height < area.height() ? (area.height() - height) / 2 : -verticalScrollBar()->value();
    return { std::floor(x), std::floor(y) };
}

void HeatmapView::updateScrollBars()
{
    const QSize area = viewport()->size();
    const int width = int(std::ceil(m_columns * m_zoom));
    const int height = int(std::ceil(m_rows * m_zoom));
    horizontalScrollBar()->setRange(0, std::max(0, width - area.width()));
    horizontalScrollBar()->setPageStep(area.width());
    horizontalScrollBar()->setSingleStep(std::max(1, int(m_zoom)));
    verticalScrollBar()->setRange(0, std::max(0, height - area.height()));
    verticalScrollBar()->setPageStep(area.height());
    verticalScrollBar()->setSingleStep(std::max(1, int(m_zoom)));
    viewport()->update();
}

void HeatmapView::setZoom(double pixelsPerElement)
{
    setZoomAround(pixelsPerElement, QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0));
}

void HeatmapView::setZoomAround(double pixelsPerElement, QPointF viewportPos)
{
    const std::int64_t longest = std::max<std::int64_t>({ m_rows, m_columns, 1 });
    pixelsPerElement = std::clamp(pixelsPerElement, kMinZoom,
                                  std::max(kMinZoom, std::min(kMaxZoom, kMaxContentPixels / double(longest))));
    if (!std::isfinite(pixelsPerElement) || pixelsPerElement == m_zoom)
        return;
    const QPointF before = origin();
    const double elementX = (viewportPos.x() - before.x()) / m_zoom;
    const double elementY = (viewportPos.y() - before.y()) / m_zoom;
    m_zoom = pixelsPerElement;
    updateScrollBars();
    // Keep the element under the cursor where it was.
    horizontalScrollBar()->setValue(int(std::lround(elementX * m_zoom - viewportPos.x())));
    verticalScrollBar()->setValue(int(std::lround(elementY * m_zoom - viewportPos.y())));
    viewport()->update();
    emit zoomChanged(m_zoom);
}

void HeatmapView::zoomToFit()
{
    if (m_rows == 0 || m_columns == 0)
        return;
    const QSize area = viewport()->size();
    const double fit = std::min(area.width() / double(m_columns), area.height() / double(m_rows));
    setZoom(fit > 0 ? fit : 1);
}

void HeatmapView::zoomToPixels()
{
    setZoom(1.0 / devicePixelRatioF());
}

bool HeatmapView::elementAt(QPoint viewportPos, std::int64_t* row, std::int64_t* column) const
{
    if (m_rows == 0 || m_columns == 0)
        return false;
    const QPointF o = origin();
    const double x = (viewportPos.x() + 0.5 - o.x()) / m_zoom;
    const double y = (viewportPos.y() + 0.5 - o.y()) / m_zoom;
    if (x < 0 || y < 0 || x >= double(m_columns) || y >= double(m_rows))
        return false;
    if (row)
        *row = std::int64_t(y);
    if (column)
        *column = std::int64_t(x);
    return true;
}

QPointF HeatmapView::elementCenter(std::int64_t row, std::int64_t column) const
{
    const QPointF o = origin();
    return { o.x() + (column + 0.5) * m_zoom, o.y() + (row + 0.5) * m_zoom };
}

void HeatmapView::paintEvent(QPaintEvent* event)
{
    QPainter painter(viewport());
    painter.fillRect(event->rect(), palette().color(QPalette::Base));
    ensureImage();
    if (m_image.isNull()) {
        if (!m_message.isEmpty()) {
            painter.setPen(palette().color(QPalette::PlaceholderText));
            painter.drawText(viewport()->rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                             m_message);
        }
        return;
    }
    const QPointF o = origin();
    const QSize area = viewport()->size();
    // Only the visible elements are drawn, scaled without smoothing so every element stays a sharp block.
    const auto first
        = [&](double start) { return std::max<std::int64_t>(0, std::int64_t(std::floor(-start / m_zoom))); };
    const std::int64_t c0 = first(o.x());
    const std::int64_t r0 = first(o.y());
    const std::int64_t c1 = std::min<std::int64_t>(m_columns, std::int64_t(std::ceil((area.width() - o.x()) / m_zoom)));
    const std::int64_t r1 = std::min<std::int64_t>(m_rows, std::int64_t(std::ceil((area.height() - o.y()) / m_zoom)));
    if (c1 <= c0 || r1 <= r0)
        return;
    const QRectF target(o.x() + c0 * m_zoom, o.y() + r0 * m_zoom, (c1 - c0) * m_zoom, (r1 - r0) * m_zoom);
    const QRectF source(double(c0), double(r0), double(c1 - c0), double(r1 - r0));
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(target, m_image, source);

    if (m_zoom >= kMarkerZoom && models::tensor::isFloating(m_tensor.dtype)) {
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(infMarkerColor()));
        const double radius = m_zoom / 5;
        for (std::int64_t r = r0; r < r1; ++r) {
            for (std::int64_t c = c0; c < c1; ++c) {
                if (std::isinf(elementValue(r, c)))
                    painter.drawEllipse(elementCenter(r, c), radius, radius);
            }
        }
    }

    if (!m_overlayText.isEmpty()) {
        painter.setRenderHint(QPainter::Antialiasing, false);
        const QFontMetrics metrics(font());
        QRect box = metrics.boundingRect(m_overlayText).adjusted(-4, -2, 4, 2);
        box.moveTopLeft(m_overlayPos + QPoint(14, 14));
        if (box.right() > area.width())
            box.moveRight(m_overlayPos.x() - 8);
        if (box.bottom() > area.height())
            box.moveBottom(m_overlayPos.y() - 8);
        painter.setPen(palette().color(QPalette::ToolTipText));
        painter.setBrush(palette().color(QPalette::ToolTipBase));
        painter.drawRect(box);
        painter.drawText(box, Qt::AlignCenter, m_overlayText);
    }
}

void HeatmapView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void HeatmapView::scrollContentsBy(int, int)
{
    viewport()->update();
}

void HeatmapView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        if (steps != 0)
            setZoomAround(m_zoom * std::pow(1.25, steps), event->position());
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void HeatmapView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_dragging = true;
        m_dragStart = event->position().toPoint();
        m_dragScrollStart = QPoint(horizontalScrollBar()->value(), verticalScrollBar()->value());
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QAbstractScrollArea::mousePressEvent(event);
}

void HeatmapView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_dragging) {
        const QPoint moved = pos - m_dragStart;
        horizontalScrollBar()->setValue(m_dragScrollStart.x() - moved.x());
        verticalScrollBar()->setValue(m_dragScrollStart.y() - moved.y());
    }
    updateHover(pos);
    event->accept();
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && m_dragging) {
        m_dragging = false;
        viewport()->unsetCursor();
        event->accept();
        return;
    }
    QAbstractScrollArea::mouseReleaseEvent(event);
}

void HeatmapView::leaveEvent(QEvent* event)
{
    QAbstractScrollArea::leaveEvent(event);
    clearHover();
}

void HeatmapView::clearHover()
{
    const bool wasHovering = m_hoverRow >= 0;
    m_hoverRow = m_hoverColumn = -1;
    if (!m_overlayText.isEmpty()) {
        m_overlayText.clear();
        viewport()->update();
    }
    if (wasHovering)
        emit hoverLeft();
}

void HeatmapView::updateHover(QPoint viewportPos)
{
    std::int64_t row = -1;
    std::int64_t column = -1;
    if (!elementAt(viewportPos, &row, &column)) {
        clearHover();
        return;
    }
    m_overlayPos = viewportPos;
    if (row == m_hoverRow && column == m_hoverColumn) {
        viewport()->update();
        return;
    }
    m_hoverRow = row;
    m_hoverColumn = column;
    const double value = elementValue(row, column);
    const QString position
        = m_tensor.rank() == 2 ? QStringLiteral("%1, %2").arg(row).arg(column) : QString::number(column);
    m_overlayText = QStringLiteral("[%1] = %2").arg(position, QString::number(value, 'g', 7));
    viewport()->update();
    emit hovered(row, column, value);
}

} // namespace runlens::widgets::tensor
