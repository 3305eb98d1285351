#include "graphview.h"

#include "common/theme.h"

#include <QFontMetricsF>
#include <QFuture>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <set>

namespace runlens::graphview {

using graph::ScopeItem;
using graph::ScopeItemKind;
using graph::ScopeTree;

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

/// Per item of the tree: the pipeline stage all its ops share, -1 when none has one, -2 when they differ.
std::vector<int> itemStages(const ScopeTree& tree, int* distinct)
{
    std::vector<int> stages(std::size_t(tree.itemCount()), -1);
    std::set<int> seen;
    // Post-order without recursion: children are finished before their container.
    std::vector<std::pair<int, bool>> stack { { ScopeTree::root(), false } };
    while (!stack.empty()) {
        const auto [id, done] = stack.back();
        stack.pop_back();
        const graph::ScopeItem& item = tree.item(id);
        if (item.kind == ScopeItemKind::Op) {
            const int stage = tree.graph().nodes[std::size_t(item.node)].stage;
            stages[std::size_t(id)] = stage;
            if (stage >= 0)
                seen.insert(stage);
            continue;
        }
        if (!done) {
            stack.emplace_back(id, true);
            for (const int child : item.children)
                stack.emplace_back(child, false);
            continue;
        }
        int shared = -1;
        for (const int child : item.children) {
            const int stage = stages[std::size_t(child)];
            if (stage == -1)
                continue;
            shared = shared == -1 ? stage : (shared == stage ? shared : -2);
        }
        stages[std::size_t(id)] = shared;
    }
    *distinct = int(seen.size());
    return stages;
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
        const graph::Node& node = tree.graph().nodes[std::size_t(item.node)];
        // A name that repeats the op type says nothing new; the output's shape does.
        if ((node.name == item.opType || item.opType.empty()) && !node.outputs.empty()
            && node.outputs.front().type.known())
            return QString::fromStdString(node.outputs.front().type.text());
        return QString::fromStdString(item.opType.empty() ? graph::nodeKindId(node.kind) : item.opType);
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
QColor roleTint(graph::ScopeRole role, int depth)
{
    const int shade = std::max(0, 24 - 4 * std::min(depth, 6));
    switch (role) {
    case graph::ScopeRole::Gradient:
        return QColor(232 + shade / 2, 214 + shade, 214 + shade);
    case graph::ScopeRole::Recompute:
        return QColor(232 + shade / 2, 226 + shade, 206 + shade);
    case graph::ScopeRole::Optimizer:
        return QColor(214 + shade, 232 + shade / 2, 214 + shade);
    case graph::ScopeRole::Forward:
        break;
    }
    return QColor(214 + shade, 222 + shade, 240 + shade / 2);
}

QString foldedText(const ScopeTree& tree, const ScopeItem& item)
{
    QStringList names;
    for (const int index : item.folded) {
        // Generated weights are often unnamed ops ("ConstantOfShape"); their value's name says more.
        const graph::Node& node = tree.graph().nodes[std::size_t(index)];
        const bool anonymous = node.name.empty() || node.name == node.opType;
        names << QString::fromStdString(anonymous && !node.outputs.empty() && !node.outputs.front().name.empty()
                                            ? node.outputs.front().name
                                            : node.name);
    }
    return names.join(QStringLiteral(", "));
}

} // namespace

GraphView::GraphView(QWidget* parent)
    : QWidget(parent)
    , m_engine(std::make_unique<GraphLayoutEngine>())
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setAutoFillBackground(false);
    setMinimumSize(200, 150);
}

GraphView::~GraphView() = default;

void GraphView::setTree(std::shared_ptr<const ScopeTree> tree, const graph::ExpansionState& state)
{
    m_tree = std::move(tree);
    m_state = state;
    m_selected = -1;
    m_upstream.clear();
    m_downstream.clear();
    m_boxSizes.assign(m_tree ? std::size_t(m_tree->itemCount()) : 0, QSizeF());
    m_stageCount = 0;
    m_itemStages = m_tree ? itemStages(*m_tree, &m_stageCount) : std::vector<int>();
    m_scene = {};
    m_result = {};
    m_fitPending = true;
    m_firstLayout = true;
    m_revealPending = -1;
    requestLayout();
    emit selectionChanged(-1);
}

void GraphView::setExpansionState(const graph::ExpansionState& state)
{
    if (state == m_state)
        return;
    m_state = state;
    requestLayout();
    emit expansionChanged();
}

void GraphView::setExpanded(int item, bool expanded)
{
    if (!m_tree || item <= 0 || item >= m_tree->itemCount() || !m_tree->item(item).isContainer())
        return;
    if (m_state.isExpanded(item) == expanded)
        return;
    m_state.setExpanded(item, expanded);
    requestLayout();
    emit expansionChanged();
}

void GraphView::toggleExpanded(int item)
{
    if (m_tree && item > 0 && item < m_tree->itemCount())
        setExpanded(item, !m_state.isExpanded(item));
}

