#include "importers/graph/mindirgraphreader.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/graphweights.h"
#include "importers/graph/proto/mind_ir.pb.h"
#include "importers/graph/protowire.h"
#include "importers/graph/uniqueids.h"

#include <google/protobuf/arena.h>

#include <QFileInfo>

#include <iterator>
#include <limits>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace runlens::importers::graph {

namespace {

constexpr std::uint32_t kModelGraph = 7;
constexpr std::uint32_t kModelFunctions = 8;
constexpr std::uint32_t kGraphParameter = 3;
constexpr std::uint32_t kTensorFloatData = 3;
constexpr std::uint32_t kTensorRawData = 9;

// AttributeProto.type values (upstream AttributeType).
enum AttrType {
    kFloat = 1,
    kUint8 = 2,
    kInt64 = 7,
    kString = 8,
    kBool = 9,
    kFloat16 = 10,
    kDouble = 11,
    kUint32 = 12,
    kUint64 = 13,
    kBfloat16 = 16,
    kTensor = 17,
    kGraph = 18,
    kTensors = 19,
    kTuple = 20,
    kList = 21,
    kDict = 22,
    kUMonad = 23,
    kIOMonad = 24,
    kNone = 25,
    kPrimitiveClosure = 26,
    kUnionFuncClosure = 29,
    kClassType = 33,
    kSymbol = 35,
    kTypeNull = 36,
};

/// Attribute values nest (tuples of tuples, dicts of lists); deeper levels are shown as "…". Protobuf
/// already bounds the nesting of what is parsed (ImportLimits::kMaxDepth); this keeps the text short.
constexpr int kMaxValueDepth = 8;

using runlens::mindir::AttributeProto;
using runlens::mindir::GraphProto;
using runlens::mindir::ModelProto;
using runlens::mindir::NodeProto;
using runlens::mindir::PrimitiveProto;
using runlens::mindir::TensorProto;
using runlens::mindir::ValueInfoProto;

/// Where each parameter's values are in the file, in the order of GraphProto.parameter.
using Locations = std::vector<models::graph::TensorLocation>;

/// TensorProto fields that hold values (float_data, int32_data, string_data, int64_data, raw_data,
/// double_data, uint64_data): never copied for parameters, the importer records where they are instead.
bool isTensorValueField(std::uint32_t number)
{
    return (number >= 3 && number <= 6) || (number >= 9 && number <= 11);
}

/// Merges a GraphProto field by field, keeping only the description of each parameter and where its values
/// are (`base`: the offset of `bytes` in the file). Returns where reading stopped.
std::size_t parseGraph(std::string_view bytes, std::size_t base, GraphProto& graph, Locations& locations)
{
    std::size_t pos = 0;
    wire::Field field;
    while (wire::next(bytes, pos, field)) {
        if (field.number == kGraphParameter && field.wireType == 2) {
            const std::string_view tensorBytes = wire::payload(bytes, field);
            TensorProto* tensor = graph.add_parameter();
            models::graph::TensorLocation location;
            std::size_t tpos = 0;
            wire::Field t;
            while (wire::next(tensorBytes, tpos, t)) {
                if (!isTensorValueField(t.number)) {
                    if (!wire::mergeField(*tensor, tensorBytes, t)) {
                        graph.mutable_parameter()->RemoveLast();
                        return field.begin;
                    }
                } else if (t.wireType == 2 && (t.number == kTensorRawData || t.number == kTensorFloatData)) {
                    location.encoding = t.number == kTensorRawData ? "raw" : "float_data";
                    location.offset = std::int64_t(base + field.dataBegin + t.dataBegin);
                    location.length = std::int64_t(t.dataSize);
                }
            }
            if (tpos < tensorBytes.size()) {
                graph.mutable_parameter()->RemoveLast();
                return field.begin;
            }
            locations.push_back(std::move(location));
        } else if (!wire::mergeField(graph, bytes, field)) {
            return field.begin;
        }
    }
    return pos;
}

struct ParsedModel
{
    ModelProto* model = nullptr;
    Locations mainLocations;
    std::vector<Locations> functionLocations;
};

/// Parses a ModelProto without copying the weights. A damaged or cut-off model keeps every complete field
/// before the damage, including the complete nodes of a cut-off graph. Returns where reading stopped.
std::size_t parseModel(std::string_view bytes, ParsedModel& parsed)
{
    ModelProto& model = *parsed.model;
    const auto graphField = [&](const wire::Field& field, std::string_view payload) {
        if (field.number == kModelGraph)
            return parseGraph(payload, field.dataBegin, *model.mutable_graph(), parsed.mainLocations);
        parsed.functionLocations.emplace_back();
        return parseGraph(payload, field.dataBegin, *model.add_functions(), parsed.functionLocations.back());
    };
    std::size_t pos = 0;
    wire::Field field;
    while (wire::next(bytes, pos, field)) {
        if ((field.number == kModelGraph || field.number == kModelFunctions) && field.wireType == 2) {
            const std::size_t stop = graphField(field, wire::payload(bytes, field));
            if (stop < field.dataSize)
                return field.dataBegin + stop;
        } else if (!wire::mergeField(model, bytes, field)) {
            return field.begin;
        }
    }
    wire::Field cut;
    if (pos < bytes.size() && wire::cutField(bytes, pos, cut)
        && (cut.number == kModelGraph || cut.number == kModelFunctions) && cut.wireType == 2)
        return cut.dataBegin + graphField(cut, wire::payload(bytes, cut));
    return pos;
}

models::graph::TensorType tensorType(const TensorProto& tensor)
{
    models::graph::TensorType out;
    out.dtype = mindirDataTypeName(tensor.data_type());
    // -2 is MindSpore's "rank unknown"; -1 an unknown dimension.
    for (const std::int64_t d : tensor.dims()) {
        if (d == -2)
            return out;
    }
    out.rankKnown = true;
    for (const std::int64_t d : tensor.dims())
        out.dims.push_back(d < 0 ? -1 : d);
    return out;
}

/// The output type a node's "shape" attribute (its abstract) describes.
models::graph::TensorType abstractType(const AttributeProto& a)
{
    if (a.tensors_size() > 0)
        return tensorType(a.tensors(0));
    if (a.has_t())
        return tensorType(a.t());
    models::graph::TensorType out;
    switch (a.type()) {
    case kTuple:
    case kList:
        out.dtype = (a.type() == kTuple ? "tuple(" : "list(") + std::to_string(a.values_size()) + ")";
        break;
    case kUMonad:
        out.dtype = "UMonad";
        break;
    case kIOMonad:
        out.dtype = "IOMonad";
        break;
    case kNone:
        out.dtype = "None";
        break;
    case kString:
        out.dtype = "string";
        break;
    case kBool:
        out.dtype = "bool";
        break;
    default:
        break;
    }
    return out;
}

template<class Values, class Print> void appendList(std::string& out, const Values& values, Print print)
{
    for (int i = 0; i < values.size() && out.size() <= 300; ++i) {
        if (i)
            out += ", ";
        out += print(values.Get(i));
    }
}

std::string floatText(double v)
{
    std::string s = std::to_string(v);
    // "0.500000" -> "0.5"
    if (s.find('.') != std::string::npos) {
        while (!s.empty() && s.back() == '0')
            s.pop_back();
        if (!s.empty() && s.back() == '.')
            s.pop_back();
    }
    return s;
}

std::string valueText(const AttributeProto& a, int depth);

std::string sequenceText(const AttributeProto& a, int depth, const char* open, const char* close)
{
    std::string out = open;
    for (int i = 0; i < a.values_size() && out.size() <= 300; ++i) {
        if (i)
            out += ", ";
        out += valueText(a.values(i), depth + 1);
    }
    if (a.type() == kTuple && a.values_size() == 1)
        out += ",";
    return out + close;
}

/// A value as MindSpore writes it: scalars in `i`/`f`/`d`/`s` (or, inside a sequence, the one element of
/// `ints`/`floats`/`strings`), tensors in `tensors`, tuples/lists/dicts as `values`.
std::string valueText(const AttributeProto& a, int depth)
{
    if (depth > kMaxValueDepth)
        return "…";
    const int type = a.type();
    switch (type) {
    case kBool:
        if (a.ints_size() > 0)
            return a.ints(0) ? "true" : "false";
        return a.i() ? "true" : "false";
    case kString:
        if (a.strings_size() == 1)
            return text::printable(a.strings(0));
        return text::printable(a.s());
    case kFloat:
    case kFloat16:
    case kBfloat16:
        if (a.floats_size() == 1)
            return floatText(a.floats(0));
        return floatText(a.f());
    case kDouble:
        if (a.doubles_size() == 1)
            return floatText(a.doubles(0));
        return floatText(a.d());
    case kTensor:
        return "tensor " + tensorType(a.t()).text();
    case kTensors:
        if (a.tensors_size() == 1)
            return "tensor " + tensorType(a.tensors(0)).text();
        return std::to_string(a.tensors_size()) + " tensors";
    case kGraph:
        return "graph " + text::printable(a.g().name());
    case kTuple:
        return sequenceText(a, depth, "(", ")");
    case kList:
        return sequenceText(a, depth, "[", "]");
    case kDict: {
        std::string out = "{";
        for (int i = 0; i < a.values_size() && out.size() <= 300; ++i) {
            const AttributeProto& item = a.values(i);
            if (i)
                out += ", ";
            out += text::printable(item.name()) + ": ";
            out += item.values_size() > 0 ? valueText(item.values(0), depth + 1) : std::string();
        }
        return out + "}";
    }
    case kUMonad:
        return "UMonad";
    case kIOMonad:
        return "IOMonad";
    case kNone:
        return "None";
    case kTypeNull:
        return "TypeNull";
    case kUnionFuncClosure:
        return sequenceText(a, depth, "union(", ")");
    default:
        break;
    }
    if ((type >= kUint8 && type <= kInt64) || type == kUint32 || type == kUint64) {
        if (a.ints_size() == 1)
            return std::to_string(a.ints(0));
        return std::to_string(a.i());
    }
    if ((type >= kPrimitiveClosure && type < kUnionFuncClosure) || (type >= kClassType && type <= kSymbol))
        return text::printable(a.s());
    // Untyped (older files) or unknown: whatever field is filled.
    std::string out;
    if (a.ints_size() > 0) {
        out = "[";
        appendList(out, a.ints(), [](std::int64_t v) { return std::to_string(v); });
        return out + "]";
    }
    if (a.floats_size() > 0) {
        out = "[";
        appendList(out, a.floats(), [](float v) { return floatText(v); });
        return out + "]";
    }
    if (a.strings_size() > 0) {
        out = "[";
        appendList(out, a.strings(), [](const std::string& v) { return text::printable(v); });
        return out + "]";
    }
    if (a.values_size() > 0)
        return sequenceText(a, depth, "(", ")");
    if (!a.s().empty())
        return text::printable(a.s());
    if (a.tensors_size() > 0)
        return "tensor " + tensorType(a.tensors(0)).text();
    if (a.has_t())
        return "tensor " + tensorType(a.t()).text();
    if (a.f() != 0.0f)
        return floatText(a.f());
    return std::to_string(a.i());
}

std::string attributeText(const AttributeProto& a)
{
    return text::elide(valueText(a, 0));
}

struct Producer
{
    int node = -1;
    int slot = 0;
};

class Builder
{
public:
    Builder(models::graph::Graph& graph, const ModelProto& model, ImportBudget& budget, const ImportControl& control)
        : m_graph(graph)
        , m_budget(budget)
        , m_control(control)
        , m_bigEndian(model.has_little_endian() && !model.little_endian())
    {
        for (const PrimitiveProto& p : model.primitives())
            m_primitives.emplace(p.name(), &p);
    }

