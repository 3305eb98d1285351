#include "widgets/accuracy/accuracygraph.h"

#include "models/core/workerpool.h"
#include "widgets/common/panelheader.h"
#include "widgets/graph/graphview.h"

#include <QLabel>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace runlens::widgets::accuracy {

using models::accuracy::Verdict;

namespace {

/// Items a comparison's graph opens with: the first levels of the module tree, as the Graph panel opens.
constexpr int kOpeningItems = 60;

/// How bad a verdict is on the graph: an op's worst row and a group's worst op win.
int severity(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Error:
        return 4;
    case Verdict::Warning:
        return 3;
    case Verdict::Unmatched:
        return 2;
    case Verdict::Pass:
        return 1;
    case Verdict::None:
        break;
    }
    return 0;
}

} // namespace

AccuracyGraph::AccuracyGraph(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("accuracyGraph"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("accuracyGraphLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setContentsMargins(PanelHeader::kMarginX, PanelHeader::kMarginY, PanelHeader::kMarginX,
                                 PanelHeader::kMarginY);
    QString legend;
    for (const auto& [verdict, text] :
         { std::pair { Verdict::Error, tr("error") }, std::pair { Verdict::Warning, tr("warning") },
           std::pair { Verdict::Unmatched, tr("unmatched") }, std::pair { Verdict::Pass, tr("pass") },
           std::pair { Verdict::None, tr("not compared") } }) {
        legend
            += QStringLiteral("<span style=\"color:%1\">\u25a0</span>&nbsp;%2&nbsp;&nbsp; ")
                   .arg(verdictFill(verdict).darker(verdict == Verdict::None ? 115 : 100).name(), text.toHtmlEscaped());
    }
    m_legend->setText(legend);
    m_legend->setToolTip(tr("Boxes show the worst verdict of their rows; groups the worst of the ops below them"));
    layout->addWidget(m_legend);
    m_view = new graph::GraphView(this);
    m_view->setObjectName(QStringLiteral("accuracyGraphView"));
    m_view->setMinimapVisible(false); // the pane is narrow: a minimap would cover its boxes
    layout->addWidget(m_view, 1);
    connect(m_view, &graph::GraphView::selectionChanged, this, &AccuracyGraph::onSelectionChanged);
}

AccuracyGraph::~AccuracyGraph() = default;

QColor AccuracyGraph::verdictFill(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Error:
        return QColor(232, 104, 104);
    case Verdict::Warning:
        return QColor(255, 210, 110);
    case Verdict::Unmatched:
        return QColor(200, 200, 210);
    case Verdict::Pass:
        return QColor(186, 226, 186);
    case Verdict::None:
        break;
    }
    return QColor(244, 244, 244);
}

void AccuracyGraph::clear()
{
    ++m_serial;
    m_tree.reset();
    m_rows.clear();
    m_benchNodes.clear();
    m_rowItems.clear();
    m_itemVerdicts.clear();
    m_itemRows.clear();
    m_pendingRow = -1;
    m_view->setTree(nullptr);
}

void AccuracyGraph::setComparison(std::shared_ptr<const models::graph::Graph> graph,
                                  const QList<models::accuracy::CompareRow>& rows,
                                  const QHash<QString, QString>& benchNodes)
{
    clear();
    if (!graph)
        return;
    m_rows = rows;
    m_benchNodes = benchNodes;
    const quint64 serial = m_serial;
    QtConcurrent::run(models::workerPool(), [graph = std::move(graph)] {
        return models::graph::ScopeTree::build(graph);
    }).then(this, [this, serial](std::shared_ptr<const models::graph::ScopeTree> tree) {
        if (serial == m_serial)
            applyTree(std::move(tree));
    });
}

void AccuracyGraph::applyTree(std::shared_ptr<const models::graph::ScopeTree> tree)
{
    m_tree = std::move(tree);
    const int items = m_tree->itemCount();
    m_itemVerdicts.assign(std::size_t(items), Verdict::None);
    m_itemRows.assign(std::size_t(items), -1);
    m_rowItems.assign(std::size_t(m_rows.size()), -1);
    // Rows come in execution order: a later row takes an item over only when it is strictly worse.
    for (int r = 0; r < m_rows.size(); ++r) {
        const models::accuracy::CompareRow& row = m_rows.at(r);
        const int item = row.benchName.isEmpty() ? -1 : itemOfNode(m_benchNodes.value(row.benchName));
        m_rowItems[std::size_t(r)] = item;
        for (int at = item; at >= 0; at = m_tree->item(at).parent) {
            if (m_itemRows[std::size_t(at)] >= 0 && severity(row.verdict) <= severity(m_itemVerdicts[std::size_t(at)]))
                continue;
            m_itemVerdicts[std::size_t(at)] = row.verdict;
            m_itemRows[std::size_t(at)] = r;
        }
    }
    std::vector<QColor> colors(static_cast<std::size_t>(items));
    for (int i = 1; i < items; ++i)
        colors[std::size_t(i)] = verdictFill(m_itemVerdicts[std::size_t(i)]);
    m_view->setTree(m_tree, graph::GraphView::openingState(*m_tree, kOpeningItems));
    m_view->setItemColors(std::move(colors));
    emit treeReady();
    if (m_pendingRow >= 0)
        showRow(std::exchange(m_pendingRow, -1));
}

Verdict AccuracyGraph::itemVerdict(int item) const
{
    return item >= 0 && std::size_t(item) < m_itemVerdicts.size() ? m_itemVerdicts[std::size_t(item)] : Verdict::None;
}

int AccuracyGraph::itemOfRow(int row) const
{
    return row >= 0 && std::size_t(row) < m_rowItems.size() ? m_rowItems[std::size_t(row)] : -1;
}

int AccuracyGraph::itemOfNode(const QString& nodeId) const
{
    if (!m_tree || nodeId.isEmpty())
        return -1;
    const int node = m_tree->graph().find(nodeId.toStdString());
    return node >= 0 ? m_tree->itemOfNode(node) : -1;
}

int AccuracyGraph::rowOfItem(int item) const
{
    return item >= 0 && std::size_t(item) < m_itemRows.size() ? m_itemRows[std::size_t(item)] : -1;
}

void AccuracyGraph::showRow(int row)
{
    if (!m_tree) {
        m_pendingRow = row;
        return;
    }
    const int item = itemOfRow(row);
    if (item < 0 || item == m_view->selectedItem())
        return;
    m_showing = true;
    m_view->revealItem(item);
    m_showing = false;
}

void AccuracyGraph::onSelectionChanged(int item)
{
    if (m_showing || item < 0)
        return;
    const int row = rowOfItem(item);
    if (row >= 0)
        emit rowRequested(row);
}

} // namespace runlens::widgets::accuracy
