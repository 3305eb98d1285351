#include "widgets/compare/parallelcoordinateschart.h"

#include "widgets/common/chartexportmenu.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/colormap.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace runlens::widgets::compare {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kLineWidth = 1.6;
constexpr double kEmphasizedWidth = 2.4;
constexpr double kHighlightWidth = 3.6;
constexpr int kNumericTicks = 5;
constexpr int kMaxCategoryLabels = 12;
constexpr double kLogDecades = 2.0; // a positive axis spanning this many decades is drawn logarithmic
// Viridis ends in a light yellow that vanishes on a light background; the scale stops before it.
constexpr int kColorRange = 215;
constexpr double kLeftRoom = 0.3; // of an axis spacing, for the first axis's title
const QString kFrontLayer = QStringLiteral("front");

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}

QString numberText(double v)
{
    return QString::number(v, 'g', 5);
}

} // namespace

ParallelCoordinatesChart::ParallelCoordinatesChart(QWidget* parent)
    : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("parallelCoordinates"));
    setMouseTracking(true);
    setMinimumHeight(120);
    setPlottingHint(QCP::phImmediateRefresh, false);
    addLayer(kFrontLayer, layer(QStringLiteral("main")), QCustomPlot::limAbove);

    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, QString());
    m_title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_title->setMargins(QMargins(12, 8, 12, 2));
    plotLayout()->addElement(0, 0, m_title);
    plotLayout()->setRowSpacing(0);
    axisRect()->setMinimumMargins(QMargins(12, 6, 12, 6));
    axisRect()->setAutoMargins(QCP::msBottom | QCP::msTop);
    axisRect()->setMargins(QMargins(14, 0, 14, 0));

    xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    yAxis->setRange(-0.04, 1.04);
    yAxis->setVisible(false);
    for (QCPAxis* axis : { xAxis2, yAxis2 })
        axis->setVisible(false);

    m_emptyItem = new QCPItemText(this);
    m_emptyItem->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_emptyItem->position->setCoords(0.5, 0.5);
    m_emptyItem->setPositionAlignment(Qt::AlignCenter);
    m_emptyItem->setVisible(false);

    m_exportMenu = new ChartExportMenu(this, this);
    m_exportMenu->setBaseName(QStringLiteral("compare-runs"));
    m_exportMenu->setDataProvider([this] { return chartData(); });

    applyTheme();
    rebuild();
}

ParallelCoordinatesChart::~ParallelCoordinatesChart() = default;

void ParallelCoordinatesChart::applyTheme()
{
    const QPalette pal = palette();
    const QColor background = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const QColor muted = blendColors(text, background, 0.4);
    setBackground(background);
    axisRect()->setBackground(Qt::NoBrush);
    QFont tickFont = font();
    tickFont.setPointSizeF(std::max(7.0, tickFont.pointSizeF() * 0.85));
    QFont titleFont = font();
    titleFont.setWeight(QFont::DemiBold);
    xAxis->setBasePen(Qt::NoPen);
    xAxis->setTickPen(Qt::NoPen);
    xAxis->setSubTickPen(Qt::NoPen);
    xAxis->grid()->setVisible(false);
    xAxis->setTickLabelColor(text);
    xAxis->setTickLabelFont(font());
    xAxis->setTickLabelPadding(6);
    m_title->setFont(titleFont);
    m_title->setTextColor(text);
    m_emptyItem->setColor(muted);
    m_emptyItem->setFont(font());
}

QStringList ParallelCoordinatesChart::axisTitles() const
{
    QStringList out;
    for (const Axis& a : m_axes)
        out << a.title;
    return out;
}

void ParallelCoordinatesChart::setData(const QStringList& runs, const QList<Axis>& axes, const QString& emptyText)
{
    m_runs = runs;
    m_axes = axes;
    m_emptyText = emptyText;
    if (!m_runs.contains(m_highlighted))
        m_highlighted.clear();
    rebuild();
}

