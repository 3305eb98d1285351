#include "widgets/tensor/tensorpanel.h"

#include "models/tensor/tensorlistmodel.h"
#include "widgets/common/colormap.h"
#include "widgets/common/panelheader.h"
#include "widgets/tensor/heatmapview.h"
#include "widgets/tensor/tensorcomparewidget.h"
#include "widgets/tensor/tensorstatswidget.h"
#include "widgets/tensor/tensortablemodel.h"
#include "widgets/tensor/tensortableview.h"

#include <QAction>
#include <QBoxLayout>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>

namespace runlens::widgets::tensor {

TensorPanel::TensorPanel(QWidget* parent)
    : QWidget(parent)
{
    createModels();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildToolbar());

    auto* split = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(split, 1);
    split->addWidget(buildTensorList(split));
    // Right: empty state, or the tensor.
    m_pages = new QStackedWidget(split);
    buildEmptyPage();
    m_pages->addWidget(buildTensorPage());
    split->addWidget(m_pages);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({ 380, 1000 });
    m_cache = m_ownCache;

    connectSelection();
    connectViewControls();

    setCatalog(nullptr);
}

void TensorPanel::createModels()
{
    m_listModel = new models::tensor::TensorListModel(this);
    m_filterModel = new models::tensor::TensorFilterModel(this);
    m_filterModel->setSourceModel(m_listModel);
    m_ownCache = new TensorStatsCache(this);
    m_summaryTimer = new QTimer(this);
    m_summaryTimer->setSingleShot(true);
    connect(m_summaryTimer, &QTimer::timeout, this, &TensorPanel::rebuildWithSummaries);
}

QWidget* TensorPanel::buildToolbar()
{
    auto* toolbar = new PanelHeader(this);
    toolbar->setObjectName(QStringLiteral("tensorToolbar"));
    toolbar->enableOverflowMenu();
    QLabel* precisionLabel = toolbar->addLabel(QStringLiteral("tensorPrecisionLabel"));
    precisionLabel->setText(tr("Precision "));
    m_precision = new QSpinBox(toolbar);
    m_precision->setObjectName(QStringLiteral("tensorPrecision"));
    m_precision->setRange(1, 17);
    m_precision->setValue(6);
    m_precision->setToolTip(tr("Significant digits shown in the table"));
    toolbar->addWidget(m_precision);
    toolbar->groupForOverflow({ precisionLabel, m_precision });
    m_scientific = new QAction(tr("1e-3"), this);
    m_scientific->setCheckable(true);
    m_scientific->setToolTip(tr("Scientific notation in the table"));
    toolbar->addAction(m_scientific);
    m_colorMap = new QComboBox(toolbar);
    m_colorMap->setObjectName(QStringLiteral("tensorColorMap"));
    for (const ColorMap map : { ColorMap::Viridis, ColorMap::Grey, ColorMap::Diverging })
        m_colorMap->addItem(colorMapName(map), int(map));
    m_colorMap->setToolTip(tr("Heatmap colours; the diverging map is symmetric around 0"));
    m_colorMap->setAccessibleName(tr("Colour map"));
    toolbar->addWidget(m_colorMap);
    m_scale = new QComboBox(toolbar);
    m_scale->setObjectName(QStringLiteral("tensorScale"));
    m_scale->addItem(tr("Slice range"));
    m_scale->addItem(tr("Whole tensor range"));
    m_scale->setToolTip(tr("Heatmap colours span the slice's min/max or the whole tensor's (once computed)"));
    m_scale->setAccessibleName(tr("Colour range"));
    toolbar->addWidget(m_scale);
    m_fitAction = new QAction(tr("Fit"), this);
    m_fitAction->setToolTip(tr("Zoom the heatmap to fit"));
    toolbar->addAction(m_fitAction);
    m_pixelsAction = new QAction(tr("1:1"), this);
    m_pixelsAction->setToolTip(tr("One element per pixel"));
    toolbar->addAction(m_pixelsAction);
    m_projectRows = new QAction(tr("Project Rows"), this);
    m_projectRows->setObjectName(QStringLiteral("tensorProjectRows"));
    m_projectRows->setToolTip(tr("Show the tensor's rows as points in the Projector (PCA, t-SNE, neighbours); "
                                 "the other dimensions are flattened"));
    m_projectRows->setEnabled(false);
    connect(m_projectRows, &QAction::triggered, this, [this] { projectRows(); });
    toolbar->addAction(m_projectRows);
    m_exportButton = new QToolButton(toolbar);
    m_exportButton->setText(tr("Export"));
    m_exportButton->setAutoRaise(true);
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
    toolbar->addStretch();
    // Export leaves the row last.
    toolbar->setOverflowPriority(m_exportButton, 1);
    return toolbar;
}

