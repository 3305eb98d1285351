#include "widgets/graph/graphview.h"

#include "widgets/common/theme.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::graph {

using models::graph::ScopeItem;
using models::graph::ScopeItemKind;
using models::graph::ScopeTree;

namespace {

constexpr double kBoxPadding = 8;
constexpr double kMinBoxWidth = 64;
constexpr double kMaxBoxWidth = 240;
constexpr QSize kMinimapMax { 200, 140 };

quint32 stableHash(const std::string& text)
{
    quint32 hash = 2166136261u; // FNV-1a: the same colour for the same op type in every session
    for (const char c : text) {
        hash ^= quint8(c);
        hash *= 16777619u;
    }
    return hash;
}

QColor pastel(const std::string& key)
{
    const quint32 hash = stableHash(key);
    return QColor::fromHsv(int(hash % 360), 60 + int((hash >> 9) % 40), 240);
}

QString itemSubtitle(const ScopeTree& tree, int id)
{
    const ScopeItem& item = tree.item(id);
    switch (item.kind) {
    case ScopeItemKind::Op: {
        const models::graph::Node& node = tree.graph().nodes[std::size_t(item.node)];
        // A name that repeats the op type says nothing new; the output's shape does.
        if ((node.name == item.opType || item.opType.empty()) && !node.outputs.empty()
            && node.outputs.front().type.known())
            return QString::fromStdString(node.outputs.front().type.text());
        return QString::fromStdString(item.opType.empty() ? models::graph::nodeKindId(node.kind) : item.opType);
    }
    case ScopeItemKind::Series:
        return GraphView::tr("series of %1").arg(item.children.size());
    case ScopeItemKind::Group:
    case ScopeItemKind::Section:
        break;
    }
    return item.opCount == 1 ? GraphView::tr("1 op") : GraphView::tr("%1 ops").arg(item.opCount);
}

/// Frames and collapsed groups: blue-grey for the forward pass, tinted for gradients, recomputation and
/// the optimizer, a little darker at each nesting level so nested frames stay apart.
QColor roleTint(models::graph::ScopeRole role, int depth)
{
    const int shade = std::max(0, 24 - 4 * std::min(depth, 6));
    switch (role) {
    case models::graph::ScopeRole::Gradient:
        return QColor(232 + shade / 2, 214 + shade, 214 + shade);
    case models::graph::ScopeRole::Recompute:
        return QColor(232 + shade / 2, 226 + shade, 206 + shade);
    case models::graph::ScopeRole::Optimizer:
        return QColor(214 + shade, 232 + shade / 2, 214 + shade);
    case models::graph::ScopeRole::Forward:
        break;
    }
    return QColor(214 + shade, 222 + shade, 240 + shade / 2);
}

QString foldedText(const ScopeTree& tree, const ScopeItem& item)
{
    QStringList names;
    for (const int index : item.folded) {
        // Generated weights are often unnamed ops ("ConstantOfShape"); their value's name says more.
        const models::graph::Node& node = tree.graph().nodes[std::size_t(index)];
        const bool anonymous = node.name.empty() || node.name == node.opType;
        names << QString::fromStdString(anonymous && !node.outputs.empty() && !node.outputs.front().name.empty()
                                            ? node.outputs.front().name
                                            : node.name);
    }
    return names.join(QStringLiteral(", "));
}

} // namespace

void GraphView::setColorMode(ColorMode mode)
{
    m_colorMode = mode;
    rebuildMinimap();
    update();
}

void GraphView::setItemColors(std::vector<QColor> colors)
{
    m_itemColors = std::move(colors);
    rebuildMinimap();
    update();
}

void GraphView::setProfile(std::shared_ptr<const models::graph::ItemProfile> profile)
{
    m_profile = std::move(profile);
    rebuildMinimap();
    update();
}

