#include "widgets/cluster/clusterpanel.h"

#include "models/core/workerpool.h"
#include "widgets/cluster/clusterpanelparts.h"
#include "widgets/cluster/clusterrankmodel.h"
#include "widgets/cluster/rankstepheatmap.h"

#include "models/cluster/kinetocluster.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/chartstyle.h"
#include "widgets/common/panelheader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QToolButton>
#include <QToolTip>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace runlens::widgets::cluster {

using models::cluster::Cluster;
using models::cluster::ClusterLink;
using models::cluster::isKnown;
using models::cluster::RankFigures;

using namespace clusterparts;

void ClusterPanel::buildBarChart()
{
    m_barPlot = new QCustomPlot(m_tabs);
    m_barPlot->setObjectName(QStringLiteral("clusterBars"));
    m_barPlot->setMinimumHeight(120);
    m_barPlot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_barPlot->setMouseTracking(true);
    styleAxes(m_barPlot, this);
    m_barPlot->xAxis->setLabel(tr("Rank"));
    m_barPlot->yAxis->setLabel(tr("Time per step (ms)"));
    m_barPlot->legend->setVisible(true);
    m_barPlot->legend->setBorderPen(Qt::NoPen);
    m_barPlot->legend->setBrush(Qt::NoBrush);
    m_barPlot->legend->setFont(m_barPlot->xAxis->tickLabelFont());
    m_barPlot->legend->setIconSize(12, 10);
    m_barPlot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_barPlot->legend->setWrap(6);
    m_barPlot->axisRect()->insetLayout()->take(m_barPlot->legend);
    m_barPlot->axisRect()->insetLayout()->simplify();
    m_barPlot->plotLayout()->addElement(1, 0, m_barPlot->legend);
    m_barPlot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_barPlot->legend->setMargins(QMargins(8, 0, 8, 6));
    m_tabs->addTab(m_barPlot, tr("Per-rank breakdown"));

    m_barExport = new ChartExportMenu(m_barPlot, this);
    m_barExport->setBaseName(QStringLiteral("cluster-ranks"));
    m_barExport->setDataProvider([this] { return barChartData(); });
    m_barExport->setExportHook(exportTitleHook(m_barPlot, this, [] { return tr("Time per step by rank"); }));
    connect(m_barExport, &ChartExportMenu::exported, this, &ClusterPanel::chartExported);
    connect(m_barExport, &ChartExportMenu::exportFailed, this, &ClusterPanel::chartExportFailed);

    connect(m_barPlot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* event) {
        const int index = rankIndexAt(event->position().toPoint());
        if (index >= 0)
            emit rankActivated(m_cluster->ranks[std::size_t(index)].rank);
    });
    connect(m_barPlot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const int index = rankIndexAt(event->position().toPoint());
        if (index < 0) {
            QToolTip::hideText();
            return;
        }
        const RankFigures& r = m_cluster->ranks[std::size_t(index)];
        QStringList lines { tr("Rank %1").arg(r.rank) };
        for (const BarPart& part : barParts()) {
            const double v = part.field ? r.*part.field : restOfStep(r);
            if (isKnown(v) && v > 0)
                lines << QStringLiteral("%1: %2").arg(part.name, ClusterRankModel::formatMs(v));
        }
        lines << tr("Double-click to open this rank");
        QToolTip::showText(event->globalPosition().toPoint(), lines.join(QLatin1Char('\n')), m_barPlot);
    });
    connect(m_barPlot, &QWidget::customContextMenuRequested, this, &ClusterPanel::showBarMenu);
}

