#include "widgets/graph/graphpanel.h"

#include "models/core/workerpool.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/common/panelheader.h"
#include "widgets/graph/graphview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace runlens::widgets::graph {

namespace {

/// A colouring that needs data the graph may lack ("Profiler time" a trace, "Pipeline stage" a parallel
/// strategy) is offered only while there is that data.
void setColorModeEnabled(QComboBox* combo, GraphView::ColorMode mode, bool enabled)
{
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    const int index = combo->findData(int(mode));
    if (model && index >= 0)
        model->item(index)->setEnabled(enabled);
}

void setProfileModeEnabled(QComboBox* combo, bool enabled)
{
    setColorModeEnabled(combo, GraphView::ColorMode::ProfilerTime, enabled);
}

constexpr int kExpandAllLimit = 3000;
constexpr double kMaxPngSide = 16384;
constexpr int kExportItems = 120;
constexpr int kOpeningItems = 60;

QString graphTitle(const models::graph::Graph& graph)
{
    const QString file = QFileInfo(graph.path).fileName();
    if (graph.name.empty() || QString::fromStdString(graph.name) == file)
        return file.isEmpty() ? GraphPanel::tr("graph") : file;
    return file.isEmpty() ? QString::fromStdString(graph.name)
                          : QStringLiteral("%1 (%2)").arg(file, QString::fromStdString(graph.name));
}

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

} // namespace

