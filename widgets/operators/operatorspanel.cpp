#include "widgets/operators/operatorspanel.h"

#include "models/core/workerpool.h"
#include "models/profiler/profileroptablemodel.h"
#include "widgets/common/charticons.h"
#include "widgets/common/panelheader.h"
#include "widgets/common/textfilterproxy.h"
#include "widgets/operators/sharebardelegate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace runlens::widgets::operators {

using models::profiler::ProfilerOpTableModel;
using models::trace::OperatorStatsModel;

namespace {

/// Combo data of the profiler views, after the trace views' View values.
constexpr int kProfilerTypes = 100;
constexpr int kProfilerOps = 101;

} // namespace

OperatorsPanel::OperatorsPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("operatorsPanel"));
    buildUi();
    updateStatus();
}

OperatorsPanel::~OperatorsPanel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void OperatorsPanel::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* header = new PanelHeader(this);
    m_viewCombo = header->addSelector(QStringLiteral("operatorsView"),
                                      tr("Host: time on the CPU; Device: time of the kernels each operator launched; "
                                         "MindSpore: the profiler folder's operator types and operators"));
    m_groupCombo = header->addSelector(QStringLiteral("operatorsGroupBy"));
    m_groupCombo->addItem(tr("Group by name"));
    m_groupCombo->addItem(tr("Group by name and input shapes"));
    m_filterEdit = header->addFilter(QStringLiteral("operatorsFilter"), tr("Filter by name"));

    m_status = new QLabel(header);
    m_status->setObjectName(QStringLiteral("operatorsStatus"));
    m_status->setForegroundRole(QPalette::PlaceholderText);
    header->addWidget(m_status);

    // Exports the table, not a chart: a plain button rather than the header's Export menu.
    m_exportButton = new QToolButton(header);
    m_exportButton->setObjectName(QStringLiteral("operatorsExport"));
    m_exportButton->setText(tr("Export CSV…"));
    m_exportButton->setIcon(chartIcon(QStringLiteral("chart-export-table")));
    m_exportButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_exportButton->setAutoRaise(true);
    m_exportButton->setToolTip(tr("Write the table as shown (filtered and sorted) to a CSV file"));
    header->addWidget(m_exportButton);
    // In a narrow dock the filter and the row count stay; Export, then the grouping, then the view leave
    // for the "…" menu.
    header->enableOverflowMenu();
    header->setOverflowPriority(m_status, PanelHeader::kAlwaysShown);
    header->setOverflowPriority(m_groupCombo, 1);
    header->setOverflowPriority(m_viewCombo, 2);
    layout->addWidget(header);

    m_model = new OperatorStatsModel(this);
    // The filter matches the name and input dims only, not the formatted numbers.
    auto* proxy = new TextFilterProxy(
        [](const QAbstractItemModel* source, int row) {
            const auto* model = static_cast<const OperatorStatsModel*>(source);
            QStringList texts;
            for (const auto column : { OperatorStatsModel::Column::Name, OperatorStatsModel::Column::InputDims }) {
                if (const int c = model->columnOf(column); c >= 0)
                    texts << model->index(row, c).data(Qt::DisplayRole).toString();
            }
            return texts;
        },
        this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(OperatorStatsModel::SortRole);
    proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_proxy = proxy;

    m_profilerModel = new ProfilerOpTableModel(this);
    m_profilerProxy = new QSortFilterProxyModel(this);
    m_profilerProxy->setSourceModel(m_profilerModel);
    m_profilerProxy->setSortRole(ProfilerOpTableModel::SortRole);
    m_profilerProxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_profilerProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_profilerProxy->setFilterKeyColumn(0);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("operatorsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setSectionsMovable(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setFrameShape(QFrame::NoFrame);
    layout->addWidget(m_table, 1);
    m_table->viewport()->installEventFilter(this);
    rebuildViewCombo();

    connect(m_viewCombo, &QComboBox::currentIndexChanged, this, &OperatorsPanel::applyViewSelection);
    connect(m_groupCombo, &QComboBox::currentIndexChanged, this,
            [this](int index) { setGroupByInputDims(index == 1); });
    connect(m_filterEdit, &QLineEdit::textChanged, this, &OperatorsPanel::setFilterText);
    connect(m_exportButton, &QToolButton::clicked, this, &OperatorsPanel::requestCsvExport);
    connect(m_table, &QTableView::activated, this, &OperatorsPanel::onActivated);
    connect(m_table, &QWidget::customContextMenuRequested, this, &OperatorsPanel::showContextMenu);
    connectSelection();
    connect(m_profilerModel, &QAbstractItemModel::modelReset, this, [this] {
        if (m_showingProfiler)
            layoutTable();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        if (!m_showingProfiler)
            layoutTable();
    });
}

bool OperatorsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns(false);
    return QWidget::eventFilter(watched, event);
}

