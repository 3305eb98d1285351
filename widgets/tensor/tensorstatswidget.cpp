#include "widgets/tensor/tensorstatswidget.h"

#include "models/core/workerpool.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/tensor/backgroundwork.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QResizeEvent>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <qcustomplot.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

namespace runlens::widgets::tensor {

namespace {

enum Row { Count, Min, Max, Mean, Std, MeanAbs, L2, NaNs, PosInfs, NegInfs, Zeros, RowCount };

/// Shared by the warning cells and nothing else: a red that reads on light and dark backgrounds.
const QColor kWarningColor(0xd0, 0x30, 0x20);

QString formatNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    return QString::number(v, 'g', 7);
}

} // namespace

/// Progress (per mille) and cancellation shared by a worker and the widget; the widget may drop its
/// reference while the worker runs.
struct TensorStatsWidget::Job
{
    std::atomic<bool> cancelled { false };
    std::atomic<int> permille { 0 };
};

TensorStatsCache::TensorStatsCache(QObject* parent)
    : QObject(parent)
{ }

std::optional<models::tensor::TensorStatistics> TensorStatsCache::find(const QString& location) const
{
    const auto it = m_entries.constFind(location);
    if (it == m_entries.constEnd())
        return std::nullopt;
    m_uses.splice(m_uses.begin(), m_uses, it->use);
    return it->statistics;
}

void TensorStatsCache::insert(const QString& location, const models::tensor::TensorStatistics& statistics)
{
    auto it = m_entries.find(location);
    if (it != m_entries.end()) {
        it->statistics = statistics;
        m_uses.splice(m_uses.begin(), m_uses, it->use);
    } else {
        m_uses.push_front(location);
        m_entries.insert(location, Entry { statistics, m_uses.begin() });
        trim();
    }
    emit ready(location);
}

void TensorStatsCache::clear()
{
    m_entries.clear();
    m_uses.clear();
}

void TensorStatsCache::setMaxEntries(int maxEntries)
{
    m_maxEntries = std::max(1, maxEntries);
    trim();
}

void TensorStatsCache::trim()
{
    while (int(m_entries.size()) > m_maxEntries) {
        m_entries.remove(m_uses.back());
        m_uses.pop_back();
    }
}

