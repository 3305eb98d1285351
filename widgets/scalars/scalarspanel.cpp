#include "widgets/scalars/scalarspanel.h"

#include "models/scalars/scalarstore.h"
#include "widgets/common/chartcolumn.h"
#include "widgets/common/charticons.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/panelheader.h"
#include "widgets/scalars/chartplaceholder.h"
#include "widgets/scalars/chartsection.h"
#include "widgets/scalars/runlegendmodel.h"
#include "widgets/scalars/scalarstoolbar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSplitter>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace runlens::widgets::scalars {

namespace {

constexpr int kFilterDelayMs = 150;
constexpr int kContentMargin = 12;
} // namespace

const QString ScalarsPanel::kSystemGroup = QStringLiteral("system");

ScalarsPanel::ScalarsPanel(models::scalars::ScalarStore* store, QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("ScalarsPanel"));
    // Machine metrics (two dozen charts from `runlens record`) would bury the training curves: folded by default.
    m_collapsedGroups.insert(kSystemGroup);
    m_runModel = new RunLegendModel(this);
    m_updateTimer = new QTimer(this);
    m_updateTimer->setSingleShot(true);
    m_updateTimer->setInterval(kUpdateDelayMs);
    connect(m_updateTimer, &QTimer::timeout, this, &ScalarsPanel::flushPendingUpdates);
    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(kFilterDelayMs);
    connect(m_filterTimer, &QTimer::timeout, this, [this] {
        applyFilter();
        emit optionsChanged();
    });
    m_materializeTimer = new QTimer(this);
    m_materializeTimer->setSingleShot(true);
    m_materializeTimer->setInterval(0);
    connect(m_materializeTimer, &QTimer::timeout, this, [this] { materializeVisible(kChartsPerPass); });
    connect(m_runModel, &RunLegendModel::runVisibilityChanged, this, [this](const QString& run, bool visible) {
        if (visible)
            m_options.hiddenRuns.remove(run);
        else
            m_options.hiddenRuns.insert(run);
        for (ScalarChart* chart : std::as_const(m_charts))
            chart->setRunVisible(run, visible);
        emit optionsChanged();
    });
    buildUi();
    setStore(store);
}

ScalarsPanel::~ScalarsPanel() = default;

