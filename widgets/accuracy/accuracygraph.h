#pragma once

#include "models/accuracy/compareresult.h"
#include "models/graph/graph.h"
#include "models/graph/scopetree.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;

namespace runlens::widgets::graph {
class GraphView;
}

namespace runlens::widgets::accuracy {

/// The bench side's graph beside the Accuracy table, each box filled by the worst verdict of its rows (error,
/// warning, unmatched, pass; "not compared" for ops without rows), groups by the worst below them, with a
/// legend. Reuses the Graph panel's GraphView. Rows name their node through `benchNodes` (bench row name ->
/// node id); the hierarchy is built on the worker pool. Selecting a row reveals its node (showRow); clicking a
/// box asks for its worst row, the earliest of the worst (rowRequested).
class AccuracyGraph final : public QWidget
{
    Q_OBJECT
public:
    explicit AccuracyGraph(QWidget* parent = nullptr);
    ~AccuracyGraph() override;

    void clear();
    /// Shows `graph` coloured by `rows`; a null graph clears the view.
    void setComparison(std::shared_ptr<const models::graph::Graph> graph,
                       const QList<models::accuracy::CompareRow>& rows, const QHash<QString, QString>& benchNodes);
    /// True once the hierarchy of the last comparison is built (treeReady was emitted).
    bool isReady() const { return m_tree != nullptr; }
    graph::GraphView* view() const { return m_view; }
    std::shared_ptr<const models::graph::ScopeTree> tree() const { return m_tree; }

    /// The worst verdict below an item; Verdict::None when none of its ops was compared.
    models::accuracy::Verdict itemVerdict(int item) const;
    /// The item of a row's node; -1 when the row has none (a target-only row).
    int itemOfRow(int row) const;
    /// The item of a graph node id; -1 when absent.
    int itemOfNode(const QString& nodeId) const;
    /// The row a click on `item` selects: the earliest of its worst rows; -1 when none.
    int rowOfItem(int item) const;
    /// Selects and reveals the node of `row` (after the hierarchy is built when it is not yet).
    void showRow(int row);

    /// The fill of a verdict on the graph (Verdict::None: not compared); light enough for dark text except error.
    static QColor verdictFill(models::accuracy::Verdict verdict);

signals:
    void treeReady();
    /// A box was clicked: the row to select in the table.
    void rowRequested(int row);

private:
    void applyTree(std::shared_ptr<const models::graph::ScopeTree> tree);
    void onSelectionChanged(int item);

    graph::GraphView* m_view = nullptr;
    QLabel* m_legend = nullptr;
    std::shared_ptr<const models::graph::ScopeTree> m_tree;
    QList<models::accuracy::CompareRow> m_rows;
    QHash<QString, QString> m_benchNodes;
    std::vector<int> m_rowItems; ///< per row
    std::vector<models::accuracy::Verdict> m_itemVerdicts; ///< per item
    std::vector<int> m_itemRows; ///< per item: rowOfItem
    quint64 m_serial = 0;
    int m_pendingRow = -1;
    bool m_showing = false; ///< the view's selection is being set from a row
};

} // namespace runlens::widgets::accuracy
