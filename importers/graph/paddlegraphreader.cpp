#include "importers/graph/paddlegraphreader.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/paddleparams.h"
#include "importers/graph/paddlepirreader.h"
#include "importers/graph/proto/paddle_framework.pb.h"
#include "importers/graph/protowire.h"
#include "importers/graph/uniqueids.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace runlens::importers::graph {

namespace {

constexpr std::uint32_t kProgramBlocks = 1;

// OpDesc.Attr.type (upstream AttrType).
enum AttrType {
    kInt = 0,
    kFloat = 1,
    kString = 2,
    kInts = 3,
    kFloats = 4,
    kStrings = 5,
    kBoolean = 6,
    kBooleans = 7,
    kBlock = 8,
    kLong = 9,
    kBlocks = 10,
    kLongs = 11,
};

// VarType.Type values of variables that are not tensors of the model: the feed and fetch lists.
constexpr int kFeedMinibatch = 9;
constexpr int kFetchList = 10;
constexpr int kRaw = 17;

/// Sub-blocks nest a few levels in real programs (a while in a cond in a while). Each level adds two scope
/// components to every node below it, and the blocks of a file are a flat list, so a small file can chain
/// thousands: deeper ones are left out rather than making every scope thousands of components long.
constexpr int kMaxBlockNesting = 16;

using runlens_paddle::BlockDesc;
using runlens_paddle::OpDesc;
using runlens_paddle::ProgramDesc;
using runlens_paddle::VarDesc;

/// Parses a ProgramDesc field by field. A damaged or cut-off block keeps its complete vars and ops (a model
/// is mostly one block, so a cut file would otherwise show nothing). Returns where reading stopped.
std::size_t parseProgram(std::string_view bytes, ProgramDesc& program)
{
    std::size_t pos = 0;
    wire::Field field;
    while (wire::next(bytes, pos, field)) {
        if (wire::mergeField(program, bytes, field))
            continue;
        if (field.number != kProgramBlocks || field.wireType != 2)
            return field.begin;
        const std::string_view block = wire::payload(bytes, field);
        return field.dataBegin + wire::salvage(*program.add_blocks(), block);
    }
    wire::Field cut;
    if (pos < bytes.size() && wire::cutField(bytes, pos, cut) && cut.number == kProgramBlocks && cut.wireType == 2)
        return cut.dataBegin + wire::salvage(*program.add_blocks(), wire::payload(bytes, cut));
    return pos;
}

bool isListVar(const VarDesc& var)
{
    return var.type().type() == kFeedMinibatch || var.type().type() == kFetchList;
}

models::graph::TensorType varType(const VarDesc& var)
{
    models::graph::TensorType out;
    const runlens_paddle::VarType& type = var.type();
    const runlens_paddle::VarType::TensorDesc* desc = nullptr;
    if (type.has_lod_tensor())
        desc = &type.lod_tensor().tensor();
    else if (type.has_selected_rows())
        desc = &type.selected_rows();
    else if (type.has_tensor_array())
        desc = &type.tensor_array().tensor();
    if (!desc)
        return out;
    out.dtype = paddleDataTypeName(desc->data_type());
    if (type.has_tensor_array())
        out.dtype = "array(" + out.dtype + ")";
    out.rankKnown = true;
    out.dims.assign(desc->dims().begin(), desc->dims().end());
    return out;
}

template<class Values, class Print> std::string listText(const Values& values, Print print)
{
    std::string out = "[";
    for (int i = 0; i < values.size(); ++i) {
        if (i)
            out += ", ";
        out += print(values.Get(i));
        if (out.size() > 300)
            break;
    }
    return text::elide(out) + "]";
}

std::string attributeText(const OpDesc::Attr& a)
{
    switch (a.type()) {
    case kInt:
        return std::to_string(a.i());
    case kFloat:
        return std::to_string(a.f());
    case kString:
        return text::elide(text::printable(a.s()));
    case kInts:
        return listText(a.ints(), [](int v) { return std::to_string(v); });
    case kFloats:
        return listText(a.floats(), [](float v) { return std::to_string(v); });
    case kStrings:
        return listText(a.strings(), [](const std::string& v) { return text::printable(v); });
    case kBoolean:
        return a.b() ? "true" : "false";
    case kBooleans:
        return listText(a.bools(), [](bool v) { return std::string(v ? "true" : "false"); });
    case kBlock:
        return "block " + std::to_string(a.block_idx());
    case kLong:
        return std::to_string(a.l());
    case kBlocks:
        return "blocks " + listText(a.blocks_idx(), [](int v) { return std::to_string(v); });
    case kLongs:
        return listText(a.longs(), [](std::int64_t v) { return std::to_string(v); });
    default:
        return "type" + std::to_string(a.type());
    }
}

struct Producer
{
    int node = -1;
    int slot = 0;
};

/// The variables of one block and what has written them so far; a sub-block sees its parents' too.
struct BlockValues
{
    const BlockValues* parent = nullptr;
    std::unordered_map<std::string, const VarDesc*> vars;
    std::unordered_map<std::string, Producer> producers;