    /// Reserves a subgraph for each function, so calls can name them before they are read. A name that
    /// repeats keeps its first graph (the exporter never writes two graphs of one name).
    std::vector<int> declareFunctions(const std::string& mainName,
                                      const google::protobuf::RepeatedPtrField<GraphProto>& functions)
    {
        // The top graph can be called too (recursion).
        m_functions.emplace(mainName, 0);
        std::vector<int> out;
        for (const GraphProto& f : functions) {
            const int index = int(m_graph.subgraphs.size());
            if (!m_functions.emplace(f.name(), index).second) {
                ++m_duplicateFunctions;
                out.push_back(-1);
                continue;
            }
            models::graph::Subgraph s;
            s.name = text::printable(f.name());
            m_graph.subgraphs.push_back(std::move(s));
            out.push_back(index);
        }
        return out;
    }

    /// Adds the inputs, parameters, nodes and outputs of `g` to subgraph `subgraph`. False when canceled.
    bool addGraph(const GraphProto& g, int subgraph, const Locations& locations)
    {
        m_prefix = g.name() + ":";
        m_scopePrefix = subgraph == 0 ? std::string() : text::printable(g.name());
        std::unordered_map<std::string, Producer> values;
        std::vector<int> adopted; // weights, inputs and constants: scoped by their first reader

        for (const ValueInfoProto& info : g.input()) {
            models::graph::Node node;
            node.kind = models::graph::NodeKind::Input;
            node.implicit = true;
            node.opType = "Input";
            setNames(node, info.name());
            models::graph::Port out;
            out.name = node.name;
            if (info.tensor_size() > 0)
                out.type = tensorType(info.tensor(0));
            else if (info.has_attr_info())
                out.type = abstractType(info.attr_info());
            node.outputs.push_back(std::move(out));
            const int index = add(std::move(node), subgraph, true);
            values[info.name()] = { index, 0 };
            adopted.push_back(index);
        }
        for (int i = 0; i < g.parameter_size(); ++i) {
            const TensorProto& tensor = g.parameter(i);
            models::graph::Node node;
            node.kind = models::graph::NodeKind::Parameter;
            node.implicit = true;
            node.opType = "Parameter";
            setNames(node, tensor.name());
            models::graph::Port out;
            out.name = node.name;
            out.type = tensorType(tensor);
            node.outputs.push_back(out);
            models::graph::TensorLocation location;
            if (i < int(locations.size()))
                location = locations[std::size_t(i)];
            location.type = out.type;
            if (tensor.has_external_data()) {
                const TensorProto::ExternalDataProto& external = tensor.external_data();
                if (external.offset() < 0 || external.length() < 0 || external.location().empty()) {
                    if (m_badExternalData++ == 0)
                        m_firstBadExternalData = node.name;
                } else {
                    location.file = text::printable(external.location());
                    location.offset = external.offset();
                    location.length = external.length();
                    location.encoding = "raw";
                }
            }
            // raw_data and external data hold the elements in the byte order of the machine that saved the
            // model, compressed when compression_type says so; only plain little-endian elements are "raw".
            if (location.encoding == "raw"
                && (m_bigEndian || tensor.compression_type() != 0 || !holdsPlainElements(location)))
                location.encoding = "bytes";
            if (location.offset < 0 && m_missingData++ == 0)
                m_firstMissingData = node.name;
            if (!tensor.ref_key().empty())
                node.attributes.push_back({ "ref_key", text::printable(tensor.ref_key()) });
            node.data = std::move(location);
            const int index = add(std::move(node), subgraph, true);
            values[tensor.name()] = { index, 0 };
            adopted.push_back(index);
        }

        // Register every output first: a file whose nodes are not topologically sorted still resolves.
        const int first = int(m_graph.nodes.size());
        for (int i = 0; i < g.node_size(); ++i) {
            const NodeProto& n = g.node(i);
            for (int k = 0; k < n.output_size(); ++k)
                values[n.output(k)] = { first + i, k };
        }
        int added = 0;
        for (int i = 0; i < g.node_size() && !m_budget.exceeded(); ++i) {
            if ((i & 1023) == 0 && m_control.canceled())
                return false;
            models::graph::Node node = makeNode(g.node(i), values);
            if (!chargeNode(m_budget, node))
                break;
            node.subgraph = subgraph;
            if (node.kind == models::graph::NodeKind::Constant)
                adopted.push_back(first + i);
            m_graph.nodes.push_back(std::move(node));
            m_graph.subgraphs[std::size_t(subgraph)].nodes.push_back(first + i);
            ++added;
        }
        linkTypes(first, first + added);

        for (const ValueInfoProto& info : g.output()) {
            models::graph::Node node;
            node.kind = models::graph::NodeKind::Output;
            node.implicit = true;
            node.opType = "Output";
            node.name = localName(info.name());
            node.scope = m_scopePrefix;
            node.id = m_ids.take(withPrefix("output:" + node.name));
            models::graph::Port in;
            in.name = node.name;
            if (info.tensor_size() > 0)
                in.type = tensorType(info.tensor(0));
            const auto it = values.find(info.name());
            if (it != values.end()) {
                in.producer = it->second.node;
                in.producerSlot = it->second.slot;
            }
            node.inputs.push_back(std::move(in));
            const int index = add(std::move(node), subgraph, false);
            if (index != kDropped) {
                if (const int producer = m_graph.nodes[std::size_t(index)].inputs[0].producer;
                    producer >= 0 && producer < int(m_graph.nodes.size()))
                    m_graph.nodes[std::size_t(index)].scope = m_graph.nodes[std::size_t(producer)].scope;
                if (m_graph.subgraphs[std::size_t(subgraph)].output < 0)
                    m_graph.subgraphs[std::size_t(subgraph)].output = index;
            }
        }
        adoptScopes(adopted, first, first + added);
        return true;
    }

