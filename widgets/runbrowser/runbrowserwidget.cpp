#include "widgets/runbrowser/runbrowserwidget.h"

#include "models/core/artifactkind.h"
#include "models/core/runbrowsermodel.h"

#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <functional>

namespace runlens::widgets::runbrowser {

namespace {

QString kindIcon(const QString& kindId)
{
    if (kindId == QLatin1String("tensorboard-events") || kindId == QLatin1String("mindspore-summary")
        || kindId == QLatin1String("mindspore-lineage") || kindId == QLatin1String("visualdl-log"))
        return QStringLiteral(":/icons/kind-summary.svg");
    if (kindId == QLatin1String("chrome-trace") || kindId == QLatin1String("memory-timeline")
        || kindId.startsWith(QLatin1String("profiler")))
        return QStringLiteral(":/icons/kind-trace.svg");
    if (kindId.startsWith(QLatin1String("graph-")))
        return QStringLiteral(":/icons/kind-graph.svg");
    if (kindId.startsWith(QLatin1String("tensor-")))
        return QStringLiteral(":/icons/kind-tensor.svg");
    if (kindId == QLatin1String("table"))
        return QStringLiteral(":/icons/kind-table.svg");
    return QStringLiteral(":/icons/kind-other.svg");
}

/// Maps the model's kind, status and severity roles to icons.
class IconProxy final : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role != Qt::DecorationRole)
            return QIdentityProxyModel::data(index, role);
        const auto type = models::RunBrowserModel::NodeType(index.data(models::RunBrowserModel::NodeTypeRole).toInt());
        if (index.column() == models::RunBrowserModel::NameColumn) {
            if (type == models::RunBrowserModel::NodeType::Run)
                return icon(QStringLiteral(":/icons/kind-run.svg"));
            if (type == models::RunBrowserModel::NodeType::Rank || type == models::RunBrowserModel::NodeType::RankRange)
                return icon(QStringLiteral(":/icons/kind-rank.svg"));
            if (type == models::RunBrowserModel::NodeType::Folder)
                return icon(QStringLiteral(":/icons/kind-folder.svg"));
            return icon(kindIcon(index.data(models::RunBrowserModel::KindIdRole).toString()));
        }
        if (index.column() == models::RunBrowserModel::StatusColumn) {
            const int severity = index.data(models::RunBrowserModel::SeverityRole).toInt();
            if (severity == int(models::Severity::Error))
                return icon(QStringLiteral(":/icons/status-error.svg"));
            if (severity == int(models::Severity::Warning))
                return icon(QStringLiteral(":/icons/status-warning.svg"));
            if (type != models::RunBrowserModel::NodeType::Artifact)
                return {};
            switch (models::ImportStatus(index.data(models::RunBrowserModel::StatusRole).toInt())) {
            case models::ImportStatus::Ok:
                return icon(QStringLiteral(":/icons/status-ok.svg"));
            case models::ImportStatus::Importing:
            case models::ImportStatus::Pending:
                return icon(QStringLiteral(":/icons/status-busy.svg"));
            case models::ImportStatus::Failed:
                return icon(QStringLiteral(":/icons/status-error.svg"));
            case models::ImportStatus::Partial:
                return icon(QStringLiteral(":/icons/status-warning.svg"));
            default:
                return {};
            }
        }
        return {};
    }

private:
    QIcon icon(const QString& path) const
    {
        auto it = m_cache.find(path);
        if (it == m_cache.end())
            it = m_cache.insert(path, QIcon(path));
        return *it;
    }
    mutable QHash<QString, QIcon> m_cache;
};

} // namespace

