#include "scopetree.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <cctype>
#include <deque>
#include <functional>
#include <map>
#include <string_view>
#include <unordered_set>

namespace runlens::graph {

namespace {

std::vector<std::string_view> splitScope(std::string_view scope)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= scope.size()) {
        const std::size_t slash = scope.find('/', start);
        const std::size_t end = slash == std::string_view::npos ? scope.size() : slash;
        if (end > start)
            parts.push_back(scope.substr(start, end - start));
        if (slash == std::string_view::npos)
            break;
        start = slash + 1;
    }
    return parts;
}

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
            return false;
    }
    return true;
}

/// MindSpore names gradient scopes `Gradients/...`, recomputed copies `recompute_...` and optimizer cells
/// `optimizer-Adam`; TensorFlow uses `gradients/` and `Adam/`-like optimizer scopes.
ScopeRole roleOfComponent(std::string_view part)
{
    if (startsWithNoCase(part, "gradients"))
        return ScopeRole::Gradient;
    if (startsWithNoCase(part, "recompute_"))
        return ScopeRole::Recompute;
    if (startsWithNoCase(part, "optimizer"))
        return ScopeRole::Optimizer;
    return ScopeRole::Forward;
}

ScopeRole roleOfPath(const std::vector<std::string_view>& parts)
{
    ScopeRole role = ScopeRole::Forward;
    for (const std::string_view part : parts) {
        const ScopeRole r = roleOfComponent(part);
        if (r != ScopeRole::Forward)
            role = r; // the innermost special scope wins
    }
    return role;
}

bool isBypassedOp(const std::string& opType)
{
    static const std::unordered_set<std::string> kBypassed { "Load",   "TupleGetItem",  "MakeTuple", "UpdateState",
                                                             "Depend", "tuple_getitem", "make_tuple" };
    return kBypassed.count(opType) > 0;
}

/// Of a bypassed op, only these inputs carry the value through (Load/Depend/TupleGetItem: the first one;
/// MakeTuple: all; UpdateState: none, it only orders side effects).
int bypassedDataInputs(const Node& node)
{
    if (node.opType == "MakeTuple" || node.opType == "make_tuple")
        return int(node.inputs.size());
    if (node.opType == "UpdateState")
        return 0;
    return 1;
}

bool isConstantLike(const Node& node)
{
    if (node.kind == NodeKind::Parameter || node.kind == NodeKind::Constant)
        return true;
    return (node.opType == "Const" || node.opType == "Constant") && node.inputs.empty();
}

/// Ops that only materialise or reshape a constant (ONNX "light" models build every weight with
/// ConstantOfShape, TF reads variables through Identity): constant when all their inputs are.
bool passesConstants(const std::string& opType)
{
    static const std::unordered_set<std::string> kOps { "ConstantOfShape", "Identity",  "Cast",
                                                        "Transpose",       "Unsqueeze", "Squeeze",
                                                        "Reshape",         "Const",     "Constant" };
    return kOps.count(opType) > 0;
}

/// "conv_3" -> ("conv_", 3); "layers.12" -> ("layers.", 12); false when the name does not end in digits.
bool splitNumberedName(std::string_view name, std::string_view* prefix, long* number)
{
    std::size_t end = name.size();
    std::size_t start = end;
    while (start > 0 && std::isdigit(static_cast<unsigned char>(name[start - 1])))
        --start;
    if (start == end || start == 0 || end - start > 9)
        return false;
    *prefix = name.substr(0, start);
    *number = std::stol(std::string(name.substr(start)));
    return true;
}

/// Marks a lifted edge whose base edges carry different tensor types, until it gets its "N tensors" label.
const std::string kMixed = "\x1f*";

struct EffectiveEdge
{
    int from;
    int to;
    bool control;
    std::string label;
};

} // namespace

void ExpansionState::setExpanded(int item, bool expanded)
{
    if (item == ScopeTree::root())
        return;
    if (expanded)
        m_expanded.insert(item);
    else
        m_expanded.erase(item);
}

