#include "widgets/prcurves/prcurvespanel.h"

#include "models/summary/summarystore.h"
#include "widgets/common/cardgrid.h"
#include "widgets/common/chartcolumn.h"
#include "widgets/common/panelheader.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace runlens::widgets::prcurves {

namespace {

constexpr int kContentMargin = 10;
constexpr int kSpacing = 10;

} // namespace

PrCurvesPanel::PrCurvesPanel(models::summary::SummaryStore* store, QWidget* parent)
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
        connect(m_store, &models::summary::SummaryStore::seriesChanged, this, &PrCurvesPanel::onSeriesChanged);
        auto structure = [this] {
            m_rebuildPending = true;
            m_updateTimer->start();
        };
        connect(m_store, &models::summary::SummaryStore::structureChanged, this, structure);
        connect(m_store, &models::summary::SummaryStore::cleared, this, structure);
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
    m_modeBox = toolbar->addSelector(QStringLiteral("curveMode"),
                                     tr("Draw the PR curve tags as precision over recall, or as ROC curves (true-"
                                        "positive over false-positive rate) from the same counts; ROC-only tags "
                                        "are always ROC curves"));
    m_modeBox->addItem(tr("Precision-recall"), int(CurveMode::PrecisionRecall));
    m_modeBox->addItem(tr("ROC"), int(CurveMode::Roc));
    connect(m_modeBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setMode(CurveMode(m_modeBox->itemData(index).toInt())); });
    m_filterEdit = toolbar->addFilter(QStringLiteral("tagFilter"), tr("Filter tags (regular expression)"));
    m_filterEdit->setToolTip(tr("Show only the curve tags that match this regular expression (case-insensitive)"));
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

void PrCurvesPanel::setMode(CurveMode mode)
{
    if (m_mode == mode)
        return;
    m_mode = mode;
    {
        const QSignalBlocker block(m_modeBox);
        m_modeBox->setCurrentIndex(m_modeBox->findData(int(mode)));
    }
    for (PrCurveChart* chart : std::as_const(m_charts))
        chart->setMode(mode);
    emit modeChanged(mode);
}

QVariantMap PrCurvesPanel::saveState() const
{
    QVariantMap state;
    if (m_mode == CurveMode::Roc)
        state.insert(QStringLiteral("mode"), QStringLiteral("roc"));
    if (!m_filterEdit->text().isEmpty())
        state.insert(QStringLiteral("filter"), m_filterEdit->text());
    return state;
}

void PrCurvesPanel::restoreState(const QVariantMap& state)
{
    setMode(state.value(QStringLiteral("mode")).toString() == QLatin1String("roc") ? CurveMode::Roc
                                                                                   : CurveMode::PrecisionRecall);
    if (const auto filter = state.constFind(QStringLiteral("filter")); filter != state.constEnd())
        setTagFilter(filter->toString());
}

void PrCurvesPanel::setVisibleRuns(const QStringList& runs)
{
    if (runs == m_visibleRuns)
        return;
    m_visibleRuns = runs;
    for (PrCurveChart* chart : charts())
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
        m_filterEdit->setToolTip(tr("Show only the curve tags that match this regular expression (case-insensitive)"));
    } else {
        m_filterEdit->setStyleSheet(QStringLiteral("QLineEdit { color: #c0392b; }"));
        m_filterEdit->setToolTip(tr("Invalid regular expression: %1").arg(candidate.errorString()));
    }
    relayout();
}

void PrCurvesPanel::setRunColorProvider(RunColorProvider provider)
{
    m_colorProvider = std::move(provider);
    for (PrCurveChart* chart : charts())
        chart->setRunColorProvider(m_colorProvider);
}

void PrCurvesPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_fileNameProvider = std::move(provider);
    for (PrCurveChart* chart : charts())
        chart->exportMenu()->setFileNameProvider(m_fileNameProvider);
}

void PrCurvesPanel::setExportDirectory(const QString& directory)
{
    m_exportDirectory = directory;
    for (PrCurveChart* chart : charts())
        chart->exportMenu()->setDefaultDirectory(directory);
}

bool PrCurvesPanel::hasVisibleRun(const QString& tag, models::summary::SummaryKind source) const
{
    if (m_visibleRuns.isEmpty() || !m_store)
        return true;
    return std::any_of(m_visibleRuns.begin(), m_visibleRuns.end(),
                       [&](const QString& run) { return m_store->tags(source, run).contains(tag); });
}

QStringList PrCurvesPanel::visibleTags() const
{
    QStringList visible;
    for (const QString& tag : m_tags) {
        if (m_filter.match(tag).hasMatch() && hasVisibleRun(tag, models::summary::SummaryKind::PrCurves))
            visible << tag;
    }
    return visible;
}

QStringList PrCurvesPanel::visibleRocTags() const
{
    QStringList visible;
    for (const QString& tag : m_rocTags) {
        if (m_filter.match(tag).hasMatch() && hasVisibleRun(tag, models::summary::SummaryKind::RocCurves))
            visible << tag;
    }
    return visible;
}

PrCurveChart* PrCurvesPanel::chartForTag(const QString& tag) const
{
    PrCurveChart* chart = m_charts.value(tag);
    return chart ? chart : m_rocCharts.value(tag);
}

QList<PrCurveChart*> PrCurvesPanel::charts() const
{
    QList<PrCurveChart*> list;
    for (const QString& tag : m_tags) {
        if (PrCurveChart* chart = m_charts.value(tag))
            list << chart;
    }
    for (const QString& tag : m_rocTags) {
        if (PrCurveChart* chart = m_rocCharts.value(tag))
            list << chart;
    }
    return list;
}