void ClusterPanel::buildMatrix()
{
    m_matrixPage = new QWidget(m_tabs);
    auto* layout = new QVBoxLayout(m_matrixPage);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(4);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(8, 0, 8, 0);
    row->addWidget(new QLabel(tr("Link type:"), m_matrixPage));
    m_linkTypeCombo = new QComboBox(m_matrixPage);
    m_linkTypeCombo->setObjectName(QStringLiteral("clusterLinkType"));
    m_linkTypeCombo->setToolTip(tr("The link type whose bandwidth the matrix shows"));
    row->addWidget(m_linkTypeCombo);
    row->addStretch(1);
    layout->addLayout(row);
    m_matrixEmpty = new QLabel(tr("No link information (hccl_raw files) in this cluster"), m_matrixPage);
    m_matrixEmpty->setObjectName(QStringLiteral("matrixEmptyState"));
    m_matrixEmpty->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_matrixEmpty);

    m_matrixPlot = new QCustomPlot(m_matrixPage);
    m_matrixPlot->setObjectName(QStringLiteral("clusterLinkMatrix"));
    m_matrixPlot->setMinimumHeight(120);
    m_matrixPlot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_matrixPlot->setMouseTracking(true);
    styleAxes(m_matrixPlot, this);
    m_matrixPlot->xAxis->setLabel(tr("Destination rank"));
    m_matrixPlot->yAxis->setLabel(tr("Source rank"));
    m_matrixPlot->yAxis->setRangeReversed(true);
    m_matrixPlot->yAxis->grid()->setVisible(false);
    m_colorMap = new QCPColorMap(m_matrixPlot->xAxis, m_matrixPlot->yAxis);
    m_colorMap->setInterpolate(false);
    auto* scale = new QCPColorScale(m_matrixPlot);
    m_matrixPlot->plotLayout()->addElement(0, 1, scale);
    scale->setLabel(tr("Bandwidth (GB/s)"));
    scale->axis()->setTickLabelFont(m_matrixPlot->xAxis->tickLabelFont());
    scale->axis()->setLabelFont(m_matrixPlot->xAxis->labelFont());
    m_colorMap->setColorScale(scale);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    m_colorMap->setGradient(gradient);
    layout->addWidget(m_matrixPlot, 1);
    m_tabs->addTab(m_matrixPage, tr("Link bandwidth"));

    m_matrixExport = new ChartExportMenu(m_matrixPlot, this);
    m_matrixExport->setBaseName(QStringLiteral("cluster-links"));
    m_matrixExport->setDataProvider([this] { return matrixChartData(); });
    m_matrixExport->setExportHook(
        exportTitleHook(m_matrixPlot, this, [this] { return tr("%1 link bandwidth (GB/s)").arg(linkType()); }));
    connect(m_matrixExport, &ChartExportMenu::exported, this, &ClusterPanel::chartExported);
    connect(m_matrixExport, &ChartExportMenu::exportFailed, this, &ClusterPanel::chartExportFailed);

    connect(m_linkTypeCombo, &QComboBox::currentIndexChanged, this, [this] { rebuildMatrix(); });
    connect(m_matrixPlot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (!m_cluster)
            return;
        const std::vector<int> ranks = matrixRanks();
        const int x = int(std::lround(m_matrixPlot->xAxis->pixelToCoord(event->position().x())));
        const int y = int(std::lround(m_matrixPlot->yAxis->pixelToCoord(event->position().y())));
        if (x < 0 || y < 0 || x >= int(ranks.size()) || y >= int(ranks.size())) {
            QToolTip::hideText();
            return;
        }
        const QString type = linkType();
        for (const ClusterLink& l : m_cluster->links) {
            if (l.type != type || l.src != ranks[std::size_t(y)] || l.dst != ranks[std::size_t(x)])
                continue;
            QString text = tr("%1 → %2 (%3)\nBandwidth %4 GB/s\nSize %5 MB\nTime %6")
                               .arg(l.src)
                               .arg(l.dst)
                               .arg(l.type)
                               .arg(QLocale().toString(l.bandwidth, 'f', 2))
                               .arg(QLocale().toString(l.size, 'f', 2))
                               .arg(ClusterRankModel::formatMs(l.time));
            if (isKnown(l.deviation))
                text += QLatin1Char('\n') + tr("%1 against the %2 mean").arg(formatPercent(l.deviation), l.type);
            if (l.slow)
                text += QLatin1Char('\n') + tr("Slow link");
            QToolTip::showText(event->globalPosition().toPoint(), text, m_matrixPlot);
            return;
        }
        QToolTip::hideText();
    });
    connect(m_matrixPlot, &QWidget::customContextMenuRequested, this, &ClusterPanel::showMatrixMenu);
}

