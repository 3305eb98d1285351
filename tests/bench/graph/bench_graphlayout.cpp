// Graph panel benchmark on a generated transformer-like graph (48 layers x ~400 ops, 4 namespace levels,
// weights, residual edges): hierarchy build, first collapsed frame laid out and painted, expanding one
// layer, expanding one attention block inside it, peak RSS. The graph is also written as ONNX (weights as
// external data) and as dot, and both files are imported, as a user opening them would. Targets: first
// frame <= 500 ms, each expansion <= 150 ms, RSS <= 300 MB.
//
// The peer lays out what RunLens lays out: the picture with the model, one layer and its attention block
// expanded is, for RunLens, one Graphviz `dot` layout per shown container (in process, through libgvc)
// placed inside its parent's frame. The same containers, with the same box sizes, edges and graph
// attributes, are written as one dot file of several graphs and given to `dot -Tsvg`. Both sides are the
// median of R runs from nothing (a new view with an empty layout cache; a new dot process), one thread
// each. RunLens's Graphviz context is created once per process and is not in its runs; dot's process
// start-up is in its runs, and is printed apart (dot on an empty graph). RunLens also paints the labels.
//
//   bench_graphlayout [--layers N] [--heads H] [--runs R] [--dot-timeout SECONDS] [--keep DIR]

#include "importers/graph/graphreader.h"
#include "models/graph/graph.h"
#include "models/graph/scopetree.h"
#include "widgets/graph/graphview.h"

#include "tests/bench/benchcommon.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

using namespace runlens;
using namespace runlens::models;

namespace {

/// Builds the graph node by node; inputs name producers by index.
class Generator
{
public:
    int add(const std::string& scope, const std::string& name, const std::string& opType, std::vector<int> inputs,
            std::vector<std::int64_t> shape, models::graph::NodeKind kind = models::graph::NodeKind::Op)
    {
        models::graph::Node node;
        node.id = scope.empty() ? name : scope + '/' + name;
        node.name = name;
        node.scope = scope;
        node.opType = opType;
        node.kind = kind;
        models::graph::Port out;
        out.type.dtype = "float32";
        out.type.dims = shape;
        out.type.rankKnown = true;
        node.outputs.push_back(out);
        for (const int input : inputs) {
            models::graph::Port port;
            port.producer = input;
            port.type = m_graph->nodes[std::size_t(input)].outputs.front().type;
            node.inputs.push_back(port);
        }
        m_graph->nodes.push_back(std::move(node));
        return int(m_graph->nodes.size()) - 1;
    }

    int weight(const std::string& scope, const std::string& name, std::vector<std::int64_t> shape)
    {
        return add(scope, name, "Parameter", {}, std::move(shape), models::graph::NodeKind::Parameter);
    }

    /// A linear projection: MatMul with a weight, Add with a bias.
    int linear(const std::string& scope, int x, std::int64_t in, std::int64_t out)
    {
        const int w = weight(scope, "weight", { in, out });
        const int b = weight(scope, "bias", { out });
        const int mm = add(scope, "MatMul", "MatMul", { x, w }, { 1, 512, out });
        return add(scope, "Add", "Add", { mm, b }, { 1, 512, out });
    }

    int layerNorm(const std::string& scope, int x)
    {
        const int mean = add(scope, "ReduceMean", "ReduceMean", { x }, { 1, 512, 1 });
        const int sub = add(scope, "Sub", "Sub", { x, mean }, { 1, 512, 1024 });
        const int pow = add(scope, "Pow", "Pow", { sub }, { 1, 512, 1024 });
        const int var = add(scope, "ReduceMean_1", "ReduceMean", { pow }, { 1, 512, 1 });
        const int eps = add(scope, "Add", "Add", { var }, { 1, 512, 1 });
        const int sqrt = add(scope, "Sqrt", "Sqrt", { eps }, { 1, 512, 1 });
        const int div = add(scope, "Div", "Div", { sub, sqrt }, { 1, 512, 1024 });
        const int gamma = weight(scope, "gamma", { 1024 });
        const int beta = weight(scope, "beta", { 1024 });
        const int mul = add(scope, "Mul", "Mul", { div, gamma }, { 1, 512, 1024 });
        return add(scope, "Add_1", "Add", { mul, beta }, { 1, 512, 1024 });
    }

