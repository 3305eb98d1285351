#include "widgets/pipeline/pipelinegraphview.h"

#include "widgets/common/chartpalette.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

namespace runlens::widgets::pipeline {

using models::pipeline::DataPipeline;
using models::pipeline::PipelineOp;

namespace {

constexpr double kNodeWidth = 150;
constexpr double kNodeHeight = 62;
constexpr double kColumnGap = 56;
constexpr double kRowGap = 18;
constexpr double kMargin = 14;
constexpr double kStripHeight = 7;
constexpr double kBottleneckPen = 3.5;

QString percentText(double ratio)
{
    return std::isnan(ratio) ? PipelineGraphView::tr("n/a")
                             : PipelineGraphView::tr("%1%").arg(ratio * 100.0, 0, 'f', 0);
}

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

void drawArrow(QPainter& p, const QPointF& from, const QPointF& to, const QColor& color)
{
    QPainterPath path(from);
    const double dx = (to.x() - from.x()) / 2;
    path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
    p.setPen(QPen(color, 2.0));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    QPolygonF head;
    head << to << to + QPointF(-8, -4.5) << to + QPointF(-8, 4.5);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(head);
}

} // namespace

PipelineGraphView::PipelineGraphView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("pipelineGraph"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

PipelineGraphView::~PipelineGraphView() = default;

QColor PipelineGraphView::usageColor(double usage)
{
    if (std::isnan(usage))
        return QColor(0xa0, 0xa0, 0xa0);
    const double t = std::clamp(usage, 0.0, 1.0);
    const QColor red(0xd7, 0x30, 0x27);
    const QColor yellow(0xf2, 0xc1, 0x2e);
    const QColor green(0x1a, 0x98, 0x50);
    return t < 0.5 ? mix(red, yellow, t * 2) : mix(yellow, green, (t - 0.5) * 2);
}

QColor PipelineGraphView::bottleneckColor()
{
    return QColor(0xc0, 0x1c, 0x8c);
}

void PipelineGraphView::setPipeline(std::shared_ptr<const DataPipeline> pipeline)
{
    m_pipeline = std::move(pipeline);
    if (!m_pipeline || !m_pipeline->op(m_selected))
        m_selected = -1;
    layoutNodes();
    updateGeometry();
    update();
}

void PipelineGraphView::setSelectedOp(int opId)
{
    if (opId == m_selected)
        return;
    m_selected = nodeFor(opId) ? opId : -1;
    update();
}

const PipelineGraphView::Node* PipelineGraphView::nodeFor(int opId) const
{
    for (const Node& n : m_nodes) {
        if (n.opId == opId)
            return &n;
    }
    return nullptr;
}

void PipelineGraphView::layoutNodes()
{
    m_nodes.clear();
    m_device = {};
    m_bounds = {};
    if (!m_pipeline || m_pipeline->ops.empty()) {
        updateTransform();
        return;
    }
    const DataPipeline& p = *m_pipeline;
    const std::vector<int> depth = p.depths();
    std::map<int, std::vector<int>> columns; // depth -> op ids in pipeline order
    for (int id : p.pipelineOrder()) {
        const auto index = std::size_t(p.op(id) - p.ops.data());
        columns[depth[index]].push_back(id);
    }
    int tallest = 1;
    for (const auto& [d, ids] : columns)
        tallest = std::max(tallest, int(ids.size()));
    const double height = tallest * kNodeHeight + (tallest - 1) * kRowGap;
    int lastColumn = 0;
    for (const auto& [d, ids] : columns) {
        const double x = kMargin + d * (kNodeWidth + kColumnGap);
        const double columnHeight = double(ids.size()) * kNodeHeight + double(ids.size() - 1) * kRowGap;
        double y = kMargin + (height - columnHeight) / 2;
        for (int id : ids) {
            m_nodes.push_back({ id, QRectF(x, y, kNodeWidth, kNodeHeight) });
            y += kNodeHeight + kRowGap;
        }
        lastColumn = std::max(lastColumn, d);
    }
    // The queue to the device follows the root.
    const Node* rootNode = nodeFor(p.root() ? p.root()->id : -1);
    const double rootY = rootNode ? rootNode->rect.top() : kMargin;
    m_device = QRectF(kMargin + (lastColumn + 1) * (kNodeWidth + kColumnGap), rootY, kNodeWidth * 0.8, kNodeHeight);
    m_bounds = QRectF(0, 0, m_device.right() + kMargin, height + 2 * kMargin);
    updateTransform();
}

void PipelineGraphView::updateTransform() const
{
    m_transformSize = size();
    if (m_bounds.isEmpty()) {
        m_scale = 1.0;
        m_offset = {};
        return;
    }
    // Shrink to fit, never enlarge: boxes stay readable and the picture does not jump in size.
    m_scale = std::min({ 1.0, width() / m_bounds.width(), height() / m_bounds.height() });
    m_scale = std::max(m_scale, 0.2);
    m_offset = QPointF((width() - m_bounds.width() * m_scale) / 2, (height() - m_bounds.height() * m_scale) / 2);
}

QRectF PipelineGraphView::toWidget(const QRectF& rect) const
{
    if (m_transformSize != size())
        updateTransform();
    return QRectF(m_offset + rect.topLeft() * m_scale, rect.size() * m_scale);
}

QRectF PipelineGraphView::nodeRect(int opId) const
{
    const Node* node = nodeFor(opId);
    return node ? toWidget(node->rect) : QRectF();
}

QRectF PipelineGraphView::deviceQueueRect() const
{
    return m_device.isEmpty() ? QRectF() : toWidget(m_device);
}

int PipelineGraphView::opAt(const QPointF& pos) const
{
    for (const Node& n : m_nodes) {
        if (toWidget(n.rect).contains(pos))
            return n.opId;
    }
    return -1;
}

QString PipelineGraphView::toolTipForOp(int opId) const
{
    const PipelineOp* op = m_pipeline ? m_pipeline->op(opId) : nullptr;
    if (!op)
        return {};
    QString html = QStringLiteral("<b>%1</b> (%2)<table cellspacing=\"0\" cellpadding=\"1\">")
                       .arg(op->displayType().toHtmlEscaped(), tr("op %1").arg(op->id));
    auto row = [&html](const QString& name, const QString& value) {
        html += QStringLiteral("<tr><td>%1</td><td>&nbsp;&nbsp;%2</td></tr>")
                    .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
    };
    row(tr("Workers"), op->workers >= 0 ? QString::number(op->workers) : tr("n/a"));
    row(tr("Output queue usage"), percentText(op->queueUsage));
    if (!std::isnan(op->queueAverageSize))
        row(tr("Average queue size"),
            op->queueCapacity > 0 ? tr("%1 of %2").arg(op->queueAverageSize, 0, 'f', 1).arg(op->queueCapacity)
                                  : QString::number(op->queueAverageSize, 'f', 1));
    if (!std::isnan(op->queueEmptyRate))
        row(tr("Queue empty"), percentText(op->queueEmptyRate));
    if (!std::isnan(op->averageThroughput))
        row(tr("Throughput"), QString::number(op->averageThroughput, 'g', 4));
    if (!std::isnan(op->cpuPercent))
        row(tr("CPU (user + sys)"), tr("%1%").arg(op->cpuPercent, 0, 'f', 1));
    html += QStringLiteral("</table>");
    if (m_pipeline->isBottleneck(opId))
        html += QStringLiteral("<b style=\"color:%1\">%2</b>")
                    .arg(bottleneckColor().name(), tr("Possible bottleneck").toHtmlEscaped());
    return html;
}

QSize PipelineGraphView::sizeHint() const
{
    return m_bounds.isEmpty() ? QSize(400, 120) : m_bounds.size().toSize();
}

QSize PipelineGraphView::minimumSizeHint() const
{
    return QSize(200, m_bounds.isEmpty() ? 80 : int(std::min(m_bounds.height(), 200.0)));
}

void PipelineGraphView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateTransform();
}

void PipelineGraphView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        const int id = opAt(event->position());
        if (id != m_selected) {
            m_selected = id;
            update();
        }
        if (id >= 0)
            emit opSelected(id);
    }
    QWidget::mousePressEvent(event);
}

