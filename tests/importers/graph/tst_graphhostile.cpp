#include "importers/graph/graphreader.h"

#include "importers/graph/graphresult.h"
#include "importers/graph/uniqueids.h"
#include "models/graph/scopetree.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <string>
#include <unordered_set>
#include <vector>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

Q_DECLARE_METATYPE(runlens::models::ArtifactKind)

// Files made to crash, hang or exhaust the graph readers, each generated here: nesting far past any
// recursion limit, output slots that would create billions of ports, 300k nodes of one name, numbers past
// every integer type, scopes of 100k components. Every one must end in a graph or a diagnostic naming the
// file, with what was read before the damage kept.

namespace {

// --- protobuf wire encoding, enough to write hostile messages without the generated classes ---

std::string varint(std::uint64_t value)
{
    std::string out;
    while (value >= 0x80) {
        out += char(value | 0x80);
        value >>= 7;
    }
    out += char(value);
    return out;
}

std::string tag(std::uint32_t number, int wireType)
{
    return varint((std::uint64_t(number) << 3) | std::uint64_t(wireType));
}

std::string bytesField(std::uint32_t number, std::string_view payload)
{
    return tag(number, 2) + varint(payload.size()) + std::string(payload);
}

std::string varintField(std::uint32_t number, std::uint64_t value)
{
    return tag(number, 0) + varint(value);
}

/// One level of nesting: the inner message becomes field `number` of a message that also holds `siblings`.
struct Wrap
{
    std::uint32_t number;
    std::string siblings;
};

/// `core` wrapped `levels` times in `level` (innermost wrap first), built in linear time: each wrap only
/// prepends a tag and a length and appends its siblings, so the pieces are collected and joined once.
std::string nested(const std::string& core, const std::vector<Wrap>& level, int levels)
{
    std::vector<std::string> prefixes;
    std::vector<const std::string*> suffixes;
    std::size_t size = core.size();
    for (int l = 0; l < levels; ++l) {
        for (const Wrap& w : level) {
            prefixes.push_back(tag(w.number, 2) + varint(size));
            suffixes.push_back(&w.siblings);
            size += prefixes.back().size() + w.siblings.size();
        }
    }
    std::string out;
    out.reserve(size);
    for (auto it = prefixes.rbegin(); it != prefixes.rend(); ++it)
        out += *it;
    out += core;
    for (const std::string* s : suffixes)
        out += *s;
    return out;
}

std::string repeated(std::string_view piece, int count)
{
    std::string out;
    out.reserve(piece.size() * std::size_t(count));
    for (int i = 0; i < count; ++i)
        out += piece;
    return out;
}

constexpr int kDeep = 100000;

// ONNX: ModelProto.graph = 7; GraphProto.node = 1; NodeProto.name = 3, op_type = 4, attribute = 5,
// metadata_props = 9; AttributeProto.name = 1, g = 6, type = 20; TensorProto.name = 8, external_data = 13.
std::string onnxNode(std::string_view name, std::string_view op, const std::string& extra = {})
{
    return bytesField(3, name) + bytesField(4, op) + extra;
}

std::string onnxModel(const std::string& graphBody)
{
    return varintField(1, 8) + bytesField(7, graphBody);
}

// TensorFlow: GraphDef.node = 1; NodeDef.name = 1, op = 2, input = 3, attr = 5 (map entry key 1, value 2);
// AttrValue.func = 10; NameAttrList.name = 1, attr = 2.
std::string tfNode(std::string_view name, std::string_view op, const std::string& extra = {})
{
    return bytesField(1, name) + bytesField(2, op) + extra;
}

// anf_ir: GraphProto.node = 1; NodeProto.name = 2, op_type = 3, attribute = 5, output_type = 6;
// TypeProto.sequence_type = 3, Sequence.elem_types = 1; AttributeProto.name 1, value 2; ValueProto.dtype 1,
// tensor_val 8, values 18; DebugTensorProto.tensor_content 3, dims 4, data_type 5.
std::string anfNode(std::string_view name, std::string_view op, const std::string& extra = {})
{
    return bytesField(2, name) + bytesField(3, op) + extra;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(bytes.data(), qint64(bytes.size()));
    return path;
}

bool mentions(const Diagnostics& diagnostics, const QString& text)
{
    for (const Diagnostic& d : diagnostics) {
        if (d.message.contains(text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

QString describe(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines << d.message.left(300);
    return lines.join(QLatin1String(" | "));
}

/// What every published graph keeps: unique ids, producers and edges in range, output slots that exist.
void checkConsistent(const Graph& g)
{
    std::unordered_set<std::string> ids;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        QVERIFY2(ids.insert(n.id).second, n.id.substr(0, 200).c_str());
        QVERIFY(n.subgraph >= 0 && n.subgraph < int(g.subgraphs.size()));
        for (const Port& p : n.inputs) {
            QVERIFY(p.producer >= -1 && p.producer < int(g.nodes.size()));
            QVERIFY(p.producerSlot >= 0);
        }
    }
    for (const Edge& e : g.edges) {
        QVERIFY(e.from >= 0 && e.from < int(g.nodes.size()));
        QVERIFY(e.to >= 0 && e.to < int(g.nodes.size()));
        QVERIFY(e.fromSlot >= 0);
    }
    for (const Subgraph& s : g.subgraphs) {
        QVERIFY(s.output >= -1 && s.output < int(g.nodes.size()));
        for (int index : s.nodes)
            QVERIFY(index >= 0 && index < int(g.nodes.size()));
    }
}

} // namespace

class TestGraphHostile : public QObject
{
    Q_OBJECT

private slots:
    void deepNesting_data();
    void deepNesting();
    void outputSlots_data();
    void outputSlots();
    void slotBudget();
    void sameNames_data();
    void sameNames();
    void uniqueIdsSkipTakenSuffixes();
    void numbersOutOfRange_data();
    void numbersOutOfRange();
    void quadraticInputs_data();
    void quadraticInputs();
    void deepScopes_data();
    void deepScopes();
    void edgeProducts_data();
    void edgeProducts();
    void literalArguments();
    void manyLoopBodies();
    void rawBytesThatAreNotElements();

private:
    QTemporaryDir m_dir;
};

void TestGraphHostile::deepNesting_data()
{
    // Each file holds a plain node "keep" and then something nested 100k levels deep.
    QTest::addColumn<ArtifactKind>("kind");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("keeps");

    {
        std::string text = "node { name: \"keep\" op: \"X\" }\nnode { name: \"deep\" op: \"X\" ";
        text.reserve(std::size_t(kDeep) * 64);
        for (int i = 0; i < kDeep; ++i)
            text += "attr { key: \"a\" value { func { name: \"f\" ";
        for (int i = 0; i < kDeep; ++i)
            text += "} } } ";
        text += "}\n";
        QTest::newRow("tf text attr func") << ArtifactKind::GraphTensorFlow << QByteArray::fromStdString(text) << true;
    }
    {
        // Fields this version does not know are skipped, and skipping recurses as well.
        std::string text = "node { name: \"keep\" op: \"X\" }\nnode { name: \"deep\" op: \"X\" ";
        for (int i = 0; i < kDeep; ++i)
            text += "future { ";
        for (int i = 0; i < kDeep; ++i)
            text += "} ";
        text += "}\n";
        QTest::newRow("tf text unknown field")
            << ArtifactKind::GraphTensorFlow << QByteArray::fromStdString(text) << true;
    }
    {
        // AttrValue.func -> NameAttrList.attr entry -> AttrValue, 100k times.
        const std::string deepValue
            = nested(std::string(), { { 2, bytesField(1, "a") }, { 2, bytesField(1, "f") }, { 10, {} } }, kDeep);
        const std::string deepNode = tfNode("deep", "X", bytesField(5, bytesField(1, "a") + bytesField(2, deepValue)));
        const std::string bytes = bytesField(1, tfNode("keep", "X")) + bytesField(1, deepNode);
        QTest::newRow("tf binary attr func")
            << ArtifactKind::GraphTensorFlow << QByteArray::fromStdString(bytes) << true;
    }
    {
        // Start-group tags nested without end: unknown groups recurse in protobuf's parser.
        const std::string bytes = bytesField(1, tfNode("keep", "X")) + repeated("\x0b", kDeep);
        QTest::newRow("tf binary groups") << ArtifactKind::GraphTensorFlow << QByteArray::fromStdString(bytes) << true;
    }
    {
        // NodeProto.attribute -> AttributeProto.g -> GraphProto.node, 100k times.
        const std::string deep = nested(
            std::string(), { { 6, bytesField(1, "body") + varintField(20, 5) }, { 5, bytesField(4, "If") }, { 1, {} } },
            kDeep);
        const std::string model = onnxModel(bytesField(1, onnxNode("keep", "Relu")) + deep);
        QTest::newRow("onnx graph attribute") << ArtifactKind::GraphOnnx << QByteArray::fromStdString(model) << true;
    }
    {
        const std::string model = onnxModel(bytesField(1, onnxNode("keep", "Relu")) + repeated("\x0b", kDeep));
        QTest::newRow("onnx groups") << ArtifactKind::GraphOnnx << QByteArray::fromStdString(model) << true;
    }
    {
        // NodeProto.output_type: TypeProto.sequence_type -> Sequence.elem_types -> TypeProto, 100k times.
        const std::string type = nested(varintField(1, 11), { { 1, {} }, { 3, varintField(1, 31) } }, kDeep);
        const std::string graph
            = bytesField(1, anfNode("keep", "X")) + bytesField(1, anfNode("deep", "X", bytesField(6, type)));
        QTest::newRow("anf output type") << ArtifactKind::GraphAnfIr << QByteArray::fromStdString(graph) << true;
    }
    {
        // ValueProto.values nested: the attribute text and the schema vote both walk values.
        const std::string value = nested(varintField(1, 3), { { 18, varintField(1, 31) } }, kDeep);
        const std::string attribute = bytesField(1, "a") + bytesField(2, value);
        const std::string graph
            = bytesField(1, anfNode("keep", "X")) + bytesField(1, anfNode("deep", "X", bytesField(5, attribute)));
        QTest::newRow("anf values") << ArtifactKind::GraphAnfIr << QByteArray::fromStdString(graph) << true;
    }
    {
        std::string dot = "digraph g {\n keep;\n";
        for (int i = 0; i < kDeep; ++i)
            dot += "subgraph { ";
        dot += "deep;";
        for (int i = 0; i < kDeep; ++i)
            dot += "} ";
        dot += "\n}\n";
        QTest::newRow("dot subgraphs") << ArtifactKind::GraphDot << QByteArray::fromStdString(dot) << false;
    }
    {
        // An edge chain overflows the dot parser's stack as well.
        std::string dot = "digraph g {\n keep;\n n0";
        for (int i = 1; i < 20000; ++i)
            dot += " -> n" + std::to_string(i);
        dot += "\n}\n";
        QTest::newRow("dot edge chain") << ArtifactKind::GraphDot << QByteArray::fromStdString(dot) << false;
    }
    {
        // Within what the parser accepts but past the recursion the reader allows itself.
        std::string dot = "digraph g {\n keep;\n";
        for (int i = 0; i < 600; ++i)
            dot += "subgraph s" + std::to_string(i) + " { ";
        dot += "deep;";
        for (int i = 0; i < 600; ++i)
            dot += "} ";
        dot += "\n}\n";
        QTest::newRow("dot 600 subgraphs") << ArtifactKind::GraphDot << QByteArray::fromStdString(dot) << true;
    }
    {
        std::string dot = "digraph g {\n keep;\n";
        for (int i = 0; i < 300; ++i)
            dot += "subgraph cluster_" + std::to_string(i) + " { ";
        dot += "deep;";
        for (int i = 0; i < 300; ++i)
            dot += "} ";
        dot += "\n}\n";
        QTest::newRow("dot 300 clusters") << ArtifactKind::GraphDot << QByteArray::fromStdString(dot) << true;
    }
}

void TestGraphHostile::deepNesting()
{
    QFETCH(ArtifactKind, kind);
    QFETCH(QByteArray, bytes);
    QFETCH(bool, keeps);
    const QString path
        = writeFile(m_dir, QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_')),
                    bytes.toStdString());
    QVERIFY(!path.isEmpty());
    const GraphResult result = GraphReader::read(path, kind);
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, path);
    if (keeps) {
        QVERIFY2(result.graph, qPrintable(describe(result.diagnostics)));
        checkConsistent(*result.graph);
        QVERIFY(result.graph->find("keep") >= 0);
        QVERIFY2(!result.diagnostics.isEmpty() || kind == ArtifactKind::GraphDot, "the damage is reported");
    } else {
        // The dot parser itself refuses nesting this deep; the file is reported, nothing crashes.
        if (result.graph)
            checkConsistent(*result.graph);
        else
            QVERIFY(!result.diagnostics.isEmpty());
    }
    if (kind == ArtifactKind::GraphDot && keeps)
        QVERIFY2(mentions(result.diagnostics, QStringLiteral("nested deeper")),
                 qPrintable(describe(result.diagnostics)));
    if (kind == ArtifactKind::GraphDot) {
        // The parser gave up in the middle of the text: the next file must still read from its own start.
        const QString next = writeFile(m_dir, QStringLiteral("next.dot"), "digraph next { a -> b }\n");
        const GraphResult after = GraphReader::read(next, ArtifactKind::GraphDot);
        QVERIFY2(after.graph, qPrintable(describe(after.diagnostics)));
        QCOMPARE(after.graph->nodes.size(), std::size_t(2));
        QVERIFY(after.diagnostics.isEmpty());
    }
}

void TestGraphHostile::outputSlots_data()
{
    QTest::addColumn<QString>("input");
    QTest::newRow("two billion") << QStringLiteral("a:2000000000");
    QTest::newRow("past int64") << QStringLiteral("a:99999999999999999999999");
    QTest::newRow("negative") << QStringLiteral("a:-1");
    QTest::newRow("function form") << QStringLiteral("a:out:2000000000");
}

void TestGraphHostile::outputSlots()
{
    QFETCH(QString, input);
    const std::string text = "node { name: \"a\" op: \"X\" }\nnode { name: \"b\" op: \"Y\" input: \""
        + input.toStdString() + "\" input: \"a:1\" }\n";
    const QString path = writeFile(m_dir, QStringLiteral("slots.pbtxt"), text);
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphTensorFlow);
    QVERIFY(result.graph);
    checkConsistent(*result.graph);
    const Graph& g = *result.graph;
    const Node& a = g.nodes[std::size_t(g.find("a"))];
    const Node& b = g.nodes[std::size_t(g.find("b"))];
    // The good input still connects; the absurd one is left open and named in a warning.
    QCOMPARE(a.outputs.size(), std::size_t(2));
    QCOMPARE(b.inputs.size(), std::size_t(2));
    QCOMPARE(b.inputs[0].producer, -1);
    QCOMPARE(b.inputs[1].producer, g.find("a"));
    QVERIFY2(mentions(result.diagnostics, QStringLiteral("node \"b\"")), qPrintable(describe(result.diagnostics)));
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, path);
}