TensorStatsWidget::TensorStatsWidget(QWidget* parent)
    : QWidget(parent)
{
    // The numbers on the left, the histogram beside them: the panel above keeps its height for the slice.
    // A panel too narrow for both stacks the histogram below the numbers instead of growing wider than its
    // dock (see resizeEvent()).
    m_outer = new QHBoxLayout(this);
    m_outer->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QVBoxLayout;
    auto* chartLayout = new QVBoxLayout;
    m_numbersLayout = layout;
    m_chartLayout = chartLayout;
    m_outer->addLayout(layout, 1);
    m_outer->addLayout(chartLayout, 1);

    m_table = new QTableWidget(RowCount, 2, this);
    m_table->setHorizontalHeaderLabels({ tr("Slice"), tr("Whole tensor") });
    m_table->setVerticalHeaderLabels(rowNames());
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::ContiguousSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // Every row stays in sight when there is room: the table asks for the height of its rows and the
    // histogram takes the rest; a short panel scrolls the table rather than growing the window.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    for (int row = 0; row < RowCount; ++row) {
        for (int column = 0; column < 2; ++column) {
            auto* item = new QTableWidgetItem;
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
        }
    }
    const int headerHeight = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    m_table->setMaximumHeight(headerHeight + RowCount * m_table->verticalHeader()->defaultSectionSize());
    m_table->setMinimumHeight(headerHeight + 3 * m_table->verticalHeader()->defaultSectionSize());
    // Wide enough for two columns of full-precision numbers without a scroll bar.
    const int numberWidth = m_table->fontMetrics().horizontalAdvance(QStringLiteral("-0.0000000000e+000")) + 16;
    m_table->setMinimumWidth(m_table->verticalHeader()->sizeHint().width() + 2 * numberWidth
                             + 2 * m_table->frameWidth());
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(m_table);

    auto* progressRow = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(m_status->fontMetrics().height());
    m_cancel = new QToolButton(this);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop computing the whole tensor's statistics"));
    m_compute = new QToolButton(this);
    m_compute->setText(tr("Compute"));
    m_compute->setToolTip(tr("Compute the whole tensor's statistics"));
    progressRow->addWidget(m_status, 1);
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    progressRow->addWidget(m_compute);
    layout->addLayout(progressRow);
    layout->addStretch(1);
    connect(m_cancel, &QToolButton::clicked, this, &TensorStatsWidget::cancelWhole);
    connect(m_compute, &QToolButton::clicked, this, [this] {
        if (m_hasWhole && !m_wholeJob)
            startWhole();
    });

    auto* histogramRow = new QHBoxLayout;
    // The combo says what the histogram counts; a label before it would cost the width that lets the
    // numbers and the chart sit side by side in the default layout.
    m_sourceCombo = new QComboBox(this);
    m_sourceCombo->setToolTip(tr("Histogram of the slice or of the whole tensor"));
    m_sourceCombo->setAccessibleName(tr("Histogram of"));
    m_sourceCombo->addItem(tr("Slice"), int(HistogramSource::Slice));
    m_sourceCombo->addItem(tr("Whole tensor"), int(HistogramSource::Whole));
    histogramRow->addWidget(m_sourceCombo);
    m_logBox = new QCheckBox(tr("Log counts"), this);
    histogramRow->addWidget(m_logBox);
    histogramRow->addStretch(1);
    m_exportButton = new QToolButton(this);
    m_exportButton->setText(tr("Export"));
    m_exportButton->setPopupMode(QToolButton::InstantPopup);
    histogramRow->addWidget(m_exportButton);
    chartLayout->addLayout(histogramRow);
    connect(m_sourceCombo, &QComboBox::currentIndexChanged, this,
            [this](int index) { setHistogramSource(HistogramSource(m_sourceCombo->itemData(index).toInt())); });
    connect(m_logBox, &QCheckBox::toggled, this, &TensorStatsWidget::setLogCounts);

    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(200, 120);
    m_plot->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Expanding);
    m_plot->xAxis->setLabel(tr("value"));
    m_plot->yAxis->setLabel(tr("count"));
    m_bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_bars->setWidthType(QCPBars::wtPlotCoords);
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(QColor(0x3b, 0x75, 0xaf));
    chartLayout->addWidget(m_plot, 1);

    m_exportMenu = new ChartExportMenu(m_plot, this);
    m_exportMenu->setBaseName(QStringLiteral("histogram"));
    m_exportMenu->setDataProvider([this] { return chartData(); });
    auto* menu = new QMenu(this);
    m_exportMenu->addTo(menu);
    m_exportButton->setMenu(menu);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this,
            [this, menu](const QPoint& pos) { menu->popup(m_plot->mapToGlobal(pos)); });

    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &TensorStatsWidget::updateProgress);

    clear();
}

QSize TensorStatsWidget::minimumSizeHint() const
{
    // As narrow as the wider of the two parts: below the width of both, they stack.
    const QSize numbers = m_numbersLayout->minimumSize();
    const QSize chart = m_chartLayout->minimumSize();
    return { std::max(numbers.width(), chart.width()), QWidget::minimumSizeHint().height() };
}

bool TensorStatsWidget::isStacked() const
{
    return m_outer->direction() == QBoxLayout::TopToBottom;
}

void TensorStatsWidget::resizeEvent(QResizeEvent* event)
{
    const int sideBySide
        = m_numbersLayout->minimumSize().width() + m_chartLayout->minimumSize().width() + m_outer->spacing();
    const QBoxLayout::Direction direction
        = event->size().width() < sideBySide ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight;
    if (m_outer->direction() != direction)
        m_outer->setDirection(direction);
    QWidget::resizeEvent(event);
}

TensorStatsWidget::~TensorStatsWidget()
{
    // Workers hold their own references to the data and the job; they only need to stop early.
    stopSliceJob();
    stopWholeJob();
}

void TensorStatsWidget::setCache(TensorStatsCache* cache)
{
    m_cache = cache;
}

QStringList TensorStatsWidget::rowNames()
{
    return { tr("count"),   tr("min"), tr("max"),  tr("mean"),      tr("std"),  tr("mean |x|"),
             tr("L2 norm"), tr("NaN"), tr("+Inf"), tr("\u2212Inf"), tr("zeros") };
}

QString TensorStatsWidget::cellText(int row, int column) const
{
    const QTableWidgetItem* item = m_table->item(row, column);
    return item ? item->text() : QString();
}

