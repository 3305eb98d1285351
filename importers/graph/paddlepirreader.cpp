#include "importers/graph/paddlepirreader.h"

#include "importers/core/jsonscan.h"
#include "importers/graph/graphtext.h"
#include "importers/graph/paddleparams.h"
#include "importers/graph/uniqueids.h"

#include <simdjson.h>

#include <QFileInfo>

#include <algorithm>
#include <unordered_map>

// The format (Paddle paddle/fluid/pir/serialize_deserialize: schema.h names the keys, ir_serialize.cc writes
// them): a program is `regions` of `blocks` of `ops`; an op is {"#": name, "I": operands, "O": results,
// "A": attributes, "OA": result attributes, "regions": [...]}; a value is {"%" or "#": id, "TT": type}; a
// type or attribute is {"#": kind, "D": data}. Dialect prefixes are compressed to digits: 0 builtin,
// 1 pd_op, 2 cf, 3 custom_op, 4 dist_op.

namespace runlens::importers::graph {

namespace {

namespace dom = simdjson::dom;

constexpr int kMaxRegionNesting = 16; ///< if/while bodies nest a few levels in real programs
constexpr std::size_t kMaxAttributeText = 512;

std::string_view stringOf(dom::element e)
{
    std::string_view s;
    return e.get_string().get(s) ? std::string_view() : s;
}

std::string_view stringField(dom::element e, std::string_view key)
{
    dom::element value;
    return e.at_key(key).get(value) ? std::string_view() : stringOf(value);
}

/// "1.matmul" → "pd_op.matmul", "p" → "builtin.parameter"; names already spelled out stay.
std::string opName(std::string_view compressed)
{
    if (compressed == "p")
        return "builtin.parameter";
    static const std::pair<std::string_view, std::string_view> kDialects[]
        = { { "0", "builtin" }, { "1", "pd_op" }, { "2", "cf" }, { "3", "custom_op" }, { "4", "dist_op" } };
    const std::size_t dot = compressed.find('.');
    if (dot != std::string_view::npos) {
        for (const auto& [id, dialect] : kDialects) {
            if (compressed.substr(0, dot) == id)
                return std::string(dialect) + std::string(compressed.substr(dot));
        }
    }
    return text::printable(compressed);
}

/// "0.t_f32" → "float32"; empty for types that are not a plain element type.
std::string elementTypeName(std::string_view id)
{
    static const std::pair<std::string_view, std::string_view> kTypes[] = {
        { "t_f16", "float16" }, { "t_bf16", "bfloat16" }, { "t_f32", "float32" },   { "t_f64", "float64" },
        { "t_i8", "int8" },     { "t_ui8", "uint8" },     { "t_i16", "int16" },     { "t_i32", "int32" },
        { "t_i64", "int64" },   { "t_bool", "bool" },     { "t_c64", "complex64" }, { "t_c128", "complex128" },
        { "t_index", "index" },
    };
    const std::size_t dot = id.rfind('.');
    const std::string_view last = dot == std::string_view::npos ? id : id.substr(dot + 1);
    for (const auto& [from, to] : kTypes) {
        if (last == from)
            return std::string(to);
    }
    return {};
}

/// A value's `TT`: dense tensors give dtype and shape; other types keep their kind as the dtype.
models::graph::TensorType typeOf(dom::element value)
{
    models::graph::TensorType type;
    dom::element tt;
    if (value.at_key("TT").get(tt))
        return type;
    const std::string_view kind = stringField(tt, "#");
    dom::array data;
    if (kind.size() >= 9 && kind.substr(kind.size() - 9) == "t_dtensor" && !tt.at_key("D").get_array().get(data)) {
        std::size_t i = 0;
        for (dom::element part : data) {
            if (i == 0) {
                type.dtype = elementTypeName(stringField(part, "#"));
            } else if (i == 1) {
                dom::array dims;
                if (!part.get_array().get(dims)) {
                    type.rankKnown = true;
                    for (dom::element d : dims) {
                        std::int64_t v = -1;
                        if (d.get_int64().get(v) || v < -1)
                            v = -1;
                        type.dims.push_back(v);
                        if (type.dims.size() >= 64)
                            break;
                    }
                }
                break;
            }
            ++i;
        }
    } else if (!kind.empty()) {
        const std::size_t dot = kind.rfind('.');
        type.dtype = text::printable(dot == std::string_view::npos ? kind : kind.substr(dot + 1));
    }
    return type;
}

/// A value's number (true when there is one): `%` in the files the design notes show, `#` in those ir_serialize.cc
/// writes. 0 is "no value"; block arguments are negative.
bool valueId(dom::element value, std::int64_t& id)
{
    if (!value.get_int64().get(id))
        return true;
    return !value.at_key("%").get_int64().get(id) || !value.at_key("#").get_int64().get(id);
}

std::string attributeText(dom::element data)
{
    std::string_view s;
    if (!data.get_string().get(s))
        return text::elide(text::printable(s), kMaxAttributeText);
    return text::elide(simdjson::minify(data), kMaxAttributeText);
}

/// "linear_0.w_0" → "linear_0": the layer a parameter belongs to by Paddle's naming; empty otherwise.
std::string layerOf(const std::string& parameter)
{
    const std::size_t dot = parameter.find('.');
    if (dot == std::string::npos || dot == 0)
        return {};
    return parameter.substr(0, dot);
}

class Builder
{
public:
    Builder(models::graph::Graph& graph, ImportBudget& budget, const ImportControl& control)
        : m_graph(graph)
        , m_budget(budget)
        , m_control(control)
    { }

