#include "widgets/graph/graphview.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::graph {

void GraphView::setSelectedItem(int item)
{
    if (!m_tree || item >= m_tree->itemCount())
        item = -1;
    if (item == m_selected)
        return;
    m_selected = item;
    updateHighlight();
    update();
    emit selectionChanged(item);
}

void GraphView::revealItem(int item)
{
    if (!m_tree || item <= 0 || item >= m_tree->itemCount())
        return;
    models::graph::ExpansionState next = m_state;
    for (const int ancestor : m_tree->ancestors(item))
        next.setExpanded(ancestor, true);
    setSelectedItem(item);
    m_revealPending = item;
    if (next == m_state && !isLayoutPending()) {
        centreOn(item);
        m_revealPending = -1;
        return;
    }
    m_fitPending = false;
    setExpansionState(next);
}

void GraphView::setHighlightDepth(int depth)
{
    m_highlightDepth = std::max(0, depth);
    updateHighlight();
    update();
}

void GraphView::updateHighlight()
{
    m_upstream.clear();
    m_downstream.clear();
    if (!m_tree || m_selected < 0 || m_highlightDepth <= 0)
        return;
    const auto& state = m_result.tree == m_tree ? m_result.state : m_state;
    for (const int op : m_tree->neighbourhood(m_selected, m_highlightDepth, false))
        m_upstream.insert(m_tree->visibleAncestor(op, state));
    for (const int op : m_tree->neighbourhood(m_selected, m_highlightDepth, true))
        m_downstream.insert(m_tree->visibleAncestor(op, state));
}

QPointF GraphView::viewCentre() const
{
    return mapToScene(QPointF(width() / 2.0, height() / 2.0));
}

void GraphView::setViewport(double zoom, QPointF centre)
{
    m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    m_offset = QPointF(width() / 2.0, height() / 2.0) - centre * m_zoom;
    m_fitPending = false;
    update();
    emit viewportChanged();
}

void GraphView::fitToView()
{
    if (m_scene.isEmpty())
        return;
    const QRectF bounds = m_scene.bounds.adjusted(-20, -20, 20, 20);
    const double zoom = std::min({ width() / bounds.width(), height() / bounds.height(), 1.5 });
    setViewport(zoom, bounds.center());
}

void GraphView::showStart()
{
    if (m_scene.isEmpty())
        return;
    const QRectF bounds = m_scene.bounds.adjusted(-20, -20, 20, 20);
    const double fit = std::min({ width() / bounds.width(), height() / bounds.height(), 1.5 });
    if (fit >= kReadableZoom) {
        fitToView();
        return;
    }
    // A long graph fitted whole would be unreadable: start readable at its beginning, like a document.
    const double zoom = std::max(fit, std::min(1.0, width() / bounds.width()));
    const double shown = std::max(zoom, kReadableZoom);
    const bool vertical = m_rankDir == QLatin1String("TB");
    const QPointF centre = vertical ? QPointF(bounds.center().x(), bounds.top() + height() / 2.0 / shown)
                                    : QPointF(bounds.left() + width() / 2.0 / shown, bounds.center().y());
    setViewport(shown, centre);
}

void GraphView::centreOn(int item)
{
    const int box = m_scene.boxOf(item);
    if (box < 0)
        return;
    const QRectF rect = m_scene.boxes[std::size_t(box)].rect;
    double zoom = std::max(m_zoom, 0.6);
    zoom = std::min(zoom, std::min(width() / (rect.width() + 40), height() / (rect.height() + 40)));
    setViewport(zoom, rect.center());
}

QPointF GraphView::mapToScene(QPointF widgetPos) const
{
    return (widgetPos - m_offset) / m_zoom;
}

QPointF GraphView::mapFromScene(QPointF scenePos) const
{
    return scenePos * m_zoom + m_offset;
}

void GraphView::centreMinimapAt(QPointF widgetPos)
{
    const QRectF area = minimapRect();
    const double scale = area.width() / m_minimapScene.width();
    const QPointF scenePos = (widgetPos - area.topLeft()) / scale + m_minimapScene.topLeft();
    setViewport(m_zoom, scenePos);
}

