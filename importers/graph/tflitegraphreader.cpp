#include "importers/graph/tflitegraphreader.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/graphweights.h"
#include "importers/graph/schema/tflite_generated.h"
#include "importers/graph/uniqueids.h"

#include <flatbuffers/flatbuffers.h>

#include <QFileInfo>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <limits>
#include <unordered_map>

namespace runlens::importers::graph {

namespace {

namespace tfl = runlens_tflite;

constexpr int kBuiltinCustom = 32;
constexpr int kBuiltinCall = 31;

/// TensorType names by value.
constexpr const char* kTypeNames[] = {
    "float32",   "float16", "int32",    "uint8",      "int64",  "string",        "bool",        "int16",
    "complex64", "int8",    "float64",  "complex128", "uint64", "resource",      "variant",     "uint32",
    "uint16",    "int4",    "bfloat16", "int2",       "uint4",  "float8_e4m3fn", "float8_e5m2",
};

/// Real models nest five tables deep (Model, SubGraph, Operator, options); anything far deeper is hostile.
constexpr flatbuffers::uoffset_t kMaxVerifyDepth = 32;
/// The verifier's own limit on flatbuffers it accepts (just under 2 GiB); bigger models keep their
/// weights after the flatbuffer, so only this much of the file is verified and read.
constexpr std::size_t kMaxFlatbuffer = FLATBUFFERS_MAX_BUFFER_SIZE - 1;

/// How many tables the verifier may visit: every real table takes well over 8 bytes of the file, while a
/// hostile file can point many vector entries at one table, making the visits far outnumber the bytes.
flatbuffers::uoffset_t maxTables(std::size_t size)
{
    return flatbuffers::uoffset_t(std::clamp<std::size_t>(size / 8, 100000, 10000000));
}

std::string shortFloat(float v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", double(v));
    return buffer;
}

/// "scale 0.0244, zero point -128" or, per channel, "scale[8] 6.3e-05 1.5e-05 …, zero point[8] 0 0 …, axis 0".
/// Element `i` of a flatbuffer vector, read byte by byte: the verifier checks only that a vector's length prefix
/// is 4-byte aligned, so a file can place 8-byte elements (zero points) off their alignment.
template<class T> T elementAt(const flatbuffers::Vector<T>& values, flatbuffers::uoffset_t i)
{
    T value;
    std::memcpy(&value, values.Data() + std::size_t(i) * sizeof(T), sizeof(T));
    return flatbuffers::EndianScalar(value);
}

std::string quantizationText(const tfl::QuantizationParameters* q)
{
    if (!q)
        return {};
    const auto* scale = q->scale();
    const auto* zero = q->zero_point();
    const auto* min = q->min();
    const auto* max = q->max();
    std::string out;
    auto list = [&](const char* label, auto* values, auto print) {
        if (!values || values->size() == 0)
            return;
        if (!out.empty())
            out += ", ";
        out += label;
        if (values->size() > 1)
            out += "[" + std::to_string(values->size()) + "]";
        const flatbuffers::uoffset_t shown = std::min<flatbuffers::uoffset_t>(values->size(), 4);
        for (flatbuffers::uoffset_t i = 0; i < shown; ++i)
            out += " " + print(elementAt(*values, i));
        if (shown < values->size())
            out += " …";
    };
    list("scale", scale, shortFloat);
    list("zero point", zero, [](std::int64_t v) { return std::to_string(v); });
    list("min", min, shortFloat);
    list("max", max, shortFloat);
    if (scale && scale->size() > 1)
        out += ", axis " + std::to_string(q->quantized_dimension());
    return out;
}

/// The part of a tensor name before the first ';': the converter joins the names of fused TF ops with it.
std::string_view firstName(std::string_view name)
{
    return name.substr(0, name.find(';'));
}

struct Producer
{
    int node = -1;
    int slot = 0;
};

class Builder
{
public:
    struct Problems
    {
        int count = 0;
        std::string first; ///< where the first one is, for the message
    };

    Builder(models::graph::Graph& graph, const tfl::Model& model, std::string_view bytes, std::int64_t fileSize,
            ImportBudget& budget, const ImportControl& control)
        : m_graph(graph)
        , m_model(model)
        , m_base(reinterpret_cast<const std::uint8_t*>(bytes.data()))
        , m_fileSize(fileSize)
        , m_budget(budget)
        , m_control(control)
    { }

