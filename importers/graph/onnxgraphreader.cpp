#include "importers/graph/onnxgraphreader.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/graphweights.h"
#include "importers/graph/proto/onnx.pb.h"
#include "importers/graph/protowire.h"
#include "importers/graph/uniqueids.h"

#include <google/protobuf/arena.h>

#include <algorithm>
#include <memory>

#include <unordered_map>
#include <unordered_set>

namespace runlens::importers::graph {

namespace {

constexpr std::uint32_t kModelGraph = 7;
constexpr std::uint32_t kGraphInitializer = 5;

/// Where one value (tensor name) comes from.
struct Producer
{
    int node = -1;
    int slot = 0;
};

/// Name -> producer maps of the enclosing graphs: a body sees the values of its parents.
struct ValueScope
{
    const ValueScope* parent = nullptr;
    std::unordered_map<std::string, Producer> producers;
    std::unordered_map<std::string, models::graph::TensorType> types;

    const Producer* findProducer(const std::string& name) const
    {
        for (const ValueScope* s = this; s; s = s->parent) {
            const auto it = s->producers.find(name);
            if (it != s->producers.end())
                return &it->second;
        }
        return nullptr;
    }
    const models::graph::TensorType* findType(const std::string& name) const
    {
        for (const ValueScope* s = this; s; s = s->parent) {
            const auto it = s->types.find(name);
            if (it != s->types.end())
                return &it->second;
        }
        return nullptr;
    }
};

models::graph::TensorType tensorType(const onnx::TypeProto& type)
{
    models::graph::TensorType out;
    const onnx::TypeProto::Tensor* tensor = nullptr;
    if (type.has_tensor_type())
        tensor = &type.tensor_type();
    else if (type.has_sparse_tensor_type())
        tensor = &type.sparse_tensor_type();
    else if (type.has_optional_type() && type.optional_type().elem_type().has_tensor_type())
        tensor = &type.optional_type().elem_type().tensor_type();
    else if (type.has_sequence_type()) {
        out = tensorType(type.sequence_type().elem_type());
        out.dtype = "seq(" + out.dtype + ")";
        return out;
    }
    if (!tensor)
        return out;
    out.dtype = onnxDataTypeName(tensor->elem_type());
    if (tensor->has_shape()) {
        out.rankKnown = true;
        bool symbolic = false;
        for (const auto& dim : tensor->shape().dim()) {
            if (!dim.dim_param().empty()) {
                out.dims.push_back(-1);
                symbolic = true;
            } else {
                out.dims.push_back(dim.dim_value() > 0 || dim.dim_param().empty() ? dim.dim_value() : -1);
            }
        }
        if (symbolic) {
            for (const auto& dim : tensor->shape().dim())
                out.symbols.push_back(text::printable(dim.dim_param()));
        }
    }
    return out;
}

models::graph::TensorType tensorType(const onnx::TensorProto& tensor)
{
    models::graph::TensorType out;
    out.dtype = onnxDataTypeName(tensor.data_type());
    out.rankKnown = true;
    out.dims.assign(tensor.dims().begin(), tensor.dims().end());
    return out;
}

std::string attributeText(const onnx::AttributeProto& a)
{
    // AttributeProto.type: 1 FLOAT, 2 INT, 3 STRING, 4 TENSOR, 5 GRAPH, 6 FLOATS, 7 INTS, 8 STRINGS,
    // 9 TENSORS, 10 GRAPHS. Old files leave `type` unset: then the filled field decides.
    std::string out;
    const int type = a.type();
    if (type == 2 || (type == 0 && a.i() != 0))
        return std::to_string(a.i());
    if (type == 1 || (type == 0 && a.f() != 0.0f)) {
        out = std::to_string(a.f());
        return out;
    }
    if (type == 3 || (type == 0 && !a.s().empty()))
        return text::elide(text::printable(a.s()));
    if (type == 4 || (type == 0 && a.has_t()))
        return "tensor " + tensorType(a.t()).text();
    if (type == 5 || (type == 0 && a.has_g()))
        return "graph " + text::printable(a.g().name()) + " (" + std::to_string(a.g().node_size()) + " nodes)";
    if (type == 7 || (type == 0 && a.ints_size() > 0)) {
        std::vector<std::int64_t> values(a.ints().begin(), a.ints().end());
        return "[" + text::elide(text::joinInts(values, ", ")) + "]";
    }
    if (type == 6 || (type == 0 && a.floats_size() > 0)) {
        out = "[";
        for (int i = 0; i < a.floats_size(); ++i)
            out += (i ? ", " : "") + std::to_string(a.floats(i));
        return text::elide(out) + "]";
    }
    if (type == 8 || (type == 0 && a.strings_size() > 0)) {
        out = "[";
        for (int i = 0; i < a.strings_size(); ++i)
            out += (i ? ", " : "") + text::printable(a.strings(i));
        return text::elide(out) + "]";
    }
    if (type == 9 || (type == 0 && a.tensors_size() > 0))
        return std::to_string(a.tensors_size()) + " tensors";
    if (type == 10 || (type == 0 && a.graphs_size() > 0))
        return std::to_string(a.graphs_size()) + " graphs";
    if (!a.ref_attr_name().empty())
        return "@" + text::printable(a.ref_attr_name());
    return out;
}

/// Byte ranges of the top-level initializers' values, in file order.
std::vector<models::graph::TensorLocation> initializerLocations(std::string_view bytes)
{
    std::vector<models::graph::TensorLocation> out;
    std::size_t pos = 0;
    wire::Field field;
    while (wire::next(bytes, pos, field)) {
        if (field.number != kModelGraph || field.wireType != 2)
            continue;
        const std::string_view graph = wire::payload(bytes, field);
        std::size_t gpos = 0;
        wire::Field g;
        while (wire::next(graph, gpos, g)) {
            if (g.number != kGraphInitializer || g.wireType != 2)
                continue;
            models::graph::TensorLocation location;
            const std::string_view tensor = wire::payload(graph, g);
            std::size_t tpos = 0;
            wire::Field t;
            while (wire::next(tensor, tpos, t)) {
                const char* encoding = nullptr;
                switch (t.number) {
                case 9:
                    encoding = "raw";
                    break;
                case 4:
                    encoding = "float_data";
                    break;
                case 5:
                    encoding = "int32_data";
                    break;
                case 7:
                    encoding = "int64_data";
                    break;
                case 10:
                    encoding = "double_data";
                    break;
                case 11:
                    encoding = "uint64_data";
                    break;
                default:
                    break;
                }
                if (encoding && t.wireType == 2) {
                    location.encoding = encoding;
                    location.offset = std::int64_t(field.dataBegin + g.dataBegin + t.dataBegin);
                    location.length = std::int64_t(t.dataSize);
                }
            }
            out.push_back(std::move(location));
        }
    }
    return out;
}

/// TensorProto fields that hold values (float_data, int32_data, string_data, int64_data, raw_data,
/// double_data, uint64_data): never copied, the importer records where they are instead.
bool isTensorValueField(std::uint32_t number)
{
    return (number >= 4 && number <= 7) || (number >= 9 && number <= 11);
}

/// Merges a GraphProto field by field, keeping only the description of each initializer. Returns the
/// offset where reading stopped (bytes.size() when everything was read).
std::size_t parseGraph(std::string_view bytes, onnx::GraphProto& graph)
{
    std::size_t pos = 0;
    wire::Field field;
    while (wire::next(bytes, pos, field)) {
        if (field.number == kGraphInitializer && field.wireType == 2) {
            const std::string_view tensorBytes = wire::payload(bytes, field);
            onnx::TensorProto* tensor = graph.add_initializer();
            std::size_t tpos = 0;
            wire::Field t;
            while (wire::next(tensorBytes, tpos, t)) {
                if (!isTensorValueField(t.number) && !wire::mergeField(*tensor, tensorBytes, t))
                    return field.begin;
            }
            if (tpos < tensorBytes.size())
                return field.begin;
        } else if (!wire::mergeField(graph, bytes, field)) {
            return field.begin;
        }
    }
    return pos;
}

/// Parses a ModelProto without copying weight values (a model of several GB costs its file size, not
/// twice that). A damaged or cut-off model keeps every complete field before the damage, including the
/// complete nodes of a cut-off graph. Returns the offset where reading stopped.
std::size_t parseModel(std::string_view bytes, onnx::ModelProto& model)
{
    std::size_t pos = 0;
    wire::Field field;
    while (wire::next(bytes, pos, field)) {
        if (field.number == kModelGraph && field.wireType == 2) {
            const std::size_t stop = parseGraph(wire::payload(bytes, field), *model.mutable_graph());
            if (stop < field.dataSize)
                return field.dataBegin + stop;
        } else if (!wire::mergeField(model, bytes, field)) {
            return field.begin;
        }
    }
    wire::Field cut;
    if (pos < bytes.size() && wire::cutField(bytes, pos, cut) && cut.number == kModelGraph && cut.wireType == 2)
        return cut.dataBegin + parseGraph(wire::payload(bytes, cut), *model.mutable_graph());
    return pos;
}

/// How many graph nodes reading `g` makes at most: its initializers, inputs, nodes and outputs, and those of
/// every body its nodes own. Bounded by the messages already parsed, so sizing the node list and the id set
/// from it up front saves regrowing both (a model of 100,000 Loops makes over a million nodes).
std::size_t nodeEstimate(const onnx::GraphProto& g)
{
    std::size_t count = std::size_t(g.initializer_size()) + std::size_t(g.input_size()) + std::size_t(g.node_size())
        + std::size_t(g.output_size());
    for (const onnx::NodeProto& n : g.node()) {
        for (const onnx::AttributeProto& a : n.attribute()) {
            if (a.has_g())
                count += nodeEstimate(a.g());
            for (const onnx::GraphProto& body : a.graphs())
                count += nodeEstimate(body);
        }
    }
    return count;
}

class Builder
{
public:
    Builder(models::graph::Graph& graph, const QString& path, models::Diagnostics& diagnostics, ImportBudget& budget,
            const ImportControl& control)
        : m_graph(graph)
        , m_path(path)
        , m_diagnostics(diagnostics)
        , m_budget(budget)
        , m_control(control)
    { }

