#include "models/graph/scopetree.h"

#include "models/graph/scopetreebuilder.h"

#include <QRegularExpression>

#include <algorithm>
#include <unordered_set>

namespace runlens::models::graph {

void ExpansionState::setExpanded(int item, bool expanded)
{
    if (item == ScopeTree::root())
        return;
    if (expanded)
        m_expanded.insert(item);
    else
        m_expanded.erase(item);
}

std::shared_ptr<const ScopeTree> ScopeTree::build(std::shared_ptr<const Graph> graph, const Options& options)
{
    std::shared_ptr<ScopeTree> tree(new ScopeTree);
    tree->m_graph = std::move(graph);
    tree->m_options = options;
    if (!tree->m_graph)
        tree->m_graph = std::make_shared<Graph>();
    ScopeTreeBuilder(*tree, *tree->m_graph).run();
    return tree;
}

int ScopeTree::itemOfNode(int node) const
{
    if (node < 0 || std::size_t(node) >= m_nodeItem.size())
        return -1;
    return m_nodeItem[std::size_t(node)];
}

bool ScopeTree::isFolded(int node) const
{
    return node >= 0 && std::size_t(node) < m_nodeFolded.size() && m_nodeFolded[std::size_t(node)] != 0;
}

int ScopeTree::findKey(const std::string& key) const
{
    const auto found = m_keys.find(key);
    return found == m_keys.end() ? -1 : found->second;
}

int ScopeTree::groupCount() const
{
    return int(std::count_if(m_items.begin() + 1, m_items.end(),
                             [](const ScopeItem& item) { return item.kind == ScopeItemKind::Group; }));
}

std::vector<int> ScopeTree::ancestors(int id) const
{
    std::vector<int> result;
    for (int p = item(id).parent; p >= 0; p = item(p).parent)
        result.push_back(p);
    std::reverse(result.begin(), result.end());
    return result;
}

bool ScopeTree::isAncestor(int ancestor, int id) const
{
    for (int p = item(id).parent; p >= 0; p = item(p).parent) {
        if (p == ancestor)
            return true;
    }
    return false;
}

int ScopeTree::visibleAncestor(int id, const ExpansionState& state) const
{
    if (id < 0 || id >= itemCount())
        return -1;
    int visible = id;
    for (int p = item(id).parent; p >= 0; p = item(p).parent) {
        if (!state.isExpanded(p))
            visible = p;
    }
    return visible;
}

std::vector<int> ScopeTree::visibleItems(const ExpansionState& state) const
{
    std::vector<int> result;
    std::vector<int> stack(item(root()).children.rbegin(), item(root()).children.rend());
    while (!stack.empty()) {
        const int id = stack.back();
        stack.pop_back();
        result.push_back(id);
        const ScopeItem& it = item(id);
        if (it.isContainer() && state.isExpanded(id))
            stack.insert(stack.end(), it.children.rbegin(), it.children.rend());
    }
    return result;
}

int ScopeTree::itemsBelow(int id) const
{
    int count = 0;
    std::vector<int> stack { id };
    while (!stack.empty()) {
        const int current = stack.back();
        stack.pop_back();
        for (const int child : item(current).children) {
            ++count;
            stack.push_back(child);
        }
    }
    return count;
}

std::vector<int> ScopeTree::search(const QString& pattern, const SearchOptions& options, QString* error) const
{
    std::vector<int> result;
    if (pattern.isEmpty())
        return result;
    QRegularExpression regex;
    if (options.regex) {
        regex.setPattern(pattern);
        if (!options.caseSensitive)
            regex.setPatternOptions(QRegularExpression::CaseInsensitiveOption);
        if (!regex.isValid()) {
            if (error)
                *error = regex.errorString();
            return result;
        }
    }
    const Qt::CaseSensitivity cs = options.caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    const auto matches = [&](const std::string& text) {
        if (text.empty())
            return false;
        const QString s = QString::fromStdString(text);
        return options.regex ? regex.match(s).hasMatch() : s.contains(pattern, cs);
    };
    for (int id = 1; id < itemCount() && int(result.size()) < options.limit; ++id) {
        const ScopeItem& it = item(id);
        bool hit = false;
        if (it.kind == ScopeItemKind::Op) {
            const Node& node = m_graph->nodes[std::size_t(it.node)];
            hit = (options.names && (matches(node.fullName()) || matches(node.id)))
                || (options.opTypes && matches(node.opType));
            if (!hit && options.attributes) {
                for (const Attribute& attribute : node.attributes) {
                    if (matches(attribute.name + '=' + attribute.value)) {
                        hit = true;
                        break;
                    }
                }
            }
        } else if (it.kind == ScopeItemKind::Group) {
            hit = options.names && matches(it.key.substr(2));
        }
        if (hit)
            result.push_back(id);
    }
    return result;
}

std::vector<int> ScopeTree::neighbourhood(int id, int depth, bool downstream) const
{
    std::vector<int> result;
    if (id < 0 || id >= itemCount() || item(id).kind != ScopeItemKind::Op)
        return result;
    std::unordered_set<int> seen { id };
    std::vector<int> frontier { id };
    for (int level = 0; level < depth && !frontier.empty(); ++level) {
        std::vector<int> next;
        for (const int current : frontier) {
            for (const int other : downstream ? opOutputs(current) : opInputs(current)) {
                if (seen.insert(other).second) {
                    next.push_back(other);
                    result.push_back(other);
                }
            }
        }
        frontier = std::move(next);
    }
    return result;
}

} // namespace runlens::models::graph
