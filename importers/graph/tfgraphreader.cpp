#include "importers/graph/tfgraphreader.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/proto/tf_graph.pb.h"
#include "importers/graph/protowire.h"
#include "importers/graph/uniqueids.h"
#include "importers/summary/proto/tb_event.pb.h"
#include "importers/summary/recordreader.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <map>
#include <unordered_map>

namespace runlens::importers::graph {

namespace {

models::graph::TensorType shapeType(const tb::TensorShapeProto& shape, int dtype)
{
    models::graph::TensorType out;
    out.dtype = tfDataTypeName(dtype);
    if (shape.unknown_rank())
        return out;
    out.rankKnown = true;
    for (const auto& dim : shape.dim())
        out.dims.push_back(dim.size() < 0 ? -1 : dim.size());
    return out;
}

std::string attrText(const tf::AttrValue& value)
{
    switch (value.value_case()) {
    case tf::AttrValue::kS:
        return text::elide(text::printable(value.s()));
    case tf::AttrValue::kI:
        return std::to_string(value.i());
    case tf::AttrValue::kF:
        return std::to_string(value.f());
    case tf::AttrValue::kB:
        return value.b() ? "true" : "false";
    case tf::AttrValue::kType:
        return tfDataTypeName(value.type());
    case tf::AttrValue::kShape:
        return shapeType(value.shape(), 0).text();
    case tf::AttrValue::kTensor: {
        const tb::TensorProto& t = value.tensor();
        std::string out = "tensor " + shapeType(t.tensor_shape(), t.dtype()).text();
        // Small constants are worth showing (a scalar learning rate, a reshape target).
        if (t.int_val_size() > 0 && t.int_val_size() <= 8) {
            out += " {";
            for (int i = 0; i < t.int_val_size(); ++i)
                out += (i ? ", " : "") + std::to_string(t.int_val(i));
            out += "}";
        } else if (t.int64_val_size() > 0 && t.int64_val_size() <= 8) {
            std::vector<std::int64_t> v(t.int64_val().begin(), t.int64_val().end());
            out += " {" + text::joinInts(v, ", ") + "}";
        } else if (t.float_val_size() > 0 && t.float_val_size() <= 8) {
            out += " {";
            for (int i = 0; i < t.float_val_size(); ++i)
                out += (i ? ", " : "") + std::to_string(t.float_val(i));
            out += "}";
        } else if (t.string_val_size() == 1) {
            out += " {\"" + text::elide(text::printable(t.string_val(0)), 80) + "\"}";
        }
        return out;
    }
    case tf::AttrValue::kList: {
        const auto& l = value.list();
        std::string out = "[";
        auto add = [&out](const std::string& item) {
            if (out.size() > 1)
                out += ", ";
            out += item;
        };
        for (const auto& s : l.s())
            add(text::printable(s));
        for (auto i : l.i())
            add(std::to_string(i));
        for (auto f : l.f())
            add(std::to_string(f));
        for (auto b : l.b())
            add(b ? "true" : "false");
        for (auto t : l.type())
            add(tfDataTypeName(t));
        for (const auto& s : l.shape())
            add(shapeType(s, 0).text());
        for (const auto& f : l.func())
            add(f.name());
        return text::elide(out) + "]";
    }
    case tf::AttrValue::kFunc:
        return value.func().name();
    case tf::AttrValue::kPlaceholder:
        return "$" + value.placeholder();
    default:
        return {};
    }
}

models::graph::NodeKind kindOf(const std::string& op)
{
    if (op == "Const" || op == "HostConst")
        return models::graph::NodeKind::Constant;
    if (op == "Placeholder" || op == "PlaceholderWithDefault")
        return models::graph::NodeKind::Input;
    if (op == "Variable" || op == "VariableV2" || op == "VarHandleOp" || op == "VarHandleOpV2")
        return models::graph::NodeKind::Parameter;
    return models::graph::NodeKind::Op;
}

/// No operation has this many outputs; a slot beyond it is damage or an attempt to make the reader create
/// billions of ports, and the input is left unconnected. The import budget bounds the ports below it.
constexpr int kMaxOutputSlot = 1 << 20;

struct InputRef
{
    std::string node;
    int slot = 0;
    bool control = false;
    bool badSlot = false; ///< the slot is negative, too large or not a number that fits
};

/// "^name" (control), "name:k" (slot k), "name" (slot 0); inside functions "name:out_arg:k".
InputRef parseInput(std::string_view input)
{
    InputRef ref;
    if (!input.empty() && input.front() == '^') {
        ref.control = true;
        input.remove_prefix(1);
    }
    const std::size_t colon = input.find(':');
    if (colon == std::string_view::npos) {
        ref.node = std::string(input);
        return ref;
    }
    ref.node = std::string(input.substr(0, colon));
    const std::string_view rest = input.substr(colon + 1);
    const std::size_t second = rest.rfind(':');
    const std::string_view digits = second == std::string_view::npos ? rest : rest.substr(second + 1);
    if (!digits.empty() && (digits.front() == '-' || (digits.front() >= '0' && digits.front() <= '9'))) {
        int slot = 0;
        ref.badSlot = !text::toInt(digits, slot) || slot < 0 || slot > kMaxOutputSlot;
        ref.slot = ref.badSlot ? 0 : slot;
    }
    return ref;
}

} // namespace

class TfGraphAssembler::Builder
{
public:
    Builder(models::graph::Graph& graph, ImportBudget& budget, const ImportControl& control)
        : m_graph(graph)
        , m_budget(budget)
        , m_control(control)
    { }

