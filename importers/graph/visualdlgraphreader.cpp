#include "importers/graph/visualdlgraphreader.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/uniqueids.h"

#include <simdjson.h>

#include <unordered_map>
#include <unordered_set>

namespace runlens::importers::graph {

namespace {

namespace dom = simdjson::dom;

std::string_view stringField(dom::element object, std::string_view key)
{
    std::string_view out;
    if (object.at_key(key).get_string().get(out))
        return {};
    return out;
}

/// "paddle.float32", "VarType.FP32", "float32" -> "float32".
std::string dtypeName(std::string_view dtype)
{
    static const std::pair<std::string_view, std::string_view> kVarTypes[]
        = { { "BOOL", "bool" },    { "INT16", "int16" },  { "INT32", "int32" },  { "INT64", "int64" },
            { "FP16", "float16" }, { "FP32", "float32" }, { "FP64", "float64" }, { "UINT8", "uint8" },
            { "INT8", "int8" },    { "BF16", "bfloat16" } };
    const std::size_t dot = dtype.rfind('.');
    const std::string_view last = dot == std::string_view::npos ? dtype : dtype.substr(dot + 1);
    for (const auto& [from, to] : kVarTypes) {
        if (last == from)
            return std::string(to);
    }
    return text::printable(last);
}

struct Variable
{
    models::graph::TensorType type;
    bool persistable = false;
    bool list = false; ///< the feed or fetch list, not a tensor of the model
};

Variable variableOf(dom::element var)
{
    Variable out;
    out.type.dtype = dtypeName(stringField(var, "dtype"));
    dom::array shape;
    if (!var.at_key("shape").get(shape)) {
        out.type.rankKnown = true;
        for (dom::element d : shape) {
            std::int64_t v = -1;
            if (d.get_int64().get(v))
                v = -1;
            out.type.dims.push_back(v);
        }
    }
    bool persistable = false;
    if (!var.at_key("persistable").get_bool().get(persistable))
        out.persistable = persistable;
    const std::string_view type = stringField(var, "type");
    out.list
        = type.find("FEED_MINIBATCH") != std::string_view::npos || type.find("FETCH_LIST") != std::string_view::npos;
    return out;
}

/// "/MyNet[model]/Conv2D[conv1]/conv2d_0" -> ("MyNet[model]/Conv2D[conv1]", "conv2d_0").
std::pair<std::string, std::string> splitName(std::string_view name)
{
    return text::splitScope(text::printable(name));
}

class Reader
{
public:
    Reader(const QString& path, const ImportControl& control, std::size_t size)
        : m_path(path)
        , m_control(control)
        , m_budget(std::int64_t(size))
        , m_graph(std::make_unique<models::graph::Graph>())
    {
        m_graph->path = path;
        m_graph->format = models::graph::GraphFormat::VisualDlGraph;
        m_graph->subgraphs.push_back(models::graph::Subgraph { "main", -1, {}, {}, -1 });
    }

