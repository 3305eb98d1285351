#include "models/graph/scopetreebuilder.h"

#include <QCoreApplication>

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>
#include <unordered_set>

namespace runlens::models::graph {

namespace {

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

} // namespace

std::string ScopeTreeBuilder::inputPattern(const Node& node) const
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

void ScopeTreeBuilder::makeSeries(int parent, const std::vector<int>& members, std::string label, std::string opType,
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
void ScopeTreeBuilder::groupSeries(int container)
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
std::pair<int, int> ScopeTreeBuilder::externalNeighbours(int group)
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
void ScopeTreeBuilder::gatherInputs()
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
        group.label = QCoreApplication::translate("runlens::models::graph::ScopeTree", "Inputs").toStdString();
        group.key = at(id).key + "/inputs:";
        group.children = members;
        const int groupId = addItem(std::move(group));
        const std::unordered_set<int> memberSet(members.begin(), members.end());
        std::vector<int>& siblings = at(id).children;
        *std::find(siblings.begin(), siblings.end(), members.front()) = groupId;
        siblings.erase(std::remove_if(siblings.begin(), siblings.end(), [&](int c) { return memberSet.count(c) > 0; }),
                       siblings.end());
        for (const int member : members)
            at(member).parent = groupId;
    }
}

void ScopeTreeBuilder::splitSections()
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
                section.label = QCoreApplication::translate("runlens::models::graph::ScopeTree", "section %1 of %2")
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

} // namespace runlens::models::graph