void ParallelCoordinatesChart::rebuild()
{
    clearGraphs();
    for (QCPAbstractItem* item : std::as_const(m_items))
        removeItem(item);
    m_items.clear();
    m_lines.clear();
    m_colors.clear();
    m_scales.clear();

    const bool empty = m_axes.isEmpty() || m_runs.isEmpty();
    m_emptyItem->setText(m_emptyText);
    m_emptyItem->setVisible(empty);
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    ticker->clear();
    if (empty) {
        m_title->setText(QString());
        xAxis->setRange(0, 1);
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    m_title->setText(tr("Runs by hyper-parameter, coloured by %1").arg(m_axes.last().title));

    const int runCount = int(m_runs.size());
    for (const Axis& axis : std::as_const(m_axes)) {
        AxisScale scale;
        if (axis.categorical) {
            for (const QString& t : axis.texts) {
                if (!t.isEmpty() && !scale.categories.contains(t))
                    scale.categories << t;
            }
            std::sort(scale.categories.begin(), scale.categories.end(),
                      [](const QString& a, const QString& b) { return QString::localeAwareCompare(a, b) < 0; });
        } else {
            double lo = std::numeric_limits<double>::infinity();
            double hi = -lo;
            for (double v : axis.values) {
                if (std::isfinite(v)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
            }
            if (lo <= hi) {
                scale.min = lo;
                scale.max = hi;
                scale.log = lo > 0 && std::log10(hi / lo) >= kLogDecades;
            } else {
                scale.min = scale.max = kNaN;
            }
        }
        m_scales.push_back(scale);
    }

    const QPalette pal = palette();
    const QColor background = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const QColor axisLine = blendColors(text, background, 0.55);
    QColor labelBackground = background;
    labelBackground.setAlpha(210);
    QFont tickFont = font();
    tickFont.setPointSizeF(std::max(7.0, tickFont.pointSizeF() * 0.85));

    // Room per axis in pixels: titles and labels are elided to it so that neighbours never overlap.
    const double span = double(m_axes.size()) - 1 + kLeftRoom + std::max(0.35, 0.12 * double(m_axes.size()));
    const int perAxis = int(std::max(40.0, (std::max(width(), 400) - 40) / span)) - 6;
    const QFontMetrics titleMetrics(xAxis->tickLabelFont());
    const QFontMetrics labelMetrics(tickFont);

    // Axes: a vertical line each, its tick labels to its right, its title below.
    for (int a = 0; a < int(m_axes.size()); ++a) {
        ticker->addTick(a, titleMetrics.elidedText(m_axes[a].title, Qt::ElideMiddle, perAxis));
        auto* line = new QCPItemLine(this);
        line->start->setCoords(a, 0.0);
        line->end->setCoords(a, 1.0);
        line->setPen(QPen(axisLine, a == int(m_axes.size()) - 1 ? 2.0 : 1.0));
        line->setSelectable(false);
        m_items << line;

        QList<QPair<double, QString>> labels;
        const AxisScale& s = m_scales[std::size_t(a)];
        if (m_axes[a].categorical) {
            const int n = int(s.categories.size());
            const int every = std::max(1, (n + kMaxCategoryLabels - 1) / kMaxCategoryLabels);
            for (int i = 0; i < n; i += every)
                labels.append({ n == 1 ? 0.5 : double(i) / (n - 1), s.categories[i] });
        } else if (std::isfinite(s.min)) {
            if (s.min == s.max) {
                labels.append({ 0.5, numberText(s.min) });
            } else {
                for (int i = 0; i < kNumericTicks; ++i) {
                    const double t = double(i) / (kNumericTicks - 1);
                    const double v = s.log ? std::pow(10.0, std::log10(s.min) + t * std::log10(s.max / s.min))
                                           : s.min + t * (s.max - s.min);
                    labels.append({ t, numberText(v) });
                }
            }
        }
        for (const auto& [pos, label] : std::as_const(labels)) {
            auto* item = new QCPItemText(this);
            item->position->setCoords(a, pos);
            item->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            item->setText(labelMetrics.elidedText(label, Qt::ElideMiddle, perAxis - 8));
            item->setFont(tickFont);
            item->setColor(text);
            item->setBrush(labelBackground);
            item->setPadding(QMargins(4, 0, 3, 0));
            item->setClipToAxisRect(false);
            item->setLayer(kFrontLayer);
            item->setSelectable(false);
            m_items << item;
        }
    }
    // Room for the last axis's labels on the right.
    xAxis->setRange(-kLeftRoom, double(m_axes.size()) - 1 + std::max(0.35, 0.12 * double(m_axes.size())));
    m_builtWidth = width();

    // Lines, coloured by the metric's position on its axis.
    const int metricAxis = int(m_axes.size()) - 1;
    const auto& viridis = colorTable(ColorMap::Viridis);
    const QColor missing = blendColors(text, background, 0.6);
    for (int r = 0; r < runCount; ++r) {
        QCPGraph* g = addGraph();
        g->setName(runName(m_runs[r]));
        g->setAntialiased(true);
        g->setLineStyle(QCPGraph::lsLine);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
        QVector<double> keys;
        QVector<double> values;
        for (int a = 0; a < int(m_axes.size()); ++a) {
            keys << a;
            values << normalized(a, r);
        }
        g->setData(keys, values, true);
        const double t = normalized(metricAxis, r);
        m_colors.push_back(std::isnan(t) ? missing : QColor(viridis[std::size_t(std::lround(t * kColorRange))]));
        m_lines.push_back(g);
    }
    updatePens();
    replot(QCustomPlot::rpQueuedReplot);
}

void ParallelCoordinatesChart::updatePens()
{
    const bool emphasis = !m_emphasized.isEmpty();
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        QCPGraph* g = m_lines[i];
        const QString& run = m_runs[int(i)];
        QColor color = m_colors[i];
        double width = kLineWidth;
        bool front = false;
        if (run == m_highlighted) {
            width = kHighlightWidth;
            front = true;
        } else if (emphasis && m_emphasized.contains(run)) {
            width = kEmphasizedWidth;
            front = true;
        } else if (emphasis || !m_highlighted.isEmpty()) {
            color.setAlpha(60);
        } else {
            color.setAlpha(210);
        }
        g->setPen(QPen(color, width));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, front ? 6 : 4));
        g->setLayer(front ? kFrontLayer : QStringLiteral("main"));
    }
}

