#include "widgets/projector/projectorscatter3d.h"

#include "widgets/projector/projectorscatter.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLBuffer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLTexture>
#include <QOpenGLVertexArrayObject>
#include <QOpenGLWidget>
#include <QPainter>
#include <QVector2D>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace runlens::widgets::projector {

namespace {

constexpr double kHoverRadius = 6.0;
constexpr QRgb kBackground = 0xffffffff;
constexpr QRgb kDefaultColor = 0xff4c78a8;
constexpr float kDimStrength = 0.3f; ///< how much of a dimmed sprite shows through the background
constexpr float kDepthFade = 0.35f; ///< the farthest points are blended this far towards the background
constexpr int kMaxNeighbourLabels = 30;
constexpr int kGizmoLength = 28;

QRgb faded(QRgb color)
{
    auto mix = [](int c) { return (c + 3 * 255) / 4; };
    return qRgb(mix(qRed(color)), mix(qGreen(color)), mix(qBlue(color)));
}

/// The depth cue: 0 at the front of the unit sphere, 1 at its back.
float depthFraction(float depth)
{
    return std::clamp((depth - OrbitView::kDistance + 1.0f) * 0.5f, 0.0f, 1.0f);
}

QRgb towardsBackground(QRgb color, float amount)
{
    auto mix = [amount](int c) { return int(std::lround(c + (255 - c) * amount)); };
    return qRgb(mix(qRed(color)), mix(qGreen(color)), mix(qBlue(color)));
}

/// Fills a disc, writing only pixels nearer than what the depth buffer holds.
void stampDepth(QImage& image, std::vector<float>& depthBuffer, int cx, int cy, int radius, float depth, QRgb color)
{
    const int width = image.width();
    const int y0 = std::max(0, cy - radius);
    const int y1 = std::min(image.height() - 1, cy + radius);
    const int limit = radius * radius + radius;
    for (int y = y0; y <= y1; ++y) {
        const int dy = y - cy;
        int half = radius;
        while (half > 0 && half * half + dy * dy > limit)
            --half;
        const int x0 = std::max(0, cx - half);
        const int x1 = std::min(width - 1, cx + half);
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        float* depths = depthBuffer.data() + std::size_t(y) * std::size_t(width);
        for (int x = x0; x <= x1; ++x) {
            if (depth < depths[x]) {
                depths[x] = depth;
                line[x] = color;
            }
        }
    }
}

/// Draws a label box beside `at`; with `taken`, a box that would cover one already drawn is left out (labels
/// of a tight cluster would otherwise pile up unreadably).
void drawLabel(QPainter& painter, const QFontMetrics& metrics, QPointF at, const QString& text, QSize size, bool strong,
               std::vector<QRectF>* taken = nullptr)
{
    if (text.isEmpty())
        return;
    QRectF box = QRectF(metrics.boundingRect(text)).adjusted(-4, -2, 4, 2);
    box.moveTopLeft(at + QPointF(8, -box.height() - 2));
    if (box.right() > size.width() - 2)
        box.moveRight(at.x() - 8);
    if (box.top() < 2)
        box.moveTop(at.y() + 8);
    if (taken) {
        if (std::any_of(taken->begin(), taken->end(), [&](const QRectF& other) { return other.intersects(box); }))
            return;
        taken->push_back(box);
    }
    painter.setPen(strong ? QColor(0x40, 0x40, 0x40) : QColor(0xa0, 0xa0, 0xa0));
    painter.setBrush(strong ? QColor(255, 255, 240, 235) : QColor(255, 255, 255, 200));
    painter.drawRoundedRect(box, 3, 3);
    painter.setPen(Qt::black);
    painter.drawText(box, Qt::AlignCenter, text);
}

} // namespace

/// The OpenGL path: a child covering the scatter that draws the points from vertex buffers; mouse events
/// pass through to the scatter, which keeps the camera and the marks.
class Scatter3dGl final : public QOpenGLWidget, protected QOpenGLFunctions
{
public:
    explicit Scatter3dGl(ProjectorScatter3d* owner)
        : QOpenGLWidget(owner)
        , m_owner(owner)
        , m_positions(QOpenGLBuffer::VertexBuffer)
        , m_colors(QOpenGLBuffer::VertexBuffer)
        , m_extras(QOpenGLBuffer::VertexBuffer)
        , m_marked(QOpenGLBuffer::IndexBuffer)
    {
        setAttribute(Qt::WA_TransparentForMouseEvents);
    }

