#pragma once

#include <QPointF>
#include <QQuaternion>
#include <QSize>
#include <QVector3D>

#include <vector>

namespace runlens::widgets::projector {

/// The camera of the 3-D scatter: the points are centred on their bounding box and scaled into the unit
/// sphere, rotated (a trackball: dragging turns the scene about the axis perpendicular to the drag), seen
/// in perspective from kDistance on the +z axis, then zoomed and panned on the screen. The OpenGL and the
/// QPainter paths draw with this same projection, so picking and labels agree with what either shows.
class OrbitView
{
public:
    static constexpr float kDistance = 3.0f; ///< camera to centre, in unit-sphere radii
    static constexpr float kFocal = 2.6f; ///< a point of the unit sphere at depth 0 lands at 0.87 of the half size

    struct Projected
    {
        QPointF position; ///< widget coordinates
        float depth = 0.0f; ///< distance from the camera along its axis (smaller is nearer)
        bool visible = false; ///< in front of the camera
    };

    /// Centres and scales the view on `xyz` (three floats per point); non-finite points are skipped.
    void fit(const std::vector<float>& xyz);
    /// Back to the starting orientation (tilted so that depth shows), no zoom and no pan.
    void reset();

    /// Turns the scene by a drag of `delta` pixels in a widget of `size`.
    void rotateBy(QPointF delta, QSize size);
    /// Moves the scene by `delta` pixels.
    void panBy(QPointF delta, QSize size);
    /// Multiplies the zoom (above 1 is closer), kept within sensible bounds.
    void zoomBy(double factor);

    void setRotation(const QQuaternion& rotation) { m_rotation = rotation.normalized(); }
    QQuaternion rotation() const { return m_rotation; }
    double zoom() const { return m_zoom; }
    QPointF pan() const { return m_pan; }
    QVector3D centre() const { return m_centre; }
    float radius() const { return m_radius; }

    /// Screen pixels per unit of the normalised picture plane: half the shorter side.
    static double scaleFor(QSize size) { return 0.5 * std::min(size.width(), size.height()); }
    /// `point` (data coordinates) in the rotated, normalised space: the camera looks down -z from kDistance.
    QVector3D toView(const QVector3D& point) const;
    Projected project(const QVector3D& point, QSize size) const;

private:
    QVector3D m_centre;
    float m_radius = 1.0f;
    QQuaternion m_rotation;
    double m_zoom = 1.0;
    QPointF m_pan; ///< in picture-plane units
};

/// The index of the projected point nearest to `pos` within `radius` pixels (the nearer to the camera on a
/// tie), -1 when there is none. `projected` is one entry per point.
int pickNearest(const std::vector<OrbitView::Projected>& projected, QPointF pos, double radius);

} // namespace runlens::widgets::projector
