#pragma once

#include "widgets/projector/spritesheet.h"

#include <QImage>
#include <QRgb>
#include <QWidget>

#include <functional>
#include <vector>

namespace runlens::widgets::projector {

/// A 2-D scatter of many points (100k and more), drawn pixel by pixel into a cached QImage rather than
/// as QPainter shapes, so one frame stays within a few milliseconds. Points can be marked (search match,
/// neighbour, selected); while any point is marked as a match the others are dimmed. Wheel zooms around
/// the cursor, dragging pans, double-click resets the view. The widget owns copies of the coordinates.
class ProjectorScatter final : public QWidget
{
    Q_OBJECT
public:
    enum Mark : quint8 { None = 0, Match = 1, Neighbour = 2, Selected = 4 };

    explicit ProjectorScatter(QWidget* parent = nullptr);
    /// Room for a readable picture: the splitter beside the neighbour list starts from this.
    QSize sizeHint() const override { return { 640, 480 }; }

    /// Replaces the points; resets the view to fit them.
    void setPoints(std::vector<float> xs, std::vector<float> ys);
    void setColors(std::vector<QRgb> colors);
    /// One Mark combination per point (empty: none).
    void setMarks(std::vector<quint8> marks, bool dimUnmatched);
    /// The text shown beside the hovered point.
    void setLabelProvider(std::function<QString(int)> provider) { m_labelProvider = std::move(provider); }
    void setAxisTitles(const QString& x, const QString& y);
    /// Thumbnails: point i shows cell `cells[i]` of `sheet` (-1 or out of range: a dot) while sprites are shown.
    void setSprites(SpriteSheet sheet, std::vector<int> cells);
    void setShowSprites(bool show);
    bool showsSprites() const { return m_showSprites && !m_sheet.isNull(); }
    /// Side in pixels of a drawn thumbnail: the cell's, within 16 to 32.
    int spriteSide() const;
    void resetView();

    int pointCount() const { return int(m_xs.size()); }
    int hoveredPoint() const { return m_hovered; }
    /// The point within a few pixels of `pos` nearest to it, -1 when none.
    int pointAt(QPointF pos) const;
    /// Where point `index` is drawn, in widget coordinates.
    QPointF pointPosition(int index) const;

    /// The scatter as a picture of `size` logical pixels at `devicePixelRatio` (for export and tests).
    QImage render(QSize size, qreal devicePixelRatio = 1.0) const;

signals:
    void pointClicked(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Transform
    {
        double sx = 1, sy = 1, ox = 0, oy = 0;
    };
    Transform transformFor(QSize size) const;
    QRectF plotRect(QSize size) const;
    void invalidate();

    std::vector<float> m_xs;
    std::vector<float> m_ys;
    std::vector<QRgb> m_colors;
    std::vector<quint8> m_marks;
    bool m_dimUnmatched = false;
    QRectF m_view; ///< data rectangle shown
    QString m_xTitle;
    QString m_yTitle;
    std::function<QString(int)> m_labelProvider;
    SpriteSheet m_sheet;
    std::vector<int> m_cells;
    bool m_showSprites = true;
    mutable QImage m_cache;
    int m_hovered = -1;
    QPoint m_pressPos;
    QRectF m_pressView;
    bool m_dragging = false;
};

} // namespace runlens::widgets::projector