TensorStatsWidget::Result TensorStatsWidget::compute(const models::tensor::Tensor& tensor,
                                                     const std::optional<models::tensor::TensorStatistics>& known,
                                                     const models::tensor::StatisticsOptions& options)
{
    Result result;
    // The histogram pass converts every element, so it takes about as long as the statistics.
    models::tensor::StatisticsOptions first = options;
    if (options.progress && !known)
        first.progress = [&options](double f) { options.progress(f * 0.5); };
    result.statistics = known ? *known : models::tensor::computeStatistics(tensor, first);
    if (result.statistics.cancelled)
        return result;
    double lo = result.statistics.finiteMin;
    double hi = result.statistics.finiteMax;
    if (std::isnan(lo) || std::isnan(hi))
        return result; // nothing finite to count
    int bins = kHistogramBins;
    if (lo == hi) {
        lo -= 0.5;
        hi += 0.5;
        bins = 1;
    } else if (!models::tensor::isFloating(tensor.dtype) && hi - lo < kHistogramBins) {
        // One bar per integer value.
        bins = int(hi - lo) + 1;
        lo -= 0.5;
        hi += 0.5;
    }
    models::tensor::StatisticsOptions second = options;
    const double base = known ? 0.0 : 0.5;
    if (options.progress)
        second.progress = [&options, base](double f) { options.progress(base + f * (1 - base)); };
    auto counts = models::tensor::histogram(tensor, bins, lo, hi, false, second);
    if (counts.empty()) {
        result.statistics.cancelled = true;
        return result;
    }
    result.histogram = { std::move(counts), lo, hi };
    if (tensor.data)
        result.damage = tensor.data->damage();
    return result;
}

void TensorStatsWidget::setSlice(const models::tensor::Tensor& slice)
{
    stopSliceJob();
    m_slice = slice;
    m_hasSlice = true;
    m_sliceStats.reset();
    m_sliceHistogram.reset();
    if (slice.elementCount() <= kSynchronousLimit) {
        const Result result = compute(slice, std::nullopt, {});
        m_sliceStats = result.statistics;
        m_sliceHistogram = result.histogram;
        showColumn(0, m_sliceStats, {});
        updateHistogram();
        return;
    }
    startSlice();
}

void TensorStatsWidget::startSlice()
{
    auto job = std::make_shared<Job>();
    m_sliceJob = job;
    showColumn(0, std::nullopt, tr("computing\u2026"));
    updateHistogram();
    QtConcurrent::run(models::workerPool(), [tensor = m_slice, job] {
        models::tensor::StatisticsOptions options;
        options.cancel = [job] { return job->cancelled.load(); };
        return compute(tensor, std::nullopt, options);
    }).then(this, [this, job](const Result& result) {
        if (job != m_sliceJob)
            return; // replaced by another slice meanwhile
        m_sliceJob.reset();
        if (result.statistics.cancelled)
            return;
        m_sliceStats = result.statistics;
        m_sliceHistogram = result.histogram;
        showColumn(0, m_sliceStats, {});
        updateHistogram();
    });
}

void TensorStatsWidget::setWhole(const QString& location, const models::tensor::Tensor& whole)
{
    if (m_hasWhole && location == m_location && !location.isEmpty() && (m_wholeStats || m_wholeJob))
        return; // the same tensor again (a new slice of it)
    stopWholeJob();
    m_location = location;
    m_whole = whole;
    m_hasWhole = true;
    m_wholeCancelled = false;
    m_damage.clear();
    m_wholeStats.reset();
    m_wholeHistogram.reset();
    if (m_cache && !location.isEmpty())
        m_wholeStats = m_cache->find(location);
    if (m_wholeStats) {
        showColumn(1, m_wholeStats, {});
        emit wholeStatisticsReady(m_location, *m_wholeStats);
        // The cache keeps statistics only; the histogram is counted when it is asked for.
        if (m_histogramSource == HistogramSource::Whole)
            startWhole();
    } else {
        startWhole();
    }
    updateWholeControls();
    updateHistogram();
}

void TensorStatsWidget::startWhole()
{
    stopWholeJob();
    m_wholeCancelled = false;
    const bool needStatistics = !m_wholeStats;
    if (needStatistics)
        ++m_wholeComputations;
    auto job = std::make_shared<Job>();
    m_wholeJob = job;
    if (needStatistics)
        showColumn(1, std::nullopt, tr("computing\u2026"));
    m_progress->setValue(0);
    m_progressTimer->start();
    QtConcurrent::run(models::workerPool(), [tensor = m_whole, known = m_wholeStats, job] {
        models::tensor::StatisticsOptions options;
        options.cancel = [job] { return job->cancelled.load(); };
        options.progress = [job](double f) { job->permille = int(f * 1000); };
        Result result;
        runAtBackgroundPriority([&] { result = compute(tensor, known, options); });
        return result;
    }).then(this, [this, job, needStatistics](const Result& result) {
        if (job != m_wholeJob)
            return; // another tensor was chosen meanwhile
        wholeFinished(result, needStatistics);
    });
    updateWholeControls();
}