    /// Reads every subgraph; false when canceled.
    bool build()
    {
        const auto* subgraphs = m_model.subgraphs();
        const int count = subgraphs ? int(subgraphs->size()) : 0;
        for (int s = 0; s < count; ++s) {
            models::graph::Subgraph sub;
            const auto* name = subgraphs->Get(flatbuffers::uoffset_t(s))->name();
            sub.name = name && name->size() > 0 ? text::elide(text::printable(name->string_view()), 200)
                                                : "subgraph_" + std::to_string(s);
            m_graph.subgraphs.push_back(std::move(sub));
        }
        collectSignatures();
        for (int s = 0; s < count && !m_budget.exceeded(); ++s) {
            if (!addSubgraph(*subgraphs->Get(flatbuffers::uoffset_t(s)), s))
                return false;
        }
        if (m_budget.exceeded())
            dropDanglingProducers(m_graph);
        return true;
    }

    const Problems& badTensors() const { return m_badTensors; }
    const Problems& badOpcodes() const { return m_badOpcodes; }
    const Problems& badSubgraphs() const { return m_badSubgraphs; }
    const Problems& badBuffers() const { return m_badBuffers; }
    int unresolved() const { return m_unresolved; }
    int weights() const { return m_weights; }
    std::int64_t weightBytes() const { return m_weightBytes; }

private:
    struct Signature
    {
        std::unordered_map<std::uint32_t, std::string> inputs;
        std::unordered_map<std::uint32_t, std::string> outputs;
        std::string key;
    };

    void collectSignatures()
    {
        const auto* defs = m_model.signature_defs();
        if (!defs)
            return;
        for (const tfl::SignatureDef* def : *defs) {
            Signature& signature = m_signatures[def->subgraph_index()];
            if (def->signature_key())
                signature.key = text::printable(def->signature_key()->string_view());
            for (const auto& [maps, into] : std::array { std::pair { def->inputs(), &signature.inputs },
                                                         std::pair { def->outputs(), &signature.outputs } }) {
                if (!maps)
                    continue;
                for (const tfl::TensorMap* map : *maps) {
                    if (map->name())
                        into->emplace(map->tensor_index(), text::printable(map->name()->string_view()));
                }
            }
        }
    }

    static void noteBad(Problems& problems, const std::string& what)
    {
        if (problems.count++ == 0)
            problems.first = what;
    }

    std::string opType(std::uint32_t opcodeIndex, int& builtin)
    {
        builtin = -1;
        const auto* codes = m_model.operator_codes();
        if (!codes || opcodeIndex >= codes->size()) {
            noteBad(m_badOpcodes, "opcode " + std::to_string(opcodeIndex));
            return "opcode_" + std::to_string(opcodeIndex);
        }
        const tfl::OperatorCode* code = codes->Get(opcodeIndex);
        // Files from before the 32-bit field leave builtin_code 0 and keep the code in the byte; newer ones
        // set both, with the byte saturated at 127 for codes above it: the larger is the code.
        builtin = std::max<int>(code->deprecated_builtin_code(), int(code->builtin_code()));
        if (builtin == kBuiltinCustom && code->custom_code() && code->custom_code()->size() > 0)
            return text::elide(text::printable(code->custom_code()->string_view()), 200);
        return tfliteBuiltinName(builtin);
    }

    models::graph::TensorType tensorType(const tfl::Tensor& tensor) const
    {
        models::graph::TensorType type;
        type.dtype = tfliteTypeName(int(tensor.type()));
        const auto* signature = tensor.shape_signature();
        const auto* shape = signature && signature->size() > 0 ? signature : tensor.shape();
        if (shape) {
            type.rankKnown = shape->size() > 0 || tensor.has_rank();
            for (const int d : *shape)
                type.dims.push_back(d < 0 ? -1 : d);
        }
        return type;
    }

    std::string tensorName(const tfl::Tensor& tensor, int index) const
    {
        if (tensor.name() && tensor.name()->size() > 0)
            return text::printable(tensor.name()->string_view());
        return "tensor_" + std::to_string(index);
    }