double ParallelCoordinatesChart::normalized(int axis, int run) const
{
    const Axis& a = m_axes[axis];
    const AxisScale& s = m_scales[std::size_t(axis)];
    if (a.categorical) {
        const QString t = run < a.texts.size() ? a.texts[run] : QString();
        const int i = t.isEmpty() ? -1 : int(s.categories.indexOf(t));
        if (i < 0)
            return kNaN;
        return s.categories.size() == 1 ? 0.5 : double(i) / double(s.categories.size() - 1);
    }
    const double v = run < int(a.values.size()) ? a.values[std::size_t(run)] : kNaN;
    if (!std::isfinite(v) || !std::isfinite(s.min))
        return kNaN;
    if (s.max == s.min)
        return 0.5;
    if (s.log)
        return (std::log10(v) - std::log10(s.min)) / (std::log10(s.max) - std::log10(s.min));
    return (v - s.min) / (s.max - s.min);
}

QString ParallelCoordinatesChart::valueText(int axis, int run) const
{
    const Axis& a = m_axes[axis];
    if (a.categorical)
        return run < a.texts.size() ? a.texts[run] : QString();
    const double v = run < int(a.values.size()) ? a.values[std::size_t(run)] : kNaN;
    return std::isnan(v) ? QString() : QString::number(v, 'g', 6);
}

QCPGraph* ParallelCoordinatesChart::line(const QString& run) const
{
    const int i = int(m_runs.indexOf(run));
    return i >= 0 && i < int(m_lines.size()) ? m_lines[std::size_t(i)] : nullptr;
}

double ParallelCoordinatesChart::positionOf(const QString& run, int axis) const
{
    const int r = int(m_runs.indexOf(run));
    if (r < 0 || axis < 0 || axis >= int(m_axes.size()) || m_scales.empty())
        return kNaN;
    return normalized(axis, r);
}

QPointF ParallelCoordinatesChart::pointOf(const QString& run, int axis) const
{
    const double y = positionOf(run, axis);
    if (std::isnan(y))
        return { kNaN, kNaN };
    return { xAxis->coordToPixel(axis), yAxis->coordToPixel(y) };
}

bool ParallelCoordinatesChart::isLogarithmic(int axis) const
{
    return axis >= 0 && axis < int(m_scales.size()) && m_scales[std::size_t(axis)].log;
}

QString ParallelCoordinatesChart::runAt(const QPointF& pos) const
{
    QString best;
    double bestDistance = kHoverDistance;
    for (int r = 0; r < int(m_runs.size()); ++r) {
        QPointF previous(kNaN, kNaN);
        for (int a = 0; a < int(m_axes.size()); ++a) {
            const QPointF p = pointOf(m_runs[r], a);
            if (std::isnan(p.y())) {
                previous = p;
                continue;
            }
            const double d = std::isnan(previous.y()) ? std::hypot(pos.x() - p.x(), pos.y() - p.y())
                                                      : distanceToSegment(pos, previous, p);
            // Ties go to the highlighted or later (drawn on top) line.
            if (d <= bestDistance) {
                bestDistance = d;
                best = m_runs[r];
            }
            previous = p;
        }
    }
    return best;
}