GraphPanel::GraphPanel(QWidget* parent)
    : QWidget(parent)
    , m_graphChoice(new QComboBox(this))
    , m_search(new QLineEdit(this))
    , m_regex(new QCheckBox(tr("Regex"), this))
    , m_color(new QComboBox(this))
    , m_direction(new QComboBox(this))
    , m_labels(new QCheckBox(tr("Shapes"), this))
    , m_readable(new QCheckBox(tr("Readable"), this))
    , m_depth(new QSpinBox(this))
    , m_status(new QLabel(this))
    , m_results(new QListWidget(this))
    , m_view(new GraphView(this))
{
    m_graphChoice->setObjectName(QStringLiteral("graphChoice"));
    m_graphChoice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_graphChoice->setMaximumWidth(240);
    m_graphChoice->setMinimumContentsLength(12);
    m_search->setObjectName(QStringLiteral("graphSearch"));
    m_color->setObjectName(QStringLiteral("graphColor"));
    m_search->setPlaceholderText(tr("Search name, op type, attribute\u2026"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(180);
    m_color->addItem(tr("Op type"), int(GraphView::ColorMode::OpType));
    m_color->addItem(tr("Namespace"), int(GraphView::ColorMode::Namespace));
    m_color->addItem(tr("Profiler time"), int(GraphView::ColorMode::ProfilerTime));
    m_color->addItem(tr("Pipeline stage"), int(GraphView::ColorMode::Stage));
    m_color->setToolTip(tr("Colour the boxes by op type, by namespace or by the profiler time of a loaded trace"));
    setProfileModeEnabled(m_color, false);
    setColorModeEnabled(m_color, GraphView::ColorMode::Stage, false);
    m_direction->addItem(QStringLiteral("\u2193 ") + tr("Down"), QStringLiteral("TB"));
    m_direction->addItem(QStringLiteral("\u2192 ") + tr("Right"), QStringLiteral("LR"));
    m_direction->setToolTip(tr("Direction of the data flow"));
    m_labels->setChecked(true);
    m_labels->setToolTip(tr("Show tensor shapes on edges"));
    m_readable->setToolTip(tr("Hide tuple and monad plumbing ops and the gradient and optimizer scopes"));
    m_depth->setRange(0, 20);
    m_depth->setValue(1);
    m_depth->setPrefix(tr("Trace "));
    m_depth->setToolTip(tr("Highlight this many steps upstream and downstream of the selected node"));
    m_view->setObjectName(QStringLiteral("graphView"));
    m_results->setObjectName(QStringLiteral("graphSearchResults"));
    m_results->setVisible(false);

    auto* expandAll = toolButton(tr("Expand all"), tr("Expand everything below the selected group"), this);
    auto* collapseAll = toolButton(tr("Collapse all"), tr("Collapse everything below the selected group"), this);
    auto* fit = toolButton(tr("Fit"), tr("Fit the graph into the view (Space)"), this);
    auto* exportButton = toolButton(tr("Export"), tr("Export the current picture"), this);
    auto* exportMenu = new QMenu(exportButton);
    exportMenu->addAction(tr("Export as SVG\u2026"), this, [this] { requestExport(QStringLiteral("svg")); });
    exportMenu->addAction(tr("Export as PNG\u2026"), this, [this] { requestExport(QStringLiteral("png")); });
    exportButton->setMenu(exportMenu);
    exportButton->setPopupMode(QToolButton::InstantPopup);

    m_graphChoice->setAccessibleName(tr("Graph"));
    m_color->setAccessibleName(tr("Colour by"));
    m_direction->setAccessibleName(tr("Direction"));
    auto* header = new PanelHeader(this);
    header->setObjectName(QStringLiteral("graphToolbar"));
    header->enableOverflowMenu();
    const std::pair<QWidget*, int> row[]
        = { { m_graphChoice, 0 }, { m_search, 1 },    { m_regex, 0 },    { m_color, 0 },
            { m_direction, 0 },   { m_labels, 0 },    { m_readable, 0 }, { m_depth, 0 },
            { expandAll, 0 },     { collapseAll, 0 }, { fit, 0 },        { exportButton, 0 } };
    for (const auto& [widget, stretch] : row) {
        widget->setParent(header);
        header->addWidget(widget, stretch);
    }
    // In a narrow dock the search stays; the graph choice and Export leave the row last.
    header->setOverflowPriority(m_search, PanelHeader::kAlwaysShown);
    header->setOverflowPriority(m_graphChoice, 2);
    header->setOverflowPriority(exportButton, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_results);
    splitter->addWidget(m_view);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 220, 800 });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(header);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);
    m_status->setContentsMargins(6, 2, 6, 2);

    connect(m_graphChoice, &QComboBox::currentIndexChanged, this, [this](int index) { buildTree(index); });
    connect(m_graphChoice, &QComboBox::activated, this, [this] { m_graphChosen = true; });
    connect(m_search, &QLineEdit::returnPressed, this, [this] { search(m_search->text()); });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (text.isEmpty())
            search(text);
    });
    connect(m_results, &QListWidget::itemActivated, this, &GraphPanel::onResultActivated);
    connect(m_results, &QListWidget::itemClicked, this, &GraphPanel::onResultActivated);
    connect(m_color, &QComboBox::currentIndexChanged, this,
            [this] { m_view->setColorMode(GraphView::ColorMode(m_color->currentData().toInt())); });
    connect(m_direction, &QComboBox::currentIndexChanged, this,
            [this] { m_view->setRankDir(m_direction->currentData().toString()); });
    connect(m_labels, &QCheckBox::toggled, m_view, &GraphView::setEdgeLabelsVisible);
    connect(m_readable, &QCheckBox::toggled, this, [this] { buildTree(m_graphChoice->currentIndex()); });
    connect(m_depth, &QSpinBox::valueChanged, m_view, &GraphView::setHighlightDepth);
    connect(expandAll, &QToolButton::clicked, this,
            [this] { m_view->expandAllBelow(std::max(0, m_view->selectedItem()), kExpandAllLimit); });
    connect(collapseAll, &QToolButton::clicked, this, [this] {
        const int selected = m_view->selectedItem();
        m_view->collapseAllBelow(selected > 0 && m_tree && m_tree->item(selected).isContainer() ? selected : 0);
    });
    connect(fit, &QToolButton::clicked, m_view, &GraphView::fitToView);
    connect(m_view, &GraphView::selectionChanged, this, &GraphPanel::currentItemChanged);
    connect(m_view, &GraphView::message, m_status, &QLabel::setText);
    connect(m_view, &GraphView::expansionChanged, this, &GraphPanel::saveState);
    connect(m_view, &GraphView::viewportChanged, this, &GraphPanel::saveState);
    connect(m_view, &GraphView::layoutFinished, this, [this] {
        const LayoutResult& result = m_view->layoutResult();
        if (result.tree)
            m_status->setText(tr("%n ops, %1 shown; laid out %2 groups in %3 ms", nullptr, result.tree->item(0).opCount)
                                  .arg(m_view->scene().boxes.size())
                                  .arg(result.dotRuns)
                                  .arg(result.milliseconds, 0, 'f', 0));
    });
}

GraphPanel::~GraphPanel() = default;

std::shared_ptr<const models::graph::ScopeTree> GraphPanel::tree() const
{
    return m_tree;
}

