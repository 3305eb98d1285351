#include "widgets/timeline/timelineview.h"

#include "models/core/workerpool.h"
#include "widgets/common/theme.h"

#include "models/trace/tracelod.h"
#include "models/trace/tracestore.h"
#include "widgets/timeline/timelinecolors.h"
#include "widgets/timeline/timelineformat.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::timeline {

namespace {
constexpr double kZoomStep = 0.8; ///< one wheel notch
constexpr double kPanFraction = 0.15; ///< Left/Right arrows
// Held W/S/A/D: rates per second that grow with the time held, as in Perfetto. A tap moves as far as
// kTapMs of animation so that single presses still step.
constexpr int kFrameMs = 16;
constexpr double kTapMs = 100;
constexpr double kZoomRate = 1.6; ///< ln(span) change per second when the key goes down
constexpr double kPanRate = 0.8; ///< visible spans per second when the key goes down
constexpr double kAccelerationMs = 400; ///< the rate grows by its initial value every this many ms held
constexpr double kMaxSpeedup = 5;
constexpr int kDragThreshold = 3;
constexpr int kHitTolerancePx = 2;
} // namespace

TimelineView::TimelineView(models::TimeRangeModel* range, QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 120);
    m_scrollBar = new QScrollBar(Qt::Vertical, this);
    m_scrollBar->setSingleStep(TimelineLayout::kSliceRowHeight);
    connect(m_scrollBar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    m_lodWatcher = new QFutureWatcher<std::shared_ptr<const models::trace::TraceLod>>(this);
    connect(m_lodWatcher, &QFutureWatcherBase::finished, this, [this] {
        // Only the index of the current store: an older one finishing late is dropped.
        auto lod = m_lodWatcher->future().resultCount() > 0 ? m_lodWatcher->result() : nullptr;
        if (m_preparing && lod && lod->trackCount() == (m_store ? m_store->tracks().size() : 0))
            setLod(std::move(lod));
    });
    m_keyTimer = new QTimer(this);
    m_keyTimer->setTimerType(Qt::PreciseTimer);
    m_keyTimer->setInterval(kFrameMs);
    connect(m_keyTimer, &QTimer::timeout, this, [this] {
        const double ms = std::clamp(double(m_keyClock.restart()), 1.0, 50.0);
        advanceKeyAnimation(ms);
    });
    setTimeRangeModel(range);
    setWhatsThis(
        tr("W/S zoom, A/D pan (hold to keep going), wheel zooms at the cursor, Shift+wheel pans, drag pans, Shift+drag "
           "selects a range, F fits, M marks, Escape clears, Ctrl+Z undoes a zoom."));
}

TimelineView::~TimelineView()
{
    m_lodWatcher->waitForFinished();
}

void TimelineView::setTimeRangeModel(models::TimeRangeModel* range)
{
    for (auto& c : m_rangeConnections)
        disconnect(c);
    if (!range) {
        if (!m_ownRange)
            m_ownRange = new models::TimeRangeModel(this);
        range = m_ownRange;
    }
    m_range = range;
    connectRange();
    if (m_store && m_range->traceRange() != models::TimeSpan { m_store->startTime(), m_store->endTime() })
        m_range->setTraceRange(m_store->startTime(), m_store->endTime());
    update();
}

void TimelineView::connectRange()
{
    auto repaint = [this] { update(); };
    m_rangeConnections[0] = connect(m_range, &models::TimeRangeModel::visibleRangeChanged, this, repaint);
    m_rangeConnections[1] = connect(m_range, &models::TimeRangeModel::selectionChanged, this,
                                    [this](std::int64_t start, std::int64_t end) {
                                        update();
                                        emit selectionRangeChanged(start, end);
                                    });
    m_rangeConnections[2]
        = connect(m_range, &models::TimeRangeModel::selectedSliceChanged, this, [this](int track, std::int64_t index) {
              update();
              emit sliceSelected(track, index);
          });
    m_rangeConnections[3] = connect(m_range, &models::TimeRangeModel::marksChanged, this, repaint);
}