    /// Where a constant tensor's bytes are, when its buffer holds some.
    std::optional<models::graph::TensorLocation> location(const tfl::Tensor& tensor, const std::string& name)
    {
        const std::uint32_t index = tensor.buffer();
        if (index == 0)
            return std::nullopt; // buffer 0 is the empty sentinel of tensors without data
        const auto* buffers = m_model.buffers();
        if (!buffers || index >= buffers->size()) {
            noteBad(m_badBuffers, "tensor \"" + text::elide(name, 200) + "\"");
            return std::nullopt;
        }
        const tfl::Buffer* buffer = buffers->Get(index);
        models::graph::TensorLocation location;
        location.type = tensorType(tensor);
        if (buffer->data() && buffer->data()->size() > 0) {
            location.offset = std::int64_t(buffer->data()->Data() - m_base);
            location.length = std::int64_t(buffer->data()->size());
        } else if (buffer->offset() > 1 && buffer->size() > 0) {
            // Models over 2 GB: the bytes follow the flatbuffer, at an offset from the start of the file.
            if (buffer->offset() > std::uint64_t(m_fileSize) || buffer->size() > std::uint64_t(m_fileSize)
                || buffer->offset() + buffer->size() > std::uint64_t(m_fileSize)) {
                noteBad(m_badBuffers, "tensor \"" + text::elide(name, 200) + "\"");
                return std::nullopt;
            }
            location.offset = std::int64_t(buffer->offset());
            location.length = std::int64_t(buffer->size());
        } else {
            return std::nullopt;
        }
        // The buffer holds the elements in row-major little-endian order unless the tensor is sparse (its
        // buffer holds the kept values in the sparsity's traversal order) or of a type without whole-byte
        // elements (strings, int4) — those keep their location only.
        constexpr flatbuffers::voffset_t kSparsityField = 4 + 2 * 6; // Tensor.sparsity (id: 6)
        const bool sparse
            = reinterpret_cast<const flatbuffers::Table*>(&tensor)->GetOptionalFieldOffset(kSparsityField) != 0;
        location.encoding = !sparse && holdsPlainElements(location) ? "raw" : "bytes";
        return location;
    }

    int add(models::graph::Node node, int subgraph, bool parameter)
    {
        if (m_budget.exceeded() || !chargeNode(m_budget, node))
            return -1;
        node.subgraph = subgraph;
        const int index = int(m_graph.nodes.size());
        m_graph.nodes.push_back(std::move(node));
        models::graph::Subgraph& s = m_graph.subgraphs[std::size_t(subgraph)];
        s.nodes.push_back(index);
        if (parameter)
            s.parameters.push_back(index);
        return index;
    }

    std::string scoped(const std::string& prefix, const std::string& own) const
    {
        return prefix.empty() ? own : own.empty() ? prefix : prefix + "/" + own;
    }

    /// Links `sub` to its owner op: the first op that names it keeps it as a body.
    void attachBody(int owner, int sub, const char* role, models::graph::Node& node)
    {
        if (sub < 0 || sub >= int(m_graph.subgraphs.size())) {
            noteBad(m_badSubgraphs, "op \"" + text::elide(node.id, 200) + "\"");
            node.attributes.push_back({ role, "subgraph " + std::to_string(sub) + " (missing)" });
            return;
        }
        node.attributes.push_back({ role, m_graph.subgraphs[std::size_t(sub)].name });
        if (sub == 0)
            return;
        models::graph::Subgraph& s = m_graph.subgraphs[std::size_t(sub)];
        if (s.owner < 0) {
            s.owner = owner;
            node.bodies.push_back(sub);
        }
    }