void TestGraphHostile::slotBudget()
{
    // Slots below the absurd limit but a million each, on a thousand producers: 10^9 ports from 60 KB.
    std::string text;
    for (int i = 0; i < 1000; ++i) {
        const std::string n = std::to_string(i);
        text += "node { name: \"p" + n + "\" op: \"X\" }\nnode { name: \"c" + n + "\" op: \"Y\" input: \"p" + n
            + ":1000000\" }\n";
    }
    const QString path = writeFile(m_dir, QStringLiteral("budget.pbtxt"), text);
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphTensorFlow);
    QVERIFY(result.graph);
    checkConsistent(*result.graph);
    QVERIFY2(mentions(result.diagnostics, QStringLiteral("Reading stopped")), qPrintable(describe(result.diagnostics)));
    std::int64_t ports = 0;
    for (const Node& n : result.graph->nodes)
        ports += std::int64_t(n.outputs.size());
    const ImportLimits limits = ImportLimits::forInputSize(std::int64_t(text.size()));
    QVERIFY(ports <= limits.maxElements);
    // Every node was read; only the ports past the budget are missing.
    QCOMPARE(result.graph->nodeCount(), 2000);
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, path);
}

void TestGraphHostile::sameNames_data()
{
    // 300k nodes of one name: each id used to probe n#2, n#3 ... from the start.
    constexpr int kCount = 300000;
    QTest::addColumn<ArtifactKind>("kind");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("firstId");
    QTest::addColumn<int>("count");
    QTest::newRow("tf text") << ArtifactKind::GraphTensorFlow
                             << QByteArray::fromStdString(repeated("node { name: \"n\" op: \"X\" }\n", kCount))
                             << QStringLiteral("n") << kCount;
    QTest::newRow("onnx") << ArtifactKind::GraphOnnx
                          << QByteArray::fromStdString(
                                 onnxModel(repeated(bytesField(1, onnxNode("n", "Relu")), kCount)))
                          << QStringLiteral("n") << kCount;
    QTest::newRow("anf") << ArtifactKind::GraphAnfIr
                         << QByteArray::fromStdString(repeated(bytesField(1, anfNode("n", "Relu")), kCount))
                         << QStringLiteral("n") << kCount;
    QTest::newRow("torchscript") << ArtifactKind::GraphTorchScript
                                 << QByteArray::fromStdString("graph(%x : Float(2)):\n"
                                                              + repeated("  %n : Float(2) = aten::relu(%x)\n", kCount)
                                                              + "  return (%n)\n")
                                 << QStringLiteral("%n") << kCount;
    QTest::newRow("mindspore ir") << ArtifactKind::GraphMindSporeIr
                                  << QByteArray::fromStdString("subgraph @g(%para1_x) {\n"
                                                               + repeated("  %1(n) = Relu(%para1_x)\n", kCount) + "}\n")
                                  << QStringLiteral("g:%1") << kCount;
}

