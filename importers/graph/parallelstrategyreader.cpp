#include "importers/graph/parallelstrategyreader.h"

#include "importers/core/importbudget.h"
#include "importers/graph/graphtext.h"
#include "importers/graph/uniqueids.h"

#include <simdjson.h>

#include <charconv>
#include <memory>
#include <string>
#include <unordered_map>

namespace runlens::importers::graph {

namespace {

namespace dom = simdjson::dom;

constexpr int kMaxValueDepth = 32; ///< strategies are two levels deep; deeper values are summarised

std::string_view stringField(dom::element object, std::string_view key)
{
    std::string_view text;
    if (object.at_key(key).get_string().get(text))
        return {};
    return text;
}

/// Protobuf JSON writes 64-bit integers as strings and 32-bit ones as numbers: both are read.
bool integerOf(dom::element value, std::int64_t& out)
{
    if (!value.get_int64().get(out))
        return true;
    double d = 0;
    if (!value.get_double().get(d) && d > -9.2e18 && d < 9.2e18) {
        out = std::int64_t(d);
        return true;
    }
    std::string_view text;
    if (value.get_string().get(text))
        return false;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size();
}

bool integerField(dom::element object, std::string_view key, std::int64_t& out)
{
    dom::element value;
    return !object.at_key(key).get(value) && integerOf(value, out);
}

/// A JSON value as compact text: numbers and nested arrays as written (`[[2,1],[1,4]]`).
void appendJson(std::string& out, dom::element value, int depth)
{
    if (depth > kMaxValueDepth) {
        out += "…";
        return;
    }
    switch (value.type()) {
    case dom::element_type::ARRAY: {
        out += '[';
        bool first = true;
        for (dom::element item : dom::array(value)) {
            if (!first)
                out += ',';
            first = false;
            appendJson(out, item, depth + 1);
        }
        out += ']';
        break;
    }
    case dom::element_type::STRING: {
        out += text::printable(std::string(std::string_view(value)));
        break;
    }
    case dom::element_type::INT64:
        out += std::to_string(std::int64_t(value));
        break;
    case dom::element_type::UINT64:
        out += std::to_string(std::uint64_t(value));
        break;
    case dom::element_type::DOUBLE:
        out += std::to_string(double(value));
        break;
    case dom::element_type::BOOL:
        out += bool(value) ? "true" : "false";
        break;
    default:
        out += "{…}";
        break;
    }
}

/// An anf_ir ValueProto in protobuf JSON (`{dtype, intVal | floatVal | strVal | values ...}`) as display
/// text; tuples and lists as `[a,b]`, so a strategy reads `[[2,1],[1,4]]`.
void appendValue(std::string& out, dom::element value, int depth)
{
    if (depth > kMaxValueDepth) {
        out += "…";
        return;
    }
    const std::string_view dtype = stringField(value, "dtype");
    dom::array values;
    if (dtype == "DT_TUPLE" || dtype == "DT_LIST" || !value.at_key("values").get(values)) {
        out += '[';
        bool first = true;
        if (!value.at_key("values").get(values)) {
            for (dom::element item : values) {
                if (!first)
                    out += ',';
                first = false;
                appendValue(out, item, depth + 1);
            }
        }
        out += ']';
        return;
    }
    for (const char* key : { "intVal", "uintVal", "floatVal", "doubleVal", "boolVal", "strVal" }) {
        dom::element field;
        if (!value.at_key(key).get(field)) {
            if (std::string_view(key) == "boolVal") {
                std::int64_t flag = 0;
                bool b = false;
                if (!field.get_bool().get(b))
                    out += b ? "true" : "false";
                else
                    out += integerOf(field, flag) && flag ? "true" : "false";
            } else {
                appendJson(out, field, depth + 1);
            }
            return;
        }
    }
    std::string_view typeName;
    if (!value.at_key("typeVal").at_key("dataType").get_string().get(typeName)) {
        out += text::printable(std::string(typeName));
        return;
    }
    out += dtype.empty() ? std::string("?") : text::printable(std::string(dtype));
}

std::string elementTypeName(std::string_view anfType)
{
    // DT_FLOAT32 -> float32
    std::string name(anfType.substr(anfType.rfind('_') == std::string_view::npos ? 0 : anfType.find('_') + 1));
    for (char& c : name)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return name;
}

models::graph::TensorType typeOf(dom::element typeProto)
{
    models::graph::TensorType type;
    dom::element tensor;
    if (typeProto.at_key("tensorType").get(tensor))
        return type;
    type.dtype = elementTypeName(stringField(tensor, "elemType"));
    dom::array dims;
    if (!tensor.at_key("shape").at_key("dim").get(dims)) {
        type.rankKnown = true;
        for (dom::element dim : dims) {
            std::int64_t size = -1;
            if (!integerField(dim, "size", size))
                size = -1;
            type.dims.push_back(size);
        }
    }
    return type;
}

class Reader
{
public:
    Reader(const QString& path, const ImportControl& control, std::int64_t inputBytes)
        : m_path(path)
        , m_control(control)
        , m_budget(inputBytes)
        , m_graph(std::make_unique<models::graph::Graph>())
    {
        m_graph->path = path;
        m_graph->format = models::graph::GraphFormat::ParallelStrategy;
    }