QColor GraphView::stageColor(int stage)
{
    // Distinct light hues, so that neighbouring stages never look alike and black text stays readable.
    static constexpr QRgb kStages[]
        = { 0x9ecae1, 0xfdae6b, 0xa1d99b, 0xfc9272, 0xbcbddc, 0xfdd0a2, 0xc7e9c0, 0xd9d9d9, 0xf7b6d2, 0xdbdb8d };
    constexpr int kCount = int(sizeof(kStages) / sizeof(kStages[0]));
    return QColor(kStages[std::size_t(((stage % kCount) + kCount) % kCount)]);
}

QColor GraphView::heatColor(double fraction)
{
    // Pale yellow through orange to dark red: light boxes stay readable, hot ones stand out.
    static constexpr int kStops[3][3] = { { 255, 237, 160 }, { 253, 141, 60 }, { 200, 20, 40 } };
    const double f = std::clamp(fraction, 0.0, 1.0) * 2;
    const int lower = std::min(int(f), 1);
    const double t = f - lower;
    const auto mix = [&](int c) { return int(std::lround(kStops[lower][c] * (1 - t) + kStops[lower + 1][c] * t)); };
    return QColor(mix(0), mix(1), mix(2));
}

void GraphView::updateHeatScale() const
{
    m_heatMax = 0;
    if (m_colorMode != ColorMode::ProfilerTime || !m_profile || !m_tree)
        return;
    for (const SceneBox& box : m_scene.boxes) {
        if (!box.expanded)
            m_heatMax = std::max(m_heatMax, m_profile->time(m_tree.get(), box.item));
    }
}

void GraphView::paintHeatLegend(QPainter& painter) const
{
    if (m_colorMode != ColorMode::ProfilerTime)
        return;
    const QFontMetricsF metrics(font());
    const double barWidth = 140;
    const double barHeight = 10;
    const QString title = tr("Profiler time");
    const QString low = QStringLiteral("0");
    const QString high = m_heatMax > 0 ? tr("%1 ms").arg(double(m_heatMax) / 1e6, 0, 'g', 4) : tr("no matched ops");
    const QRectF frame(8, height() - 8 - (2 * metrics.height() + barHeight + 12), barWidth + 16,
                       2 * metrics.height() + barHeight + 12);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QColor(160, 160, 170));
    painter.setBrush(palette().color(QPalette::Base));
    painter.drawRect(frame);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRectF(frame.left() + 8, frame.top() + 4, barWidth, metrics.height()), Qt::AlignLeft, title);
    const QRectF bar(frame.left() + 8, frame.top() + 6 + metrics.height(), barWidth, barHeight);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 4; ++i)
        gradient.setColorAt(i / 4.0, heatColor(i / 4.0));
    painter.fillRect(bar, gradient);
    const QRectF labels(bar.left(), bar.bottom() + 2, barWidth, metrics.height());
    painter.drawText(labels, Qt::AlignLeft, low);
    painter.drawText(labels, Qt::AlignRight, high);
    painter.restore();
}

QSizeF GraphView::boxSize(int item) const
{
    if (!m_tree || item < 0 || item >= m_tree->itemCount())
        return {};
    if (std::size_t(item) >= m_boxSizes.size())
        m_boxSizes.resize(std::size_t(m_tree->itemCount()));
    QSizeF& size = m_boxSizes[std::size_t(item)];
    if (size.isValid())
        return size;
    const QFontMetricsF metrics(font());
    QFont bold = font();
    bold.setBold(true);
    const ScopeItem& it = m_tree->item(item);
    double width = std::max(QFontMetricsF(bold).horizontalAdvance(QString::fromStdString(it.label)),
                            metrics.horizontalAdvance(itemSubtitle(*m_tree, item)));
    int lines = 2;
    if (!it.folded.empty()) {
        width = std::max(width, std::min(metrics.horizontalAdvance(foldedText(*m_tree, it)) * 0.85, kMaxBoxWidth));
        ++lines;
    }
    size = QSizeF(std::clamp(width + 2 * kBoxPadding, kMinBoxWidth, kMaxBoxWidth),
                  std::ceil(lines * metrics.lineSpacing() + kBoxPadding));
    return size;
}

