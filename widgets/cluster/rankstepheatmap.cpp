#include "widgets/cluster/rankstepheatmap.h"

#include "models/core/workerpool.h"
#include "widgets/cluster/clusterrankmodel.h"
#include "widgets/common/chartpalette.h"

#include <QCoreApplication>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPointer>
#include <QToolTip>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::cluster {

namespace {

constexpr int kPad = 6;
constexpr int kColorBarWidth = 12;
/// The least height of the cells: below it a thousand ranks are a smear.
constexpr int kMinPlotHeight = 200;

QString rankTitle(bool byMean)
{
    return byMean ? RankStepHeatmap::tr("Rank (slowest mean first)") : RankStepHeatmap::tr("Rank");
}

/// The smallest label stride from `nice` that leaves `needed` pixels between labels `spacing` apart.
int labelStride(double spacing, double needed, std::initializer_list<int> nice)
{
    for (int base = 1;; base *= 10) {
        for (int n : nice) {
            if (n * base * spacing >= needed)
                return n * base;
        }
        if (base > 100000000)
            return 1;
    }
}

} // namespace

RankStepHeatmap::RankStepHeatmap(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("rankStepHeatmap"));
    setMouseTracking(true);
    // Tall enough for the rank axis's title and a readable picture of a thousand ranks; the Cluster dock's
    // splitter gives it no less.
    const QFontMetrics fm(font());
    setMinimumSize(
        240, fm.height() * 3 + 3 * kPad + std::max(kMinPlotHeight, fm.horizontalAdvance(rankTitle(true)) + 2 * kPad));
    setAttribute(Qt::WA_OpaquePaintEvent);
}

RankStepHeatmap::~RankStepHeatmap() = default;

void RankStepHeatmap::setMatrix(std::shared_ptr<const models::cluster::RankStepMatrix> matrix)
{
    m_matrix = std::move(matrix);
    rebuildImage();
}

void RankStepHeatmap::setRowsByMean(bool byMean)
{
    if (m_byMean == byMean)
        return;
    m_byMean = byMean;
    rebuildImage();
}

void RankStepHeatmap::setSelectedRank(int rank)
{
    if (m_selectedRank == rank)
        return;
    m_selectedRank = rank;
    update();
}

void RankStepHeatmap::rebuildImage()
{
    const quint64 generation = ++m_generation;
    if (!m_matrix || m_matrix->isEmpty()) {
        m_image.reset();
        m_rendered = {};
        update();
        emit imageReady();
        return;
    }
    ++m_pending;
    const QSize size = plotRect().size();
    auto matrix = m_matrix;
    const bool byMean = m_byMean;
    // The result comes back through the application object, which outlives every widget, and is dropped when
    // the heatmap is gone.
    QPointer<RankStepHeatmap> self(this);
    (void)QtConcurrent::run(models::workerPool(), [self, matrix, byMean, size, generation] {
        auto image = std::make_shared<const RankStepImage>(matrix, matrix->rowOrder(byMean));
        QImage rendered = image->rendered(size);
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, generation, size, image = std::move(image), rendered = std::move(rendered)]() mutable {
                if (self)
                    self->imageBuilt(generation, size, std::move(image), std::move(rendered));
            },
            Qt::QueuedConnection);
    });
}

void RankStepHeatmap::imageBuilt(quint64 generation, QSize size, std::shared_ptr<const RankStepImage> image,
                                 QImage rendered)
{
    --m_pending;
    if (generation == m_generation) {
        m_image = std::move(image);
        m_rendered = std::move(rendered);
        if (size != plotRect().size())
            renderAtSize();
        update();
    }
    // A superseded build can be the last to finish: the picture is ready when nothing is pending, whichever
    // build that was.
    if (m_pending == 0)
        emit imageReady();
}

void RankStepHeatmap::renderAtSize()
{
    if (!m_image)
        return;
    const QSize size = plotRect().size();
    if (size.isEmpty() || m_rendered.size() == size)
        return;
    const quint64 generation = m_generation;
    ++m_pending;
    auto image = m_image;
    QPointer<RankStepHeatmap> self(this);
    (void)QtConcurrent::run(models::workerPool(), [self, image, size, generation] {
        QImage rendered = image->rendered(size);
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, generation, size, rendered = std::move(rendered)]() mutable {
                if (self)
                    self->imageRendered(generation, size, std::move(rendered));
            },
            Qt::QueuedConnection);
    });
}