    GraphResult read(std::string_view bytes)
    {
        dom::parser parser;
        dom::element root;
        const simdjson::padded_string padded(bytes.data(), bytes.size());
        if (const auto error = parser.parse(padded).get(root)) {
            fail(GraphTr::tr("Not a valid JSON document (%1): a parallel strategy file is the JSON MindSpore "
                             "writes with the profiler or strategy_ckpt_config.")
                     .arg(QString::fromUtf8(simdjson::error_message(error))));
            return publishGraph(nullptr, m_diagnostics, true);
        }
        dom::object top;
        if (root.get_object().get(top)) {
            fail(GraphTr::tr("The file holds no JSON object: a parallel strategy file starts with { \"config\" … } or "
                             "{ \"current_stage\" … }."));
            return publishGraph(nullptr, m_diagnostics, true);
        }
        dom::element graph;
        dom::element items;
        if (!root.at_key("graph").get(graph)) {
            readProfilerStrategy(root, graph);
        } else if (!root.at_key("parallel_strategy_item").get(items) || !root.at_key("parallel_layout_item").error()
                   || !root.at_key("current_stage").error()) {
            readCheckpoint(root);
        } else {
            fail(GraphTr::tr("Neither a profiler parallel strategy (no \"graph\" key) nor a strategy checkpoint (no "
                             "\"parallel_strategy_item\" key)."));
            return publishGraph(nullptr, m_diagnostics, true);
        }
        if (m_canceled) {
            GraphResult result = publishGraph(nullptr, m_diagnostics, true);
            result.canceled = true;
            return result;
        }
        if (m_skipped > 0)
            m_diagnostics.append(
                graphDiagnostic(models::Severity::Warning, m_path,
                                GraphTr::tr("%n entry(ies) without a name or of the wrong type were skipped.", nullptr,
                                            int(m_skipped))));
        if (m_budget.exceeded())
            m_diagnostics.append(m_budget.diagnostic(m_path, -1));
        if (m_graph->nodes.empty())
            m_diagnostics.append(graphDiagnostic(models::Severity::Warning, m_path,
                                                 GraphTr::tr("The strategy file lists no operators.")));
        return publishGraph(std::move(m_graph), m_diagnostics);
    }

private:
    void fail(const QString& message)
    {
        m_diagnostics.append(graphDiagnostic(models::Severity::Error, m_path, message));
    }

    bool keepGoing()
    {
        if ((++m_visited & 1023) == 0 && m_control.canceled())
            m_canceled = true;
        return !m_canceled && !m_budget.exceeded();
    }

    int addNode(models::graph::Node node)
    {
        boundScope(node.scope);
        node.id = m_ids.take(node.id);
        if (!chargeNode(m_budget, node))
            return -1;
        m_graph->nodes.push_back(std::move(node));
        return int(m_graph->nodes.size()) - 1;
    }

    void addStage(models::graph::Node& node, std::int64_t stage)
    {
        if (stage < 0 || stage > 1'000'000)
            return;
        node.stage = int(stage);
        node.attributes.push_back({ "stage", std::to_string(stage) });
    }