void ScalarsPanel::buildUi()
{
    auto* header = new PanelHeader(this);
    m_toolbar = new ScalarsToolbar(header);
    m_toolbar->setSmoothing(m_options.smoothing);
    m_toolbar->setXAxisMode(m_options.xAxisMode);
    m_toolbar->setLogY(m_options.logY);
    m_toolbar->setIgnoreOutliers(m_options.ignoreOutliers);
    connect(m_toolbar, &ScalarsToolbar::filterTextChanged, this, &ScalarsPanel::onFilterTextChanged);
    connect(m_toolbar, &ScalarsToolbar::smoothingChanged, this, &ScalarsPanel::setSmoothing);
    connect(m_toolbar, &ScalarsToolbar::xAxisModeChanged, this, &ScalarsPanel::setXAxisMode);
    connect(m_toolbar, &ScalarsToolbar::logYChanged, this, &ScalarsPanel::setLogY);
    connect(m_toolbar, &ScalarsToolbar::ignoreOutliersChanged, this, &ScalarsPanel::setIgnoreOutliers);
    connect(m_toolbar, &ScalarsToolbar::fitAllRequested, this, &ScalarsPanel::fitAll);
    connect(m_toolbar, &ScalarsToolbar::cardSizeChanged, this, &ScalarsPanel::setCardSize);

    // Runs legend.
    auto* runsPane = new QWidget(this);
    runsPane->setObjectName(QStringLiteral("runsPane"));
    auto* runsLayout = new QVBoxLayout(runsPane);
    runsLayout->setContentsMargins(10, 8, 4, 8);
    runsLayout->setSpacing(4);
    auto* runsHeader = new QHBoxLayout;
    auto* runsTitle = new QLabel(tr("Runs"), runsPane);
    QFont titleFont = runsTitle->font();
    titleFont.setWeight(QFont::DemiBold);
    runsTitle->setFont(titleFont);
    auto* allButton = new QToolButton(runsPane);
    allButton->setText(tr("All"));
    allButton->setAutoRaise(true);
    allButton->setToolTip(tr("Show every run"));
    connect(allButton, &QToolButton::clicked, this, [this] { m_runModel->setAllVisible(true); });
    auto* noneButton = new QToolButton(runsPane);
    noneButton->setText(tr("None"));
    noneButton->setAutoRaise(true);
    noneButton->setToolTip(tr("Hide every run"));
    connect(noneButton, &QToolButton::clicked, this, [this] { m_runModel->setAllVisible(false); });
    runsHeader->addWidget(runsTitle);
    runsHeader->addStretch(1);
    runsHeader->addWidget(allButton);
    runsHeader->addWidget(noneButton);
    runsLayout->addLayout(runsHeader);

    m_runView = new QListView(runsPane);
    m_runView->setObjectName(QStringLiteral("runList"));
    m_runView->setModel(m_runModel);
    m_runView->setFrameShape(QFrame::NoFrame);
    m_runView->setSelectionMode(QAbstractItemView::NoSelection);
    m_runView->setUniformItemSizes(true);
    m_runView->setTextElideMode(Qt::ElideMiddle);
    m_runView->setIconSize(QSize(12, 12));
    m_runView->setSpacing(1);
    m_runView->setBackgroundRole(QPalette::Window);
    m_runView->viewport()->setBackgroundRole(QPalette::Window);
    m_runView->setToolTip(tr("Tick runs to show them; double-click a run to show only that run"));
    connect(m_runView, &QListView::doubleClicked, this, [this](const QModelIndex& index) {
        const QString run = index.data(RunLegendModel::RunNameRole).toString();
        const QStringList runs = m_runModel->runs();
        const bool solo = m_runModel->isRunVisible(run)
            && std::none_of(runs.begin(), runs.end(),
                            [&](const QString& r) { return r != run && m_runModel->isRunVisible(r); });
        for (const QString& r : runs)
            m_runModel->setRunVisible(r, solo || r == run);
    });
    runsLayout->addWidget(m_runView, 1);

    // Charts.
    const ChartColumn column = createChartColumn(this, this, kContentMargin);
    m_scroll = column.scroll;
    m_content = column.content;
    m_sectionLayout = column.layout;
    m_emptyLabel = column.emptyLabel;
    m_sectionLayout->addStretch(1);
    m_content->installEventFilter(this);
    connect(m_scroll->verticalScrollBar(), &QScrollBar::valueChanged, this, &ScalarsPanel::scheduleMaterialize);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("scalarsSplitter"));
    m_splitter->addWidget(runsPane);
    m_splitter->addWidget(m_scroll);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({ 190, 900 });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(header);
    layout->addWidget(PanelHeader::createRule(this));
    layout->addWidget(m_splitter, 1);
}

void ScalarsPanel::setStore(models::scalars::ScalarStore* store)
{
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    // Charts read the store they were made for: start over.
    for (ScalarChart* chart : std::as_const(m_charts))
        delete chart;
    m_charts.clear();
    for (QWidget* placeholder : std::as_const(m_placeholders))
        delete placeholder;
    m_placeholders.clear();
    for (ChartSection* section : std::as_const(m_sections))
        delete section;
    m_sections.clear();
    m_groups.clear();
    m_tags.clear();
    m_pendingTags.clear();
    if (m_store) {
        connect(m_store, &models::scalars::ScalarStore::structureChanged, this, &ScalarsPanel::onStructureChanged);
        connect(m_store, &models::scalars::ScalarStore::seriesChanged, this, &ScalarsPanel::onSeriesChanged);
        connect(m_store, &models::scalars::ScalarStore::cleared, this, &ScalarsPanel::onStoreCleared);
        connect(m_store, &QObject::destroyed, this, &ScalarsPanel::onStoreDestroyed);
    }
    rebuildStructure();
}

void ScalarsPanel::onStoreDestroyed()
{
    setStore(nullptr);
}

void ScalarsPanel::onStructureChanged()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_structurePending = true;
    if (!m_updateTimer->isActive())
        m_updateTimer->start();
}

void ScalarsPanel::onSeriesChanged(const QString& run, const QStringList& tags)
{
    Q_ASSERT(QThread::currentThread() == thread());
    Q_UNUSED(run)
    for (const QString& tag : tags)
        m_pendingTags.insert(tag);
    if (!m_updateTimer->isActive())
        m_updateTimer->start();
}

void ScalarsPanel::onStoreCleared()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_pendingTags.clear();
    m_structurePending = true;
    if (!m_updateTimer->isActive())
        m_updateTimer->start();
}