    /// Adds the nodes of `g` to subgraph `subgraph`; `scope` prefixes the scopes of body nodes.
    bool addGraph(const onnx::GraphProto& g, int subgraph, const std::string& scope, const ValueScope* parent,
                  const std::vector<models::graph::TensorLocation>* locations)
    {
        ValueScope values;
        values.parent = parent;
        for (const auto* list : { &g.input(), &g.output(), &g.value_info() }) {
            for (const onnx::ValueInfoProto& info : *list)
                values.types[info.name()] = tensorType(info.type());
        }
        std::unordered_set<std::string> initialized;
        for (int i = 0; i < g.initializer_size(); ++i) {
            const onnx::TensorProto& tensor = g.initializer(i);
            initialized.insert(tensor.name());
            models::graph::Node node;
            node.kind = models::graph::NodeKind::Parameter;
            node.implicit = true;
            node.opType = "Initializer";
            setNames(node, text::printable(tensor.name()), scope);
            node.subgraph = subgraph;
            models::graph::Port out;
            out.name = text::printable(tensor.name());
            out.type = tensorType(tensor);
            node.outputs.push_back(out);
            models::graph::TensorLocation location;
            if (locations && i < int(locations->size()))
                location = (*locations)[i];
            location.type = out.type;
            bool badExternal = false;
            for (const auto& entry : tensor.external_data()) {
                std::int64_t number = 0;
                if (entry.key() == "location") {
                    location.file = entry.value();
                } else if (entry.key() == "offset" || entry.key() == "length") {
                    if (!text::toInt64(entry.value(), number) || number < 0) {
                        // Unreadable rather than a wrapped or negative byte range.
                        if (m_badExternalData++ == 0)
                            m_firstBadExternalData = text::elide(text::printable(tensor.name()), 200);
                        location.offset = -1;
                        location.length = 0;
                        badExternal = true;
                        break;
                    }
                    (entry.key() == "offset" ? location.offset : location.length) = number;
                }
            }
            if (tensor.data_location() == 1 && !badExternal) {
                location.encoding = "raw";
                if (location.offset < 0)
                    location.offset = 0;
            }
            // Raw bytes that are not the elements of the tensor's type and shape (a length that does not match)
            // are located but not offered as values. External data without a length runs to the end of its file
            // and keeps its encoding.
            const bool lengthKnown = tensor.data_location() != 1 || location.length > 0;
            if (location.encoding == "raw" && lengthKnown && !holdsPlainElements(location))
                location.encoding = "bytes";
            node.data = std::move(location);
            values.producers[tensor.name()] = { add(std::move(node), subgraph, true), 0 };
        }
        for (const onnx::ValueInfoProto& info : g.input()) {
            if (initialized.count(info.name()))
                continue;
            models::graph::Node node;
            node.kind = models::graph::NodeKind::Input;
            node.implicit = true;
            node.opType = "Input";
            setNames(node, text::printable(info.name()), scope);
            models::graph::Port out;
            out.name = text::printable(info.name());
            out.type = values.types[info.name()];
            node.outputs.push_back(out);
            values.producers[info.name()] = { add(std::move(node), subgraph, true), 0 };
        }

        // Register every output first: a file that is not topologically sorted still resolves.
        const int first = int(m_graph.nodes.size());
        for (int i = 0; i < g.node_size(); ++i) {
            const onnx::NodeProto& n = g.node(i);
            const int index = first + i;
            for (int k = 0; k < n.output_size(); ++k) {
                if (!n.output(k).empty())
                    values.producers[n.output(k)] = { index, k };
            }
        }
        int added = 0;
        for (int i = 0; i < g.node_size() && !m_budget.exceeded(); ++i) {
            if ((i & 1023) == 0 && m_control.canceled())
                return false;
            models::graph::Node node = makeNode(g.node(i), subgraph, scope, values);
            if (!chargeNode(m_budget, node))
                break;
            m_graph.nodes.push_back(std::move(node));
            m_graph.subgraphs[std::size_t(subgraph)].nodes.push_back(first + i);
            ++added;
        }
        // Bodies after the level's nodes, so the level's node indices stay contiguous.
        for (int i = 0; i < added && !m_budget.exceeded(); ++i) {
            const onnx::NodeProto& n = g.node(i);
            for (const onnx::AttributeProto& a : n.attribute()) {
                if (a.has_g())
                    addBody(first + i, text::printable(a.name()), a.g(), values);
                for (int k = 0; k < a.graphs_size(); ++k)
                    addBody(first + i, text::printable(a.name()) + "_" + std::to_string(k), a.graphs(k), values);
            }
        }
        for (const onnx::ValueInfoProto& info : g.output()) {
            models::graph::Node node;
            node.kind = models::graph::NodeKind::Output;
            node.implicit = true;
            node.opType = "Output";
            setNames(node, text::printable(info.name()), scope);
            node.id = "output:" + node.id;
            models::graph::Port in;
            in.name = text::printable(info.name());
            in.type = values.types[info.name()];
            if (const Producer* p = values.findProducer(info.name())) {
                in.producer = p->node;
                in.producerSlot = p->slot;
            }
            node.inputs.push_back(in);
            const int index = add(std::move(node), subgraph, false);
            if (m_graph.subgraphs[std::size_t(subgraph)].output < 0)
                m_graph.subgraphs[std::size_t(subgraph)].output = index;
        }
        return true;
    }