    void readProfilerStrategy(dom::element root, dom::element graph)
    {
        dom::element config;
        std::int64_t stage = -1;
        std::int64_t rank = -1;
        if (!root.at_key("config").get(config)) {
            // stageId is left out by protobuf JSON when it is 0.
            if (!integerField(config, "stageId", stage))
                stage = 0;
            if (integerField(config, "rankId", rank))
                m_graph->metadata.push_back({ "rank", std::to_string(rank) });
            const std::string_view type = stringField(config, "parallelType");
            if (!type.empty())
                m_graph->metadata.push_back({ "parallel type", text::printable(std::string(type)) });
            m_graph->metadata.push_back({ "stage", std::to_string(stage) });
            dom::element devices;
            if (!config.at_key("stageDevices").get(devices)) {
                std::string text;
                dom::array stages;
                if (!devices.get_array().get(stages)) {
                    text += '[';
                    bool first = true;
                    for (dom::element s : stages) {
                        dom::element dims;
                        if (s.at_key("dim").get(dims))
                            continue;
                        std::vector<std::int64_t> ranks;
                        dom::array dimArray;
                        if (!dims.get_array().get(dimArray)) {
                            for (dom::element d : dimArray) {
                                std::int64_t v = 0;
                                if (integerField(d, "size", v))
                                    ranks.push_back(v);
                            }
                        }
                        text += first ? "[" : ",[";
                        first = false;
                        for (std::size_t i = 0; i < ranks.size(); ++i)
                            text += (i ? "," : "") + std::to_string(ranks[i]);
                        text += ']';
                    }
                    text += ']';
                    m_graph->metadata.push_back({ "stage devices", text });
                }
            }
        } else {
            m_diagnostics.append(
                graphDiagnostic(models::Severity::Warning, m_path,
                                GraphTr::tr("No \"config\": the rank and pipeline stage are unknown.")));
        }
        m_graph->name = "parallel strategy" + (rank >= 0 ? " (rank " + std::to_string(rank) + ")" : std::string());
        std::string_view name = stringField(graph, "name");
        if (!name.empty())
            m_graph->name = text::printable(std::string(name));

        std::unordered_map<std::string, int> producers;
        dom::array list;
        if (!graph.at_key("parameters").get_array().get(list)) {
            for (dom::element parameter : list) {
                if (!keepGoing())
                    return;
                const std::string_view id = stringField(parameter, "name");
                if (id.empty()) {
                    ++m_skipped;
                    continue;
                }
                models::graph::Node node;
                node.kind = models::graph::NodeKind::Parameter;
                node.implicit = true;
                node.opType = "Parameter";
                node.id = node.name = text::printable(std::string(id));
                models::graph::Port out;
                out.name = node.id;
                dom::element type;
                if (!parameter.at_key("type").get(type))
                    out.type = typeOf(type);
                node.outputs.push_back(std::move(out));
                const int index = addNode(std::move(node));
                if (index >= 0)
                    producers.emplace(std::string(id), index);
            }
        }
        if (!graph.at_key("constVals").get_array().get(list)) {
            for (dom::element constant : list) {
                if (!keepGoing())
                    return;
                const std::string_view id = stringField(constant, "key");
                if (id.empty()) {
                    ++m_skipped;
                    continue;
                }
                models::graph::Node node;
                node.kind = models::graph::NodeKind::Constant;
                node.implicit = true;
                node.opType = "Const";
                node.id = node.name = text::printable(std::string(id));
                dom::element value;
                if (!constant.at_key("value").get(value)) {
                    std::string text;
                    appendValue(text, value, 0);
                    node.attributes.push_back({ "value", text::elide(text, 200) });
                }
                node.outputs.push_back({ node.id, {}, -1, 0, false });
                const int index = addNode(std::move(node));
                if (index >= 0)
                    producers.emplace(std::string(id), index);
            }
        }
        if (graph.at_key("node").get_array().get(list)) {
            m_diagnostics.append(
                graphDiagnostic(models::Severity::Warning, m_path, GraphTr::tr("The graph has no \"node\" list.")));
            return;
        }
        // Ops name their inputs by op name ("12"), parameter name or constant key; ops come in file order,
        // which is not always topological, so names are resolved after all ops are in.
        std::vector<std::pair<int, std::vector<std::string>>> pending;
        for (dom::element op : list) {
            if (!keepGoing())
                return;
            const std::string_view id = stringField(op, "name");
            if (id.empty() || op.type() != dom::element_type::OBJECT) {
                ++m_skipped;
                continue;
            }
            models::graph::Node node;
            node.opType = text::printable(std::string(stringField(op, "opType")));
            node.scope = text::printable(std::string(stringField(op, "scope")));
            const std::string fullName = text::printable(std::string(stringField(op, "fullName")));
            const std::size_t slash = fullName.rfind('/');
            node.name = fullName.empty() ? node.opType + "-op" + std::string(id)
                                         : (slash == std::string::npos ? fullName : fullName.substr(slash + 1));
            node.id = text::printable(std::string(id));
            std::string strategy;
            std::string generated;
            dom::array attributes;
            if (!op.at_key("attribute").get_array().get(attributes)) {
                for (dom::element attribute : attributes) {
                    const std::string_view key = stringField(attribute, "name");
                    dom::element value;
                    if (key.empty() || attribute.at_key("value").get(value))
                        continue;
                    std::string text;
                    appendValue(text, value, 0);
                    if (key == "in_strategy" || key == "strategy")
                        strategy = text;
                    else if (key == "gen_strategy")
                        generated = text; // the strategy the search chose; equal to in_strategy when both exist
                    else
                        node.attributes.push_back({ text::printable(std::string(key)), text::elide(text, 1000) });
                }
            }
            if (strategy.empty())
                strategy = generated;
            if (!strategy.empty())
                node.attributes.insert(node.attributes.begin(), { "strategy", text::elide(strategy, 1000) });
            addStage(node, stage);
            const std::string_view instance = stringField(op, "instanceName");
            if (instance.find("grad_mirror") != std::string_view::npos)
                node.attributes.push_back({ "role", "gradient aggregation" });
            else if (instance.find("redistribution") != std::string_view::npos)
                node.attributes.push_back({ "role", "redistribution" });
            models::graph::Port out;
            dom::element type;
            if (!op.at_key("outputType").get(type))
                out.type = typeOf(type);
            node.outputs.push_back(std::move(out));
            std::vector<std::string> inputs;
            dom::array inputList;
            if (!op.at_key("input").get_array().get(inputList)) {
                for (dom::element input : inputList) {
                    const std::string_view from = stringField(input, "name");
                    if (from.empty())
                        continue;
                    inputs.emplace_back(from);
                    models::graph::Port port;
                    port.name = text::printable(std::string(from));
                    port.control = stringField(input, "type") == "CONTROL_EDGE";
                    node.inputs.push_back(std::move(port));
                }
            }
            const int index = addNode(std::move(node));
            if (index < 0)
                return;
            producers.emplace(std::string(id), index);
            pending.emplace_back(index, std::move(inputs));
        }
        for (auto& [index, inputs] : pending) {
            models::graph::Node& node = m_graph->nodes[std::size_t(index)];
            for (std::size_t i = 0; i < inputs.size() && i < node.inputs.size(); ++i) {
                if (const auto found = producers.find(inputs[i]); found != producers.end())
                    node.inputs[i].producer = found->second;
            }
        }
    }

