#include "widgets/graph/graphview.h"

#include <QFontMetricsF>
#include <QFuture>

#include <cmath>
#include <set>

namespace runlens::widgets::graph {

using models::graph::ScopeItemKind;
using models::graph::ScopeTree;

namespace {

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
        const models::graph::ScopeItem& item = tree.item(id);
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

void GraphView::setTree(std::shared_ptr<const ScopeTree> tree, const models::graph::ExpansionState& state)
{
    m_tree = std::move(tree);
    m_state = state;
    m_selected = -1;
    m_upstream.clear();
    m_downstream.clear();
    m_boxSizes.assign(m_tree ? std::size_t(m_tree->itemCount()) : 0, QSizeF());
    m_itemColors.clear();
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

void GraphView::setExpansionState(const models::graph::ExpansionState& state)
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
    models::graph::ExpansionState next = m_state;
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
    models::graph::ExpansionState next = m_state;
    for (const int expanded : m_state.expanded()) {
        if (expanded == item || m_tree->isAncestor(item, expanded))
            next.setExpanded(expanded, false);
    }
    setExpansionState(next);
}

models::graph::ExpansionState GraphView::openingState(const ScopeTree& tree, int maxItems)
{
    models::graph::ExpansionState state;
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

void GraphView::setRankDir(const QString& rankDir)
{
    if (rankDir == m_rankDir)
        return;
    m_rankDir = rankDir;
    m_fitPending = true;
    requestLayout();
}

void GraphView::setEdgeLabelsVisible(bool visible)
{
    m_edgeLabels = visible;
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

} // namespace runlens::widgets::graph
