#pragma once

#include "widgets/projector/orbitview.h"
#include "widgets/projector/spritesheet.h"

#include <QImage>
#include <QRgb>
#include <QWidget>

#include <functional>
#include <vector>

namespace runlens::widgets::projector {

class Scatter3dGl;
class Scatter3dOverlay;

/// A 3-D scatter of many points. Drag rotates (trackball), shift-drag or the middle button pans, the wheel
/// zooms, double-click resets the view; clicking picks the point nearest to the cursor on screen. Where an
/// OpenGL context can be made the points are drawn by a QOpenGLWidget child from vertex buffers filled once
/// per set of points (a frame only sets the camera); otherwise (offscreen, no driver) the same scene is drawn
/// with a depth buffer into a QImage. Rings, labels of the selected point and its neighbours, the hovered
/// label and the axis gizmo are painted with QPainter on top in both cases. Marks and colours mean what they
/// mean in ProjectorScatter.
class ProjectorScatter3d final : public QWidget
{
    Q_OBJECT
public:
    explicit ProjectorScatter3d(QWidget* parent = nullptr);
    /// Room for a readable picture: the splitter beside the neighbour list starts from this.
    QSize sizeHint() const override { return { 640, 480 }; }
    ~ProjectorScatter3d() override;

    /// Replaces the points (three floats each, x y z) and fits the view to them; the rotation, zoom and pan
    /// are reset unless `keepView` (a layout that moves while it is looked at, as t-SNE's does).
    void setPoints(std::vector<float> xyz, bool keepView = false);
    void setColors(std::vector<QRgb> colors);
    void setMarks(std::vector<quint8> marks, bool dimUnmatched);
    void setLabelProvider(std::function<QString(int)> provider) { m_labelProvider = std::move(provider); }
    void setAxisTitles(const QString& x, const QString& y, const QString& z);
    /// Thumbnails: point i shows cell `cells[i]` of `sheet` (-1 or out of range: a dot).
    void setSprites(SpriteSheet sheet, std::vector<int> cells);
    void setShowSprites(bool show);
    bool showsSprites() const { return m_showSprites && !m_sheet.isNull(); }
    void resetView();

    OrbitView& view() { return m_view; }
    const OrbitView& view() const { return m_view; }
    int pointCount() const { return int(m_xyz.size() / 3); }
    int hoveredPoint() const { return m_hovered; }
    /// The point nearest to `pos` on screen within a few pixels, -1 when none.
    int pointAt(QPointF pos) const;
    QPointF pointPosition(int index) const;
    /// True when the points are drawn with OpenGL (false until the widget is first shown).
    bool usesOpenGl() const { return m_gl != nullptr; }
    /// Whether an OpenGL context can be created on this platform (probed once).
    static bool openGlAvailable();

    /// The scene drawn without OpenGL at `size` logical pixels (export, tests, and the fallback).
    QImage render(QSize size, qreal devicePixelRatio = 1.0) const;

signals:
    void pointClicked(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    friend class Scatter3dGl;
    friend class Scatter3dOverlay;
    enum class Drag { None, Rotate, Pan };

    QVector3D point(std::size_t index) const
    {
        return { m_xyz[3 * index], m_xyz[3 * index + 1], m_xyz[3 * index + 2] };
    }
    /// Draws the points (no overlay) into `image` with a depth buffer.
    void renderPoints(QImage& image, QSize size, qreal devicePixelRatio) const;
    /// Rings, labels, hovered label, axis gizmo and hint, over the points.
    void paintOverlay(QPainter& painter, QSize size, bool hover) const;
    /// The per-point colour as drawn: faded when dimmed, with the depth cue left to the caller.
    QRgb pointColor(std::size_t index) const;
    int pointRadius() const;
    int spriteSide() const;
    void viewChanged();
    void sceneChanged();
    /// The shaders did not build: the scene is painted without OpenGL from now on.
    void dropOpenGl();

    std::vector<float> m_xyz;
    std::vector<QRgb> m_colors;
    std::vector<quint8> m_marks;
    bool m_dimUnmatched = false;
    QString m_titles[3];
    SpriteSheet m_sheet;
    std::vector<int> m_cells;
    bool m_showSprites = true;
    std::function<QString(int)> m_labelProvider;
    OrbitView m_view;
    mutable QImage m_cache; ///< the software picture of the current view
    Scatter3dGl* m_gl = nullptr;
    Scatter3dOverlay* m_overlay = nullptr;
    bool m_glRefused = false;
    int m_hovered = -1;
    QPointF m_lastPos;
    QPointF m_pressPos;
    Drag m_drag = Drag::None;
    bool m_pressedOnPoint = false;
};

} // namespace runlens::widgets::projector
