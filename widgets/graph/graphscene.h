#pragma once

#include "widgets/graph/graphlayout.h"

#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>

#include <unordered_map>
#include <vector>

namespace runlens::widgets::graph {

/// One visible item placed in scene coordinates: a collapsed box or the frame of an expanded container.
struct SceneBox
{
    int item = -1;
    QRectF rect;
    bool expanded = false;
};

/// One lifted edge placed in scene coordinates.
struct SceneEdge
{
    int container = -1;
    int edge = -1; ///< index into ScopeTree::edgesOf(container)
    int from = -1; ///< the items at both ends
    int to = -1;
    QPainterPath path;
    QRectF bounds;
    QPolygonF arrow;
    QPointF labelPos;
};

/// The flat, absolutely positioned picture of a LayoutResult: per-group layouts stacked top-down into
/// their frames. Boxes are in depth-first order, so a frame precedes everything inside it.
class GraphScene
{
public:
    static GraphScene compose(const LayoutResult& result);

    std::vector<SceneBox> boxes;
    std::vector<SceneEdge> edges;
    QRectF bounds;

    bool isEmpty() const { return boxes.empty(); }
    /// The index into `boxes` of the item, or -1 when it is not in the picture.
    int boxOf(int item) const;
    /// The innermost box under a scene point, or -1.
    int boxAt(QPointF scenePos) const;

private:
    void place(const LayoutResult& result, int container, QPointF origin);

    std::unordered_map<int, int> m_boxOfItem;
};

} // namespace runlens::widgets::graph