    int unresolved() const { return m_unresolved; }
    int unknownPrimitives() const { return m_unknownPrimitives; }
    const std::string& firstUnknownPrimitive() const { return m_firstUnknownPrimitive; }
    int badExternalData() const { return m_badExternalData; }
    const std::string& firstBadExternalData() const { return m_firstBadExternalData; }
    int missingData() const { return m_missingData; }
    const std::string& firstMissingData() const { return m_firstMissingData; }
    int duplicateFunctions() const { return m_duplicateFunctions; }

private:
    static constexpr int kDropped = std::numeric_limits<int>::max();

    /// "<graph>:conv1.weight" -> "conv1.weight": the exporter prefixes every name with its graph's.
    std::string localName(const std::string& name) const
    {
        if (name.size() > m_prefix.size() && name.compare(0, m_prefix.size(), m_prefix) == 0)
            return text::printable(std::string_view(name).substr(m_prefix.size()));
        return text::printable(name);
    }

    std::string withPrefix(const std::string& scope) const
    {
        if (m_scopePrefix.empty())
            return scope;
        return scope.empty() ? m_scopePrefix : m_scopePrefix + "/" + scope;
    }

    void setNames(models::graph::Node& node, const std::string& protoName)
    {
        node.name = localName(protoName);
        if (node.name.empty())
            node.name = node.opType;
        node.scope = m_scopePrefix;
        node.id = m_ids.take(m_scopePrefix.empty() ? node.name : m_scopePrefix + "/" + node.name);
    }

