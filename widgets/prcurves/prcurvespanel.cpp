#include "widgets/prcurves/prcurvespanel.h"

#include "widgets/common/cardgrid.h"
#include "widgets/common/chartcolumn.h"
#include "widgets/common/panelheader.h"
#include "models/summary/summarystore.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace runlens::prcurves {

namespace {

constexpr int kContentMargin = 10;
constexpr int kSpacing = 10;

} // namespace

PrCurvesPanel::PrCurvesPanel(summary::SummaryStore* store, QWidget* parent)
    : QWidget(parent)
    , m_store(store)
{
    setObjectName(QStringLiteral("prCurvesPanel"));
    m_filter.setPatternOptions(QRegularExpression::CaseInsensitiveOption);
    buildUi();

    m_updateTimer = new QTimer(this);
    m_updateTimer->setSingleShot(true);
    m_updateTimer->setInterval(kUpdateDelayMs);
    connect(m_updateTimer, &QTimer::timeout, this, &PrCurvesPanel::flushPendingUpdates);

    if (m_store) {
        connect(m_store, &summary::SummaryStore::seriesChanged, this, &PrCurvesPanel::onSeriesChanged);
        auto structure = [this] {
            m_rebuildPending = true;
            m_updateTimer->start();
        };
        connect(m_store, &summary::SummaryStore::structureChanged, this, structure);
        connect(m_store, &summary::SummaryStore::cleared, this, structure);
        connect(m_store, &QObject::destroyed, this, [this] {
            m_rebuildPending = true;
            flushPendingUpdates();
        });
    }
    rebuild();
}

PrCurvesPanel::~PrCurvesPanel() = default;

void PrCurvesPanel::buildUi()
{
    auto* toolbar = new PanelHeader(this);
    toolbar->setObjectName(QStringLiteral("prCurvesToolbar"));
    toolbar->enableOverflowMenu();
    m_filterEdit = toolbar->addFilter(QStringLiteral("tagFilter"), tr("Filter tags (regular expression)"));
    m_filterEdit->setToolTip(tr("Show only the PR curve tags that match this regular expression (case-insensitive)"));
    connect(m_filterEdit, &QLineEdit::textChanged, this, &PrCurvesPanel::onFilterTextChanged);
    m_summaryLabel = toolbar->addSummary(QStringLiteral("summary"), PanelHeader::TextMode::SingleLine);
    m_summaryLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_summaryLabel->setForegroundRole(QPalette::PlaceholderText);

    const ChartColumn column = createChartColumn(this, this, kContentMargin, 4, 0);
    m_scroll = column.scroll;
    m_content = column.content;
    m_emptyLabel = column.emptyLabel;
    m_grid = new CardGrid(m_content);
    m_grid->layout()->setContentsMargins(0, 0, 0, 0);
    column.layout->addWidget(m_grid);
    column.layout->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(m_scroll, 1);
}

void PrCurvesPanel::setVisibleRuns(const QStringList& runs)
{
    if (runs == m_visibleRuns)
        return;
    m_visibleRuns = runs;
    for (PrCurveChart* chart : std::as_const(m_charts))
        chart->setVisibleRuns(runs);
    relayout();
}

void PrCurvesPanel::setTagFilter(const QString& pattern)
{
    if (m_filterEdit->text() != pattern)
        m_filterEdit->setText(pattern); // comes back through onFilterTextChanged
    else
        onFilterTextChanged(pattern);
}

void PrCurvesPanel::onFilterTextChanged(const QString& text)
{
    const QRegularExpression candidate(text, QRegularExpression::CaseInsensitiveOption);
    m_filterValid = candidate.isValid();
    if (m_filterValid) {
        m_filter = candidate;
        m_filterEdit->setStyleSheet({});
        m_filterEdit->setToolTip(
            tr("Show only the PR curve tags that match this regular expression (case-insensitive)"));
    } else {
        m_filterEdit->setStyleSheet(QStringLiteral("QLineEdit { color: #c0392b; }"));
        m_filterEdit->setToolTip(tr("Invalid regular expression: %1").arg(candidate.errorString()));
    }
    relayout();
}

void PrCurvesPanel::setRunColorProvider(RunColorProvider provider)
{
    m_colorProvider = std::move(provider);
    for (PrCurveChart* chart : std::as_const(m_charts))
        chart->setRunColorProvider(m_colorProvider);
}

void PrCurvesPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_fileNameProvider = std::move(provider);
    for (PrCurveChart* chart : std::as_const(m_charts))
        chart->exportMenu()->setFileNameProvider(m_fileNameProvider);
}

void PrCurvesPanel::setExportDirectory(const QString& directory)
{
    m_exportDirectory = directory;
    for (PrCurveChart* chart : std::as_const(m_charts))
        chart->exportMenu()->setDefaultDirectory(directory);
}

bool PrCurvesPanel::hasVisibleRun(const QString& tag) const
{
    if (m_visibleRuns.isEmpty() || !m_store)
        return true;
    return std::any_of(m_visibleRuns.begin(), m_visibleRuns.end(), [&](const QString& run) {
        return m_store->tags(summary::SummaryKind::PrCurves, run).contains(tag);
    });
}

QStringList PrCurvesPanel::visibleTags() const
{
    QStringList visible;
    for (const QString& tag : m_tags) {
        if (m_filter.match(tag).hasMatch() && hasVisibleRun(tag))
            visible << tag;
    }
    return visible;
}

QList<PrCurveChart*> PrCurvesPanel::charts() const
{
    QList<PrCurveChart*> list;
    for (const QString& tag : m_tags) {
        if (PrCurveChart* chart = m_charts.value(tag))
            list << chart;
    }
    return list;
}