int GraphView::expandAllBelow(int item, int maxVisible)
{
    if (!m_tree)
        return 0;
    if (item < 0)
        item = ScopeTree::root();
    graph::ExpansionState next = m_state;
    std::vector<int> stack { item };
    while (!stack.empty()) {
        const int current = stack.back();
        stack.pop_back();
        if (!m_tree->item(current).isContainer())
            continue;
        next.setExpanded(current, true);
        stack.insert(stack.end(), m_tree->item(current).children.begin(), m_tree->item(current).children.end());
    }
    for (const int ancestor : m_tree->ancestors(item))
        next.setExpanded(ancestor, true);
    const int visible = int(m_tree->visibleItems(next).size());
    if (visible > maxVisible) {
        emit message(tr("Expanding everything below \"%1\" would show %2 items (limit %3); expand a smaller group.")
                         .arg(QString::fromStdString(m_tree->item(item).label))
                         .arg(visible)
                         .arg(maxVisible));
        return visible;
    }
    setExpansionState(next);
    return visible;
}

void GraphView::collapseAllBelow(int item)
{
    if (!m_tree)
        return;
    if (item < 0)
        item = ScopeTree::root();
    graph::ExpansionState next = m_state;
    for (const int expanded : m_state.expanded()) {
        if (expanded == item || m_tree->isAncestor(item, expanded))
            next.setExpanded(expanded, false);
    }
    setExpansionState(next);
}

graph::ExpansionState GraphView::openingState(const ScopeTree& tree, int maxItems)
{
    graph::ExpansionState state;
    int visible = int(tree.item(ScopeTree::root()).children.size());
    std::vector<int> level { ScopeTree::root() };
    while (!level.empty()) {
        std::vector<int> next;
        for (const int id : level) {
            for (const int child : tree.item(id).children) {
                const int added = int(tree.item(child).children.size());
                if (!tree.item(child).isContainer() || tree.item(child).gathersInputs || visible + added > maxItems)
                    continue;
                state.setExpanded(child, true);
                visible += added;
                next.push_back(child);
            }
        }
        level = std::move(next);
    }
    return state;
}

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
    graph::ExpansionState next = m_state;
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

void GraphView::setRankDir(const QString& rankDir)
{
    if (rankDir == m_rankDir)
        return;
    m_rankDir = rankDir;
    m_fitPending = true;
    requestLayout();
}

void GraphView::setColorMode(ColorMode mode)
{
    m_colorMode = mode;
    rebuildMinimap();
    update();
}

void GraphView::setProfile(std::shared_ptr<const graph::ItemProfile> profile)
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

void GraphView::setEdgeLabelsVisible(bool visible)
{
    m_edgeLabels = visible;
    update();
}

void GraphView::setHighlightDepth(int depth)
{
    m_highlightDepth = std::max(0, depth);
    updateHighlight();
    update();
}

void GraphView::setMinimapVisible(bool visible)
{
    m_minimapVisible = visible;
    update();
}

std::vector<int> GraphView::shownItems() const
{
    std::vector<int> items;
    items.reserve(m_scene.boxes.size());
    for (const SceneBox& box : m_scene.boxes)
        items.push_back(box.item);
    return items;
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

void GraphView::requestLayout()
{
    if (!m_tree)
        return;
    LayoutRequest request;
    request.tree = m_tree;
    request.state = m_state;
    request.rankDir = m_rankDir;
    const QFontMetricsF metrics(font());
    request.frame.titleHeight = std::ceil(metrics.lineSpacing() + 8);
    for (const int id : m_tree->visibleItems(m_state)) {
        if (!(m_tree->item(id).isContainer() && m_state.isExpanded(id)))
            request.collapsedSizes.insert(id, boxSize(id));
    }
    request.serial = ++m_pendingSerial;
    m_engine->layout(std::move(request)).then(this, [this](LayoutResult result) { applyLayout(std::move(result)); });
}

void GraphView::applyLayout(LayoutResult result)
{
    if (result.serial != m_pendingSerial || result.tree != m_tree)
        return; // a newer request is on its way; keep the current picture until it lands
    m_result = std::move(result);
    m_shownSerial = m_result.serial;
    m_scene = GraphScene::compose(m_result);
    updateHighlight();
    rebuildMinimap();
    if (m_revealPending >= 0) {
        centreOn(m_revealPending);
        m_revealPending = -1;
    } else if (m_fitPending) {
        showStart();
    } else if (m_firstLayout
               && !QRectF(mapToScene(QPointF(0, 0)), mapToScene(QPointF(width(), height())))
                       .intersects(m_scene.bounds)) {
        showStart(); // a remembered view that no longer shows anything of the graph
    }
    m_firstLayout = false;
    m_fitPending = false;
    update();
    emit layoutFinished();
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

QColor GraphView::fillColor(int id) const
{
    const ScopeItem& item = m_tree->item(id);
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
            if (kind == graph::NodeKind::Input || kind == graph::NodeKind::Output)
                return QColor(220, 220, 220);
            if (kind == graph::NodeKind::Parameter || kind == graph::NodeKind::Constant)
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
        painter.setPen(QPen(QColor(150, 160, 180), 0));
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
        const graph::LiftedEdge& lifted = tree.edgesOf(edge.container)[std::size_t(edge.edge)];
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
        painter.drawText(QRectF(inner.left(), inner.top(), inner.width(), line), Qt::AlignCenter,
                         metrics.elidedText(QString::fromStdString(item.label), Qt::ElideMiddle, inner.width()));
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

} // namespace runlens::graphview