void GraphPanel::addGraph(std::shared_ptr<const models::graph::Graph> graph)
{
    if (!graph)
        return;
    m_graphs.push_back(graph);
    m_scores.push_back(models::graph::hierarchyScore(*graph));
    m_graphChoice->addItem(graphTitle(*graph)); // the first one triggers buildTree(0)
    const int current = m_graphChoice->currentIndex();
    if (!m_graphChosen && current >= 0 && m_scores.back().richerThan(m_scores[std::size_t(current)]))
        m_graphChoice->setCurrentIndex(m_graphChoice->count() - 1);
}

int GraphPanel::currentGraphIndex() const
{
    return m_graphChoice->currentIndex();
}

void GraphPanel::showTree(std::shared_ptr<const models::graph::ScopeTree> tree)
{
    if (!tree)
        return;
    ++m_buildSerial;
    const QSignalBlocker blocker(m_graphChoice);
    m_graphs.push_back(tree->graphPtr());
    m_scores.push_back(models::graph::hierarchyScore(tree->graph()));
    m_graphChosen = true;
    m_graphChoice->addItem(graphTitle(tree->graph()));
    m_graphChoice->setCurrentIndex(m_graphChoice->count() - 1);
    applyTree(std::move(tree));
}

void GraphPanel::clear()
{
    ++m_buildSerial;
    const QSignalBlocker blocker(m_graphChoice);
    m_graphChoice->clear();
    m_graphs.clear();
    m_scores.clear();
    m_graphChosen = false;
    m_tree.reset();
    m_results->clear();
    m_results->setVisible(false);
    m_view->setTree(nullptr);
    emit treeChanged(nullptr);
    updateProfile();
}

void GraphPanel::setProfile(std::shared_ptr<const models::trace::TraceStore> store)
{
    if (store == m_store)
        return;
    m_store = std::move(store);
    setProfileModeEnabled(m_color, m_store != nullptr);
    if (!m_store && m_view->colorMode() == GraphView::ColorMode::ProfilerTime)
        m_color->setCurrentIndex(m_color->findData(int(GraphView::ColorMode::OpType)));
    updateProfile();
}

void GraphPanel::updateProfile()
{
    const quint64 serial = ++m_profileSerial;
    if (!m_tree || !m_store) {
        const bool had = m_profile != nullptr;
        m_profile.reset();
        m_view->setProfile(nullptr);
        if (had)
            emit profileChanged(nullptr);
        return;
    }
    m_status->setText(tr("Matching profiler ops to the graph\u2026"));
    QtConcurrent::run(models::workerPool(), [tree = m_tree, store = m_store] {
        return models::graph::ItemProfile::compute(tree, *store);
    }).then(this, [this, serial](std::shared_ptr<const models::graph::ItemProfile> profile) {
        if (serial != m_profileSerial)
            return;
        m_profile = std::move(profile);
        m_view->setProfile(m_profile);
        m_status->setText(tr("Profiler time: %1").arg(m_profile->summary));
        emit profileChanged(m_profile);
    });
}

bool GraphPanel::selectGraph(const QString& nameOrFile)
{
    for (std::size_t i = 0; i < m_graphs.size(); ++i) {
        const models::graph::Graph& graph = *m_graphs[i];
        if (QString::fromStdString(graph.name) == nameOrFile || QFileInfo(graph.path).fileName() == nameOrFile
            || graph.path == nameOrFile) {
            m_graphChosen = true;
            if (m_graphChoice->currentIndex() == int(i))
                buildTree(int(i));
            else
                m_graphChoice->setCurrentIndex(int(i));
            return true;
        }
    }
    return false;
}

void GraphPanel::buildTree(int index)
{
    if (index < 0 || std::size_t(index) >= m_graphs.size())
        return;
    models::graph::ScopeTree::Options options;
    options.readable = m_readable->isChecked();
    const quint64 serial = ++m_buildSerial;
    m_status->setText(tr("Building the hierarchy\u2026"));
    QtConcurrent::run(models::workerPool(), [graph = m_graphs[std::size_t(index)], options] {
        return models::graph::ScopeTree::build(graph, options);
    }).then(this, [this, serial](std::shared_ptr<const models::graph::ScopeTree> tree) {
        if (serial == m_buildSerial)
            applyTree(std::move(tree));
    });
}

QString GraphPanel::settingsGroup(const QString& graphPath)
{
    const QByteArray hash
        = QCryptographicHash::hash(QFileInfo(graphPath).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1);
    return QStringLiteral("GraphView/") + QString::fromLatin1(hash.toHex().left(16));
}

QString GraphPanel::rankDir() const
{
    return m_direction->currentData().toString();
}