    /// False when cancelled.
    bool addRegions(dom::array regions, int subgraph, const std::string& scope, int depth)
    {
        for (dom::element region : regions) {
            dom::array blocks;
            if (region.at_key("blocks").get_array().get(blocks))
                continue;
            for (dom::element block : blocks) {
                if (!addBlock(block, subgraph, scope, depth))
                    return false;
            }
        }
        return true;
    }

    int parameters() const { return int(m_parameterNames.size()); }
    const std::vector<std::string>& parameterNames() const { return m_parameterNames; }
    int unresolved() const { return m_unresolved; }
    int tooDeep() const { return m_tooDeep; }
    int ops() const { return m_ops; }

private:
    struct Producer
    {
        int node = -1;
        int slot = 0;
    };

    bool addBlock(dom::element block, int subgraph, const std::string& scope, int depth)
    {
        dom::array ops;
        if (block.at_key("ops").get_array().get(ops))
            return true;
        for (dom::element op : ops) {
            if (m_budget.exceeded())
                return true;
            if ((++m_ops & 1023) == 0 && m_control.canceled())
                return false;
            if (!addOp(op, subgraph, scope, depth))
                return false;
        }
        return true;
    }

    std::vector<dom::element> results(dom::element op)
    {
        std::vector<dom::element> out;
        dom::element o;
        if (op.at_key("O").get(o))
            return out;
        dom::array list;
        if (!o.get_array().get(list)) {
            for (dom::element r : list)
                out.push_back(r);
        } else if (o.is_object()) {
            out.push_back(o); // a compressed parameter op has its one result as an object
        }
        return out;
    }

