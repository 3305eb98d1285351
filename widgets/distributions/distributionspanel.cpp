#include "widgets/distributions/distributionspanel.h"

#include "models/summary/summarystore.h"
#include "widgets/common/cardgrid.h"
#include "widgets/common/chartcolumn.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/panelheader.h"
#include "widgets/scalars/chartplaceholder.h"
#include "widgets/scalars/chartsection.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace runlens::widgets::distributions {

namespace {

constexpr int kFilterDelayMs = 150;
constexpr int kContentMargin = 12;

QString slotKey(const QString& tag, const QString& run)
{
    return tag + QChar(0x1f) + run;
}

QToolButton* modeButton(const QString& text, const QString& name, const QString& tip, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(name);
    button->setText(text);
    button->setToolTip(tip);
    button->setCheckable(true);
    button->setAutoRaise(true);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

const char* modeKey(DistributionMode mode)
{
    return mode == DistributionMode::Offset ? "offset" : "bands";
}

const char* axisKey(scalars::XAxisMode mode)
{
    switch (mode) {
    case scalars::XAxisMode::Step:
        return "step";
    case scalars::XAxisMode::RelativeTime:
        return "relative";
    case scalars::XAxisMode::WallTime:
        return "wall";
    }
    return "step";
}

} // namespace

DistributionsPanel::DistributionsPanel(models::summary::SummaryStore* store, QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("DistributionsPanel"));
    m_updateTimer = new QTimer(this);
    m_updateTimer->setSingleShot(true);
    m_updateTimer->setInterval(kUpdateDelayMs);
    connect(m_updateTimer, &QTimer::timeout, this, &DistributionsPanel::flushPendingUpdates);
    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(kFilterDelayMs);
    connect(m_filterTimer, &QTimer::timeout, this, [this] {
        updateAllSections();
        emit optionsChanged();
    });
    m_materializeTimer = new QTimer(this);
    m_materializeTimer->setSingleShot(true);
    m_materializeTimer->setInterval(0);
    connect(m_materializeTimer, &QTimer::timeout, this, [this] { materializeVisible(kChartsPerPass); });
    buildUi();
    setStore(store);
}

DistributionsPanel::~DistributionsPanel() = default;