    bool build(const tf::GraphDef& def, int subgraph, const std::string& prefix)
    {
        // Library functions are appended as subgraphs; calls resolve to them by name. Every GraphDef has its
        // own library, so names resolve within the GraphDef being added.
        m_functions.clear();
        const int firstFunction = int(m_graph.subgraphs.size());
        for (const tf::FunctionDef& f : def.library().function()) {
            models::graph::Subgraph s;
            s.name = f.signature().name();
            m_functions.emplace(s.name, int(m_graph.subgraphs.size()));
            m_graph.subgraphs.push_back(std::move(s));
        }
        if (!addNodes(def.node(), subgraph, prefix, {}))
            return false;
        int index = firstFunction;
        for (const tf::FunctionDef& f : def.library().function()) {
            if (m_budget.exceeded())
                break;
            addFunction(f, index++, prefix);
        }
        if (m_budget.exceeded())
            dropDanglingProducers(m_graph);
        return true;
    }

    int unresolved() const { return m_unresolved; }
    int badSlots() const { return m_badSlots; }
    const std::string& firstBadSlot() const { return m_firstBadSlot; }

private:
    std::string uniqueId(const std::string& wanted) { return m_ids.take(wanted); }

    InputRef checkedInput(std::string_view input, const std::string& consumer)
    {
        InputRef ref = parseInput(input);
        if (ref.badSlot && m_badSlots++ == 0)
            m_firstBadSlot = "node \"" + text::elide(text::printable(consumer), 200) + "\" input \""
                + text::elide(text::printable(input), 200) + "\"";
        return ref;
    }