void GraphPanel::setRankDir(const QString& rankDir)
{
    const int index = m_direction->findData(rankDir);
    if (index >= 0)
        m_direction->setCurrentIndex(index);
}

QString GraphPanel::currentGraphPath() const
{
    return m_tree ? m_tree->graph().path : QString();
}

QStringList GraphPanel::expandedGroups() const
{
    QStringList keys;
    if (!m_tree || m_view->tree() != m_tree)
        return keys;
    for (const int id : m_view->expansionState().expanded())
        keys << QString::fromStdString(m_tree->item(id).key);
    keys.sort();
    return keys;
}

bool GraphPanel::setExpandedGroups(const QStringList& keys)
{
    if (!m_tree || m_view->tree() != m_tree)
        return false;
    models::graph::ExpansionState state;
    for (const QString& key : keys) {
        const int id = m_tree->findKey(key.toStdString());
        if (id > 0)
            state.setExpanded(id, true);
    }
    m_view->setExpansionState(state);
    return true;
}

void GraphPanel::applyTree(std::shared_ptr<const models::graph::ScopeTree> tree)
{
    m_tree = std::move(tree);
    m_results->clear();
    m_results->setVisible(false);
    models::graph::ExpansionState state;
    QSettings settings;
    const bool remembered = !m_tree->graph().path.isEmpty();
    if (remembered) {
        settings.beginGroup(settingsGroup(m_tree->graph().path));
        const QString prefix = m_readable->isChecked() ? QStringLiteral("readable/") : QString();
        for (const QString& key : settings.value(prefix + QStringLiteral("expanded")).toStringList()) {
            const int id = m_tree->findKey(key.toStdString());
            if (id > 0)
                state.setExpanded(id, true);
        }
    }
    if (!remembered || !settings.contains(QStringLiteral("zoom")))
        state = GraphView::openingState(*m_tree, kOpeningItems); // first visit: a small graph opens up
    m_restoring = true;
    m_view->setTree(m_tree, state);
    // A parallel strategy is read for its stages: it opens coloured by them.
    setColorModeEnabled(m_color, GraphView::ColorMode::Stage, m_view->hasStages());
    const auto mode = GraphView::ColorMode(m_color->currentData().toInt());
    if (m_view->hasStages() && m_tree->graph().format == models::graph::GraphFormat::ParallelStrategy)
        m_color->setCurrentIndex(m_color->findData(int(GraphView::ColorMode::Stage)));
    else if (!m_view->hasStages() && mode == GraphView::ColorMode::Stage)
        m_color->setCurrentIndex(m_color->findData(int(GraphView::ColorMode::OpType)));
    if (remembered && settings.contains(QStringLiteral("zoom")))
        m_view->setViewport(settings.value(QStringLiteral("zoom")).toDouble(),
                            settings.value(QStringLiteral("centre")).toPointF());
    m_restoring = false;
    emit treeChanged(m_tree);
    updateProfile();
}

void GraphPanel::saveState() const
{
    if (m_restoring || !m_tree || m_tree->graph().path.isEmpty() || m_view->tree() != m_tree)
        return;
    QSettings settings;
    settings.beginGroup(settingsGroup(m_tree->graph().path));
    QStringList keys;
    for (const int id : m_view->expansionState().expanded())
        keys << QString::fromStdString(m_tree->item(id).key);
    const QString prefix = m_readable->isChecked() ? QStringLiteral("readable/") : QString();
    settings.setValue(prefix + QStringLiteral("expanded"), keys);
    settings.setValue(QStringLiteral("zoom"), m_view->zoom());
    settings.setValue(QStringLiteral("centre"), m_view->viewCentre());
}

int GraphPanel::search(const QString& pattern)
{
    m_results->clear();
    if (!m_tree || pattern.isEmpty()) {
        m_results->setVisible(false);
        return 0;
    }
    models::graph::ScopeTree::SearchOptions options;
    options.regex = m_regex->isChecked();
    QString error;
    const std::vector<int> hits = m_tree->search(pattern, options, &error);
    if (!error.isEmpty()) {
        m_status->setText(tr("Invalid regular expression: %1").arg(error));
        m_results->setVisible(false);
        return 0;
    }
    for (const int id : hits) {
        const models::graph::ScopeItem& item = m_tree->item(id);
        QString text = QString::fromStdString(item.label);
        if (item.kind == models::graph::ScopeItemKind::Op) {
            const models::graph::Node& node = m_tree->graph().nodes[std::size_t(item.node)];
            text = QStringLiteral("%1  [%2]")
                       .arg(QString::fromStdString(node.fullName()), QString::fromStdString(node.opType));
        } else {
            text = QString::fromStdString(item.key.substr(2)) + QLatin1Char('/');
        }
        auto* row = new QListWidgetItem(text, m_results);
        row->setData(Qt::UserRole, id);
    }
    m_status->setText(tr("%n matches", nullptr, int(hits.size())));
    m_results->setVisible(true);
    return int(hits.size());
}