void OperatorsPanel::fitColumns(bool measure)
{
    const int name = m_showingProfiler ? m_profilerModel->columnOf(ProfilerOpTableModel::Column::Name)
                                       : m_model->columnOf(OperatorStatsModel::Column::Name);
    const int columns = currentProxy()->columnCount();
    if (name < 0 || columns == 0)
        return;
    if (measure) {
        m_table->resizeColumnsToContents();
        for (int c = 0; c < columns; ++c)
            m_table->setColumnWidth(c, m_table->columnWidth(c) + 8);
        QList<int> shapes;
        if (m_showingProfiler) {
            for (const auto column :
                 { ProfilerOpTableModel::Column::InputShapes, ProfilerOpTableModel::Column::OutputShapes,
                   ProfilerOpTableModel::Column::Formats })
                shapes << m_profilerModel->columnOf(column);
        } else {
            shapes << m_model->columnOf(OperatorStatsModel::Column::InputDims);
        }
        for (const int c : shapes) {
            if (c >= 0)
                m_table->setColumnWidth(c, std::clamp(m_table->columnWidth(c), 80, 220));
        }
        m_nameWidth = std::clamp(m_table->columnWidth(name), 160, 420);
    }
    int others = 0;
    for (int c = 0; c < columns; ++c) {
        if (c != name)
            others += m_table->columnWidth(c);
    }
    // Long names are elided in the middle before the table scrolls sideways.
    const int available = m_table->viewport()->width() - others;
    m_table->setColumnWidth(name, std::max(std::min(m_nameWidth, 160), available));
}

void OperatorsPanel::setStore(std::shared_ptr<const models::trace::TraceStore> store)
{
    if (store == m_store)
        return;
    const bool hadStore = bool(m_store);
    m_store = std::move(store);
    m_cache[0].reset();
    m_cache[1].reset();
    recompute();
    if (hadStore != bool(m_store))
        rebuildViewCombo();
}

void OperatorsPanel::setStatistics(std::shared_ptr<const models::trace::OperatorStatistics> statistics,
                                   std::shared_ptr<const models::trace::TraceStore> store)
{
    if (m_cancel)
        m_cancel->store(true);
    ++m_generation;
    m_computing = false;
    if (store != m_store) {
        m_cache[0].reset();
        m_cache[1].reset();
    }
    const bool hadStore = bool(m_store);
    m_store = std::move(store);
    if (hadStore != bool(m_store))
        rebuildViewCombo();
    if (statistics) {
        m_groupByDims = statistics->groupedByInputDims;
        m_cache[m_groupByDims ? 1 : 0] = statistics;
        const QSignalBlocker blocker(m_groupCombo);
        m_groupCombo->setCurrentIndex(m_groupByDims ? 1 : 0);
    }
    applyStatistics(std::move(statistics));
}

void OperatorsPanel::recompute()
{
    if (m_cancel)
        m_cancel->store(true);
    const quint64 generation = ++m_generation;
    if (!m_store) {
        m_computing = false;
        applyStatistics(nullptr);
        return;
    }
    if (const auto& cached = m_cache[m_groupByDims ? 1 : 0]) {
        m_computing = false;
        applyStatistics(cached);
        return;
    }
    m_computing = true;
    updateStatus();
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancel;
    const bool byDims = m_groupByDims;
    QtConcurrent::run(models::workerPool(), [store = m_store, byDims, cancel] {
        models::trace::OperatorStatisticsOptions options;
        options.groupByInputDims = byDims;
        options.cancelled = [cancel] { return cancel->load(); };
        return std::make_shared<const models::trace::OperatorStatistics>(
            models::trace::computeOperatorStatistics(*store, options));
    }).then(this, [this, generation, byDims](std::shared_ptr<const models::trace::OperatorStatistics> statistics) {
        if (generation != m_generation)
            return; // settings or store changed meanwhile
        m_computing = false;
        m_cache[byDims ? 1 : 0] = statistics;
        applyStatistics(std::move(statistics));
    });
}

