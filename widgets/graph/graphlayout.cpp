#include "widgets/graph/graphlayout.h"

#include "models/graph/graphvizlock.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QThreadPool>
#include <QtConcurrent>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cmath>

Q_LOGGING_CATEGORY(lcGraphLayout, "runlens.widgets.graph.layout")

namespace runlens::widgets::graph {

namespace {

constexpr double kPointsPerInch = 72.0;
constexpr std::size_t kMaxCacheEntries = 20000;
constexpr std::size_t kIsolatedRowMax = 8;

GVC_t* graphvizContext()
{
    // Created on first use by the layout thread and kept for the process: plugin loading is not cheap.
    static GVC_t* context = gvContext();
    return context;
}

std::string inches(double points)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", std::max(points, 1.0) / kPointsPerInch);
    return buffer;
}

char* mutableText(std::string& text)
{
    return text.data();
}

/// A deterministic fallback when dot fails: children stacked in a column (tb_graph_ascend style).
GroupLayout stackLayout(const std::vector<QSizeF>& sizes)
{
    GroupLayout layout;
    layout.failed = true;
    double y = 0;
    double width = 0;
    for (const QSizeF& size : sizes) {
        layout.childRects.emplace_back(QPointF(0, y), size);
        y += size.height() + 18;
        width = std::max(width, size.width());
    }
    layout.size = QSizeF(width, std::max(0.0, y - 18));
    return layout;
}

std::string cacheKey(int container, const std::vector<QSizeF>& sizes, const QString& rankDir)
{
    std::string key = std::to_string(container) + rankDir.toStdString();
    for (const QSizeF& size : sizes) {
        key += ':';
        key += std::to_string(std::lround(size.width()));
        key += 'x';
        key += std::to_string(std::lround(size.height()));
    }
    return key;
}

} // namespace

struct GraphLayoutEngine::Private
{
    QThreadPool pool;
    LayoutCache cache; ///< touched only by the pool's single thread
};

GraphLayoutEngine::GraphLayoutEngine()
    : d(std::make_unique<Private>())
{
    d->pool.setMaxThreadCount(1);
    d->pool.setExpiryTimeout(-1);
}

GraphLayoutEngine::~GraphLayoutEngine()
{
    d->pool.clear();
    d->pool.waitForDone();
}

QFuture<LayoutResult> GraphLayoutEngine::layout(LayoutRequest request)
{
    return QtConcurrent::run(
        &d->pool, [request = std::move(request), cache = &d->cache]() { return layoutNow(request, *cache); });
}

LayoutResult GraphLayoutEngine::layoutNow(const LayoutRequest& request, LayoutCache& cache)
{
    QElapsedTimer timer;
    timer.start();
    LayoutResult result;
    result.serial = request.serial;
    result.tree = request.tree;
    result.state = request.state;
    result.frame = request.frame;
    if (!request.tree)
        return result;
    const models::graph::ScopeTree& tree = *request.tree;
    if (cache.tree != &tree || cache.entries.size() > kMaxCacheEntries) {
        cache.entries.clear();
        cache.tree = &tree;
    }

    // Visible expanded containers, deepest first, so each one's children already have their sizes.
    std::vector<int> containers { models::graph::ScopeTree::root() };
    for (const int id : tree.visibleItems(request.state)) {
        if (tree.item(id).isContainer() && request.state.isExpanded(id))
            containers.push_back(id);
    }
    std::stable_sort(containers.begin(), containers.end(),
                     [&](int a, int b) { return tree.item(a).depth > tree.item(b).depth; });

    for (const int container : containers) {
        const auto& children = tree.item(container).children;
        std::vector<QSizeF> sizes;
        sizes.reserve(children.size());
        for (const int child : children) {
            const auto laidOut = result.groups.find(child);
            if (laidOut != result.groups.end())
                sizes.push_back(request.frame.frameSize(laidOut->second->size));
            else
                sizes.push_back(request.collapsedSizes.value(child, QSizeF(120, 36)));
        }
        const std::string key = cacheKey(container, sizes, request.rankDir);
        auto cached = cache.entries.find(key);
        if (cached == cache.entries.end()) {
            GroupLayout layout;
            {
                const std::lock_guard<std::mutex> lock(models::graph::graphvizMutex());
                layout = runDot(tree, container, sizes, request.rankDir);
            }
            ++result.dotRuns;
            cached = cache.entries.emplace(key, std::make_shared<const GroupLayout>(std::move(layout))).first;
        }
        result.groups[container] = cached->second;
    }
    result.milliseconds = double(timer.nsecsElapsed()) / 1e6;
    return result;
}