    bool addNodes(const google::protobuf::RepeatedPtrField<tf::NodeDef>& defs, int subgraph, const std::string& prefix,
                  std::unordered_map<std::string, int> known)
    {
        const int first = int(m_graph.nodes.size());
        for (int i = 0; i < defs.size(); ++i)
            known.emplace(defs[i].name(), first + i);
        for (int i = 0; i < defs.size(); ++i) {
            if ((i & 1023) == 0 && m_control.canceled())
                return false;
            if (m_budget.exceeded())
                break;
            const tf::NodeDef& def = defs[i];
            models::graph::Node node;
            node.subgraph = subgraph;
            node.opType = def.op();
            node.kind = kindOf(def.op());
            auto call = m_functions.find(def.op());
            // TF2 graphs call their functions through (Stateful)PartitionedCall, naming the function in `f`.
            if (call == m_functions.end()) {
                const auto f = def.attr().find("f");
                if (f != def.attr().end() && f->second.value_case() == tf::AttrValue::kFunc)
                    call = m_functions.find(f->second.func().name());
            }
            if (call != m_functions.end()) {
                node.kind = models::graph::NodeKind::Call;
                node.callee = call->second;
            }
            auto [scope, name] = text::splitScope(def.name());
            node.name = name.empty() ? def.name() : name;
            node.scope = prefix.empty() ? scope : scope.empty() ? prefix : prefix + "/" + scope;
            node.id = uniqueId(prefix.empty() ? def.name() : prefix + "/" + def.name());
            if (!def.device().empty())
                node.attributes.push_back({ "device", def.device() });
            int dtype = 0;
            // Sorted attribute names: map order in the file is not meaningful.
            std::map<std::string, const tf::AttrValue*> attrs;
            for (const auto& [key, value] : def.attr())
                attrs.emplace(key, &value);
            for (const auto& [key, value] : attrs) {
                if ((key == "T" || key == "dtype") && value->value_case() == tf::AttrValue::kType)
                    dtype = value->type();
                if (key == "_output_shapes")
                    continue;
                node.attributes.push_back({ key, attrText(*value) });
            }
            const auto shapes = attrs.find("_output_shapes");
            if (shapes != attrs.end() && shapes->second->value_case() == tf::AttrValue::kList) {
                for (const auto& shape : shapes->second->list().shape()) {
                    models::graph::Port out;
                    out.type = shapeType(shape, dtype);
                    out.name = def.name() + ":" + std::to_string(node.outputs.size());
                    node.outputs.push_back(std::move(out));
                }
            }
            for (const std::string& input : def.input()) {
                const InputRef ref = checkedInput(input, def.name());
                models::graph::Port port;
                port.name = input;
                port.control = ref.control;
                port.producerSlot = ref.slot;
                const auto it = known.find(ref.node);
                // A bad slot was counted by checkedInput() and is reported once for the file.
                if (it != known.end() && !ref.badSlot)
                    port.producer = it->second;
                else if (!ref.badSlot)
                    ++m_unresolved;
                node.inputs.push_back(std::move(port));
            }
            if (!chargeNode(m_budget, node))
                break;
            m_graph.nodes.push_back(std::move(node));
            m_graph.subgraphs[std::size_t(subgraph)].nodes.push_back(first + i);
        }
        // Producers learn how many output slots their consumers use, when `_output_shapes` did not say.
        const int count = int(m_graph.nodes.size());
        for (int i = first; i < count; ++i) {
            for (models::graph::Port& in : m_graph.nodes[std::size_t(i)].inputs) {
                if (in.producer < 0 || in.control || in.producer >= count)
                    continue;
                auto& outputs = m_graph.nodes[std::size_t(in.producer)].outputs;
                const std::int64_t missing = std::int64_t(in.producerSlot) + 1 - std::int64_t(outputs.size());
                if (missing > 0
                    && (m_budget.exceeded() || !m_budget.spendElements(missing)
                        || !m_budget.spendBytes(missing * std::int64_t(sizeof(models::graph::Port))))) {
                    in.producer = -1;
                    continue;
                }
                while (int(outputs.size()) <= in.producerSlot) {
                    models::graph::Port out;
                    out.name = m_graph.nodes[std::size_t(in.producer)].id + ":" + std::to_string(outputs.size());
                    outputs.push_back(std::move(out));
                }
            }
        }
        return true;
    }

    void addFunction(const tf::FunctionDef& f, int subgraph, const std::string& graphPrefix)
    {
        const std::string prefix
            = graphPrefix.empty() ? f.signature().name() : graphPrefix + "/" + f.signature().name();
        std::unordered_map<std::string, int> known;
        for (const auto& arg : f.signature().input_arg()) {
            models::graph::Node node;
            node.kind = models::graph::NodeKind::Input;
            node.implicit = true;
            node.opType = "Arg";
            node.name = arg.name();
            node.scope = prefix;
            node.subgraph = subgraph;
            node.id = uniqueId(prefix + "/" + arg.name());
            models::graph::Port out;
            out.name = arg.name();
            out.type.dtype = tfDataTypeName(arg.type());
            node.outputs.push_back(std::move(out));
            known.emplace(arg.name(), int(m_graph.nodes.size()));
            m_graph.subgraphs[std::size_t(subgraph)].parameters.push_back(int(m_graph.nodes.size()));
            m_graph.subgraphs[std::size_t(subgraph)].nodes.push_back(int(m_graph.nodes.size()));
            m_graph.nodes.push_back(std::move(node));
        }
        addNodes(f.node_def(), subgraph, prefix, known);
        std::unordered_map<std::string, int> byName;
        for (int index : m_graph.subgraphs[std::size_t(subgraph)].nodes)
            byName.emplace(m_graph.nodes[std::size_t(index)].name, index);
        for (const auto& arg : f.signature().output_arg()) {
            models::graph::Node node;
            node.kind = models::graph::NodeKind::Output;
            node.implicit = true;
            node.opType = "Retval";
            node.name = arg.name();
            node.scope = prefix;
            node.subgraph = subgraph;
            node.id = uniqueId(prefix + "/output:" + arg.name());
            models::graph::Port in;
            const auto ret = f.ret().find(arg.name());
            if (ret != f.ret().end()) {
                in.name = ret->second;
                const InputRef ref = checkedInput(ret->second, node.id);
                const auto it = byName.find(ref.node);
                if (it != byName.end() && !ref.badSlot) {
                    in.producer = it->second;
                    in.producerSlot = ref.slot;
                }
            }
            node.inputs.push_back(std::move(in));
            m_graph.subgraphs[std::size_t(subgraph)].nodes.push_back(int(m_graph.nodes.size()));
            if (m_graph.subgraphs[std::size_t(subgraph)].output < 0)
                m_graph.subgraphs[std::size_t(subgraph)].output = int(m_graph.nodes.size());
            m_graph.nodes.push_back(std::move(node));
        }
    }