    const VarDesc* findVar(const std::string& name) const
    {
        for (const BlockValues* b = this; b; b = b->parent) {
            const auto it = b->vars.find(name);
            if (it != b->vars.end())
                return it->second;
        }
        return nullptr;
    }
    const Producer* findProducer(const std::string& name) const
    {
        for (const BlockValues* b = this; b; b = b->parent) {
            const auto it = b->producers.find(name);
            if (it != b->producers.end())
                return &it->second;
        }
        return nullptr;
    }
};

/// "conv2d_0.tmp_1" -> "conv2d_0"; "fc_0.tmp_0@GRAD" -> "@GRAD/fc_0"; "" for names without a `.` path.
std::string scopeOfVariable(std::string_view name)
{
    const std::size_t at = name.find('@');
    const bool grad = at != std::string_view::npos && name.find("@GRAD", at) != std::string_view::npos;
    const std::string_view base = name.substr(0, at);
    const std::size_t dot = base.find('.');
    std::string scope
        = dot == std::string_view::npos || dot == 0 ? std::string() : text::printable(base.substr(0, dot));
    // A '/' inside a variable name is not a scope separator.
    for (char& c : scope) {
        if (c == '/')
            c = '_';
    }
    if (grad)
        return scope.empty() ? std::string("@GRAD") : "@GRAD/" + scope;
    return scope;
}

/// The output slots with the op's result first (`Out`, `Output`, `Y`): files list slots by name, which puts
/// batch_norm's MeanOut before its Y, and the first output is what the op is known and labelled by.
std::vector<const OpDesc::Var*> mainOutputFirst(const OpDesc& op)
{
    std::vector<const OpDesc::Var*> out;
    for (const OpDesc::Var& slot : op.outputs()) {
        const std::string& name = slot.parameter();
        if (name == "Out" || name == "Output" || name == "Y")
            out.push_back(&slot);
    }
    for (const OpDesc::Var& slot : op.outputs()) {
        const std::string& name = slot.parameter();
        if (!(name == "Out" || name == "Output" || name == "Y"))
            out.push_back(&slot);
    }
    return out;
}

class Builder
{
public:
    Builder(models::graph::Graph& graph, const ProgramDesc& program, ImportBudget& budget, const ImportControl& control)
        : m_graph(graph)
        , m_program(program)
        , m_budget(budget)
        , m_control(control)
        , m_attached(std::size_t(program.blocks_size()), false)
    { }