bool PipelineGraphView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int id = opAt(help->pos());
        if (id >= 0)
            QToolTip::showText(help->globalPos(), toolTipForOp(id), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void PipelineGraphView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    if (!m_pipeline || m_nodes.empty())
        return;
    if (m_transformSize != size())
        updateTransform();
    p.translate(m_offset);
    p.scale(m_scale, m_scale);

    const QColor text = pal.color(QPalette::Text);
    const QColor muted = blendColors(text, pal.color(QPalette::Base), 0.4);
    const QColor boxFill = blendColors(pal.color(QPalette::Base), text, 0.05);
    const QColor boxLine = blendColors(text, pal.color(QPalette::Base), 0.7);
    QFont titleFont = font();
    titleFont.setWeight(QFont::DemiBold);
    QFont smallFont = font();
    smallFont.setPointSizeF(std::max(7.0, smallFont.pointSizeF() * 0.85));

    // Arrows first: each op's output queue flows into its parent, coloured by that queue's usage.
    for (const Node& n : m_nodes) {
        const PipelineOp* op = m_pipeline->op(n.opId);
        const Node* parent = op ? nodeFor(op->parent) : nullptr;
        QRectF target;
        if (parent)
            target = parent->rect;
        else if (op && op->parent < 0)
            target = m_device;
        if (target.isEmpty())
            continue;
        const QPointF from(n.rect.right(), n.rect.center().y());
        const QPointF to(target.left() - 1, target.center().y());
        // The root's queue is the host queue; its colour is the host queue's fill when known.
        double usage = op->queueUsage;
        if (!parent && std::isnan(usage) && !m_pipeline->hostQueue.empty())
            usage = 1.0 - m_pipeline->hostQueue.emptyRatio();
        drawArrow(p, from, to, usageColor(usage));
        if (!std::isnan(usage)) {
            p.setFont(smallFont);
            p.setPen(muted);
            // Next to the queue's start, where edges into the same parent have not yet converged.
            p.drawText(QRectF(from.x() + 4, from.y() - 16, kColumnGap - 8, 14), Qt::AlignLeft | Qt::AlignVCenter,
                       percentText(usage));
        }
    }

    for (const Node& n : m_nodes) {
        const PipelineOp* op = m_pipeline->op(n.opId);
        if (!op)
            continue;
        const bool bottleneck = m_pipeline->isBottleneck(op->id);
        QPainterPath box;
        box.addRoundedRect(n.rect, 6, 6);
        p.fillPath(box, boxFill);
        // Queue usage strip along the bottom edge, as wide as the queue is full.
        const QRectF strip(n.rect.left(), n.rect.bottom() - kStripHeight, n.rect.width(), kStripHeight);
        p.save();
        p.setClipPath(box);
        p.fillRect(strip, blendColors(usageColor(op->queueUsage), pal.color(QPalette::Base), 0.7));
        if (op->hasQueue()) {
            QRectF filled = strip;
            filled.setWidth(strip.width() * std::clamp(op->queueUsage, 0.0, 1.0));
            p.fillRect(filled, usageColor(op->queueUsage));
        }
        p.restore();
        if (bottleneck)
            p.setPen(QPen(bottleneckColor(), kBottleneckPen));
        else if (op->id == m_selected)
            p.setPen(QPen(pal.color(QPalette::Highlight), 2.0));
        else
            p.setPen(QPen(boxLine, 1.0));
        p.setBrush(Qt::NoBrush);
        p.drawPath(box);

        const QRectF textRect = n.rect.adjusted(8, 5, -8, -kStripHeight - 2);
        p.setFont(titleFont);
        p.setPen(text);
        const QString title = QStringLiteral("%1 #%2").arg(op->displayType()).arg(op->id);
        p.drawText(textRect, Qt::AlignLeft | Qt::AlignTop,
                   QFontMetrics(titleFont).elidedText(title, Qt::ElideRight, int(textRect.width())));
        p.setFont(smallFont);
        p.setPen(muted);
        QStringList lines;
        lines << (op->workers >= 0 ? tr("%n worker(s)", nullptr, op->workers) : tr("workers n/a"));
        lines << tr("queue %1").arg(percentText(op->queueUsage));
        p.drawText(textRect, Qt::AlignLeft | Qt::AlignBottom, lines.join(QLatin1Char('\n')));
    }

    // The queue to the device.
    QPainterPath device;
    device.addRoundedRect(m_device, 6, 6);
    p.fillPath(device, blendColors(pal.color(QPalette::Base), text, 0.1));
    p.setPen(QPen(boxLine, 1.0, Qt::DashLine));
    p.drawPath(device);
    p.setFont(titleFont);
    p.setPen(text);
    {
        const auto& host = m_pipeline->hostQueue;
        QString label = host.iterator ? tr("Iterator") : tr("Device queue");
        QString detail;
        if (!host.empty())
            detail = tr("empty %1").arg(percentText(host.emptyRatio()));
        p.drawText(m_device.adjusted(6, 5, -6, -5), Qt::AlignHCenter | Qt::AlignTop, label);
        p.setFont(smallFont);
        p.setPen(muted);
        p.drawText(m_device.adjusted(6, 5, -6, -5), Qt::AlignHCenter | Qt::AlignBottom, detail);
    }
}

} // namespace runlens::widgets::pipeline