    GraphResult read(std::string_view bytes)
    {
        dom::parser parser;
        dom::element root;
        const simdjson::padded_string padded(bytes.data(), bytes.size());
        if (const auto error = parser.parse(padded).get(root))
            return fail(GraphTr::tr("Not a valid JSON document (%1): a VisualDL graph file is the JSON that "
                                    "LogWriter.add_graph writes.")
                            .arg(QString::fromUtf8(simdjson::error_message(error))));
        dom::array nodes;
        if (root.at_key("nodes").get_array().get(nodes))
            return fail(GraphTr::tr("The file holds no \"nodes\" list: it is not a VisualDL graph."));
        const std::string_view version = stringField(root, "version");
        if (!version.empty())
            m_graph->metadata.push_back({ "version", text::printable(version) });

        dom::array vars;
        if (!root.at_key("vars").get_array().get(vars)) {
            for (dom::element var : vars) {
                const std::string_view name = stringField(var, "name");
                if (!name.empty())
                    m_vars.emplace(std::string(name), variableOf(var));
            }
        }

        // Leaf nodes are the ops; register their outputs first, the file lists nodes in no useful order.
        std::vector<dom::element> ops;
        for (dom::element node : nodes) {
            bool leaf = false;
            dom::array children;
            if (node.at_key("is_leaf_node").get_bool().get(leaf))
                leaf = !node.at_key("children_node").get_array().get(children) && children.size() == 0;
            if (leaf && stringField(node, "name") != "/")
                ops.push_back(node);
        }
        const int first = 0;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            int slot = 0;
            forEachVariable(ops[i], "output_vars", [&](std::string_view, std::string_view var) {
                m_producers[std::string(var)] = { first + int(i), slot++ };
            });
        }
        for (std::size_t i = 0; i < ops.size() && !m_budget.exceeded(); ++i) {
            if ((i & 1023) == 0 && m_control.canceled()) {
                GraphResult result = publishGraph(nullptr, m_diagnostics, true);
                result.canceled = true;
                return result;
            }
            addOp(ops[i], int(i));
        }
        // Inputs named producers by op number; now that implicit nodes sit between ops, map them to nodes.
        for (models::graph::Node& node : m_graph->nodes) {
            for (models::graph::Port& port : node.inputs) {
                if (port.producer >= kOpBase) {
                    const int op = port.producer - kOpBase;
                    port.producer = op < int(m_opIndex.size()) ? m_opIndex[std::size_t(op)] : -1;
                }
            }
        }
        if (m_budget.exceeded()) {
            dropDanglingProducers(*m_graph);
            m_diagnostics.append(m_budget.diagnostic(m_path, -1));
        }
        if (m_parameters > 0)
            m_diagnostics.append(graphDiagnostic(
                models::Severity::Info, m_path,
                GraphTr::tr("%n parameter(s) are shown with shape and type only: a VisualDL graph file does not hold "
                            "their values.",
                            nullptr, m_parameters)));
        if (m_unresolved > 0)
            m_diagnostics.append(graphDiagnostic(
                models::Severity::Warning, m_path,
                GraphTr::tr("%n op input(s) name variables the file does not list.", nullptr, m_unresolved)));
        return publishGraph(std::move(m_graph), m_diagnostics);
    }

private:
    // Producers point at op numbers offset by this until the ops have node indices.
    static constexpr int kOpBase = 1 << 30;

    struct Producer
    {
        int op = -1;
        int slot = 0;
    };

    GraphResult fail(const QString& message)
    {
        m_diagnostics.append(graphDiagnostic(models::Severity::Error, m_path, message));
        return publishGraph(nullptr, m_diagnostics, true);
    }

    template<class Visit> static void forEachVariable(dom::element node, std::string_view key, Visit visit)
    {
        dom::object slotMap;
        if (node.at_key(key).get_object().get(slotMap))
            return;
        for (dom::key_value_pair slot : slotMap) {
            dom::array list;
            if (slot.value.get_array().get(list))
                continue;
            for (dom::element var : list) {
                std::string_view name;
                if (!var.get_string().get(name))
                    visit(slot.key, name);
            }
        }
    }