    ~Scatter3dGl() override
    {
        if (!context())
            return;
        makeCurrent();
        m_texture.reset();
        m_positions.destroy();
        m_colors.destroy();
        m_extras.destroy();
        m_marked.destroy();
        m_vao.destroy();
        m_program.reset();
        doneCurrent();
    }

    bool pointsDirty = true;
    bool attributesDirty = true;
    bool textureDirty = true;

protected:
    void initializeGL() override
    {
        initializeOpenGLFunctions();
        const bool es = context()->isOpenGLES();
        const QByteArray header
            = es ? QByteArrayLiteral("#version 100\nprecision mediump float;\n") : QByteArrayLiteral("#version 120\n");
        m_program = std::make_unique<QOpenGLShaderProgram>();
        const bool ok = m_program->addShaderFromSourceCode(QOpenGLShader::Vertex, header + R"(
attribute vec3 position;
attribute vec4 color;
attribute vec3 extra;
uniform mat3 rotation;
uniform vec3 centre;
uniform float invRadius;
uniform float distance;
uniform float focal;
uniform float zoom;
uniform vec2 pan;
uniform vec2 toClip;
uniform float pointScale;
uniform float depthFade;
varying vec4 vColor;
varying vec2 vCell;
void main() {
    vec3 v = rotation * ((position - centre) * invRadius);
    float depth = distance - v.z;
    float k = focal / max(depth, 0.05) * zoom;
    vec2 p = v.xy * k + pan;
    gl_Position = vec4(p * toClip, (depth - distance) * 0.5, 1.0);
    if (depth <= 0.05)
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = extra.x * pointScale;
    float fade = clamp((depth - distance + 1.0) * 0.5, 0.0, 1.0) * depthFade;
    vColor = vec4(mix(color.rgb, vec3(1.0), fade), color.a);
    vCell = extra.yz;
})") && m_program->addShaderFromSourceCode(QOpenGLShader::Fragment, header + R"(
varying vec4 vColor;
varying vec2 vCell;
uniform sampler2D sheet;
uniform vec2 cellSize;
uniform float sprites;
void main() {
    vec2 c = gl_PointCoord - vec2(0.5);
    if (sprites > 0.5 && vCell.x >= 0.0) {
        if (max(abs(c.x), abs(c.y)) > 0.44) {
            gl_FragColor = vec4(mix(vec3(1.0), vColor.rgb, vColor.a), 1.0);
        } else {
            vec4 t = texture2D(sheet, vCell + gl_PointCoord * cellSize);
            vec3 over = mix(vec3(1.0), t.rgb / max(t.a, 0.001), t.a);
            gl_FragColor = vec4(mix(vec3(1.0), over, vColor.a), 1.0);
        }
    } else {
        if (dot(c, c) > 0.25)
            discard;
        gl_FragColor = vec4(vColor.rgb, 1.0);
    }
})") && m_program->link();
        if (!ok) {
            qWarning("3-D scatter: the OpenGL shaders failed (%s); drawing without OpenGL",
                     qPrintable(m_program->log()));
            m_failed = true;
            // The scatter drops this child and paints the scene itself.
            QMetaObject::invokeMethod(
                m_owner, [owner = m_owner] { owner->dropOpenGl(); }, Qt::QueuedConnection);
            return;
        }
        m_vao.create();
        m_positions.create();
        m_colors.create();
        m_extras.create();
        m_marked.create();
    }