void OperatorsPanel::applyStatistics(std::shared_ptr<const models::trace::OperatorStatistics> statistics)
{
    m_model->setStatistics(std::move(statistics), m_store);
    updateStatus();
    emit statisticsReady();
}

void OperatorsPanel::setGroupByInputDims(bool enabled)
{
    if (m_groupCombo->currentIndex() != (enabled ? 1 : 0)) {
        const QSignalBlocker blocker(m_groupCombo);
        m_groupCombo->setCurrentIndex(enabled ? 1 : 0);
    }
    if (enabled == m_groupByDims)
        return;
    m_groupByDims = enabled;
    recompute();
}

void OperatorsPanel::setView(View view)
{
    const int index = m_viewCombo->findData(int(view));
    if (index != m_viewCombo->currentIndex()) {
        const QSignalBlocker blocker(m_viewCombo);
        m_viewCombo->setCurrentIndex(index);
    }
    if (m_showingProfiler) {
        m_showingProfiler = false;
        m_table->setModel(m_proxy);
        connectSelection();
    }
    m_groupCombo->setVisible(true);
    m_groupCombo->setEnabled(view != View::Kernels);
    m_model->setView(view);
    // A model reset only follows when the view changes; the columns of the trace table must come back
    // after a profiler view either way.
    layoutTable();
}

void OperatorsPanel::setProfilerData(std::shared_ptr<const models::profiler::ProfilerRunData> run, int rankIndex)
{
    if (run
        && (rankIndex < 0 || rankIndex >= int(run->ranks.size())
            || run->ranks[std::size_t(rankIndex)].operators.isEmpty()))
        run.reset();
    if (run == m_profilerRun && rankIndex == m_profilerRank)
        return;
    m_profilerRun = std::move(run);
    m_profilerRank = m_profilerRun ? rankIndex : -1;
    m_profilerModel->setData(m_profilerRun, m_profilerRank);
    rebuildViewCombo();
}

bool OperatorsPanel::showProfilerView(bool types)
{
    const int index = m_viewCombo->findData(types ? kProfilerTypes : kProfilerOps);
    if (index < 0)
        return false;
    m_viewCombo->setCurrentIndex(index);
    applyViewSelection();
    return true;
}

void OperatorsPanel::rebuildViewCombo()
{
    const QVariant previous = m_viewCombo->currentData();
    {
        const QSignalBlocker blocker(m_viewCombo);
        m_viewCombo->clear();
        if (m_store || !m_profilerRun) {
            m_viewCombo->addItem(tr("Host operators"), int(View::Host));
            m_viewCombo->addItem(tr("Device operators"), int(View::Device));
            m_viewCombo->addItem(tr("Kernels"), int(View::Kernels));
        }
        if (m_profilerRun) {
            if (m_viewCombo->count() > 0)
                m_viewCombo->insertSeparator(m_viewCombo->count());
            const int rank = m_profilerRun->ranks[std::size_t(m_profilerRank)].rank;
            const QString suffix = rank >= 0 ? tr(" (MindSpore, rank %1)").arg(rank) : tr(" (MindSpore)");
            m_viewCombo->addItem(tr("Operator types") + suffix, kProfilerTypes);
            m_viewCombo->addItem(tr("Operators") + suffix, kProfilerOps);
        }
        int index = previous.isValid() ? m_viewCombo->findData(previous) : -1;
        if (index < 0)
            index = m_store || !m_profilerRun ? m_viewCombo->findData(int(m_model->view()))
                                              : m_viewCombo->findData(kProfilerTypes);
        m_viewCombo->setCurrentIndex(std::max(0, index));
    }
    applyViewSelection();
}