void DistributionsPanel::buildUi()
{
    auto* toolbar = new PanelHeader(this);
    toolbar->setObjectName(QStringLiteral("distributionsToolbar"));
    toolbar->enableOverflowMenu();

    m_filterEdit = toolbar->addFilter(QStringLiteral("tagFilter"), tr("Filter tags (regular expression)"));
    m_filterEdit->setToolTip(tr("Show only the histogram tags that match this regular expression (case-insensitive)"));
    connect(m_filterEdit, &QLineEdit::textChanged, this, &DistributionsPanel::onFilterTextChanged);

    auto* bands = modeButton(tr("Bands"), QStringLiteral("modeBands"),
                             tr("Percentile bands over steps (TensorBoard distributions): minimum, ±1.5σ, ±1σ, "
                                "±0.5σ of a normal distribution and maximum, with the median as a line"),
                             toolbar);
    auto* offset = modeButton(tr("Offset"), QStringLiteral("modeOffset"),
                              tr("One histogram per step, stacked down the step axis (TensorBoard offset "
                                 "histograms, MindInsight ridgeline); older steps are lighter"),
                              toolbar);
    m_modeGroup = new QButtonGroup(this);
    m_modeGroup->setExclusive(true);
    m_modeGroup->addButton(bands, int(DistributionMode::Bands));
    m_modeGroup->addButton(offset, int(DistributionMode::Offset));
    bands->setChecked(true);
    connect(m_modeGroup, &QButtonGroup::idClicked, this, [this](int id) { setMode(DistributionMode(id)); });
    toolbar->addWidget(bands);
    toolbar->addWidget(offset);
    toolbar->groupForOverflow({ bands, offset });

    auto* axisLabel = new QLabel(tr("Steps as"), toolbar);
    m_xAxisCombo = new QComboBox(toolbar);
    m_xAxisCombo->setObjectName(QStringLiteral("xAxisMode"));
    m_xAxisCombo->addItem(scalars::scalarformat::axisTitle(scalars::XAxisMode::Step), int(scalars::XAxisMode::Step));
    m_xAxisCombo->addItem(scalars::scalarformat::axisTitle(scalars::XAxisMode::RelativeTime),
                          int(scalars::XAxisMode::RelativeTime));
    m_xAxisCombo->addItem(scalars::scalarformat::axisTitle(scalars::XAxisMode::WallTime),
                          int(scalars::XAxisMode::WallTime));
    m_xAxisCombo->setToolTip(tr("Measure the step axis in training steps, time since the run's first histogram, "
                                "or wall-clock time"));
    axisLabel->setBuddy(m_xAxisCombo);
    connect(m_xAxisCombo, &QComboBox::activated, this,
            [this](int index) { setXAxisMode(scalars::XAxisMode(m_xAxisCombo->itemData(index).toInt())); });
    toolbar->addWidget(axisLabel);
    toolbar->addWidget(m_xAxisCombo);
    toolbar->groupForOverflow({ axisLabel, m_xAxisCombo });
    m_summaryLabel = toolbar->addSummary(QStringLiteral("summary"), PanelHeader::TextMode::SingleLine);
    m_summaryLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_summaryLabel->setForegroundRole(QPalette::PlaceholderText);

    const ChartColumn column = createChartColumn(this, this, kContentMargin);
    m_scroll = column.scroll;
    m_content = column.content;
    m_sectionLayout = column.layout;
    m_emptyLabel = column.emptyLabel;
    m_sectionLayout->addStretch(1);
    m_content->installEventFilter(this);
    connect(m_scroll->verticalScrollBar(), &QScrollBar::valueChanged, this, &DistributionsPanel::scheduleMaterialize);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(PanelHeader::createRule(this));
    layout->addWidget(m_scroll, 1);
}

void DistributionsPanel::setStore(models::summary::SummaryStore* store)
{
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    // Charts read the store they were made for: start over.
    qDeleteAll(m_charts);
    m_charts.clear();
    qDeleteAll(m_placeholders);
    m_placeholders.clear();
    qDeleteAll(m_sections);
    m_sections.clear();
    m_pendingKeys.clear();
    if (m_store) {
        connect(m_store, &models::summary::SummaryStore::seriesChanged, this, &DistributionsPanel::onSeriesChanged);
        connect(m_store, &models::summary::SummaryStore::structureChanged, this, [this] {
            m_structurePending = true;
            scheduleUpdate();
        });
        connect(m_store, &models::summary::SummaryStore::cleared, this, [this] {
            m_structurePending = true;
            scheduleUpdate();
        });
        connect(m_store, &QObject::destroyed, this, [this] { setStore(nullptr); });
    }
    rebuildStructure();
}

void DistributionsPanel::onSeriesChanged(models::summary::SummaryKind kind, const QString& run, const QStringList& tags)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (kind != models::summary::SummaryKind::Histograms)
        return;
    for (const QString& tag : tags) {
        m_pendingKeys.insert(slotKey(tag, run));
        // A tag new to this run changes the layout, whether or not the store says so separately.
        if (!m_runsOfTag.value(tag).contains(run))
            m_structurePending = true;
    }
    scheduleUpdate();
}

void DistributionsPanel::scheduleUpdate()
{
    if (!m_updateTimer->isActive())
        m_updateTimer->start();
}

void DistributionsPanel::flushPendingUpdates()
{
    m_updateTimer->stop();
    m_materializeTimer->stop();
    if (m_structurePending) {
        m_structurePending = false;
        rebuildStructure();
    }
    for (const QString& key : std::as_const(m_pendingKeys)) {
        if (DistributionChart* chart = m_charts.value(key))
            chart->refreshData();
    }
    m_pendingKeys.clear();
    materializeVisible(std::numeric_limits<int>::max());
}