    void paintGL() override
    {
        const ProjectorScatter3d& o = *m_owner;
        glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        if (m_failed)
            return;
        const int count = o.pointCount();
        upload();
        if (count > 0) {
            QOpenGLVertexArrayObject::Binder binder(&m_vao);
            if (!context()->isOpenGLES()) {
                // Point sizes from the shader and gl_PointCoord need these on desktop OpenGL 2.
                glEnable(0x8642); // GL_PROGRAM_POINT_SIZE
                glEnable(0x8861); // GL_POINT_SPRITE
            }
            glEnable(GL_DEPTH_TEST);
            glDepthFunc(GL_LEQUAL);
            m_program->bind();
            setUniforms();
            m_positions.bind();
            m_program->enableAttributeArray("position");
            m_program->setAttributeBuffer("position", GL_FLOAT, 0, 3);
            m_colors.bind();
            m_program->enableAttributeArray("color");
            m_program->setAttributeBuffer("color", GL_UNSIGNED_BYTE, 0, 4);
            m_extras.bind();
            m_program->enableAttributeArray("extra");
            m_program->setAttributeBuffer("extra", GL_FLOAT, 0, 3);
            if (m_texture)
                m_texture->bind(0);
            glDrawArrays(GL_POINTS, 0, count);
            // Marked points again, over everything: a search hit behind a cluster stays visible.
            if (m_markedCount > 0) {
                glDisable(GL_DEPTH_TEST);
                m_marked.bind();
                glDrawElements(GL_POINTS, m_markedCount, GL_UNSIGNED_INT, nullptr);
                m_marked.release();
            }
            if (m_texture)
                m_texture->release();
            m_program->disableAttributeArray("position");
            m_program->disableAttributeArray("color");
            m_program->disableAttributeArray("extra");
            m_extras.release();
            m_program->release();
            glDisable(GL_DEPTH_TEST);
        }
    }

private:
    void setUniforms()
    {
        const ProjectorScatter3d& o = *m_owner;
        const OrbitView& view = o.m_view;
        m_program->setUniformValue("rotation", view.rotation().toRotationMatrix());
        m_program->setUniformValue("centre", view.centre());
        m_program->setUniformValue("invRadius", 1.0f / view.radius());
        m_program->setUniformValue("distance", OrbitView::kDistance);
        m_program->setUniformValue("focal", OrbitView::kFocal);
        m_program->setUniformValue("zoom", float(view.zoom()));
        m_program->setUniformValue("pan", QVector2D(float(view.pan().x()), float(view.pan().y())));
        const double scale = OrbitView::scaleFor(size());
        m_program->setUniformValue(
            "toClip",
            QVector2D(float(scale / (0.5 * std::max(1, width()))), float(scale / (0.5 * std::max(1, height())))));
        m_program->setUniformValue("pointScale", float(devicePixelRatioF()));
        m_program->setUniformValue("depthFade", kDepthFade);
        m_program->setUniformValue("sheet", 0);
        m_program->setUniformValue("sprites", o.showsSprites() && m_texture ? 1.0f : 0.0f);
        if (!o.m_sheet.isNull()) {
            const QSize cell = o.m_sheet.cellSize();
            const QSize sheet = o.m_sheet.image().size();
            m_program->setUniformValue(
                "cellSize", QVector2D(float(cell.width()) / sheet.width(), float(cell.height()) / sheet.height()));
        }
    }

    /// Fills the buffers that changed since the last frame; a frame that only moved the camera uploads nothing.
    void upload()
    {
        const ProjectorScatter3d& o = *m_owner;
        const std::size_t count = std::size_t(o.pointCount());
        if (pointsDirty) {
            m_positions.bind();
            m_positions.allocate(o.m_xyz.data(), int(count * 3 * sizeof(float)));
            m_positions.release();
            pointsDirty = false;
        }
        if (textureDirty) {
            m_texture.reset();
            if (!o.m_sheet.isNull()) {
                const QImage image = o.m_sheet.image().convertToFormat(QImage::Format_RGBA8888_Premultiplied);
                m_texture = std::make_unique<QOpenGLTexture>(QOpenGLTexture::Target2D);
                m_texture->setSize(image.width(), image.height());
                m_texture->setFormat(QOpenGLTexture::RGBA8_UNorm);
                m_texture->setMinificationFilter(QOpenGLTexture::Linear);
                m_texture->setMagnificationFilter(QOpenGLTexture::Nearest);
                m_texture->setWrapMode(QOpenGLTexture::ClampToEdge);
                m_texture->allocateStorage(QOpenGLTexture::RGBA, QOpenGLTexture::UInt8);
                // Rows go up as they are in the image: texture v 0 is the sheet's top, as gl_PointCoord's is.
                m_texture->setData(QOpenGLTexture::RGBA, QOpenGLTexture::UInt8, image.constBits());
            }
            textureDirty = false;
            attributesDirty = true;
        }
        if (attributesDirty) {
            std::vector<quint32> colors(count);
            std::vector<float> extras(count * 3);
            std::vector<quint32> marked;
            const bool sprites = o.showsSprites();
            const QSize sheetSize = o.m_sheet.image().size();
            const float dpr = 1.0f;
            const int radius = o.pointRadius();
            const int side = o.spriteSide();
            for (std::size_t i = 0; i < count; ++i) {
                const quint8 mark = o.m_marks.size() == count ? o.m_marks[i] : quint8(0);
                const QRgb c = o.pointColor(i);
                const bool dim = mark == 0 && o.m_dimUnmatched;
                const int alpha = sprites && dim ? int(kDimStrength * 255) : 255;
                const quint8 bytes[4] = { quint8(qRed(c)), quint8(qGreen(c)), quint8(qBlue(c)), quint8(alpha) };
                std::memcpy(&colors[i], bytes, 4);
                QRect cell;
                if (sprites && i < o.m_cells.size())
                    cell = o.m_sheet.cellRect(o.m_cells[i]);
                const int size = !cell.isEmpty() ? side + (mark ? 6 : 0) : 2 * (mark ? radius + 1 : radius) + 1;
                extras[3 * i] = float(size) * dpr;
                extras[3 * i + 1] = cell.isEmpty() ? -1.0f : float(cell.x()) / sheetSize.width();
                extras[3 * i + 2] = cell.isEmpty() ? -1.0f : float(cell.y()) / sheetSize.height();
                if (mark)
                    marked.push_back(quint32(i));
            }
            m_colors.bind();
            m_colors.allocate(colors.data(), int(colors.size() * sizeof(quint32)));
            m_extras.bind();
            m_extras.allocate(extras.data(), int(extras.size() * sizeof(float)));
            m_extras.release();
            m_marked.bind();
            m_marked.allocate(marked.data(), int(marked.size() * sizeof(quint32)));
            m_marked.release();
            m_markedCount = int(marked.size());
            attributesDirty = false;
        }
    }