    int add(models::graph::Node node, int subgraph, bool parameter)
    {
        // Past the budget a declaration still gets an index (callers register it by name), but the node is
        // not kept: dropDanglingProducers() unlinks what refers to it.
        if (m_budget.exceeded() || !chargeNode(m_budget, node))
            return kDropped;
        node.subgraph = subgraph;
        const int index = int(m_graph.nodes.size());
        m_graph.nodes.push_back(std::move(node));
        models::graph::Subgraph& s = m_graph.subgraphs[std::size_t(subgraph)];
        s.nodes.push_back(index);
        if (parameter)
            s.parameters.push_back(index);
        return index;
    }

    models::graph::Node makeNode(const NodeProto& n, const std::unordered_map<std::string, Producer>& values)
    {
        models::graph::Node node;
        const std::string& opType = n.op_type();
        std::string_view ref;
        if (opType.size() > 5 && opType.compare(0, 5, "REF::") == 0)
            ref = std::string_view(opType).substr(5);
        std::string calledValue; // a call of a value another node made (a closure): "REF::<node>"
        if (opType == "Constant") {
            node.kind = models::graph::NodeKind::Constant;
            node.opType = "Constant";
        } else if (!ref.empty()) {
            const std::string key(ref);
            if (const auto p = m_primitives.find(key); p != m_primitives.end()) {
                const PrimitiveProto& prim = *p->second;
                node.opType = prim.op_type().empty() ? text::printable(key) : text::printable(prim.op_type());
                node.attributes.push_back({ "primitive", text::printable(key) });
                if (!prim.instance_name().empty())
                    node.attributes.push_back({ "instance_name", text::printable(prim.instance_name()) });
                if (prim.prim_type() == 2)
                    node.attributes.push_back({ "prim_type", "PrimitiveFunction" });
                for (const AttributeProto& a : prim.attribute())
                    node.attributes.push_back({ text::printable(a.name()), attributeText(a) });
            } else if (const auto f = m_functions.find(key); f != m_functions.end()) {
                node.kind = models::graph::NodeKind::Call;
                node.callee = f->second;
                node.opType = text::printable(key);
            } else if (text::startsWith(ref, "MetaFuncGraph::") || text::startsWith(ref, "ClassType::")) {
                node.opType = text::printable(ref.substr(ref.find("::") + 2));
            } else if (values.count(key)) {
                node.opType = "Call";
                calledValue = key;
            } else {
                // A primitive the model does not list: its unique name still says the op ("Conv2D:12").
                node.opType = text::printable(ref.substr(0, ref.find(':')));
                if (m_unknownPrimitives++ == 0)
                    m_firstUnknownPrimitive = text::printable(ref);
            }
        } else if (const auto f = m_functions.find(opType); f != m_functions.end()) {
            node.kind = models::graph::NodeKind::Call;
            node.callee = f->second;
            node.opType = text::printable(opType);
        } else {
            node.opType = opType.empty() ? std::string("op") : text::printable(opType);
        }

        const std::string own = localName(n.name());
        if (!n.domain().empty()) {
            auto [scope, last] = text::splitScope(text::printable(n.domain()));
            node.name = last.empty() ? own : last;
            node.scope = withPrefix(scope);
            node.id = m_ids.take(withPrefix(text::printable(n.domain())));
        } else {
            node.name = own.empty() ? node.opType : own;
            node.scope = m_scopePrefix;
            node.id = m_ids.take(withPrefix(node.name));
        }

        models::graph::TensorType outputType;
        for (const AttributeProto& a : n.attribute()) {
            if (a.name() == "shape" && node.kind != models::graph::NodeKind::Constant) {
                outputType = abstractType(a);
                continue;
            }
            node.attributes.push_back({ text::printable(a.name()), attributeText(a) });
            if (node.kind == models::graph::NodeKind::Constant && a.name() == "value") {
                if (a.tensors_size() > 0)
                    outputType = tensorType(a.tensors(0));
                else
                    outputType = abstractType(a);
            }
        }
        for (const AttributeProto& a : n.node_attr())
            node.attributes.push_back({ "node:" + text::printable(a.name()), attributeText(a) });
        for (const AttributeProto& a : n.primal_attr())
            node.attributes.push_back({ "primal:" + text::printable(a.name()), attributeText(a) });
        if (!n.domain().empty() && !own.empty())
            node.attributes.push_back({ "mindir_name", own });

        const auto addInput = [&](const std::string& input) {
            models::graph::Port port;
            port.name = localName(input);
            if (const auto it = values.find(input); it != values.end()) {
                port.producer = it->second.node;
                port.producerSlot = it->second.slot;
            } else if (!input.empty() && !m_functions.count(input)) {
                // An input naming a function (a Partial, a Switch branch) is a reference, not a value.
                ++m_unresolved;
            }
            node.inputs.push_back(std::move(port));
        };
        if (!calledValue.empty())
            addInput(calledValue);
        for (const std::string& input : n.input())
            addInput(input);
        for (const std::string& output : n.output()) {
            models::graph::Port port;
            port.name = localName(output);
            port.type = outputType;
            node.outputs.push_back(std::move(port));
        }
        if (node.outputs.empty()) {
            models::graph::Port port;
            port.type = outputType;
            node.outputs.push_back(std::move(port));
        }
        return node;
    }