    void readCheckpoint(dom::element root)
    {
        m_graph->name = "strategy checkpoint";
        std::int64_t current = -1;
        if (integerField(root, "current_stage", current))
            m_graph->metadata.push_back({ "current stage", std::to_string(current) });
        dom::object items;
        if (!root.at_key("parallel_strategy_item").get_object().get(items)) {
            for (const dom::key_value_pair item : items) {
                if (!keepGoing())
                    return;
                if (item.key.empty() || item.value.type() != dom::element_type::OBJECT) {
                    ++m_skipped;
                    continue;
                }
                const std::string fullName = text::printable(std::string(item.key));
                models::graph::Node node;
                node.id = fullName;
                const std::size_t slash = fullName.rfind('/');
                node.name = slash == std::string::npos ? fullName : fullName.substr(slash + 1);
                node.scope = slash == std::string::npos ? std::string() : fullName.substr(0, slash);
                // "MatMul-op12" -> MatMul
                const std::size_t dash = node.name.rfind("-op");
                node.opType = dash == std::string::npos || dash == 0 ? node.name : node.name.substr(0, dash);
                dom::element strategy;
                if (!item.value.at_key("parallel_strategy").get(strategy)) {
                    std::string text;
                    appendJson(text, strategy, 0);
                    node.attributes.push_back({ "strategy", text::elide(text, 1000) });
                }
                std::int64_t stage = -1;
                if (integerField(item.value, "stage", stage))
                    addStage(node, stage);
                node.outputs.push_back({});
                if (addNode(std::move(node)) < 0)
                    return;
            }
        }
        dom::object layouts;
        if (!root.at_key("parallel_layout_item").get_object().get(layouts)) {
            for (const dom::key_value_pair layout : layouts) {
                if (!keepGoing())
                    return;
                if (layout.key.empty() || layout.value.type() != dom::element_type::OBJECT) {
                    ++m_skipped;
                    continue;
                }
                models::graph::Node node;
                node.kind = models::graph::NodeKind::Parameter;
                node.opType = "Parameter";
                node.id = node.name = text::printable(std::string(layout.key));
                for (const dom::key_value_pair field : dom::object(layout.value)) {
                    std::string text;
                    appendJson(text, field.value, 0);
                    node.attributes.push_back({ text::printable(std::string(field.key)), text::elide(text, 1000) });
                }
                node.outputs.push_back({});
                if (addNode(std::move(node)) < 0)
                    return;
            }
        }
    }

    QString m_path;
    const ImportControl& m_control;
    ImportBudget m_budget;
    std::unique_ptr<models::graph::Graph> m_graph;
    models::Diagnostics m_diagnostics;
    UniqueIds m_ids;
    std::int64_t m_skipped = 0;
    std::uint64_t m_visited = 0;
    bool m_canceled = false;
};

} // namespace

GraphResult ParallelStrategyReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    Reader reader(path, control, std::int64_t(bytes.size()));
    return reader.read(bytes);
}

} // namespace runlens::importers::graph