void RankStepHeatmap::imageRendered(quint64 generation, QSize size, QImage rendered)
{
    --m_pending;
    if (generation == m_generation && size == plotRect().size()) {
        m_rendered = std::move(rendered);
        update();
    }
    if (m_pending == 0)
        emit imageReady();
}

QRect RankStepHeatmap::plotRect() const
{
    const QFontMetrics fm(font());
    const int left = fm.height() + kPad + fm.horizontalAdvance(QStringLiteral("00000")) + kPad;
    const int right = kPad + kColorBarWidth + kPad + fm.horizontalAdvance(QStringLiteral("0000.00 ms")) + kPad;
    const int top = fm.height() + kPad;
    const int bottom = 2 * fm.height() + 2 * kPad;
    return QRect(left, top, std::max(1, width() - left - right), std::max(1, height() - top - bottom));
}

QString RankStepHeatmap::metricName() const
{
    return m_matrix && m_matrix->metric == models::cluster::StepMetric::WaitTime ? tr("Wait time") : tr("Step time");
}

void RankStepHeatmap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QRect plot = plotRect();
    const QFontMetrics fm(font());
    p.setPen(palette().text().color());
    if (!m_image || m_image->isEmpty()) {
        p.drawText(rect(), Qt::AlignCenter,
                   m_matrix && !m_matrix->isEmpty() ? tr("Drawing…") : tr("No per-step figures"));
        return;
    }
    if (m_rendered.size() == plot.size())
        p.drawImage(plot.topLeft(), m_rendered);
    else if (!m_rendered.isNull())
        p.drawImage(plot, m_rendered); // until the picture at this size arrives
    const int rows = m_image->rowCount();
    const int columns = m_image->columnCount();
    const double rowHeight = double(plot.height()) / rows;
    const double columnWidth = double(plot.width()) / columns;

    // Rank labels: on multiples of a power of two when rows are ranks in order; thinned either way.
    const int rowStride = labelStride(rowHeight, fm.height() * 1.3, { 1, 2, 4, 8 });
    for (int row = 0; row < rows; row += rowStride) {
        const int y = plot.top() + int((row + 0.5) * rowHeight);
        const int rank = m_matrix->ranks[std::size_t(m_image->matrixRow(row))];
        p.drawText(QRect(0, y - fm.height(), plot.left() - kPad, 2 * fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(rank));
    }
    const int stepWidth = fm.horizontalAdvance(QString::number(m_matrix->steps.back())) + 2 * kPad;
    const int columnStride = labelStride(columnWidth, stepWidth, { 1, 2, 5 });
    for (int c = 0; c < columns; c += columnStride) {
        const int x = plot.left() + int((c + 0.5) * columnWidth);
        p.drawText(QRect(x - stepWidth, plot.bottom() + 2, 2 * stepWidth, fm.height()), Qt::AlignCenter,
                   QString::number(m_matrix->steps[std::size_t(c)]));
    }
    p.drawText(QRect(plot.left(), plot.bottom() + fm.height() + kPad, plot.width(), fm.height()), Qt::AlignCenter,
               tr("Step"));
    p.save();
    p.translate(fm.height() / 2 + 2, plot.center().y());
    p.rotate(-90);
    // Rotated, the title has the plot's height: when the long one does not fit, the short one does, elided at
    // worst (never cut off at both ends).
    QString title = rankTitle(m_byMean);
    if (fm.horizontalAdvance(title) > plot.height())
        title = rankTitle(false);
    p.drawText(QRect(-plot.height() / 2, -fm.height() / 2, plot.height(), fm.height()), Qt::AlignCenter,
               fm.elidedText(title, Qt::ElideRight, plot.height()));
    p.restore();
    p.drawText(QRect(plot.left(), 0, plot.width(), plot.top()), Qt::AlignLeft | Qt::AlignVCenter,
               tr("%1 per rank and step (ms)").arg(metricName()));

    // Colour bar: high at the top.
    const QRect bar(plot.right() + kPad, plot.top(), kColorBarWidth, plot.height());
    p.drawImage(bar, colorBar(m_image->colorMap(), bar.size()));
    p.drawText(QRect(bar.right() + kPad, plot.top(), width() - bar.right() - kPad, fm.height()), Qt::AlignLeft,
               ClusterRankModel::formatMs(m_matrix->high));
    p.drawText(QRect(bar.right() + kPad, plot.bottom() - fm.height(), width() - bar.right() - kPad, fm.height()),
               Qt::AlignLeft, ClusterRankModel::formatMs(m_matrix->low));

    if (m_selectedRank >= 0) {
        const int row = m_image->displayRowOfRank(m_selectedRank);
        if (row >= 0) {
            const int y0 = plot.top() + int(row * rowHeight);
            const int y1 = plot.top() + int((row + 1) * rowHeight);
            p.setPen(QPen(alertColor(), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRect(plot.left() - 1, y0 - 1, plot.width() + 1, std::max(2, y1 - y0 + 1)));
        }
    }
}

void RankStepHeatmap::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    renderAtSize();
}