void TensorStatsWidget::wholeFinished(const Result& result, bool computedStatistics)
{
    m_wholeJob.reset();
    m_progressTimer->stop();
    if (result.statistics.cancelled) {
        m_wholeCancelled = true;
        if (!m_wholeStats)
            showColumn(1, std::nullopt, tr("cancelled"));
    } else {
        m_wholeHistogram = result.histogram;
        m_damage = result.damage;
        if (computedStatistics) {
            m_wholeStats = result.statistics;
            showColumn(1, m_wholeStats, {});
            if (m_cache && !m_location.isEmpty())
                m_cache->insert(m_location, result.statistics);
            emit wholeStatisticsReady(m_location, result.statistics);
        }
    }
    updateWholeControls();
    updateHistogram();
}

void TensorStatsWidget::cancelWhole()
{
    if (!m_wholeJob)
        return;
    const bool hadStatistics = m_wholeStats.has_value();
    stopWholeJob();
    m_wholeCancelled = true;
    if (!hadStatistics)
        showColumn(1, std::nullopt, tr("cancelled"));
    updateWholeControls();
    updateHistogram();
}

void TensorStatsWidget::stopSliceJob()
{
    if (m_sliceJob)
        m_sliceJob->cancelled = true;
    m_sliceJob.reset();
}

void TensorStatsWidget::stopWholeJob()
{
    if (m_wholeJob)
        m_wholeJob->cancelled = true;
    m_wholeJob.reset();
    if (m_progressTimer)
        m_progressTimer->stop();
}

void TensorStatsWidget::clear()
{
    stopSliceJob();
    stopWholeJob();
    m_hasSlice = m_hasWhole = false;
    m_wholeCancelled = false;
    m_damage.clear();
    m_slice = {};
    m_whole = {};
    m_location.clear();
    m_sliceStats.reset();
    m_wholeStats.reset();
    m_sliceHistogram.reset();
    m_wholeHistogram.reset();
    showColumn(0, std::nullopt, {});
    showColumn(1, std::nullopt, {});
    updateWholeControls();
    updateHistogram();
}

void TensorStatsWidget::showColumn(int column, const std::optional<models::tensor::TensorStatistics>& statistics,
                                   const QString& pending)
{
    for (int row = 0; row < RowCount; ++row) {
        QTableWidgetItem* item = m_table->item(row, column);
        item->setForeground(QBrush());
        QFont font = item->font();
        font.setBold(false);
        if (!statistics) {
            item->setText(row == Count ? pending : QString());
            item->setFont(font);
            continue;
        }
        const models::tensor::TensorStatistics& s = *statistics;
        std::int64_t special = 0;
        QString text;
        switch (Row(row)) {
        case Count:
            text = QString::number(s.count);
            break;
        case Min:
            text = formatNumber(s.min);
            break;
        case Max:
            text = formatNumber(s.max);
            break;
        case Mean:
            text = formatNumber(s.mean);
            break;
        case Std:
            text = formatNumber(s.std);
            break;
        case MeanAbs:
            text = formatNumber(s.meanAbs);
            break;
        case L2:
            text = formatNumber(s.l2);
            break;
        case NaNs:
            special = s.nan;
            break;
        case PosInfs:
            special = s.posInf;
            break;
        case NegInfs:
            special = s.negInf;
            break;
        case Zeros:
            text = QString::number(s.zeros);
            break;
        case RowCount:
            break;
        }
        if (row == NaNs || row == PosInfs || row == NegInfs) {
            text = QString::number(special);
            if (special > 0) {
                item->setForeground(kWarningColor);
                font.setBold(true);
            }
        }
        item->setText(text);
        item->setFont(font);
    }
}

void TensorStatsWidget::updateWholeControls()
{
    const bool running = m_wholeJob != nullptr;
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    m_compute->setVisible(!running && m_hasWhole && m_wholeCancelled);
    if (running)
        m_status->setText(m_wholeStats ? tr("Counting the whole tensor's histogram\u2026")
                                       : tr("Computing the whole tensor's statistics\u2026"));
    else if (m_hasWhole && m_wholeCancelled)
        m_status->setText(tr("Whole-tensor computation cancelled."));
    else if (!m_damage.isEmpty())
        m_status->setText(m_damage);
    else
        m_status->clear();
    m_status->setVisible(!m_status->text().isEmpty());
}