std::vector<ClusterPanel::BarPart> ClusterPanel::barParts() const
{
    std::vector<BarPart> parts;
    if (!m_cluster)
        return parts;
    const auto any = [this](double RankFigures::*field) {
        return std::any_of(m_cluster->ranks.begin(), m_cluster->ranks.end(),
                           [field](const RankFigures& r) { return isKnown(r.*field); });
    };
    // Parts that add up to the step: the tail holds the gradient communication when nothing else reports it.
    const bool communication = any(&RankFigures::communication);
    if (any(&RankFigures::stepInterval))
        parts.push_back({ tr("Step interval"), QColor(0xee, 0xca, 0x3b), &RankFigures::stepInterval });
    if (any(&RankFigures::computation))
        parts.push_back({ tr("Computation"), QColor(0x4c, 0x78, 0xa8), &RankFigures::computation });
    if (communication)
        parts.push_back({ tr("Communication"), QColor(0x72, 0xb7, 0xb2), &RankFigures::communication });
    if (any(&RankFigures::receive))
        parts.push_back({ tr("Receive"), QColor(0xb2, 0x79, 0xa2), &RankFigures::receive });
    if (!communication && any(&RankFigures::tail))
        parts.push_back({ tr("Tail"), QColor(0xf5, 0x85, 0x18), &RankFigures::tail });
    if (any(&RankFigures::idle))
        parts.push_back({ tr("Idle"), QColor(0xc9, 0xc4, 0xc0), &RankFigures::idle });
    parts.push_back({ tr("Other"), QColor(0x9d, 0x75, 0x5d), nullptr });
    return parts;
}

double ClusterPanel::restOfStep(const RankFigures& rank) const
{
    if (!isKnown(rank.stepTime))
        return 0;
    double sum = 0;
    for (const BarPart& part : barParts()) {
        if (part.field && isKnown(rank.*part.field))
            sum += rank.*part.field;
    }
    // Rounding in the files leaves slivers; only a visible rest is drawn.
    const double rest = rank.stepTime - sum;
    return rest > rank.stepTime * 1e-3 ? rest : 0;
}

void ClusterPanel::rebuildBars()
{
    for (QCPBars* bars : std::as_const(m_bars))
        m_barPlot->removePlottable(bars);
    m_bars.clear();
    m_barPlot->clearItems();
    const std::vector<BarPart> parts = barParts();
    const int n = m_cluster ? int(m_cluster->ranks.size()) : 0;
    QCPBars* below = nullptr;
    std::vector<double> totals(std::size_t(n), 0.0);
    for (const BarPart& part : parts) {
        auto* bars = new QCPBars(m_barPlot->xAxis, m_barPlot->yAxis);
        bars->setName(part.name);
        bars->setWidth(kBarWidth);
        bars->setPen(Qt::NoPen);
        bars->setBrush(part.color);
        bars->setStackingGap(0);
        bars->setAntialiased(false);
        if (below)
            bars->moveAbove(below);
        below = bars;
        QVector<double> keys;
        QVector<double> values;
        for (int i = 0; i < n; ++i) {
            const RankFigures& r = m_cluster->ranks[std::size_t(i)];
            double v = part.field ? r.*part.field : restOfStep(r);
            v = isKnown(v) ? std::max(0.0, v) : 0.0;
            keys << i;
            values << v;
            totals[std::size_t(i)] += v;
        }
        bars->setData(keys, values, true);
        // A part no rank has (an all-zero rest) stays out of the legend.
        if (std::all_of(values.begin(), values.end(), [](double v) { return v == 0; }))
            bars->removeFromLegend();
        m_bars << bars;
    }
    const double top = totals.empty() ? 1.0 : *std::max_element(totals.begin(), totals.end());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int stride = std::max(1, (n + kMaxTickLabels - 1) / kMaxTickLabels);
    for (int i = 0; i < n; i += stride)
        ticker->addTick(i, QString::number(m_cluster->ranks[std::size_t(i)].rank));
    m_barPlot->xAxis->setTicker(ticker);
    m_barPlot->xAxis->setRange(-0.6, n > 0 ? n - 0.4 : 1.0);
    m_barPlot->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);

    // The slowest rank: outlined in the alert colour; other slow ranks with a thinner line.
    for (int i = 0; i < n; ++i) {
        const RankFigures& r = m_cluster->ranks[std::size_t(i)];
        const bool slowest = i == m_cluster->slowestRank;
        if (!slowest && !r.slow)
            continue;
        auto* rect = new QCPItemRect(m_barPlot);
        rect->setObjectName(slowest ? QStringLiteral("slowestRankMark") : QStringLiteral("slowRankMark"));
        rect->topLeft->setCoords(i - kBarWidth / 2 - 0.05, totals[std::size_t(i)] * 1.02 + top * 0.01);
        rect->bottomRight->setCoords(i + kBarWidth / 2 + 0.05, 0);
        rect->setPen(QPen(alertColor(), slowest ? 2.5 : 1.2));
        rect->setBrush(Qt::NoBrush);
    }
    m_barPlot->replot();
}