    models::graph::Graph& m_graph;
    ImportBudget& m_budget;
    const ImportControl& m_control;
    std::unordered_map<std::string, int> m_functions;
    UniqueIds m_ids;
    int m_unresolved = 0;
    int m_badSlots = 0;
    std::string m_firstBadSlot;
};

TfGraphAssembler::TfGraphAssembler(models::graph::Graph& graph, ImportBudget& budget, const ImportControl& control)
    : m_builder(std::make_unique<Builder>(graph, budget, control))
{ }

TfGraphAssembler::~TfGraphAssembler() = default;

bool TfGraphAssembler::add(const tf::GraphDef& def, int subgraph, const std::string& prefix)
{
    return m_builder->build(def, subgraph, prefix);
}

void TfGraphAssembler::report(models::Diagnostics& diagnostics, const QString& path) const
{
    if (m_builder->badSlots() > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Warning, path,
            GraphTr::tr("%n input(s) name an output slot that is negative, not a number or beyond %1, which no "
                        "operation has; they were left unconnected (the first is %2).",
                        nullptr, m_builder->badSlots())
                .arg(kMaxOutputSlot)
                .arg(QString::fromStdString(m_builder->firstBadSlot()))));
    // torch's add_graph always leaves the inputs of prim::GetAttr nodes dangling: worth saying, not a fault.
    if (m_builder->unresolved() > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Info, path,
            GraphTr::tr("%n node input(s) name nodes that are not in the graph.", nullptr, m_builder->unresolved())));
}

namespace {

GraphResult build(const tf::GraphDef& def, std::size_t inputBytes, const QString& path, models::Diagnostics diagnostics,
                  const ImportControl& control)
{
    auto graph = std::make_unique<models::graph::Graph>();
    graph->path = path;
    graph->format = models::graph::GraphFormat::TensorFlow;
    if (def.has_versions())
        graph->metadata.push_back({ "producer", std::to_string(def.versions().producer()) });
    graph->subgraphs.emplace_back();
    ImportBudget budget { std::int64_t(inputBytes) };
    TfGraphAssembler assembler(*graph, budget, control);
    if (!assembler.add(def, 0, std::string())) {
        GraphResult result = publishGraph(std::move(graph), diagnostics, true);
        result.canceled = true;
        return result;
    }
    if (budget.exceeded())
        diagnostics.append(budget.diagnostic(path, -1));
    assembler.report(diagnostics, path);
    return publishGraph(std::move(graph), diagnostics);
}

/// Collects the parser's complaints instead of letting protobuf log them.
class TextErrors final : public google::protobuf::io::ErrorCollector
{
public:
    void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override
    {
        if (firstLine < 0) {
            firstLine = line + 1;
            firstColumn = column + 1;
            first = message;
        }
    }
    void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override { }

    int firstLine = -1;
    int firstColumn = -1;
    std::string first;
};

bool looksLikeText(std::string_view bytes)
{
    // A binary GraphDef starts with 0x0a (a newline to a trimmer) and a length that may be a letter, so the
    // first character alone misleads: text also has no control bytes, while field tags (0x12, 0x1a, …) and
    // short lengths appear within the first bytes of any binary node.
    const std::string_view window = bytes.substr(0, 256);
    for (const char ch : window) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return false;
    }
    const std::string_view head = text::trim(window);
    if (head.empty())
        return false;
    const unsigned char c = static_cast<unsigned char>(head.front());
    return c == '#' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

} // namespace

models::graph::TensorType tfTensorType(const tb::TensorShapeProto& shape, int dtype)
{
    return shapeType(shape, dtype);
}

