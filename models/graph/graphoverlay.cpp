#include "models/graph/graphoverlay.h"

#include "models/trace/tracestore.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

#include <string>
#include <unordered_map>

namespace runlens::models::graph {

namespace {

constexpr int kUnresolved = -2;
constexpr int kAmbiguous = -1;

bool canBeOp(trace::EventKind kind)
{
    switch (kind) {
    case trace::EventKind::CpuOp:
    case trace::EventKind::Kernel:
    case trace::EventKind::Communication:
    case trace::EventKind::Other: // MindSpore and other timelines without categories
        return true;
    default:
        return false;
    }
}

/// ONNX Runtime names node events `<node>_kernel_time`, `<node>_fence_before` ...; ONNX node names
/// often start with '/', which our scopes drop.
std::string_view normalise(std::string_view name)
{
    for (const std::string_view suffix :
         { std::string_view("_kernel_time"), std::string_view("_fence_before"), std::string_view("_fence_after") }) {
        if (name.size() > suffix.size() && name.ends_with(suffix)) {
            name.remove_suffix(suffix.size());
            break;
        }
    }
    while (name.starts_with('/'))
        name.remove_prefix(1);
    return name;
}

/// Keys to node index; a key held by two nodes maps to kAmbiguous.
class KeyIndex
{
public:
    void add(std::string_view key, int node)
    {
        if (key.empty())
            return;
        const auto [it, inserted] = m_map.try_emplace(std::string(key), node);
        if (!inserted && it->second != node)
            it->second = kAmbiguous;
    }
    int find(std::string_view key) const
    {
        const auto it = m_map.find(std::string(key));
        return it == m_map.end() ? kAmbiguous : it->second;
    }

private:
    std::unordered_map<std::string, int> m_map;
};

struct Matcher
{
    KeyIndex full;
    KeyIndex names;
    KeyIndex strippedFull;
    KeyIndex strippedNames;

    explicit Matcher(const Graph& graph)
    {
        for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
            const Node& node = graph.nodes[i];
            if (node.implicit || node.kind == NodeKind::Parameter || node.kind == NodeKind::Constant)
                continue;
            const std::string fullName = node.fullName();
            full.add(normalise(fullName), int(i));
            names.add(normalise(node.name), int(i));
            strippedFull.add(stripOpSuffix(normalise(fullName)), int(i));
            strippedNames.add(stripOpSuffix(normalise(node.name)), int(i));
        }
    }

    /// Exact: full name, else a unique short name (the last component of a scoped key included).
    int exact(std::string_view key) const
    {
        key = normalise(key);
        if (const int node = full.find(key); node >= 0)
            return node;
        if (const int node = names.find(key); node >= 0)
            return node;
        if (const auto slash = key.rfind('/'); slash != std::string_view::npos)
            return names.find(key.substr(slash + 1));
        return kAmbiguous;
    }

    int stripped(std::string_view key) const
    {
        key = stripOpSuffix(normalise(key));
        if (const int node = strippedFull.find(key); node >= 0)
            return node;
        if (key.find('/') != std::string_view::npos)
            return kAmbiguous; // a scoped key must agree on its scope
        return strippedNames.find(key);
    }
};

std::string argsFullName(std::string_view json)
{
    if (json.empty() || json.find("fullname") == std::string_view::npos)
        return {};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), qsizetype(json.size())));
    return doc.object().value(QLatin1String("fullname")).toString().toStdString();
}

} // namespace

std::string_view stripOpSuffix(std::string_view name)
{
    const auto dash = name.rfind("-op");
    if (dash == std::string_view::npos || dash + 3 >= name.size())
        return name;
    for (std::size_t i = dash + 3; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return name;
    }
    return name.substr(0, dash);
}