QColor GraphView::fillColor(int id) const
{
    const ScopeItem& item = m_tree->item(id);
    if (std::size_t(id) < m_itemColors.size() && m_itemColors[std::size_t(id)].isValid())
        return m_itemColors[std::size_t(id)];
    if (m_colorMode == ColorMode::ProfilerTime) {
        const std::int64_t time = m_profile ? m_profile->time(m_tree.get(), id) : 0;
        if (time <= 0 || m_heatMax <= 0)
            return noTimeColor();
        return heatColor(double(time) / double(m_heatMax));
    }
    if (m_colorMode == ColorMode::Stage) {
        const int stage = id < int(m_itemStages.size()) ? m_itemStages[std::size_t(id)] : -1;
        if (stage >= 0)
            return stageColor(stage);
        if (stage == -2 || item.isContainer())
            return roleTint(item.role, 0); // a group spanning stages
        return noTimeColor();
    }
    if (m_colorMode == ColorMode::Namespace) {
        const int group = item.kind == ScopeItemKind::Op ? item.parent : id;
        return pastel(m_tree->item(group).key);
    }
    if (item.kind == ScopeItemKind::Op || item.kind == ScopeItemKind::Series) {
        if (item.kind == ScopeItemKind::Op) {
            const auto kind = m_tree->graph().nodes[std::size_t(item.node)].kind;
            if (kind == models::graph::NodeKind::Input || kind == models::graph::NodeKind::Output)
                return QColor(220, 220, 220);
            if (kind == models::graph::NodeKind::Parameter || kind == models::graph::NodeKind::Constant)
                return QColor(236, 232, 210);
        }
        return pastel(item.opType);
    }
    return roleTint(item.role, 0); // collapsed groups: neutral, they hold many op types
}

