// Hover tooltips, mouse and wheel handling, the context menu, and export.
#include "widgets/scalars/scalarchart.h"

#include "models/scalars/scalarstore.h"
#include "widgets/common/chartexporter.h"
#include "widgets/common/charticons.h"
#include "widgets/scalars/scalarchartparts.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QToolTip>

namespace runlens::widgets::scalars {

using detail::isDrawable;
using detail::ScalarCurve;

namespace {

QString modifierText(Qt::KeyboardModifiers modifiers)
{
    QStringList parts;
    if (modifiers & Qt::ControlModifier)
        parts << ScalarChart::tr("Ctrl");
    if (modifiers & Qt::AltModifier)
        parts << ScalarChart::tr("Alt");
    if (modifiers & Qt::ShiftModifier)
        parts << ScalarChart::tr("Shift");
    if (modifiers & Qt::MetaModifier)
        parts << ScalarChart::tr("Meta");
    return parts.join(QLatin1Char('+'));
}

} // namespace

QString ScalarChart::hoverTextAt(const QPointF& pos) const
{
    if (!axisRect()->rect().contains(pos.toPoint()))
        return {};
    return hoverTextForKey(xAxis->pixelToCoord(pos.x()));
}

QString ScalarChart::hoverTextForKey(double key) const
{
    return detail::hoverTable(m_curves, key, m_tag);
}

ChartData ScalarChart::chartData() const
{
    ChartData data;
    data.title = m_tag;
    data.xLabel = scalarformat::axisTitle(m_options.xAxisMode);
    data.yLabel = m_displayName.isEmpty() ? m_tag : m_displayName;
    data.seriesColumn = QStringLiteral("run");
    data.columns = { QStringLiteral("step"), QStringLiteral("wall_time"), QStringLiteral("relative_time"),
                     QStringLiteral("value"), QStringLiteral("smoothed") };
    for (const auto& c : m_curves) {
        if (!c->visible)
            continue;
        ChartSeriesData s;
        s.name = c->label;
        std::vector<double> steps(c->size());
        std::vector<double> relative(c->size());
        for (std::size_t i = 0; i < c->size(); ++i) {
            steps[i] = double(c->steps[i]);
            relative[i] = c->wallTimes[i] - c->firstWallTime;
        }
        s.columns = { std::move(steps), c->wallTimes, std::move(relative), c->values, c->smoothed };
        data.series.push_back(std::move(s));
    }
    return data;
}

QMenu* ScalarChart::createContextMenu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    QAction* fit = menu->addAction(chartIcon(QStringLiteral("chart-fit")), tr("Fit to Data"));
    fit->setToolTip(tr("Show all data (double-click the chart to do the same)"));
    connect(fit, &QAction::triggered, this, [this] {
        fitToData();
        emit viewChanged();
    });
    QAction* log = menu->addAction(chartIcon(QStringLiteral("chart-log-scale")), tr("Logarithmic Y Axis"));
    log->setCheckable(true);
    log->setChecked(m_options.logY);
    connect(log, &QAction::toggled, this, [this](bool on) {
        setLogY(on);
        emit logYToggled(on);
    });
    QAction* copy = menu->addAction(chartIcon(QStringLiteral("chart-copy")), tr("Copy Image"));
    connect(copy, &QAction::triggered, this,
            [this] { QApplication::clipboard()->setPixmap(toPixmap(0, 0, ChartExporter::kPngScale)); });
    menu->addSeparator();
    m_exportMenu->addTo(menu);
    return menu;
}

void ScalarChart::contextMenuEvent(QContextMenuEvent* event)
{
    clearHover();
    const std::unique_ptr<QMenu> menu(createContextMenu(this));
    menu->exec(event->globalPos());
}

void ScalarChart::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_dragging = true;
        clearHover();
    }
    QCustomPlot::mousePressEvent(event);
}

void ScalarChart::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragging && (event->buttons() & Qt::LeftButton)) {
        m_autoFit = false;
        QCustomPlot::mouseMoveEvent(event);
        return;
    }
    m_dragging = false;
    QCustomPlot::mouseMoveEvent(event);
    setHoverPosition(event->position());
}