/// Builds a ScopeTree in passes: effective edges (readable-mode bypasses), folding, groups and ops,
/// series, sections, then edge lifting over the final tree.
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

    void classifyNodes()
    {
        if (!m_tree.m_options.readable)
            return;
        for (std::size_t i = 0; i < m_graph.nodes.size(); ++i) {
            const Node& node = m_graph.nodes[i];
            std::vector<std::string_view> parts = splitScope(node.scope);
            parts.push_back(node.name);
            const ScopeRole role = roleOfPath(parts);
            if (role == ScopeRole::Gradient || role == ScopeRole::Optimizer)
                m_hidden[i] = 1;
            else if (isBypassedOp(node.opType))
                m_bypassed[i] = 1;
        }
    }

    /// The non-bypassed producers standing for node `root` (itself unless it is bypassed). A post-order walk
    /// with its own stack: a chain of bypassed ops can be as long as the graph, far deeper than the call stack.
    const std::vector<int>& sourcesOf(int root)
    {
        if (const auto found = m_sources.find(root); found != m_sources.end())
            return found->second;
        struct Frame
        {
            int node;
            int slot;
        };
        std::vector<Frame> stack;
        // Starts `u`; true when it is a bypassed op whose inputs must be resolved first. A node already started
        // keeps what it has: an empty list while it is in progress breaks cycles.
        const auto start = [&](int u) {
            const auto [entry, inserted] = m_sources.try_emplace(u);
            if (!inserted)
                return false;
            if (!m_bypassed[std::size_t(u)]) {
                if (!m_hidden[std::size_t(u)])
                    entry->second.push_back(u);
                return false;
            }
            stack.push_back({ u, 0 });
            return true;
        };
        const auto valueInputs
            = [this](const Node& node) { return std::min(bypassedDataInputs(node), int(node.inputs.size())); };
        const auto producerOf = [this](const Node& node, int slot) {
            const Port& port = node.inputs[std::size_t(slot)];
            if (port.control || port.producer < 0 || std::size_t(port.producer) >= m_graph.nodes.size())
                return -1;
            return port.producer;
        };
        start(root);
        while (!stack.empty()) {
            const int u = stack.back().node;
            const Node& node = m_graph.nodes[std::size_t(u)];
            const int count = valueInputs(node);
            bool descended = false;
            while (stack.back().slot < count && !descended) {
                const int producer = producerOf(node, stack.back().slot++);
                descended = producer >= 0 && start(producer);
            }
            if (descended)
                continue;
            std::vector<int> collected;
            for (int slot = 0; slot < count; ++slot) {
                const int producer = producerOf(node, slot);
                if (producer < 0)
                    continue;
                const std::vector<int>& sub = m_sources[producer];
                collected.insert(collected.end(), sub.begin(), sub.end());
            }
            std::sort(collected.begin(), collected.end());
            collected.erase(std::unique(collected.begin(), collected.end()), collected.end());
            m_sources[u] = std::move(collected);
            stack.pop_back();
        }
        return m_sources[root];
    }

    void buildEffectiveEdges()
    {
        for (const Edge& edge : m_graph.edges) {
            if (m_hidden[std::size_t(edge.to)] || m_bypassed[std::size_t(edge.to)])
                continue;
            const Node& to = m_graph.nodes[std::size_t(edge.to)];
            std::string label;
            if (std::size_t(edge.toSlot) < to.inputs.size())
                label = to.inputs[std::size_t(edge.toSlot)].type.text();
            if (label.empty()) {
                const Node& from = m_graph.nodes[std::size_t(edge.from)];
                if (std::size_t(edge.fromSlot) < from.outputs.size())
                    label = from.outputs[std::size_t(edge.fromSlot)].type.text();
            }
            for (const int source : sourcesOf(edge.from)) {
                if (source != edge.to)
                    m_effective.push_back({ source, edge.to, edge.control, label });
            }
        }
        m_consumers.assign(m_graph.nodes.size(), {});
        m_producers.assign(m_graph.nodes.size(), {});
        for (const EffectiveEdge& edge : m_effective) {
            m_consumers[std::size_t(edge.from)].push_back(edge.to);
            if (!edge.control)
                m_producers[std::size_t(edge.to)].push_back(edge.from);
        }
    }

    bool visibleOp(std::size_t node) const { return !m_hidden[node] && !m_bypassed[node]; }

    void foldConstants()
    {
        if (!m_tree.m_options.foldConstants)
            return;
        const std::size_t n = m_graph.nodes.size();
        std::vector<std::uint8_t> constant(n, 0);
        for (std::size_t i = 0; i < n; ++i)
            constant[i] = visibleOp(i) && isConstantLike(m_graph.nodes[i]) ? 1 : 0;
        // Constant subexpressions (a weight built by ConstantOfShape from a folded shape) fold as a whole.
        for (int pass = 0; pass < 16; ++pass) {
            bool changed = false;
            for (std::size_t i = 0; i < n; ++i) {
                const Node& node = m_graph.nodes[i];
                if (constant[i] || !visibleOp(i) || !passesConstants(node.opType) || m_producers[i].empty())
                    continue;
                const bool allConstant = std::all_of(m_producers[i].begin(), m_producers[i].end(),
                                                     [&constant](int p) { return constant[std::size_t(p)] != 0; });
                if (allConstant) {
                    constant[i] = 1;
                    changed = true;
                }
            }
            if (!changed)
                break;
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (constant[i] && !m_consumers[i].empty())
                m_tree.m_nodeFolded[i] = 1;
        }
    }

    int groupFor(const std::vector<std::string_view>& parts)
    {
        int parent = ScopeTree::root();
        std::string path;
        for (const std::string_view part : parts) {
            if (!path.empty())
                path += '/';
            path += part;
            const auto found = m_groups.find(path);
            if (found != m_groups.end()) {
                parent = found->second;
                continue;
            }
            ScopeItem group;
            group.kind = ScopeItemKind::Group;
            group.parent = parent;
            group.label = std::string(part);
            group.key = "g:" + path;
            const ScopeRole own = roleOfComponent(part);
            group.role = own != ScopeRole::Forward ? own : at(parent).role;
            const int id = addItem(std::move(group));
            m_groups.emplace(path, id);
            parent = id;
        }
        return parent;
    }

    /// Groups join their parent's children when their first op is placed, so siblings keep file order.
    void attachGroup(int group)
    {
        if (m_attached.size() < m_tree.m_items.size())
            m_attached.resize(m_tree.m_items.size(), 0);
        while (group != ScopeTree::root() && !m_attached[std::size_t(group)]) {
            m_attached[std::size_t(group)] = 1;
            at(at(group).parent).children.push_back(group);
            group = at(group).parent;
        }
    }

    void buildGroups()
    {
        ScopeItem root;
        root.kind = ScopeItemKind::Group;
        root.key = "g:";
        root.label = m_graph.name;
        addItem(std::move(root));
        std::vector<int> groupOfNode(m_graph.nodes.size(), -1);
        // Groups first, so that an op whose full name is also a scope can be put inside that scope.
        for (std::size_t i = 0; i < m_graph.nodes.size(); ++i) {
            if (visibleOp(i) && !m_tree.m_nodeFolded[i])
                groupOfNode[i] = groupFor(splitScope(m_graph.nodes[i].scope));
        }
        for (std::size_t i = 0; i < m_graph.nodes.size(); ++i) {
            if (groupOfNode[i] < 0)
                continue;
            const Node& node = m_graph.nodes[i];
            ScopeItem op;
            op.kind = ScopeItemKind::Op;
            op.node = int(i);
            op.opType = node.opType;
            op.label = node.name.empty() ? node.id : node.name;
            op.key = "n:" + node.id;
            int parent = groupOfNode[i];
            std::vector<std::string_view> parts = splitScope(node.scope);
            parts.push_back(node.name);
            const auto clash = m_groups.find(node.fullName());
            if (!node.name.empty() && clash != m_groups.end()) {
                parent = clash->second;
                op.label = '(' + op.label + ')';
            }
            op.role = roleOfPath(parts);
            op.parent = parent;
            attachGroup(parent);
            const int id = addItem(std::move(op));
            at(parent).children.push_back(id);
            m_tree.m_nodeItem[i] = id;
        }
    }

    std::string inputPattern(const Node& node) const
    {
        std::string pattern;
        for (const Port& port : node.inputs) {
            if (port.control)
                continue;
            pattern += port.type.text();
            pattern += ';';
        }
        return pattern;
    }

    void makeSeries(int parent, const std::vector<int>& members, std::string label, std::string opType,
                    const std::string& key)
    {
        ScopeItem series;
        series.kind = ScopeItemKind::Series;
        series.parent = parent;
        series.label = std::move(label);
        series.opType = std::move(opType);
        series.key = at(parent).key + "/s:" + key;
        series.role = at(members.front()).role;
        series.children = members;
        const int id = addItem(std::move(series));
        const std::unordered_set<int> memberSet(members.begin(), members.end());
        std::vector<int>& siblings = at(parent).children;
        const auto first = std::find(siblings.begin(), siblings.end(), members.front());
        *first = id;
        siblings.erase(std::remove_if(siblings.begin(), siblings.end(), [&](int c) { return memberSet.count(c) > 0; }),
                       siblings.end());
        for (const int member : members)
            at(member).parent = id;
    }

    /// MindInsight's `Conv2D[6]` (same op type and input shapes) for ops, TensorBoard's numbered series
    /// (`conv_1 .. conv_8` of the same size) for groups.
    void groupSeries(int container)
    {
        const std::vector<int> children = at(container).children;
        for (const int child : children) {
            if (at(child).kind == ScopeItemKind::Group)
                groupSeries(child);
        }
        const int minSize = std::max(2, m_tree.m_options.seriesMinSize);
        // Alike ops form a series only when they run side by side: all read one producer (heads slicing
        // one projection) or all feed one consumer (branches into a Concat). Alike ops in a chain, like
        // the BatchNorms of a flat ResNet, stay apart: a series of them would tie the graph into knots.
        std::map<std::string, std::vector<int>> fanOut;
        std::map<std::string, std::vector<int>> fanIn;
        std::map<std::string, std::vector<std::pair<long, int>>> groupFanOut;
        std::map<std::string, std::vector<std::pair<long, int>>> groupFanIn;
        const auto firstOf = [](const std::vector<int>& nodes) {
            return nodes.empty() ? -1 : *std::min_element(nodes.begin(), nodes.end());
        };
        for (const int child : children) {
            const ScopeItem& item = at(child);
            if (item.kind == ScopeItemKind::Op) {
                const Node& node = m_graph.nodes[std::size_t(item.node)];
                if (node.kind != NodeKind::Op || node.opType.empty() || item.label.front() == '(')
                    continue;
                const std::string key = node.opType + '\x1f' + inputPattern(node) + '\x1f';
                std::vector<int> producers;
                for (const int p : m_producers[std::size_t(item.node)]) {
                    if (!m_tree.m_nodeFolded[std::size_t(p)])
                        producers.push_back(p);
                }
                const int producer = firstOf(producers);
                const int consumer = firstOf(m_consumers[std::size_t(item.node)]);
                if (producer >= 0)
                    fanOut[key + std::to_string(producer)].push_back(child);
                if (consumer >= 0)
                    fanIn[key + std::to_string(consumer)].push_back(child);
            } else if (item.kind == ScopeItemKind::Group) {
                std::string_view prefix;
                long number = 0;
                if (!splitNumberedName(item.label, &prefix, &number))
                    continue;
                const auto [producer, consumer] = externalNeighbours(child);
                if (producer >= 0)
                    groupFanOut[std::string(prefix) + '\x1f' + std::to_string(producer)].emplace_back(number, child);
                if (consumer >= 0)
                    groupFanIn[std::string(prefix) + '\x1f' + std::to_string(consumer)].emplace_back(number, child);
            }
        }
        std::unordered_set<int> taken;
        for (auto* buckets : { &fanOut, &fanIn }) {
            for (auto& [bucketKey, candidates] : *buckets) {
                std::vector<int> members;
                for (const int c : candidates) {
                    if (!taken.count(c))
                        members.push_back(c);
                }
                if (int(members.size()) < minSize)
                    continue;
                taken.insert(members.begin(), members.end());
                const std::string& opType = at(members.front()).opType;
                makeSeries(container, members, opType + '[' + std::to_string(members.size()) + ']', opType,
                           opType + '#' + std::to_string(m_seriesCounter++));
            }
        }
        for (auto* buckets : { &groupFanOut, &groupFanIn }) {
            for (auto& [bucketKey, candidates] : *buckets) {
                std::vector<std::pair<long, int>> numbered;
                for (const auto& candidate : candidates) {
                    if (!taken.count(candidate.second))
                        numbered.push_back(candidate);
                }
                if (int(numbered.size()) < minSize)
                    continue;
                std::sort(numbered.begin(), numbered.end());
                std::vector<int> members;
                for (const auto& entry : numbered)
                    members.push_back(entry.second);
                taken.insert(members.begin(), members.end());
                const std::string prefix = bucketKey.substr(0, bucketKey.find('\x1f'));
                std::string label = prefix + '[' + std::to_string(numbered.front().first) + '-'
                    + std::to_string(numbered.back().first) + ']';
                makeSeries(container, members, std::move(label), {}, prefix + '#' + std::to_string(m_seriesCounter++));
            }
        }
    }

    /// The first producer outside `group` of any op inside it, and the first consumer outside; -1 when none.
    std::pair<int, int> externalNeighbours(int group)
    {
        std::unordered_set<int> inside;
        std::vector<int> stack { group };
        while (!stack.empty()) {
            const int id = stack.back();
            stack.pop_back();
            if (at(id).kind == ScopeItemKind::Op)
                inside.insert(at(id).node);
            stack.insert(stack.end(), at(id).children.begin(), at(id).children.end());
        }
        int producer = -1;
        int consumer = -1;
        for (const int node : inside) {
            for (const int p : m_producers[std::size_t(node)]) {
                if (!inside.count(p) && !m_tree.m_nodeFolded[std::size_t(p)] && (producer < 0 || p < producer))
                    producer = p;
            }
            for (const int c : m_consumers[std::size_t(node)]) {
                if (!inside.count(c) && (consumer < 0 || c < consumer))
                    consumer = c;
            }
        }
        return { producer, consumer };
    }

    /// Graph inputs are a model's boundary, not its content: a model exported with every weight as an input
    /// (old ONNX exporters, traced graphs) would otherwise show hundreds of them beside a few groups, split
    /// into numbered sections that bury the model. Many of them side by side go into one "Inputs" group.
    void gatherInputs()
    {
        const std::size_t minimum = std::size_t(std::max(2, m_tree.m_options.inputGroupMin));
        const int containers = int(m_tree.m_items.size());
        for (int id = 0; id < containers; ++id) {
            if (at(id).kind != ScopeItemKind::Group)
                continue;
            std::vector<int> members;
            for (const int child : at(id).children) {
                if (at(child).kind != ScopeItemKind::Op)
                    continue;
                const NodeKind kind = m_graph.nodes[std::size_t(at(child).node)].kind;
                if (kind == NodeKind::Input || kind == NodeKind::Parameter || kind == NodeKind::Constant)
                    members.push_back(child);
            }
            if (members.size() < minimum)
                continue;
            ScopeItem group;
            group.kind = ScopeItemKind::Group;
            group.parent = id;
            group.role = at(id).role;
            group.gathersInputs = true;
            group.label = QCoreApplication::translate("runlens::graph::ScopeTree", "Inputs").toStdString();
            group.key = at(id).key + "/inputs:";
            group.children = members;
            const int groupId = addItem(std::move(group));
            const std::unordered_set<int> memberSet(members.begin(), members.end());
            std::vector<int>& siblings = at(id).children;
            *std::find(siblings.begin(), siblings.end(), members.front()) = groupId;
            siblings.erase(
                std::remove_if(siblings.begin(), siblings.end(), [&](int c) { return memberSet.count(c) > 0; }),
                siblings.end());
            for (const int member : members)
                at(member).parent = groupId;
        }
    }

    void splitSections()
    {
        const std::size_t limit = std::size_t(std::max(2, m_tree.m_options.sectionMaxChildren));
        for (int id = 0; id < int(m_tree.m_items.size()); ++id) {
            while (at(id).children.size() > limit) {
                const std::vector<int> children = at(id).children;
                const std::size_t count = (children.size() + limit - 1) / limit;
                const std::size_t chunk = (children.size() + count - 1) / count;
                std::vector<int> sections;
                for (std::size_t s = 0; s < count; ++s) {
                    ScopeItem section;
                    section.kind = ScopeItemKind::Section;
                    section.parent = id;
                    section.role = at(id).role;
                    section.label = QCoreApplication::translate("runlens::graph::ScopeTree", "section %1 of %2")
                                        .arg(s + 1)
                                        .arg(count)
                                        .toStdString();
                    section.key = at(id).key + "/section:" + std::to_string(s + 1) + ':' + std::to_string(count);
                    const std::size_t begin = s * chunk;
                    const std::size_t end = std::min(children.size(), begin + chunk);
                    section.children.assign(children.begin() + std::ptrdiff_t(begin),
                                            children.begin() + std::ptrdiff_t(end));
                    const int sectionId = addItem(std::move(section));
                    for (const int child : at(sectionId).children)
                        at(child).parent = sectionId;
                    sections.push_back(sectionId);
                }
                at(id).children = std::move(sections);
            }
        }
    }

    void finishItems()
    {
        // Parents are created before children except for series and sections, so compute depths top-down.
        std::vector<int> stack { ScopeTree::root() };
        std::vector<int> order;
        while (!stack.empty()) {
            const int id = stack.back();
            stack.pop_back();
            order.push_back(id);
            for (const int child : at(id).children) {
                at(child).depth = at(id).depth + 1;
                m_tree.m_maxDepth = std::max(m_tree.m_maxDepth, at(child).depth);
                stack.push_back(child);
            }
        }
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            ScopeItem& item = at(*it);
            if (item.kind == ScopeItemKind::Op)
                item.opCount = 1;
            else
                for (const int child : item.children)
                    item.opCount += at(child).opCount;
        }
        for (int id = 0; id < int(m_tree.m_items.size()); ++id)
            m_tree.m_keys.emplace(at(id).key, id);
        m_tree.m_edges.assign(m_tree.m_items.size(), {});
        m_tree.m_opIn.assign(m_tree.m_items.size(), {});
        m_tree.m_opOut.assign(m_tree.m_items.size(), {});
    }

    void liftEdges()
    {
        std::vector<std::unordered_map<std::uint64_t, std::size_t>> index(m_tree.m_items.size());
        std::unordered_set<std::uint64_t> opPairs;
        for (const EffectiveEdge& edge : m_effective) {
            if (m_tree.m_nodeFolded[std::size_t(edge.from)]) {
                const int consumer
                    = m_tree.m_nodeFolded[std::size_t(edge.to)] ? -1 : m_tree.m_nodeItem[std::size_t(edge.to)];
                if (consumer >= 0) {
                    std::vector<int>& folded = at(consumer).folded;
                    if (std::find(folded.begin(), folded.end(), edge.from) == folded.end())
                        folded.push_back(edge.from);
                    if (m_tree.m_nodeItem[std::size_t(edge.from)] < 0)
                        m_tree.m_nodeItem[std::size_t(edge.from)] = consumer;
                }
                continue;
            }
            int a = m_tree.m_nodeItem[std::size_t(edge.from)];
            int b = m_tree.m_nodeItem[std::size_t(edge.to)];
            if (a < 0 || b < 0 || a == b)
                continue;
            const std::uint64_t opPair = (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b);
            if (opPairs.insert(opPair).second) {
                m_tree.m_opOut[std::size_t(a)].push_back(b);
                m_tree.m_opIn[std::size_t(b)].push_back(a);
            }
            while (at(a).depth > at(b).depth)
                a = at(a).parent;
            while (at(b).depth > at(a).depth)
                b = at(b).parent;
            while (at(a).parent != at(b).parent) {
                a = at(a).parent;
                b = at(b).parent;
            }
            if (a == b)
                continue;
            const int container = at(a).parent;
            const std::uint64_t pair = (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b);
            std::vector<LiftedEdge>& edges = m_tree.m_edges[std::size_t(container)];
            const auto [slot, inserted] = index[std::size_t(container)].try_emplace(pair, edges.size());
            if (inserted) {
                edges.push_back({ a, b, 0, true, edge.label });
            }
            LiftedEdge& lifted = edges[slot->second];
            ++lifted.count;
            lifted.control = lifted.control && edge.control;
            if (lifted.label != edge.label)
                lifted.label = kMixed;
        }
        // A constant that only feeds other constants is found at the op the chain ends in.
        for (int pass = 0; pass < 16; ++pass) {
            bool changed = false;
            for (std::size_t i = 0; i < m_graph.nodes.size(); ++i) {
                if (!m_tree.m_nodeFolded[i] || m_tree.m_nodeItem[i] >= 0)
                    continue;
                for (const int consumer : m_consumers[i]) {
                    if (m_tree.m_nodeItem[std::size_t(consumer)] >= 0) {
                        m_tree.m_nodeItem[i] = m_tree.m_nodeItem[std::size_t(consumer)];
                        changed = true;
                        break;
                    }
                }
            }
            if (!changed)
                break;
        }
        for (auto& edges : m_tree.m_edges) {
            for (LiftedEdge& edge : edges) {
                if (edge.label == kMixed)
                    edge.label = std::to_string(edge.count) + " tensors";
            }
        }
    }

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

} // namespace runlens::graph