    /// Reads block `index` into subgraph `subgraph`. False when canceled.
    bool addBlock(int index, int subgraph, const std::string& scope, const BlockValues* parent, int depth)
    {
        m_attached[std::size_t(index)] = true;
        const BlockDesc& block = m_program.blocks(index);
        BlockValues values;
        values.parent = parent;
        for (const VarDesc& var : block.vars())
            values.vars.emplace(var.name(), &var);

        const std::size_t first = m_graph.nodes.size();
        std::vector<std::pair<int, std::string>> derived; // node, scope taken from a variable name
        for (int i = 0; i < block.ops_size() && !m_budget.exceeded(); ++i) {
            if ((i & 1023) == 0 && m_control.canceled())
                return false;
            const OpDesc& op = block.ops(i);
            models::graph::Node node;
            node.opType = op.type().empty() ? std::string("op") : text::printable(op.type());
            node.name = node.opType;
            std::string ownScope;
            bool fromVariable = false;
            std::vector<int> opBodies;
            for (const OpDesc::Attr& a : op.attrs()) {
                if (a.name() == "op_namescope" && a.type() == kString) {
                    ownScope = text::splitScope(text::printable(a.s()) + "/x").first;
                } else if (a.name() == "op_callstack" && a.type() == kStrings) {
                    // Paddle keeps the innermost frame first; a traceback (what the parser reads) ends with it.
                    std::string trace;
                    for (int k = a.strings_size() - 1; k >= 0; --k) {
                        trace += a.strings(k);
                        trace += '\n';
                    }
                    bool cut = false;
                    node.sources = stackTraceSources(trace, cut);
                    continue;
                }
                if (a.type() == kBlock)
                    opBodies.push_back(a.block_idx());
                if (a.type() == kBlocks)
                    opBodies.insert(opBodies.end(), a.blocks_idx().begin(), a.blocks_idx().end());
                node.attributes.push_back({ text::printable(a.name()), attributeText(a) });
            }
            // The op is known by its first output, skipping variables it updates in place (batch_norm's MeanOut
            // is its Mean input, a parameter with a node of its own).
            std::string firstOutput;
            std::string firstInPlace;
            std::unordered_set<std::string_view> read;
            for (const OpDesc::Var& slot : op.inputs())
                read.insert(slot.arguments().begin(), slot.arguments().end());
            const std::vector<const OpDesc::Var*> outputs = mainOutputFirst(op);
            for (const OpDesc::Var* slot : outputs) {
                for (const std::string& argument : slot->arguments()) {
                    if (argument.empty())
                        continue;
                    if (firstOutput.empty() && !read.count(argument))
                        firstOutput = argument;
                    if (firstInPlace.empty())
                        firstInPlace = argument;
                }
            }
            if (firstOutput.empty())
                firstOutput = firstInPlace;
            if (ownScope.empty()) {
                ownScope = scopeOfVariable(firstOutput);
                fromVariable = !ownScope.empty();
            }
            node.scope = scope.empty() ? ownScope : ownScope.empty() ? scope : scope + "/" + ownScope;
            node.id = m_ids.take(firstOutput.empty() ? node.opType : text::printable(firstOutput));

            for (const OpDesc::Var& slot : op.inputs()) {
                const std::string parameter = text::printable(slot.parameter());
                for (const std::string& argument : slot.arguments())
                    node.inputs.push_back(inputPort(argument, values, subgraph, node.scope));
                if (slot.arguments_size() > 0)
                    node.attributes.push_back(
                        { "input:" + parameter,
                          listText(slot.arguments(), [](const std::string& v) { return text::printable(v); }) });
            }
            for (const OpDesc::Var* output : outputs) {
                const OpDesc::Var& slot = *output;
                const std::string parameter = text::printable(slot.parameter());
                for (const std::string& argument : slot.arguments()) {
                    models::graph::Port port;
                    port.name = text::printable(argument);
                    if (const VarDesc* var = values.findVar(argument))
                        port.type = varType(*var);
                    node.outputs.push_back(std::move(port));
                }
                if (slot.arguments_size() > 0)
                    node.attributes.push_back(
                        { "output:" + parameter,
                          listText(slot.arguments(), [](const std::string& v) { return text::printable(v); }) });
            }
            if (!chargeNode(m_budget, node))
                break;
            node.subgraph = subgraph;
            const int nodeIndex = int(m_graph.nodes.size());
            // Outputs are registered after the inputs were resolved (below): an op that updates a variable in
            // place reads the earlier value.
            if (fromVariable)
                derived.emplace_back(nodeIndex, node.scope);
            m_graph.nodes.push_back(std::move(node));
            m_graph.subgraphs[std::size_t(subgraph)].nodes.push_back(nodeIndex);
            // The body runs where the op is: it reads the variables as they are before the op's outputs.
            for (const int b : opBodies) {
                if (!addBody(nodeIndex, b, values, depth))
                    return false;
            }
            int slot = 0;
            for (const OpDesc::Var* output : outputs) {
                for (const std::string& argument : output->arguments())
                    values.producers[argument] = { nodeIndex, slot++ };
            }
        }
        flattenLoneScopes(derived, first, subgraph);

        if (index == 0) {
            // Blocks no op names (a program saved with its backward blocks detached) are shown on their own.
            for (int b = 1; b < m_program.blocks_size() && !m_budget.exceeded(); ++b) {
                if (m_attached[std::size_t(b)])
                    continue;
                const int sub = int(m_graph.subgraphs.size());
                models::graph::Subgraph s;
                s.name = "block_" + std::to_string(b);
                m_graph.subgraphs.push_back(std::move(s));
                if (!addBlock(b, sub, "block_" + std::to_string(b), &values, 1))
                    return false;
            }
        }
        return true;
    }