RunBrowserWidget::RunBrowserWidget(models::RunBrowserModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this))
    , m_filter(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_fitTimer(new QTimer(this))
{
    auto* icons = new IconProxy(this);
    icons->setSourceModel(model);
    m_proxy->setSourceModel(icons);
    models::RunBrowserModel::configureFilter(m_proxy);

    m_filter->setPlaceholderText(tr("Filter files…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        applyExpansion();
        m_fitTimer->start();
    });

    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    // Runs, ranks and folders nest a few levels deep: a narrower step leaves the width to the names.
    m_view->setIndentation(std::max(12, m_view->fontMetrics().horizontalAdvance(QLatin1Char('M')) + 2));
    // Kind, Size and State are read for every file, so they stay in view: they take their contents' width
    // and the Name column the rest of the dock. A name longer than that is cut at its end, never in the
    // middle, and the tooltip has the absolute path.
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setAlternatingRowColors(true);
    // Two rows can be selected together to compare their dumps (context menu).
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &RunBrowserWidget::showContextMenu);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(24);
    header->setSectionResizeMode(models::RunBrowserModel::NameColumn, QHeaderView::Stretch);
    // Kind, Size and State are fitted once per batch of changes (see fitColumns()): ResizeToContents would
    // measure every visible row again for each state change of an import.
    for (int column : { models::RunBrowserModel::KindColumn, models::RunBrowserModel::SizeColumn,
                        models::RunBrowserModel::StatusColumn })
        header->setSectionResizeMode(column, QHeaderView::Interactive);
    m_fitTimer->setSingleShot(true);
    m_fitTimer->setInterval(0);
    connect(m_fitTimer, &QTimer::timeout, this, &RunBrowserWidget::fitColumns);
    connect(m_view, &QTreeView::expanded, m_fitTimer, qOverload<>(&QTimer::start));
    connect(m_view, &QTreeView::collapsed, m_fitTimer, qOverload<>(&QTimer::start));
    // State is at least as wide as the words an import goes through, so it does not jump while files are read.
    const QFontMetrics metrics = m_view->fontMetrics();
    const int iconRoom = m_view->iconSize().width() > 0 ? m_view->iconSize().width() + 16 : 32;
    for (models::ImportStatus status :
         { models::ImportStatus::Pending, models::ImportStatus::Importing, models::ImportStatus::Ok }) {
        models::ArtifactState state;
        state.status = status;
        m_stateWidth = std::max(
            m_stateWidth, metrics.horizontalAdvance(models::RunBrowserModel::artifactStateText(state)) + iconRoom);
    }
    header->resizeSection(models::RunBrowserModel::StatusColumn, m_stateWidth);
    m_view->installEventFilter(this);
    connect(m_view, &QTreeView::activated, this, &RunBrowserWidget::activate);

    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_summary);

    connect(model, &QAbstractItemModel::modelReset, this, [this]() {
        applyExpansion();
        updateSummary();
        m_fitTimer->start();
    });
    // Sizes grow while files are read, and a folder's summary with them.
    connect(model, &QAbstractItemModel::dataChanged, m_fitTimer, qOverload<>(&QTimer::start));
    updateSummary();
}

void RunBrowserWidget::revealArtifact(int artifactIndex)
{
    const QModelIndex source = m_model->indexOfArtifact(artifactIndex);
    if (!source.isValid())
        return;
    const auto* icons = static_cast<QIdentityProxyModel*>(m_proxy->sourceModel());
    const QModelIndex shown = m_proxy->mapFromSource(icons->mapFromSource(source));
    m_view->scrollTo(shown);
    m_view->setCurrentIndex(shown);
}

void RunBrowserWidget::applyExpansion()
{
    const QString filter = m_filter->text();
    // Returns whether a row below `parent` matches the filter by its own name, expanding the rows on the
    // way to each match. Without a filter, rows take the expansion the model suggests.
    std::function<bool(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
        bool matchBelow = false;
        for (int row = 0; row < m_proxy->rowCount(parent); ++row) {
            const QModelIndex index = m_proxy->index(row, models::RunBrowserModel::NameColumn, parent);
            const bool matches = !filter.isEmpty()
                && index.data(models::RunBrowserModel::NameRole).toString().contains(filter, Qt::CaseInsensitive);
            if (!m_proxy->hasChildren(index)) {
                matchBelow = matchBelow || matches;
                continue;
            }
            const bool inside = walk(index);
            m_view->setExpanded(index, inside || index.data(models::RunBrowserModel::DefaultExpandedRole).toBool());
            matchBelow = matchBelow || matches || inside;
        }
        return matchBelow;
    };
    walk({});
}

