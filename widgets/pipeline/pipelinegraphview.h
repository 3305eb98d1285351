#pragma once

#include "models/pipeline/datapipeline.h"

#include <QColor>
#include <QRectF>
#include <QWidget>

#include <memory>
#include <vector>

namespace runlens::widgets::pipeline {

/// The dataset pipeline as a small left-to-right graph: sources on the left, the root (usually Batch) and
/// then the queue to the device on the right. Each op is a box with its type, id and worker count; the
/// strip under it and the arrow it sends to its parent are coloured by how full its output queue is (red
/// empty ... green full); bottlenecks get a thick outline. Pipelines have a handful of ops, so the layout
/// is a column per depth done here, without Graphviz. Clicking an op selects it (opSelected).
class PipelineGraphView final : public QWidget
{
    Q_OBJECT
public:
    explicit PipelineGraphView(QWidget* parent = nullptr);
    ~PipelineGraphView() override;

    void setPipeline(std::shared_ptr<const models::pipeline::DataPipeline> pipeline);
    std::shared_ptr<const models::pipeline::DataPipeline> pipeline() const { return m_pipeline; }

    /// Op boxes drawn (the device queue box is not counted).
    int nodeCount() const { return int(m_nodes.size()); }
    /// Where an op's box is drawn, in widget coordinates; empty for an op that is not drawn.
    QRectF nodeRect(int opId) const;
    /// The box of the queue to the device, right of the root; empty when nothing is drawn.
    QRectF deviceQueueRect() const;
    /// The op under a widget position, or -1.
    int opAt(const QPointF& pos) const;
    /// The tooltip text (rich text) of an op.
    QString toolTipForOp(int opId) const;

    int selectedOp() const { return m_selected; }
    void setSelectedOp(int opId);

    /// Red for an empty queue through yellow to green for a full one; grey when unknown (NaN).
    static QColor usageColor(double usage);
    static QColor bottleneckColor();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void opSelected(int opId);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Node
    {
        int opId = -1;
        QRectF rect; ///< in layout coordinates
    };

    void layoutNodes();
    /// Fits the layout into the current size; cheap, and done on demand because a hidden widget is resized
    /// without resize events.
    void updateTransform() const;
    QRectF toWidget(const QRectF& rect) const;
    const Node* nodeFor(int opId) const;

    std::shared_ptr<const models::pipeline::DataPipeline> m_pipeline;
    std::vector<Node> m_nodes;
    QRectF m_device; ///< layout coordinates
    QRectF m_bounds; ///< everything drawn, layout coordinates
    mutable double m_scale = 1.0;
    mutable QPointF m_offset;
    mutable QSize m_transformSize;
    int m_selected = -1;
};

} // namespace runlens::widgets::pipeline