    ProjectorScatter3d* m_owner;
    std::unique_ptr<QOpenGLShaderProgram> m_program;
    QOpenGLVertexArrayObject m_vao;
    QOpenGLBuffer m_positions;
    QOpenGLBuffer m_colors;
    QOpenGLBuffer m_extras; ///< point size in pixels, then the sprite cell's top left in texture coordinates
    QOpenGLBuffer m_marked; ///< indices of the marked points, drawn a second time on top
    std::unique_ptr<QOpenGLTexture> m_texture;
    int m_markedCount = 0;
    bool m_failed = false;
};

/// Rings, labels and the gizmo over the OpenGL child: a plain widget stacked above it, so the overlay is
/// painted by the raster engine and composed over the GL picture rather than drawn into the GL frame.
class Scatter3dOverlay final : public QWidget
{
public:
    explicit Scatter3dOverlay(ProjectorScatter3d* owner)
        : QWidget(owner)
        , m_owner(owner)
    {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setAttribute(Qt::WA_TranslucentBackground);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        m_owner->paintOverlay(painter, size(), true);
    }

private:
    ProjectorScatter3d* m_owner;
};

ProjectorScatter3d::ProjectorScatter3d(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(240, 160);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_view.reset();
}

ProjectorScatter3d::~ProjectorScatter3d() = default;

bool ProjectorScatter3d::openGlAvailable()
{
    static const bool available = [] {
        if (!QGuiApplication::instance())
            return false;
        QOpenGLContext context;
        if (!context.create())
            return false;
        QOffscreenSurface surface;
        surface.setFormat(context.format());
        surface.create();
        if (!surface.isValid() || !context.makeCurrent(&surface))
            return false;
        context.doneCurrent();
        return true;
    }();
    return available;
}

void ProjectorScatter3d::dropOpenGl()
{
    if (!m_gl)
        return;
    m_gl->hide();
    m_gl->deleteLater();
    m_gl = nullptr;
    delete m_overlay;
    m_overlay = nullptr;
    m_glRefused = true;
    sceneChanged();
}

void ProjectorScatter3d::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // Made when first shown: a GL child changes how the whole window is composed, so a window that never
    // shows the 3-D view does not pay for it.
    if (!m_gl && !m_glRefused && openGlAvailable()) {
        m_gl = new Scatter3dGl(this);
        m_gl->setGeometry(rect());
        m_gl->show();
        m_overlay = new Scatter3dOverlay(this);
        m_overlay->setGeometry(rect());
        m_overlay->show();
        m_overlay->raise();
    }
}

void ProjectorScatter3d::resizeEvent(QResizeEvent* event)
{
    if (m_gl)
        m_gl->setGeometry(rect());
    if (m_overlay)
        m_overlay->setGeometry(rect());
    m_cache = QImage();
    QWidget::resizeEvent(event);
}