void DistributionsPanel::rebuildStructure()
{
    const QStringList runs = m_store ? m_store->runs() : QStringList();
    const bool colorsChanged = runs != m_runs;
    m_runs = runs;
    QMap<QString, QStringList> runsOfTag;
    if (m_store) {
        for (const QString& run : m_store->runs(models::summary::SummaryKind::Histograms)) {
            for (const QString& tag : m_store->tags(models::summary::SummaryKind::Histograms, run))
                runsOfTag[tag].append(run);
        }
    }
    // Runs within a tag in store order, so a run keeps its place (and colour) in every section.
    for (auto it = runsOfTag.begin(); it != runsOfTag.end(); ++it) {
        std::sort(it.value().begin(), it.value().end(),
                  [&runs](const QString& a, const QString& b) { return runs.indexOf(a) < runs.indexOf(b); });
    }

    // Slots whose run or tag is gone, and sections of tags that are gone.
    auto slotKept = [&runsOfTag](const QString& key) {
        const QStringList parts = key.split(QChar(0x1f));
        return parts.size() == 2 && runsOfTag.value(parts[0]).contains(parts[1]);
    };
    auto sectionOfSlot = [this](const QString& key) { return m_sections.value(key.section(QChar(0x1f), 0, 0)); };
    scalars::retireCards(m_charts, slotKept, sectionOfSlot);
    scalars::retireCards(m_placeholders, slotKept, sectionOfSlot);
    scalars::retireSections(m_sections, m_sectionLayout,
                            [&runsOfTag](const QString& tag) { return runsOfTag.contains(tag); });
    for (auto it = runsOfTag.cbegin(); it != runsOfTag.cend(); ++it) {
        if (m_sections.contains(it.key()))
            continue;
        auto* section = new scalars::ChartSection(it.key(), m_content);
        section->setObjectName(QStringLiteral("section:") + it.key());
        section->setExpanded(!m_collapsedTags.contains(it.key()));
        section->setColumns(m_columns, m_chartHeight);
        connect(section, &scalars::ChartSection::expandedChanged, this, [this, section](bool expanded) {
            if (expanded)
                m_collapsedTags.remove(section->name());
            else
                m_collapsedTags.insert(section->name());
            updateSection(section);
        });
        m_sections.insert(it.key(), section);
    }
    // Sections in tag order between the empty-state label and the closing stretch.
    for (scalars::ChartSection* section : std::as_const(m_sections))
        m_sectionLayout->removeWidget(section);
    int position = 1;
    for (scalars::ChartSection* section : std::as_const(m_sections))
        m_sectionLayout->insertWidget(position++, section);

    m_runsOfTag = runsOfTag;
    m_tags = runsOfTag.keys();
    if (colorsChanged) {
        for (auto it = m_charts.cbegin(); it != m_charts.cend(); ++it)
            it.value()->setColor(colorOfRun(it.value()->run()));
    }
    updateAllSections();
}

QColor DistributionsPanel::colorOfRun(const QString& run) const
{
    return runColor(int(std::max<qsizetype>(0, m_runs.indexOf(run))));
}

bool DistributionsPanel::isRunShown(const QString& run) const
{
    return m_visibleRuns.isEmpty() || m_visibleRuns.contains(run);
}

bool DistributionsPanel::tagPassesFilter(const QString& tag) const
{
    return m_filter.pattern().isEmpty() || m_filter.match(tag).hasMatch();
}

void DistributionsPanel::updateAllSections()
{
    m_filterTimer->stop();
    for (scalars::ChartSection* section : std::as_const(m_sections))
        updateSection(section);
    updateEmptyState();
}