void TestGraphHostile::sameNames()
{
    QFETCH(ArtifactKind, kind);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, firstId);
    QFETCH(int, count);
    const QString path = writeFile(m_dir, QStringLiteral("same_names"), bytes.toStdString());
    const GraphResult result = GraphReader::read(path, kind);
    QVERIFY2(result.graph, qPrintable(describe(result.diagnostics)));
    const Graph& g = *result.graph;
    checkConsistent(g);
    QCOMPARE(g.nodeCount(), count);
    const std::string first = firstId.toStdString();
    QVERIFY(g.find(first) >= 0);
    QVERIFY(g.find(first + "#2") >= 0);
    QVERIFY(g.find(first + "#" + std::to_string(count)) >= 0);
}

void TestGraphHostile::uniqueIdsSkipTakenSuffixes()
{
    // Names that look like generated suffixes are taken first; the next free suffix skips them.
    UniqueIds ids;
    QCOMPARE(ids.take("n"), std::string("n"));
    QCOMPARE(ids.take("n#2"), std::string("n#2"));
    QCOMPARE(ids.take("n#3"), std::string("n#3"));
    QCOMPARE(ids.take("n"), std::string("n#4"));
    QCOMPARE(ids.take("n"), std::string("n#5"));
    QCOMPARE(ids.take("n#2"), std::string("n#2#2"));
    QCOMPARE(ids.take("n#6"), std::string("n#6"));
    QCOMPARE(ids.take("n"), std::string("n#7"));
    QVERIFY(ids.contains("n#5"));
    QVERIFY(!ids.contains("n#8"));
}

