#pragma once

#include "models/graph/scopetree.h"

#include <QFuture>
#include <QHash>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace runlens::widgets::graph {

/// Geometry of one container's direct children as laid out by Graphviz `dot`, in points with the origin at
/// the top-left of the container's content area (y down).
struct GroupLayout
{
    struct EdgeGeometry
    {
        int edge = -1; ///< index into ScopeTree::edgesOf(container)
        QPainterPath path;
        QPointF arrowFrom; ///< the arrowhead points from here to arrowTip
        QPointF arrowTip;
        bool hasArrow = false;
        QPointF labelPos;
    };

    QSizeF size;
    std::vector<QRectF> childRects; ///< parallel to ScopeItem::children
    std::vector<EdgeGeometry> edges;
    bool failed = false; ///< dot failed; children were stacked instead
};

/// Frame metrics of an expanded container drawn around its laid-out children.
struct FrameMetrics
{
    double padding = 12;
    double titleHeight = 22;

    QSizeF frameSize(QSizeF content) const
    {
        return { content.width() + 2 * padding, content.height() + titleHeight + 2 * padding };
    }
    QPointF contentOffset() const { return { padding, titleHeight + padding }; }
};

/// Everything a layout pass needs, captured by value so the pass can run on the layout thread.
struct LayoutRequest
{
    std::shared_ptr<const models::graph::ScopeTree> tree;
    models::graph::ExpansionState state;
    QHash<int, QSizeF> collapsedSizes; ///< fixed box sizes of the visible collapsed items
    QString rankDir = QStringLiteral("TB");
    FrameMetrics frame;
    quint64 serial = 0;
};

/// The layouts of every visible expanded container (and the root), keyed by container id.
struct LayoutResult
{
    quint64 serial = 0;
    std::shared_ptr<const models::graph::ScopeTree> tree;
    models::graph::ExpansionState state;
    FrameMetrics frame;
    std::unordered_map<int, std::shared_ptr<const GroupLayout>> groups;
    int dotRuns = 0; ///< how many containers were laid out (the others came from the cache)
    double milliseconds = 0;
};

/// Per-container layouts of one tree, reused while the sizes of the container's children stay the same.
struct LayoutCache
{
    const models::graph::ScopeTree* tree = nullptr;
    std::unordered_map<std::string, std::shared_ptr<const GroupLayout>> entries;
};

/// Runs per-group `dot` layouts on one dedicated thread with the process-wide Graphviz lock, bottom-up
/// over the expanded containers, caching each container's layout by (container, child sizes, rankdir).
/// An expansion therefore re-runs dot only for the expanded container and its ancestors. Owned by the
/// view; the cache lives in a shared state that only the layout thread touches.
class GraphLayoutEngine final
{
public:
    GraphLayoutEngine();
    ~GraphLayoutEngine();
    GraphLayoutEngine(const GraphLayoutEngine&) = delete;
    GraphLayoutEngine& operator=(const GraphLayoutEngine&) = delete;

    QFuture<LayoutResult> layout(LayoutRequest request);
    /// The same pass on the calling thread (benchmarks and the command line export).
    static LayoutResult layoutNow(const LayoutRequest& request, LayoutCache& cache);

    /// Lays out one container with `dot` (the caller holds the Graphviz lock). Public for tests.
    static GroupLayout runDot(const models::graph::ScopeTree& tree, int container,
                              const std::vector<QSizeF>& childSizes, const QString& rankDir);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace runlens::widgets::graph
