#pragma once

#include "models/graph/scopetree.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace runlens::models::graph {

/// Builds a ScopeTree in passes: effective edges (readable-mode bypasses), folding, groups and ops,
/// series, sections, then edge lifting over the final tree. Private to the ScopeTree implementation: the
/// passes that build and lift are in scopetreebuilder.cpp, the grouping rules (series, the "Inputs" group,
/// sections) in scopetreegrouping.cpp; helpers called per node are inline in the file of their callers.
class ScopeTreeBuilder
{
public:
    ScopeTreeBuilder(ScopeTree& tree, const Graph& graph)
        : m_tree(tree)
        , m_graph(graph)
    { }

    void run()
    {
        const std::size_t n = m_graph.nodes.size();
        m_hidden.assign(n, 0);
        m_bypassed.assign(n, 0);
        m_tree.m_nodeItem.assign(n, -1);
        m_tree.m_nodeFolded.assign(n, 0);
        classifyNodes();
        buildEffectiveEdges();
        foldConstants();
        buildGroups();
        gatherInputs();
        if (m_tree.m_options.groupSeries)
            groupSeries(ScopeTree::root());
        splitSections();
        finishItems();
        liftEdges();
    }

private:
    int addItem(ScopeItem item)
    {
        m_tree.m_items.push_back(std::move(item));
        return int(m_tree.m_items.size()) - 1;
    }
    ScopeItem& at(int id) { return m_tree.m_items[std::size_t(id)]; }

    void classifyNodes();
    inline const std::vector<int>& sourcesOf(int root);
    void buildEffectiveEdges();
    bool visibleOp(std::size_t node) const { return !m_hidden[node] && !m_bypassed[node]; }

    void foldConstants();
    inline int groupFor(const std::vector<std::string_view>& parts);
    inline void attachGroup(int group);
    void buildGroups();

    // Grouping rules (scopetreegrouping.cpp).
    inline std::string inputPattern(const Node& node) const;
    inline void makeSeries(int parent, const std::vector<int>& members, std::string label, std::string opType,
                           const std::string& key);
    void groupSeries(int container);
    inline std::pair<int, int> externalNeighbours(int group);
    void gatherInputs();
    void splitSections();

    void finishItems();
    void liftEdges();

    struct EffectiveEdge
    {
        int from;
        int to;
        bool control;
        std::string label;
    };

    ScopeTree& m_tree;
    const Graph& m_graph;
    std::vector<std::uint8_t> m_hidden;
    std::vector<std::uint8_t> m_bypassed;
    std::unordered_map<int, std::vector<int>> m_sources;
    std::vector<EffectiveEdge> m_effective;
    std::vector<std::vector<int>> m_consumers;
    std::vector<std::vector<int>> m_producers;
    std::unordered_map<std::string, int> m_groups;
    std::vector<std::uint8_t> m_attached;
    int m_seriesCounter = 0;
};

} // namespace runlens::models::graph
