#include "widgets/graph/graphscene.h"

#include <QLineF>

namespace runlens::widgets::graph {

GraphScene GraphScene::compose(const LayoutResult& result)
{
    GraphScene scene;
    if (result.tree && result.groups.count(models::graph::ScopeTree::root()))
        scene.place(result, models::graph::ScopeTree::root(), QPointF(0, 0));
    for (const SceneBox& box : scene.boxes)
        scene.bounds = scene.bounds.isNull() ? box.rect : scene.bounds.united(box.rect);
    return scene;
}

void GraphScene::place(const LayoutResult& result, int container, QPointF origin)
{
    const auto& layout = *result.groups.at(container);
    const auto& tree = *result.tree;
    const auto& children = tree.item(container).children;
    const auto& lifted = tree.edgesOf(container);
    for (const GroupLayout::EdgeGeometry& geometry : layout.edges) {
        SceneEdge edge;
        edge.container = container;
        edge.edge = geometry.edge;
        edge.from = lifted[std::size_t(geometry.edge)].from;
        edge.to = lifted[std::size_t(geometry.edge)].to;
        edge.path = geometry.path.translated(origin);
        edge.labelPos = geometry.labelPos + origin;
        if (geometry.hasArrow) {
            const QPointF tip = geometry.arrowTip + origin;
            const QPointF base = geometry.arrowFrom + origin;
            const QLineF axis(base, tip);
            const QPointF normal = axis.length() > 0
                ? QPointF(-axis.dy(), axis.dx()) / axis.length() * (axis.length() * 0.45)
                : QPointF();
            edge.arrow = QPolygonF({ tip, base + normal, base - normal });
        }
        edge.bounds = edge.path.boundingRect().united(edge.arrow.boundingRect());
        edges.push_back(std::move(edge));
    }
    for (std::size_t i = 0; i < children.size() && i < layout.childRects.size(); ++i) {
        const int child = children[i];
        SceneBox box;
        box.item = child;
        box.rect = layout.childRects[i].translated(origin);
        const auto inner = result.groups.find(child);
        box.expanded = inner != result.groups.end() && tree.item(child).isContainer();
        m_boxOfItem[child] = int(boxes.size());
        boxes.push_back(box);
        if (box.expanded) {
            // Centre the content when the frame was sized for a different (older) content size.
            const QSizeF frame = result.frame.frameSize(inner->second->size);
            const QPointF slack((box.rect.width() - frame.width()) / 2, (box.rect.height() - frame.height()) / 2);
            place(result, child, box.rect.topLeft() + result.frame.contentOffset() + slack);
        }
    }
}

int GraphScene::boxOf(int item) const
{
    const auto found = m_boxOfItem.find(item);
    return found == m_boxOfItem.end() ? -1 : found->second;
}

int GraphScene::boxAt(QPointF scenePos) const
{
    for (int i = int(boxes.size()) - 1; i >= 0; --i) {
        if (boxes[std::size_t(i)].rect.contains(scenePos))
            return i;
    }
    return -1;
}

} // namespace runlens::widgets::graph