void TimelineView::setStore(std::shared_ptr<const models::trace::TraceStore> store)
{
    m_store = std::move(store);
    m_lod.reset();
    m_nameColors.clear();
    m_collapsed.clear();
    m_highlight = {};
    m_hoverTrack = -1;
    m_hoverIndex = -1;
    m_preparing = false;
    if (m_store) {
        const auto& strings = m_store->strings();
        m_nameColors.resize(strings.size());
        for (std::size_t i = 0; i < strings.size(); ++i)
            m_nameColors[i] = timelineNameColor(strings.view(models::trace::StringId(i)));
        m_range->setTraceRange(m_store->startTime(), std::max(m_store->endTime(), m_store->startTime() + 1));
        if (m_store->lod()) {
            m_lod = m_store->lod(); // read back from the index cache with the store
        } else if (m_store->eventCount() > kAsyncEvents) {
            m_preparing = true;
            m_lodWatcher->waitForFinished();
            m_lodWatcher->setFuture(QtConcurrent::run(
                models::workerPool(), [store = m_store]() -> std::shared_ptr<const models::trace::TraceLod> {
                    return std::make_shared<const models::trace::TraceLod>(*store);
                }));
        } else {
            m_lod = std::make_shared<const models::trace::TraceLod>(*m_store);
        }
    }
    relayout();
}

void TimelineView::setLod(std::shared_ptr<const models::trace::TraceLod> lod)
{
    m_lod = std::move(lod);
    m_preparing = false;
    relayout();
    emit prepared();
}

void TimelineView::relayout()
{
    m_layout.build(m_store.get(), m_lod.get(), m_collapsed);
    updateScrollBar();
    update();
}

void TimelineView::updateScrollBar()
{
    const int viewport = height() - TimelinePainter::kRulerHeight;
    const int maximum = std::max(0, m_layout.totalHeight() - viewport);
    m_scrollBar->setRange(0, maximum);
    m_scrollBar->setPageStep(std::max(1, viewport));
    m_scrollBar->setVisible(maximum > 0);
    const int w = m_scrollBar->sizeHint().width();
    m_scrollBar->setGeometry(width() - w, TimelinePainter::kRulerHeight, w, std::max(0, viewport));
}

int TimelineView::contentWidth() const
{
    return width() - (m_scrollBar->isVisibleTo(this) ? m_scrollBar->width() : 0);
}

int TimelineView::scrollOffset() const
{
    return m_scrollBar->value();
}

void TimelineView::setScrollOffset(int y)
{
    m_scrollBar->setValue(y);
}

TimelinePaintState TimelineView::paintState() const
{
    TimelinePaintState s;
    s.store = m_store.get();
    s.lod = m_lod.get();
    s.layout = &m_layout;
    s.nameColors = &m_nameColors;
    s.colorByCategory = m_colorByCategory;
    s.highlight = &m_highlight;
    s.showFlows = m_flowsShown;
    s.visible = m_range->visibleRange();
    s.selection = m_range->selection();
    s.marks = m_range->marks();
    s.selectedTrack = m_range->selectedTrack();
    s.selectedIndex = m_range->selectedIndex();
    s.hoverTrack = m_hoverTrack;
    s.hoverIndex = m_hoverIndex;
    s.collapsedProcesses = m_collapsed;
    s.scrollY = m_scrollBar->value();
    s.labelWidth = m_labelWidth;
    s.emptyText = m_preparing ? tr("Preparing the timeline…") : tr("No trace loaded");
    s.dark = isDark(palette());
    return s;
}

TimelinePaintStats TimelineView::paintFrame(QPainter& painter, const QSize& size) const
{
    painter.setFont(font());
    m_lastStats = TimelinePainter::paint(painter, size, paintState());
    return m_lastStats;
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintFrame(painter, QSize(contentWidth(), height()));
    if (m_scrollBar->isVisible()) {
        // The strip above the scroll bar continues the ruler.
        const QRect corner(contentWidth(), 0, width() - contentWidth(), TimelinePainter::kRulerHeight);
        const TimelineChrome& chrome = isDark(palette()) ? TimelineChrome::dark() : TimelineChrome::light();
        painter.fillRect(corner, QColor::fromRgba(chrome.ruler));
    }
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    updateScrollBar();
}