void TestGraphHostile::numbersOutOfRange_data()
{
    // Numbers past int and int64 where the readers used to multiply or convert without a check.
    QTest::addColumn<ArtifactKind>("kind");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expect");
    const std::string huge = "99999999999999999999999";
    {
        const std::string text = "graph(%x : Float(" + huge
            + ", 2)):\n"
              "  %y : Float(2) = aten::relu(%x) # model.py:"
            + huge + ":2147483647\n  %z : Float(2) = aten::relu(%y) # model.py:12:2147483647\n  return (%z)\n";
        QTest::newRow("torchscript source and dims")
            << ArtifactKind::GraphTorchScript << QByteArray::fromStdString(text) << QString();
    }
    {
        const std::string text = "subgraph @g(%para1_x) {\n"
                                 "  %1(a) = Relu(%para1_x)\n"
                                 "      : (<Tensor[Float32], ("
            + huge
            + ", 3)>) -> (<Tensor[Float32], (2, 3)>)\n"
              "      # In file t.py:"
            + huge
            + ", 2147483647/    a = relu(x)/\n"
              "      # In file t.py:7, 2147483647/    b = relu(x)/\n"
              "  Return(%1)\n}\n";
        QTest::newRow("mindspore ir source and dims")
            << ArtifactKind::GraphMindSporeIr << QByteArray::fromStdString(text) << QString();
    }
    {
        // DebugTensorProto dims whose product overflows int64, with four bytes of content.
        const std::string tensor = bytesField(3, "abcd") + varintField(4, std::uint64_t(1) << 62)
            + varintField(4, std::uint64_t(1) << 62) + varintField(4, 16) + varintField(5, 11);
        const std::string value = varintField(1, 14) + bytesField(8, tensor);
        const std::string attribute = bytesField(1, "w") + bytesField(2, value);
        const std::string graph = bytesField(1, anfNode("keep", "X", bytesField(5, attribute)));
        QTest::newRow("anf tensor dims") << ArtifactKind::GraphAnfIr << QByteArray::fromStdString(graph) << QString();
    }
    {
        // TensorProto.external_data offset and length that fit no integer, or are negative.
        auto entry = [](std::string_view key, std::string_view value) {
            return ::bytesField(13, bytesField(1, key) + bytesField(2, value));
        };
        const std::string w1 = bytesField(8, "w1") + entry("location", "w.bin") + entry("offset", huge)
            + entry("length", "4") + varintField(14, 1);
        const std::string w2 = bytesField(8, "w2") + entry("location", "w.bin") + entry("offset", "0")
            + entry("length", "-5") + varintField(14, 1);
        // A stack trace whose line number fits nothing.
        const std::string trace = "File \"m.py\", line " + huge + ", in f\n    x = y\n";
        const std::string meta = bytesField(9, bytesField(1, "pkg.torch.onnx.stack_trace") + bytesField(2, trace));
        const std::string graph = bytesField(1, onnxNode("keep", "Relu", bytesField(1, "w1") + meta))
            + bytesField(5, w1) + bytesField(5, w2);
        QTest::newRow("onnx external data") << ArtifactKind::GraphOnnx << QByteArray::fromStdString(onnxModel(graph))
                                            << QStringLiteral("external data");
    }
}

