#include "widgets/projector/orbitview.h"

#include <algorithm>
#include <cmath>

namespace runlens::widgets::projector {

namespace {

constexpr double kDegreesPerPixel = 0.4;
constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 200.0;
constexpr float kNear = 0.05f; ///< nearer to the camera than this a point is not drawn

} // namespace

void OrbitView::fit(const std::vector<float>& xyz)
{
    QVector3D low(INFINITY, INFINITY, INFINITY);
    QVector3D high(-INFINITY, -INFINITY, -INFINITY);
    for (std::size_t i = 0; i + 2 < xyz.size(); i += 3) {
        if (!std::isfinite(xyz[i]) || !std::isfinite(xyz[i + 1]) || !std::isfinite(xyz[i + 2]))
            continue;
        for (int a = 0; a < 3; ++a) {
            low[a] = std::min(low[a], xyz[i + std::size_t(a)]);
            high[a] = std::max(high[a], xyz[i + std::size_t(a)]);
        }
    }
    if (!(low.x() <= high.x())) {
        m_centre = QVector3D();
        m_radius = 1.0f;
        return;
    }
    m_centre = (low + high) * 0.5f;
    m_radius = std::max(1e-9f, (high - low).length() * 0.5f);
}

void OrbitView::reset()
{
    // A little from above and from the side: head-on, the third axis would not show at all.
    m_rotation = QQuaternion::fromEulerAngles(20.0f, -30.0f, 0.0f);
    m_zoom = 1.0;
    m_pan = QPointF();
}

void OrbitView::rotateBy(QPointF delta, QSize)
{
    const double length = std::hypot(delta.x(), delta.y());
    if (length <= 0.0)
        return;
    // Screen y grows downwards: dragging right turns about +y, dragging down about +x.
    const QVector3D axis(float(delta.y() / length), float(delta.x() / length), 0.0f);
    m_rotation = (QQuaternion::fromAxisAndAngle(axis, float(length * kDegreesPerPixel)) * m_rotation).normalized();
}

void OrbitView::panBy(QPointF delta, QSize size)
{
    const double scale = scaleFor(size);
    if (scale <= 0.0)
        return;
    m_pan += QPointF(delta.x() / scale, -delta.y() / scale);
}

void OrbitView::zoomBy(double factor)
{
    if (factor > 0.0 && std::isfinite(factor))
        m_zoom = std::clamp(m_zoom * factor, kMinZoom, kMaxZoom);
}

QVector3D OrbitView::toView(const QVector3D& point) const
{
    return m_rotation.rotatedVector((point - m_centre) / m_radius);
}

OrbitView::Projected OrbitView::project(const QVector3D& point, QSize size) const
{
    const QVector3D v = toView(point);
    Projected p;
    p.depth = kDistance - v.z();
    p.visible = p.depth > kNear;
    const double scale = scaleFor(size);
    const double k = kFocal / std::max(p.depth, kNear) * m_zoom;
    const double x = v.x() * k + m_pan.x();
    const double y = v.y() * k + m_pan.y();
    p.position = QPointF(0.5 * size.width() + x * scale, 0.5 * size.height() - y * scale);
    return p;
}

int pickNearest(const std::vector<OrbitView::Projected>& projected, QPointF pos, double radius)
{
    // Points less than a pixel apart on screen count as one place: the one nearer to the camera is the one seen.
    constexpr double kSamePlace = 1.0;
    int best = -1;
    double bestDistance = INFINITY;
    float bestDepth = INFINITY;
    for (std::size_t i = 0; i < projected.size(); ++i) {
        const OrbitView::Projected& p = projected[i];
        if (!p.visible)
            continue;
        const double d = std::hypot(p.position.x() - pos.x(), p.position.y() - pos.y());
        if (d > radius)
            continue;
        const bool samePlace = std::abs(d - bestDistance) <= kSamePlace;
        if ((samePlace && p.depth < bestDepth) || (!samePlace && d < bestDistance)) {
            best = int(i);
            bestDistance = d;
            bestDepth = p.depth;
        }
    }
    return best;
}

} // namespace runlens::widgets::projector
