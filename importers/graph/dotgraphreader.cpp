#include "importers/graph/dotgraphreader.h"

#include "importers/graph/graphtext.h"
#include "models/graph/graphvizlock.h"

#include <graphviz/cgraph.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>

namespace runlens::importers::graph {

namespace {

/// cgraph reports syntax errors through a global callback: collect them while the lock is held.
std::string* g_errors = nullptr;

int collectError(char* message)
{
    if (g_errors && message && g_errors->size() < 4096)
        *g_errors += message;
    return 0;
}

/// cgraph's parser keeps a stack of a few thousand entries; a file that overflows it (an edge chain of a
/// few thousand nodes, subgraphs nested as deep) ends with "memory exhausted" and leaves the lexer inside
/// that text, so the next parse would read on in a buffer that is gone by then. Parsing a tiny graph until
/// one succeeds puts the lexer back at rest. Called with the graphviz lock held, while the text still lives.
void resetParser()
{
    for (int attempt = 0; attempt < 4; ++attempt) {
        if (Agraph_t* g = agmemread("graph{}")) {
            agclose(g);
            return;
        }
    }
}

std::string attribute(void* object, const char* name)
{
    const char* value = agget(object, const_cast<char*>(name));
    return value ? std::string(value) : std::string();
}

/// Text of an HTML-like label: the contents of its cells, tags and entities removed. Cells that declare a
/// port and hold only a number are the input slots of MindSpore's tables, not text.
std::vector<std::string> htmlCells(std::string_view html)
{
    std::vector<std::string> cells;
    std::string current;
    bool portCell = false;
    std::size_t i = 0;
    auto flush = [&]() {
        const std::string_view t = text::trim(current);
        const bool number = !t.empty() && t.find_first_not_of("0123456789") == std::string_view::npos;
        if (!t.empty() && !(portCell && number))
            cells.emplace_back(t);
        current.clear();
    };
    while (i < html.size()) {
        const char c = html[i];
        if (c == '<') {
            const std::size_t close = html.find('>', i);
            if (close == std::string_view::npos)
                break;
            const std::string_view tag = html.substr(i + 1, close - i - 1);
            const bool cellStart = text::startsWith(tag, "td") || text::startsWith(tag, "TD");
            const bool cellEnd = text::startsWith(tag, "/td") || text::startsWith(tag, "/TD");
            const bool lineBreak = text::startsWith(tag, "br") || text::startsWith(tag, "BR");
            if (cellStart || cellEnd) {
                flush();
                portCell = cellStart
                    && (tag.find("port=") != std::string_view::npos || tag.find("PORT=") != std::string_view::npos);
            } else if (lineBreak) {
                current += ' ';
            }
            i = close + 1;
            continue;
        }
        if (c == '&') {
            // Entities are short: looking further would rescan the rest of the label for every '&'.
            const std::size_t length = html.substr(i, 9).find(';');
            if (length != std::string_view::npos) {
                const std::size_t semi = i + length;
                const std::string_view entity = html.substr(i + 1, semi - i - 1);
                if (entity == "lt")
                    current += '<';
                else if (entity == "gt")
                    current += '>';
                else if (entity == "amp")
                    current += '&';
                else if (entity == "quot")
                    current += '"';
                else if (entity == "apos")
                    current += '\'';
                else if (entity == "nbsp")
                    current += ' ';
                i = semi + 1;
                continue;
            }
        }
        current += c;
        ++i;
    }
    flush();
    return cells;
}

std::string firstLine(std::string_view label)
{
    // Dot escapes: "\n", "\l", "\r" end lines.
    for (std::size_t i = 0; i + 1 < label.size(); ++i) {
        if (label[i] == '\\' && (label[i + 1] == 'n' || label[i + 1] == 'l' || label[i + 1] == 'r'))
            return std::string(text::trim(label.substr(0, i)));
    }
    return std::string(text::trim(label));
}

std::vector<std::string> escapedLines(std::string_view s)
{
    std::vector<std::string> lines;
    std::string current;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == 'n' || s[i + 1] == 'l' || s[i + 1] == 'r')) {
            lines.emplace_back(text::trim(current));
            current.clear();
            ++i;
        } else {
            current += s[i];
        }
    }
    lines.emplace_back(text::trim(current));
    return lines;
}

/// Splits "Op(name)" into its parts; false when the text has another form.
bool callForm(const std::string& s, std::string& op, std::string& inner)
{
    const std::size_t open = s.find('(');
    if (open == std::string::npos || open == 0 || s.back() != ')')
        return false;
    for (std::size_t i = 0; i < open; ++i) {
        const char c = s[i];
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'))
            return false;
    }
    op = s.substr(0, open);
    inner = s.substr(open + 1, s.size() - open - 2);
    return true;
}