void TestGraphHostile::numbersOutOfRange()
{
    QFETCH(ArtifactKind, kind);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expect);
    const QString path = writeFile(m_dir, QStringLiteral("numbers"), bytes.toStdString());
    const GraphResult result = GraphReader::read(path, kind);
    QVERIFY2(result.graph, qPrintable(describe(result.diagnostics)));
    checkConsistent(*result.graph);
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, path);
    if (!expect.isEmpty())
        QVERIFY2(mentions(result.diagnostics, expect), qPrintable(describe(result.diagnostics)));
    for (const Node& n : result.graph->nodes) {
        for (const SourceLocation& s : n.sources) {
            // A number that does not fit is dropped, never wrapped into a negative or a wrong line.
            QVERIFY(s.line >= 0);
            QVERIFY(s.column >= 0);
        }
        if (n.data) {
            QVERIFY(n.data->offset >= -1);
            QVERIFY(n.data->length >= 0);
        }
    }
}

void TestGraphHostile::quadraticInputs_data()
{
    // Inputs that made a reader rescan the rest of the text for every line or character.
    QTest::addColumn<ArtifactKind>("kind");
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("torchscript header never closed")
        << ArtifactKind::GraphTorchScript
        << QByteArray::fromStdString("graph(%x : Float(2),\n" + repeated("      %w : Float(2, 3),\n", 200000));
    {
        // Stack-trace frames without newlines, each search used to run to the end of the trace.
        const std::string trace = repeated("File \"m.py\", line 1, in f ", 200000);
        const std::string meta = bytesField(9, bytesField(1, "pkg.torch.onnx.stack_trace") + bytesField(2, trace));
        QTest::newRow("onnx stack trace")
            << ArtifactKind::GraphOnnx
            << QByteArray::fromStdString(onnxModel(bytesField(1, onnxNode("keep", "Relu", meta))));
    }
    QTest::newRow("dot html ampersands") << ArtifactKind::GraphDot
                                         << QByteArray::fromStdString("digraph g { keep [label=<<table><tr><td>"
                                                                      + repeated("&", 2000000)
                                                                      + "</td></tr></table>>]; }\n");
    {
        // A cnode wrapped over many long lines that never balances its brackets.
        std::string text = "subgraph @g(%para1_x) {\n  %1(keep) = Relu(%para1_x\n";
        for (int i = 0; i < 100; ++i)
            text += "  " + repeated("(", 200000) + "\n";
        text += "}\n";
        QTest::newRow("mindspore ir wrapped lines")
            << ArtifactKind::GraphMindSporeIr << QByteArray::fromStdString(text);
    }
}