    int unresolved() const { return m_unresolved; }
    int parameters() const { return m_parameters; }
    int badBlocks() const { return m_badBlocks; }
    int tooDeep() const { return m_tooDeep; }
    const std::string& firstBadBlock() const { return m_firstBadBlock; }

private:
    bool addBody(int owner, int blockIndex, const BlockValues& values, int depth)
    {
        if (m_budget.exceeded())
            return true;
        if (blockIndex <= 0 || blockIndex >= m_program.blocks_size() || m_attached[std::size_t(blockIndex)]) {
            // Block 0, a missing block, or one already shown (a cycle or a block shared by two ops).
            if (m_badBlocks++ == 0)
                m_firstBadBlock = m_graph.nodes[std::size_t(owner)].id;
            return true;
        }
        if (depth + 1 > kMaxBlockNesting) {
            if (m_tooDeep++ == 0)
                m_firstBadBlock = m_graph.nodes[std::size_t(owner)].id;
            return true;
        }
        const int body = int(m_graph.subgraphs.size());
        models::graph::Subgraph s;
        s.name = m_graph.nodes[std::size_t(owner)].id + "/block_" + std::to_string(blockIndex);
        s.owner = owner;
        m_graph.subgraphs.push_back(std::move(s));
        m_graph.nodes[std::size_t(owner)].bodies.push_back(body);
        const std::string bodyScope
            = m_graph.nodes[std::size_t(owner)].fullName() + "/block_" + std::to_string(blockIndex);
        return addBlock(blockIndex, body, bodyScope, &values, depth + 1);
    }

