#include "widgets/tensor/tensorcomparewidget.h"

#include "models/core/workerpool.h"
#include "models/tensor/tensorcompare.h"
#include "widgets/tensor/heatmapview.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <climits>
#include <cmath>

namespace runlens::widgets::tensor {

namespace {

QString formatNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    return QString::number(v, 'g', 6);
}

QString indexText(const std::vector<std::int64_t>& index)
{
    QStringList parts;
    for (const std::int64_t i : index)
        parts << QString::number(i);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

models::tensor::CompareMode toCompareMode(TensorCompareWidget::Mode mode)
{
    switch (mode) {
    case TensorCompareWidget::Mode::Difference:
        return models::tensor::CompareMode::Difference;
    case TensorCompareWidget::Mode::AbsoluteDifference:
        return models::tensor::CompareMode::AbsoluteDifference;
    case TensorCompareWidget::Mode::RelativeDifference:
        return models::tensor::CompareMode::RelativeDifference;
    }
    return models::tensor::CompareMode::Difference;
}

/// The difference as the heatmap can draw it: rank 0 as one cell, rank > 2 with the leading dimensions
/// folded into rows (the difference is C-ordered, so this is only new shape and strides).
models::tensor::Tensor heatmapView(models::tensor::Tensor difference)
{
    if (difference.rank() <= 2 && difference.rank() >= 1)
        return difference;
    const std::int64_t columns = difference.rank() == 0 ? 1 : difference.shape.back();
    const std::int64_t rows = columns == 0 ? 0 : difference.elementCount() / columns;
    difference.shape = { rows, columns };
    difference.strides = models::tensor::Tensor::contiguousStrides(difference.shape, int(sizeof(double)));
    return difference;
}

} // namespace

struct TensorCompareWidget::Outcome
{
    models::tensor::CompareResult result;
    std::int64_t count = 0;
};

struct TensorCompareWidget::Job
{
    std::atomic<bool> cancelled { false };
};

TensorCompareWidget::TensorCompareWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* top = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(m_title, 1);
    m_modeCombo = new QComboBox(this);
    m_modeCombo->addItem(tr("Difference a \u2212 b"), int(Mode::Difference));
    m_modeCombo->addItem(tr("Absolute |a \u2212 b|"), int(Mode::AbsoluteDifference));
    m_modeCombo->addItem(tr("Relative |a \u2212 b| / max(|a|, |b|)"), int(Mode::RelativeDifference));
    top->addWidget(m_modeCombo);
    layout->addLayout(top);
    connect(m_modeCombo, &QComboBox::currentIndexChanged, this,
            [this](int index) { setMode(Mode(m_modeCombo->itemData(index).toInt())); });

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    m_heatmap = new HeatmapView(splitter);
    m_table = new QTableWidget(0, 4, splitter);
    m_table->setHorizontalHeaderLabels({ tr("Index"), tr("a"), tr("b"), tr("Difference") });
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setToolTip(tr("The largest differences; click a row to go to its element"));
    splitter->addWidget(m_heatmap);
    splitter->addWidget(m_table);
    layout->addWidget(splitter, 1);
    m_hover = new QLabel(this);
    m_hover->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_hover);
    m_heatmap->installEventFilter(this);
    connect(m_heatmap, &HeatmapView::hovered, this, &TensorCompareWidget::showHovered);
    connect(m_heatmap, &HeatmapView::hoverLeft, m_hover, &QLabel::clear);
    auto activate = [this](int row) {
        if (m_outcome && row >= 0 && std::size_t(row) < m_outcome->result.largest.size())
            emit indexActivated(m_outcome->result.largest[std::size_t(row)].index);
    };
    connect(m_table, &QTableWidget::cellClicked, this, [activate](int row, int) { activate(row); });
    connect(m_table, &QTableWidget::cellActivated, this, [activate](int row, int) { activate(row); });

    clear();
}

TensorCompareWidget::~TensorCompareWidget()
{
    stopJob();
}

void TensorCompareWidget::setTensors(const models::tensor::Tensor& a, const QString& labelA,
                                     const models::tensor::Tensor& b, const QString& labelB)
{
    m_a = a;
    m_b = b;
    m_labelA = labelA;
    m_labelB = labelB;
    m_hasTensors = true;
    m_title->setText(tr("a: %1   b: %2").arg(labelA, labelB));
    m_title->setToolTip(m_title->text());
    start();
}

void TensorCompareWidget::clear()
{
    stopJob();
    m_hasTensors = false;
    m_a = {};
    m_b = {};
    m_labelA.clear();
    m_labelB.clear();
    m_outcome.reset();
    m_title->clear();
    showMessage(tr("Pick two tensors of the same shape to compare."));
}

void TensorCompareWidget::setMode(Mode mode)
{
    const int index = m_modeCombo->findData(int(mode));
    if (index != m_modeCombo->currentIndex()) {
        const QSignalBlocker blocker(m_modeCombo);
        m_modeCombo->setCurrentIndex(index);
    }
    if (mode == m_mode)
        return;
    m_mode = mode;
    if (m_hasTensors)
        start();
}

QString TensorCompareWidget::summaryText() const
{
    return m_summary->text();
}

