#include "widgets/compare/comparerunspanel.h"

#include "models/scalars/scalarstore.h"
#include "models/summary/runcomparison.h"
#include "models/summary/summarystore.h"
#include "widgets/common/charticons.h"
#include "widgets/common/panelheader.h"
#include "widgets/compare/parallelcoordinateschart.h"

#include <QActionGroup>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace runlens::widgets::compare {

using models::summary::RunComparison;
using ColumnKind = RunComparison::ColumnKind;

namespace {

constexpr int kMaxColumnWidth = 260;

bool isParameter(const RunComparison::Column& c)
{
    if (c.kind == ColumnKind::HParam)
        return true;
    // Lineage evaluation metrics and the final loss are results, not parameters.
    return c.kind == ColumnKind::Lineage && !c.name.startsWith(QLatin1String("metric/"))
        && c.name != QLatin1String("loss");
}

bool isChartMetric(const RunComparison::Column& c)
{
    return c.kind == ColumnKind::MetricFinal || c.kind == ColumnKind::MetricBest
        || (c.kind == ColumnKind::Lineage && c.numeric && !isParameter(c));
}

} // namespace

CompareRunsPanel::CompareRunsPanel(models::scalars::ScalarStore* scalars, models::summary::SummaryStore* summaries,
                                   QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("compareRunsPanel"));
    m_model = new RunComparison(scalars, summaries, this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunComparison::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_chartTimer = new QTimer(this);
    m_chartTimer->setSingleShot(true);
    m_chartTimer->setInterval(0);
    connect(m_chartTimer, &QTimer::timeout, this, &CompareRunsPanel::updateChart);
    buildUi();

    // A rebuilt table keeps the user's selection of runs.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        m_keptSelection = selectedRuns();
        m_resetting = true;
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        onModelReset();
        selectRuns(m_keptSelection);
        m_resetting = false;
        onSelectionChanged();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &CompareRunsPanel::scheduleChart);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &CompareRunsPanel::scheduleChart);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, [this] {
        scheduleChart();
        onSelectionChanged();
    });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &CompareRunsPanel::scheduleChart);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CompareRunsPanel::onSelectionChanged);
    onModelReset();
}

CompareRunsPanel::~CompareRunsPanel() = default;

void CompareRunsPanel::buildUi()
{
    auto* toolbar = new PanelHeader(this);
    toolbar->setObjectName(QStringLiteral("compareToolbar"));
    toolbar->enableOverflowMenu();

    m_filterEdit = toolbar->addFilter(QStringLiteral("runFilter"), tr("Filter runs and values"));
    m_filterEdit->setToolTip(tr("Shows only the runs with this text in their name or in any of their values"));
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        scheduleChart();
    });

    m_columnsButton = new QToolButton(toolbar);
    m_columnsButton->setObjectName(QStringLiteral("columnsButton"));
    m_columnsButton->setText(tr("Columns…"));
    m_columnsButton->setToolTip(tr("Choose the hyper-parameters and metrics the table shows"));
    m_columnsButton->setPopupMode(QToolButton::InstantPopup);
    m_columnsMenu = new QMenu(m_columnsButton);
    m_columnsMenu->installEventFilter(this);
    m_columnsButton->setMenu(m_columnsMenu);
    toolbar->addWidget(m_columnsButton);

    auto* metricLabel = new QLabel(tr("Chart metric"), toolbar);
    m_metricBox = new QComboBox(toolbar);
    m_metricBox->setObjectName(QStringLiteral("metricBox"));
    m_metricBox->setToolTip(tr("The metric on the chart's last axis; it also colours the runs' lines"));
    m_metricBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metricBox->setMinimumContentsLength(12);
    metricLabel->setBuddy(m_metricBox);
    connect(m_metricBox, &QComboBox::activated, this, [this](int index) {
        m_metricChosen = true;
        setChartMetric(m_metricBox->itemData(index).toString());
    });
    toolbar->addWidget(metricLabel);
    toolbar->addWidget(m_metricBox);
    toolbar->groupForOverflow({ metricLabel, m_metricBox });

    m_exportButton = toolbar->addExportButton(QStringLiteral("exportButton"));
    m_exportButton->setToolTip(tr("Export the parallel-coordinates chart as PNG, SVG, PDF or CSV"));
    // In a narrow dock the filter stays and Export leaves the row last.
    toolbar->setOverflowPriority(m_exportButton, 1);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setSectionsMovable(true);
    m_table->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setToolTip(tr("Select runs to show only them in every chart; right-click a header for its options"));
    connect(m_table->horizontalHeader(), &QWidget::customContextMenuRequested, this, &CompareRunsPanel::showHeaderMenu);

    m_chart = new ParallelCoordinatesChart(this);
    m_chart->setToolTip(QString());
    m_chart->setRunNamer([this](const QString& run) { return m_model->runDisplayName(run); });
    connect(m_chart->exportMenu(), &ChartExportMenu::exported, this, &CompareRunsPanel::chartExported);
    connect(m_chart->exportMenu(), &ChartExportMenu::exportFailed, this, &CompareRunsPanel::chartExportFailed);
    toolbar->addChartExport(m_chart->exportMenu());
    connect(m_chart, &ParallelCoordinatesChart::runClicked, this, [this](const QString& run) {
        if (!run.isEmpty())
            selectRuns({ run });
    });

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_chart);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({ 1, 1 }); // half each, whatever the table's size hint says

    m_emptyLabel = new QLabel(this);
    m_emptyLabel->setObjectName(QStringLiteral("emptyLabel"));
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setForegroundRole(QPalette::PlaceholderText);
    m_emptyLabel->setText(tr("No runs to compare yet.\nOpen a run folder with TensorBoard event files (scalars, "
                             "hparams) or MindSpore summary and lineage files."));

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_emptyLabel);
    m_stack->addWidget(m_splitter);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(m_stack, 1);
}