void GraphView::resizeEvent(QResizeEvent* event)
{
    // Keep the scene point at the centre where it was, so a restored or chosen view survives docking.
    if (event->oldSize().isValid()) {
        const QPointF oldCentre
            = (QPointF(event->oldSize().width() / 2.0, event->oldSize().height() / 2.0) - m_offset) / m_zoom;
        m_offset = QPointF(width() / 2.0, height() / 2.0) - oldCentre * m_zoom;
    }
    if (m_fitPending)
        showStart();
}

void GraphView::zoomAt(QPointF widgetPos, double factor)
{
    const QPointF anchor = mapToScene(widgetPos);
    m_zoom = std::clamp(m_zoom * factor, kMinZoom, kMaxZoom);
    m_offset = widgetPos - anchor * m_zoom;
    update();
    emit viewportChanged();
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        m_offset -= QPointF(event->angleDelta().x(), 0) / 4.0;
        update();
        return;
    }
    zoomAt(event->position(), std::pow(1.2, steps));
    event->accept();
}

bool GraphView::onFrameTitle(int boxIndex, QPointF scenePos) const
{
    const SceneBox& box = m_scene.boxes[std::size_t(boxIndex)];
    return box.expanded && scenePos.y() <= box.rect.top() + m_result.frame.titleHeight;
}

void GraphView::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    if (event->button() != Qt::LeftButton)
        return;
    if (m_minimapVisible && minimapRect().contains(event->position())) {
        m_minimapDrag = true;
        centreMinimapAt(event->position());
        return;
    }
    m_dragStart = event->position().toPoint();
    m_dragOffset = m_offset;
    m_dragging = false;
}

void GraphView::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    if (m_minimapDrag) {
        centreMinimapAt(event->position());
        return;
    }
    if (!m_dragging && (event->position().toPoint() - m_dragStart).manhattanLength() < 4)
        return;
    m_dragging = true;
    setCursor(Qt::ClosedHandCursor);
    m_offset = m_dragOffset + (event->position() - QPointF(m_dragStart));
    update();
}

void GraphView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (m_minimapDrag) {
        m_minimapDrag = false;
        return;
    }
    unsetCursor();
    if (m_dragging) {
        m_dragging = false;
        emit viewportChanged();
        return;
    }
    const int box = m_scene.boxAt(mapToScene(event->position()));
    setSelectedItem(box < 0 ? -1 : m_scene.boxes[std::size_t(box)].item);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const QPointF scenePos = mapToScene(event->position());
    const int box = m_scene.boxAt(scenePos);
    if (box < 0)
        return;
    const SceneBox& hit = m_scene.boxes[std::size_t(box)];
    // Inside an expanded frame only the title collapses it, so double-clicking empty space is harmless.
    if (hit.expanded && !onFrameTitle(box, scenePos))
        return;
    setSelectedItem(hit.item);
    toggleExpanded(hit.item);
}

bool GraphView::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip || !m_tree)
        return QWidget::event(event);
    // Box labels are short or elided: the tooltip says the whole name.
    auto* help = static_cast<QHelpEvent*>(event);
    const int box = m_scene.boxAt(mapToScene(QPointF(help->pos())));
    if (box < 0) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    const models::graph::ScopeItem& item = m_tree->item(m_scene.boxes[std::size_t(box)].item);
    QString text = QString::fromStdString(item.label);
    if (item.kind == models::graph::ScopeItemKind::Op) {
        const models::graph::Node& node = m_tree->graph().nodes[std::size_t(item.node)];
        const QString full = QString::fromStdString(node.id.empty() ? node.fullName() : node.id);
        if (full != text)
            text = full;
        if (!item.opType.empty() && item.opType != node.name)
            text += QLatin1Char('\n') + QString::fromStdString(item.opType);
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

void GraphView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_selected > 0)
            toggleExpanded(m_selected);
        return;
    case Qt::Key_Space:
        fitToView();
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAt(QPointF(width() / 2.0, height() / 2.0), 1.25);
        return;
    case Qt::Key_Minus:
        zoomAt(QPointF(width() / 2.0, height() / 2.0), 0.8);
        return;
    case Qt::Key_Escape:
        setSelectedItem(-1);
        return;
    case Qt::Key_Backspace:
        if (m_selected > 0 && m_tree->item(m_selected).parent > 0) {
            const int parent = m_tree->item(m_selected).parent;
            setExpanded(parent, false);
            setSelectedItem(parent);
        }
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

} // namespace runlens::widgets::graph