GroupLayout GraphLayoutEngine::runDot(const models::graph::ScopeTree& tree, int container,
                                      const std::vector<QSizeF>& childSizes, const QString& rankDir)
{
    const auto& children = tree.item(container).children;
    if (children.empty())
        return {};
    GVC_t* gvc = graphvizContext();
    if (!gvc)
        return stackLayout(childSizes);

    std::string name = "g";
    Agraph_t* g = agopen(mutableText(name), Agdirected, nullptr);
    const auto set = [g](int kind, const char* attribute, const char* value) {
        std::string a = attribute;
        std::string v = value;
        return agattr(g, kind, a.data(), v.data());
    };
    std::string dir = rankDir.toStdString();
    set(AGRAPH, "rankdir", dir.c_str());
    set(AGRAPH, "newrank", "true");
    set(AGRAPH, "nodesep", "0.3");
    set(AGRAPH, "ranksep", "0.45");
    set(AGRAPH, "splines", "spline");
    set(AGNODE, "shape", "box");
    set(AGNODE, "fixedsize", "true");
    set(AGNODE, "label", "");
    Agsym_t* widthSym = set(AGNODE, "width", "1");
    Agsym_t* heightSym = set(AGNODE, "height", "0.5");
    set(AGEDGE, "arrowsize", "0.7");

    std::unordered_map<int, int> indexOf;
    std::vector<Agnode_t*> nodes(children.size(), nullptr);
    for (std::size_t i = 0; i < children.size(); ++i) {
        std::string nodeName = "n";
        nodeName += std::to_string(i);
        nodes[i] = agnode(g, mutableText(nodeName), 1);
        std::string w = inches(childSizes[i].width());
        std::string h = inches(childSizes[i].height());
        agxset(nodes[i], widthSym, w.data());
        agxset(nodes[i], heightSym, h.data());
        indexOf.emplace(children[i], int(i));
    }
    const auto& edges = tree.edgesOf(container);
    std::vector<std::pair<Agedge_t*, int>> agEdges;
    agEdges.reserve(edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto from = indexOf.find(edges[e].from);
        const auto to = indexOf.find(edges[e].to);
        if (from == indexOf.end() || to == indexOf.end())
            continue;
        std::string edgeName = "e";
        edgeName += std::to_string(e);
        Agedge_t* edge
            = agedge(g, nodes[std::size_t(from->second)], nodes[std::size_t(to->second)], mutableText(edgeName), 1);
        agEdges.emplace_back(edge, int(e));
    }
    // Children without edges would all land on the first rank, one very wide row; invisible chains
    // stack them into a roughly square block instead.
    std::vector<std::uint8_t> connected(children.size(), 0);
    for (const auto& edge : edges) {
        const auto from = indexOf.find(edge.from);
        const auto to = indexOf.find(edge.to);
        if (from != indexOf.end() && to != indexOf.end())
            connected[std::size_t(from->second)] = connected[std::size_t(to->second)] = 1;
    }
    std::vector<std::size_t> isolated;
    for (std::size_t i = 0; i < children.size(); ++i) {
        if (!connected[i])
            isolated.push_back(i);
    }
    if (isolated.size() > kIsolatedRowMax) {
        Agsym_t* style = set(AGEDGE, "style", "");
        const std::size_t rows = std::size_t(std::ceil(std::sqrt(double(isolated.size()) / 3.0)));
        for (std::size_t k = 0; k < isolated.size(); ++k) {
            if (k % rows == 0)
                continue;
            std::string edgeName = "i";
            edgeName += std::to_string(k);
            Agedge_t* chain = agedge(g, nodes[isolated[k - 1]], nodes[isolated[k]], mutableText(edgeName), 1);
            std::string invisible = "invis";
            agxset(chain, style, invisible.data());
        }
    }

    GroupLayout layout;
    if (gvLayout(gvc, g, "dot") != 0) {
        qCWarning(lcGraphLayout) << "dot failed on a group of" << children.size() << "children; stacking them";
        agclose(g);
        return stackLayout(childSizes);
    }
    const boxf bb = GD_bb(g);
    const auto toQt = [&bb](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
    layout.size = QSizeF(bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    layout.childRects.reserve(children.size());
    for (std::size_t i = 0; i < children.size(); ++i) {
        const QPointF centre = toQt(ND_coord(nodes[i]));
        const QSizeF size = childSizes[i];
        layout.childRects.emplace_back(centre - QPointF(size.width() / 2, size.height() / 2), size);
    }
    for (const auto& [edge, index] : agEdges) {
        const splines* spl = ED_spl(edge);
        if (!spl || spl->size < 1 || spl->list[0].size < 1)
            continue;
        GroupLayout::EdgeGeometry geometry;
        geometry.edge = index;
        const bezier& bz = spl->list[0];
        geometry.path.moveTo(toQt(bz.list[0]));
        for (std::size_t p = 1; p + 2 < std::size_t(bz.size); p += 3)
            geometry.path.cubicTo(toQt(bz.list[p]), toQt(bz.list[p + 1]), toQt(bz.list[p + 2]));
        if (bz.eflag) {
            geometry.hasArrow = true;
            geometry.arrowFrom = toQt(bz.list[bz.size - 1]);
            geometry.arrowTip = toQt(bz.ep);
        } else if (bz.sflag) {
            geometry.hasArrow = true;
            geometry.arrowFrom = toQt(bz.list[0]);
            geometry.arrowTip = toQt(bz.sp);
        }
        geometry.labelPos = geometry.path.pointAtPercent(0.5);
        layout.edges.push_back(std::move(geometry));
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    return layout;
}

} // namespace runlens::widgets::graph