double TimelineView::xForTime(std::int64_t t) const
{
    return TimelinePainter::timeToX(paintState(), contentWidth(), t);
}

std::int64_t TimelineView::timeAt(double x) const
{
    return TimelinePainter::xToTime(paintState(), contentWidth(), x);
}

QRectF TimelineView::sliceRect(int track, std::int64_t index) const
{
    if (!m_store || track < 0 || std::size_t(track) >= m_store->tracks().size())
        return {};
    const models::trace::Track& t = m_store->tracks()[std::size_t(track)];
    if (index < 0 || std::size_t(index) >= t.size())
        return {};
    const int r = m_layout.rowOfTrack(track);
    if (r < 0)
        return {};
    const TimelineRow& row = m_layout.rows()[std::size_t(r)];
    const double y
        = TimelinePainter::kRulerHeight - scrollOffset() + TimelineLayout::depthY(row, t.depth[std::size_t(index)]);
    const double a = xForTime(t.start[std::size_t(index)]);
    const double b = xForTime(t.end(std::size_t(index)));
    return QRectF(a, y, std::max(1.0, b - a), TimelineLayout::kSliceRowHeight - 1);
}

std::pair<int, std::int64_t> TimelineView::sliceAt(const QPoint& pos) const
{
    if (!m_store || pos.x() < m_labelWidth || pos.y() < TimelinePainter::kRulerHeight || pos.x() >= contentWidth())
        return { -1, -1 };
    const int contentY = pos.y() - TimelinePainter::kRulerHeight + scrollOffset();
    const int r = m_layout.rowAt(contentY);
    if (r < 0)
        return { -1, -1 };
    const TimelineRow& row = m_layout.rows()[std::size_t(r)];
    if (row.kind != TimelineRow::Slices || !m_lod)
        return { -1, -1 };
    const int depth = (contentY - row.y - TimelineLayout::kTrackPadding) / TimelineLayout::kSliceRowHeight;
    const auto& rows = m_lod->track(row.track).rows;
    if (contentY - row.y < TimelineLayout::kTrackPadding || depth < 0 || std::size_t(depth) >= rows.size())
        return { -1, -1 };
    const std::int64_t t = timeAt(pos.x());
    const double nsPerPixel = double(visibleRange().duration()) / std::max(1, contentWidth() - m_labelWidth);
    const auto tolerance = std::int64_t(std::ceil(nsPerPixel * kHitTolerancePx));
    const std::int64_t index = models::trace::TraceLod::sliceAt(m_store->tracks()[std::size_t(row.track)],
                                                                rows[std::size_t(depth)], t, tolerance);
    if (index < 0)
        return { -1, -1 };
    return { row.track, index };
}

std::int64_t TimelineView::anchorTime() const
{
    if (m_mouseInside && m_mousePos.x() >= m_labelWidth && m_mousePos.x() < contentWidth())
        return timeAt(m_mousePos.x());
    const models::TimeSpan v = visibleRange();
    return v.start + v.duration() / 2;
}

void TimelineView::selectSlice(int track, std::int64_t index, bool reveal)
{
    m_range->setSelectedSlice(track, index);
    if (!reveal || !m_store || track < 0)
        return;
    const models::trace::Track& t = m_store->tracks()[std::size_t(track)];
    if (index < 0 || std::size_t(index) >= t.size())
        return;
    revealTrack(track);
    const std::int64_t s = t.start[std::size_t(index)];
    const std::int64_t e = t.end(std::size_t(index));
    const models::TimeSpan v = visibleRange();
    std::int64_t span = v.duration();
    // Zoom in when the slice would be a sliver, out when it does not fit.
    if (e - s > span * 9 / 10)
        span = (e - s) * 3 / 2;
    else if (e - s > 0 && (e - s) * 200 < span)
        span = (e - s) * 20;
    const std::int64_t mid = s + (e - s) / 2;
    m_range->setVisibleRange(mid - span / 2, mid - span / 2 + span, span != v.duration());
}