void CompareRunsPanel::onModelReset()
{
    rebuildColumnsMenu();
    rebuildMetricBox();
    applyColumnVisibility();
    fitColumns();
    updateEmptyState();
    scheduleChart();
}

void CompareRunsPanel::fitColumns()
{
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c) {
        if (m_table->columnWidth(c) > kMaxColumnWidth)
            m_table->setColumnWidth(c, kMaxColumnWidth);
    }
}

void CompareRunsPanel::updateEmptyState()
{
    m_stack->setCurrentIndex(m_model->rowCount() == 0 ? 0 : 1);
}

bool CompareRunsPanel::isColumnVisible(const QString& key) const
{
    const int c = m_model->columnOf(key);
    if (c < 0)
        return false;
    if (c == 0)
        return true;
    return m_columnChoices.value(key, m_model->column(c).defaultVisible);
}

void CompareRunsPanel::setColumnVisible(const QString& key, bool visible)
{
    if (key == QLatin1String("run"))
        return;
    m_columnChoices.insert(key, visible);
    if (QAction* a = m_columnActions.value(key)) {
        const QSignalBlocker block(a);
        a->setChecked(visible);
    }
    applyColumnVisibility();
    scheduleChart();
}

QAction* CompareRunsPanel::columnAction(const QString& key) const
{
    return m_columnActions.value(key);
}

void CompareRunsPanel::applyColumnVisibility()
{
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_table->setColumnHidden(c, !isColumnVisible(m_model->column(c).key));
}

void CompareRunsPanel::rebuildColumnsMenu()
{
    m_columnsMenu->clear();
    m_columnActions.clear();
    QAction* defaults = m_columnsMenu->addAction(tr("Show the Default Columns"));
    connect(defaults, &QAction::triggered, this, [this] {
        m_columnChoices.clear();
        for (auto it = m_columnActions.cbegin(); it != m_columnActions.cend(); ++it) {
            const QSignalBlocker block(it.value());
            it.value()->setChecked(isColumnVisible(it.key()));
        }
        applyColumnVisibility();
        scheduleChart();
    });

    struct Section
    {
        QString title;
        std::function<bool(const RunComparison::Column&)> accepts;
    };
    const Section sections[] = {
        { tr("Hyper-parameters"), [](const auto& c) { return c.kind == ColumnKind::HParam; } },
        { tr("MindSpore lineage"), [](const auto& c) { return c.kind == ColumnKind::Lineage; } },
        { tr("Session"), [](const auto& c) { return c.kind == ColumnKind::Status; } },
        { tr("Metrics"),
          [](const auto& c) {
              return c.kind == ColumnKind::MetricFinal || c.kind == ColumnKind::MetricBest
                  || c.kind == ColumnKind::MetricBestStep;
          } },
    };
    for (const Section& section : sections) {
        bool first = true;
        for (const auto& c : m_model->columns()) {
            if (!section.accepts(c))
                continue;
            if (first) {
                m_columnsMenu->addSection(section.title);
                first = false;
            }
            QAction* a = m_columnsMenu->addAction(c.title);
            a->setCheckable(true);
            a->setChecked(isColumnVisible(c.key));
            a->setData(c.key);
            if (!c.description.isEmpty())
                a->setToolTip(c.description);
            const QString key = c.key;
            connect(a, &QAction::toggled, this, [this, key](bool on) { setColumnVisible(key, on); });
            m_columnActions.insert(key, a);
        }
    }
    m_columnsMenu->setToolTipsVisible(true);
}

