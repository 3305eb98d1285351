#pragma once

#include "models/graph/graph.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace runlens::models::graph {

/// What an item of the hierarchy is. Groups come from namespace paths, series from >= N alike siblings,
/// sections from splitting a group that has too many direct children; ops are the graph's nodes.
enum class ScopeItemKind : std::uint8_t { Group, Series, Section, Op };

/// Which part of a training graph a group or op belongs to, so the view can colour and hide it.
enum class ScopeRole : std::uint8_t { Forward, Gradient, Recompute, Optimizer };

struct ScopeItem
{
    ScopeItemKind kind = ScopeItemKind::Group;
    ScopeRole role = ScopeRole::Forward;
    int parent = -1;
    int depth = 0; ///< the root is 0
    int node = -1; ///< Op: index into Graph::nodes
    int opCount = 0; ///< ops below this item (1 for an op)
    std::string label; ///< "conv1", "Conv2D[6]", "(A)", "section 2 of 3"
    std::string key; ///< stable across builds of the same graph: the path for groups, the node id for ops
    std::string opType; ///< ops and series
    std::vector<int> children;
    std::vector<int> folded; ///< Op: constants and weights folded into it (node indices)
    /// The "Inputs" group gathering a container's many graph inputs (and unused weights): it starts
    /// collapsed, so that hundreds of inputs do not push the model out of sight.
    bool gathersInputs = false;

    bool isContainer() const { return kind != ScopeItemKind::Op; }
};

/// An edge among the direct children of one container, standing for `count` edges of the graph.
struct LiftedEdge
{
    int from = -1; ///< item ids, both direct children of the same container
    int to = -1;
    int count = 0;
    bool control = true; ///< all base edges are control edges
    std::string label; ///< the tensor type when all base edges agree, else "N tensors"
};

/// Which containers are expanded. Kept apart from the immutable ScopeTree so one tree serves any number
/// of views; the root is always expanded.
class ExpansionState
{
public:
    bool isExpanded(int item) const { return item == 0 || m_expanded.count(item) > 0; }
    void setExpanded(int item, bool expanded);
    void clear() { m_expanded.clear(); }
    const std::set<int>& expanded() const { return m_expanded; }
    bool operator==(const ExpansionState& other) const = default;

private:
    std::set<int> m_expanded;
};

/// The collapsible hierarchy of a Graph: namespace groups, series of alike siblings, sections of big groups,
/// an "Inputs" group where a container holds many graph inputs, and op leaves, with the graph's edges lifted to the
/// lowest common container so that each container knows the edges among its direct children (what a per-group layout
/// needs). Built once on a worker and shared as `std::shared_ptr<const ScopeTree>`; it keeps its Graph alive.
class ScopeTree
{
public:
    struct Options
    {
        bool readable = false; ///< bypass Load/TupleGetItem/MakeTuple/UpdateState/Depend, hide gradients/optimizer
        bool groupSeries = true;
        bool foldConstants = true;
        int seriesMinSize = 5;
        int sectionMaxChildren = 300;
        int inputGroupMin = 16; ///< this many graph inputs side by side are gathered into one "Inputs" group
    };

    struct SearchOptions
    {
        bool regex = false;
        bool caseSensitive = false;
        bool names = true;
        bool opTypes = true;
        bool attributes = true;
        int limit = 1000;
    };

    static std::shared_ptr<const ScopeTree> build(std::shared_ptr<const Graph> graph, const Options& options);
    static std::shared_ptr<const ScopeTree> build(std::shared_ptr<const Graph> graph)
    {
        return build(std::move(graph), Options {});
    }

    const Graph& graph() const { return *m_graph; }
    const std::shared_ptr<const Graph>& graphPtr() const { return m_graph; }
    const Options& options() const { return m_options; }

    static constexpr int root() { return 0; }
    int itemCount() const { return int(m_items.size()); }
    const ScopeItem& item(int id) const { return m_items[std::size_t(id)]; }
    /// Edges among the direct children of a container.
    const std::vector<LiftedEdge>& edgesOf(int container) const { return m_edges[std::size_t(container)]; }
    /// The op item of a graph node; for a folded constant the item of its first consumer; -1 when hidden.
    int itemOfNode(int node) const;
    bool isFolded(int node) const;
    /// The item whose key is `key`, or -1.
    int findKey(const std::string& key) const;
    int maxDepth() const { return m_maxDepth; }
    int groupCount() const;

    /// Ancestors of an item, the root first, without the item itself.
    std::vector<int> ancestors(int item) const;
    bool isAncestor(int ancestor, int item) const;
    /// The deepest item on the path root..item that is visible under `state` (the item itself when visible).
    int visibleAncestor(int item, const ExpansionState& state) const;
    bool isVisible(int item, const ExpansionState& state) const { return visibleAncestor(item, state) == item; }
    /// Every visible item in depth-first order: expanded containers (drawn as frames) and collapsed leaves.
    std::vector<int> visibleItems(const ExpansionState& state) const;
    /// How many items would be visible if every container below `item` (and the item) were expanded.
    int itemsBelow(int item) const;

    /// Ops (and containers by label) matching `pattern`; an invalid regex yields nothing and sets `error`.
    std::vector<int> search(const QString& pattern, const SearchOptions& options, QString* error = nullptr) const;

    /// Graph edges into/out of an op item, as op items (readable mode bypasses already applied).
    const std::vector<int>& opInputs(int item) const { return m_opIn[std::size_t(item)]; }
    const std::vector<int>& opOutputs(int item) const { return m_opOut[std::size_t(item)]; }
    /// Op items within `depth` steps upstream (`downstream` false) or downstream of `item`, the item excluded.
    std::vector<int> neighbourhood(int item, int depth, bool downstream) const;

private:
    ScopeTree() = default;

    std::shared_ptr<const Graph> m_graph;
    Options m_options;
    std::vector<ScopeItem> m_items;
    std::vector<std::vector<LiftedEdge>> m_edges;
    std::vector<std::vector<int>> m_opIn;
    std::vector<std::vector<int>> m_opOut;
    std::vector<int> m_nodeItem;
    std::vector<std::uint8_t> m_nodeFolded;
    std::unordered_map<std::string, int> m_keys;
    int m_maxDepth = 0;

    friend class ScopeTreeBuilder;
};

} // namespace runlens::models::graph