    bool addOp(dom::element op, int subgraph, const std::string& scope, int depth)
    {
        const std::string_view rawName = stringField(op, "#");
        models::graph::Node node;
        node.opType = opName(rawName);
        node.subgraph = subgraph;
        const bool parameter = node.opType == "builtin.parameter";
        dom::array attributes;
        const bool hasAttributes = !op.at_key("A").get_array().get(attributes);

        if (parameter) {
            // Compressed: [is_distributed, is_parameter, need_clip, parameter_name]; else named attributes.
            std::string name;
            if (hasAttributes) {
                for (dom::element a : attributes) {
                    if (a.is_string())
                        name = text::printable(stringOf(a));
                    else if (dom::element data;
                             stringField(a, "N") == "parameter_name" && !a.at_key("AT").at_key("D").get(data))
                        name = attributeText(data);
                }
            }
            node.kind = models::graph::NodeKind::Parameter;
            node.implicit = true;
            node.name = name.empty() ? std::string("parameter") : name;
            node.opType = "Parameter";
            node.scope = layerOf(name);
            if (!name.empty())
                m_parameterNames.push_back(name);
        } else {
            const std::size_t dot = node.opType.find('.');
            node.name = dot == std::string::npos ? node.opType : node.opType.substr(dot + 1);
            if (node.opType == "pd_op.data")
                node.kind = models::graph::NodeKind::Input;
            else if (node.opType == "pd_op.fetch")
                node.kind = models::graph::NodeKind::Output;
            if (hasAttributes) {
                for (dom::element a : attributes) {
                    const std::string_view key = stringField(a, "N");
                    dom::element data;
                    if (key.empty() || a.at_key("AT").at_key("D").get(data))
                        continue;
                    node.attributes.push_back({ text::printable(key), attributeText(data) });
                    if (key == "name"
                        && (node.kind == models::graph::NodeKind::Input
                            || node.kind == models::graph::NodeKind::Output))
                        node.name = attributeText(data);
                }
            }
        }

        // Operands: their producers, and the layer of the first parameter read.
        std::string layer;
        dom::array operands;
        if (!op.at_key("I").get_array().get(operands)) {
            for (dom::element operand : operands) {
                models::graph::Port port;
                std::int64_t id = 0;
                if (valueId(operand, id) && id != 0) {
                    const auto it = m_values.find(id);
                    if (it != m_values.end()) {
                        port.producer = it->second.node;
                        port.producerSlot = it->second.slot;
                        const models::graph::Node& producer = m_graph.nodes[std::size_t(it->second.node)];
                        port.type = producer.outputs.at(std::size_t(it->second.slot)).type;
                        port.name = producer.outputs.at(std::size_t(it->second.slot)).name;
                        if (producer.kind == models::graph::NodeKind::Parameter && layer.empty())
                            layer = producer.scope;
                    } else if (id > 0) {
                        ++m_unresolved;
                    }
                    if (port.name.empty())
                        port.name = "%" + std::to_string(id);
                }
                node.inputs.push_back(std::move(port));
            }
        }
        if (!parameter)
            node.scope = scope.empty() ? layer : (layer.empty() ? scope : scope + "/" + layer);

        const std::vector<dom::element> outs = results(op);
        for (dom::element value : outs) {
            models::graph::Port port;
            port.type = typeOf(value);
            std::int64_t id = 0;
            if (valueId(value, id) && id != 0)
                port.name = parameter ? node.name : "%" + std::to_string(id);
            node.outputs.push_back(std::move(port));
        }
        node.id = m_ids.take(parameter ? node.name : (node.scope.empty() ? node.name : node.scope + "/" + node.name));
        if (parameter) {
            models::graph::TensorLocation location;
            location.type = node.outputs.empty() ? models::graph::TensorType {} : node.outputs.front().type;
            node.data = location;
        }
        if (!chargeNode(m_budget, node))
            return true;
        const int index = int(m_graph.nodes.size());
        for (std::size_t slot = 0; slot < outs.size(); ++slot) {
            std::int64_t id = 0;
            if (valueId(outs[slot], id) && id != 0)
                m_values[id] = { index, int(slot) };
        }
        m_graph.nodes.push_back(std::move(node));
        m_graph.subgraphs[std::size_t(subgraph)].nodes.push_back(index);

        dom::array regions;
        if (!op.at_key("regions").get_array().get(regions) && regions.size() > 0) {
            if (depth >= kMaxRegionNesting) {
                ++m_tooDeep;
                return true;
            }
            // The bodies' ops sit under the op that owns them: "if_3/region_2".
            const models::graph::Node& owner = m_graph.nodes[std::size_t(index)];
            const std::string ownerScope = (owner.scope.empty() ? std::string() : owner.scope + "/") + owner.name + "_"
                + std::to_string(m_bodyOwners++);
            for (dom::element region : regions) {
                const int body = int(m_graph.subgraphs.size());
                std::string regionName = text::printable(stringField(region, "#"));
                if (regionName.empty())
                    regionName = "region";
                m_graph.subgraphs.push_back(models::graph::Subgraph { regionName, index, {}, {}, -1 });
                m_graph.nodes[std::size_t(index)].bodies.push_back(body);
                dom::array blocks;
                if (region.at_key("blocks").get_array().get(blocks))
                    continue;
                for (dom::element block : blocks) {
                    // Block arguments (negative ids) are the loop's carried values: nobody's output here.
                    if (!addBlock(block, body, ownerScope + "/" + regionName, depth + 1))
                        return false;
                }
            }
        }
        return true;
    }