void describeNode(Agnode_t* n, models::graph::Node& node)
{
    const std::string id = agnameof(n);
    char* rawLabel = agget(n, const_cast<char*>("label"));
    const std::string label = rawLabel ? rawLabel : "";
    const std::string shape = attribute(n, "shape");
    const std::string fill = attribute(n, "fillcolor");
    std::string display;
    if (rawLabel && aghtmlstr(rawLabel)) {
        const std::vector<std::string> cells = htmlCells(label);
        std::string op;
        std::string inner;
        if (cells.size() == 1 && callForm(cells.front(), op, inner)) {
            node.opType = op;
            display = inner;
        } else if (cells.size() >= 2) {
            node.opType = cells.front();
            for (std::size_t k = 1; k < cells.size(); ++k)
                display += (k > 1 ? " " : "") + cells[k];
            // MindSpore draws values (Primitive, Int32Imm, ...) in lavender tables.
            if (label.find("lavender") != std::string::npos)
                node.kind = node.opType == "Primitive" || node.opType == "PrimitivePy"
                    ? models::graph::NodeKind::Op
                    : models::graph::NodeKind::Constant;
        } else if (!cells.empty()) {
            display = cells.front();
        }
        node.attributes.push_back({ "label", text::elide(label, 1024) });
    } else if (shape == "record" || shape == "Mrecord") {
        std::string body = label;
        if (!body.empty() && body.front() == '{' && body.back() == '}')
            body = body.substr(1, body.size() - 2);
        const std::vector<std::string_view> fields = text::splitTopLevel(body, '|');
        for (std::size_t k = 0; k < fields.size(); ++k) {
            const std::vector<std::string> lines = escapedLines(fields[k]);
            if (k == 0) {
                std::string first = lines.front();
                if (text::startsWith(first, "name="))
                    first = first.substr(5);
                if (!first.empty() && first.front() == '%')
                    first = first.substr(1);
                display = first;
            } else if (text::startsWith(fields[k], "op_code=")) {
                node.opType = lines.front().substr(8);
                // call_module/call_function name what they call on a later line.
                for (std::size_t l = 1; l < lines.size(); ++l) {
                    if (!lines[l].empty()) {
                        node.opType = lines[l];
                        break;
                    }
                }
                if (text::startsWith(node.opType, "get_parameter")) {
                    node.kind = models::graph::NodeKind::Parameter;
                    node.opType = "get_parameter";
                } else if (node.opType == "placeholder") {
                    node.kind = models::graph::NodeKind::Input;
                } else if (node.opType == "output") {
                    node.kind = models::graph::NodeKind::Output;
                }
            } else {
                for (const std::string& line : lines) {
                    const std::size_t colon = line.find(": ");
                    if (colon != std::string::npos)
                        node.attributes.push_back({ line.substr(0, colon), line.substr(colon + 2) });
                }
            }
        }
    } else {
        // "\N" (the default) stands for the node's name, which may itself hold several lines.
        display = firstLine(label.empty() || label.find("\\N") != std::string::npos ? std::string_view(id)
                                                                                    : std::string_view(label));
    }
    if (display.empty())
        display = id;
    if (node.opType.empty()) {
        // onnx's net_drawer writes "<node name>/<op type> (op#k)".
        const std::size_t op = display.rfind(" (op#");
        if (op != std::string::npos && display.back() == ')') {
            display = display.substr(0, op);
            node.opType = text::splitScope(display).second;
        }
    }
    if (shape == "octagon" && fill.find("turquoise") != std::string::npos)
        node.kind = models::graph::NodeKind::Parameter;
    auto [scope, name] = text::splitScope(display);
    node.name = name.empty() ? display : name;
    node.scope = scope;
    if (!shape.empty())
        node.attributes.push_back({ "shape", shape });
}

/// Scope component of a cluster: its label, else its name without the "cluster" prefix.
std::string clusterComponent(Agraph_t* sub)
{
    std::string label = attribute(sub, "label");
    if (label.empty() || label == "\\G") {
        label = agnameof(sub);
        if (text::startsWith(label, "cluster_"))
            label = label.substr(8);
        else if (text::startsWith(label, "cluster"))
            label = label.substr(7);
    }
    for (char& c : label) {
        if (c == '/')
            c = '_';
    }
    return label.empty() ? std::string("cluster") : label;
}