void RunBrowserWidget::fitColumns()
{
    for (int column : { models::RunBrowserModel::KindColumn, models::RunBrowserModel::SizeColumn,
                        models::RunBrowserModel::StatusColumn })
        m_view->resizeColumnToContents(column);
    m_kindWidth = m_view->header()->sectionSize(models::RunBrowserModel::KindColumn);
    // The deepest row in view sets how much of the Name column indentation takes.
    int deepest = 0;
    std::function<void(const QModelIndex&, int)> walk = [&](const QModelIndex& parent, int depth) {
        for (int row = 0; row < m_proxy->rowCount(parent); ++row) {
            const QModelIndex index = m_proxy->index(row, models::RunBrowserModel::NameColumn, parent);
            deepest = std::max(deepest, depth);
            if (m_view->isExpanded(index))
                walk(index, depth + 1);
        }
    };
    walk({}, 1);
    m_deepest = deepest;
    m_view->header()->resizeSection(
        models::RunBrowserModel::StatusColumn,
        std::max(m_stateWidth, m_view->header()->sectionSize(models::RunBrowserModel::StatusColumn)));
    shareWidth();
}

void RunBrowserWidget::shareWidth()
{
    // Names are what the rows are found by: when the dock is narrow, Kind gives way (cut at its end) so that
    // Name keeps a good part of the width; Size and State are short and keep theirs.
    QHeaderView* header = m_view->header();
    const int available = m_view->viewport()->width();
    const int others = header->sectionSize(models::RunBrowserModel::SizeColumn)
        + header->sectionSize(models::RunBrowserModel::StatusColumn);
    // Name keeps two fifths of the width, and at least the indentation of the deepest row in view plus
    // room for about sixteen characters of its name.
    const int iconRoom = m_view->iconSize().width() > 0 ? m_view->iconSize().width() + 8 : 24;
    const int nameNeed = m_view->indentation() * m_deepest + iconRoom
        + m_view->fontMetrics().horizontalAdvance(QStringLiteral("0123456789abcdef"));
    const int nameShare = std::max(available * 2 / 5, nameNeed);
    const int kindRoom
        = std::max(m_view->fontMetrics().horizontalAdvance(QStringLiteral("Profiler")), available - nameShare - others);
    header->resizeSection(models::RunBrowserModel::KindColumn, std::min(m_kindWidth, kindRoom));
}

bool RunBrowserWidget::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view && event->type() == QEvent::Resize)
        shareWidth();
    return QWidget::eventFilter(watched, event);
}

void RunBrowserWidget::showContextMenu(const QPoint& pos)
{
    QStringList paths;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows()) {
        const QString path = index.data(models::RunBrowserModel::PathRole).toString();
        if (!path.isEmpty() && !paths.contains(path))
            paths << path;
    }
    QMenu menu(this);
    QAction* compare = menu.addAction(tr("Compare Dumps"));
    compare->setEnabled(paths.size() == 2);
    compare->setToolTip(tr("Select two runs or dump folders to compare them op by op"));
    connect(compare, &QAction::triggered, this, [this, paths] { emit compareDumpsRequested(paths[0], paths[1]); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void RunBrowserWidget::activate(const QModelIndex& proxyIndex)
{
    const auto type = models::RunBrowserModel::NodeType(proxyIndex.data(models::RunBrowserModel::NodeTypeRole).toInt());
    if (type == models::RunBrowserModel::NodeType::Artifact)
        emit artifactActivated(proxyIndex.data(models::RunBrowserModel::ArtifactIndexRole).toInt());
    else if (type == models::RunBrowserModel::NodeType::Run)
        emit runActivated(proxyIndex.data(models::RunBrowserModel::RunRole).toString());
}

void RunBrowserWidget::updateSummary()
{
    const models::RunManifest& manifest = m_model->manifest();
    if (manifest.root.isEmpty()) {
        m_summary->setText(tr("No run folder open. Use File > Open Run Folder or drop a folder here."));
        return;
    }
    qint64 bytes = 0;
    for (const models::Artifact& a : manifest.artifacts)
        bytes += a.size;
    QString text = tr("%n run(s), ", nullptr, int(manifest.runs().size()))
        + tr("%n file(s), %1", nullptr, int(manifest.artifacts.size())).arg(models::formatByteSize(bytes));
    if (manifest.truncated)
        text += QLatin1Char('\n') + tr("The folder holds more entries than were scanned.");
    m_summary->setText(text);
}

} // namespace runlens::widgets::runbrowser