std::vector<int> ClusterPanel::matrixRanks() const
{
    std::vector<int> ranks;
    if (!m_cluster)
        return ranks;
    for (const ClusterLink& l : m_cluster->links) {
        ranks.push_back(l.src);
        ranks.push_back(l.dst);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

void ClusterPanel::rebuildMatrix()
{
    m_matrixPlot->clearItems();
    const std::vector<int> ranks = matrixRanks();
    const int n = int(ranks.size());
    const bool empty = n == 0;
    m_matrixEmpty->setVisible(empty);
    m_matrixPlot->setVisible(!empty);
    m_linkTypeCombo->setEnabled(!empty);
    m_colorMap->data()->setSize(std::max(1, n), std::max(1, n));
    m_colorMap->data()->setRange(QCPRange(0, std::max(1, n) - 1), QCPRange(0, std::max(1, n) - 1));
    m_colorMap->data()->fill(std::nan(""));
    auto position
        = [&ranks](int rank) { return int(std::lower_bound(ranks.begin(), ranks.end(), rank) - ranks.begin()); };
    const QString type = linkType();
    double low = std::numeric_limits<double>::max();
    double high = std::numeric_limits<double>::lowest();
    if (m_cluster) {
        for (int i = 0; i < int(m_cluster->links.size()); ++i) {
            const ClusterLink& l = m_cluster->links[std::size_t(i)];
            if (l.type != type || !isKnown(l.bandwidth))
                continue;
            const int x = position(l.dst);
            const int y = position(l.src);
            m_colorMap->data()->setCell(x, y, l.bandwidth);
            low = std::min(low, l.bandwidth);
            high = std::max(high, l.bandwidth);
            if (l.slow || i == m_cluster->worstLink) {
                auto* rect = new QCPItemRect(m_matrixPlot);
                rect->setObjectName(i == m_cluster->worstLink ? QStringLiteral("worstLinkMark")
                                                              : QStringLiteral("slowLinkMark"));
                rect->topLeft->setCoords(x - 0.45, y - 0.45);
                rect->bottomRight->setCoords(x + 0.45, y + 0.45);
                rect->setPen(QPen(alertColor(), i == m_cluster->worstLink ? 3 : 1.5));
                rect->setBrush(Qt::NoBrush);
            }
        }
    }
    if (low <= high)
        m_colorMap->setDataRange(QCPRange(std::min(0.0, low), high > 0 ? high : 1.0));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int stride = std::max(1, (n + kMaxTickLabels - 1) / kMaxTickLabels);
    for (int i = 0; i < n; i += stride)
        ticker->addTick(i, QString::number(ranks[std::size_t(i)]));
    m_matrixPlot->xAxis->setTicker(ticker);
    m_matrixPlot->yAxis->setTicker(ticker);
    m_matrixPlot->xAxis->setRange(-0.5, std::max(1, n) - 0.5);
    m_matrixPlot->yAxis->setRange(-0.5, std::max(1, n) - 0.5);
    m_matrixPlot->replot();
}

ChartData ClusterPanel::barChartData() const
{
    ChartData data;
    data.title = tr("Time per step by rank");
    data.xLabel = tr("Rank");
    data.yLabel = tr("Time per step (ms)");
    data.seriesColumn = QStringLiteral("rank");
    const std::vector<BarPart> parts = barParts();
    data.columns << QStringLiteral("step_time_ms");
    for (const BarPart& part : parts)
        data.columns << QStringLiteral("%1_ms").arg(part.name.toLower().replace(QLatin1Char(' '), QLatin1Char('_')));
    data.columns << QStringLiteral("off_mean") << QStringLiteral("slow");
    if (!m_cluster)
        return data;
    for (int i = 0; i < int(m_cluster->ranks.size()); ++i) {
        const RankFigures& r = m_cluster->ranks[std::size_t(i)];
        ChartSeriesData series;
        series.name = QString::number(r.rank);
        series.columns.push_back({ r.stepTime });
        for (const BarPart& part : parts)
            series.columns.push_back({ part.field ? r.*part.field : restOfStep(r) });
        series.columns.push_back({ r.deviation });
        series.columns.push_back({ r.slow || i == m_cluster->slowestRank ? 1.0 : 0.0 });
        data.series.push_back(std::move(series));
    }
    return data;
}

ChartData ClusterPanel::matrixChartData() const
{
    ChartData data;
    data.title = tr("%1 link bandwidth").arg(linkType());
    data.xLabel = tr("Destination rank");
    data.yLabel = tr("Source rank");
    data.seriesColumn = QStringLiteral("type");
    data.columns << QStringLiteral("src") << QStringLiteral("dst") << QStringLiteral("bandwidth_gb_s")
                 << QStringLiteral("size_mb") << QStringLiteral("time_ms") << QStringLiteral("off_mean")
                 << QStringLiteral("slow");
    if (!m_cluster)
        return data;
    const QString type = linkType();
    for (const ClusterLink& l : m_cluster->links) {
        if (l.type != type)
            continue;
        ChartSeriesData series;
        series.name = l.type;
        for (double v : { double(l.src), double(l.dst), l.bandwidth, l.size, l.time, l.deviation, l.slow ? 1.0 : 0.0 })
            series.columns.push_back({ v });
        data.series.push_back(std::move(series));
    }
    return data;
}

QPoint ClusterPanel::barCenter(int rankIndex) const
{
    const double x = m_barPlot->xAxis->coordToPixel(rankIndex);
    const double y = m_barPlot->yAxis->coordToPixel(m_barPlot->yAxis->range().lower);
    return QPoint(int(std::lround(x)), int(std::lround(y)) - 4);
}

int ClusterPanel::rankIndexAt(const QPoint& plotPos) const
{
    if (!m_cluster || m_cluster->ranks.empty() || !m_barPlot->axisRect()->rect().contains(plotPos))
        return -1;
    const double x = m_barPlot->xAxis->pixelToCoord(plotPos.x());
    const int nearest = int(std::lround(x));
    if (nearest < 0 || nearest >= int(m_cluster->ranks.size()) || std::abs(x - nearest) > kBarWidth / 2)
        return -1;
    return nearest;
}

QPoint ClusterPanel::matrixCellCenter(int src, int dst) const
{
    const std::vector<int> ranks = matrixRanks();
    const auto x = std::lower_bound(ranks.begin(), ranks.end(), dst) - ranks.begin();
    const auto y = std::lower_bound(ranks.begin(), ranks.end(), src) - ranks.begin();
    return QPoint(int(std::lround(m_matrixPlot->xAxis->coordToPixel(double(x)))),
                  int(std::lround(m_matrixPlot->yAxis->coordToPixel(double(y)))));
}

void ClusterPanel::showBarMenu(const QPoint& pos)
{
    QMenu menu(this);
    const int index = rankIndexAt(pos);
    if (index >= 0) {
        const int rank = m_cluster->ranks[std::size_t(index)].rank;
        menu.addAction(tr("Open rank %1").arg(rank), this, [this, rank] { emit rankActivated(rank); });
        menu.addSeparator();
    }
    m_barExport->addTo(&menu);
    menu.exec(m_barPlot->mapToGlobal(pos));
}

void ClusterPanel::showMatrixMenu(const QPoint& pos)
{
    QMenu menu(this);
    m_matrixExport->addTo(&menu);
    menu.exec(m_matrixPlot->mapToGlobal(pos));
}

} // namespace runlens::widgets::cluster