void PrCurvesPanel::onSeriesChanged(summary::SummaryKind kind, const QString& run, const QStringList& tags)
{
    Q_UNUSED(run)
    if (kind != summary::SummaryKind::PrCurves)
        return;
    for (const QString& tag : tags)
        m_pendingTags.insert(tag);
    m_updateTimer->start();
}

void PrCurvesPanel::flushPendingUpdates()
{
    m_updateTimer->stop();
    if (m_rebuildPending) {
        m_rebuildPending = false;
        m_pendingTags.clear();
        rebuild();
        return;
    }
    if (m_pendingTags.isEmpty())
        return;
    const QSet<QString> tags = std::exchange(m_pendingTags, {});
    refreshTags(tags);
}

PrCurveChart* PrCurvesPanel::createChart(const QString& tag)
{
    auto* chart = new PrCurveChart(m_store, tag, m_content);
    if (m_colorProvider)
        chart->setRunColorProvider(m_colorProvider);
    chart->setVisibleRuns(m_visibleRuns);
    chart->setMinimumHeight(kChartHeight);
    chart->setMaximumHeight(kChartHeight);
    ChartExportMenu* menu = chart->exportMenu();
    if (m_fileNameProvider)
        menu->setFileNameProvider(m_fileNameProvider);
    if (!m_exportDirectory.isEmpty())
        menu->setDefaultDirectory(m_exportDirectory);
    connect(menu, &ChartExportMenu::exported, this, &PrCurvesPanel::chartExported);
    connect(menu, &ChartExportMenu::exportFailed, this, &PrCurvesPanel::chartExportFailed);
    return chart;
}

void PrCurvesPanel::rebuild()
{
    QStringList tags = m_store ? m_store->allTags(summary::SummaryKind::PrCurves) : QStringList {};
    // Charts of tags that are gone go; the others are refreshed in place (their step stays).
    for (auto it = m_charts.begin(); it != m_charts.end();) {
        if (!tags.contains(it.key())) {
            it.value()->deleteLater();
            it.value()->hide();
            it = m_charts.erase(it);
        } else {
            it.value()->refreshData();
            ++it;
        }
    }
    for (const QString& tag : tags) {
        if (!m_charts.contains(tag))
            m_charts.insert(tag, createChart(tag));
    }
    m_tags = tags;
    m_columns = 0; // the set of charts changed: lay them out again
    relayout();
}

void PrCurvesPanel::refreshTags(const QSet<QString>& tags)
{
    bool newTag = false;
    for (const QString& tag : tags) {
        if (PrCurveChart* chart = m_charts.value(tag))
            chart->refreshData();
        else
            newTag = true;
    }
    if (newTag)
        rebuild();
    else
        relayout();
}

void PrCurvesPanel::relayout()
{
    const QStringList visible = visibleTags();
    const int columns = columnCount();
    QList<QWidget*> cards;
    for (const QString& tag : visible) {
        if (PrCurveChart* chart = m_charts.value(tag))
            cards << chart;
    }
    for (PrCurveChart* chart : std::as_const(m_charts)) {
        if (!cards.contains(chart))
            chart->setVisible(false);
    }
    m_grid->setColumns(columns, kChartHeight);
    m_grid->setWidgets(cards);
    m_columns = columns;
    updateEmptyState();
}

int PrCurvesPanel::columnCount() const
{
    CardGridSpec spec;
    spec.minCardWidth = kMinChartWidth;
    spec.maxColumns = kMaxColumns;
    spec.spacing = kSpacing;
    spec.minHeight = kChartHeight;
    return cardGridGeometry(spec, m_scroll->viewport()->width() - 2 * kContentMargin).columns;
}

QString PrCurvesPanel::emptyStateText() const
{
    if (!m_store)
        return tr("<p><b>No PR curves</b></p><p>Open a run folder to see its precision-recall curves.</p>");
    if (m_tags.isEmpty())
        return tr("<p><b>No PR curves yet</b></p><p>Open a run folder with TensorBoard event files that hold PR "
                  "curves (PyTorch <code>add_pr_curve</code>, TensorFlow <code>pr_curve</code> summaries) or "
                  "VisualDL logs; they appear here while they load.</p>");
    if (!std::any_of(m_tags.begin(), m_tags.end(), [this](const QString& tag) { return hasVisibleRun(tag); }))
        return tr("<p><b>The selected runs have no PR curves</b></p><p>Select other runs in Compare runs, or "
                  "clear the selection to see all %n run(s) with PR curves.</p>",
                  nullptr, int(m_store->runs(summary::SummaryKind::PrCurves).size()));
    if (visibleTags().isEmpty())
        return tr("<p><b>No tag matches \"%1\"</b></p><p>Change or clear the filter to see the other %n tag(s).</p>",
                  nullptr, int(m_tags.size()))
            .arg(m_filter.pattern().toHtmlEscaped());
    return {};
}

void PrCurvesPanel::updateEmptyState()
{
    const QString message = emptyStateText();
    m_emptyLabel->setText(message);
    m_emptyLabel->setVisible(!message.isEmpty());
    const int runCount = m_store ? int(m_store->runs(summary::SummaryKind::PrCurves).size()) : 0;
    m_summaryLabel->setText(
        m_tags.isEmpty()
            ? QString()
            : tr("%1 of %2 tags · %n run(s)", nullptr, runCount).arg(visibleTags().size()).arg(m_tags.size()));
}

bool PrCurvesPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize) {
        if (columnCount() != m_columns)
            relayout();
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace runlens::prcurves
