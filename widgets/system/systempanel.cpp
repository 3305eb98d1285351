#include "widgets/system/systempanel.h"

#include "models/scalars/scalarstore.h"
#include "models/system/systemmetrics.h"
#include "widgets/common/panelheader.h"
#include "widgets/system/systemdetailchart.h"
#include "widgets/system/systemoverviewmodel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace runlens::widgets::system {

SystemPanel::SystemPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_header = new PanelHeader(this);
    m_runSelector = m_header->addSelector(QStringLiteral("systemRun"), tr("The host or rank shown in detail"));
    m_summary = m_header->addSummary(QStringLiteral("systemSummary"));
    m_exportButton = m_header->addExportButton(QStringLiteral("systemExport"));
    layout->addWidget(m_header);

    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack, 1);
    m_emptyLabel = new QLabel(m_stack);
    m_emptyLabel->setObjectName(QStringLiteral("emptyState"));
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setMargin(24);
    m_emptyLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_emptyLabel->setText(tr("No system metrics in this folder.\n\nRecord the machine under a training job with\n"
                             "runlens record --out RUN_FOLDER -- python train.py\n\nand open RUN_FOLDER: CPU, "
                             "memory, disk, network, InfiniBand and GPU metrics appear here, next to the run's "
                             "scalars."));
    m_stack->addWidget(m_emptyLabel);

    auto* splitter = new QSplitter(Qt::Vertical, m_stack);
    m_stack->addWidget(splitter);
    m_model = new SystemOverviewModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SystemOverviewModel::SortRole);
    m_table = new QTableView(splitter);
    m_table->setObjectName(QStringLiteral("systemOverview"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* scroll = new QScrollArea(splitter);
    scroll->setObjectName(QStringLiteral("systemDetail"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_chart = new SystemDetailChart(scroll);
    scroll->setWidget(m_chart);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    m_splitter = splitter;

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    showRow(m_proxy->mapToSource(current).row());
            });
    connect(m_runSelector, qOverload<int>(&QComboBox::activated), this, [this](int index) { showRow(index); });
    connect(m_chart, &SystemDetailChart::timeRangeChanged, this, [this](double lower, double upper) {
        if (!m_following)
            emit timeRangeChanged(lower, upper);
    });
    QMenu* menu = m_header->exportMenu();
    connect(menu, &QMenu::aboutToShow, this, [this, menu] {
        menu->clear();
        m_chart->exportMenu()->addTo(menu);
    });
    connect(m_chart->exportMenu(), &ChartExportMenu::exported, this, &SystemPanel::chartExported);
    connect(m_chart->exportMenu(), &ChartExportMenu::exportFailed, this, &SystemPanel::chartExportFailed);

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(300);
    connect(m_refreshTimer, &QTimer::timeout, this, &SystemPanel::refresh);
    refresh();
}

SystemPanel::~SystemPanel() = default;

void SystemPanel::setStore(models::scalars::ScalarStore* store)
{
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    if (m_store) {
        connect(m_store, &models::scalars::ScalarStore::structureChanged, this, &SystemPanel::scheduleRefresh);
        connect(m_store, &models::scalars::ScalarStore::cleared, this, &SystemPanel::refresh);
        connect(m_store, &models::scalars::ScalarStore::seriesChanged, this,
                [this](const QString&, const QStringList& tags) {
                    for (const QString& tag : tags) {
                        if (tag.startsWith(models::system::kTagPrefix)) {
                            scheduleRefresh();
                            return;
                        }
                    }
                });
    }
    refresh();
}

void SystemPanel::setProfilerRuns(std::vector<models::system::SystemRun> runs)
{
    m_profilerRuns = std::move(runs);
    refresh();
}

void SystemPanel::scheduleRefresh()
{
    if (!m_refreshTimer->isActive())
        m_refreshTimer->start();
}

void SystemPanel::flushPendingRefresh()
{
    if (m_refreshTimer->isActive())
        refresh();
}

void SystemPanel::refresh()
{
    m_refreshTimer->stop();
    const QString shown = currentRun();
    std::vector<models::system::SystemRun> runs
        = m_store ? models::system::systemRunsOf(*m_store) : std::vector<models::system::SystemRun>();
    if (!m_profilerRuns.empty()) {
        runs.insert(runs.end(), m_profilerRuns.begin(), m_profilerRuns.end());
        models::system::sortRuns(runs);
    }
    m_model->setRuns(std::move(runs));
    m_runSelector->clear();
    for (const models::system::SystemRun& run : m_model->runs())
        m_runSelector->addItem(m_store ? m_store->runDisplayName(run.run) : run.run);
    m_runSelector->setVisible(m_model->rowCount() > 1);
    m_exportButton->setVisible(m_model->rowCount() > 0);
    m_stack->setCurrentWidget(m_model->rowCount() == 0 ? static_cast<QWidget*>(m_emptyLabel) : m_stack->widget(1));
    if (m_model->rowCount() == 0) {
        m_summary->clear();
        m_chart->setRun({});
        return;
    }
    m_summary->setText(tr("%n host(s) or rank(s) with system metrics", nullptr, m_model->rowCount()));
    // The overview as tall as its rows (up to eight), the rest for the charts.
    const int rows = std::min(m_model->rowCount(), 8);
    const int tableHeight = m_table->horizontalHeader()->sizeHint().height()
        + rows * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth()
        + m_table->horizontalScrollBar()->sizeHint().height();
    m_splitter->setSizes({ tableHeight, std::max(200, m_splitter->height() - tableHeight) });
    const int row = std::max(0, m_model->rowOfRun(shown));
    showRow(row);
}

void SystemPanel::showRow(int sourceRow)
{
    if (sourceRow < 0 || sourceRow >= m_model->rowCount())
        return;
    const models::system::SystemRun& run = m_model->runs()[std::size_t(sourceRow)];
    if (m_runSelector->currentIndex() != sourceRow)
        m_runSelector->setCurrentIndex(sourceRow);
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
    if (m_table->currentIndex().row() != proxyIndex.row())
        m_table->setCurrentIndex(proxyIndex);
    m_chart->setRun(run);
}

int SystemPanel::runCount() const
{
    return m_model->rowCount();
}

bool SystemPanel::isEmptyStateShown() const
{
    return m_stack->currentWidget() == m_emptyLabel;
}

QString SystemPanel::emptyStateText() const
{
    return m_emptyLabel->text();
}

QString SystemPanel::currentRun() const
{
    return m_chart->run().run;
}

bool SystemPanel::showRun(const QString& run, double lower, double upper)
{
    if (m_refreshTimer->isActive())
        refresh();
    const int row = m_model->rowOfRun(run);
    if (row < 0)
        return false;
    showRow(row);
    if (upper > lower) {
        // A little room on each side, so the range is seen against what surrounds it.
        const double margin = std::max((upper - lower) * 0.1, 1.0);
        m_chart->setTimeRange(lower - margin, upper + margin);
        m_chart->setMarkedRange(lower, upper);
    } else {
        m_chart->setMarkedRange(1.0, 0.0);
    }
    return true;
}

void SystemPanel::setTimeRange(double lower, double upper)
{
    if (!(upper > lower) || !std::isfinite(lower) || !std::isfinite(upper))
        return;
    m_following = true;
    m_chart->setTimeRange(lower, upper);
    m_following = false;
}

void SystemPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_chart->exportMenu()->setFileNameProvider(std::move(provider));
}

} // namespace runlens::widgets::system