void TestGraphHostile::quadraticInputs()
{
    QFETCH(ArtifactKind, kind);
    QFETCH(QByteArray, bytes);
    const QString path = writeFile(m_dir, QStringLiteral("quadratic"), bytes.toStdString());
    const GraphResult result = GraphReader::read(path, kind);
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, path);
    if (result.graph) {
        checkConsistent(*result.graph);
        for (const Node& n : result.graph->nodes)
            QVERIFY(n.sources.size() <= 256);
        if (kind == ArtifactKind::GraphOnnx)
            QVERIFY2(mentions(result.diagnostics, QStringLiteral("innermost 256")),
                     qPrintable(describe(result.diagnostics)));
    } else {
        QVERIFY(!result.diagnostics.isEmpty());
    }
}

void TestGraphHostile::deepScopes_data()
{
    QTest::addColumn<ArtifactKind>("kind");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("id");
    const std::string deep = repeated("a/", kDeep) + "x";
    QTest::newRow("tf text name") << ArtifactKind::GraphTensorFlow
                                  << QByteArray::fromStdString("node { name: \"keep\" op: \"X\" }\nnode { name: \""
                                                               + deep + "\" op: \"X\" input: \"keep\" }\n")
                                  << QString::fromStdString(deep);
    QTest::newRow("onnx name") << ArtifactKind::GraphOnnx
                               << QByteArray::fromStdString(onnxModel(bytesField(1, onnxNode("keep", "Relu"))
                                                                      + bytesField(1, onnxNode(deep, "Relu"))))
                               << QString::fromStdString(deep);
    const std::string longScope = repeated("segment_of_a_long_name_", 20000) + "/x";
    QTest::newRow("tf text long component") << ArtifactKind::GraphTensorFlow
                                            << QByteArray::fromStdString("node { name: \"keep\" op: \"X\" }\nnode { "
                                                                         "name: \""
                                                                         + longScope + "\" op: \"X\" }\n")
                                            << QString::fromStdString(longScope);
}