void GraphView::paintScene(QPainter& painter, const QRectF& sceneRect, double scale) const
{
    if (!m_tree)
        return;
    const ScopeTree& tree = *m_tree;
    updateHeatScale();
    const QFontMetricsF metrics(font());
    const bool drawText = metrics.height() * scale >= 5;
    const bool drawBorders = scale >= 0.08;
    // Frames and boxes have light fills in every theme, so their text is dark ink, not the palette's text.
    const QColor text(28, 30, 36);

    // Frames of expanded containers, outermost first.
    for (const SceneBox& box : m_scene.boxes) {
        if (!box.expanded || !box.rect.intersects(sceneRect))
            continue;
        const ScopeItem& item = tree.item(box.item);
        // An open group keeps its tint; an item colour given for it shows in its border.
        const bool tinted
            = std::size_t(box.item) < m_itemColors.size() && m_itemColors[std::size_t(box.item)].isValid();
        painter.setPen(tinted ? QPen(m_itemColors[std::size_t(box.item)].darker(125), 2.5)
                              : QPen(QColor(150, 160, 180), 0));
        painter.setBrush(roleTint(item.role, item.depth));
        painter.drawRoundedRect(box.rect, 6, 6);
        if (drawText) {
            painter.setPen(text);
            const QRectF title(box.rect.left() + 8, box.rect.top(), box.rect.width() - 16, m_result.frame.titleHeight);
            const QString label = QStringLiteral("\u25be %1   %2")
                                      .arg(QString::fromStdString(item.label), itemSubtitle(tree, box.item));
            painter.drawText(title, Qt::AlignVCenter | Qt::AlignLeft,
                             metrics.elidedText(label, Qt::ElideRight, title.width()));
        }
    }

    // Edges.
    QPen edgePen(QColor(120, 120, 130), 1.2);
    edgePen.setCosmetic(true);
    QPen highlightPen(QColor(230, 120, 20), 2.2);
    highlightPen.setCosmetic(true);
    QFont labelFont = font();
    labelFont.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.8));
    const QFontMetricsF labelMetrics(labelFont);
    std::vector<QRectF> labelRects; // labels that would overlap a drawn one are skipped
    for (const SceneEdge& edge : m_scene.edges) {
        if (!edge.bounds.intersects(sceneRect))
            continue;
        // Hot: the edge runs inside the traced upstream cone or inside the downstream cone.
        const auto upstream = [this](int item) { return item == m_selected || m_upstream.count(item) > 0; };
        const auto downstream = [this](int item) { return item == m_selected || m_downstream.count(item) > 0; };
        const bool hot = m_selected >= 0
            && ((upstream(edge.from) && upstream(edge.to)) || (downstream(edge.from) && downstream(edge.to)));
        const models::graph::LiftedEdge& lifted = tree.edgesOf(edge.container)[std::size_t(edge.edge)];
        QPen pen = hot ? highlightPen : edgePen;
        if (lifted.control)
            pen.setStyle(Qt::DashLine);
        if (lifted.count > 1 && !hot)
            pen.setWidthF(std::min(1.2 + std::log2(double(lifted.count)) * 0.6, 4.0));
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(edge.path);
        if (!edge.arrow.isEmpty()) {
            painter.setBrush(pen.color());
            painter.drawPolygon(edge.arrow);
        }
        if (m_edgeLabels && drawText && scale >= 0.5 && !lifted.label.empty()) {
            QString label = QString::fromStdString(lifted.label);
            if (lifted.count > 1 && !label.endsWith(QLatin1String("tensors")))
                label += QStringLiteral(" \u00d7%1").arg(lifted.count);
            const QPointF at = edge.labelPos + QPointF(4, labelMetrics.ascent() / 2);
            const QRectF rect(at.x(), at.y() - labelMetrics.ascent(), labelMetrics.horizontalAdvance(label),
                              labelMetrics.height());
            if (std::none_of(labelRects.begin(), labelRects.end(),
                             [&rect](const QRectF& r) { return r.intersects(rect); })) {
                labelRects.push_back(rect);
                painter.setFont(labelFont);
                painter.setPen(QColor(90, 90, 110));
                painter.drawText(at, label);
                painter.setFont(font());
            }
        }
    }

    // Collapsed boxes.
    QPen border(QColor(110, 110, 120), 0);
    for (const SceneBox& box : m_scene.boxes) {
        if (box.expanded || !box.rect.intersects(sceneRect))
            continue;
        const ScopeItem& item = tree.item(box.item);
        const QColor fill = fillColor(box.item);
        if (!drawBorders) {
            painter.fillRect(box.rect, fill.darker(115));
            continue;
        }
        const bool container = item.isContainer();
        if (container) {
            // Collapsed groups and series look stacked: they hold more than one op.
            painter.setPen(border);
            painter.setBrush(fill.darker(108));
            painter.drawRoundedRect(box.rect.translated(3, 3), 5, 5);
        }
        QPen pen = border;
        if (box.item == m_selected)
            pen = QPen(QColor(30, 100, 230), 2.5);
        else if (m_upstream.count(box.item))
            pen = QPen(QColor(230, 120, 20), 2.2);
        else if (m_downstream.count(box.item))
            pen = QPen(QColor(30, 160, 80), 2.2);
        painter.setPen(pen);
        painter.setBrush(fill);
        painter.drawRoundedRect(box.rect, container ? 5 : 3, container ? 5 : 3);
        if (!drawText)
            continue;
        // The hot end of the profiler scale wants light text (perceived luminance, not HSL lightness).
        const bool darkFill = 0.299 * fill.red() + 0.587 * fill.green() + 0.114 * fill.blue() < 150;
        painter.setPen(darkFill ? QColor(Qt::white) : text);
        const QRectF inner = box.rect.adjusted(kBoxPadding / 2, kBoxPadding / 2, -kBoxPadding / 2, -kBoxPadding / 2);
        const double line = metrics.lineSpacing();
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        // Elided with the bold font's metrics it is drawn in: the plain ones let long labels overrun the box.
        painter.drawText(
            QRectF(inner.left(), inner.top(), inner.width(), line), Qt::AlignCenter,
            QFontMetricsF(bold).elidedText(QString::fromStdString(item.label), Qt::ElideMiddle, inner.width()));
        painter.setFont(font());
        // Coloured by profiler time, a box says its time where it would say its type.
        const std::int64_t time
            = m_colorMode == ColorMode::ProfilerTime && m_profile ? m_profile->time(m_tree.get(), box.item) : 0;
        const QString subtitle
            = time > 0 ? tr("%1 ms").arg(double(time) / 1e6, 0, 'g', 4) : itemSubtitle(tree, box.item);
        painter.drawText(QRectF(inner.left(), inner.top() + line, inner.width(), line), Qt::AlignCenter,
                         metrics.elidedText(subtitle, Qt::ElideRight, inner.width()));
        if (!item.folded.empty()) {
            painter.setFont(labelFont);
            painter.setPen(darkFill ? QColor(255, 235, 200) : QColor(120, 100, 40));
            painter.drawText(QRectF(inner.left(), inner.top() + 2 * line, inner.width(), line), Qt::AlignCenter,
                             labelMetrics.elidedText(foldedText(tree, item), Qt::ElideRight, inner.width()));
            painter.setFont(font());
        }
    }
}