void TensorStatsWidget::updateProgress()
{
    if (m_wholeJob)
        m_progress->setValue(m_wholeJob->permille.load());
}

void TensorStatsWidget::setHistogramSource(HistogramSource source)
{
    const int index = m_sourceCombo->findData(int(source));
    if (index != m_sourceCombo->currentIndex()) {
        const QSignalBlocker blocker(m_sourceCombo);
        m_sourceCombo->setCurrentIndex(index);
    }
    if (source == m_histogramSource)
        return;
    m_histogramSource = source;
    if (source == HistogramSource::Whole && m_hasWhole && m_wholeStats && !m_wholeHistogram && !m_wholeJob)
        startWhole();
    updateHistogram();
}

void TensorStatsWidget::setLogCounts(bool log)
{
    if (m_logBox->isChecked() != log) {
        const QSignalBlocker blocker(m_logBox);
        m_logBox->setChecked(log);
    }
    if (log == m_logCounts)
        return;
    m_logCounts = log;
    updateHistogram();
}

void TensorStatsWidget::updateHistogram()
{
    const auto& shown = m_histogramSource == HistogramSource::Slice ? m_sliceHistogram : m_wholeHistogram;
    m_histogram = shown.value_or(Histogram {});
    const auto bins = m_histogram.counts.size();
    QVector<double> keys, values;
    double top = 0;
    const double width = bins > 0 ? (m_histogram.max - m_histogram.min) / double(bins) : 1;
    for (std::size_t b = 0; b < bins; ++b) {
        const auto count = m_histogram.counts[b];
        top = std::max(top, double(count));
        if (m_logCounts && count == 0)
            continue; // no bar can reach zero on a log axis
        keys.push_back(m_histogram.min + (double(b) + 0.5) * width);
        values.push_back(double(count));
    }
    m_bars->setWidth(width);
    m_bars->setData(keys, values, true);
    if (m_logCounts) {
        m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        m_plot->yAxis->setNumberFormat(QStringLiteral("eb"));
        m_plot->yAxis->setNumberPrecision(0);
        // Bars start at the axis base; 0.8 keeps a count of 1 visible.
        m_bars->setBaseValue(0.8);
        m_plot->yAxis->setRange(0.8, std::max(10.0, top * 2));
    } else {
        m_plot->yAxis->setScaleType(QCPAxis::stLinear);
        // Counts are whole numbers: ticks at multiples of 1 (or of a larger step), never at 0.5.
        auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
        ticker->setTickStep(1.0);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        ticker->setTickCount(4);
        m_plot->yAxis->setTicker(ticker);
        m_plot->yAxis->setNumberFormat(QStringLiteral("gb"));
        m_plot->yAxis->setNumberPrecision(6);
        m_bars->setBaseValue(0);
        m_plot->yAxis->setRange(0, std::max(1.0, top * 1.05));
    }
    if (bins > 0)
        m_plot->xAxis->setRange(m_histogram.min, m_histogram.max);
    else
        m_plot->xAxis->setRange(0, 1);
    m_exportMenu->setBaseName(m_location.isEmpty() ? QStringLiteral("histogram")
                                                   : QStringLiteral("histogram_") + m_location);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

ChartData TensorStatsWidget::chartData() const
{
    ChartData data;
    data.title = m_histogramSource == HistogramSource::Slice ? tr("Histogram of the slice")
                                                             : tr("Histogram of the whole tensor");
    data.xLabel = tr("value");
    data.yLabel = tr("count");
    data.columns = { QStringLiteral("bin_start"), QStringLiteral("bin_end"), QStringLiteral("count") };
    ChartSeriesData series;
    series.name = m_location.isEmpty() ? tr("slice") : m_location;
    series.columns.resize(3);
    const auto bins = m_histogram.counts.size();
    for (std::size_t b = 0; b < bins; ++b) {
        const double lo = m_histogram.min + (m_histogram.max - m_histogram.min) * double(b) / double(bins);
        const double hi = m_histogram.min + (m_histogram.max - m_histogram.min) * double(b + 1) / double(bins);
        series.columns[0].push_back(lo);
        series.columns[1].push_back(hi);
        series.columns[2].push_back(double(m_histogram.counts[b]));
    }
    data.series.push_back(std::move(series));
    return data;
}

} // namespace runlens::widgets::tensor
