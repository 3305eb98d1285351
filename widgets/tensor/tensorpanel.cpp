#include "tensorpanel.h"

#include "common/colormap.h"
#include "common/toolbarstrip.h"
#include "core/workerpool.h"
#include "tensor/heatmapview.h"
#include "tensor/tensorcomparewidget.h"
#include "tensor/tensorexport.h"
#include "tensor/tensorlistmodel.h"
#include "tensor/tensorslice.h"
#include "tensor/tensorstatswidget.h"
#include "tensor/tensortablemodel.h"
#include "tensor/tensortableview.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPointer>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStringList>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cstdlib>

namespace runlens::tensorview {

namespace {

/// Other tensors offered for comparison besides the series' own steps.
constexpr int kMaxCompareChoices = 200;
/// Showing a catalog that took longer than this makes the next summary polls wait and arrive together.
constexpr qint64 kImmediateRebuildMs = 40;

QString safeFileName(QString name)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    name.replace(unsafe, QStringLiteral("_"));
    while (name.startsWith(QLatin1Char('_')) || name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    while (name.endsWith(QLatin1Char('_')))
        name.chop(1);
    return name.isEmpty() ? QStringLiteral("tensor") : name.left(120);
}

QString suffixOf(TensorPanel::ExportFormat format)
{
    switch (format) {
    case TensorPanel::ExportFormat::Csv:
        return QStringLiteral("csv");
    case TensorPanel::ExportFormat::Png:
        return QStringLiteral("png");
    case TensorPanel::ExportFormat::Npy:
        return QStringLiteral("npy");
    }
    return {};
}

QString filterOf(TensorPanel::ExportFormat format)
{
    switch (format) {
    case TensorPanel::ExportFormat::Csv:
        return TensorPanel::tr("CSV files (*.csv)");
    case TensorPanel::ExportFormat::Png:
        return TensorPanel::tr("PNG images (*.png)");
    case TensorPanel::ExportFormat::Npy:
        return TensorPanel::tr("NumPy arrays (*.npy)");
    }
    return {};
}

/// Opens a source at once when that is cheap, else on a worker; `done` runs on `context`'s thread.
void openSource(const std::shared_ptr<const tensor::TensorSource>& source, QObject* context,
                std::function<void(const tensor::TensorResult&)> done)
{
    if (!source) {
        done(tensor::TensorResult { std::nullopt, TensorPanel::tr("The tensor has no readable source.") });
        return;
    }
    if (source->isImmediate()) {
        done(source->open());
        return;
    }
    QtConcurrent::run(workerPool(), [source] {
        return source->open();
    }).then(context, [done = std::move(done)](const tensor::TensorResult& result) { done(result); });
}

} // namespace

TensorPanel::TensorPanel(QWidget* parent)
    : QWidget(parent)
{
    m_listModel = new tensor::TensorListModel(this);
    m_filterModel = new tensor::TensorFilterModel(this);
    m_filterModel->setSourceModel(m_listModel);
    m_ownCache = new TensorStatsCache(this);
    m_summaryTimer = new QTimer(this);
    m_summaryTimer->setSingleShot(true);
    connect(m_summaryTimer, &QTimer::timeout, this, &TensorPanel::rebuildWithSummaries);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    // Toolbar.
    auto* toolbar = new QToolBar(this);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->addWidget(new QLabel(tr("Precision "), toolbar));
    m_precision = new QSpinBox(toolbar);
    m_precision->setObjectName(QStringLiteral("tensorPrecision"));
    m_precision->setRange(1, 17);
    m_precision->setValue(6);
    m_precision->setToolTip(tr("Significant digits shown in the table"));
    toolbar->addWidget(m_precision);
    m_scientific = toolbar->addAction(tr("1e-3"));
    m_scientific->setCheckable(true);
    m_scientific->setToolTip(tr("Scientific notation in the table"));
    toolbar->addSeparator();
    m_colorMap = new QComboBox(toolbar);
    m_colorMap->setObjectName(QStringLiteral("tensorColorMap"));
    for (const ColorMap map : { ColorMap::Viridis, ColorMap::Grey, ColorMap::Diverging })
        m_colorMap->addItem(colorMapName(map), int(map));
    m_colorMap->setToolTip(tr("Heatmap colours; the diverging map is symmetric around 0"));
    toolbar->addWidget(m_colorMap);
    m_scale = new QComboBox(toolbar);
    m_scale->setObjectName(QStringLiteral("tensorScale"));
    m_scale->addItem(tr("Slice range"));
    m_scale->addItem(tr("Whole tensor range"));
    m_scale->setToolTip(tr("Heatmap colours span the slice's min/max or the whole tensor's (once computed)"));
    toolbar->addWidget(m_scale);
    QAction* fit = toolbar->addAction(tr("Fit"));
    fit->setToolTip(tr("Zoom the heatmap to fit"));
    QAction* pixels = toolbar->addAction(tr("1:1"));
    pixels->setToolTip(tr("One element per pixel"));
    toolbar->addSeparator();
    m_exportButton = new QToolButton(toolbar);
    m_exportButton->setText(tr("Export"));
    m_exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(m_exportButton);
    connect(exportMenu->addAction(tr("Slice as CSV…")), &QAction::triggered, this,
            [this] { requestExport(ExportFormat::Csv); });
    connect(exportMenu->addAction(tr("Slice as .npy…")), &QAction::triggered, this,
            [this] { requestExport(ExportFormat::Npy); });
    connect(exportMenu->addAction(tr("Heatmap as PNG…")), &QAction::triggered, this,
            [this] { requestExport(ExportFormat::Png); });
    m_exportButton->setMenu(exportMenu);
    toolbar->addWidget(m_exportButton);
    layout->addWidget(makeToolbarStrip(toolbar, this));

    auto* split = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(split, 1);

    // Left: filter and list.
    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_filter = new QLineEdit(left);
    m_filter->setObjectName(QStringLiteral("tensorFilter"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setPlaceholderText(tr("Filter: name kind:weight step:30"));
    m_filter->setToolTip(tensor::TensorFilterModel::syntaxHelp());
    leftLayout->addWidget(m_filter);
    m_list = new QTreeView(left);
    m_list->setObjectName(QStringLiteral("tensorList"));
    m_list->setModel(m_filterModel);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSortingEnabled(true);
    m_list->sortByColumn(-1, Qt::AscendingOrder);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(QHeaderView::Interactive);
    leftLayout->addWidget(m_list, 1);
    split->addWidget(left);

    // Right: empty state, or the tensor.
    m_pages = new QStackedWidget(split);
    m_empty = new QLabel(tr("No tensors. RunLens reads .npy, .npz and .safetensors files, MindSpore dump "
                            "folders (rank_N/<net>/<graph>/<iteration>/) and the tensors recorded in TensorBoard "
                            "and MindSpore summaries; open a run folder that holds them."),
                         m_pages);
    m_empty->setObjectName(QStringLiteral("tensorEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_pages->addWidget(m_empty);

    auto* content = new QWidget(m_pages);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(4, 0, 0, 0);
    m_header = new QLabel(content);
    m_header->setObjectName(QStringLiteral("tensorHeader"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse
                                      | Qt::LinksAccessibleByKeyboard);
    connect(m_header, &QLabel::linkActivated, this, [this](const QString&) {
        if (m_catalog && m_series >= 0)
            emit nodeRequested(m_catalog->series()[m_series].nodeKey);
    });
    m_header->setWordWrap(true);
    contentLayout->addWidget(m_header);
    m_message = new QLabel(content);
    m_message->setObjectName(QStringLiteral("tensorMessage"));
    m_message->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setVisible(false);
    contentLayout->addWidget(m_message);
    m_slice = new SliceControls(content);
    contentLayout->addWidget(m_slice);

    m_stepBox = new QWidget(content);
    auto* stepLayout = new QHBoxLayout(m_stepBox);
    stepLayout->setContentsMargins(0, 0, 0, 0);
    stepLayout->addWidget(new QLabel(tr("Step"), m_stepBox));
    m_stepSlider = new QSlider(Qt::Horizontal, m_stepBox);
    m_stepSlider->setObjectName(QStringLiteral("tensorStep"));
    m_stepSlider->setToolTip(tr("The same tensor at the steps it was saved at"));
    m_stepSlider->setPageStep(1);
    stepLayout->addWidget(m_stepSlider, 1);
    m_stepLabel = new QLabel(m_stepBox);
    stepLayout->addWidget(m_stepLabel);
    contentLayout->addWidget(m_stepBox);

    auto* viewSplit = new QSplitter(Qt::Vertical, content);
    m_tabs = new QTabWidget(viewSplit);
    m_tableModel = new TensorTableModel(this);
    m_table = new TensorTableView(m_tabs);
    m_table->setModel(m_tableModel);
    m_tabs->addTab(m_table, tr("Table"));
    // The heatmap with its colour scale under it, and why nothing is drawn when that happens.
    auto* heatmapPage = new QWidget(m_tabs);
    auto* heatmapLayout = new QVBoxLayout(heatmapPage);
    heatmapLayout->setContentsMargins(0, 0, 0, 0);
    heatmapLayout->setSpacing(2);
    m_heatmap = new HeatmapView(heatmapPage);
    heatmapLayout->addWidget(m_heatmap, 1);
    auto* legendRow = new QHBoxLayout;
    legendRow->setContentsMargins(4, 0, 4, 2);
    m_heatmapLegend = new QLabel(heatmapPage);
    m_heatmapLegend->setObjectName(QStringLiteral("tensorHeatmapLegend"));
    m_heatmapLegend->setToolTip(tr("Colour scale: the range the colours span (NaN is magenta)"));
    legendRow->addWidget(m_heatmapLegend);
    m_heatmapNote = new QLabel(heatmapPage);
    m_heatmapNote->setObjectName(QStringLiteral("tensorHeatmapNote"));
    m_heatmapNote->setWordWrap(true);
    legendRow->addWidget(m_heatmapNote, 1);
    heatmapLayout->addLayout(legendRow);
    m_tabs->addTab(heatmapPage, tr("Heatmap"));
    auto* comparePage = new QWidget(m_tabs);
    auto* compareLayout = new QVBoxLayout(comparePage);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    auto* compareRow = new QHBoxLayout;
    compareRow->addWidget(new QLabel(tr("Compare with"), comparePage));
    m_compareWith = new QComboBox(comparePage);
    m_compareWith->setObjectName(QStringLiteral("tensorCompareWith"));
    m_compareWith->setToolTip(tr("Another step of this tensor, or another tensor of the same shape; the same "
                                 "slice of both is compared"));
    compareRow->addWidget(m_compareWith, 1);
    compareLayout->addLayout(compareRow);
    m_compare = new TensorCompareWidget(comparePage);
    compareLayout->addWidget(m_compare, 1);
    m_tabs->addTab(comparePage, tr("Compare"));
    viewSplit->addWidget(m_tabs);
    m_stats = new TensorStatsWidget(viewSplit);
    m_stats->setCache(m_ownCache);
    viewSplit->addWidget(m_stats);
    viewSplit->setStretchFactor(0, 3);
    viewSplit->setStretchFactor(1, 1);
    contentLayout->addWidget(viewSplit, 1);
    // A short dock scrolls the inspector instead of forcing the main window taller than the screen.
    auto* contentScroll = new QScrollArea(m_pages);
    contentScroll->setFrameShape(QFrame::NoFrame);
    contentScroll->setWidgetResizable(true);
    contentScroll->setWidget(content);
    m_pages->addWidget(contentScroll);
    split->addWidget(m_pages);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({ 380, 1000 });
    m_cache = m_ownCache;

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        // Filtering moves the list's current row; the shown tensor stays until the user picks another.
        const QScopedValueRollback<bool> selecting(m_selecting, true);
        m_filterModel->setQuery(text);
        const QModelIndex row = m_filterModel->mapFromSource(m_listModel->indexOfSeries(m_series));
        if (row.isValid())
            m_list->setCurrentIndex(row);
    });
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, &TensorPanel::onListCurrentChanged);
    connect(m_slice, &SliceControls::sliceChanged, this, [this] {
        if (m_series >= 0)
            m_sliceStates.insert(m_series, m_slice->state());
        updateView();
    });
    connect(m_stepSlider, &QSlider::valueChanged, this, [this](int value) {
        if (!m_selecting)
            setVersion(value);
    });
    connect(m_precision, &QSpinBox::valueChanged, m_tableModel, &TensorTableModel::setPrecision);
    connect(m_scientific, &QAction::toggled, m_tableModel, &TensorTableModel::setScientific);
    connect(m_colorMap, &QComboBox::currentIndexChanged, this, [this] {
        m_heatmap->setColorMap(ColorMap(m_colorMap->currentData().toInt()));
        updateHeatmapLegend();
    });
    connect(m_scale, &QComboBox::currentIndexChanged, this, &TensorPanel::updateHeatmapRange);
    connect(fit, &QAction::triggered, m_heatmap, &HeatmapView::zoomToFit);
    connect(pixels, &QAction::triggered, m_heatmap, &HeatmapView::zoomToPixels);
    connect(m_heatmap, &HeatmapView::hovered, this, [this](std::int64_t row, std::int64_t col, double value) {
        const QList<std::pair<std::int64_t, std::int64_t>> origins = m_slice->viewOrigins();
        auto coordinate = [&](int axis, std::int64_t i) {
            return axis < origins.size() ? origins[axis].first + i * origins[axis].second : i;
        };
        const QString where = m_heatmap->rows() <= 1 && origins.size() == 1
            ? QString::number(coordinate(0, col))
            : QStringLiteral("%1, %2").arg(coordinate(0, row)).arg(coordinate(1, col));
        emit statusMessage(tr("[%1] = %2").arg(where).arg(value, 0, 'g', 8));
    });
    connect(m_stats, &TensorStatsWidget::wholeStatisticsReady, this, &TensorPanel::onWholeStatistics);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (viewMode() == ViewMode::Compare)
            updateCompare();
        if (viewMode() == ViewMode::Heatmap && m_heatmapNeedsFit) {
            m_heatmapNeedsFit = false;
            m_heatmap->zoomToFit();
        }
        updateHeatmapLegend();
    });
    connect(m_compareWith, &QComboBox::currentIndexChanged, this, &TensorPanel::updateCompare);
    connect(m_ownCache, &TensorStatsCache::ready, this, [this](const QString& location) {
        if (const auto stats = m_cache ? m_cache->find(location) : std::nullopt)
            onWholeStatistics(location, *stats);
    });

    setCatalog(nullptr);
}

TensorPanel::~TensorPanel() = default;

void TensorPanel::setStatsCache(TensorStatsCache* cache)
{
    if (m_cache != m_ownCache && m_cache)
        disconnect(m_cache, nullptr, this, nullptr);
    m_cache = cache ? cache : m_ownCache;
    m_stats->setCache(m_cache);
    if (m_cache != m_ownCache)
        connect(m_cache, &TensorStatsCache::ready, this, [this](const QString& location) {
            if (const auto stats = m_cache->find(location))
                onWholeStatistics(location, *stats);
        });
}

void TensorPanel::setRunFolder(const QString& root)
{
    m_listModel->setRoot(root);
}

void TensorPanel::setCatalog(std::shared_ptr<const tensor::TensorCatalog> catalog)
{
    m_fileCatalog = std::move(catalog);
    m_summaryTimer->stop(); // the summaries gathered so far are shown with the files
    QElapsedTimer clock;
    clock.start();
    applyCatalog(mergedCatalog(), false);
    m_rebuildMs = clock.elapsed();
}

void TensorPanel::addSummaryTensors(const QString& run, const QString& source, const summary::SummaryBatch& batch)
{
    // Every poll of a summary file arrives here; only those carrying tensors change the list.
    if (m_summaryTensors.update(run, source, batch))
        scheduleSummaryRebuild();
}

void TensorPanel::removeSummaryRun(const QString& run)
{
    if (m_summaryTensors.removeRun(run))
        rebuildWithSummaries();
}

void TensorPanel::clearSummaryTensors()
{
    if (m_summaryTensors.isEmpty())
        return;
    m_summaryTensors.clear();
    rebuildWithSummaries();
}

bool TensorPanel::hasPendingSummaryTensors() const
{
    return m_summaryTimer->isActive();
}

void TensorPanel::scheduleSummaryRebuild()
{
    if (m_summaryTimer->isActive())
        return;
    if (m_rebuildMs <= kImmediateRebuildMs) {
        rebuildWithSummaries();
        return;
    }
    // A live run polls its files every few seconds; a large list is rebuilt at most every few times
    // its cost, so the window stays responsive.
    m_summaryTimer->start(int(std::clamp<qint64>(4 * m_rebuildMs, 250, 3000)));
}

void TensorPanel::rebuildWithSummaries()
{
    m_summaryTimer->stop();
    QElapsedTimer clock;
    clock.start();
    applyCatalog(mergedCatalog(), true);
    m_rebuildMs = clock.elapsed();
}

std::shared_ptr<const tensor::TensorCatalog> TensorPanel::mergedCatalog() const
{
    if (m_summaryTensors.isEmpty())
        return m_fileCatalog;
    if (!m_fileCatalog)
        return std::make_shared<const tensor::TensorCatalog>(m_summaryTensors.series());
    return std::make_shared<const tensor::TensorCatalog>(m_fileCatalog->withSeries(m_summaryTensors.series()));
}

namespace {

QString seriesKey(const tensor::TensorSeries& s)
{
    return s.run + QLatin1Char('\n') + QString::number(s.rank) + QLatin1Char('\n') + s.name;
}

} // namespace

void TensorPanel::applyCatalog(std::shared_ptr<const tensor::TensorCatalog> catalog, bool keepShown)
{
    // What is shown, by name rather than by index: the new catalog may order its series differently.
    QString shownKey;
    QString shownLocation;
    int shownStep = -1;
    QString compareLocation;
    QHash<QString, SliceControls::State> states;
    if (keepShown && m_catalog) {
        if (m_series >= 0 && m_tensor)
            m_sliceStates.insert(m_series, m_slice->state());
        for (auto it = m_sliceStates.cbegin(); it != m_sliceStates.cend(); ++it)
            if (it.key() >= 0 && it.key() < m_catalog->series().size())
                states.insert(seriesKey(m_catalog->series()[it.key()]), it.value());
        if (const tensor::TensorInfo* info = currentInfo()) {
            shownKey = seriesKey(m_catalog->series()[m_series]);
            shownLocation = info->location();
            shownStep = info->step;
            compareLocation = m_compareWith->currentData().toString();
        }
    }

    m_catalog = std::move(catalog);
    m_sliceStates.clear();
    int keptSeries = -1;
    if (m_catalog) {
        for (int i = 0; i < m_catalog->series().size(); ++i) {
            const QString key = seriesKey(m_catalog->series()[i]);
            const auto state = states.constFind(key);
            if (state != states.constEnd())
                m_sliceStates.insert(i, *state);
            if (!shownKey.isEmpty() && key == shownKey)
                keptSeries = i;
        }
    }
    m_series = m_version = -1;
    {
        const QScopedValueRollback<bool> selecting(m_selecting, true);
        m_listModel->setCatalog(m_catalog);
    }
    m_list->setRootIsDecorated(m_listModel->isGrouped());
    if (m_listModel->isGrouped())
        m_list->expandAll();
    for (int c = 1; c < tensor::TensorListModel::ColumnCount; ++c)
        m_list->resizeColumnToContents(c);
    // Names get the room the other columns leave, within reason.
    m_list->resizeColumnToContents(tensor::TensorListModel::NameColumn);
    m_list->setColumnWidth(tensor::TensorListModel::NameColumn,
                           std::min(m_list->columnWidth(tensor::TensorListModel::NameColumn), 320));
    const bool empty = !m_catalog || m_catalog->isEmpty();
    m_pages->setCurrentIndex(empty ? 0 : 1);
    if (!empty) {
        // Statistics computed before (another panel, an earlier catalog) show their badge at once.
        for (const tensor::TensorSeries& s : m_catalog->series())
            for (const tensor::TensorInfo& info : s.versions)
                if (const auto stats = m_cache->find(info.location()))
                    m_listModel->setStatistics(info.location(), stats->nan + stats->posInf + stats->negInf > 0);
    }

    const auto [keptAt, keptVersion] = keptSeries >= 0 ? m_catalog->findLocation(shownLocation) : std::pair { -1, -1 };
    if (keptSeries >= 0 && keptAt == keptSeries && m_tensor) {
        // The shown tensor is still there (a summary grew by a step): keep it open, refresh around it.
        m_series = keptSeries;
        m_version = keptVersion;
        {
            const QScopedValueRollback<bool> selecting(m_selecting, true);
            const QModelIndex row = m_filterModel->mapFromSource(m_listModel->indexOfSeries(m_series));
            if (row.isValid())
                m_list->setCurrentIndex(row);
        }
        updateStepControls();
        updateHeader();
        fillCompareChoices();
        const int compareIndex = m_compareWith->findData(compareLocation);
        if (compareIndex >= 0 && compareIndex != m_compareWith->currentIndex())
            m_compareWith->setCurrentIndex(compareIndex); // updates the comparison
        else if (viewMode() == ViewMode::Compare && m_compareWith->currentData().toString() != compareLocation)
            updateCompare();
        return;
    }

    m_tensor.reset();
    ++m_openSerial;
    m_slice->clear();
    m_tableModel->setTensor({});
    m_heatmap->setTensor({});
    m_stats->clear();
    m_compare->clear();
    m_compareWith->clear();
    m_header->clear();
    m_message->setVisible(false);
    if (keptSeries >= 0) {
        // The shown step is gone (the summary's reservoir let it go): the nearest step of the same tensor.
        const tensor::TensorSeries& s = m_catalog->series()[keptSeries];
        int nearest = int(s.versions.size()) - 1;
        for (int v = 0; v < s.versions.size(); ++v)
            if (std::abs(qint64(s.versions[v].step) - shownStep)
                < std::abs(qint64(s.versions[nearest].step) - shownStep))
                nearest = v;
        showSeries(keptSeries, nearest);
    } else if (!empty) {
        showSeries(0, int(m_catalog->series().first().versions.size()) - 1);
    }
    updateStepControls();
}

const tensor::TensorInfo* TensorPanel::currentInfo() const
{
    if (!m_catalog || m_series < 0 || m_series >= m_catalog->series().size())
        return nullptr;
    const tensor::TensorSeries& s = m_catalog->series()[m_series];
    return m_version >= 0 && m_version < s.versions.size() ? &s.versions[m_version] : nullptr;
}

const tensor::TensorInfo* TensorPanel::infoAt(const QString& location) const
{
    if (!m_catalog)
        return nullptr;
    const auto [series, version] = m_catalog->findLocation(location);
    return series < 0 ? nullptr : &m_catalog->series()[series].versions[version];
}

QString TensorPanel::currentLocation() const
{
    const tensor::TensorInfo* info = currentInfo();
    return info ? info->location() : QString();
}

std::optional<tensor::Tensor> TensorPanel::currentView() const
{
    return m_tensor ? m_slice->view() : std::nullopt;
}

bool TensorPanel::showLocation(const QString& location)
{
    if (!m_catalog)
        return false;
    auto [series, version] = m_catalog->findLocation(location);
    if (series < 0)
        std::tie(series, version) = m_catalog->findLocation(QDir::cleanPath(location));
    if (series < 0)
        return false;
    showSeries(series, version);
    return true;
}

bool TensorPanel::showNodeKey(const QString& key)
{
    if (!m_catalog)
        return false;
    const QList<int> matches = m_catalog->findNodeKey(key);
    if (matches.isEmpty())
        return false;
    const tensor::TensorSeries& s = m_catalog->series()[matches.first()];
    int version = int(s.versions.size()) - 1;
    if (const tensor::TensorInfo* info = currentInfo()) {
        for (int v = 0; v < s.versions.size(); ++v)
            if (s.versions[v].step == info->step)
                version = v;
    }
    showSeries(matches.first(), version);
    return true;
}

void TensorPanel::showSeries(int series, int version)
{
    if (!m_catalog || series < 0 || series >= m_catalog->series().size())
        return;
    const bool sameSeries = series == m_series;
    if (!sameSeries && m_series >= 0 && m_tensor)
        m_sliceStates.insert(m_series, m_slice->state());
    m_series = series;
    m_version = std::clamp(version, 0, int(m_catalog->series()[series].versions.size()) - 1);

    {
        // Select the row without reopening through onListCurrentChanged.
        const QScopedValueRollback<bool> selecting(m_selecting, true);
        QModelIndex row = m_filterModel->mapFromSource(m_listModel->indexOfSeries(series));
        if (!row.isValid()) {
            m_filter->clear(); // the filter hid it
            row = m_filterModel->mapFromSource(m_listModel->indexOfSeries(series));
        }
        m_list->setCurrentIndex(row);
        m_list->scrollTo(row);
        updateStepControls();
    }
    openCurrent(sameSeries);
}

void TensorPanel::setVersion(int index)
{
    if (m_series < 0 || index == m_version)
        return;
    showSeries(m_series, index);
}

void TensorPanel::onListCurrentChanged()
{
    if (m_selecting)
        return;
    const int series
        = m_filterModel->mapToSource(m_list->currentIndex()).data(tensor::TensorListModel::SeriesIndexRole).toInt();
    if (series < 0 || series == m_series || !m_catalog)
        return;
    // Stay at the shown step when the new series has it.
    const tensor::TensorSeries& s = m_catalog->series()[series];
    int version = int(s.versions.size()) - 1;
    if (const tensor::TensorInfo* info = currentInfo())
        for (int v = 0; v < s.versions.size(); ++v)
            if (s.versions[v].step == info->step)
                version = v;
    showSeries(series, version);
}

void TensorPanel::updateStepControls()
{
    const QScopedValueRollback<bool> selecting(m_selecting, true);
    const int count = m_catalog && m_series >= 0 ? int(m_catalog->series()[m_series].versions.size()) : 0;
    m_stepBox->setVisible(count > 1);
    m_stepSlider->setRange(0, std::max(0, count - 1));
    m_stepSlider->setValue(std::max(0, m_version));
    const tensor::TensorInfo* info = currentInfo();
    m_stepLabel->setText(info ? tr("step %1 (%2 of %3)").arg(info->step).arg(m_version + 1).arg(count) : QString());
}

void TensorPanel::openCurrent(bool keepSlice)
{
    const tensor::TensorInfo* info = currentInfo();
    if (!info)
        return;
    const quint64 serial = ++m_openSerial;
    const QString location = info->location();
    updateHeader();
    if (info->source && !info->source->isImmediate())
        emit statusMessage(tr("Opening %1…").arg(location));
    QPointer<TensorPanel> self(this);
    openSource(info->source, this, [self, serial, keepSlice](const tensor::TensorResult& result) {
        if (self && serial == self->m_openSerial)
            self->applyOpened(result, keepSlice);
    });
    emit currentLocationChanged(location);
}

void TensorPanel::applyOpened(const tensor::TensorResult& result, bool keepSlice)
{
    const tensor::TensorInfo* info = currentInfo();
    if (!info)
        return;
    if (!result.tensor) {
        m_tensor.reset();
        // Importers name the file in their messages; a message that does not gets the location.
        if (result.error.isEmpty())
            showMessage(tr("Cannot open %1.").arg(info->location()));
        else if (!result.error.contains(info->path))
            showMessage(tr("Cannot open %1: %2").arg(info->location(), result.error));
        else
            showMessage(result.error);
        m_slice->clear();
        m_tableModel->setTensor({});
        m_heatmap->setTensor({});
        m_stats->clear();
        m_compare->clear();
        updateHeader();
        emit statusMessage(m_message->text());
        return;
    }
    showMessage({});
    const bool sameShape = m_tensor && m_tensor->shape == result.tensor->shape;
    m_tensor = result.tensor;
    if (keepSlice && sameShape) {
        m_slice->setTensor(*m_tensor, true);
    } else {
        m_slice->setTensor(*m_tensor);
        const auto saved = m_sliceStates.constFind(m_series);
        if (saved != m_sliceStates.constEnd())
            m_slice->setState(*saved);
    }
    m_stats->setWhole(info->location(), *m_tensor);
    updateHeader();
    fillCompareChoices();
    updateView();
}

void TensorPanel::showMessage(const QString& message)
{
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

void TensorPanel::setNodeLinksEnabled(bool enabled)
{
    m_nodeLinks = enabled;
    updateHeader();
}

void TensorPanel::updateHeader()
{
    const tensor::TensorInfo* info = currentInfo();
    if (!info) {
        m_header->clear();
        return;
    }
    const tensor::TensorSeries& s = m_catalog->series()[m_series];
    QStringList lines;
    QString title = QStringLiteral("<b>%1</b>").arg(s.name.toHtmlEscaped());
    // The graph node or module the tensor belongs to, one click away when a graph is open.
    if (!s.nodeKey.isEmpty() && m_nodeLinks)
        title += QStringLiteral(" &nbsp; <a href='node'>%1</a>")
                     .arg(tr("Show %1 in the graph").arg(s.nodeKey).toHtmlEscaped());
    lines << title;
    const std::vector<std::int64_t>& shape = m_tensor ? m_tensor->shape : info->shape;
    QString type = tr("%1 %2").arg(QLatin1String(tensor::dtypeName(info->dtype)), tensor::shapeText(shape));
    if (m_tensor) {
        type += tr(" · strides %1 bytes").arg(tensor::shapeText(m_tensor->strides));
        if (m_tensor->swap)
            type += tr(" · byte-swapped");
    }
    type += tr(" · %1").arg(tensor::TensorListModel::humanBytes(info->byteSize));
    if (!s.kind.isEmpty())
        type += tr(" · %1").arg(s.kind);
    if (info->step >= 0)
        type += tr(" · step %1").arg(info->step);
    lines << type.toHtmlEscaped();
    QString file = info->path;
    if (tensor::SummaryTensorSet::isSummaryTensor(*info))
        file = tr("summary file %1, tag %2").arg(info->path, tensor::SummaryTensorSet::tagOf(*info));
    else if (!info->member.isEmpty())
        file = tr("%1, member %2").arg(info->path, info->member);
    lines << file.toHtmlEscaped();
    if (!info->note.isEmpty())
        lines << QStringLiteral("<i>%1</i>").arg(info->note.toHtmlEscaped());
    if (info->fileMetadata) {
        // What the writer recorded about the file (safetensors `__metadata__`): a line, the rest on hover.
        QStringList pairs;
        for (auto it = info->fileMetadata->cbegin(); it != info->fileMetadata->cend(); ++it)
            pairs << QStringLiteral("%1 = %2").arg(it.key(), it.value());
        const QString all = pairs.join(QStringLiteral(", "));
        lines << tr("File metadata: %1")
                     .arg(m_header->fontMetrics().elidedText(all, Qt::ElideRight, 600))
                     .toHtmlEscaped();
        m_header->setToolTip(info->location() + QLatin1Char('\n') + pairs.join(QLatin1Char('\n')));
    }
    m_header->setText(lines.join(QStringLiteral("<br>")));
    if (!info->fileMetadata)
        m_header->setToolTip(info->location());
}

void TensorPanel::updateView()
{
    const std::optional<tensor::Tensor> view = currentView();
    if (!view) {
        m_tableModel->setTensor({});
        m_heatmap->setTensor({});
        return;
    }
    m_tableModel->setTensor(*view);
    const QList<std::pair<std::int64_t, std::int64_t>> origins = m_slice->viewOrigins();
    const auto rows = origins.value(0, { 0, 1 });
    const auto cols = origins.value(1, { 0, 1 });
    m_tableModel->setAxisOrigins(rows.first, rows.second, cols.first, cols.second);
    m_heatmap->setTensor(*view);
    // A new shape is fitted into the view; stepping through versions keeps the user's zoom.
    if (view->shape != m_heatmapShape) {
        m_heatmapShape = view->shape;
        m_heatmapNeedsFit = viewMode() != ViewMode::Heatmap;
        if (!m_heatmapNeedsFit)
            m_heatmap->zoomToFit();
    }
    m_stats->setSlice(*view);
    updateHeatmapRange();
    if (viewMode() == ViewMode::Compare)
        updateCompare();
}

void TensorPanel::updateHeatmapLegend()
{
    // The slice's range is only worth computing when the heatmap is in front; the tab switch asks again.
    if (viewMode() != ViewMode::Heatmap)
        return;
    const bool drawn = m_heatmap->rows() > 0 && m_heatmap->message().isEmpty();
    m_heatmapLegend->setVisible(drawn);
    if (drawn)
        m_heatmapLegend->setPixmap(QPixmap::fromImage(m_heatmap->colorLegend()));
    m_heatmapNote->setText(m_heatmap->message());
}

void TensorPanel::updateHeatmapRange()
{
    const bool global = m_scale->currentIndex() == 1;
    const QString location = currentLocation();
    const auto stats = global && m_cache && !location.isEmpty() ? m_cache->find(location) : std::nullopt;
    if (stats && stats->finite > 0) {
        m_heatmap->setFixedRange(stats->min, stats->max);
        m_heatmap->setScale(HeatmapView::Scale::Fixed);
    } else {
        m_heatmap->setScale(HeatmapView::Scale::Slice);
    }
    updateHeatmapLegend();
}

void TensorPanel::onWholeStatistics(const QString& location, const tensor::TensorStatistics& statistics)
{
    if (statistics.cancelled)
        return;
    m_listModel->setStatistics(location, statistics.nan + statistics.posInf + statistics.negInf > 0);
    if (location == currentLocation())
        updateHeatmapRange();
}

void TensorPanel::fillCompareChoices()
{
    const QSignalBlocker blocker(m_compareWith);
    m_compareWith->clear();
    const tensor::TensorInfo* info = currentInfo();
    if (!info || !m_tensor)
        return;
    const tensor::TensorSeries& s = m_catalog->series()[m_series];
    for (int v = 0; v < s.versions.size(); ++v) {
        if (v == m_version || s.versions[v].shape != m_tensor->shape)
            continue;
        m_compareWith->addItem(tr("step %1").arg(s.versions[v].step), s.versions[v].location());
    }
    // The previous step by default; the next one when this is the first.
    int preferred = -1;
    for (int i = 0; i < m_compareWith->count(); ++i)
        if (const tensor::TensorInfo* other = infoAt(m_compareWith->itemData(i).toString()))
            if (other->step < info->step)
                preferred = i;
    int others = 0;
    for (int i = 0; i < m_catalog->series().size() && others < kMaxCompareChoices; ++i) {
        if (i == m_series)
            continue;
        const tensor::TensorSeries& o = m_catalog->series()[i];
        for (const tensor::TensorInfo& version : o.versions) {
            if (version.shape != m_tensor->shape)
                continue;
            const QString label = version.step >= 0 ? tr("%1 (step %2)").arg(o.name).arg(version.step) : o.name;
            m_compareWith->addItem(label, version.location());
            if (++others >= kMaxCompareChoices)
                break;
        }
    }
    m_compareWith->setCurrentIndex(preferred >= 0 ? preferred : (m_compareWith->count() > 0 ? 0 : -1));
}

void TensorPanel::updateCompare()
{
    const tensor::TensorInfo* info = currentInfo();
    const std::optional<tensor::Tensor> view = currentView();
    const tensor::TensorInfo* other = infoAt(m_compareWith->currentData().toString());
    if (!info || !view || !other) {
        m_compare->clear();
        return;
    }
    const quint64 serial = ++m_compareSerial;
    const QString expression = m_slice->expression();
    const bool transposed = m_slice->isTransposed();
    const QString labelA = info->step >= 0 ? tr("step %1").arg(info->step) : m_catalog->series()[m_series].name;
    const QString labelB = m_compareWith->currentText();
    const tensor::Tensor a = *view;
    QPointer<TensorPanel> self(this);
    openSource(other->source, this, [=](const tensor::TensorResult& result) {
        if (!self || serial != self->m_compareSerial)
            return;
        if (!result.tensor) {
            self->m_compare->clear();
            emit self->statusMessage(result.error);
            return;
        }
        tensor::SliceResult sliced = tensor::sliceTensor(*result.tensor, expression);
        if (!sliced.tensor) {
            self->m_compare->clear();
            emit self->statusMessage(sliced.error);
            return;
        }
        tensor::Tensor b = std::move(*sliced.tensor);
        if (transposed && b.rank() == 2) {
            std::swap(b.shape[0], b.shape[1]);
            std::swap(b.strides[0], b.strides[1]);
        }
        self->m_compare->setTensors(a, labelA, b, labelB);
    });
}

void TensorPanel::setViewMode(ViewMode mode)
{
    m_tabs->setCurrentIndex(int(mode));
}

TensorPanel::ViewMode TensorPanel::viewMode() const
{
    return ViewMode(std::clamp(m_tabs->currentIndex(), 0, 2));
}

QString TensorPanel::defaultExportDirectory() const
{
    if (!m_exportDirectory.isEmpty())
        return m_exportDirectory;
    QString dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (dir.isEmpty() || !QDir(dir).exists())
        dir = QDir::homePath();
    return dir;
}

QString TensorPanel::suggestedExportName(ExportFormat format) const
{
    const tensor::TensorInfo* info = currentInfo();
    QString base = info ? m_catalog->series()[m_series].name : QStringLiteral("tensor");
    if (info && info->step >= 0)
        base += QStringLiteral("-step%1").arg(info->step);
    const QString expression = m_slice->expression();
    if (!expression.isEmpty() && m_tensor && m_tensor->rank() > 2)
        base += QLatin1Char('-') + expression;
    return safeFileName(base) + QLatin1Char('.') + suffixOf(format);
}

QString TensorPanel::requestExport(ExportFormat format)
{
    if (!currentView()) {
        emit statusMessage(tr("Nothing to export: no tensor is shown."));
        return {};
    }
    const QDir dir(defaultExportDirectory());
    QString fileName = dir.filePath(suggestedExportName(format));
    if (m_fileNameProvider) {
        fileName = m_fileNameProvider(fileName, filterOf(format));
        if (fileName.isEmpty())
            return {};
    } else {
        const QFileInfo first(fileName);
        for (int i = 2; QFileInfo::exists(fileName) && i < 10000; ++i)
            fileName
                = dir.filePath(QStringLiteral("%1-%2.%3").arg(first.completeBaseName()).arg(i).arg(first.suffix()));
    }
    QString error;
    if (!exportTo(format, fileName, &error)) {
        emit statusMessage(error);
        return {};
    }
    emit statusMessage(tr("Exported %1").arg(QDir::toNativeSeparators(fileName)));
    return fileName;
}

bool TensorPanel::exportTo(ExportFormat format, const QString& fileName, QString* errorMessage) const
{
    auto fail = [&](const QString& why) {
        if (errorMessage)
            *errorMessage = tr("Cannot export to %1: %2").arg(QDir::toNativeSeparators(fileName), why);
        return false;
    };
    const std::optional<tensor::Tensor> view = currentView();
    if (!view)
        return fail(tr("no tensor is shown."));
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    QString error;
    bool ok = false;
    switch (format) {
    case ExportFormat::Csv:
        ok = writeCsv(*view, file, &error);
        break;
    case ExportFormat::Npy:
        ok = writeNpy(*view, file, &error);
        break;
    case ExportFormat::Png: {
        const QImage image = m_heatmap->renderImage();
        if (image.isNull())
            error = tr("the heatmap shows nothing (a scalar or an empty slice).");
        else if (!image.save(&file, "PNG"))
            error = tr("the image could not be encoded.");
        else
            ok = true;
        break;
    }
    }
    if (!ok) {
        file.cancelWriting();
        return fail(error);
    }
    if (!file.commit())
        return fail(file.errorString());
    return true;
}

} // namespace runlens::tensorview