std::string tfDataTypeName(int type)
{
    static const char* const kNames[]
        = { "",          "float32", "float64",    "int32",   "uint8",    "int16",   "int8",     "string",
            "complex64", "int64",   "bool",       "qint8",   "quint8",   "qint32",  "bfloat16", "qint16",
            "quint16",   "uint16",  "complex128", "float16", "resource", "variant", "uint32",   "uint64" };
    if (type > 100)
        type -= 100;
    if (type >= 0 && type < int(std::size(kNames)))
        return kNames[type];
    return "type" + std::to_string(type);
}

GraphResult TfGraphReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    if (looksLikeText(bytes))
        return readText(bytes, path, control);
    return readGraphDef(bytes, path, control);
}

GraphResult TfGraphReader::readGraphDef(std::string_view bytes, const QString& path, const ImportControl& control)
{
    return guardedRead(path, [&]() -> GraphResult {
        models::Diagnostics diagnostics;
        if (bytes.empty()) {
            diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The graph is empty.")));
            return publishGraph(nullptr, diagnostics, true);
        }
        tf::GraphDef def;
        if (!wire::parse(def, bytes)) {
            def.Clear();
            const std::size_t stop = wire::salvage(def, bytes);
            if (def.node_size() == 0) {
                diagnostics.append(graphDiagnostic(
                    models::Severity::Error, path,
                    GraphTr::tr("Not a readable TensorFlow GraphDef: the protobuf data is damaged or of another kind."),
                    qint64(stop)));
                return publishGraph(nullptr, diagnostics, true);
            }
            diagnostics.append(graphDiagnostic(
                models::Severity::Warning, path,
                GraphTr::tr("The GraphDef is damaged or cut off after byte %1; the %2 nodes before it were read.")
                    .arg(stop)
                    .arg(def.node_size()),
                qint64(stop)));
        }
        return build(def, bytes.size(), path, diagnostics, control);
    });
}

GraphResult TfGraphReader::readText(std::string_view text, const QString& path, const ImportControl& control)
{
    return guardedRead(path, [&]() -> GraphResult {
        models::Diagnostics diagnostics;
        tf::GraphDef def;
        google::protobuf::TextFormat::Parser parser;
        TextErrors errors;
        parser.RecordErrorsTo(&errors);
        // Newer TensorFlow versions add fields (experimental_debug_info, full_type ...): skip what we do not know.
        parser.AllowUnknownField(true);
        parser.AllowUnknownExtension(true);
        // Without a limit the parser recurses once per nested message: `attr{value{func{attr{…` a hundred
        // thousand levels deep would overflow the stack. The nodes before the error are kept.
        parser.SetRecursionLimit(ImportLimits::kMaxDepth);
        google::protobuf::io::ArrayInputStream input(text.data(), int(std::min<std::size_t>(text.size(), INT32_MAX)));
        if (!parser.Parse(&input, &def)) {
            // The text parser stops at the first error; nodes before it are kept (Parse fills as it goes).
            const bool anything = def.node_size() > 0;
            diagnostics.append(graphDiagnostic(anything ? models::Severity::Warning : models::Severity::Error, path,
                                               GraphTr::tr("Not valid GraphDef text at line %1, column %2: %3")
                                                   .arg(errors.firstLine)
                                                   .arg(errors.firstColumn)
                                                   .arg(QString::fromStdString(errors.first)),
                                               -1, errors.firstLine));
            if (!anything)
                return publishGraph(nullptr, diagnostics, true);
        }
        return build(def, text.size(), path, diagnostics, control);
    });
}

GraphResult readEventFileGraph(const QString& path, const ImportControl& control)
{
    summary::RecordReader reader(path);
    if (!reader.open()) {
        GraphResult result;
        result.diagnostics.append(graphDiagnostic(
            models::Severity::Error, path, GraphTr::tr("Cannot open the event file: %1").arg(reader.errorString())));
        return result;
    }
    tb::Event event;
    summary::RecordReader::Record record;
    for (;;) {
        if (control.canceled()) {
            GraphResult result;
            result.canceled = true;
            return result;
        }
        const summary::RecordStatus status = reader.next(record);
        if (status == summary::RecordStatus::BadDataCrc)
            continue;
        if (status != summary::RecordStatus::Ok)
            break;
        if (!wire::parse(event, std::string_view(record.data, std::size_t(record.size))) || !event.has_graph_def())
            continue;
        return TfGraphReader::readGraphDef(event.graph_def(), path, control);
    }
    GraphResult result;
    result.diagnostics.append(graphDiagnostic(models::Severity::Warning, path,
                                              GraphTr::tr("The event file holds no graph (no graph_def record).")));
    return result;
}

} // namespace runlens::importers::graph