    /// Inputs take the type of the output they read, and monad arguments (UMonad/IOMonad, which order side
    /// effects) are control edges.
    void linkTypes(int begin, int end)
    {
        for (int i = begin; i < end; ++i) {
            for (models::graph::Port& port : m_graph.nodes[std::size_t(i)].inputs) {
                if (port.producer < 0 || port.producer >= int(m_graph.nodes.size()))
                    continue;
                const models::graph::Node& producer = m_graph.nodes[std::size_t(port.producer)];
                if (port.producerSlot >= 0 && port.producerSlot < int(producer.outputs.size()))
                    port.type = producer.outputs[std::size_t(port.producerSlot)].type;
                const std::string& dtype = port.type.dtype;
                port.control = dtype == "UMonad" || dtype == "IOMonad";
            }
        }
    }

    /// Weights, inputs and constants have no scope of their own: each joins the scope of the first node
    /// that reads it, so conv1's weight folds into conv1's group.
    void adoptScopes(const std::vector<int>& adopted, int begin, int end)
    {
        std::unordered_set<int> wanted;
        for (const int index : adopted) {
            if (index != kDropped)
                wanted.insert(index);
        }
        for (int i = begin; i < end && !wanted.empty(); ++i) {
            const models::graph::Node& reader = m_graph.nodes[std::size_t(i)];
            for (const models::graph::Port& port : reader.inputs) {
                const auto it = wanted.find(port.producer);
                if (it == wanted.end())
                    continue;
                models::graph::Node& node = m_graph.nodes[std::size_t(port.producer)];
                node.scope = reader.scope;
                wanted.erase(it);
            }
        }
    }