bool CompareRunsPanel::eventFilter(QObject* watched, QEvent* event)
{
    // Toggling a column keeps the menu open, so that several can be chosen in one go.
    if (watched == m_columnsMenu && event->type() == QEvent::MouseButtonRelease) {
        auto* mouse = static_cast<QMouseEvent*>(event);
        QAction* a = m_columnsMenu->actionAt(mouse->position().toPoint());
        if (a && a->isCheckable() && a->isEnabled()) {
            a->toggle();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void CompareRunsPanel::rebuildMetricBox()
{
    const QSignalBlocker block(m_metricBox);
    m_metricBox->clear();
    // The default: a declared metric, else an evaluation metric of the lineage, else a shown final value.
    QString declared;
    QString evaluation;
    QString shown;
    for (const auto& c : m_model->columns()) {
        if (!isChartMetric(c))
            continue;
        m_metricBox->addItem(c.title, c.key);
        if (declared.isEmpty() && c.declared && c.kind == ColumnKind::MetricFinal)
            declared = c.key;
        if (evaluation.isEmpty() && c.kind == ColumnKind::Lineage && c.name.startsWith(QLatin1String("metric/")))
            evaluation = c.key;
        if (shown.isEmpty() && c.defaultVisible && c.kind == ColumnKind::MetricFinal)
            shown = c.key;
    }
    QString fallback = !declared.isEmpty() ? declared : !evaluation.isEmpty() ? evaluation : shown;
    if (fallback.isEmpty() && m_metricBox->count() > 0)
        fallback = m_metricBox->itemData(0).toString();
    if (!m_metricChosen || m_metricBox->findData(m_metricKey) < 0)
        m_metricKey = fallback;
    m_metricBox->setCurrentIndex(m_metricBox->findData(m_metricKey));
    m_metricBox->setEnabled(m_metricBox->count() > 0);
}

void CompareRunsPanel::setChartMetric(const QString& key)
{
    const int i = m_metricBox->findData(key);
    if (i < 0)
        return;
    m_metricKey = key;
    m_metricChosen = true;
    const QSignalBlocker block(m_metricBox);
    m_metricBox->setCurrentIndex(i);
    scheduleChart();
}

QStringList CompareRunsPanel::chartParameterKeys() const
{
    // In the order the user arranged the table's columns.
    QStringList keys;
    const QHeaderView* header = m_table->horizontalHeader();
    for (int visual = 0; visual < header->count() && keys.size() < kMaxChartAxes; ++visual) {
        const int c = header->logicalIndex(visual);
        if (c < 0 || c >= m_model->columnCount())
            continue;
        const auto& col = m_model->column(c);
        if (!isParameter(col) || col.key == m_metricKey || !isColumnVisible(col.key))
            continue;
        keys << col.key;
    }
    return keys;
}

void CompareRunsPanel::scheduleChart()
{
    if (!m_chartTimer->isActive())
        m_chartTimer->start();
}

void CompareRunsPanel::flushPendingUpdates()
{
    m_model->refresh();
    if (m_chartTimer->isActive())
        updateChart();
}

void CompareRunsPanel::updateChart()
{
    m_chartTimer->stop();
    const QStringList runs = shownRuns();
    QList<ParallelCoordinatesChart::Axis> axes;
    const int metric = m_model->columnOf(m_metricKey);
    m_chart->exportMenu()->setBaseName(metric < 0 ? QStringLiteral("compare-runs")
                                                  : QStringLiteral("compare-runs-") + m_model->column(metric).name);
    QStringList keys = chartParameterKeys();
    if (metric >= 0)
        keys << m_metricKey;
    for (const QString& key : std::as_const(keys)) {
        const int c = m_model->columnOf(key);
        const auto& col = m_model->column(c);
        ParallelCoordinatesChart::Axis axis;
        axis.key = key;
        axis.title = col.title;
        axis.categorical = !col.numeric;
        bool any = false;
        for (const QString& run : runs) {
            const int r = m_model->rowOfRun(run);
            const QVariant v = m_model->value(r, c);
            any = any || v.isValid();
            if (axis.categorical)
                axis.texts << RunComparison::formatValue(v);
            else
                axis.values.push_back(m_model->number(r, c));
        }
        // An axis no shown run has a value on says nothing; the metric axis stays to explain the colours.
        if (any || key == m_metricKey)
            axes << axis;
    }
    QString empty;
    if (metric < 0)
        empty = tr("No metric to compare: the runs have no scalar tags or evaluation metrics.");
    else if (axes.size() < 2)
        empty = tr("No hyper-parameters to compare: the runs have no hparams or lineage values in the shown columns.");
    if (runs.isEmpty())
        empty = tr("No run passes the filter.");
    m_chart->setData(empty.isEmpty() ? runs : QStringList(),
                     empty.isEmpty() ? axes : QList<ParallelCoordinatesChart::Axis>(), empty);
    m_chart->setEmphasizedRuns(selectedRuns());
}

QStringList CompareRunsPanel::shownRuns() const
{
    QStringList runs;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        runs << m_proxy->index(r, 0).data(RunComparison::RunRole).toString();
    return runs;
}

QStringList CompareRunsPanel::selectedRuns() const
{
    QStringList runs;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    for (const QModelIndex& index : rows)
        runs << index.data(RunComparison::RunRole).toString();
    std::sort(runs.begin(), runs.end());
    runs.removeDuplicates();
    return runs;
}

void CompareRunsPanel::selectRuns(const QStringList& runs)
{
    QItemSelection selection;
    for (const QString& run : runs) {
        const int source = m_model->rowOfRun(run);
        if (source < 0)
            continue;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(source, 0));
        if (index.isValid())
            selection.select(index, index);
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void CompareRunsPanel::onSelectionChanged()
{
    // A rebuilt table drops and restores the selection; the other panels need not see the gap.
    if (m_resetting)
        return;
    const QStringList runs = selectedRuns();
    m_chart->setEmphasizedRuns(runs);
    if (runs == m_lastVisibleRuns)
        return;
    m_lastVisibleRuns = runs;
    emit visibleRunsChanged(runs);
}

void CompareRunsPanel::setFilterText(const QString& text)
{
    m_filterEdit->setText(text);
}

void CompareRunsPanel::showHeaderMenu(const QPoint& pos)
{
    QHeaderView* header = m_table->horizontalHeader();
    const int c = header->logicalIndexAt(pos);
    if (c <= 0 || c >= m_model->columnCount())
        return;
    const auto col = m_model->column(c);
    QMenu menu(this);
    QAction* hide = menu.addAction(tr("Hide Column"));
    connect(hide, &QAction::triggered, this, [this, key = col.key] { setColumnVisible(key, false); });
    if (col.kind == ColumnKind::MetricFinal || col.kind == ColumnKind::MetricBest
        || col.kind == ColumnKind::MetricBestStep) {
        menu.addSection(tr("Best value of %1").arg(col.name));
        auto* group = new QActionGroup(&menu);
        const struct
        {
            QString text;
            RunComparison::Goal goal;
        } goals[] = {
            { tr("By the Tag's Name (loss, error: lowest)"), RunComparison::Goal::Auto },
            { tr("Lowest Value"), RunComparison::Goal::Minimize },
            { tr("Highest Value"), RunComparison::Goal::Maximize },
        };
        for (const auto& g : goals) {
            QAction* a = menu.addAction(g.text);
            a->setCheckable(true);
            a->setChecked(m_model->goal(col.name) == g.goal);
            group->addAction(a);
            connect(a, &QAction::triggered, this,
                    [this, tag = col.name, goal = g.goal] { m_model->setGoal(tag, goal); });
        }
    }
    if (isChartMetric(col)) {
        menu.addSeparator();
        QAction* use = menu.addAction(tr("Colour the Chart by This Column"));
        connect(use, &QAction::triggered, this, [this, key = col.key] { setChartMetric(key); });
    }
    menu.exec(header->mapToGlobal(pos));
}

void CompareRunsPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_chart->exportMenu()->setFileNameProvider(std::move(provider));
}

void CompareRunsPanel::setExportDirectory(const QString& directory)
{
    m_chart->exportMenu()->setDefaultDirectory(directory);
}

} // namespace runlens::widgets::compare