    void addControlFlow(const tfl::Operator& op, int builtin, int nodeIndex, models::graph::Node& node)
    {
        if (const auto* o = op.builtin_options_as_WhileOptions()) {
            attachBody(nodeIndex, o->cond_subgraph_index(), "cond_subgraph", node);
            attachBody(nodeIndex, o->body_subgraph_index(), "body_subgraph", node);
        } else if (const auto* o = op.builtin_options_as_IfOptions()) {
            attachBody(nodeIndex, o->then_subgraph_index(), "then_subgraph", node);
            attachBody(nodeIndex, o->else_subgraph_index(), "else_subgraph", node);
        } else if (const auto* o = op.builtin_options_as_CallOnceOptions()) {
            attachBody(nodeIndex, o->init_subgraph_index(), "init_subgraph", node);
        } else if (const auto* o = op.builtin_options_as_CallOptions()) {
            const std::uint32_t callee = o->subgraph();
            if (builtin == kBuiltinCall && callee < m_graph.subgraphs.size()) {
                node.kind = models::graph::NodeKind::Call;
                node.callee = int(callee);
                node.attributes.push_back({ "subgraph", m_graph.subgraphs[callee].name });
            } else {
                attachBody(nodeIndex, callee > std::uint32_t(std::numeric_limits<int>::max()) ? -1 : int(callee),
                           "subgraph", node);
            }
        }
        if (const auto* o = op.builtin_options_2_as_StablehloWhileOptions()) {
            attachBody(nodeIndex, o->cond_subgraph_index(), "cond_subgraph", node);
            attachBody(nodeIndex, o->body_subgraph_index(), "body_subgraph", node);
        } else if (const auto* o = op.builtin_options_2_as_StablehloCaseOptions()) {
            if (const auto* branches = o->branch_subgraph_indices()) {
                int k = 0;
                for (const int b : *branches) {
                    if (k == 64)
                        break;
                    const std::string role = "branch_" + std::to_string(k++);
                    attachBody(nodeIndex, b, role.c_str(), node);
                }
            }
        } else if (const auto* o = op.builtin_options_2_as_StableHLOCompositeOptions()) {
            if (o->name())
                node.attributes.push_back({ "name", text::elide(text::printable(o->name()->string_view())) });
            const int callee = o->decomposition_subgraph_index();
            if (callee >= 0 && callee < int(m_graph.subgraphs.size())) {
                node.kind = models::graph::NodeKind::Call;
                node.callee = callee;
                node.attributes.push_back({ "decomposition", m_graph.subgraphs[std::size_t(callee)].name });
            } else {
                noteBad(m_badSubgraphs, "op \"" + text::elide(node.id, 200) + "\"");
            }
        }
    }