void GraphView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_tree || m_scene.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
                         !m_tree ? tr("No graph loaded")
                                 : (isLayoutPending() ? tr("Laying out\u2026") : tr("Empty graph")));
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing, m_zoom > 0.15);
    painter.save();
    painter.translate(m_offset);
    painter.scale(m_zoom, m_zoom);
    paintScene(painter, QRectF(mapToScene(QPointF(0, 0)), mapToScene(QPointF(width(), height()))), m_zoom);
    painter.restore();

    if (isLayoutPending()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(8, 6, -8, -6), Qt::AlignTop | Qt::AlignRight, tr("Laying out\u2026"));
    }
    paintHeatLegend(painter);
    if (m_minimapVisible && !m_minimap.isNull()) {
        const QRectF area = minimapRect();
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.setPen(QColor(160, 160, 170));
        painter.setBrush(Qt::NoBrush);
        painter.drawImage(area, m_minimap);
        painter.drawRect(area);
        const double scale = area.width() / m_minimapScene.width();
        const QRectF view(mapToScene(QPointF(0, 0)), mapToScene(QPointF(width(), height())));
        QRectF shown((view.left() - m_minimapScene.left()) * scale + area.left(),
                     (view.top() - m_minimapScene.top()) * scale + area.top(), view.width() * scale,
                     view.height() * scale);
        painter.setClipRect(area);
        painter.setPen(QPen(QColor(220, 40, 40), 1.5));
        painter.drawRect(shown);
    }
}

QRectF GraphView::minimapRect() const
{
    if (m_minimap.isNull())
        return {};
    const QSizeF size = m_minimap.size();
    return QRectF(QPointF(width() - size.width() - 10, height() - size.height() - 10), size);
}

void GraphView::rebuildMinimap()
{
    m_minimap = {};
    if (m_scene.isEmpty())
        return;
    m_minimapScene = m_scene.bounds.adjusted(-10, -10, 10, 10);
    const double scale
        = std::min(kMinimapMax.width() / m_minimapScene.width(), kMinimapMax.height() / m_minimapScene.height());
    const QSize size(std::max(40, int(m_minimapScene.width() * scale)),
                     std::max(20, int(m_minimapScene.height() * scale)));
    m_minimap = QImage(size, QImage::Format_ARGB32_Premultiplied);
    QColor backdrop = chartTheme(palette()).panel;
    backdrop.setAlpha(225);
    m_minimap.fill(backdrop);
    QPainter painter(&m_minimap);
    painter.scale(scale, scale);
    painter.translate(-m_minimapScene.topLeft());
    updateHeatScale();
    for (const SceneBox& box : m_scene.boxes) {
        if (box.expanded)
            painter.fillRect(box.rect, QColor(225, 232, 245));
        else
            painter.fillRect(box.rect, fillColor(box.item).darker(120));
    }
}

} // namespace runlens::widgets::graph
