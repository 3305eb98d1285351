#include "importers/graph/anfirgraphreader.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/proto/anf_ir.pb.h"
#include "importers/graph/protowire.h"
#include "importers/graph/uniqueids.h"

#include <QFileInfo>

#include <unordered_map>

namespace runlens::importers::graph {

namespace {

constexpr int kDtTensor = 14;
constexpr int kDtTuple = 31;
constexpr int kDtList = 32;

std::string anfTypeName(int type)
{
    static const char* const kNames[]
        = { "",         "bool",    "int8",    "int16",   "int32",    "int64",   "uint8",   "uint16",   "uint32",
            "uint64",   "float16", "float32", "float64", "string",   "tensor",  "graph",   "bools",    "ints8",
            "ints16",   "ints32",  "ints64",  "uints8",  "uints16",  "uints32", "uints64", "floats16", "floats32",
            "floats64", "strings", "tensors", "graphs",  "tuple",    "list",    "dict",    "none",     "sym_inst",
            "int",      "uint",    "float",   "type",    "anything", "refkey",  "ref" };
    if (type >= 0 && type < int(std::size(kNames)))
        return kNames[type];
    return "type" + std::to_string(type);
}

int elementSize(int type)
{
    switch (type) {
    case 1:
    case 2:
    case 6:
        return 1;
    case 3:
    case 7:
    case 10:
        return 2;
    case 4:
    case 8:
    case 11:
        return 4;
    case 5:
    case 9:
    case 12:
        return 8;
    default:
        return 0;
    }
}

/// Flattens a type: tensors give dtype and shape, tuples their elements.
void collectTypes(const anf::TypeProto& type, std::vector<models::graph::TensorType>& out)
{
    if (type.data_type() == kDtTensor || type.has_tensor_type()) {
        models::graph::TensorType t;
        t.dtype = anfTypeName(type.tensor_type().elem_type());
        t.rankKnown = true;
        for (const auto& dim : type.tensor_type().shape().dim())
            t.dims.push_back(dim.size());
        out.push_back(std::move(t));
    } else if (type.data_type() == kDtTuple || type.data_type() == kDtList || type.has_sequence_type()) {
        for (const auto& element : type.sequence_type().elem_types())
            collectTypes(element, out);
    } else if (type.data_type() != 0) {
        models::graph::TensorType t;
        t.dtype = anfTypeName(type.data_type());
        out.push_back(std::move(t));
    }
}

/// How a tensor value reads under each schema: which one is consistent decides the variant.
enum class TensorVote { None, AnfIr, Debugger };

TensorVote voteTensor(std::string_view bytes)
{
    anf::DebugTensorProto debug;
    if (wire::parse(debug, bytes) && debug.data_type() > 0) {
        // Declared dims are the file's word: a product past int64 cannot describe the bytes that are there.
        std::int64_t elements = 1;
        bool fits = true;
        for (auto d : debug.dims())
            fits = fits && !__builtin_mul_overflow(elements, d < 0 ? 0 : d, &elements);
        const int size = elementSize(debug.data_type());
        std::int64_t expected = 0;
        if (fits && size > 0 && !__builtin_mul_overflow(elements, std::int64_t(size), &expected)
            && !debug.tensor_content().empty() && std::int64_t(debug.tensor_content().size()) == expected)
            return TensorVote::Debugger;
    }
    anf::TensorProto tensor;
    if (wire::parse(tensor, bytes) && tensor.data_type() > 0)
        return TensorVote::AnfIr;
    return TensorVote::None;
}

void voteValue(const anf::ValueProto& value, int& anfVotes, int& debugVotes)
{
    auto vote = [&](const std::string& bytes) {
        switch (voteTensor(bytes)) {
        case TensorVote::AnfIr:
            ++anfVotes;
            break;
        case TensorVote::Debugger:
            ++debugVotes;
            break;
        default:
            break;
        }
    };
    if (!value.tensor_val().empty())
        vote(value.tensor_val());
    for (const auto& t : value.tensor_vals())
        vote(t);
    for (const auto& v : value.values())
        voteValue(v, anfVotes, debugVotes);
}

std::string valueText(const anf::ValueProto& value, bool debugger, int depth = 0)
{
    if (depth > 8)
        return "…";
    if (!value.tensor_val().empty()) {
        if (debugger) {
            anf::DebugTensorProto t;
            wire::parse(t, value.tensor_val());
            std::vector<std::int64_t> dims(t.dims().begin(), t.dims().end());
            return "Tensor " + anfTypeName(t.data_type()) + "[" + text::joinInts(dims) + "]";
        }
        anf::TensorProto t;
        wire::parse(t, value.tensor_val());
        std::vector<std::int64_t> dims(t.dims().begin(), t.dims().end());
        return "Tensor " + anfTypeName(t.data_type()) + "[" + text::joinInts(dims) + "]";
    }
    if (!value.str_val().empty())
        return text::elide(text::printable(value.str_val()));
    if (value.values_size() > 0 || value.dtype() == kDtTuple || value.dtype() == kDtList) {
        std::string out = value.dtype() == kDtList ? "[" : "(";
        for (int i = 0; i < value.values_size(); ++i)
            out += (i ? ", " : "") + valueText(value.values(i), debugger, depth + 1);
        return text::elide(out) + (value.dtype() == kDtList ? "]" : ")");
    }
    if (value.int_vals_size() > 0) {
        std::vector<std::int64_t> v(value.int_vals().begin(), value.int_vals().end());
        return "[" + text::elide(text::joinInts(v, ", ")) + "]";
    }
    if (value.dict_val_size() > 0)
        return "{" + std::to_string(value.dict_val_size()) + " entries}";
    switch (value.dtype()) {
    case 1:
        return value.bool_val() ? "true" : "false";
    case 2:
    case 3:
    case 4:
    case 5:
        return std::to_string(value.int_val());
    case 6:
    case 7:
    case 8:
    case 9:
        return std::to_string(value.uint_val() ? value.uint_val() : std::uint64_t(value.int_val()));
    case 10:
    case 11:
        return std::to_string(value.float_val());
    case 12:
        return std::to_string(value.double_val());
    case 34:
        return "None";
    default:
        break;
    }
    if (value.int_val() != 0)
        return std::to_string(value.int_val());
    return anfTypeName(value.dtype());
}

models::graph::TensorType valueType(const anf::ValueProto& value, bool debugger)
{
    models::graph::TensorType t;
    if (!value.tensor_val().empty()) {
        t.rankKnown = true;
        if (debugger) {
            anf::DebugTensorProto p;
            wire::parse(p, value.tensor_val());
            t.dtype = anfTypeName(p.data_type());
            t.dims.assign(p.dims().begin(), p.dims().end());
        } else {
            anf::TensorProto p;
            wire::parse(p, value.tensor_val());
            t.dtype = anfTypeName(p.data_type());
            t.dims.assign(p.dims().begin(), p.dims().end());
        }
        return t;
    }
    t.dtype = anfTypeName(value.dtype());
    return t;
}

GraphResult build(const anf::GraphProto& g, std::int64_t inputBytes, const QString& path,
                  models::Diagnostics diagnostics, bool debuggerHint, const ImportControl& control,
                  const std::vector<models::graph::Attribute>& metadata)
{
    int anfVotes = 0;
    int debugVotes = 0;
    bool debugFields = !g.root_name().empty();
    for (const auto& c : g.const_vals())
        voteValue(c.value(), anfVotes, debugVotes);
    for (const auto& p : g.parameters())
        voteValue(p.default_val(), anfVotes, debugVotes);
    for (const auto& n : g.node()) {
        debugFields = debugFields || !n.source_address().empty();
        for (const auto& a : n.attribute())
            voteValue(a.value(), anfVotes, debugVotes);
    }
    const bool debugger = debugFields || debugVotes > anfVotes || (debuggerHint && anfVotes == 0);

    auto graph = std::make_unique<models::graph::Graph>();
    graph->path = path;
    graph->format = debugger ? models::graph::GraphFormat::AnfIrDebugger : models::graph::GraphFormat::AnfIr;
    graph->name = text::printable(g.name());
    graph->metadata = metadata;
    if (!g.root_name().empty())
        graph->metadata.push_back({ "root_name", text::printable(g.root_name()) });
    models::graph::Subgraph main;
    main.name = graph->name;
    graph->subgraphs.push_back(std::move(main));
    models::graph::Subgraph& sub = graph->subgraphs.front();

    std::unordered_map<std::string, int> byName;
    UniqueIds ids;
    auto uniqueId = [&ids](const std::string& wanted) { return ids.take(wanted); };
    ImportBudget budget { inputBytes };
    auto addImplicit = [&](models::graph::Node node) {
        const int index = int(graph->nodes.size());
        byName.emplace(node.id, index);
        node.id = uniqueId(node.id);
        sub.nodes.push_back(index);
        graph->nodes.push_back(std::move(node));
        return index;
    };
    for (const auto& p : g.parameters()) {
        models::graph::Node node;
        node.kind = models::graph::NodeKind::Parameter;
        node.implicit = true;
        node.opType = "Parameter";
        node.id = text::printable(p.name());
        node.name = node.id;
        std::vector<models::graph::TensorType> types;
        collectTypes(p.type(), types);
        models::graph::Port out;
        out.name = node.id;
        if (!types.empty())
            out.type = types.front();
        node.outputs.push_back(std::move(out));
        if (p.has_default_val())
            node.attributes.push_back({ "default", valueText(p.default_val(), debugger) });
        sub.parameters.push_back(addImplicit(std::move(node)));
    }
    for (const auto& c : g.const_vals()) {
        models::graph::Node node;
        node.kind = models::graph::NodeKind::Constant;
        node.implicit = true;
        node.opType = "Const";
        node.id = text::printable(c.key());
        node.name = node.id;
        models::graph::Port out;
        out.name = node.id;
        out.type = valueType(c.value(), debugger);
        node.outputs.push_back(std::move(out));
        node.attributes.push_back({ "value", valueText(c.value(), debugger) });
        addImplicit(std::move(node));
    }

    const int first = int(graph->nodes.size());
    std::unordered_map<std::string, int> nodeIds;
    for (int i = 0; i < g.node_size(); ++i)
        nodeIds.emplace(g.node(i).name(), first + i);
    int unresolved = 0;
    for (int i = 0; i < g.node_size(); ++i) {
        if ((i & 1023) == 0 && control.canceled()) {
            GraphResult result = publishGraph(nullptr, diagnostics, true);
            result.canceled = true;
            return result;
        }
        const anf::NodeProto& n = g.node(i);
        models::graph::Node node;
        node.kind = models::graph::NodeKind::Op;
        node.opType = text::printable(n.op_type());
        node.id = uniqueId(text::printable(n.name()));
        std::string fullName = text::printable(n.full_name());
        // Summary ops end in "[:scalar]" etc.; MindInsight names those from scope and type instead.
        if (fullName.empty() || fullName.back() == ']')
            fullName = text::printable(n.scope()) + "/" + node.opType + "-op" + text::printable(n.name());
        auto [scope, name] = text::splitScope(fullName);
        node.name = name;
        node.scope = n.scope().empty() ? scope : text::printable(n.scope());
        if (!n.instance_name().empty())
            node.attributes.push_back({ "instance_name", text::printable(n.instance_name()) });
        for (const auto& a : n.attribute())
            node.attributes.push_back({ text::printable(a.name()), valueText(a.value(), debugger) });
        if (!n.source_address().empty()) {
            models::graph::SourceLocation location;
            location.text = text::elide(text::printable(n.source_address()), 4096);
            node.sources.push_back(std::move(location));
        }
        std::vector<models::graph::TensorType> types;
        collectTypes(n.output_type(), types);
        for (std::size_t k = 0; k < types.size(); ++k) {
            models::graph::Port out;
            out.name = node.id + ":" + std::to_string(k);
            out.type = types[k];
            node.outputs.push_back(std::move(out));
        }
        if (node.outputs.empty()) {
            models::graph::Port out;
            out.name = node.id + ":0";
            node.outputs.push_back(std::move(out));
        }
        for (const auto& input : n.input()) {
            models::graph::Port port;
            const std::string inputName = input.name();
            port.name = text::printable(inputName);
            port.control = input.type() == 1;
            int producer = -1;
            if (const auto it = nodeIds.find(inputName); it != nodeIds.end())
                producer = it->second;
            else if (const auto p = byName.find(port.name); p != byName.end())
                producer = p->second;
            else if (inputName.find('/') != std::string::npos) {
                // Full names ("…/Conv2D-op5") refer to the node whose id follows the last "op".
                const std::size_t op = inputName.rfind("op");
                if (op != std::string::npos) {
                    if (const auto it = nodeIds.find(inputName.substr(op + 2)); it != nodeIds.end())
                        producer = it->second;
                }
            }
            if (producer < 0)
                ++unresolved;
            port.producer = producer;
            if (producer >= 0 && producer < first + i && producer < int(graph->nodes.size()))
                port.type = graph->nodes[std::size_t(producer)].outputs.empty()
                    ? models::graph::TensorType()
                    : graph->nodes[std::size_t(producer)].outputs.front().type;
            node.inputs.push_back(std::move(port));
        }
        if (!chargeNode(budget, node))
            break;
        sub.nodes.push_back(int(graph->nodes.size()));
        graph->nodes.push_back(std::move(node));
    }
    for (const auto& o : g.outputs()) {
        if (budget.exceeded())
            break;
        models::graph::Node node;
        node.kind = models::graph::NodeKind::Output;
        node.implicit = true;
        node.opType = "Output";
        node.id = uniqueId("output:" + text::printable(o.name()));
        node.name = text::printable(o.name());
        models::graph::Port in;
        in.name = node.name;
        if (const auto it = nodeIds.find(o.name()); it != nodeIds.end())
            in.producer = it->second;
        else
            ++unresolved;
        node.inputs.push_back(std::move(in));
        sub.output = int(graph->nodes.size());
        sub.nodes.push_back(sub.output);
        graph->nodes.push_back(std::move(node));
    }
    if (budget.exceeded()) {
        dropDanglingProducers(*graph);
        diagnostics.append(budget.diagnostic(path, -1));
    }
    // Exported graphs name values of the enclosing program (an output id, a free variable): the nodes
    // stay unconnected there, which is worth saying but not a fault of the file.
    if (unresolved > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Info, path,
            GraphTr::tr("%n input(s) name no node, parameter or constant of the graph.", nullptr, unresolved)));
    return publishGraph(std::move(graph), diagnostics);
}

/// Parses a GraphProto, keeping the complete fields of a damaged one.
bool parseGraph(std::string_view bytes, anf::GraphProto& g, const QString& path, models::Diagnostics& diagnostics)
{
    if (wire::parse(g, bytes))
        return true;
    g.Clear();
    const std::size_t stop = wire::salvage(g, bytes);
    if (g.node_size() == 0) {
        diagnostics.append(graphDiagnostic(
            models::Severity::Error, path,
            GraphTr::tr("Not a readable MindSpore graph: the protobuf data is damaged or of another kind."),
            qint64(stop)));
        return false;
    }
    diagnostics.append(
        graphDiagnostic(models::Severity::Warning, path,
                        GraphTr::tr("The graph is damaged or cut off after byte %1; the %2 nodes before it were read.")
                            .arg(stop)
                            .arg(g.node_size()),
                        qint64(stop)));
    return true;
}

} // namespace