    void addOp(dom::element op, int opNumber)
    {
        models::graph::Node node;
        const std::string_view fullName = stringField(op, "name");
        auto [scope, name] = splitName(fullName);
        node.scope = scope;
        node.opType = text::printable(stringField(op, "type"));
        node.name = name.empty() ? node.opType : name;
        node.id = m_ids.take(node.scope.empty() ? node.name : node.scope + "/" + node.name);
        dom::object attrs;
        if (!op.at_key("attrs").get_object().get(attrs)) {
            for (dom::key_value_pair a : attrs) {
                if (a.key == "op_callstack") {
                    // Innermost frame first, as Paddle keeps op_callstack; the parser reads traceback order.
                    std::string trace;
                    dom::array frames;
                    if (!a.value.get_array().get(frames)) {
                        for (dom::element frame : frames) {
                            std::string_view f;
                            if (!frame.get_string().get(f))
                                trace.insert(0, std::string(f) + '\n');
                        }
                    }
                    bool cut = false;
                    node.sources = stackTraceSources(trace, cut);
                    continue;
                }
                std::string_view s;
                std::string value = !a.value.get_string().get(s) ? text::printable(s) : simdjson::minify(a.value);
                node.attributes.push_back({ text::printable(a.key), text::elide(std::move(value)) });
            }
        }
        forEachVariable(op, "input_vars", [&](std::string_view slot, std::string_view var) {
            node.inputs.push_back(inputPort(var, opNumber, node.scope));
            node.attributes.push_back({ "input:" + text::printable(slot), text::printable(var) });
        });
        forEachVariable(op, "output_vars", [&](std::string_view slot, std::string_view var) {
            models::graph::Port port;
            port.name = text::printable(var);
            const auto it = m_vars.find(std::string(var));
            if (it != m_vars.end())
                port.type = it->second.type;
            node.outputs.push_back(std::move(port));
            node.attributes.push_back({ "output:" + text::printable(slot), text::printable(var) });
        });
        if (!chargeNode(m_budget, node)) {
            m_opIndex.push_back(-1);
            return;
        }
        m_opIndex.push_back(int(m_graph->nodes.size()));
        m_graph->subgraphs[0].nodes.push_back(int(m_graph->nodes.size()));
        m_graph->nodes.push_back(std::move(node));
    }

    models::graph::Port inputPort(std::string_view var, int opNumber, const std::string& scope)
    {
        models::graph::Port port;
        port.name = text::printable(var);
        const std::string key(var);
        const auto v = m_vars.find(key);
        if (v != m_vars.end())
            port.type = v->second.type;
        if (v != m_vars.end() && v->second.list)
            return port;
        const auto p = m_producers.find(key);
        // An op that updates a variable in place (batch_norm's moving mean) is not its own input.
        if (p != m_producers.end() && p->second.op != opNumber) {
            port.producer = kOpBase + p->second.op;
            port.producerSlot = p->second.slot;
            return port;
        }
        const auto made = m_implicit.find(key);
        if (made != m_implicit.end()) {
            port.producer = made->second;
            return port;
        }
        if (v == m_vars.end()) {
            ++m_unresolved;
            return port;
        }
        models::graph::Node node;
        node.kind = v->second.persistable ? models::graph::NodeKind::Parameter : models::graph::NodeKind::Input;
        node.implicit = true;
        node.opType = v->second.persistable ? "Parameter" : "Input";
        node.name = port.name;
        node.scope = scope;
        node.id = m_ids.take(port.name);
        models::graph::Port out;
        out.name = port.name;
        out.type = port.type;
        node.outputs.push_back(out);
        if (v->second.persistable) {
            models::graph::TensorLocation location;
            location.type = port.type;
            node.data = location;
            ++m_parameters;
        }
        if (m_budget.exceeded() || !chargeNode(m_budget, node))
            return port;
        const int index = int(m_graph->nodes.size());
        m_graph->nodes.push_back(std::move(node));
        m_graph->subgraphs[0].nodes.push_back(index);
        m_graph->subgraphs[0].parameters.push_back(index);
        m_implicit.emplace(key, index);
        port.producer = index;
        return port;
    }

    QString m_path;
    const ImportControl& m_control;
    ImportBudget m_budget;
    std::unique_ptr<models::graph::Graph> m_graph;
    models::Diagnostics m_diagnostics;
    UniqueIds m_ids;
    std::unordered_map<std::string, Variable> m_vars;
    std::unordered_map<std::string, Producer> m_producers;
    std::unordered_map<std::string, int> m_implicit;
    std::vector<int> m_opIndex;
    int m_parameters = 0;
    int m_unresolved = 0;
};

} // namespace

GraphResult VisualDlGraphReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    if (bytes.empty()) {
        models::Diagnostics diagnostics;
        diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The file is empty.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    Reader reader(path, control, bytes.size());
    return reader.read(bytes);
}

} // namespace runlens::importers::graph