void DistributionsPanel::updateSection(scalars::ChartSection* section)
{
    const QString tag = section->name();
    const QStringList runs = runsOfTag(tag);
    const bool shown = tagPassesFilter(tag) && !runs.isEmpty();
    QList<QWidget*> widgets;
    if (shown) {
        for (const QString& run : runs)
            widgets << slotFor(tag, run);
    }
    section->setWidgets(widgets);
    section->setCount(int(runs.size()), int(m_runsOfTag.value(tag).size()));
    section->headerButton()->setToolTip(
        tr("Show or hide the distributions of %1 (%n run(s))", nullptr, int(runs.size())).arg(tag));
    section->setVisible(shown);
    scheduleMaterialize();
}

QWidget* DistributionsPanel::slotFor(const QString& tag, const QString& run)
{
    const QString key = slotKey(tag, run);
    if (DistributionChart* chart = m_charts.value(key))
        return chart;
    QWidget*& placeholder = m_placeholders[key];
    if (!placeholder)
        placeholder = new scalars::ChartPlaceholder(run, m_content);
    return placeholder;
}

DistributionChart* DistributionsPanel::createChart(const QString& tag, const QString& run)
{
    const QString key = slotKey(tag, run);
    if (DistributionChart* chart = m_charts.value(key))
        return chart;
    auto* chart = new DistributionChart(m_store, run, tag, m_options, m_content);
    chart->setObjectName(QStringLiteral("chart:") + tag + QLatin1Char(':') + run);
    chart->setColor(colorOfRun(run));
    chart->setFramed(true);
    chart->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    ChartExportMenu* menu = chart->exportMenu();
    if (m_fileNameProvider)
        menu->setFileNameProvider(m_fileNameProvider);
    if (!m_exportDirectory.isEmpty())
        menu->setDefaultDirectory(m_exportDirectory);
    connect(menu, &ChartExportMenu::exported, this, &DistributionsPanel::chartExported);
    connect(menu, &ChartExportMenu::exportFailed, this, &DistributionsPanel::chartExportFailed);
    connect(chart, &DistributionChart::hoveredStepChanged, this,
            [this, run, tag](qint64 step) { emit hoveredStepChanged(run, tag, step); });
    m_charts.insert(key, chart);
    return chart;
}

void DistributionsPanel::scheduleMaterialize()
{
    if (!m_materializeTimer->isActive())
        m_materializeTimer->start();
}

void DistributionsPanel::materializeVisible(int budget)
{
    m_materializeTimer->stop();
    if (!isVisible() || m_placeholders.isEmpty())
        return;
    m_content->layout()->activate();
    // On screen first, then half a screen either way, a few charts per event loop round.
    const QRect viewport = m_scroll->viewport()->rect();
    const QRect onScreen = viewport.translated(m_content->mapFrom(m_scroll->viewport(), QPoint(0, 0)));
    const QRect nearby = onScreen.adjusted(0, -viewport.height() / 2, 0, viewport.height() / 2);
    for (const QRect& wanted : { onScreen, nearby }) {
        for (scalars::ChartSection* section : std::as_const(m_sections)) {
            if (section->isHidden() || !section->isExpanded()
                || !QRect(section->mapTo(m_content, QPoint(0, 0)), section->size()).intersects(wanted))
                continue;
            const QList<QWidget*> widgets = section->widgets();
            for (QWidget* widget : widgets) {
                auto* placeholder = qobject_cast<scalars::ChartPlaceholder*>(widget);
                if (!placeholder || !QRect(widget->mapTo(m_content, QPoint(0, 0)), widget->size()).intersects(wanted))
                    continue;
                if (budget-- <= 0) {
                    scheduleMaterialize();
                    return;
                }
                const QString key = m_placeholders.key(placeholder);
                const QStringList parts = key.split(QChar(0x1f));
                if (parts.size() != 2)
                    continue;
                section->replaceWidget(placeholder, createChart(parts[0], parts[1]));
                m_placeholders.remove(key);
                placeholder->deleteLater();
            }
        }
    }
}

void DistributionsPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    scheduleMaterialize();
}

bool DistributionsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize) {
        updateColumns();
        scheduleMaterialize();
    } else if (watched == m_content && (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest)) {
        scheduleMaterialize();
    }
    return QWidget::eventFilter(watched, event);
}

