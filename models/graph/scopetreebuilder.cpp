#include "models/graph/scopetreebuilder.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_set>

namespace runlens::models::graph {

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

/// Marks a lifted edge whose base edges carry different tensor types, until it gets its "N tensors" label.
const std::string kMixed = "\x1f*";

} // namespace

void ScopeTreeBuilder::classifyNodes()
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
const std::vector<int>& ScopeTreeBuilder::sourcesOf(int root)
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

void ScopeTreeBuilder::buildEffectiveEdges()
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

void ScopeTreeBuilder::foldConstants()
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

int ScopeTreeBuilder::groupFor(const std::vector<std::string_view>& parts)
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
void ScopeTreeBuilder::attachGroup(int group)
{
    if (m_attached.size() < m_tree.m_items.size())
        m_attached.resize(m_tree.m_items.size(), 0);
    while (group != ScopeTree::root() && !m_attached[std::size_t(group)]) {
        m_attached[std::size_t(group)] = 1;
        at(at(group).parent).children.push_back(group);
        group = at(group).parent;
    }
}

void ScopeTreeBuilder::buildGroups()
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

void ScopeTreeBuilder::finishItems()
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

void ScopeTreeBuilder::liftEdges()
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

} // namespace runlens::models::graph