    /// Sizes the node list and the id set for about `count` nodes, within what the budget would let through.
    void reserve(std::size_t count)
    {
        count = std::min(count, std::size_t(m_budget.limits().maxBytes / std::int64_t(sizeof(models::graph::Node))));
        m_graph.nodes.reserve(count);
        m_ids.reserve(count);
    }

    /// Frees the id set once every node is made; the graph indexes the ids itself when it is finalized.
    void releaseIds() { m_ids = UniqueIds(); }

    int unresolved() const { return m_unresolved; }
    int badExternalData() const { return m_badExternalData; }
    /// Control-flow bodies (Loop, If, Scan) make their nodes once per owner. The bytes of a body are in the
    /// file once per owner as well, but a file of nothing else (100,000 Loops) still makes millions of nodes,
    /// more than any view can show: the bodies together may make at most one node per kBodyNodeBytes bytes
    /// of the file (and at least kMinBodyNodes). A body past that is left out whole and reported.
    static constexpr std::size_t kBodyNodeBytes = 256;
    static constexpr std::size_t kMinBodyNodes = std::size_t(1) << 17;
    void limitBodyNodes(std::size_t fileBytes)
    {
        m_bodyNodeLimit = std::max(kMinBodyNodes, fileBytes / kBodyNodeBytes);
    }
    std::size_t bodyNodeLimit() const { return m_bodyNodeLimit; }
    int skippedBodies() const { return m_skippedBodies; }
    const std::string& firstSkippedBody() const { return m_firstSkippedBody; }