    std::shared_ptr<models::graph::Graph> build(int layers, int heads)
    {
        m_graph = std::make_shared<models::graph::Graph>();
        m_graph->name = "transformer";
        const int ids = add({}, "input_ids", "Input", {}, { 1, 512 }, models::graph::NodeKind::Input);
        const int table = weight("model/embed", "weight", { 32000, 1024 });
        int x = add("model/embed", "Gather", "Gather", { table, ids }, { 1, 512, 1024 });
        for (int l = 0; l < layers; ++l) {
            const std::string layer = "model/layers." + std::to_string(l);
            const int n1 = layerNorm(layer + "/input_norm", x);
            const std::string attn = layer + "/self_attn";
            const int q = linear(attn + "/q_proj", n1, 1024, 1024);
            const int k = linear(attn + "/k_proj", n1, 1024, 1024);
            const int v = linear(attn + "/v_proj", n1, 1024, 1024);
            std::vector<int> headOutputs;
            for (int h = 0; h < heads; ++h) {
                const std::string head = attn + "/heads/head_" + std::to_string(h);
                const int qs = add(head, "Slice_q", "Slice", { q }, { 1, 512, 64 });
                const int ks = add(head, "Slice_k", "Slice", { k }, { 1, 512, 64 });
                const int vs = add(head, "Slice_v", "Slice", { v }, { 1, 512, 64 });
                const int kt = add(head, "Transpose", "Transpose", { ks }, { 1, 64, 512 });
                const int sc = add(head, "MatMul", "MatMul", { qs, kt }, { 1, 512, 512 });
                const int scaled = add(head, "Div", "Div", { sc }, { 1, 512, 512 });
                const int masked = add(head, "Add", "Add", { scaled }, { 1, 512, 512 });
                const int sm = add(head, "Softmax", "Softmax", { masked }, { 1, 512, 512 });
                const int dr = add(head, "Dropout", "Dropout", { sm }, { 1, 512, 512 });
                headOutputs.push_back(add(head, "MatMul_1", "MatMul", { dr, vs }, { 1, 512, 64 }));
            }
            const int concat = add(attn, "Concat", "Concat", headOutputs, { 1, 512, 1024 });
            const int o = linear(attn + "/o_proj", concat, 1024, 1024);
            const int res1 = add(layer, "Add", "Add", { x, o }, { 1, 512, 1024 });
            const int n2 = layerNorm(layer + "/post_attention_norm", res1);
            const std::string mlp = layer + "/mlp";
            const int gate = linear(mlp + "/gate_proj", n2, 1024, 4096);
            const int up = linear(mlp + "/up_proj", n2, 1024, 4096);
            const int sig = add(mlp + "/act", "Sigmoid", "Sigmoid", { gate }, { 1, 512, 4096 });
            const int silu = add(mlp + "/act", "Mul", "Mul", { gate, sig }, { 1, 512, 4096 });
            const int prod = add(mlp, "Mul", "Mul", { silu, up }, { 1, 512, 4096 });
            const int down = linear(mlp + "/down_proj", prod, 4096, 1024);
            x = add(layer, "Add_1", "Add", { res1, down }, { 1, 512, 1024 });
        }
        const int norm = layerNorm("model/norm", x);
        const int logits = linear("lm_head", norm, 1024, 32000);
        add({}, "logits", "Output", { logits }, { 1, 512, 32000 }, models::graph::NodeKind::Output);
        m_graph->finalize();
        return m_graph;
    }

private:
    std::shared_ptr<models::graph::Graph> m_graph;
};

/// The flattened graph as dot: one node per op (weights included), fixed-size boxes, no clusters.
bool writeDot(const models::graph::Graph& g, const QString& fileName)
{
    QFile file(fileName);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    QTextStream out(&file);
    out << "digraph transformer {\n  newrank=true;\n  node [shape=box, fixedsize=true, width=1.6, height=0.5];\n";
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        out << "  n" << i << " [label=\"" << QString::fromStdString(g.nodes[i].opType) << "\"];\n";
    for (const models::graph::Edge& edge : g.edges)
        out << "  n" << edge.from << " -> n" << edge.to << ";\n";
    out << "}\n";
    return true;
}

/// The containers of a laid-out picture as one dot file of several graphs, one per container, each as
/// GraphLayoutEngine::runDot builds it: the container's direct children as fixed-size boxes of the sizes
/// they were laid out with, the edges among them, the same graph attributes, and the same invisible chains
/// that stack unconnected children.
bool writeGroupsDot(const models::graph::ScopeTree& tree, const runlens::widgets::graph::LayoutResult& result,
                    const QString& rankDir, const QString& fileName)
{
    constexpr std::size_t kIsolatedRowMax = 8; // as in graphlayout.cpp
    QFile file(fileName);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    QTextStream out(&file);
    const auto inches = [](double points) { return QString::number(std::max(points, 1.0) / 72.0, 'f', 4); };
    for (const auto& [container, layout] : result.groups) {
        const auto& children = tree.item(container).children;
        if (children.empty() || layout->childRects.size() != children.size())
            continue;
        out << "digraph g" << container << " {\n  rankdir=" << rankDir
            << "; newrank=true; nodesep=0.3; ranksep=0.45; splines=spline;\n"
               "  node [shape=box, fixedsize=true, label=\"\"];\n  edge [arrowsize=0.7];\n";
        std::unordered_map<int, std::size_t> indexOf;
        for (std::size_t i = 0; i < children.size(); ++i) {
            const QSizeF size = layout->childRects[i].size();
            out << "  n" << i << " [width=" << inches(size.width()) << ", height=" << inches(size.height()) << "];\n";
            indexOf.emplace(children[i], i);
        }
        std::vector<std::uint8_t> connected(children.size(), 0);
        for (const models::graph::LiftedEdge& edge : tree.edgesOf(container)) {
            const auto from = indexOf.find(edge.from);
            const auto to = indexOf.find(edge.to);
            if (from == indexOf.end() || to == indexOf.end())
                continue;
            out << "  n" << from->second << " -> n" << to->second << ";\n";
            connected[from->second] = connected[to->second] = 1;
        }
        std::vector<std::size_t> isolated;
        for (std::size_t i = 0; i < children.size(); ++i) {
            if (!connected[i])
                isolated.push_back(i);
        }
        if (isolated.size() > kIsolatedRowMax) {
            const auto rows = std::size_t(std::ceil(std::sqrt(double(isolated.size()) / 3.0)));
            for (std::size_t k = 0; k < isolated.size(); ++k) {
                if (k % rows != 0)
                    out << "  n" << isolated[k - 1] << " -> n" << isolated[k] << " [style=invis];\n";
            }
        }
        out << "}\n";
    }
    return true;
}

/// Median wall time of `runs` runs of `dot -Tsvg input`, process start-up included; -1 when dot failed or
/// took longer than the timeout.
double dotMedianMs(const QString& dotExe, const QString& input, const QString& output, int runs, int timeoutSeconds)
{
    std::vector<double> times;
    for (int run = 0; run < runs; ++run) {
        QProcess dot;
        QElapsedTimer timer;
        timer.start();
        dot.start(dotExe, { QStringLiteral("-Tsvg"), input, QStringLiteral("-o"), output });
        if (!dot.waitForFinished(timeoutSeconds * 1000) || dot.exitCode() != 0) {
            dot.kill();
            dot.waitForFinished(2000);
            return -1;
        }
        times.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    return bench::median(times);
}

/// Protocol buffer encoding, enough to write an ONNX ModelProto without the protobuf library.
class ProtoWriter
{
public:
    void varint(int field, std::uint64_t value)
    {
        key(field, 0);
        raw(value);
    }
    void bytes(int field, const std::string& value)
    {
        key(field, 2);
        raw(value.size());
        m_out += value;
    }
    void message(int field, const ProtoWriter& inner) { bytes(field, inner.m_out); }
    const std::string& data() const { return m_out; }

private:
    void key(int field, int wireType) { raw(std::uint64_t(field) << 3 | std::uint64_t(wireType)); }
    void raw(std::uint64_t value)
    {
        while (value >= 0x80) {
            m_out += char(value | 0x80);
            value >>= 7;
        }
        m_out += char(value);
    }
    std::string m_out;
};

/// The graph as an ONNX model (upstream field numbers of onnx.proto): ops as nodes named by their full
/// path ("/model/layers.0/self_attn/q_proj/MatMul", the exporter's convention), weights as initializers
/// whose data lives in an external file (as large models store them), shapes on the graph input and output.
bool writeOnnx(const models::graph::Graph& g, const QString& fileName)
{
    auto valueInfo = [](const std::string& name, const models::graph::TensorType& type) {
        ProtoWriter shape;
        for (const std::int64_t d : type.dims) {
            ProtoWriter dim;
            dim.varint(1, std::uint64_t(d)); // dim_value
            shape.message(1, dim);
        }
        ProtoWriter tensorType;
        tensorType.varint(1, 1); // elem_type FLOAT
        tensorType.message(2, shape);
        ProtoWriter typeProto;
        typeProto.message(1, tensorType);
        ProtoWriter info;
        info.bytes(1, name);
        info.message(2, typeProto);
        return info;
    };
    ProtoWriter graphProto;
    std::uint64_t offset = 0;
    for (const models::graph::Node& node : g.nodes) {
        const std::string& out = node.id;
        if (node.kind == models::graph::NodeKind::Parameter) {
            ProtoWriter tensor;
            std::uint64_t elements = 1;
            for (const std::int64_t d : node.outputs.front().type.dims) {
                tensor.varint(1, std::uint64_t(d)); // dims
                elements *= std::uint64_t(d);
            }
            tensor.varint(2, 1); // data_type FLOAT
            tensor.bytes(8, out); // name
            for (const auto& [k, v] : { std::pair<std::string, std::string>("location", "weights.bin"),
                                        { "offset", std::to_string(offset) },
                                        { "length", std::to_string(elements * 4) } }) {
                ProtoWriter entry;
                entry.bytes(1, k);
                entry.bytes(2, v);
                tensor.message(13, entry); // external_data
            }
            tensor.varint(14, 1); // data_location EXTERNAL
            offset += elements * 4;
            graphProto.message(5, tensor); // initializer
            continue;
        }
        if (node.kind == models::graph::NodeKind::Input) {
            graphProto.message(11, valueInfo(out, node.outputs.front().type));
            continue;
        }
        if (node.kind == models::graph::NodeKind::Output) {
            const models::graph::Node& producer = g.nodes[std::size_t(node.inputs.front().producer)];
            graphProto.message(12, valueInfo(producer.id, node.outputs.front().type));
            continue;
        }
        ProtoWriter n;
        for (const models::graph::Port& in : node.inputs)
            n.bytes(1, g.nodes[std::size_t(in.producer)].id); // input
        n.bytes(2, out); // output
        n.bytes(3, '/' + node.id); // name
        n.bytes(4, node.opType); // op_type
        graphProto.message(1, n);
    }
    graphProto.bytes(2, g.name);
    ProtoWriter opset;
    opset.varint(2, 17);
    ProtoWriter model;
    model.varint(1, 8); // ir_version
    model.bytes(2, "runlens-bench"); // producer_name
    model.message(7, graphProto);
    model.message(8, opset);
    QFile file(fileName);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(model.data().data(), qint64(model.data().size())) == qint64(model.data().size());
}

/// Imports a graph file as the application does; returns milliseconds and the node count (or -1).
std::pair<double, int> importMs(const QString& path, ArtifactKind kind)
{
    QElapsedTimer timer;
    timer.start();
    const importers::graph::GraphResult result = importers::graph::GraphReader::read(path, kind);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    return { ms, result.graph ? result.graph->nodeCount() : -1 };
}

double settleAndPaint(QApplication& app, runlens::widgets::graph::GraphView& view, QElapsedTimer& timer);

/// Opening a file as a user does: import, hierarchy, layout of the collapsed view, first paint.
double openToFirstFrameMs(QApplication& app, const QString& path, ArtifactKind kind)
{
    QElapsedTimer timer;
    timer.start();
    const importers::graph::GraphResult result = importers::graph::GraphReader::read(path, kind);
    if (!result.graph)
        return -1;
    runlens::widgets::graph::GraphView view;
    view.resize(1600, 1000);
    view.setTree(models::graph::ScopeTree::build(result.graph));
    return settleAndPaint(app, view, timer);
}

long peakRssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').front().toLong();
    }
    return -1;
}