void ProjectorScatter3d::setPoints(std::vector<float> xyz, bool keepView)
{
    m_xyz = std::move(xyz);
    m_xyz.resize(m_xyz.size() / 3 * 3);
    m_hovered = -1;
    m_view.fit(m_xyz);
    if (!keepView)
        m_view.reset();
    if (m_gl)
        m_gl->pointsDirty = m_gl->attributesDirty = true;
    sceneChanged();
}

void ProjectorScatter3d::setColors(std::vector<QRgb> colors)
{
    m_colors = std::move(colors);
    sceneChanged();
}

void ProjectorScatter3d::setMarks(std::vector<quint8> marks, bool dimUnmatched)
{
    m_marks = std::move(marks);
    m_dimUnmatched = dimUnmatched;
    sceneChanged();
}

void ProjectorScatter3d::setAxisTitles(const QString& x, const QString& y, const QString& z)
{
    m_titles[0] = x;
    m_titles[1] = y;
    m_titles[2] = z;
    viewChanged();
}

void ProjectorScatter3d::setSprites(SpriteSheet sheet, std::vector<int> cells)
{
    m_sheet = std::move(sheet);
    m_cells = std::move(cells);
    if (m_gl)
        m_gl->textureDirty = true;
    sceneChanged();
}

void ProjectorScatter3d::setShowSprites(bool show)
{
    if (m_showSprites == show)
        return;
    m_showSprites = show;
    sceneChanged();
}

void ProjectorScatter3d::resetView()
{
    m_view.reset();
    viewChanged();
}

void ProjectorScatter3d::viewChanged()
{
    m_cache = QImage();
    if (m_gl)
        m_gl->update();
    if (m_overlay)
        m_overlay->update();
    update();
}

void ProjectorScatter3d::sceneChanged()
{
    if (m_gl)
        m_gl->attributesDirty = true;
    viewChanged();
}

int ProjectorScatter3d::pointRadius() const
{
    const int count = pointCount();
    return count <= 2000 ? 3 : count <= 20000 ? 2 : 1;
}

int ProjectorScatter3d::spriteSide() const
{
    const QSize cell = m_sheet.cellSize();
    return std::clamp(std::max(cell.width(), cell.height()), 16, 32);
}

QRgb ProjectorScatter3d::pointColor(std::size_t index) const
{
    const std::size_t count = std::size_t(pointCount());
    QRgb color = m_colors.size() == count ? m_colors[index] : kDefaultColor;
    const quint8 mark = m_marks.size() == count ? m_marks[index] : quint8(0);
    if (mark == 0 && m_dimUnmatched)
        color = faded(color);
    return color;
}

QPointF ProjectorScatter3d::pointPosition(int index) const
{
    return m_view.project(point(std::size_t(index)), size()).position;
}

int ProjectorScatter3d::pointAt(QPointF pos) const
{
    std::vector<OrbitView::Projected> projected(static_cast<std::size_t>(pointCount()));
    for (std::size_t i = 0; i < projected.size(); ++i)
        projected[i] = m_view.project(point(i), size());
    return pickNearest(projected, pos, showsSprites() ? spriteSide() * 0.5 : kHoverRadius);
}