    models::graph::Port inputPort(const std::string& argument, BlockValues& values, int subgraph,
                                  const std::string& scope)
    {
        models::graph::Port port;
        port.name = text::printable(argument);
        const VarDesc* var = values.findVar(argument);
        if (var)
            port.type = varType(*var);
        if (argument.empty() || (var && isListVar(*var)))
            return port;
        const Producer* producer = values.findProducer(argument);
        if (!producer && var) {
            // Weights and fed inputs are nobody's output: they get a node the first time an op reads them, in
            // that op's scope, so a layer's weights fold with it.
            models::graph::Node node;
            node.kind = var->persistable() ? models::graph::NodeKind::Parameter : models::graph::NodeKind::Input;
            node.implicit = true;
            node.opType = var->persistable() ? "Parameter" : "Input";
            node.name = port.name;
            node.scope = scope;
            node.id = m_ids.take(port.name);
            node.subgraph = subgraph;
            models::graph::Port out;
            out.name = port.name;
            out.type = port.type;
            node.outputs.push_back(out);
            if (var->persistable()) {
                models::graph::TensorLocation location;
                location.type = port.type;
                node.data = location;
                node.attributes.push_back({ "persistable", "true" });
                ++m_parameters;
            }
            if (m_budget.exceeded() || !chargeNode(m_budget, node))
                return port;
            const int index = int(m_graph.nodes.size());
            m_graph.nodes.push_back(std::move(node));
            models::graph::Subgraph& s = m_graph.subgraphs[std::size_t(subgraph)];
            s.nodes.push_back(index);
            s.parameters.push_back(index);
            values.producers[argument] = { index, 0 };
            producer = &values.producers[argument];
        }
        if (producer) {
            port.producer = producer->node;
            port.producerSlot = producer->slot;
        } else {
            ++m_unresolved;
        }
        return port;
    }

    /// A scope taken from a variable name that holds one node only is no group, just a longer name. Only the
    /// nodes of this block are looked at: bodies nested below are scoped under their op, which keeps its scope.
    void flattenLoneScopes(const std::vector<std::pair<int, std::string>>& derived, std::size_t first, int subgraph)
    {
        std::unordered_map<std::string, int> ops;
        std::unordered_set<int> fromVariable;
        for (const auto& [node, scope] : derived) {
            ++ops[scope];
            fromVariable.insert(node);
        }
        for (std::size_t i = first; i < m_graph.nodes.size(); ++i) {
            const models::graph::Node& node = m_graph.nodes[i];
            if (node.subgraph != subgraph)
                continue;
            const auto it = ops.find(node.scope);
            if (it == ops.end())
                continue;
            // A weight read by the op makes a group of two (a layer and its weights); an op of a named scope of
            // the same name, or one whose body is scoped below it, makes it a group.
            if (!node.bodies.empty())
                it->second += 2;
            else if (!fromVariable.count(int(i)))
                it->second += node.implicit ? 1 : 2;
        }
        for (std::size_t i = first; i < m_graph.nodes.size(); ++i) {
            models::graph::Node& node = m_graph.nodes[i];
            if (node.subgraph != subgraph || (!node.implicit && !fromVariable.count(int(i))))
                continue;
            const auto it = ops.find(node.scope);
            if (it != ops.end() && it->second == 1) {
                const std::size_t slash = node.scope.rfind('/');
                node.scope = slash == std::string::npos ? std::string() : node.scope.substr(0, slash);
            }
        }
    }