/// Clusters deeper than this do not become scope levels of their own.
constexpr int kMaxClusterDepth = 64;

/// Assigns each node the path of the deepest clusters it is in (first found, depth-first). `nesting` counts
/// every subgraph level, clusters or not, and bounds the recursion; `cut` is set when levels were skipped.
void collectClusters(Agraph_t* g, const std::string& path, std::unordered_map<Agnode_t*, std::string>& scopes,
                     std::unordered_map<Agnode_t*, int>& depths, int depth, int nesting, int& clusters, bool& cut)
{
    for (Agraph_t* sub = agfstsubg(g); sub; sub = agnxtsubg(sub)) {
        const std::string name = agnameof(sub);
        const bool cluster = text::startsWith(name, "cluster");
        const std::string inner = cluster ? (path.empty() ? "" : path + "/") + clusterComponent(sub) : path;
        const int innerDepth = cluster ? depth + 1 : depth;
        if (cluster) {
            ++clusters;
            for (Agnode_t* n = agfstnode(sub); n; n = agnxtnode(sub, n)) {
                // cgraph shares node objects between a graph and its subgraphs.
                auto& known = depths[n];
                if (innerDepth > known) {
                    known = innerDepth;
                    scopes[n] = inner;
                }
            }
        }
        if (depth < kMaxClusterDepth && nesting < ImportLimits::kMaxDepth)
            collectClusters(sub, inner, scopes, depths, innerDepth, nesting + 1, clusters, cut);
        else if (agfstsubg(sub))
            cut = true;
    }
}

/// Bytes one edge costs: cgraph's edge pair and its entries in the dictionaries of the graphs holding it,
/// and the input port it becomes here.
constexpr std::int64_t kEdgeBytes = 256;