int PrCurvesPanel::runCount() const
{
    if (!m_store)
        return 0;
    QStringList runs = m_store->runs(models::summary::SummaryKind::PrCurves)
        + m_store->runs(models::summary::SummaryKind::RocCurves);
    runs.removeDuplicates();
    return int(runs.size());
}

void PrCurvesPanel::onSeriesChanged(models::summary::SummaryKind kind, const QString& run, const QStringList& tags)
{
    Q_UNUSED(run)
    if (kind != models::summary::SummaryKind::PrCurves && kind != models::summary::SummaryKind::RocCurves)
        return;
    QSet<QString>& pending = kind == models::summary::SummaryKind::PrCurves ? m_pendingTags : m_pendingRocTags;
    for (const QString& tag : tags)
        pending.insert(tag);
    m_updateTimer->start();
}

void PrCurvesPanel::flushPendingUpdates()
{
    m_updateTimer->stop();
    if (m_rebuildPending) {
        m_rebuildPending = false;
        m_pendingTags.clear();
        m_pendingRocTags.clear();
        rebuild();
        return;
    }
    if (m_pendingTags.isEmpty() && m_pendingRocTags.isEmpty())
        return;
    const QSet<QString> tags = std::exchange(m_pendingTags, {});
    const QSet<QString> rocTags = std::exchange(m_pendingRocTags, {});
    bool newTag = false;
    for (const QString& tag : rocTags) {
        if (PrCurveChart* chart = m_rocCharts.value(tag))
            chart->refreshData();
        else
            newTag = true;
    }
    if (newTag)
        rebuild();
    else
        refreshTags(tags);
}

PrCurveChart* PrCurvesPanel::createChart(const QString& tag, models::summary::SummaryKind source)
{
    auto* chart = new PrCurveChart(m_store, tag, source, m_content);
    chart->setMode(m_mode);
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

QStringList PrCurvesPanel::syncCharts(QHash<QString, PrCurveChart*>& charts, models::summary::SummaryKind source)
{
    QStringList tags = m_store ? m_store->allTags(source) : QStringList {};
    // Charts of tags that are gone go; the others are refreshed in place (their step stays).
    for (auto it = charts.begin(); it != charts.end();) {
        if (!tags.contains(it.key())) {
            it.value()->deleteLater();
            it.value()->hide();
            it = charts.erase(it);
        } else {
            it.value()->refreshData();
            ++it;
        }
    }
    for (const QString& tag : tags) {
        if (!charts.contains(tag))
            charts.insert(tag, createChart(tag, source));
    }
    return tags;
}

void PrCurvesPanel::rebuild()
{
    m_tags = syncCharts(m_charts, models::summary::SummaryKind::PrCurves);
    m_rocTags = syncCharts(m_rocCharts, models::summary::SummaryKind::RocCurves);
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
    const int columns = columnCount();
    QList<QWidget*> cards;
    for (const QString& tag : visibleTags()) {
        if (PrCurveChart* chart = m_charts.value(tag))
            cards << chart;
    }
    for (const QString& tag : visibleRocTags()) {
        if (PrCurveChart* chart = m_rocCharts.value(tag))
            cards << chart;
    }
    for (PrCurveChart* chart : charts()) {
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
        return tr("<p><b>No PR or ROC curves</b></p><p>Open a run folder to see its precision-recall and ROC "
                  "curves.</p>");
    if (m_tags.isEmpty() && m_rocTags.isEmpty())
        return tr("<p><b>No PR or ROC curves yet</b></p><p>Open a run folder with TensorBoard event files that "
                  "hold PR curves (PyTorch <code>add_pr_curve</code>, TensorFlow <code>pr_curve</code> summaries) "
                  "or VisualDL logs with PR or ROC curves; they appear here while they load.</p>");
    const bool anyRun
        = std::any_of(m_tags.begin(), m_tags.end(),
                      [this](const QString& tag) { return hasVisibleRun(tag, models::summary::SummaryKind::PrCurves); })
        || std::any_of(m_rocTags.begin(), m_rocTags.end(), [this](const QString& tag) {
               return hasVisibleRun(tag, models::summary::SummaryKind::RocCurves);
           });
    if (!anyRun)
        return tr("<p><b>The selected runs have no PR or ROC curves</b></p><p>Select other runs in Compare runs, "
                  "or clear the selection to see all %n run(s) with curves.</p>",
                  nullptr, runCount());
    if (visibleTags().isEmpty() && visibleRocTags().isEmpty())
        return tr("<p><b>No tag matches \"%1\"</b></p><p>Change or clear the filter to see the other %n tag(s).</p>",
                  nullptr, int(m_tags.size() + m_rocTags.size()))
            .arg(m_filter.pattern().toHtmlEscaped());
    return {};
}

void PrCurvesPanel::updateEmptyState()
{
    const QString message = emptyStateText();
    m_emptyLabel->setText(message);
    m_emptyLabel->setVisible(!message.isEmpty());
    // The mode applies to PR tags only; ROC-only tags are ROC either way.
    m_modeBox->setEnabled(!m_tags.isEmpty());
    const qsizetype total = m_tags.size() + m_rocTags.size();
    m_summaryLabel->setText(total == 0 ? QString()
                                       : tr("%1 of %2 tags · %n run(s)", nullptr, runCount())
                                             .arg(visibleTags().size() + visibleRocTags().size())
                                             .arg(total));
}

bool PrCurvesPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize) {
        if (columnCount() != m_columns)
            relayout();
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace runlens::widgets::prcurves