void TestGraphHostile::deepScopes()
{
    // A name of 100k components: scopes are cut to the depth limit so the scope tree and the summary (which
    // work per component times length) stay linear.
    QFETCH(ArtifactKind, kind);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, id);
    const QString path = writeFile(m_dir, QStringLiteral("scopes"), bytes.toStdString());
    const GraphResult result = GraphReader::read(path, kind);
    QVERIFY2(result.graph, qPrintable(describe(result.diagnostics)));
    checkConsistent(*result.graph);
    const int index = result.graph->find(id.toStdString());
    QVERIFY(index >= 0);
    const Node& node = result.graph->nodes[std::size_t(index)];
    QVERIFY(node.scope.size() <= kMaxScopeBytes);
    QVERIFY(std::count(node.scope.begin(), node.scope.end(), '/') < ImportLimits::kMaxDepth);
    QVERIFY2(mentions(result.diagnostics, QStringLiteral("were cut")), qPrintable(describe(result.diagnostics)));
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, path);
    const GraphSummary summary = summarizeGraph(*result.graph);
    QVERIFY(summary.maxDepth <= ImportLimits::kMaxDepth);
    const auto tree = ScopeTree::build(result.graph);
    QVERIFY(tree);
}

void TestGraphHostile::edgeProducts_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("edges"); ///< edges of a file that must read, -1 for one that must be refused
    auto group = [](const char* prefix, int count) {
        std::string g = "{";
        for (int i = 0; i < count; ++i)
            g += std::string(" ") + prefix + std::to_string(i);
        return g + " }";
    };
    // 5,000 × 5,000 nodes joined by one statement of 60 KB: 25 million edges asked of cgraph.
    QTest::newRow("group to group") << QByteArray::fromStdString("digraph {" + group("a", 5000) + " -> "
                                                                 + group("b", 5000) + " }")
                                    << -1;
    // A named subgraph of 1,000 nodes opened again by name (with an empty body) 200 times: 200 million edges from 6 KB.
    {
        std::string dot = "digraph { subgraph s " + group("a", 1000) + "\n";
        for (int i = 0; i < 200; ++i)
            dot += "subgraph s {} -> subgraph s {};\n";
        QTest::newRow("named subgraph repeated") << QByteArray::fromStdString(dot + "}") << -1;
    }
    // Chains through groups, a reference with a port and attributes naming identifiers: read as usual.
    QTest::newRow("ordinary groups") << QByteArray("digraph G { rank=same; node [shape=box label=\"x y z\"];\n"
                                                   "{a b c} -> {d e} -> f:p0 [color=red];\n"
                                                   "subgraph cluster_0 { g h } g -> subgraph cluster_0 {}; }")
                                     << 3 * 2 + 2 + 2;
}

void TestGraphHostile::edgeProducts()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, edges);
    const QString path = writeFile(m_dir, QStringLiteral("product.dot"), bytes.toStdString());
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphDot);
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, path);
    if (edges < 0) {
        QVERIFY(!result.graph);
        QVERIFY2(mentions(result.diagnostics, QStringLiteral("Reading stopped")),
                 qPrintable(describe(result.diagnostics)));
        return;
    }
    QVERIFY2(result.graph, qPrintable(describe(result.diagnostics)));
    checkConsistent(*result.graph);
    int inputs = 0;
    for (const Node& n : result.graph->nodes)
        inputs += int(n.inputs.size());
    QCOMPARE(inputs, edges);
}