GraphResult AnfIrGraphReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    if (bytes.empty()) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The file is empty.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    const bool debuggerHint = QFileInfo(path).fileName().startsWith(QLatin1String("ms_output_"));
    // A ModelProto starts with ir_version (field 1, a varint); a bare GraphProto with node (field 1, bytes).
    std::size_t pos = 0;
    wire::Field first;
    if (wire::next(bytes, pos, first) && first.number == 1 && first.wireType == 0) {
        anf::ModelProto model;
        std::vector<models::graph::Attribute> metadata;
        if (wire::parse(model, bytes)) {
            metadata.push_back({ "ir_version", std::to_string(model.ir_version()) });
            if (!model.domain().empty())
                metadata.push_back({ "domain", text::printable(model.domain()) });
            return build(model.graph(), std::int64_t(bytes.size()), path, diagnostics, debuggerHint, control, metadata);
        }
        // Damaged: salvage the graph field.
        std::size_t p = 0;
        wire::Field field;
        while (wire::next(bytes, p, field)) {
            if (field.number == 4 && field.wireType == 2) {
                anf::GraphProto g;
                if (!parseGraph(wire::payload(bytes, field), g, path, diagnostics))
                    return publishGraph(nullptr, diagnostics, true);
                return build(g, std::int64_t(bytes.size()), path, diagnostics, debuggerHint, control, metadata);
            }
        }
        wire::Field cut;
        if (wire::cutField(bytes, p, cut) && cut.number == 4 && cut.wireType == 2) {
            anf::GraphProto g;
            if (!parseGraph(wire::payload(bytes, cut), g, path, diagnostics))
                return publishGraph(nullptr, diagnostics, true);
            return build(g, std::int64_t(bytes.size()), path, diagnostics, debuggerHint, control, metadata);
        }
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("Not a readable MindSpore model: the protobuf data is "
                                                       "damaged or of another kind."),
                                           qint64(p)));
        return publishGraph(nullptr, diagnostics, true);
    }
    anf::GraphProto g;
    if (!parseGraph(bytes, g, path, diagnostics))
        return publishGraph(nullptr, diagnostics, true);
    return build(g, std::int64_t(bytes.size()), path, diagnostics, debuggerHint, control, {});
}

GraphResult AnfIrGraphReader::readGraphProto(std::string_view bytes, const QString& path, const ImportControl& control)
{
    return guardedRead(path, [&]() -> GraphResult {
        models::Diagnostics diagnostics;
        anf::GraphProto g;
        if (!parseGraph(bytes, g, path, diagnostics))
            return publishGraph(nullptr, diagnostics, true);
        return build(g, std::int64_t(bytes.size()), path, diagnostics, false, control, {});
    });
}

} // namespace runlens::importers::graph