/// Waits for the view's layout, then paints one frame; returns the elapsed milliseconds since `timer` start.
double settleAndPaint(QApplication& app, runlens::widgets::graph::GraphView& view, QElapsedTimer& timer)
{
    while (view.isLayoutPending())
        app.processEvents(QEventLoop::WaitForMoreEvents, 5);
    const QImage frame = view.grab().toImage();
    Q_UNUSED(frame);
    return double(timer.nsecsElapsed()) / 1e6;
}

int findChild(const models::graph::ScopeTree& tree, int container, const std::string& label)
{
    for (const int id : tree.item(container).children) {
        if (tree.item(id).label == label)
            return id;
    }
    return -1;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    int layers = 48;
    int heads = 36;
    int dotTimeout = 120;
    int runs = 7;
    QString keep;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--layers"))
            layers = args[++i].toInt();
        else if (args[i] == QLatin1String("--heads"))
            heads = args[++i].toInt();
        else if (args[i] == QLatin1String("--runs"))
            runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--dot-timeout"))
            dotTimeout = args[++i].toInt();
        else if (args[i] == QLatin1String("--keep"))
            keep = args[++i];
    }

    QElapsedTimer timer;
    timer.start();
    const auto graph = Generator().build(layers, heads);
    const double generateMs = double(timer.nsecsElapsed()) / 1e6;
    int ops = 0;
    for (const models::graph::Node& node : graph->nodes)
        ops += node.kind == models::graph::NodeKind::Op ? 1 : 0;

    timer.restart();
    const auto tree = models::graph::ScopeTree::build(graph);
    const double treeMs = double(timer.nsecsElapsed()) / 1e6;

    runlens::widgets::graph::GraphView view;
    view.resize(1600, 1000);
    timer.restart();
    view.setTree(tree);
    const double firstFrameMs = settleAndPaint(app, view, timer);
    const int firstGroups = view.layoutResult().dotRuns;

    // Layers are chained, so they stay apart (no series): the model shows 48 layer boxes.
    const int model = findChild(*tree, models::graph::ScopeTree::root(), "model");
    timer.restart();
    view.setExpanded(model, true);
    const double expandModelMs = settleAndPaint(app, view, timer);
    const int layer = findChild(*tree, model, "layers.0");
    timer.restart();
    view.setExpanded(layer, true);
    const double expandLayerMs = settleAndPaint(app, view, timer);
    const int attn = findChild(*tree, layer, "self_attn");
    timer.restart();
    view.setExpanded(attn, true);
    const double expandAttnMs = settleAndPaint(app, view, timer);
    const int shown = int(view.scene().boxes.size());
    if (!keep.isEmpty()) {
        QDir().mkpath(keep);
        view.centreOn(attn);
        view.grab().save(QDir(keep).filePath(QStringLiteral("expanded-attention.png")));
        view.fitToView();
        view.grab().save(QDir(keep).filePath(QStringLiteral("expanded-fit.png")));
    }
    timer.restart();
    for (int i = 0; i < 20; ++i)
        view.grab();
    const double paintMs = double(timer.nsecsElapsed()) / 1e6 / 20;
    const long rssKb = peakRssKb();

    QTemporaryDir tmp;
    const QString dir = keep.isEmpty() ? tmp.path() : keep;
    QDir().mkpath(dir);
    const QString dotFile = QDir(dir).filePath(QStringLiteral("transformer.dot"));
    writeDot(*graph, dotFile);
    const QString onnxFile = QDir(dir).filePath(QStringLiteral("transformer.onnx"));
    writeOnnx(*graph, onnxFile);
    const auto [onnxMs, onnxNodes] = importMs(onnxFile, ArtifactKind::GraphOnnx);
    const auto [dotImportMs, dotNodes] = importMs(dotFile, ArtifactKind::GraphDot);
    const double onnxOpenMs = openToFirstFrameMs(app, onnxFile, ArtifactKind::GraphOnnx);

    // The expanded picture from nothing, R times: a new view (empty layout cache), layout, first paint.
    const models::graph::ExpansionState expandedState = view.expansionState();
    std::vector<double> fromNothing;
    std::vector<double> layoutOnly;
    runlens::widgets::graph::LayoutResult expandedLayout;
    for (int run = 0; run < runs; ++run) {
        runlens::widgets::graph::GraphView fresh;
        fresh.resize(1600, 1000);
        timer.restart();
        fresh.setTree(tree, expandedState);
        fromNothing.push_back(settleAndPaint(app, fresh, timer));
        expandedLayout = fresh.layoutResult();
        // The layout pass alone, on this thread, with an empty cache and the sizes the view measured.
        runlens::widgets::graph::LayoutRequest request;
        request.tree = tree;
        request.state = expandedState;
        for (const int item : fresh.shownItems())
            request.collapsedSizes.insert(item, fresh.boxSize(item));
        runlens::widgets::graph::LayoutCache cache;
        timer.restart();
        runlens::widgets::graph::GraphLayoutEngine::layoutNow(request, cache);
        layoutOnly.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const double expandedMs = bench::median(fromNothing);
    const QString groupsFile = QDir(dir).filePath(QStringLiteral("expanded-groups.dot"));
    writeGroupsDot(*tree, expandedLayout, view.rankDir(), groupsFile);
    const QString emptyFile = QDir(dir).filePath(QStringLiteral("empty.dot"));
    {
        QFile empty(emptyFile);
        if (empty.open(QIODevice::WriteOnly))
            empty.write("digraph empty {}\n");
    }
    const QString svgFile = QDir(dir).filePath(QStringLiteral("peer.svg"));
    const QString dotExe = QStandardPaths::findExecutable(QStringLiteral("dot"));
    const double dotMs = dotExe.isEmpty() ? -1 : dotMedianMs(dotExe, groupsFile, svgFile, runs, dotTimeout);
    const double dotStartMs = dotExe.isEmpty() ? -1 : dotMedianMs(dotExe, emptyFile, svgFile, runs, dotTimeout);

    std::printf("graph: %d layers, %zu nodes (%d ops), %zu edges, %d tree items, depth %d (generated in %.0f ms)\n",
                layers, graph->nodes.size(), ops, graph->edges.size(), tree->itemCount(), tree->maxDepth(), generateMs);
    std::printf("import ONNX (%.1f MB)        %8.1f ms   (%d nodes)\n", QFileInfo(onnxFile).size() / 1048576.0, onnxMs,
                onnxNodes);
    std::printf("import dot (%.1f MB)         %8.1f ms   (%d nodes)\n", QFileInfo(dotFile).size() / 1048576.0,
                dotImportMs, dotNodes);
    std::printf("open ONNX to first frame    %8.1f ms   target <= 500   (import, hierarchy, layout, paint)\n",
                onnxOpenMs);
    std::printf("scope tree build            %8.1f ms\n", treeMs);
    std::printf("first frame (collapsed)     %8.1f ms   target <= 500   (%d dot runs)\n", firstFrameMs, firstGroups);
    std::printf("expand model                %8.1f ms   target <= 150\n", expandModelMs);
    std::printf("expand one layer            %8.1f ms   target <= 150\n", expandLayerMs);
    std::printf("expand its attention block  %8.1f ms   target <= 150   (%d boxes shown)\n", expandAttnMs, shown);
    std::printf("repaint 1600x1000           %8.1f ms\n", paintMs);
    std::printf("peak RSS                    %8.1f MB   target <= 300\n", rssKb / 1024.0);
    std::printf("expanded picture from nothing %6.1f ms   (median of %d: new view, %zu containers laid out, "
                "%d boxes, first paint)\n",
                expandedMs, runs, expandedLayout.groups.size(), shown);
    std::printf("  its layout pass alone     %6.1f ms   (median of %d, empty cache, libgvc in process)\n",
                bench::median(layoutOnly), runs);
    const bench::Side runlensSide { "RunLens", expandedMs, runs, "1 layout thread" };
    const char* what = "graph, model + layer + attention block expanded, the same containers laid out by both";
    if (dotExe.isEmpty()) {
        bench::printNoRatio(what, runlensSide, "dot not found");
    } else if (dotMs < 0) {
        bench::printNoRatio(what, runlensSide, "dot failed or took longer than its timeout");
    } else {
        std::printf("peer dot -Tsvg of the same %zu containers  %6.1f ms   (median of %d; dot on an empty graph "
                    "%.1f ms)\n",
                    expandedLayout.groups.size(), dotMs, runs, dotStartMs);
        char note[200];
        std::snprintf(note, sizeof note,
                      "dot's time includes its process start-up (%.1f ms on an empty graph); RunLens's includes "
                      "painting the labels",
                      dotStartMs);
        bench::printRatio(what, runlensSide, { "dot -Tsvg", dotMs, runs, "1 thread" }, note);
    }
    return 0;
}