    bool addSubgraph(const tfl::SubGraph& sg, int subgraph)
    {
        const auto* tensors = sg.tensors();
        const int tensorCount = tensors ? int(tensors->size()) : 0;
        const std::string prefix = subgraph == 0 ? std::string() : m_graph.subgraphs[std::size_t(subgraph)].name;
        const auto signature = m_signatures.find(std::uint32_t(subgraph));
        const Signature* sig = signature == m_signatures.end() ? nullptr : &signature->second;
        std::unordered_map<int, Producer> producers;
        std::vector<std::string> names(static_cast<std::size_t>(tensorCount));
        // A hostile file can list one tensor table with a long name many times: every copy of a name is
        // charged, here and in each port below.
        for (int t = 0; t < tensorCount; ++t) {
            names[std::size_t(t)] = tensorName(*tensors->Get(flatbuffers::uoffset_t(t)), t);
            if (!m_budget.spendBytes(std::int64_t(names[std::size_t(t)].size())))
                return true;
        }

        auto validTensor = [&](int t, const std::string& where) {
            if (t >= 0 && t < tensorCount)
                return true;
            noteBad(m_badTensors, where + " names tensor " + std::to_string(t));
            return false;
        };
        auto port = [&](int t) {
            models::graph::Port p;
            p.name = names[std::size_t(t)];
            p.type = tensorType(*tensors->Get(flatbuffers::uoffset_t(t)));
            m_budget.spendBytes(std::int64_t(p.name.size()));
            return p;
        };

        if (const auto* inputs = sg.inputs()) {
            for (const int t : *inputs) {
                if (!validTensor(t, "subgraph \"" + m_graph.subgraphs[std::size_t(subgraph)].name + "\" input"))
                    continue;
                models::graph::Node node;
                node.kind = models::graph::NodeKind::Input;
                node.implicit = true;
                node.opType = "Input";
                const std::string& name = names[std::size_t(t)];
                const auto alias = sig ? sig->inputs.find(std::uint32_t(t)) : decltype(sig->inputs.end()) {};
                const bool named = sig && alias != sig->inputs.end();
                node.name = named ? alias->second : text::splitScope(firstName(name)).second;
                if (node.name.empty())
                    node.name = name;
                node.scope = prefix;
                node.id = m_ids.take(scoped(prefix, name));
                if (named)
                    node.attributes.push_back({ "signature", sig->key + ": " + alias->second });
                node.attributes.push_back({ "tensor", name });
                const auto* tensor = tensors->Get(flatbuffers::uoffset_t(t));
                const std::string quantization = quantizationText(tensor->quantization());
                if (!quantization.empty())
                    node.attributes.push_back({ "quantization", quantization });
                node.outputs.push_back(port(t));
                const int index = add(std::move(node), subgraph, true);
                if (index >= 0)
                    producers[t] = { index, 0 };
            }
        }

        const auto* ops = sg.operators();
        const int opCount = ops ? int(ops->size()) : 0;
        // Outputs first, so an op that reads a tensor made later (a file not in execution order) still links.
        const int first = int(m_graph.nodes.size());
        {
            int next = first;
            for (int i = 0; i < opCount; ++i) {
                const auto* outputs = ops->Get(flatbuffers::uoffset_t(i))->outputs();
                int slot = 0;
                if (outputs) {
                    for (const int t : *outputs) {
                        if (t >= 0 && t < tensorCount && !producers.count(t))
                            producers[t] = { next, slot };
                        ++slot;
                    }
                }
                ++next;
            }
        }
        // Implicit nodes (weights) are made while the ops are read, which would shift the op indices above:
        // they are collected here and appended after the ops.
        std::vector<std::pair<int, models::graph::Node>> pending; // tensor, node
        std::unordered_map<int, int> pendingIndex; // tensor -> position in pending
        std::vector<std::vector<std::pair<int, int>>> weightInputs(
            static_cast<std::size_t>(opCount)); // (input slot, tensor)

        int added = 0;
        for (int i = 0; i < opCount && !m_budget.exceeded(); ++i) {
            if ((i & 1023) == 0 && m_control.canceled())
                return false;
            const tfl::Operator& op = *ops->Get(flatbuffers::uoffset_t(i));
            const auto* inputs = op.inputs();
            const auto* outputs = op.outputs();
            const std::int64_t ports = std::int64_t(inputs ? inputs->size() : 0) + (outputs ? outputs->size() : 0);
            // A hostile file can give one op millions of ports: refuse before making them.
            if (ports > m_budget.limits().maxElements - m_budget.elementsSpent()) {
                m_budget.spendElements(ports);
                break;
            }
            models::graph::Node node;
            int builtin = -1;
            node.opType = opType(op.opcode_index(), builtin);
            node.name = node.opType;
            std::string firstOutput;
            if (outputs) {
                for (const int t : *outputs) {
                    if (t >= 0 && t < tensorCount) {
                        firstOutput = names[std::size_t(t)];
                        break;
                    }
                }
            }
            node.scope
                = scoped(prefix, firstOutput.empty() ? std::string() : text::splitScope(firstName(firstOutput)).first);
            node.id = m_ids.take(scoped(prefix, firstOutput.empty() ? node.opType : firstOutput));
            const auto* codes = m_model.operator_codes();
            if (codes && op.opcode_index() < codes->size() && codes->Get(op.opcode_index())->version() != 1)
                node.attributes.push_back({ "version", std::to_string(codes->Get(op.opcode_index())->version()) });
            if (op.custom_options() && op.custom_options()->size() > 0)
                node.attributes.push_back({ "custom_options", std::to_string(op.custom_options()->size()) + " bytes" });
            else if (op.large_custom_options_size() > 0)
                node.attributes.push_back(
                    { "custom_options", std::to_string(op.large_custom_options_size()) + " bytes (after the model)" });
            if (op.builtin_options_type() != tfl::BuiltinOptions_NONE)
                node.attributes.push_back(
                    { "builtin_options", "type " + std::to_string(int(op.builtin_options_type())) });
            const int nodeIndex = first + added;
            addControlFlow(op, builtin, nodeIndex, node);

            int slot = 0;
            if (inputs) {
                for (const int t : *inputs) {
                    if (m_budget.exceeded())
                        break;
                    models::graph::Port p;
                    if (t == -1) {
                        // An optional input left out.
                        node.inputs.push_back(std::move(p));
                        ++slot;
                        continue;
                    }
                    if (!validTensor(t, "op \"" + text::elide(node.id, 200) + "\"")) {
                        node.inputs.push_back(std::move(p));
                        ++slot;
                        continue;
                    }
                    p = port(t);
                    const auto* tensor = tensors->Get(flatbuffers::uoffset_t(t));
                    const std::string quantization = quantizationText(tensor->quantization());
                    if (!quantization.empty())
                        node.attributes.push_back({ "input " + std::to_string(slot) + " quantization", quantization });
                    const auto produced = producers.find(t);
                    if (produced != producers.end()) {
                        p.producer = produced->second.node;
                        p.producerSlot = produced->second.slot;
                    } else if (pendingIndex.count(t)
                               || makeWeight(*tensor, t, names[std::size_t(t)], node.scope, subgraph, pending,
                                             pendingIndex)) {
                        weightInputs[std::size_t(i)].emplace_back(slot, t);
                    } else {
                        ++m_unresolved;
                    }
                    node.inputs.push_back(std::move(p));
                    ++slot;
                }
            }
            slot = 0;
            if (outputs) {
                for (const int t : *outputs) {
                    if (m_budget.exceeded())
                        break;
                    models::graph::Port p;
                    if (validTensor(t, "op \"" + text::elide(node.id, 200) + "\"")) {
                        p = port(t);
                        const std::string quantization
                            = quantizationText(tensors->Get(flatbuffers::uoffset_t(t))->quantization());
                        if (!quantization.empty())
                            node.attributes.push_back(
                                { "output " + std::to_string(slot) + " quantization", quantization });
                    }
                    node.outputs.push_back(std::move(p));
                    ++slot;
                }
            }
            if (add(std::move(node), subgraph, false) < 0)
                break;
            ++added;
        }
        // The weights after the ops; their consumers learn the index now.
        for (int i = 0; i < added; ++i) {
            for (const auto& [slot, t] : weightInputs[std::size_t(i)]) {
                auto it = pendingIndex.find(t);
                if (it == pendingIndex.end())
                    continue;
                auto& [tensor, weight] = pending[std::size_t(it->second)];
                if (tensor >= 0) {
                    const int index = add(std::move(weight), subgraph, true);
                    tensor = -1 - index; // made: remember its index (negative marks it)
                    if (index < 0)
                        tensor = std::numeric_limits<int>::min();
                }
                if (tensor == std::numeric_limits<int>::min())
                    continue;
                models::graph::Port& p = m_graph.nodes[std::size_t(first + i)].inputs[std::size_t(slot)];
                p.producer = -1 - tensor;
                p.producerSlot = 0;
            }
        }

        if (const auto* outputs = sg.outputs()) {
            for (const int t : *outputs) {
                if (!validTensor(t, "subgraph \"" + m_graph.subgraphs[std::size_t(subgraph)].name + "\" output"))
                    continue;
                models::graph::Node node;
                node.kind = models::graph::NodeKind::Output;
                node.implicit = true;
                node.opType = "Output";
                const std::string& name = names[std::size_t(t)];
                const auto alias = sig ? sig->outputs.find(std::uint32_t(t)) : decltype(sig->outputs.end()) {};
                const bool named = sig && alias != sig->outputs.end();
                node.name = named ? alias->second : text::splitScope(firstName(name)).second;
                if (node.name.empty())
                    node.name = name;
                node.scope = prefix;
                node.id = m_ids.take("output:" + scoped(prefix, name));
                if (named)
                    node.attributes.push_back({ "signature", sig->key + ": " + alias->second });
                node.attributes.push_back({ "tensor", name });
                models::graph::Port in = port(t);
                const auto produced = producers.find(t);
                if (produced != producers.end() && produced->second.node < int(m_graph.nodes.size())) {
                    in.producer = produced->second.node;
                    in.producerSlot = produced->second.slot;
                }
                node.inputs.push_back(std::move(in));
                const int index = add(std::move(node), subgraph, false);
                if (index >= 0 && m_graph.subgraphs[std::size_t(subgraph)].output < 0)
                    m_graph.subgraphs[std::size_t(subgraph)].output = index;
            }
        }
        return true;
    }