    models::graph::Graph& m_graph;
    ImportBudget& m_budget;
    const ImportControl& m_control;
    UniqueIds m_ids;
    std::unordered_map<std::int64_t, Producer> m_values;
    std::vector<std::string> m_parameterNames;
    int m_unresolved = 0;
    int m_tooDeep = 0;
    int m_ops = 0;
    int m_bodyOwners = 0;
};

} // namespace

bool looksLikePaddlePir(std::string_view head)
{
    const std::size_t start = head.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos || head[start] != '{')
        return false;
    const std::size_t base = head.find("\"base_code\"");
    if (base == std::string_view::npos || base > 256)
        return false;
    const std::size_t magic = head.find("\"magic\"", base);
    if (magic == std::string_view::npos || magic > base + 256)
        return false;
    const std::size_t pir = head.find("\"pir\"", magic);
    return pir != std::string_view::npos && pir < magic + 32;
}

GraphResult PaddlePirReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    auto fail = [&](const QString& message) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path, message));
        return publishGraph(nullptr, diagnostics, true);
    };
    ImportBudget budget { std::int64_t(bytes.size()) };
    if (const std::int64_t at = scanJsonLimits(bytes, budget); at >= 0) {
        diagnostics.append(budget.diagnostic(path, at));
        return publishGraph(nullptr, diagnostics, true);
    }
    dom::parser parser;
    dom::element root;
    const simdjson::padded_string padded(bytes.data(), bytes.size());
    if (const auto error = parser.parse(padded).get(root))
        return fail(GraphTr::tr("Not a valid JSON document (%1): a Paddle PIR program is the JSON paddle.jit.save "
                                "writes.")
                        .arg(QString::fromUtf8(simdjson::error_message(error))));
    dom::element baseCode;
    if (root.at_key("base_code").get(baseCode) || stringField(baseCode, "magic") != "pir")
        return fail(GraphTr::tr("The JSON has no base_code with magic \"pir\": it is not a Paddle PIR program."));
    dom::array regions;
    if (root.at_key("program").at_key("regions").get_array().get(regions))
        return fail(GraphTr::tr("The PIR program holds no \"program\": {\"regions\": [...]}."));

    auto graph = std::make_unique<models::graph::Graph>();
    graph->path = path;
    graph->format = models::graph::GraphFormat::Paddle;
    graph->name = QFileInfo(path).completeBaseName().toStdString();
    graph->metadata.push_back({ "format", "PIR" });
    std::int64_t version = 0;
    if (!baseCode.at_key("version").get_int64().get(version))
        graph->metadata.push_back({ "version", std::to_string(version) });
    bool trainable = false;
    if (!baseCode.at_key("trainable").get_bool().get(trainable))
        graph->metadata.push_back({ "trainable", trainable ? "true" : "false" });
    graph->subgraphs.push_back(models::graph::Subgraph { "main", -1, {}, {}, -1 });

    Builder builder(*graph, budget, control);
    if (!builder.addRegions(regions, 0, std::string(), 0)) {
        GraphResult result = publishGraph(nullptr, diagnostics, true);
        result.canceled = true;
        return result;
    }
    if (budget.exceeded()) {
        dropDanglingProducers(*graph);
        diagnostics.append(budget.diagnostic(path, -1));
    }
    if (graph->nodes.empty())
        diagnostics.append(
            graphDiagnostic(models::Severity::Warning, path, GraphTr::tr("The PIR program holds no op.")));
    if (builder.tooDeep() > 0)
        diagnostics.append(
            graphDiagnostic(models::Severity::Warning, path,
                            GraphTr::tr("%n op(s) nest regions deeper than %1 levels; their bodies are left out.",
                                        nullptr, builder.tooDeep())
                                .arg(kMaxRegionNesting)));
    if (builder.unresolved() > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Warning, path,
            GraphTr::tr("%n operand(s) name values no op before them produces.", nullptr, builder.unresolved())));
    if (builder.parameters() > 0) {
        std::vector<std::string> names = builder.parameterNames();
        std::stable_sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        locatePaddleParameters(*graph, names, path, builder.parameters(), diagnostics);
    }
    return publishGraph(std::move(graph), diagnostics);
}

} // namespace runlens::importers::graph