GraphOverlay GraphOverlay::compute(const Graph& graph, const trace::TraceStore& store)
{
    GraphOverlay overlay;
    overlay.nodeTime.assign(graph.nodes.size(), 0);
    const Matcher matcher(graph);
    const trace::StringTable& strings = store.strings();
    // Per slice name: the node its name matches directly, kAmbiguous when it needs the args.
    std::vector<int> byName(strings.size(), kUnresolved);
    // Per slice name: the node its name matches with `-opN` stripped; and whether its args were seen
    // without a fullname (the args of one op name share their keys), so they are not scanned again.
    std::vector<int> byStrippedName(strings.size(), kUnresolved);
    std::vector<std::uint8_t> noFullName(strings.size(), 0);
    std::unordered_map<std::string, std::pair<int, bool>> byFullName; ///< node, matched stripped
    std::vector<std::uint8_t> strippedOnly(graph.nodes.size(), 0);
    std::vector<std::uint8_t> exactHit(graph.nodes.size(), 0);

    const auto& tracks = store.tracks();
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        const trace::Track& track = tracks[t];
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (!canBeOp(track.kind[i]) || (track.flags[i] & trace::AbsurdDuration))
                continue;
            const std::int64_t duration = track.duration[i];
            ++overlay.opSlices;
            overlay.opTime += duration;
            const trace::StringId nameId = track.name_[i];
            int& direct = byName[nameId];
            if (direct == kUnresolved)
                direct = matcher.exact(strings.view(nameId));
            int node = direct;
            bool stripped = false;
            if (node < 0) {
                const std::string fullName
                    = noFullName[nameId] ? std::string() : argsFullName(store.argsJson(int(t), i));
                if (fullName.empty()) {
                    noFullName[nameId] = 1;
                } else {
                    const auto [it, inserted] = byFullName.try_emplace(fullName, kUnresolved, false);
                    if (inserted) {
                        it->second.first = matcher.exact(fullName);
                        if (it->second.first < 0) {
                            it->second.first = matcher.stripped(fullName);
                            it->second.second = it->second.first >= 0;
                        }
                    }
                    node = it->second.first;
                    stripped = it->second.second;
                }
                if (node < 0) {
                    int& byStripped = byStrippedName[nameId];
                    if (byStripped == kUnresolved)
                        byStripped = matcher.stripped(strings.view(nameId));
                    node = byStripped;
                    stripped = node >= 0;
                }
            }
            if (node < 0)
                continue;
            ++overlay.matchedSlices;
            overlay.matchedTime += duration;
            overlay.nodeTime[std::size_t(node)] += duration;
            (stripped ? strippedOnly : exactHit)[std::size_t(node)] = 1;
        }
    }
    for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
        if (!exactHit[n] && !strippedOnly[n])
            continue;
        ++overlay.matchedNodes;
        if (!exactHit[n])
            ++overlay.strippedNodes;
    }
    return overlay;
}

std::vector<std::int64_t> GraphOverlay::itemTimes(const ScopeTree& tree) const
{
    std::vector<std::int64_t> times(std::size_t(tree.itemCount()), 0);
    for (int id = 0; id < tree.itemCount(); ++id) {
        const ScopeItem& item = tree.item(id);
        if (item.kind != ScopeItemKind::Op || item.node < 0 || std::size_t(item.node) >= nodeTime.size())
            continue;
        std::int64_t time = nodeTime[std::size_t(item.node)];
        for (const int folded : item.folded) {
            if (std::size_t(folded) < nodeTime.size())
                time += nodeTime[std::size_t(folded)];
        }
        if (time == 0)
            continue;
        for (int at = id; at >= 0; at = tree.item(at).parent)
            times[std::size_t(at)] += time;
    }
    return times;
}

std::shared_ptr<const ItemProfile> ItemProfile::compute(std::shared_ptr<const ScopeTree> tree,
                                                        const trace::TraceStore& store)
{
    auto profile = std::make_shared<ItemProfile>();
    const GraphOverlay overlay = GraphOverlay::compute(tree->graph(), store);
    profile->times = overlay.itemTimes(*tree);
    profile->total = overlay.matchedTime;
    profile->summary = overlay.summary(tree->graph());
    profile->tree = std::move(tree);
    return profile;
}

QString GraphOverlay::summary(const Graph& graph) const
{
    const int nodes = graph.nodeCount();
    QString text = QCoreApplication::translate("runlens::models::graph::GraphOverlay", "%1 of %2 nodes matched")
                       .arg(matchedNodes)
                       .arg(nodes);
    if (strippedNodes > 0)
        text += QCoreApplication::translate("runlens::models::graph::GraphOverlay", " (%1 without -opN)")
                    .arg(strippedNodes);
    if (opTime > 0) {
        text += QCoreApplication::translate("runlens::models::graph::GraphOverlay", ", %1% of op time")
                    .arg(100.0 * double(matchedTime) / double(opTime), 0, 'f', 0);
    }
    return text;
}

} // namespace runlens::models::graph