void ScalarChart::mouseDoubleClickEvent(QMouseEvent* event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    m_dragging = false;
    fitToData();
    emit viewChanged();
}

void ScalarChart::wheelEvent(QWheelEvent* event)
{
    if (m_wheelZoomModifiers != Qt::NoModifier && (event->modifiers() & m_wheelZoomModifiers) != m_wheelZoomModifiers) {
        showHint(tr("Hold %1 and scroll to zoom").arg(modifierText(m_wheelZoomModifiers)));
        event->ignore(); // let the page scroll
        return;
    }
    m_autoFit = false;
    clearHover();
    QCustomPlot::wheelEvent(event);
    emit viewChanged();
}

void ScalarChart::leaveEvent(QEvent* event)
{
    clearHover();
    QCustomPlot::leaveEvent(event);
}

bool ScalarChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (m_title->outerRect().contains(help->pos())) {
            QString tip = QStringLiteral("<b>%1</b>").arg(m_tag.toHtmlEscaped());
            if (!m_displayName.isEmpty() && m_displayName != m_tag)
                tip += QStringLiteral("<br>") + m_displayName.toHtmlEscaped();
            if (!m_description.isEmpty())
                tip += QStringLiteral("<br>") + m_description.toHtmlEscaped();
            QToolTip::showText(help->globalPos(), tip, this);
            return true;
        }
        // The plot area shows its tooltip while the mouse moves (see setHoverPosition).
        return true;
    }
    return QCustomPlot::event(event);
}

void ScalarChart::setHoverPosition(const QPointF& pos)
{
    if (!axisRect()->rect().contains(pos.toPoint()) || m_curves.empty()) {
        clearHover();
        return;
    }
    const double key = xAxis->pixelToCoord(pos.x());
    std::vector<detail::HoverOverlay::Dot> dots;
    for (const auto& c : m_curves) {
        if (!c->visible)
            continue;
        const std::ptrdiff_t p = c->nearest(key);
        if (p < 0)
            continue;
        const std::size_t i = c->pointIndex(std::size_t(p));
        const double y = c->smoothed[i];
        if (isDrawable(y, m_options.logY))
            dots.push_back({ c->x[i], y, c->color });
    }
    m_overlay->setHover(key, std::move(dots));
    layer(QStringLiteral("overlay"))->replot();
    const QString text = hoverTextForKey(key);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(mapToGlobal(pos.toPoint()) + QPoint(18, 18), text, this);
}

void ScalarChart::clearHover()
{
    if (!m_overlay || !m_overlay->hasHover())
        return;
    m_overlay->clearHover();
    layer(QStringLiteral("overlay"))->replot();
    QToolTip::hideText();
}

void ScalarChart::showHint(const QString& text)
{
    m_overlay->setHint(text);
    layer(QStringLiteral("overlay"))->replot();
    m_hintTimer->start();
}

// -------------------------------------------------------------------------------------------------------------

std::unique_ptr<ScalarChart> createScalarChart(const models::scalars::ScalarStore& store, const QString& tag,
                                               const ScalarChartOptions& options, QSize size)
{
    if (size.isEmpty())
        size = ChartExporter::kDefaultSize;
    auto chart = std::make_unique<ScalarChart>(&store, tag, options);
    chart->setLegendVisible(true);
    chart->resize(size);
    chart->setViewport(QRect(QPoint(0, 0), size));
    chart->replot(QCustomPlot::rpQueuedRefresh); // lays out the axes, so the next fit knows the plot width
    chart->fitToData();
    chart->replot(QCustomPlot::rpQueuedRefresh);
    return chart;
}

bool exportScalarChart(const models::scalars::ScalarStore& store, const QString& tag, const QString& fileName,
                       const ScalarChartOptions& options, QSize size, QString* errorMessage)
{
    if (!store.tags().contains(tag)) {
        if (errorMessage)
            *errorMessage = ScalarChart::tr("There is no scalar tag \"%1\". Available tags: %2.")
                                .arg(tag, store.tags().join(QStringLiteral(", ")));
        return false;
    }
    const auto chart = createScalarChart(store, tag, options, size);
    return ChartExporter::exportChart(chart.get(), chart->chartData(), fileName, size, errorMessage);
}

} // namespace runlens::widgets::scalars