void ScalarsPanel::flushPendingUpdates()
{
    m_updateTimer->stop();
    m_materializeTimer->stop();
    QSet<QString> refreshed;
    if (m_structurePending) {
        m_structurePending = false;
        const QStringList before = m_charts.keys();
        rebuildStructure();
        // Charts created by the rebuild already hold the latest data.
        for (auto it = m_charts.cbegin(); it != m_charts.cend(); ++it) {
            if (!before.contains(it.key()))
                refreshed.insert(it.key());
        }
    }
    for (const QString& tag : std::as_const(m_pendingTags)) {
        if (refreshed.contains(tag))
            continue;
        if (ScalarChart* chart = m_charts.value(tag))
            chart->refreshData();
    }
    m_pendingTags.clear();
    materializeVisible(std::numeric_limits<int>::max());
}

QStringList ScalarsPanel::orderedGroups() const
{
    QStringList groups = m_groups.keys();
    if (groups.removeOne(kSystemGroup))
        groups.append(kSystemGroup);
    return groups;
}

QString ScalarsPanel::groupOfTag(const QString& tag)
{
    const qsizetype slash = tag.indexOf(QLatin1Char('/'));
    return slash > 0 ? tag.left(slash) : tag;
}

void ScalarsPanel::rebuildStructure()
{
    const QStringList tags = m_store ? m_store->tags() : QStringList();
    const QStringList runs = m_store ? m_store->runs() : QStringList();

    // Runs legend.
    const QStringList previousRuns = m_runModel->runs();
    QList<int> colorIndices;
    QList<qint64> pointCounts;
    QStringList names;
    for (const QString& run : runs) {
        colorIndices << m_store->runIndex(run);
        names << m_store->runDisplayName(run);
        qint64 n = 0;
        for (const QString& tag : m_store->tagsOfRun(run)) {
            if (const models::scalars::ScalarSeries* s = m_store->series(run, tag))
                n += qint64(s->points.size());
        }
        pointCounts << n;
    }
    if (!m_visibleRunsFilter.isEmpty()) {
        for (const QString& run : runs) {
            if (!previousRuns.contains(run))
                setRunVisible(run, m_visibleRunsFilter.contains(run));
        }
    }
    m_runModel->setRuns(runs, colorIndices, pointCounts, names);

    QMap<QString, QStringList> groups;
    for (const QString& tag : tags)
        groups[groupOfTag(tag)].append(tag);

    // Charts, placeholders and sections of tags that are gone.
    auto tagKept = [&tags](const QString& tag) { return tags.contains(tag); };
    auto sectionOfTag = [this](const QString& tag) { return m_sections.value(groupOfTag(tag)); };
    retireCards(m_charts, tagKept, sectionOfTag);
    retireCards(m_placeholders, tagKept, sectionOfTag);
    retireSections(m_sections, m_sectionLayout, [&groups](const QString& group) { return groups.contains(group); });
    // New sections.
    for (auto it = groups.cbegin(); it != groups.cend(); ++it) {
        if (m_sections.contains(it.key()))
            continue;
        auto* section = new ChartSection(it.key(), m_content);
        section->setExpanded(!m_collapsedGroups.contains(it.key()));
        if (it.key() == kSystemGroup)
            section->setNote(tr("Machine metrics: the System dock shows them over one wall-clock axis."));
        section->setColumns(m_columns, m_chartHeight);
        connect(section, &ChartSection::expandedChanged, this, [this, section](bool expanded) {
            if (expanded)
                m_collapsedGroups.remove(section->name());
            else
                m_collapsedGroups.insert(section->name());
            updateSection(section);
        });
        m_sections.insert(it.key(), section);
    }
    m_tags = tags;
    m_groups = groups;

    // Sections in sorted order (the machine's last) between the empty-state label and the closing stretch.
    for (ChartSection* section : std::as_const(m_sections))
        m_sectionLayout->removeWidget(section);
    int position = 1;
    for (const QString& group : orderedGroups())
        m_sectionLayout->insertWidget(position++, m_sections.value(group));

    // Existing charts whose set of runs (or run colours) changed re-read the store.
    const bool runsChanged = previousRuns != runs;
    for (auto it = m_charts.cbegin(); it != m_charts.cend(); ++it) {
        ScalarChart* chart = it.value();
        bool stale = runsChanged;
        if (!stale) {
            QStringList expected;
            for (const QString& run : runs) {
                const models::scalars::ScalarSeries* s = m_store->series(run, it.key());
                if (s && !s->isEmpty())
                    expected << run;
            }
            stale = expected != chart->runs();
        }
        if (stale)
            chart->refreshData();
    }
    applyFilter();
}