std::vector<std::vector<std::int64_t>> TensorCompareWidget::largestIndices() const
{
    std::vector<std::vector<std::int64_t>> indices;
    if (m_outcome) {
        for (const models::tensor::CompareEntry& entry : m_outcome->result.largest)
            indices.push_back(entry.index);
    }
    return indices;
}

void TensorCompareWidget::start()
{
    stopJob();
    const models::tensor::CompareMode mode = toCompareMode(m_mode);
    auto run = [mode](const models::tensor::Tensor& a, const models::tensor::Tensor& b,
                      const std::function<bool()>& cancelled) {
        auto outcome = std::make_shared<Outcome>();
        outcome->result = models::tensor::compareTensors(a, b, mode, kLargest, cancelled);
        outcome->count = a.elementCount();
        return std::shared_ptr<const Outcome>(std::move(outcome));
    };
    if (m_a.elementCount() <= kSynchronousLimit || m_a.shape != m_b.shape) {
        showOutcome(run(m_a, m_b, {}));
        return;
    }
    auto job = std::make_shared<Job>();
    m_job = job;
    m_outcome.reset();
    showMessage(tr("Comparing %Ln elements\u2026", nullptr, int(std::min<std::int64_t>(m_a.elementCount(), INT_MAX))));
    QtConcurrent::run(models::workerPool(), [a = m_a, b = m_b, job, run] {
        return run(a, b, [job] { return job->cancelled.load(); });
    }).then(this, [this, job](const std::shared_ptr<const Outcome>& outcome) {
        if (job != m_job)
            return; // another pair or mode was chosen meanwhile
        m_job.reset();
        showOutcome(outcome);
    });
}

void TensorCompareWidget::stopJob()
{
    if (m_job)
        m_job->cancelled = true;
    m_job.reset();
}

void TensorCompareWidget::showHovered(std::int64_t row, std::int64_t column, double diff)
{
    if (!m_outcome || !m_outcome->result.ok())
        return;
    // The heatmap shows rank > 2 with the leading dimensions folded into rows: unfold the position.
    const std::vector<std::int64_t>& shape = m_outcome->result.difference.shape;
    std::vector<std::int64_t> index(shape.size(), 0);
    std::int64_t rest = row * m_heatmap->columns() + column;
    for (int k = int(shape.size()) - 1; k >= 0; --k) {
        index[std::size_t(k)] = rest % shape[std::size_t(k)];
        rest /= shape[std::size_t(k)];
    }
    m_hover->setText(
        tr("%1   a %2   b %3   difference %4")
            .arg(indexText(index), formatNumber(m_a.value(index)), formatNumber(m_b.value(index)), formatNumber(diff)));
}

bool TensorCompareWidget::eventFilter(QObject* watched, QEvent* event)
{
    // Resize events come before the widget counts as visible when it is first shown, so Show fits too.
    const bool sized = event->type() == QEvent::Show || (event->type() == QEvent::Resize && m_heatmap->isVisible());
    if (watched == m_heatmap && m_fitPending && sized) {
        m_fitPending = false;
        m_heatmap->zoomToFit();
    }
    return QWidget::eventFilter(watched, event);
}

void TensorCompareWidget::showMessage(const QString& message)
{
    m_summary->setText(message);
    m_hover->clear();
    m_heatmap->setTensor({});
    m_shownShape.clear();
    m_table->setRowCount(0);
}

void TensorCompareWidget::showOutcome(const std::shared_ptr<const Outcome>& outcome)
{
    m_outcome = outcome;
    const models::tensor::CompareResult& r = outcome->result;
    if (!r.ok()) {
        showMessage(r.error);
        emit comparisonReady();
        return;
    }
    QStringList parts;
    parts << tr("max |diff| %1").arg(formatNumber(r.maxAbs)) << tr("mean |diff| %1").arg(formatNumber(r.meanAbs))
          << tr("RMSE %1").arg(formatNumber(r.rmse))
          << tr("differing %1 of %2").arg(QString::number(r.differing), QString::number(outcome->count))
          << tr("NaN mismatches %1").arg(r.nanMismatch);
    m_summary->setText(parts.join(QStringLiteral(" \u00b7 ")));

    m_heatmap->setColorMap(m_mode == Mode::Difference ? ColorMap::Diverging : ColorMap::Viridis);
    m_heatmap->setScale(HeatmapView::Scale::Slice);
    m_heatmap->setTensor(heatmapView(r.difference));
    // A new shape starts fitted to the view; a new mode keeps the user's zoom.
    if (r.difference.shape != m_shownShape) {
        m_shownShape = r.difference.shape;
        m_fitPending = !m_heatmap->isVisible();
        m_heatmap->zoomToFit();
    }

    m_table->setRowCount(int(r.largest.size()));
    for (int row = 0; row < int(r.largest.size()); ++row) {
        const models::tensor::CompareEntry& e = r.largest[std::size_t(row)];
        const QString texts[] = { indexText(e.index), formatNumber(e.a), formatNumber(e.b), formatNumber(e.diff) };
        for (int column = 0; column < 4; ++column) {
            auto* item = new QTableWidgetItem(texts[column]);
            item->setTextAlignment((column == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
        }
    }
    emit comparisonReady();
}

} // namespace runlens::widgets::tensor