void ProjectorScatter3d::renderPoints(QImage& image, QSize size, qreal devicePixelRatio) const
{
    const std::size_t count = std::size_t(pointCount());
    std::vector<float> depthBuffer(std::size_t(image.width()) * std::size_t(image.height()), INFINITY);
    const bool marked = m_marks.size() == count;
    const int radius = std::max(1, int(std::lround(pointRadius() * devicePixelRatio)));
    if (showsSprites()) {
        // Thumbnails are drawn back to front (the painter's algorithm): they are few compared with dots.
        std::vector<std::pair<float, std::size_t>> order;
        order.reserve(count);
        std::vector<OrbitView::Projected> projected(count);
        for (std::size_t i = 0; i < count; ++i) {
            projected[i] = m_view.project(point(i), size);
            if (projected[i].visible)
                order.emplace_back(projected[i].depth, i);
        }
        std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
            const bool am = marked && m_marks[a.second], bm = marked && m_marks[b.second];
            return am != bm ? bm : a.first > b.first;
        });
        QPainter painter(&image);
        painter.scale(devicePixelRatio, devicePixelRatio);
        const double side = spriteSide();
        for (const auto& [depth, i] : order) {
            const quint8 mark = marked ? m_marks[i] : quint8(0);
            const QPointF at = projected[i].position;
            const QRect cell = i < m_cells.size() ? m_sheet.cellRect(m_cells[i]) : QRect();
            const QRgb color = towardsBackground(pointColor(i), depthFraction(depth) * kDepthFade);
            if (cell.isEmpty()) {
                painter.setPen(Qt::NoPen);
                painter.setBrush(QColor(color));
                painter.drawEllipse(at, pointRadius(), pointRadius());
                continue;
            }
            const double s = mark ? side + 6 : side;
            const QRectF target(at.x() - s / 2, at.y() - s / 2, s, s);
            painter.setOpacity(mark == 0 && m_dimUnmatched ? kDimStrength : 1.0);
            painter.fillRect(target, Qt::white);
            painter.drawImage(target, m_sheet.image(), cell);
            painter.setPen(QPen(QColor(color), 1.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(target.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        return;
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < count; ++i) {
            const quint8 mark = marked ? m_marks[i] : quint8(0);
            if ((pass == 1) != (mark != 0))
                continue;
            const OrbitView::Projected p = m_view.project(point(i), size);
            if (!p.visible)
                continue;
            const int px = int(p.position.x() * devicePixelRatio);
            const int py = int(p.position.y() * devicePixelRatio);
            if (px < -radius || py < -radius || px > image.width() + radius || py > image.height() + radius)
                continue;
            const QRgb color = towardsBackground(pointColor(i), depthFraction(p.depth) * kDepthFade);
            // The second pass draws over the first whatever the depth: marked points stay in sight.
            stampDepth(image, depthBuffer, px, py, mark ? radius + 1 : radius, pass == 1 ? -INFINITY : p.depth, color);
        }
    }
}

void ProjectorScatter3d::paintOverlay(QPainter& painter, QSize size, bool hover) const
{
    const std::size_t count = std::size_t(pointCount());
    const QFontMetrics metrics(painter.font());
    if (m_marks.size() == count) {
        // Rings, then labels of the neighbours, then the selected point's label on top of them.
        std::vector<std::size_t> neighbours;
        std::size_t selected = count;
        for (std::size_t i = 0; i < count; ++i) {
            if (m_marks[i] & ProjectorScatter::Selected)
                selected = i;
            else if (m_marks[i] & ProjectorScatter::Neighbour)
                neighbours.push_back(i);
        }
        const double ring = showsSprites() ? spriteSide() * 0.5 + 5 : 5.0;
        auto ringAt = [&](std::size_t i, bool isSelected) {
            const OrbitView::Projected p = m_view.project(point(i), size);
            if (!p.visible)
                return;
            painter.setPen(
                QPen(isSelected ? QColor(0xd6, 0x27, 0x28) : QColor(0x20, 0x20, 0x20), isSelected ? 2.0 : 1.2));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(p.position, isSelected ? ring + 2 : ring, isSelected ? ring + 2 : ring);
        };
        for (std::size_t i : neighbours)
            ringAt(i, false);
        if (selected < count)
            ringAt(selected, true);
        if (m_labelProvider) {
            // The selected point's label first: the neighbours' give way to it.
            std::vector<QRectF> taken;
            if (selected < count && int(selected) != m_hovered) {
                const OrbitView::Projected p = m_view.project(point(selected), size);
                if (p.visible)
                    drawLabel(painter, metrics, p.position, m_labelProvider(int(selected)), size, true, &taken);
            }
            int labelled = 0;
            for (std::size_t i : neighbours) {
                if (++labelled > kMaxNeighbourLabels)
                    break;
                const OrbitView::Projected p = m_view.project(point(i), size);
                if (p.visible && int(i) != m_hovered)
                    drawLabel(painter, metrics, p.position, m_labelProvider(int(i)), size, false, &taken);
            }
        }
    }
    if (hover && m_hovered >= 0 && m_hovered < pointCount()) {
        const QPointF p = pointPosition(m_hovered);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(p, 6.0, 6.0);
        drawLabel(painter, metrics, p, m_labelProvider ? m_labelProvider(m_hovered) : QString::number(m_hovered), size,
                  true);
    }

    // The orientation of the three axes, in the bottom-left corner.
    const QPointF origin(14 + kGizmoLength, size.height() - 14 - kGizmoLength);
    const QColor axisColors[3] = { QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c), QColor(0x1f, 0x77, 0xb4) };
    for (int a = 0; a < 3; ++a) {
        QVector3D unit;
        unit[a] = 1.0f;
        const QVector3D v = m_view.rotation().rotatedVector(unit);
        const QPointF end = origin + QPointF(v.x(), -v.y()) * kGizmoLength;
        painter.setPen(QPen(axisColors[a], 2.0));
        painter.drawLine(origin, end);
        const QString title = m_titles[a].section(QLatin1Char(' '), 0, 0);
        painter.drawText(end + QPointF(v.x() >= 0 ? 3 : -3 - metrics.horizontalAdvance(title), v.y() >= 0 ? -2 : 10),
                         title);
    }
    painter.setPen(QColor(0x80, 0x80, 0x80));
    const QString hint = tr("Drag: rotate · Shift-drag: pan · Wheel: zoom · Double-click: reset");
    // Beside the gizmo, only where it fits whole (the class comment and the README say the same).
    if (metrics.horizontalAdvance(hint) < size.width() - 2 * (14 + kGizmoLength) - 12)
        painter.drawText(QRectF(0, size.height() - metrics.height() - 4, size.width() - 6, metrics.height() + 2),
                         Qt::AlignRight | Qt::AlignVCenter, hint);
}