void OperatorsPanel::applyViewSelection()
{
    const int data = m_viewCombo->currentData().toInt();
    if (data != kProfilerTypes && data != kProfilerOps) {
        setView(View(data));
        return;
    }
    const bool switching = !m_showingProfiler;
    m_showingProfiler = true;
    m_groupCombo->setVisible(false);
    if (switching) {
        m_table->setModel(m_profilerProxy);
        connectSelection();
    }
    const auto level = data == kProfilerTypes ? ProfilerOpTableModel::Level::Types : ProfilerOpTableModel::Level::Ops;
    if (m_profilerModel->level() != level)
        m_profilerModel->setLevel(level); // resets the model, which lays the table out
    else if (switching)
        layoutTable();
}

void OperatorsPanel::layoutTable()
{
    static_assert(int(OperatorStatsModel::ShareRole) == int(ProfilerOpTableModel::ShareRole),
                  "one share delegate draws both tables");
    const int share = m_showingProfiler ? m_profilerModel->columnOf(ProfilerOpTableModel::Column::Share)
                                        : m_model->columnOf(OperatorStatsModel::Column::Share);
    for (int c = 0; c < currentProxy()->columnCount(); ++c)
        m_table->setItemDelegateForColumn(c, nullptr);
    if (share >= 0) {
        auto* delegate = m_table->findChild<ShareBarDelegate*>();
        if (!delegate)
            delegate = new ShareBarDelegate(OperatorStatsModel::ShareRole, m_table);
        m_table->setItemDelegateForColumn(share, delegate);
    }
    sortByDefault();
    fitColumns(true);
    updateStatus();
}

void OperatorsPanel::connectSelection()
{
    disconnect(m_selectionConnection);
    m_selectionConnection = connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            QString name;
            if (current.isValid())
                name = m_showingProfiler ? current.siblingAtColumn(0).data(Qt::DisplayRole).toString()
                                         : current.data(OperatorStatsModel::NameRole).toString();
            emit operatorSelected(name);
        });
}

QSortFilterProxyModel* OperatorsPanel::currentProxy() const
{
    return m_showingProfiler ? m_profilerProxy : m_proxy;
}

OperatorsPanel::View OperatorsPanel::view() const
{
    return m_model->view();
}

void OperatorsPanel::setFilterText(const QString& text)
{
    if (m_filterEdit->text() != text) {
        const QSignalBlocker blocker(m_filterEdit);
        m_filterEdit->setText(text);
    }
    static_cast<TextFilterProxy*>(m_proxy)->setText(text);
    m_profilerProxy->setFilterFixedString(text.trimmed());
    updateStatus();
}

QString OperatorsPanel::filterText() const
{
    return m_filterEdit->text();
}

int OperatorsPanel::visibleRowCount() const
{
    return currentProxy()->rowCount();
}

void OperatorsPanel::sortByDefault()
{
    if (m_showingProfiler) {
        m_table->sortByColumn(m_profilerModel->columnOf(ProfilerOpTableModel::Column::Total), Qt::DescendingOrder);
        return;
    }
    const int self = m_model->columnOf(OperatorStatsModel::Column::Self);
    const int column = self >= 0 ? self : m_model->columnOf(OperatorStatsModel::Column::Total);
    m_table->sortByColumn(column, Qt::DescendingOrder);
}

void OperatorsPanel::updateStatus()
{
    if (m_showingProfiler) {
        const int total = m_profilerModel->rowCount();
        const int shown = m_profilerProxy->rowCount();
        const QString rows = m_profilerModel->level() == ProfilerOpTableModel::Level::Types
            ? tr("%n operator type(s)", nullptr, total)
            : tr("%n operator(s)", nullptr, total);
        m_status->setText(shown == total ? rows : tr("%1 of %2").arg(shown).arg(rows));
        return;
    }
    if (m_computing) {
        m_status->setText(tr("Computing…"));
        return;
    }
    const auto& stats = m_model->statistics();
    if (!stats || !m_store) {
        m_status->setText(tr("No profiler trace"));
        return;
    }
    const int total = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    const QString rows
        = m_model->view() == View::Kernels ? tr("%n kernel(s)", nullptr, total) : tr("%n operator(s)", nullptr, total);
    m_status->setText(shown == total ? rows : tr("%1 of %2").arg(shown).arg(rows));
}