void ScalarsPanel::onFilterTextChanged(const QString& text)
{
    const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
    m_filterValid = re.isValid();
    if (m_filterValid) {
        m_filter = re;
        m_toolbar->setFilterError({});
        m_filterTimer->start();
    } else {
        m_toolbar->setFilterError(
            tr("Invalid regular expression: %1 (at character %2). The previous filter stays in effect.")
                .arg(re.errorString())
                .arg(re.patternErrorOffset() + 1));
    }
}

void ScalarsPanel::setTagFilter(const QString& pattern)
{
    m_toolbar->setFilterText(pattern);
    onFilterTextChanged(pattern);
    m_filterTimer->stop();
    applyFilter();
    emit optionsChanged();
}

QString ScalarsPanel::tagFilter() const
{
    return m_toolbar->filterText();
}

void ScalarsPanel::applyFilter()
{
    m_filterTimer->stop();
    for (ChartSection* section : std::as_const(m_sections))
        updateSection(section);
    updateEmptyState();
}

void ScalarsPanel::updateSection(ChartSection* section)
{
    const QStringList tags = m_groups.value(section->name());
    const bool filtering = !m_filter.pattern().isEmpty();
    QList<QWidget*> widgets;
    int shown = 0;
    for (const QString& tag : tags) {
        if (filtering && !m_filter.match(tag).hasMatch())
            continue;
        ++shown;
        widgets << slotFor(tag);
    }
    section->setWidgets(widgets);
    section->setCount(shown, int(tags.size()));
    section->setVisible(shown > 0);
    scheduleMaterialize();
}

QWidget* ScalarsPanel::slotFor(const QString& tag)
{
    if (ScalarChart* chart = m_charts.value(tag))
        return chart;
    QWidget*& placeholder = m_placeholders[tag];
    if (!placeholder)
        placeholder = new ChartPlaceholder(tag, m_content);
    return placeholder;
}

void ScalarsPanel::scheduleMaterialize()
{
    if (!m_materializeTimer->isActive())
        m_materializeTimer->start();
}

void ScalarsPanel::materializeVisible(int budget)
{
    m_materializeTimer->stop();
    if (!isVisible() || m_placeholders.isEmpty())
        return;
    m_content->layout()->activate();
    // What is on screen first, then half a screen either way so that scrolling rarely shows a placeholder. A
    // few charts per event loop round keep the window responsive while a page fills.
    const QRect viewport = m_scroll->viewport()->rect();
    const QPoint offset = m_content->mapFrom(m_scroll->viewport(), QPoint(0, 0));
    const QRect onScreen = viewport.translated(offset);
    const QRect nearby = onScreen.adjusted(0, -viewport.height() / 2, 0, viewport.height() / 2);
    for (const QRect& wanted : { onScreen, nearby }) {
        for (ChartSection* section : std::as_const(m_sections)) {
            if (section->isHidden() || !section->isExpanded())
                continue;
            if (!QRect(section->mapTo(m_content, QPoint(0, 0)), section->size()).intersects(wanted))
                continue;
            for (QWidget* widget : section->widgets()) {
                auto* placeholder = qobject_cast<ChartPlaceholder*>(widget);
                if (!placeholder)
                    continue;
                if (!QRect(widget->mapTo(m_content, QPoint(0, 0)), widget->size()).intersects(wanted))
                    continue;
                if (budget-- <= 0) {
                    scheduleMaterialize();
                    return;
                }
                const QString tag = placeholder->tag();
                section->replaceWidget(placeholder, createChart(tag));
                m_placeholders.remove(tag);
                placeholder->deleteLater();
            }
        }
    }
}

void ScalarsPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    scheduleMaterialize();
}

