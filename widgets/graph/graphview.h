#pragma once

#include "models/graph/graphoverlay.h"
#include "models/graph/scopetree.h"
#include "widgets/graph/graphlayout.h"
#include "widgets/graph/graphscene.h"

#include <QImage>
#include <QPointer>
#include <QWidget>

#include <memory>
#include <unordered_set>

namespace runlens::widgets::graph {

/// Paints a ScopeTree as nested per-group layouts and lets the user expand, collapse, zoom, pan and select.
/// A plain QWidget painting flat arrays (no item objects): at 20k ops collapsed the picture holds a few
/// hundred boxes, and even fully expanded groups cost one rect test per box per frame, with text and
/// borders dropped when they would be unreadably small. Layout passes run on GraphLayoutEngine's thread;
/// the old picture stays until the new one arrives.
class GraphView final : public QWidget
{
    Q_OBJECT
public:
    enum class ColorMode { OpType, Namespace, ProfilerTime, Stage };
    Q_ENUM(ColorMode)

    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    void setTree(std::shared_ptr<const models::graph::ScopeTree> tree, const models::graph::ExpansionState& state = {});
    const std::shared_ptr<const models::graph::ScopeTree>& tree() const { return m_tree; }

    /// The latest requested state; the picture follows when its layout is done.
    const models::graph::ExpansionState& expansionState() const { return m_state; }
    void setExpansionState(const models::graph::ExpansionState& state);
    void setExpanded(int item, bool expanded);
    void toggleExpanded(int item);
    /// Expands `item` and every container below it unless that would show more than `maxVisible` items;
    /// returns the number of items it would show (refused when above the limit).
    int expandAllBelow(int item, int maxVisible);
    void collapseAllBelow(int item);

    int selectedItem() const { return m_selected; }
    void setSelectedItem(int item);
    /// Expands the item's ancestors, selects it and centres it once the layout has arrived.
    void revealItem(int item);

    QString rankDir() const { return m_rankDir; }
    void setRankDir(const QString& rankDir);
    ColorMode colorMode() const { return m_colorMode; }
    /// True when the shown graph says which pipeline stage its ops run in (parallel strategy files).
    bool hasStages() const { return m_stageCount > 0; }
    /// The fill of pipeline stage `stage` in the Stage colouring.
    static QColor stageColor(int stage);
    void setColorMode(ColorMode mode);
    /// Profiler time per item for the ProfilerTime colouring; ignored unless made for the shown tree.
    void setProfile(std::shared_ptr<const models::graph::ItemProfile> profile);
    const std::shared_ptr<const models::graph::ItemProfile>& profile() const { return m_profile; }
    /// The heat colour of a share of the largest shown time (0..1).
    static QColor heatColor(double fraction);
    /// The colour of boxes without profiler time in ProfilerTime mode.
    static QColor noTimeColor() { return QColor(238, 238, 238); }
    bool edgeLabelsVisible() const { return m_edgeLabels; }
    void setEdgeLabelsVisible(bool visible);
    int highlightDepth() const { return m_highlightDepth; }
    void setHighlightDepth(int depth);
    /// Shown items traced upstream / downstream of the selected op, to the highlight depth.
    const std::unordered_set<int>& upstreamItems() const { return m_upstream; }
    const std::unordered_set<int>& downstreamItems() const { return m_downstream; }
    void setMinimapVisible(bool visible);
    /// Fills that override the colouring for some items of the shown tree (index = item id; an invalid colour
    /// keeps the colour mode's), for panels that paint their own verdicts on the graph. setTree clears them.
    void setItemColors(std::vector<QColor> colors);
    /// The fill an item is painted with under the current colouring and item colours.
    QColor itemFill(int item) const
    {
        return m_tree && item >= 0 && item < m_tree->itemCount() ? fillColor(item) : QColor();
    }

    bool isLayoutPending() const { return m_pendingSerial != m_shownSerial; }
    const GraphScene& scene() const { return m_scene; }
    /// Items in the current picture (frames of expanded containers included).
    std::vector<int> shownItems() const;
    const LayoutResult& layoutResult() const { return m_result; }

    double zoom() const { return m_zoom; }
    QPointF viewCentre() const;
    void setViewport(double zoom, QPointF centre);
    void fitToView();
    /// Fits the picture when it is readable that way, else shows its beginning at a readable zoom.
    void showStart();
    void centreOn(int item);
    QPointF mapToScene(QPointF widgetPos) const;
    QPointF mapFromScene(QPointF scenePos) const;

    /// Containers opened breadth-first from the root while at most `maxItems` items show: how a graph
    /// looks on its first visit (a lone "Default" box says little).
    static models::graph::ExpansionState openingState(const models::graph::ScopeTree& tree, int maxItems);

    /// The size a collapsed item gets, measured with the widget's font.
    QSizeF boxSize(int item) const;
    /// Paints the scene region `sceneRect` onto `painter`, which maps scene coordinates already.
    void paintScene(QPainter& painter, const QRectF& sceneRect, double scale) const;

    static constexpr double kMinZoom = 0.02;
    static constexpr double kMaxZoom = 4.0;
    static constexpr double kReadableZoom = 0.6;

signals:
    void selectionChanged(int item);
    void expansionChanged();
    void layoutFinished();
    void viewportChanged();
    void message(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    void requestLayout();
    void applyLayout(LayoutResult result);
    void updateHighlight();
    QColor fillColor(int item) const;
    /// Largest profiler time among the shown collapsed boxes: the top of the heat scale.
    void updateHeatScale() const;
    void paintHeatLegend(QPainter& painter) const;
    QRectF minimapRect() const;
    void rebuildMinimap();
    void centreMinimapAt(QPointF widgetPos);
    bool onFrameTitle(int boxIndex, QPointF scenePos) const;
    void zoomAt(QPointF widgetPos, double factor);

    std::shared_ptr<const models::graph::ScopeTree> m_tree;
    models::graph::ExpansionState m_state;
    std::unique_ptr<GraphLayoutEngine> m_engine;
    LayoutResult m_result;
    GraphScene m_scene;
    quint64 m_pendingSerial = 0;
    quint64 m_shownSerial = 0;
    mutable std::vector<QSizeF> m_boxSizes;

    QString m_rankDir = QStringLiteral("TB");
    ColorMode m_colorMode = ColorMode::OpType;
    std::shared_ptr<const models::graph::ItemProfile> m_profile;
    mutable std::int64_t m_heatMax = 0;
    std::vector<QColor> m_itemColors; ///< per item, see setItemColors
    std::vector<int> m_itemStages; ///< per item: the stage all its ops share, -1 none, -2 several
    int m_stageCount = 0;
    bool m_edgeLabels = true;
    int m_highlightDepth = 1;
    bool m_minimapVisible = true;

    int m_selected = -1;
    std::unordered_set<int> m_upstream;
    std::unordered_set<int> m_downstream;
    int m_revealPending = -1;
    bool m_fitPending = true;
    bool m_firstLayout = true;

    double m_zoom = 1.0;
    QPointF m_offset; ///< widget position of the scene origin
    QPoint m_dragStart;
    QPointF m_dragOffset;
    bool m_dragging = false;
    bool m_minimapDrag = false;
    QImage m_minimap;
    QRectF m_minimapScene;
};

} // namespace runlens::widgets::graph