    /// A constant (non-empty buffer) or variable tensor that no op makes: an implicit Parameter node.
    bool makeWeight(const tfl::Tensor& tensor, int t, const std::string& name, const std::string& scope, int subgraph,
                    std::vector<std::pair<int, models::graph::Node>>& pending,
                    std::unordered_map<int, int>& pendingIndex)
    {
        std::optional<models::graph::TensorLocation> data = location(tensor, name);
        if (!data && !tensor.is_variable())
            return false;
        models::graph::Node node;
        node.kind = models::graph::NodeKind::Parameter;
        node.implicit = true;
        node.opType = data ? "Constant" : "Variable";
        node.name = text::splitScope(firstName(name)).second;
        if (node.name.empty())
            node.name = name;
        // In the scope of its consumer, so a layer folds with its weights; by its own name when the consumer
        // has no scope (the converter names the model's last op after the signature output).
        node.scope = scope.empty() ? text::splitScope(firstName(name)).first : scope;
        node.subgraph = subgraph;
        node.id = m_ids.take(subgraph == 0 ? name : m_graph.subgraphs[std::size_t(subgraph)].name + "/" + name);
        models::graph::Port out;
        out.name = name;
        out.type = tensorType(tensor);
        node.outputs.push_back(out);
        node.attributes.push_back({ "buffer", std::to_string(tensor.buffer()) });
        const std::string quantization = quantizationText(tensor.quantization());
        if (!quantization.empty())
            node.attributes.push_back({ "quantization", quantization });
        if (tensor.is_variable())
            node.attributes.push_back({ "variable", "true" });
        if (data) {
            ++m_weights;
            m_weightBytes += data->length;
        }
        node.data = std::move(data);
        pendingIndex[t] = int(pending.size());
        pending.emplace_back(t, std::move(node));
        return true;
    }