QWidget* TensorPanel::buildTensorList(QWidget* parent)
{
    auto* left = new QWidget(parent);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_filter = new QLineEdit(left);
    m_filter->setObjectName(QStringLiteral("tensorFilter"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setPlaceholderText(tr("Filter: name kind:weight step:30"));
    m_filter->setToolTip(models::tensor::TensorFilterModel::syntaxHelp());
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
    return left;
}

void TensorPanel::buildEmptyPage()
{
    m_empty = new QLabel(tr("No tensors. RunLens reads .npy, .npz and .safetensors files, MindSpore dump "
                            "folders (rank_N/<net>/<graph>/<iteration>/) and the tensors recorded in TensorBoard "
                            "and MindSpore summaries; open a run folder that holds them."),
                         m_pages);
    m_empty->setObjectName(QStringLiteral("tensorEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_pages->addWidget(m_empty);
}

QWidget* TensorPanel::buildTensorPage()
{
    auto* content = new QWidget(m_pages);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(4, 0, 0, 0);
    buildHeader(content, contentLayout);
    m_slice = new SliceControls(content);
    contentLayout->addWidget(m_slice);
    contentLayout->addWidget(buildStepBox(content));
    contentLayout->addWidget(buildViews(content), 1);
    // A short dock scrolls the inspector instead of forcing the main window taller than the screen.
    auto* contentScroll = new QScrollArea(m_pages);
    contentScroll->setFrameShape(QFrame::NoFrame);
    contentScroll->setWidgetResizable(true);
    contentScroll->setWidget(content);
    return contentScroll;
}

void TensorPanel::buildHeader(QWidget* content, QBoxLayout* layout)
{
    m_header = new QLabel(content);
    m_header->setObjectName(QStringLiteral("tensorHeader"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse
                                      | Qt::LinksAccessibleByKeyboard);
    connect(m_header, &QLabel::linkActivated, this, [this](const QString&) {
        if (m_catalog && m_series >= 0)
            emit nodeRequested(m_catalog->series()[m_series].nodeKey);
    });
    m_header->setWordWrap(true);
    layout->addWidget(m_header);
    m_message = new QLabel(content);
    m_message->setObjectName(QStringLiteral("tensorMessage"));
    m_message->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setVisible(false);
    layout->addWidget(m_message);
}

QWidget* TensorPanel::buildStepBox(QWidget* parent)
{
    m_stepBox = new QWidget(parent);
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
    return m_stepBox;
}

QWidget* TensorPanel::buildViews(QWidget* parent)
{
    auto* viewSplit = new QSplitter(Qt::Vertical, parent);
    m_tabs = new QTabWidget(viewSplit);
    m_tableModel = new TensorTableModel(this);
    m_table = new TensorTableView(m_tabs);
    m_table->setModel(m_tableModel);
    m_tabs->addTab(m_table, tr("Table"));
    QWidget* heatmapPage = buildHeatmapPage(m_tabs);
    m_tabs->addTab(heatmapPage, tr("Heatmap"));
    QWidget* comparePage = buildComparePage(m_tabs);
    m_tabs->addTab(comparePage, tr("Compare"));
    viewSplit->addWidget(m_tabs);
    m_stats = new TensorStatsWidget(viewSplit);
    m_stats->setCache(m_ownCache);
    viewSplit->addWidget(m_stats);
    viewSplit->setStretchFactor(0, 3);
    viewSplit->setStretchFactor(1, 1);
    // The numbers keep at least their first rows in sight; dragging the handle cannot hide them.
    viewSplit->setChildrenCollapsible(false);
    // The views take the height the dock has, no more: the header's wrapped lines make the scroll area size
    // the page by its preferred height, and the views' preferred height would push the numbers out of sight.
    viewSplit->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    return viewSplit;
}

QWidget* TensorPanel::buildHeatmapPage(QWidget* parent)
{
    // The heatmap with its colour scale under it, and why nothing is drawn when that happens.
    auto* heatmapPage = new QWidget(parent);
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
    return heatmapPage;
}

QWidget* TensorPanel::buildComparePage(QWidget* parent)
{
    auto* comparePage = new QWidget(parent);
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
    return comparePage;
}

void TensorPanel::connectSelection()
{
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
}

void TensorPanel::connectViewControls()
{
    connect(m_precision, &QSpinBox::valueChanged, m_tableModel, &TensorTableModel::setPrecision);
    connect(m_scientific, &QAction::toggled, m_tableModel, &TensorTableModel::setScientific);
    connect(m_colorMap, &QComboBox::currentIndexChanged, this, [this] {
        m_heatmap->setColorMap(ColorMap(m_colorMap->currentData().toInt()));
        updateHeatmapLegend();
    });
    connect(m_scale, &QComboBox::currentIndexChanged, this, &TensorPanel::updateHeatmapRange);
    connect(m_fitAction, &QAction::triggered, m_heatmap, &HeatmapView::zoomToFit);
    connect(m_pixelsAction, &QAction::triggered, m_heatmap, &HeatmapView::zoomToPixels);
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
}

} // namespace runlens::widgets::tensor