void DistributionsPanel::updateColumns()
{
    const int available = m_scroll->viewport()->width() - 2 * kContentMargin;
    if (available <= 0)
        return;
    CardGridSpec spec;
    spec.minCardWidth = kMinChartWidth;
    spec.maxColumns = kMaxColumns;
    spec.aspect = 0.62;
    spec.minHeight = 220;
    spec.maxHeight = 320;
    const CardGridGeometry grid = cardGridGeometry(spec, available);
    const int columns = grid.columns;
    const int height = grid.cardHeight;
    if (columns == m_columns && height == m_chartHeight)
        return;
    m_columns = columns;
    m_chartHeight = height;
    for (scalars::ChartSection* section : std::as_const(m_sections))
        section->setColumns(columns, height);
}

void DistributionsPanel::updateEmptyState()
{
    const QStringList visible = visibleTags();
    QString message;
    if (m_tags.isEmpty()) {
        message = tr("<p><b>No distributions yet</b></p><p>Open a run folder whose TensorBoard event files or "
                     "MindSpore summaries record histograms (<code>add_histogram</code>, "
                     "<code>tf.summary.histogram</code>, <code>HistogramSummary</code>); they appear here while "
                     "they load.</p>");
    } else if (visible.isEmpty()) {
        bool anyRun = false;
        for (const QString& tag : m_tags)
            anyRun = anyRun || !runsOfTag(tag).isEmpty();
        message = !anyRun
            ? tr("<p><b>None of the selected runs has histograms</b></p><p>Select other runs in Compare runs, or "
                 "clear the selection to show every run.</p>")
            : tr("<p><b>No tag matches \"%1\"</b></p><p>Change or clear the filter to see the other %n tag(s).</p>",
                 nullptr, int(m_tags.size()))
                  .arg(m_filter.pattern().toHtmlEscaped());
    }
    m_emptyLabel->setText(message);
    m_emptyLabel->setVisible(!message.isEmpty());
    QSet<QString> shownRuns;
    for (const QString& tag : visible) {
        for (const QString& run : runsOfTag(tag))
            shownRuns.insert(run);
    }
    m_summaryLabel->setText(
        m_tags.isEmpty()
            ? QString()
            : tr("%1 of %2 tags · %n run(s)", nullptr, int(shownRuns.size())).arg(visible.size()).arg(m_tags.size()));
}

void DistributionsPanel::setVisibleRuns(const QStringList& runs)
{
    if (runs == m_visibleRuns)
        return;
    m_visibleRuns = runs;
    updateAllSections();
    emit optionsChanged();
}

void DistributionsPanel::setMode(DistributionMode mode)
{
    if (QAbstractButton* button = m_modeGroup->button(int(mode)); button && !button->isChecked()) {
        const QSignalBlocker blocker(m_modeGroup);
        button->setChecked(true);
    }
    if (mode == m_options.mode)
        return;
    m_options.mode = mode;
    for (DistributionChart* chart : std::as_const(m_charts))
        chart->setMode(mode);
    emit optionsChanged();
}

void DistributionsPanel::setXAxisMode(scalars::XAxisMode mode)
{
    {
        const QSignalBlocker blocker(m_xAxisCombo);
        m_xAxisCombo->setCurrentIndex(m_xAxisCombo->findData(int(mode)));
    }
    if (mode == m_options.xAxisMode)
        return;
    m_options.xAxisMode = mode;
    for (DistributionChart* chart : std::as_const(m_charts))
        chart->setXAxisMode(mode);
    emit optionsChanged();
}