    int cutTraces() const { return m_cutTraces; }
    const std::string& firstCutTrace() const { return m_firstCutTrace; }
    const std::string& firstBadExternalData() const { return m_firstBadExternalData; }

    /// Reserves a subgraph for each model-local function, so calls can name them before they are read.
    void declareFunctions(const google::protobuf::RepeatedPtrField<onnx::FunctionProto>& functions)
    {
        for (const onnx::FunctionProto& f : functions) {
            models::graph::Subgraph s;
            s.name = functionName(f.domain(), f.name());
            m_functions.emplace(f.domain() + "::" + f.name() + "::" + f.overload(), int(m_graph.subgraphs.size()));
            m_graph.subgraphs.push_back(std::move(s));
        }
    }

    /// Reads a function's body into the subgraph declareFunctions() reserved for it.
    bool addFunction(const onnx::FunctionProto& f)
    {
        const auto it = m_functions.find(f.domain() + "::" + f.name() + "::" + f.overload());
        if (it == m_functions.end())
            return true;
        onnx::GraphProto body;
        body.set_name(f.name());
        *body.mutable_node() = f.node();
        *body.mutable_value_info() = f.value_info();
        for (const std::string& name : f.input())
            body.add_input()->set_name(name);
        for (const std::string& name : f.output())
            body.add_output()->set_name(name);
        return addGraph(body, it->second, m_graph.subgraphs[std::size_t(it->second)].name, nullptr, nullptr);
    }

private:
    static std::string functionName(const std::string& domain, const std::string& name)
    {
        return domain.empty() ? text::printable(name) : text::printable(domain) + "." + text::printable(name);
    }