std::pair<int, int> RankStepHeatmap::cellAt(const QPoint& pos) const
{
    const QRect plot = plotRect();
    if (!m_image || m_image->isEmpty() || !plot.contains(pos))
        return { -1, -1 };
    const int rows = m_image->rowCount();
    const int columns = m_image->columnCount();
    const qint64 x = pos.x() - plot.left();
    const qint64 y = pos.y() - plot.top();
    // The cells this pixel covers, as rendered() bins them; the largest is the one drawn.
    const int row0 = int(y * rows / plot.height());
    const int row1 = std::max(row0 + 1, int((y + 1) * rows / plot.height()));
    const int col0 = int(x * columns / plot.width());
    const int col1 = std::max(col0 + 1, int((x + 1) * columns / plot.width()));
    std::pair<int, int> best { row0, col0 };
    int bestLevel = -1;
    for (int r = row0; r < std::min(rows, row1); ++r) {
        for (int c = col0; c < std::min(columns, col1); ++c) {
            if (m_image->level(r, c) > bestLevel) {
                bestLevel = m_image->level(r, c);
                best = { r, c };
            }
        }
    }
    return best;
}

QPoint RankStepHeatmap::cellCenter(int rank, int column) const
{
    const QRect plot = plotRect();
    if (!m_image)
        return {};
    const int row = m_image->displayRowOfRank(rank);
    return QPoint(plot.left() + int((column + 0.5) * plot.width() / m_image->columnCount()),
                  plot.top() + int((row + 0.5) * plot.height() / m_image->rowCount()));
}

QString RankStepHeatmap::cellText(int row, int column) const
{
    if (!m_image || row < 0 || column < 0)
        return {};
    const int rank = m_matrix->ranks[std::size_t(m_image->matrixRow(row))];
    const double value = m_image->value(row, column);
    const double median = m_matrix->stepMedians[std::size_t(column)];
    QStringList lines { tr("Rank %1, step %2").arg(rank).arg(m_matrix->steps[std::size_t(column)]) };
    lines << QStringLiteral("%1: %2").arg(metricName(), ClusterRankModel::formatMs(value));
    if (std::isfinite(value) && std::isfinite(median)) {
        const double delta = value - median;
        QString share;
        if (median > 0)
            share = QStringLiteral(", %1%2 %")
                        .arg(delta >= 0 ? QStringLiteral("+") : QString())
                        .arg(QLocale().toString(delta / median * 100.0, 'f', 1));
        lines << tr("Step median: %1 (%2%3 ms%4)")
                     .arg(ClusterRankModel::formatMs(median), delta >= 0 ? QStringLiteral("+") : QString(),
                          QLocale().toString(delta, 'f', 3), share);
    }
    return lines.join(QLatin1Char('\n'));
}

int RankStepHeatmap::rankAt(const QPoint& pos) const
{
    const auto [row, column] = cellAt(pos);
    return row < 0 ? -1 : m_matrix->ranks[std::size_t(m_image->matrixRow(row))];
}

void RankStepHeatmap::mouseMoveEvent(QMouseEvent* event)
{
    const auto [row, column] = cellAt(event->position().toPoint());
    if (row < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), cellText(row, column), this);
}

void RankStepHeatmap::mousePressEvent(QMouseEvent* event)
{
    const int rank = event->button() == Qt::LeftButton ? rankAt(event->position().toPoint()) : -1;
    if (rank < 0)
        return QWidget::mousePressEvent(event);
    setSelectedRank(rank);
    emit rankClicked(rank);
}

void RankStepHeatmap::mouseDoubleClickEvent(QMouseEvent* event)
{
    const int rank = rankAt(event->position().toPoint());
    if (rank >= 0)
        emit rankActivated(rank);
}

void RankStepHeatmap::leaveEvent(QEvent* event)
{
    QToolTip::hideText();
    QWidget::leaveEvent(event);
}

} // namespace runlens::widgets::cluster