ScalarChart* ScalarsPanel::createChart(const QString& tag)
{
    if (ScalarChart* chart = m_charts.value(tag))
        return chart;
    auto* chart = new ScalarChart(m_store, tag, m_options, m_content);
    chart->setObjectName(QStringLiteral("chart:") + tag);
    chart->setWheelZoomModifiers(m_wheelZoomModifiers);
    chart->setFramed(true);
    chart->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    ChartExportMenu* menu = chart->exportMenu();
    if (m_fileNameProvider)
        menu->setFileNameProvider(m_fileNameProvider);
    if (!m_exportDirectory.isEmpty())
        menu->setDefaultDirectory(m_exportDirectory);
    connect(menu, &ChartExportMenu::exported, this, &ScalarsPanel::chartExported);
    connect(menu, &ChartExportMenu::exportFailed, this, &ScalarsPanel::chartExportFailed);
    m_charts.insert(tag, chart);
    connect(chart, &ScalarChart::viewChanged, this, [this, chart] {
        if (!m_followingWallTime && m_options.xAxisMode == XAxisMode::WallTime)
            emit wallTimeRangeChanged(chart->xRange().lower, chart->xRange().upper);
    });
    if (m_pendingXRanges.contains(tag)) {
        const QVariantList range = m_pendingXRanges.take(tag).toList();
        if (range.size() == 2)
            chart->setXRange(range[0].toDouble(), range[1].toDouble());
    }
    if (tag == m_markedTag)
        chart->setMarkedStep(m_markedStep);
    return chart;
}

void ScalarsPanel::setWallTimeRange(double lower, double upper)
{
    if (m_options.xAxisMode != XAxisMode::WallTime)
        return;
    m_followingWallTime = true;
    for (ScalarChart* chart : std::as_const(m_charts))
        chart->setXRange(lower, upper);
    m_followingWallTime = false;
}

void ScalarsPanel::markStep(const QString& tag, std::optional<qint64> step)
{
    if (ScalarChart* previous = m_charts.value(m_markedTag))
        previous->setMarkedStep(std::nullopt);
    m_markedTag = step ? tag : QString();
    m_markedStep = step;
    if (ScalarChart* chart = m_charts.value(tag))
        chart->setMarkedStep(step);
}

void ScalarsPanel::updateColumns()
{
    const int available = m_scroll->viewport()->width() - 2 * kContentMargin;
    if (available <= 0)
        return;
    const CardGridGeometry grid = cardGridGeometry(cardGridSpec(m_cardSize), available);
    const int columns = grid.columns;
    const int height = grid.cardHeight;
    if (columns == m_columns && height == m_chartHeight)
        return;
    m_columns = columns;
    m_chartHeight = height;
    for (ChartSection* section : std::as_const(m_sections))
        section->setColumns(columns, height);
}

CardGridSpec ScalarsPanel::cardGridSpec(CardSize size)
{
    CardGridSpec spec;
    spec.minCardWidth = kMinChartWidth;
    spec.maxColumns = kMaxColumns;
    spec.aspect = 0.64;
    spec.minHeight = 230;
    spec.maxHeight = 340;
    spec = spec.scaled(size);
    // A card never gets narrower than a chart can be drawn: the grid would run past the page's right edge.
    spec.minCardWidth = std::max(spec.minCardWidth, ScalarChart::kMinimumWidth);
    return spec;
}

void ScalarsPanel::setCardSize(CardSize size)
{
    m_toolbar->setCardSize(size);
    if (size == m_cardSize)
        return;
    m_cardSize = size;
    updateColumns();
    scheduleMaterialize();
}

void ScalarsPanel::updateEmptyState()
{
    const QStringList visible = visibleTags();
    QString message;
    if (m_tags.isEmpty())
        message = tr("<p><b>No scalars yet</b></p><p>Open a run folder with TensorBoard event files or MindSpore "
                     "summaries; curves appear here while they load.</p>");
    else if (visible.isEmpty())
        message = tr("<p><b>No tag matches \"%1\"</b></p><p>Change or clear the filter to see the other %n tag(s).</p>",
                     nullptr, int(m_tags.size()))
                      .arg(m_filter.pattern().toHtmlEscaped());
    m_emptyLabel->setText(message);
    m_emptyLabel->setVisible(!message.isEmpty());
    const int runCount = int(m_runModel->runs().size());
    m_toolbar->setSummary(
        m_tags.isEmpty() ? QString()
                         : tr("%1 of %2 tags · %n run(s)", nullptr, runCount).arg(visible.size()).arg(m_tags.size()));
}

bool ScalarsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize) {
        updateColumns();
        scheduleMaterialize();
    } else if (watched == m_content && (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest)) {
        scheduleMaterialize(); // sections moved: other placeholders may be in view now
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace runlens::widgets::scalars