    void setNames(models::graph::Node& node, const std::string& fullName, const std::string& scope)
    {
        auto [own, name] = text::splitScope(fullName);
        node.name = name.empty() ? fullName : name;
        node.scope = scope.empty() ? own : own.empty() ? scope : scope + "/" + own;
        node.id = uniqueId(fullName.empty() ? node.opType : fullName);
    }

    std::string uniqueId(const std::string& wanted) { return m_ids.take(wanted); }

    int add(models::graph::Node node, int subgraph, bool parameter)
    {
        // Past the budget a declaration still gets its index (callers register it by name), but further
        // nodes are not kept: dropDanglingProducers() unlinks what refers to them.
        if (m_budget.exceeded() || !chargeNode(m_budget, node))
            return std::numeric_limits<int>::max();
        node.subgraph = subgraph;
        const int index = int(m_graph.nodes.size());
        m_graph.nodes.push_back(std::move(node));
        models::graph::Subgraph& s = m_graph.subgraphs[std::size_t(subgraph)];
        s.nodes.push_back(index);
        if (parameter)
            s.parameters.push_back(index);
        return index;
    }

    models::graph::Node makeNode(const onnx::NodeProto& n, int subgraph, const std::string& scope,
                                 const ValueScope& values)
    {
        models::graph::Node node;
        // Constant ops are listed nodes (and counted) but hold a literal, so they fold like weights.
        node.kind = n.op_type() == "Constant" && n.domain().empty() ? models::graph::NodeKind::Constant
                                                                    : models::graph::NodeKind::Op;
        node.subgraph = subgraph;
        node.opType = text::printable(n.op_type());
        if (!n.domain().empty() && n.domain() != "ai.onnx")
            node.opType = text::printable(n.domain()) + "." + node.opType;
        const std::string name = text::printable(n.name());
        std::string metadataScope;
        for (const auto& entry : n.metadata_props()) {
            if (entry.key() == "namespace") {
                metadataScope = text::printable(entry.value());
            } else if (entry.key() == "pkg.torch.onnx.stack_trace") {
                bool cut = false;
                node.sources = stackTraceSources(entry.value(), cut);
                if (cut && m_cutTraces++ == 0)
                    m_firstCutTrace = name;
            }
            node.attributes.push_back(
                { "metadata:" + text::printable(entry.key()), text::elide(text::printable(entry.value())) });
        }
        if (name.empty()) {
            // Unnamed nodes (common in converted models) are known by their first output.
            node.name = node.opType;
            node.scope = scope;
            node.id
                = uniqueId(n.output_size() > 0 && !n.output(0).empty() ? text::printable(n.output(0)) : node.opType);
        } else {
            auto [own, last] = text::splitScope(name);
            if (own.empty() && !metadataScope.empty())
                own = text::splitScope(metadataScope + "/x").first;
            node.name = last.empty() ? name : last;
            node.scope = scope.empty() ? own : own.empty() ? scope : scope + "/" + own;
            node.id = uniqueId(name);
        }
        for (const onnx::AttributeProto& a : n.attribute())
            node.attributes.push_back({ text::printable(a.name()), attributeText(a) });
        const auto function = m_functions.find(n.domain() + "::" + n.op_type() + "::" + n.overload());
        if (function != m_functions.end()) {
            node.kind = models::graph::NodeKind::Call;
            node.callee = function->second;
        }
        for (const std::string& input : n.input()) {
            models::graph::Port port;
            port.name = text::printable(input);
            if (!input.empty()) {
                if (const Producer* p = values.findProducer(input)) {
                    port.producer = p->node;
                    port.producerSlot = p->slot;
                } else {
                    ++m_unresolved;
                }
                if (const models::graph::TensorType* t = values.findType(input))
                    port.type = *t;
            }
            node.inputs.push_back(std::move(port));
        }
        for (const std::string& output : n.output()) {
            models::graph::Port port;
            port.name = text::printable(output);
            if (const models::graph::TensorType* t = values.findType(output))
                port.type = *t;
            node.outputs.push_back(std::move(port));
        }
        return node;
    }