void OperatorsPanel::onActivated(const QModelIndex& proxyIndex)
{
    if (!proxyIndex.isValid())
        return;
    if (m_showingProfiler) {
        emit operatorActivated(proxyIndex.siblingAtColumn(0).data(Qt::DisplayRole).toString());
        return;
    }
    const QModelIndex source = m_proxy->mapToSource(proxyIndex);
    emit operatorActivated(source.data(OperatorStatsModel::NameRole).toString());
    const auto [track, slice] = m_model->longestOccurrence(source.row());
    if (track >= 0)
        emit longestOccurrenceRequested(track, slice);
}

void OperatorsPanel::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_table->indexAt(pos);
    QMenu menu(this);
    if (index.isValid()) {
        const QString name = m_showingProfiler
            ? index.siblingAtColumn(0).data(Qt::DisplayRole).toString()
            : m_proxy->mapToSource(index).data(OperatorStatsModel::NameRole).toString();
        menu.addAction(tr("Show in timeline"), this, [this, index] { onActivated(index); });
        menu.addAction(tr("Copy name"), this, [name] { QApplication::clipboard()->setText(name); });
        menu.addSeparator();
    }
    menu.addAction(chartIcon(QStringLiteral("chart-export-table")), tr("Export CSV…"), this,
                   &OperatorsPanel::requestCsvExport);
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

QByteArray OperatorsPanel::toCsv() const
{
    QByteArray out;
    const QSortFilterProxyModel* proxy = currentProxy();
    const int idRole
        = m_showingProfiler ? int(ProfilerOpTableModel::ColumnIdRole) : int(OperatorStatsModel::ColumnIdRole);
    const int valueRole = m_showingProfiler ? int(ProfilerOpTableModel::SortRole) : int(OperatorStatsModel::SortRole);
    const int columns = proxy->columnCount();
    for (int c = 0; c < columns; ++c) {
        if (c)
            out += ',';
        ChartExporter::appendCsvField(out, proxy->headerData(c, Qt::Horizontal, idRole).toString());
    }
    out += '\n';
    for (int r = 0; r < proxy->rowCount(); ++r) {
        for (int c = 0; c < columns; ++c) {
            if (c)
                out += ',';
            const QVariant value = proxy->index(r, c).data(valueRole);
            if (value.typeId() == QMetaType::Double)
                out += QByteArray::number(value.toDouble(), 'g', 6);
            else
                ChartExporter::appendCsvField(out, value.toString());
        }
        out += '\n';
    }
    return out;
}

bool OperatorsPanel::exportCsv(const QString& fileName, QString* errorMessage) const
{
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly) || file.write(toCsv()) < 0 || !file.commit()) {
        if (errorMessage)
            *errorMessage = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(fileName), file.errorString());
        return false;
    }
    return true;
}

void OperatorsPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_fileNameProvider = std::move(provider);
}

QString OperatorsPanel::requestCsvExport()
{
    const QString base = m_showingProfiler
        ? (m_profilerModel->level() == ProfilerOpTableModel::Level::Types ? QStringLiteral("mindspore-operator-types")
                                                                          : QStringLiteral("mindspore-operators"))
        : (m_model->view() == View::Kernels ? QStringLiteral("kernels") : QStringLiteral("operators"));
    QString directory = m_exportDirectory;
    if (directory.isEmpty())
        directory = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (directory.isEmpty() || !QDir(directory).exists())
        directory = QDir::homePath();
    const QDir dir(directory);
    QString fileName = dir.filePath(base + QStringLiteral(".csv"));
    if (m_fileNameProvider) {
        fileName = m_fileNameProvider(ChartExporter::Format::Csv, fileName);
        if (fileName.isEmpty())
            return {};
    } else {
        for (int i = 2; QFileInfo::exists(fileName) && i < 10000; ++i)
            fileName = dir.filePath(QStringLiteral("%1-%2.csv").arg(base).arg(i));
    }
    QString error;
    if (!exportCsv(fileName, &error)) {
        emit exportFailed(error);
        return {};
    }
    emit exported(fileName);
    return fileName;
}

} // namespace runlens::widgets::operators