void TimelineView::revealTrack(int track)
{
    const int r = m_layout.rowOfTrack(track);
    if (r < 0) {
        const int process = m_store->tracks()[std::size_t(track)].process;
        if (m_collapsed.remove(process)) {
            relayout();
            emit collapsedProcessesChanged();
        }
    }
    const int row = m_layout.rowOfTrack(track);
    if (row < 0)
        return;
    const TimelineRow& shown = m_layout.rows()[std::size_t(row)];
    const int viewport = height() - TimelinePainter::kRulerHeight;
    if (shown.y < scrollOffset() || shown.y + shown.height > scrollOffset() + viewport)
        setScrollOffset(shown.y - std::max(0, viewport / 3));
}

void TimelineView::zoomToSlice(int track, std::int64_t index)
{
    if (!m_store || track < 0 || std::size_t(track) >= m_store->tracks().size())
        return;
    const models::trace::Track& t = m_store->tracks()[std::size_t(track)];
    if (index < 0 || std::size_t(index) >= t.size())
        return;
    const std::int64_t s = t.start[std::size_t(index)];
    const std::int64_t d = std::max<std::int64_t>(t.duration[std::size_t(index)], models::TimeRangeModel::kMinimumSpan);
    const std::int64_t margin = d / 10;
    m_range->setVisibleRange(s - margin, s + d + margin, true);
}

void TimelineView::fit()
{
    const models::TimeSpan sel = m_range->selection();
    if (sel.valid() && sel.duration() > 0) {
        m_range->setVisibleRange(sel.start, sel.end, true);
        return;
    }
    if (m_range->selectedTrack() >= 0) {
        zoomToSlice(m_range->selectedTrack(), m_range->selectedIndex());
        return;
    }
    m_range->fitAll();
}

void TimelineView::markSelection()
{
    const models::TimeSpan sel = m_range->selection();
    if (sel.valid()) {
        m_range->addMark(sel);
        return;
    }
    if (m_store && m_range->selectedTrack() >= 0) {
        const models::trace::Track& t = m_store->tracks()[std::size_t(m_range->selectedTrack())];
        const auto i = std::size_t(m_range->selectedIndex());
        if (i < t.size())
            m_range->addMark({ t.start[i], t.end(i) });
    }
}

void TimelineView::clearAll()
{
    m_range->clearSelection();
    m_range->clearSelectedSlice();
}

void TimelineView::setHighlight(const std::vector<TimelineMatch>& matches)
{
    if (!m_store || matches.empty()) {
        clearHighlight();
        return;
    }
    m_highlight = TimelineHighlight(*m_store, matches);
    update();
}

void TimelineView::clearHighlight()
{
    if (m_highlight.isEmpty())
        return;
    m_highlight = {};
    update();
}

void TimelineView::setFlowsShown(bool shown)
{
    if (m_flowsShown == shown)
        return;
    m_flowsShown = shown;
    update();
}

bool TimelineView::isKeyAnimating() const
{
    return m_zoomKey != 0 || m_panKey != 0;
}

bool TimelineView::advanceKeyAnimation(double ms)
{
    if (!isKeyAnimating())
        return false;
    move(m_zoomKey, m_panKey, ms);
    if (m_zoomKey != 0)
        m_zoomHeld += ms;
    if (m_panKey != 0)
        m_panHeld += ms;
    return true;
}

void TimelineView::move(int zoom, int pan, double ms)
{
    const double seconds = ms / 1000.0;
    if (zoom != 0) {
        const double speedup = std::min(kMaxSpeedup, 1 + m_zoomHeld / kAccelerationMs);
        m_range->zoom(std::exp(-zoom * kZoomRate * speedup * seconds), anchorTime());
    }
    if (pan != 0) {
        const double speedup = std::min(kMaxSpeedup, 1 + m_panHeld / kAccelerationMs);
        const double step = pan * kPanRate * speedup * seconds * double(visibleRange().duration());
        m_range->pan(std::int64_t(std::llround(step)));
    }
}