    models::graph::Graph& m_graph;
    const tfl::Model& m_model;
    const std::uint8_t* m_base;
    std::int64_t m_fileSize;
    ImportBudget& m_budget;
    const ImportControl& m_control;
    UniqueIds m_ids;
    std::unordered_map<std::uint32_t, Signature> m_signatures;
    Problems m_badTensors;
    Problems m_badOpcodes;
    Problems m_badSubgraphs;
    Problems m_badBuffers;
    int m_unresolved = 0;
    int m_weights = 0;
    std::int64_t m_weightBytes = 0;
};

} // namespace

std::string tfliteBuiltinName(int code)
{
    // The names are the BuiltinOperator enum of our schema (importers/graph/schema/tflite.fbs).
    const char* name = tfl::EnumNameBuiltinOperator(tfl::BuiltinOperator(code));
    if (name && *name)
        return name;
    return "BUILTIN_" + std::to_string(code);
}

std::string tfliteTypeName(int type)
{
    if (type >= 0 && type < int(std::size(kTypeNames)))
        return kTypeNames[type];
    return "type" + std::to_string(type);
}

GraphResult TfLiteGraphReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    if (bytes.size() < 8) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("The file is too short (%1 bytes) to be a TensorFlow Lite "
                                                       "model.")
                                               .arg(bytes.size())));
        return publishGraph(nullptr, diagnostics, true);
    }
    if (!flatbuffers::BufferHasIdentifier(bytes.data(), tfl::ModelIdentifier())) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("Not a TensorFlow Lite model: the file identifier at bytes "
                                                       "4 to 8 is not \"TFL3\"."),
                                           4));
        return publishGraph(nullptr, diagnostics, true);
    }
    const std::size_t size = std::min(bytes.size(), kMaxFlatbuffer);
    flatbuffers::Verifier verifier(reinterpret_cast<const std::uint8_t*>(bytes.data()), size, kMaxVerifyDepth,
                                   maxTables(size));
    if (!tfl::VerifyModelBuffer(verifier)) {
        diagnostics.append(graphDiagnostic(
            models::Severity::Error, path,
            GraphTr::tr("The TensorFlow Lite model is damaged: its flatbuffer fails verification (an offset or "
                        "length points outside the file, a string is not terminated, or the tables nest or "
                        "repeat beyond the limits). Nothing of it is shown.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    const tfl::Model* model = tfl::GetModel(bytes.data());
    if (!model->subgraphs() || model->subgraphs()->size() == 0) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("The TensorFlow Lite model holds no subgraph.")));
        return publishGraph(nullptr, diagnostics, true);
    }

    auto graph = std::make_unique<models::graph::Graph>();
    graph->path = path;
    graph->format = models::graph::GraphFormat::TfLite;
    graph->name = QFileInfo(path).completeBaseName().toStdString();
    graph->metadata.push_back({ "schema version", std::to_string(model->version()) });
    if (model->description() && model->description()->size() > 0)
        graph->metadata.push_back({ "description", text::elide(text::printable(model->description()->string_view())) });
    graph->metadata.push_back({ "subgraphs", std::to_string(model->subgraphs()->size()) });
    if (const auto* defs = model->signature_defs()) {
        std::string keys;
        for (const tfl::SignatureDef* def : *defs) {
            if (!keys.empty())
                keys += ", ";
            keys += def->signature_key() ? text::printable(def->signature_key()->string_view()) : std::string("?");
            if (keys.size() > 300)
                break;
        }
        if (!keys.empty())
            graph->metadata.push_back({ "signatures", text::elide(keys) });
    }
    if (const auto* metadata = model->metadata()) {
        const auto* buffers = model->buffers();
        int shown = 0;
        for (const tfl::Metadata* m : *metadata) {
            if (shown++ == 32)
                break;
            const std::string name = m->name() ? text::printable(m->name()->string_view()) : std::string("metadata");
            std::string value;
            const tfl::Buffer* buffer = buffers && m->buffer() < buffers->size() ? buffers->Get(m->buffer()) : nullptr;
            const auto* data = buffer ? buffer->data() : nullptr;
            const std::size_t length = data ? data->size() : 0;
            // Short text (min_runtime_version "1.14.0") is shown; anything else by its size.
            const std::string_view raw(reinterpret_cast<const char*>(data ? data->Data() : nullptr), length);
            const std::string_view trimmed = raw.substr(0, raw.find('\0'));
            const bool textual = length > 0 && length <= 64
                && std::all_of(trimmed.begin(), trimmed.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
            value = textual ? std::string(trimmed) : std::to_string(length) + " bytes";
            graph->metadata.push_back({ "metadata:" + name, value });
        }
    }

    ImportBudget budget { std::int64_t(bytes.size()) };
    Builder builder(*graph, *model, bytes, std::int64_t(bytes.size()), budget, control);
    if (!builder.build()) {
        GraphResult result = publishGraph(std::move(graph), diagnostics, true);
        result.canceled = true;
        return result;
    }
    if (budget.exceeded())
        diagnostics.append(budget.diagnostic(path, -1));
    if (builder.weights() > 0)
        graph->metadata.push_back(
            { "weights",
              std::to_string(builder.weights()) + " tensors, " + std::to_string(builder.weightBytes()) + " bytes" });
    auto first = [](const auto& problems) { return QString::fromStdString(problems.first); };
    if (builder.badTensors().count > 0)
        diagnostics.append(
            graphDiagnostic(models::Severity::Warning, path,
                            GraphTr::tr("%n tensor reference(s) name tensors the subgraph does not have; they are left "
                                        "unconnected (the first: %1).",
                                        nullptr, builder.badTensors().count)
                                .arg(first(builder.badTensors()))));
    if (builder.badOpcodes().count > 0)
        diagnostics.append(graphDiagnostic(models::Severity::Warning, path,
                                           GraphTr::tr("%n operator(s) name an operator code the model does not list.",
                                                       nullptr, builder.badOpcodes().count)));
    if (builder.badSubgraphs().count > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Warning, path,
            GraphTr::tr("%n control-flow or call reference(s) name subgraphs the model does not have (the first: "
                        "%1).",
                        nullptr, builder.badSubgraphs().count)
                .arg(first(builder.badSubgraphs()))));
    if (builder.badBuffers().count > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Warning, path,
            GraphTr::tr("%n tensor(s) name a buffer that does not exist or lies beyond the end of the file; their "
                        "values cannot be located (the first: %1).",
                        nullptr, builder.badBuffers().count)
                .arg(first(builder.badBuffers()))));
    if (builder.unresolved() > 0)
        diagnostics.append(
            graphDiagnostic(models::Severity::Info, path,
                            GraphTr::tr("%n op input(s) read tensors that no op makes and that hold no data.", nullptr,
                                        builder.unresolved())));
    return publishGraph(std::move(graph), diagnostics);
}

} // namespace runlens::importers::graph
