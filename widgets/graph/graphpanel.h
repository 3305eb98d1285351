#pragma once

#include "models/graph/graph.h"
#include "models/graph/graphoverlay.h"
#include "models/graph/scopetree.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace runlens::models::trace {
class TraceStore;
}

namespace runlens::widgets::graph {

class GraphView;

/// The Graph panel: a GraphView with a toolbar (graph choice, search, colouring, direction, edge labels,
/// trace depth, expand/collapse all, fit, export) and a search result list. Builds each graph's ScopeTree
/// on a worker, remembers the expanded groups and the viewport per graph file (QSettings), and exports
/// the current picture to SVG or PNG.
class GraphPanel final : public QWidget
{
    Q_OBJECT
public:
    /// Returns the file to write, given a suggested absolute file name; empty cancels. The application
    /// installs one that opens a file dialog; without it, exports go to the pictures folder.
    using FileNameProvider = std::function<QString(const QString& suggestedFileName)>;

    explicit GraphPanel(QWidget* parent = nullptr);
    ~GraphPanel() override;

    /// Adds a graph to the choice. Until a graph is chosen (by the user, selectGraph or showTree) the panel
    /// shows the one with the richest hierarchy so far (graph::HierarchyScore); the hierarchy is built on a
    /// worker.
    void addGraph(std::shared_ptr<const models::graph::Graph> graph);
    /// Shows an already built hierarchy (and adds its graph to the choice).
    void showTree(std::shared_ptr<const models::graph::ScopeTree> tree);
    void clear();
    int graphCount() const { return int(m_graphs.size()); }
    /// Shows the graph with this name or file name and keeps it shown as others arrive; false when there is none.
    bool selectGraph(const QString& nameOrFile);
    /// The graph shown (index in the order graphs were added), -1 when none.
    int currentGraphIndex() const;

    GraphView* view() const { return m_view; }
    std::shared_ptr<const models::graph::ScopeTree> tree() const;
    QListWidget* resultList() const { return m_results; }

    /// Runs a search with the toolbar's options and lists the hits; returns their number.
    int search(const QString& pattern);
    void setReadable(bool readable);

    /// The trace whose op times the "Profiler time" colouring shows (null: none, the mode is disabled).
    /// Ops are matched to the shown graph on a worker whenever the trace or the hierarchy changes.
    void setProfile(std::shared_ptr<const models::trace::TraceStore> store);
    /// The profile of the shown tree, once matched; null without a trace.
    const std::shared_ptr<const models::graph::ItemProfile>& profile() const { return m_profile; }

    void setFileNameProvider(FileNameProvider provider) { m_fileNameProvider = std::move(provider); }
    /// Writes the current picture (all of it, at the current expansion) as SVG or PNG by the suffix.
    bool exportTo(const QString& fileName, QString* errorMessage = nullptr) const;
    static bool exportView(const GraphView& view, const QString& fileName, QString* errorMessage = nullptr);
    /// Lays out `graph` collapsed, without a window, and writes it as SVG or PNG (the command line export).
    static bool exportGraph(std::shared_ptr<const models::graph::Graph> graph, const QString& fileName,
                            QString* errorMessage = nullptr);
    /// The direction of the data flow: "TB" (top down) or "LR" (left to right), as the toolbar shows it.
    QString rankDir() const;
    void setRankDir(const QString& rankDir);
    /// The file of the graph shown; empty when none is.
    QString currentGraphPath() const;
    /// The keys of the expanded groups of the graph shown (stable across reloads of the same file).
    QStringList expandedGroups() const;
    /// Expands exactly these groups of the graph shown (unknown keys are ignored); false when no graph is.
    bool setExpandedGroups(const QStringList& keys);
    /// The settings group that holds the state of a graph file.
    static QString settingsGroup(const QString& graphPath);

public slots:
    /// Expands the ancestors of an item, selects and centres it.
    void revealItem(int item);

signals:
    void currentItemChanged(int item);
    void treeChanged(std::shared_ptr<const models::graph::ScopeTree> tree);
    /// A new profile for the shown tree (null when the trace went away), e.g. for NodeDetailsWidget.
    void profileChanged(std::shared_ptr<const models::graph::ItemProfile> profile);

private:
    void buildTree(int index);
    void applyTree(std::shared_ptr<const models::graph::ScopeTree> tree);
    void saveState() const;
    void requestExport(const QString& suffix);
    void onResultActivated();
    void updateProfile();

    std::vector<std::shared_ptr<const models::graph::Graph>> m_graphs;
    std::vector<models::graph::HierarchyScore> m_scores; ///< per graph
    bool m_graphChosen = false; ///< a graph was picked on purpose: arrivals no longer change it
    std::shared_ptr<const models::graph::ScopeTree> m_tree;
    quint64 m_buildSerial = 0;
    std::shared_ptr<const models::trace::TraceStore> m_store;
    std::shared_ptr<const models::graph::ItemProfile> m_profile;
    quint64 m_profileSerial = 0;
    FileNameProvider m_fileNameProvider;
    bool m_restoring = false;

    QComboBox* m_graphChoice = nullptr;
    QLineEdit* m_search = nullptr;
    QCheckBox* m_regex = nullptr;
    QComboBox* m_color = nullptr;
    QComboBox* m_direction = nullptr;
    QCheckBox* m_labels = nullptr;
    QCheckBox* m_readable = nullptr;
    QSpinBox* m_depth = nullptr;
    QLabel* m_status = nullptr;
    QListWidget* m_results = nullptr;
    GraphView* m_view = nullptr;
};

} // namespace runlens::widgets::graph