/// An upper bound on the edges a DOT text makes, charged to `budget` as the text is read. A DOT edge
/// statement between subgraphs joins every node of one side to every node of the other, and a named
/// subgraph can be repeated by name (`subgraph s -> subgraph s`), so a few kilobytes can ask cgraph for
/// billions of edges before anything here sees them. Returns the offset where the budget ran out, or -1.
/// Counts are upper bounds: every identifier in a group counts as a node, repeats included.
std::int64_t chargeDotEdges(std::string_view t, ImportBudget& budget)
{
    struct Frame
    {
        std::int64_t count = 0; ///< nodes named inside this group so far
        std::int64_t previous = 0; ///< node count of the operand before a pending edge operator
        bool edgePending = false;
        std::string name; ///< the subgraph's name, when it has one
    };
    std::vector<Frame> frames(1);
    std::unordered_map<std::string, std::int64_t> named;
    std::string pendingSubgraph; ///< `subgraph NAME` read, its body (or its use as an operand) not yet
    bool afterSubgraphKeyword = false;
    bool afterEquals = false;
    bool afterColon = false;

    auto saturatingAdd = [](std::int64_t a, std::int64_t b) {
        return a > std::numeric_limits<std::int64_t>::max() - b ? std::numeric_limits<std::int64_t>::max() : a + b;
    };
    auto operand = [&](std::int64_t count) -> bool {
        Frame& f = frames.back();
        if (f.edgePending) {
            const std::int64_t edges = f.previous != 0 && count > std::numeric_limits<std::int64_t>::max() / f.previous
                ? std::numeric_limits<std::int64_t>::max()
                : f.previous * count;
            if (!budget.spendElements(edges)
                || !budget.spendBytes(edges > std::numeric_limits<std::int64_t>::max() / kEdgeBytes
                                          ? std::numeric_limits<std::int64_t>::max()
                                          : edges * kEdgeBytes))
                return false;
            f.edgePending = false;
        }
        f.previous = count;
        f.count = saturatingAdd(f.count, count);
        return true;
    };
    auto endStatement = [&]() {
        frames.back().edgePending = false;
        frames.back().previous = 0;
    };

    const std::size_t n = t.size();
    std::size_t i = 0;
    while (i < n) {
        const char c = t[i];
        const std::size_t at = i;
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && t[i + 1] == '/') {
            i = t.find('\n', i);
            i = i == std::string_view::npos ? n : i;
            continue;
        }
        if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            const std::size_t end = t.find("*/", i + 2);
            i = end == std::string_view::npos ? n : end + 2;
            continue;
        }
        if (c == '#' && (i == 0 || t[i - 1] == '\n')) {
            i = t.find('\n', i);
            i = i == std::string_view::npos ? n : i;
            continue;
        }
        if (c == '[') {
            // Attribute lists name no nodes; skip to their end, strings included.
            ++i;
            while (i < n && t[i] != ']') {
                if (t[i] == '"') {
                    ++i;
                    while (i < n && t[i] != '"')
                        i += t[i] == '\\' ? 2 : 1;
                }
                ++i;
            }
            ++i;
            continue;
        }
        if (c == '-' && i + 1 < n && (t[i + 1] == '>' || t[i + 1] == '-')) {
            frames.back().edgePending = true;
            afterEquals = false;
            i += 2;
            continue;
        }
        if (c == '{') {
            Frame frame;
            if (afterSubgraphKeyword)
                frame.name = std::move(pendingSubgraph);
            pendingSubgraph.clear();
            afterSubgraphKeyword = false;
            frames.push_back(std::move(frame));
            ++i;
            continue;
        }
        if (c == '}') {
            if (frames.size() > 1) {
                Frame closed = std::move(frames.back());
                frames.pop_back();
                std::int64_t count = closed.count;
                if (!closed.name.empty()) {
                    // A named subgraph opened again (`subgraph s {}`) stands for all the nodes it has so far.
                    std::int64_t& total = named[closed.name];
                    total = saturatingAdd(total, closed.count);
                    count = total;
                }
                if (!operand(count))
                    return std::int64_t(at);
            }
            ++i;
            continue;
        }
        if (c == ';' || c == ',') {
            if (c == ';')
                endStatement();
            afterEquals = false;
            ++i;
            continue;
        }
        if (c == '=') {
            afterEquals = true;
            ++i;
            continue;
        }
        if (c == ':') {
            afterColon = true;
            ++i;
            continue;
        }
        // An identifier: a name, a number, a quoted string or an HTML string.
        std::string id;
        if (c == '"') {
            ++i;
            while (i < n && t[i] != '"') {
                if (t[i] == '\\' && i + 1 < n)
                    ++i;
                if (id.size() < 256)
                    id += t[i];
                ++i;
            }
            ++i;
        } else if (c == '<') {
            int depth = 0;
            do {
                if (t[i] == '<')
                    ++depth;
                else if (t[i] == '>')
                    --depth;
                ++i;
            } while (i < n && depth > 0);
            id = "<>";
        } else {
            while (i < n) {
                const char d = t[i];
                if (std::isspace(static_cast<unsigned char>(d)) || std::strchr("{}[];,=:\"<", d)
                    || (d == '-' && i + 1 < n && (t[i + 1] == '>' || t[i + 1] == '-')))
                    break;
                if (id.size() < 256)
                    id += d;
                ++i;
            }
            if (i == at)
                ++i; // a stray character of no token
        }
        if (afterEquals || afterColon) {
            // The value of `a=b` or the port of `node:port`.
            afterEquals = false;
            afterColon = false;
            continue;
        }
        std::string lower = id;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char ch) { return char(std::tolower(ch)); });
        if (c != '"'
            && (lower == "strict" || lower == "graph" || lower == "digraph" || lower == "node" || lower == "edge")) {
            continue;
        }
        if (c != '"' && lower == "subgraph") {
            afterSubgraphKeyword = true;
            pendingSubgraph.clear();
            continue;
        }
        if (afterSubgraphKeyword && pendingSubgraph.empty()) {
            pendingSubgraph = id;
            // `subgraph NAME` not followed by a body is a use of that subgraph's nodes.
            std::size_t next = i;
            while (next < n && std::isspace(static_cast<unsigned char>(t[next])))
                ++next;
            if (next >= n || t[next] != '{') {
                afterSubgraphKeyword = false;
                const auto known = named.find(pendingSubgraph);
                pendingSubgraph.clear();
                if (!operand(known == named.end() ? 0 : known->second))
                    return std::int64_t(at);
            }
            continue;
        }
        if (!operand(1))
            return std::int64_t(at);
    }
    return -1;
}

} // namespace