    models::graph::Graph& m_graph;
    ImportBudget& m_budget;
    const ImportControl& m_control;
    UniqueIds m_ids;
    std::unordered_map<std::string, const PrimitiveProto*> m_primitives;
    std::unordered_map<std::string, int> m_functions; ///< graph name -> subgraph
    std::string m_prefix;
    std::string m_scopePrefix;
    int m_unresolved = 0;
    int m_unknownPrimitives = 0;
    std::string m_firstUnknownPrimitive;
    int m_badExternalData = 0;
    bool m_bigEndian = false;
    std::string m_firstBadExternalData;
    int m_missingData = 0;
    std::string m_firstMissingData;
    int m_duplicateFunctions = 0;
};

} // namespace

std::string mindirDataTypeName(int type)
{
    static const char* const kNames[]
        = { "",          "float32",    "uint8",    "int8",    "uint16",  "int16",  "int32",
            "int64",     "string",     "bool",     "float16", "float64", "uint32", "uint64",
            "complex64", "complex128", "bfloat16", "float64", "qint4x2" };
    if (type > 0 && type < int(std::size(kNames)))
        return kNames[type];
    return "type" + std::to_string(type);
}

GraphResult MindIrGraphReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    if (bytes.empty()) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The file is empty.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    if (bytes.size() > std::size_t(std::numeric_limits<int>::max())) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("The model is larger than 2 GB, the limit of a protobuf "
                                                       "message; MindSpore saves such models with their weights "
                                                       "apart (`_graph.mindir` and `_variables`).")));
        return publishGraph(nullptr, diagnostics, true);
    }
    google::protobuf::ArenaOptions arenaOptions;
    arenaOptions.max_block_size = std::size_t(1) << 20;
    auto arena = std::make_unique<google::protobuf::Arena>(arenaOptions);
    ParsedModel parsed;
    parsed.model = google::protobuf::Arena::CreateMessage<ModelProto>(arena.get());
    const ModelProto& model = *parsed.model;
    const std::size_t stop = parseModel(bytes, parsed);
    int nodes = model.graph().node_size();
    for (const GraphProto& f : model.functions())
        nodes += f.node_size();
    if (stop < bytes.size()) {
        const bool anything = nodes > 0;
        diagnostics.append(graphDiagnostic(
            anything ? models::Severity::Warning : models::Severity::Error, path,
            anything ? GraphTr::tr("The model is damaged or cut off after byte %1; the %2 nodes before it were read.")
                           .arg(stop)
                           .arg(nodes)
                     : GraphTr::tr("Not a readable MindIR model: the protobuf data is damaged or of another kind."),
            qint64(stop)));
        if (!anything)
            return publishGraph(nullptr, diagnostics, true);
    }
    if (!model.has_graph()) {
        diagnostics.append(
            graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The MindIR model holds no graph.")));
        return publishGraph(nullptr, diagnostics, true);
    }

    auto graph = std::make_unique<models::graph::Graph>();
    graph->path = path;
    graph->format = models::graph::GraphFormat::MindIr;
    graph->name = text::printable(model.graph().name());
    if (graph->name.empty())
        graph->name = QFileInfo(path).completeBaseName().toStdString();
    if (model.has_ir_version())
        graph->metadata.push_back({ "ir_version", text::elide(text::printable(model.ir_version())) });
    if (model.has_producer_name() || model.has_producer_version())
        graph->metadata.push_back(
            { "producer",
              text::elide(text::printable(model.producer_name()) + " " + text::printable(model.producer_version())) });
    if (model.has_model_version())
        graph->metadata.push_back({ "model_version", text::elide(text::printable(model.model_version())) });
    if (model.has_mind_ir_version())
        graph->metadata.push_back({ "mind_ir_version", std::to_string(model.mind_ir_version()) });
    if (model.has_little_endian())
        graph->metadata.push_back({ "little_endian", model.little_endian() ? "true" : "false" });
    graph->metadata.push_back({ "functions", std::to_string(model.functions_size()) });
    graph->metadata.push_back({ "primitives", std::to_string(model.primitives_size()) });

    models::graph::Subgraph main;
    main.name = graph->name;
    graph->subgraphs.push_back(std::move(main));
    ImportBudget budget { std::int64_t(bytes.size()) };
    Builder builder(*graph, model, budget, control);
    const std::vector<int> functions = builder.declareFunctions(model.graph().name(), model.functions());
    bool complete = builder.addGraph(model.graph(), 0, parsed.mainLocations);
    for (int i = 0; i < model.functions_size() && complete && !budget.exceeded(); ++i) {
        if (functions[std::size_t(i)] < 0)
            continue;
        complete
            = builder.addGraph(model.functions(i), functions[std::size_t(i)], parsed.functionLocations[std::size_t(i)]);
    }
    // The model's messages live in the arena: what is needed of them below is read before it goes.
    const bool bigEndian = model.has_little_endian() && !model.little_endian();
    arena.reset();
    if (!complete) {
        GraphResult result = publishGraph(std::move(graph), diagnostics, true);
        result.canceled = true;
        return result;
    }
    if (budget.exceeded()) {
        dropDanglingProducers(*graph);
        diagnostics.append(budget.diagnostic(path, -1));
    }
    if (bigEndian)
        diagnostics.append(graphDiagnostic(models::Severity::Info, path,
                                           GraphTr::tr("The model was saved on a big-endian machine: its weights "
                                                       "are stored in that byte order.")));
    if (builder.missingData() > 0)
        diagnostics.append(
            graphDiagnostic(models::Severity::Info, path,
                            GraphTr::tr("%n parameter(s) carry shape and type only, no values (the first is \"%1\").",
                                        nullptr, builder.missingData())
                                .arg(QString::fromStdString(text::elide(builder.firstMissingData(), 200)))));
    if (builder.badExternalData() > 0)
        diagnostics.append(
            graphDiagnostic(models::Severity::Warning, path,
                            GraphTr::tr("%n parameter(s) give an external data file, offset or "
                                        "length that cannot be used; their values cannot be shown "
                                        "(the first is \"%1\").",
                                        nullptr, builder.badExternalData())
                                .arg(QString::fromStdString(text::elide(builder.firstBadExternalData(), 200)))));
    if (builder.unknownPrimitives() > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Warning, path,
            GraphTr::tr("%n node(s) refer to primitives the model does not list; their attributes are not known "
                        "(the first is \"%1\").",
                        nullptr, builder.unknownPrimitives())
                .arg(QString::fromStdString(text::elide(builder.firstUnknownPrimitive(), 200)))));
    if (builder.duplicateFunctions() > 0)
        diagnostics.append(
            graphDiagnostic(models::Severity::Warning, path,
                            GraphTr::tr("%n function graph(s) repeat the name of another one and are left out.",
                                        nullptr, builder.duplicateFunctions())));
    if (builder.unresolved() > 0)
        diagnostics.append(graphDiagnostic(models::Severity::Warning, path,
                                           GraphTr::tr("%n node input(s) name values no node, parameter or graph "
                                                       "input of their graph produces.",
                                                       nullptr, builder.unresolved())));
    return publishGraph(std::move(graph), diagnostics);
}

} // namespace runlens::importers::graph