void GraphPanel::setReadable(bool readable)
{
    m_readable->setChecked(readable);
}

void GraphPanel::onResultActivated()
{
    const QListWidgetItem* row = m_results->currentItem();
    if (row)
        revealItem(row->data(Qt::UserRole).toInt());
}

void GraphPanel::revealItem(int item)
{
    m_view->revealItem(item);
}

void GraphPanel::requestExport(const QString& suffix)
{
    if (!m_tree)
        return;
    const QString base = ChartExportMenu::safeFileName(QFileInfo(m_tree->graph().path).completeBaseName());
    const QString directory = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    QString fileName = QDir(directory).filePath(
        QStringLiteral("%1.%2").arg(base.isEmpty() ? QStringLiteral("graph") : base, suffix));
    if (m_fileNameProvider) {
        fileName = m_fileNameProvider(fileName);
        if (fileName.isEmpty())
            return;
    } else {
        for (int n = 2; QFileInfo::exists(fileName); ++n)
            fileName = QDir(directory).filePath(QStringLiteral("%1-%2.%3").arg(base).arg(n).arg(suffix));
    }
    QString error;
    m_status->setText(exportTo(fileName, &error) ? tr("Exported %1").arg(QDir::toNativeSeparators(fileName)) : error);
}

bool GraphPanel::exportTo(const QString& fileName, QString* errorMessage) const
{
    return exportView(*m_view, fileName, errorMessage);
}

bool GraphPanel::exportGraph(std::shared_ptr<const models::graph::Graph> graph, const QString& fileName,
                             QString* errorMessage)
{
    const auto tree = models::graph::ScopeTree::build(std::move(graph));
    const models::graph::ExpansionState state = GraphView::openingState(*tree, kExportItems);
    GraphView view;
    view.resize(1600, 1000);
    view.setTree(tree, state);
    if (view.isLayoutPending()) {
        QEventLoop loop;
        connect(&view, &GraphView::layoutFinished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return exportView(view, fileName, errorMessage);
}

bool GraphPanel::exportView(const GraphView& view, const QString& fileName, QString* errorMessage)
{
    const auto fail = [&](const QString& message) {
        if (errorMessage)
            *errorMessage = message;
        return false;
    };
    const GraphScene& scene = view.scene();
    if (scene.isEmpty())
        return fail(tr("Nothing to export to %1: the graph has not been laid out yet.")
                        .arg(QDir::toNativeSeparators(fileName)));
    const QRectF bounds = scene.bounds.adjusted(-16, -16, 16, 16);
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setFileName(fileName);
        generator.setSize(bounds.size().toSize());
        generator.setViewBox(QRectF(QPointF(0, 0), bounds.size()));
        generator.setTitle(view.tree() ? QString::fromStdString(view.tree()->graph().name) : QString());
        QPainter painter;
        if (!painter.begin(&generator))
            return fail(tr("Cannot write %1: check that the folder exists and is writable.")
                            .arg(QDir::toNativeSeparators(fileName)));
        painter.fillRect(QRectF(QPointF(0, 0), bounds.size()), Qt::white);
        painter.translate(-bounds.topLeft());
        view.paintScene(painter, bounds, 1.0);
        painter.end();
        return true;
    }
    if (suffix != QLatin1String("png"))
        return fail(tr("Cannot export %1: use a .svg or .png file name.").arg(QDir::toNativeSeparators(fileName)));
    const double scale = std::min(2.0, kMaxPngSide / std::max(bounds.width(), bounds.height()));
    QImage image((bounds.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return fail(tr("Cannot export %1: the picture is too large.").arg(QDir::toNativeSeparators(fileName)));
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(scale, scale);
    painter.translate(-bounds.topLeft());
    view.paintScene(painter, bounds, scale);
    painter.end();
    if (!image.save(fileName, "PNG"))
        return fail(tr("Cannot write %1: check that the folder exists and is writable.")
                        .arg(QDir::toNativeSeparators(fileName)));
    return true;
}

} // namespace runlens::widgets::graph