    models::graph::Graph& m_graph;
    const ProgramDesc& m_program;
    ImportBudget& m_budget;
    const ImportControl& m_control;
    UniqueIds m_ids;
    std::vector<bool> m_attached;
    int m_unresolved = 0;
    int m_parameters = 0;
    int m_badBlocks = 0;
    int m_tooDeep = 0;
    std::string m_firstBadBlock;
};

/// The persistable variables of the main block in the order `save_combine` writes them: by name, without the
/// feed and fetch lists and raw variables.
std::vector<std::string> savedParameterNames(const runlens_paddle::ProgramDesc& program)
{
    std::vector<std::string> names;
    if (program.blocks_size() == 0)
        return names;
    for (const runlens_paddle::VarDesc& var : program.blocks(0).vars()) {
        const int type = var.type().type();
        if (var.persistable() && type != kFeedMinibatch && type != kFetchList && type != kRaw)
            names.push_back(var.name());
    }
    std::stable_sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

} // namespace

std::string paddleDataTypeName(int type)
{
    switch (type) {
    case 0:
        return "bool";
    case 1:
        return "int16";
    case 2:
        return "int32";
    case 3:
        return "int64";
    case 4:
        return "float16";
    case 5:
        return "float32";
    case 6:
        return "float64";
    case 19:
        return "size_t";
    case 20:
        return "uint8";
    case 21:
        return "int8";
    case 22:
        return "bfloat16";
    case 23:
        return "complex64";
    case 24:
        return "complex128";
    default:
        return "type" + std::to_string(type);
    }
}

GraphResult PaddleGraphReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    // Paddle 3 writes its programs as PIR JSON (inference.json) instead of a ProgramDesc.
    if (looksLikePaddlePir(bytes.substr(0, 4096)))
        return PaddlePirReader::read(bytes, path, control);
    models::Diagnostics diagnostics;
    if (bytes.empty()) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The file is empty.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    if (bytes.size() > std::size_t(std::numeric_limits<int>::max())) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("The program is larger than 2 GB, the limit of a protobuf "
                                                       "message; it is not a Paddle model.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    ProgramDesc program;
    const std::size_t stop = parseProgram(bytes, program);
    int ops = 0;
    for (const BlockDesc& block : program.blocks())
        ops += block.ops_size();
    if (stop < bytes.size()) {
        const bool anything = ops > 0;
        diagnostics.append(graphDiagnostic(
            anything ? models::Severity::Warning : models::Severity::Error, path,
            anything ? GraphTr::tr("The program is damaged or cut off after byte %1; the %2 ops before it were read.")
                           .arg(stop)
                           .arg(ops)
                     : GraphTr::tr("Not a readable Paddle program: the protobuf data is damaged or of another kind."),
            qint64(stop)));
        if (!anything)
            return publishGraph(nullptr, diagnostics, true);
    }
    if (program.blocks_size() == 0) {
        diagnostics.append(
            graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The Paddle program holds no block.")));
        return publishGraph(nullptr, diagnostics, true);
    }

    auto graph = std::make_unique<models::graph::Graph>();
    graph->path = path;
    graph->format = models::graph::GraphFormat::Paddle;
    graph->name = QFileInfo(path).completeBaseName().toStdString();
    graph->metadata.push_back({ "blocks", std::to_string(program.blocks_size()) });
    if (program.has_version())
        graph->metadata.push_back({ "version", std::to_string(program.version().version()) });
    graph->subgraphs.push_back(models::graph::Subgraph { "block_0", -1, {}, {}, -1 });

    ImportBudget budget { std::int64_t(bytes.size()) };
    Builder builder(*graph, program, budget, control);
    if (!builder.addBlock(0, 0, std::string(), nullptr, 0)) {
        GraphResult result = publishGraph(std::move(graph), diagnostics, true);
        result.canceled = true;
        return result;
    }
    if (budget.exceeded()) {
        dropDanglingProducers(*graph);
        diagnostics.append(budget.diagnostic(path, -1));
    }
    if (builder.parameters() > 0)
        locatePaddleParameters(*graph, savedParameterNames(program), path, builder.parameters(), diagnostics);
    if (builder.badBlocks() > 0)
        diagnostics.append(
            graphDiagnostic(models::Severity::Warning, path,
                            GraphTr::tr("%n sub-block reference(s) name block 0, a block that does not "
                                        "exist or one already shown under another op; they are "
                                        "left out (the first is on op \"%1\").",
                                        nullptr, builder.badBlocks())
                                .arg(QString::fromStdString(text::elide(builder.firstBadBlock(), 200)))));
    if (builder.tooDeep() > 0)
        diagnostics.append(
            graphDiagnostic(models::Severity::Warning, path,
                            GraphTr::tr("Sub-blocks nest deeper than %1 levels; the deeper ones are "
                                        "left out (below op \"%2\").")
                                .arg(kMaxBlockNesting)
                                .arg(QString::fromStdString(text::elide(builder.firstBadBlock(), 200)))));
    if (builder.unresolved() > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Warning, path,
            GraphTr::tr("%n op input(s) name variables the program does not declare.", nullptr, builder.unresolved())));
    return publishGraph(std::move(graph), diagnostics);
}

} // namespace runlens::importers::graph