void DistributionsPanel::onFilterTextChanged(const QString& text)
{
    const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
    m_filterValid = re.isValid();
    QPalette pal = m_filterEdit->palette();
    if (m_filterValid) {
        m_filter = re;
        m_filterEdit->setPalette(QPalette());
        m_filterEdit->setToolTip(
            tr("Show only the histogram tags that match this regular expression (case-insensitive)"));
        m_filterTimer->start();
    } else {
        pal.setColor(QPalette::Text, alertColor());
        m_filterEdit->setPalette(pal);
        m_filterEdit->setToolTip(
            tr("Invalid regular expression: %1 (at character %2). The previous filter stays in effect.")
                .arg(re.errorString())
                .arg(re.patternErrorOffset() + 1));
    }
}

void DistributionsPanel::setTagFilter(const QString& pattern)
{
    {
        const QSignalBlocker blocker(m_filterEdit);
        m_filterEdit->setText(pattern);
    }
    onFilterTextChanged(pattern);
    updateAllSections();
    emit optionsChanged();
}

QString DistributionsPanel::tagFilter() const
{
    return m_filterEdit->text();
}

QStringList DistributionsPanel::runsOfTag(const QString& tag) const
{
    QStringList out;
    for (const QString& run : m_runsOfTag.value(tag)) {
        if (isRunShown(run))
            out << run;
    }
    return out;
}

QStringList DistributionsPanel::visibleTags() const
{
    QStringList out;
    for (const QString& tag : m_tags) {
        if (tagPassesFilter(tag) && !runsOfTag(tag).isEmpty())
            out << tag;
    }
    return out;
}

DistributionChart* DistributionsPanel::chart(const QString& tag, const QString& run) const
{
    DistributionChart* chart = m_charts.value(slotKey(tag, run));
    const scalars::ChartSection* section = m_sections.value(tag);
    return chart && section && section->widgets().contains(chart) ? chart : nullptr;
}

QList<DistributionChart*> DistributionsPanel::charts() const
{
    QList<DistributionChart*> out;
    for (const QString& tag : visibleTags()) {
        for (const QString& run : runsOfTag(tag)) {
            if (DistributionChart* c = chart(tag, run))
                out << c;
        }
    }
    return out;
}

void DistributionsPanel::setTagExpanded(const QString& tag, bool expanded)
{
    if (expanded)
        m_collapsedTags.remove(tag);
    else
        m_collapsedTags.insert(tag);
    if (scalars::ChartSection* section = m_sections.value(tag))
        section->setExpanded(expanded);
}

void DistributionsPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_fileNameProvider = std::move(provider);
    for (DistributionChart* chart : std::as_const(m_charts))
        chart->exportMenu()->setFileNameProvider(m_fileNameProvider);
}

void DistributionsPanel::setExportDirectory(const QString& directory)
{
    m_exportDirectory = directory;
    for (DistributionChart* chart : std::as_const(m_charts))
        chart->exportMenu()->setDefaultDirectory(directory);
}

QVariantMap DistributionsPanel::saveState() const
{
    QStringList collapsed(m_collapsedTags.cbegin(), m_collapsedTags.cend());
    collapsed.sort();
    return { { QStringLiteral("mode"), QString::fromLatin1(modeKey(m_options.mode)) },
             { QStringLiteral("xAxis"), QString::fromLatin1(axisKey(m_options.xAxisMode)) },
             { QStringLiteral("filter"), tagFilter() },
             { QStringLiteral("collapsed"), collapsed } };
}

void DistributionsPanel::restoreState(const QVariantMap& state)
{
    setMode(state.value(QStringLiteral("mode")).toString() == QLatin1String("offset") ? DistributionMode::Offset
                                                                                      : DistributionMode::Bands);
    const QString axis = state.value(QStringLiteral("xAxis")).toString();
    setXAxisMode(axis == QLatin1String("relative")   ? scalars::XAxisMode::RelativeTime
                     : axis == QLatin1String("wall") ? scalars::XAxisMode::WallTime
                                                     : scalars::XAxisMode::Step);
    for (const QString& tag : state.value(QStringLiteral("collapsed")).toStringList())
        setTagExpanded(tag, false);
    setTagFilter(state.value(QStringLiteral("filter")).toString());
}

} // namespace runlens::widgets::distributions