QImage ProjectorScatter3d::render(QSize size, qreal devicePixelRatio) const
{
    QImage image(size * devicePixelRatio, QImage::Format_RGB32);
    image.fill(kBackground);
    renderPoints(image, size, devicePixelRatio);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(devicePixelRatio, devicePixelRatio);
    painter.setFont(font());
    paintOverlay(painter, size, false);
    painter.setPen(QColor(0xc8, 0xc8, 0xc8));
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.drawRect(QRect(QPoint(0, 0), size - QSize(1, 1)));
    return image;
}

void ProjectorScatter3d::paintEvent(QPaintEvent*)
{
    if (m_gl)
        return;
    const qreal dpr = devicePixelRatioF();
    if (m_cache.isNull() || m_cache.size() != size() * dpr) {
        m_cache = QImage(size() * dpr, QImage::Format_RGB32);
        m_cache.fill(kBackground);
        renderPoints(m_cache, size(), dpr);
        m_cache.setDevicePixelRatio(dpr);
    }
    QPainter painter(this);
    painter.drawImage(0, 0, m_cache);
    painter.setRenderHint(QPainter::Antialiasing);
    paintOverlay(painter, size(), true);
}

void ProjectorScatter3d::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (m_drag != Drag::None) {
        const QPointF delta = pos - m_lastPos;
        m_lastPos = pos;
        if (m_drag == Drag::Rotate)
            m_view.rotateBy(delta, size());
        else
            m_view.panBy(delta, size());
        viewChanged();
        return;
    }
    const int hovered = pointAt(pos);
    if (hovered != m_hovered) {
        m_hovered = hovered;
        if (m_gl)
            m_gl->update();
        if (m_overlay)
            m_overlay->update();
        update();
    }
}

void ProjectorScatter3d::mousePressEvent(QMouseEvent* event)
{
    m_lastPos = event->position();
    m_pressPos = event->position();
    if (event->button() == Qt::MiddleButton
        || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier))) {
        m_drag = Drag::Pan;
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    // A click on a point selects it when the button comes up without the mouse having moved: a drag that
    // starts on a point still rotates.
    m_drag = Drag::Rotate;
}

void ProjectorScatter3d::mouseReleaseEvent(QMouseEvent* event)
{
    const bool rotating = m_drag == Drag::Rotate;
    m_drag = Drag::None;
    if (!rotating || event->button() != Qt::LeftButton)
        return;
    const QPointF moved = event->position() - m_pressPos;
    if (std::abs(moved.x()) + std::abs(moved.y()) > 3.0)
        return;
    const int index = pointAt(event->position());
    if (index >= 0)
        emit pointClicked(index);
}

void ProjectorScatter3d::mouseDoubleClickEvent(QMouseEvent*)
{
    resetView();
}

void ProjectorScatter3d::wheelEvent(QWheelEvent* event)
{
    m_view.zoomBy(std::pow(1.0 / 0.85, event->angleDelta().y() / 120.0));
    viewChanged();
}

void ProjectorScatter3d::leaveEvent(QEvent*)
{
    if (m_hovered >= 0) {
        m_hovered = -1;
        if (m_gl)
            m_gl->update();
        if (m_overlay)
            m_overlay->update();
        update();
    }
}

} // namespace runlens::widgets::projector