void TimelineView::stopKeyAnimation()
{
    m_zoomKey = 0;
    m_panKey = 0;
    m_keyTimer->stop();
}

void TimelineView::setColorByCategory(bool byCategory)
{
    if (m_colorByCategory == byCategory)
        return;
    m_colorByCategory = byCategory;
    update();
}

void TimelineView::setProcessCollapsed(int process, bool collapsed)
{
    if (collapsed == m_collapsed.contains(process))
        return;
    if (collapsed)
        m_collapsed.insert(process);
    else
        m_collapsed.remove(process);
    relayout();
    emit collapsedProcessesChanged();
}

void TimelineView::setHover(int track, std::int64_t index)
{
    if (track == m_hoverTrack && index == m_hoverIndex)
        return;
    m_hoverTrack = track;
    m_hoverIndex = index;
    update();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    const models::TimeSpan v = visibleRange();
    const auto panStep = std::int64_t(double(v.duration()) * kPanFraction);
    const int key = event->key();
    if (key == Qt::Key_W || key == Qt::Key_S || key == Qt::Key_A || key == Qt::Key_D) {
        // Held keys animate; the repeats the system generates while they are down add nothing.
        if (!event->isAutoRepeat() && !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
            const int direction = key == Qt::Key_W || key == Qt::Key_D ? 1 : -1;
            const bool zoom = key == Qt::Key_W || key == Qt::Key_S;
            // The first step at once, so that a tap moves.
            (zoom ? m_zoomHeld : m_panHeld) = 0;
            move(zoom ? direction : 0, zoom ? 0 : direction, kTapMs);
            (zoom ? m_zoomKey : m_panKey) = direction;
            m_keyClock.restart();
            if (!m_keyTimer->isActive())
                m_keyTimer->start();
        }
        event->accept();
        return;
    }
    switch (key) {
    case Qt::Key_Left:
        m_range->pan(-panStep);
        break;
    case Qt::Key_Right:
        m_range->pan(panStep);
        break;
    case Qt::Key_F:
        fit();
        break;
    case Qt::Key_M:
        markSelection();
        break;
    case Qt::Key_Escape:
        clearAll();
        if (!m_highlight.isEmpty()) {
            clearHighlight();
            emit highlightCleared();
        }
        break;
    case Qt::Key_Z:
        if (event->modifiers() & Qt::ControlModifier) {
            m_range->undoZoom();
            break;
        }
        QWidget::keyPressEvent(event);
        return;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineView::keyReleaseEvent(QKeyEvent* event)
{
    const int key = event->key();
    if (key != Qt::Key_W && key != Qt::Key_S && key != Qt::Key_A && key != Qt::Key_D) {
        QWidget::keyReleaseEvent(event);
        return;
    }
    event->accept();
    if (event->isAutoRepeat())
        return;
    if ((key == Qt::Key_W && m_zoomKey > 0) || (key == Qt::Key_S && m_zoomKey < 0))
        m_zoomKey = 0;
    if ((key == Qt::Key_D && m_panKey > 0) || (key == Qt::Key_A && m_panKey < 0))
        m_panKey = 0;
    if (!isKeyAnimating())
        m_keyTimer->stop();
}

void TimelineView::focusOutEvent(QFocusEvent* event)
{
    // A key released while another widget has the focus would never reach us.
    stopKeyAnimation();
    QWidget::focusOutEvent(event);
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    const QPointF pos = event->position();
    const bool overNames = pos.x() < m_labelWidth;
    if (overNames || (event->modifiers() & Qt::AltModifier)) {
        const int dy = delta.y() != 0 ? delta.y() : delta.x();
        setScrollOffset(scrollOffset() - dy * TimelineLayout::kSliceRowHeight * 3 / 120);
    } else if ((event->modifiers() & Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y())) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        m_range->pan(-std::int64_t(double(visibleRange().duration()) * 0.1 * d / 120.0));
    } else if (delta.y() != 0) {
        const double factor = std::pow(kZoomStep, delta.y() / 120.0);
        m_range->zoom(factor, timeAt(pos.x()));
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    m_pressPos = pos;
    m_pressTime = timeAt(pos.x());
    m_pressRange = visibleRange();
    m_pressScroll = scrollOffset();
    m_moved = false;
    // Process header: toggle collapse.
    if (pos.y() >= TimelinePainter::kRulerHeight) {
        const int r = m_layout.rowAt(pos.y() - TimelinePainter::kRulerHeight + scrollOffset());
        if (r >= 0 && m_layout.rows()[std::size_t(r)].kind == TimelineRow::ProcessHeader) {
            const int process = m_layout.rows()[std::size_t(r)].process;
            setProcessCollapsed(process, !m_collapsed.contains(process));
            m_drag = Drag::None;
            return;
        }
    }
    if (pos.x() < m_labelWidth && pos.y() >= TimelinePainter::kRulerHeight) {
        m_drag = Drag::None;
        return;
    }
    // Shift-drag, or any drag on the ruler, selects a range.
    m_drag = (event->modifiers() & Qt::ShiftModifier) || pos.y() < TimelinePainter::kRulerHeight ? Drag::Select
                                                                                                 : Drag::Pan;
    if (m_drag == Drag::Pan)
        setCursor(Qt::ClosedHandCursor);
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    m_mousePos = pos;
    m_mouseInside = true;
    if (m_store && pos.x() >= m_labelWidth)
        m_range->setHoverTime(timeAt(pos.x()));
    else
        m_range->setHoverTime(models::TimeRangeModel::kNoHover);
    if (m_drag == Drag::None || !(event->buttons() & Qt::LeftButton)) {
        const auto [track, index] = sliceAt(pos);
        setHover(track, index);
        return;
    }
    if (!m_moved && (pos - m_pressPos).manhattanLength() < kDragThreshold)
        return;
    m_moved = true;
    if (m_drag == Drag::Pan) {
        const double nsPerPixel = double(m_pressRange.duration()) / std::max(1, contentWidth() - m_labelWidth);
        const auto dt = std::int64_t(std::llround((pos.x() - m_pressPos.x()) * nsPerPixel));
        m_range->setVisibleRange(m_pressRange.start - dt, m_pressRange.end - dt);
        setScrollOffset(m_pressScroll - (pos.y() - m_pressPos.y()));
    } else {
        const models::TimeSpan trace = m_range->traceRange();
        const std::int64_t t
            = std::clamp(timeAt(std::clamp(pos.x(), m_labelWidth, contentWidth())), trace.start, trace.end);
        m_range->setSelection(std::min(m_pressTime, t), std::max(m_pressTime, t));
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    const Drag drag = m_drag;
    m_drag = Drag::None;
    unsetCursor();
    if (drag == Drag::None || m_moved)
        return;
    // A click without a drag: select the slice under the cursor (or clear).
    const auto [track, index] = sliceAt(event->position().toPoint());
    m_range->setSelectedSlice(track, index);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const auto [track, index] = sliceAt(event->position().toPoint());
    if (track >= 0) {
        m_range->setSelectedSlice(track, index);
        zoomToSlice(track, index);
    }
}

void TimelineView::leaveEvent(QEvent*)
{
    m_mouseInside = false;
    setHover(-1, -1);
    m_range->setHoverTime(models::TimeRangeModel::kNoHover);
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_store) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [track, index] = sliceAt(help->pos());
        if (track < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const models::trace::Track& t = m_store->tracks()[std::size_t(track)];
        const auto i = std::size_t(index);
        QString text = QStringLiteral("<b>%1</b>").arg(m_store->strings().text(t.name_[i]).toHtmlEscaped());
        text
            += QStringLiteral("<br>") + tr("Duration: %1").arg(TimelineFormat::duration(t.duration[i])).toHtmlEscaped();
        const QString category = m_store->strings().text(t.category[i]);
        if (!category.isEmpty())
            text += QStringLiteral("<br>") + tr("Category: %1").arg(category).toHtmlEscaped();
        text += QStringLiteral("<br>")
            + tr("Start: %1").arg(TimelineFormat::duration(t.start[i] - m_store->startTime())).toHtmlEscaped();
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace runlens::widgets::timeline
