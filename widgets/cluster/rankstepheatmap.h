#pragma once

#include "widgets/cluster/rankstepimage.h"

#include <QImage>
#include <QWidget>

#include <memory>

namespace runlens::widgets::cluster {

/// The rank × step heatmap of the Cluster panel: one row per rank, one column per step, coloured by a step
/// figure (step time or wait time), with a colour bar, thinned rank and step labels and the selected rank
/// outlined. The cells are one picture built on a worker at the widget's size, so a thousand ranks by a
/// thousand steps paints as a single blit; shrinking keeps the largest value under each pixel. Hovering
/// tells the cell against its step's median; a click selects the rank (rankClicked), a double-click opens
/// it (rankActivated). Shares the matrix it is given.
class RankStepHeatmap final : public QWidget
{
    Q_OBJECT
public:
    explicit RankStepHeatmap(QWidget* parent = nullptr);
    ~RankStepHeatmap() override;

    /// Shows `matrix` (null: nothing); the picture follows on a worker (imageReady).
    void setMatrix(std::shared_ptr<const models::cluster::RankStepMatrix> matrix);
    std::shared_ptr<const models::cluster::RankStepMatrix> matrix() const { return m_matrix; }
    /// Rows by rank number (default) or by the rank's mean, the slowest on top.
    void setRowsByMean(bool byMean);
    bool rowsByMean() const { return m_byMean; }
    void setSelectedRank(int rank);
    int selectedRank() const { return m_selectedRank; }

    /// True while the picture for the current matrix, order and size is being built.
    bool isBuilding() const { return m_pending > 0; }
    const RankStepImage* image() const { return m_image.get(); }
    /// Where the cells are drawn, in widget coordinates.
    QRect plotRect() const;
    /// The cell under `pos` (the one with the largest value under that pixel): display row and column, or
    /// {-1, -1}.
    std::pair<int, int> cellAt(const QPoint& pos) const;
    /// The centre of the cell of rank `rank` and step column `column`, in widget coordinates.
    QPoint cellCenter(int rank, int column) const;
    /// What the tooltip says of a cell.
    QString cellText(int row, int column) const;

signals:
    void imageReady();
    void rankClicked(int rank);
    void rankActivated(int rank);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void imageBuilt(quint64 generation, QSize size, std::shared_ptr<const RankStepImage> image, QImage rendered);
    void imageRendered(quint64 generation, QSize size, QImage rendered);
    void rebuildImage();
    void renderAtSize();
    QString metricName() const;
    int rankAt(const QPoint& pos) const;

    std::shared_ptr<const models::cluster::RankStepMatrix> m_matrix;
    std::shared_ptr<const RankStepImage> m_image;
    QImage m_rendered;
    bool m_byMean = false;
    int m_selectedRank = -1;
    quint64 m_generation = 0;
    int m_pending = 0;
};

} // namespace runlens::widgets::cluster