void ParallelCoordinatesChart::setHighlightedRun(const QString& run)
{
    const QString next = m_runs.contains(run) ? run : QString();
    if (next == m_highlighted)
        return;
    m_highlighted = next;
    updatePens();
    replot(QCustomPlot::rpQueuedReplot);
    emit runHovered(m_highlighted);
}

void ParallelCoordinatesChart::setEmphasizedRuns(const QStringList& runs)
{
    if (runs == m_emphasized)
        return;
    m_emphasized = runs;
    updatePens();
    replot(QCustomPlot::rpQueuedReplot);
}

void ParallelCoordinatesChart::showTip(const QPoint& globalPos, const QString& run)
{
    if (run.isEmpty()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(globalPos, runToolTip(run), this);
}

QString ParallelCoordinatesChart::runToolTip(const QString& run) const
{
    const int r = int(m_runs.indexOf(run));
    QString tip = QStringLiteral("<b>%1</b><table>").arg(runName(run).toHtmlEscaped());
    for (int a = 0; a < int(m_axes.size()); ++a) {
        const QString v = valueText(a, r);
        tip += QStringLiteral("<tr><td>%1</td><td>&nbsp;%2</td></tr>")
                   .arg(m_axes[a].title.toHtmlEscaped(), v.isEmpty() ? tr("(none)") : v.toHtmlEscaped());
    }
    tip += QStringLiteral("</table>");
    return tip;
}

void ParallelCoordinatesChart::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QString run = runAt(event->position());
    setHighlightedRun(run);
    showTip(event->globalPosition().toPoint(), run);
}

void ParallelCoordinatesChart::mousePressEvent(QMouseEvent* event)
{
    QCustomPlot::mousePressEvent(event);
    if (event->button() != Qt::LeftButton)
        return;
    emit runClicked(runAt(event->position()));
}

void ParallelCoordinatesChart::leaveEvent(QEvent* event)
{
    QCustomPlot::leaveEvent(event);
    setHighlightedRun({});
}

void ParallelCoordinatesChart::contextMenuEvent(QContextMenuEvent* event)
{
    const std::unique_ptr<QMenu> menu(new QMenu(this));
    m_exportMenu->addTo(menu.get());
    menu->exec(event->globalPos());
}

void ParallelCoordinatesChart::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    // Elided titles and labels depend on the width.
    if (!m_axes.isEmpty() && std::abs(width() - m_builtWidth) > 20)
        rebuild();
}

void ParallelCoordinatesChart::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        applyTheme();
        rebuild();
    }
}

ChartData ParallelCoordinatesChart::chartData() const
{
    ChartData data;
    data.title = m_title->text();
    data.seriesColumn = QStringLiteral("run");
    for (int a = 0; a < int(m_axes.size()); ++a) {
        if (!m_axes[a].categorical) {
            data.columns << m_axes[a].title;
            continue;
        }
        // Text values are written as their position on the axis; the header says which is which.
        QStringList legend;
        const QStringList& categories = m_scales[std::size_t(a)].categories;
        for (int i = 0; i < int(categories.size()); ++i)
            legend << QStringLiteral("%1=%2").arg(i).arg(categories[i]);
        data.columns << QStringLiteral("%1 (%2)").arg(m_axes[a].title, legend.join(QStringLiteral(", ")));
    }
    for (int r = 0; r < int(m_runs.size()); ++r) {
        ChartSeriesData s;
        s.name = runName(m_runs[r]);
        for (int a = 0; a < int(m_axes.size()); ++a) {
            double v = kNaN;
            if (m_axes[a].categorical) {
                const QString t = r < m_axes[a].texts.size() ? m_axes[a].texts[r] : QString();
                const int i = t.isEmpty() ? -1 : int(m_scales[std::size_t(a)].categories.indexOf(t));
                if (i >= 0)
                    v = i;
            } else if (r < int(m_axes[a].values.size())) {
                v = m_axes[a].values[std::size_t(r)];
            }
            s.columns.push_back({ v });
        }
        data.series.push_back(std::move(s));
    }
    return data;
}

} // namespace runlens::widgets::compare