    void addBody(int owner, const std::string& attribute, const onnx::GraphProto& body, const ValueScope& values)
    {
        // A body is read whole or not at all; nested bodies were counted with the outermost one.
        if (m_bodyDepth == 0) {
            const std::size_t estimate = nodeEstimate(body);
            if (estimate > m_bodyNodeLimit - std::min(m_bodyNodes, m_bodyNodeLimit)) {
                if (m_skippedBodies++ == 0)
                    m_firstSkippedBody = text::elide(m_graph.nodes[std::size_t(owner)].id, 200);
                return;
            }
            m_bodyNodes += estimate;
        }
        ++m_bodyDepth;
        addBodyGraph(owner, attribute, body, values);
        --m_bodyDepth;
    }

    void addBodyGraph(int owner, const std::string& attribute, const onnx::GraphProto& body, const ValueScope& values)
    {
        const int index = int(m_graph.subgraphs.size());
        models::graph::Subgraph s;
        s.name = m_graph.nodes[std::size_t(owner)].id + "/" + attribute;
        s.owner = owner;
        m_graph.subgraphs.push_back(std::move(s));
        m_graph.nodes[std::size_t(owner)].bodies.push_back(index);
        const std::string scope = m_graph.nodes[std::size_t(owner)].fullName() + "/" + attribute;
        addGraph(body, index, scope, &values, nullptr);
    }