void TestGraphHostile::literalArguments()
{
    // MindSpore IR: every literal argument becomes a constant node of several hundred bytes, so 2-byte
    // literals multiply the file by a few hundred. 1,000 lines of 600 literals (1.2 MB) must stop at the
    // budget with the lines before it kept.
    std::string text = "# IR entry: @main\nsubgraph @main() {\n";
    std::string args;
    for (int a = 0; a < 600; ++a)
        args += a == 0 ? "1" : ",1";
    constexpr int kLines = 1000;
    for (int i = 0; i < kLines; ++i)
        text += "  %" + std::to_string(i) + "(x" + std::to_string(i) + ") = MakeTuple(" + args + ")\n";
    text += "}\n";
    const QString path = writeFile(m_dir, QStringLiteral("literals.ir"), text);
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphMindSporeIr);
    QVERIFY2(result.graph, qPrintable(describe(result.diagnostics)));
    checkConsistent(*result.graph);
    QVERIFY2(mentions(result.diagnostics, QStringLiteral("Reading stopped")), qPrintable(describe(result.diagnostics)));
    const int cnodes = result.graph->nodeCount();
    QVERIFY2(cnodes > 0 && cnodes < kLines, qPrintable(QString::number(cnodes)));
    const ImportLimits limits = ImportLimits::forInputSize(std::int64_t(text.size()));
    QVERIFY(std::int64_t(result.graph->nodes.size()) * std::int64_t(sizeof(Node)) <= limits.maxBytes);
    for (const Diagnostic& d : result.diagnostics) {
        QCOMPARE(d.file, path);
        QVERIFY(d.offset < std::int64_t(text.size()));
    }
}

void TestGraphHostile::manyLoopBodies()
{
    // 20,000 Loops of ten-node bodies: each body is stored once per Loop, yet a file of nothing else grows
    // into millions of nodes at this rate. The bodies stop at their limit, each either whole or left out.
    constexpr int kLoops = 20000;
    constexpr int kBodyNodes = 10;
    const std::string body = repeated(bytesField(1, onnxNode("b", "Relu")), kBodyNodes);
    const std::string loop = bytesField(
        1, onnxNode("", "Loop", bytesField(5, bytesField(1, "body") + varintField(20, 5) + bytesField(6, body))));
    const std::string model = onnxModel(repeated(loop, kLoops));
    const QString path = writeFile(m_dir, QStringLiteral("loops.onnx"), model);
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphOnnx);
    QVERIFY2(result.graph, qPrintable(describe(result.diagnostics)));
    const Graph& g = *result.graph;
    checkConsistent(g);
    QCOMPARE(g.nodeCount(0), kLoops);
    QVERIFY2(mentions(result.diagnostics, QStringLiteral("control-flow bodies")),
             qPrintable(describe(result.diagnostics)));
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, path);
    int withBody = 0;
    for (std::size_t i = 1; i < g.subgraphs.size(); ++i) {
        QCOMPARE(int(g.subgraphs[i].nodes.size()), kBodyNodes);
        ++withBody;
    }
    // The limit for a file this small is its floor of 2^17 body nodes.
    QCOMPARE(withBody, (1 << 17) / kBodyNodes);
    QCOMPARE(g.nodeCount(), kLoops + withBody * kBodyNodes);
}

void TestGraphHostile::rawBytesThatAreNotElements()
{
    // TensorProto: dims = 1, data_type = 2 (1: float32), name = 8, raw_data = 9; GraphProto.initializer = 5.
    // A float32 [3] needs 12 bytes: with 8 it is located (Node Details says where) but its bytes are not
    // offered as values; a float32 [2] with 8 bytes is.
    const auto initializer = [](std::string_view name, std::uint64_t dim, std::string_view raw) {
        return bytesField(5, varintField(1, dim) + varintField(2, 1) + bytesField(8, name) + bytesField(9, raw));
    };
    const std::string model
        = onnxModel(initializer("short", 3, std::string(8, '\x01')) + initializer("whole", 2, std::string(8, '\x01')));
    const QString path = writeFile(m_dir, QStringLiteral("raw_lengths.onnx"), model);
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphOnnx);
    QVERIFY2(result.graph, qPrintable(describe(result.diagnostics)));
    const Node* shortWeight = nullptr;
    const Node* wholeWeight = nullptr;
    for (const Node& node : result.graph->nodes) {
        if (node.name == "short")
            shortWeight = &node;
        else if (node.name == "whole")
            wholeWeight = &node;
    }
    QVERIFY(shortWeight && shortWeight->data && wholeWeight && wholeWeight->data);
    QCOMPARE(shortWeight->data->length, std::int64_t(8));
    QCOMPARE(shortWeight->data->encoding, std::string("bytes"));
    QVERIFY(!hasLocatedValues(*shortWeight));
    QCOMPARE(wholeWeight->data->encoding, std::string("raw"));
    QVERIFY(hasLocatedValues(*wholeWeight));
}

QTEST_GUILESS_MAIN(TestGraphHostile)
#include "tst_graphhostile.moc"