GraphResult DotGraphReader::read(std::string_view dotText, const QString& path, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    if (text::trim(dotText).empty()) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The file is empty.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    // agmemread wants a NUL-terminated string; a NUL inside the text would end it early.
    std::string owned(dotText);
    if (owned.find('\0') != std::string::npos) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("Not a Graphviz file: it contains binary data.")));
        return publishGraph(nullptr, diagnostics, true);
    }

    ImportBudget budget { std::int64_t(dotText.size()) };
    const std::int64_t stoppedAt = chargeDotEdges(owned, budget);
    if (budget.exceeded()) {
        diagnostics.append(budget.diagnostic(path, stoppedAt));
        return publishGraph(nullptr, diagnostics, true);
    }

    std::lock_guard<std::mutex> lock(models::graph::graphvizMutex());
    std::string errors;
    g_errors = &errors;
    const agusererrf previous = agseterrf(&collectError);
    const agerrlevel_t previousLevel = agseterr(AGERR);
    agreseterrors();
    Agraph_t* g = agmemread(owned.c_str());
    if (!g || !errors.empty()) {
        g_errors = nullptr;
        resetParser();
    }
    agseterrf(previous);
    agseterr(previousLevel);
    g_errors = nullptr;
    if (!g) {
        QString message = QString::fromStdString(std::string(text::trim(errors)));
        if (message.isEmpty())
            message = GraphTr::tr("no graph found");
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("Not a readable Graphviz file: %1").arg(message)));
        return publishGraph(nullptr, diagnostics, true);
    }
    if (!text::trim(errors).empty())
        diagnostics.append(
            graphDiagnostic(models::Severity::Warning, path, QString::fromStdString(std::string(text::trim(errors)))));

    auto graph = std::make_unique<models::graph::Graph>();
    graph->path = path;
    graph->format = models::graph::GraphFormat::Dot;
    graph->name = agnameof(g);
    graph->metadata.push_back({ "directed", agisdirected(g) ? "true" : "false" });
    for (Agsym_t* sym = agnxtattr(g, AGRAPH, nullptr); sym; sym = agnxtattr(g, AGRAPH, sym)) {
        const std::string value = attribute(g, sym->name);
        if (!value.empty())
            graph->metadata.push_back({ sym->name, text::elide(value) });
    }

    std::unordered_map<Agnode_t*, std::string> clusterScopes;
    std::unordered_map<Agnode_t*, int> depths;
    int clusters = 0;
    bool cut = false;
    collectClusters(g, std::string(), clusterScopes, depths, 0, 0, clusters, cut);
    graph->metadata.push_back({ "clusters", std::to_string(clusters) });
    if (cut)
        diagnostics.append(graphDiagnostic(models::Severity::Warning, path,
                                           GraphTr::tr("Subgraphs are nested deeper than %1 levels (or clusters "
                                                       "deeper than %2); the deeper ones do not become groups.")
                                               .arg(ImportLimits::kMaxDepth)
                                               .arg(kMaxClusterDepth)));

    std::unordered_map<Agnode_t*, int> indices;
    int count = 0;
    bool canceled = false;
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
        if ((++count & 1023) == 0 && control.canceled()) {
            canceled = true;
            break;
        }
        models::graph::Node node;
        node.id = agnameof(n);
        describeNode(n, node);
        const auto cluster = clusterScopes.find(n);
        if (cluster != clusterScopes.end() && !cluster->second.empty())
            node.scope = node.scope.empty() ? cluster->second : cluster->second + "/" + node.scope;
        models::graph::Port out;
        out.name = node.id;
        node.outputs.push_back(std::move(out));
        indices.emplace(n, int(graph->nodes.size()));
        graph->nodes.push_back(std::move(node));
    }
    int edges = 0;
    for (Agnode_t* n = agfstnode(g); n && !canceled; n = agnxtnode(g, n)) {
        for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
            const int from = indices[agtail(e)];
            const int to = indices[aghead(e)];
            models::graph::Port in;
            in.name = attribute(e, "headport");
            in.producer = from;
            const std::string style = attribute(e, "style");
            in.control = style.find("dashed") != std::string::npos || style.find("dotted") != std::string::npos;
            graph->nodes[std::size_t(to)].inputs.push_back(std::move(in));
            ++edges;
        }
    }
    agclose(g);
    // Numbered head ports are input slots (MindSpore: 0 is the operator, then the arguments): put them in
    // slot order; other inputs keep the order cgraph gave.
    for (models::graph::Node& node : graph->nodes) {
        std::stable_sort(
            node.inputs.begin(), node.inputs.end(), [](const models::graph::Port& a, const models::graph::Port& b) {
                const bool an = !a.name.empty() && a.name.find_first_not_of("0123456789") == std::string::npos;
                const bool bn = !b.name.empty() && b.name.find_first_not_of("0123456789") == std::string::npos;
                if (an && bn)
                    return a.name.size() != b.name.size() ? a.name.size() < b.name.size() : a.name < b.name;
                return an && !bn;
            });
    }
    if (canceled) {
        GraphResult result = publishGraph(nullptr, diagnostics, true);
        result.canceled = true;
        return result;
    }
    graph->metadata.push_back({ "edges", std::to_string(edges) });
    return publishGraph(std::move(graph), diagnostics);
}

} // namespace runlens::importers::graph