    models::graph::Graph& m_graph;
    const QString& m_path;
    models::Diagnostics& m_diagnostics;
    ImportBudget& m_budget;
    const ImportControl& m_control;
    UniqueIds m_ids;
    std::unordered_map<std::string, int> m_functions; ///< "domain::name::overload" -> subgraph
    int m_unresolved = 0;
    int m_badExternalData = 0;
    std::string m_firstBadExternalData;
    int m_cutTraces = 0;
    std::string m_firstCutTrace;
    std::size_t m_bodyNodeLimit = 0;
    std::size_t m_bodyNodes = 0;
    int m_bodyDepth = 0;
    int m_skippedBodies = 0;
    std::string m_firstSkippedBody;
};

} // namespace

std::string onnxDataTypeName(int type)
{
    static const char* const kNames[]
        = { "",          "float32",    "uint8",     "int8",         "uint16",         "int16",      "int32",
            "int64",     "string",     "bool",      "float16",      "float64",        "uint32",     "uint64",
            "complex64", "complex128", "bfloat16",  "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz",
            "uint4",     "int4",       "float4e2m1" };
    if (type >= 0 && type < int(std::size(kNames)))
        return kNames[type];
    return "type" + std::to_string(type);
}

GraphResult OnnxGraphReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    if (bytes.empty()) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The file is empty.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    if (bytes.size() > std::size_t(std::numeric_limits<int>::max())) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("The model is larger than 2 GB, the limit of an ONNX "
                                                       "file; store its weights as external data.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    // The parsed messages live in an arena: a model of a million nodes is then freed as a few large blocks
    // instead of a million small ones, and parsing allocates less.
    google::protobuf::ArenaOptions arenaOptions;
    arenaOptions.max_block_size = std::size_t(1) << 20;
    auto arena = std::make_unique<google::protobuf::Arena>(arenaOptions);
    onnx::ModelProto& model = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(arena.get());
    const std::size_t stop = parseModel(bytes, model);
    if (stop < bytes.size()) {
        // Keep what the complete fields hold: a model cut off while being written still shows its nodes.
        const bool anything = model.has_graph() && model.graph().node_size() > 0;
        diagnostics.append(graphDiagnostic(
            anything ? models::Severity::Warning : models::Severity::Error, path,
            anything ? GraphTr::tr("The model is damaged or cut off after byte %1; the %2 nodes before it were read.")
                           .arg(stop)
                           .arg(model.graph().node_size())
                     : GraphTr::tr("Not a readable ONNX model: the protobuf data is damaged or of another kind."),
            qint64(stop)));
        if (!anything)
            return publishGraph(nullptr, diagnostics, true);
    }
    if (!model.has_graph()) {
        diagnostics.append(
            graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The ONNX model holds no graph.")));
        return publishGraph(nullptr, diagnostics, true);
    }

    auto graph = std::make_unique<models::graph::Graph>();
    graph->path = path;
    graph->format = models::graph::GraphFormat::Onnx;
    graph->name = text::printable(model.graph().name());
    graph->metadata.push_back({ "ir_version", std::to_string(model.ir_version()) });
    if (!model.producer_name().empty())
        graph->metadata.push_back(
            { "producer", text::printable(model.producer_name()) + " " + text::printable(model.producer_version()) });
    for (const auto& opset : model.opset_import())
        graph->metadata.push_back(
            { "opset " + (opset.domain().empty() ? std::string("ai.onnx") : text::printable(opset.domain())),
              std::to_string(opset.version()) });
    for (const auto& entry : model.metadata_props())
        graph->metadata.push_back({ text::printable(entry.key()), text::elide(text::printable(entry.value())) });

    models::graph::Subgraph main;
    main.name = graph->name;
    graph->subgraphs.push_back(std::move(main));
    const std::vector<models::graph::TensorLocation> locations = initializerLocations(bytes);
    ImportBudget budget { std::int64_t(bytes.size()) };
    Builder builder(*graph, path, diagnostics, budget, control);
    builder.declareFunctions(model.functions());
    std::size_t estimate = nodeEstimate(model.graph());
    for (const onnx::FunctionProto& f : model.functions())
        estimate += std::size_t(f.node_size() + f.input_size() + f.output_size());
    builder.limitBodyNodes(bytes.size());
    const onnx::GraphProto& top = model.graph();
    const std::size_t topNodes = std::size_t(top.initializer_size()) + std::size_t(top.input_size())
        + std::size_t(top.node_size()) + std::size_t(top.output_size());
    builder.reserve(std::min(estimate, topNodes + builder.bodyNodeLimit()));
    bool complete = builder.addGraph(model.graph(), 0, std::string(), nullptr, &locations);
    for (const onnx::FunctionProto& f : model.functions())
        complete = complete && (budget.exceeded() || builder.addFunction(f));
    // The parsed messages and the id set are as large as the graph itself: free them before the graph is
    // finalized, so the peak holds one copy of the model rather than three. `model` is not used after this.
    arena.reset();
    builder.releaseIds();
    if (!complete) {
        GraphResult result = publishGraph(std::move(graph), diagnostics, true);
        result.canceled = true;
        return result;
    }
    if (budget.exceeded()) {
        dropDanglingProducers(*graph);
        diagnostics.append(budget.diagnostic(path, -1));
    }
    if (builder.badExternalData() > 0)
        diagnostics.append(graphDiagnostic(models::Severity::Warning, path,
                                           GraphTr::tr("%n initializer(s) give an external data offset or length "
                                                       "that is not a byte count; their values cannot be shown "
                                                       "(the first is \"%1\").",
                                                       nullptr, builder.badExternalData())
                                               .arg(QString::fromStdString(builder.firstBadExternalData()))));
    if (builder.skippedBodies() > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Warning, path,
            GraphTr::tr("%n control-flow bodies (Loop, If, Scan) are not shown: together the bodies would make more "
                        "than %1 nodes, the limit for a file of %2 bytes (the first left out belongs to node \"%3\").",
                        nullptr, builder.skippedBodies())
                .arg(qulonglong(builder.bodyNodeLimit()))
                .arg(qulonglong(bytes.size()))
                .arg(QString::fromStdString(builder.firstSkippedBody()))));
    if (builder.cutTraces() > 0)
        diagnostics.append(
            graphDiagnostic(models::Severity::Info, path,
                            GraphTr::tr("%n node stack trace(s) hold more than %1 frames; the "
                                        "innermost %1 are kept (the first is node \"%2\").",
                                        nullptr, builder.cutTraces())
                                .arg(qulonglong(kMaxStackFrames))
                                .arg(QString::fromStdString(text::elide(builder.firstCutTrace(), 200)))));
    if (builder.unresolved() > 0)
        diagnostics.append(graphDiagnostic(models::Severity::Warning, path,
                                           GraphTr::tr("%n node input(s) name values no node, initializer or graph "
                                                       "input produces.",
                                                       nullptr, builder.unresolved())));
    return publishGraph(std::move(graph), diagnostics);
}

} // namespace runlens::importers::graph
