#include "importers/graph/mindsporeirreader.h"

#include "importers/core/importbudget.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/mindsporeirsyntax.h"
#include "importers/graph/uniqueids.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace runlens::importers::graph {

namespace {

using namespace msir;
using text::endsWith;
using text::startsWith;
using text::trim;

class Parser
{
public:
    Parser(const QString& path, const ImportControl& control, ImportBudget& budget)
        : m_path(path)
        , m_control(control)
        , m_budget(budget)
    { }

    /// Byte offset of the line where the budget stopped the parse, or -1.
    std::int64_t stoppedAt = -1;

    bool parse(std::string_view input)
    {
        std::vector<std::string_view> lines;
        for (std::size_t start = 0; start <= input.size();) {
            std::size_t end = input.find('\n', start);
            if (end == std::string_view::npos)
                end = input.size();
            lines.push_back(input.substr(start, end - start));
            start = end + 1;
        }
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if ((i & 4095) == 0 && m_control.canceled())
                return false;
            if (m_budget.exceeded()) {
                stoppedAt = std::int64_t(lines[i].data() - input.data());
                break;
            }
            std::string_view t = trim(lines[i]);
            std::string joined;
            if (t.size() > 1 && t.front() == '%' && std::isdigit(static_cast<unsigned char>(t[1]))) {
                // Wrapped cnode lines (excerpts pasted into documents): join until brackets balance.
                joined = std::string(t);
                text::BracketDepth depth;
                depth.feed(joined);
                for (int extra = 0; extra < 64 && depth.open() && i + 1 < lines.size(); ++extra) {
                    const std::string_view next = trim(lines[i + 1]);
                    if (startsWith(next, ":") || startsWith(next, "#"))
                        break;
                    joined += next;
                    depth.feed(next);
                    ++i;
                }
                t = joined;
            }
            handleLine(t, int(i) + 1);
        }
        return true;
    }

    std::vector<ParsedSubgraph> subgraphs;
    std::vector<std::pair<std::string, models::graph::TensorType>> globalParameters;
    std::string entry;
    std::vector<models::graph::Attribute> metadata;
    int unknownLines = 0;
    int firstUnknownLine = 0;

private:
    void unknown(int line)
    {
        if (unknownLines++ == 0)
            firstUnknownLine = line;
    }

    ParsedSubgraph& current()
    {
        if (!m_inSubgraph && (subgraphs.empty() || !m_fragment)) {
            // Nodes outside any subgraph: an excerpt. They form one unnamed subgraph.
            subgraphs.emplace_back();
            m_fragment = true;
        }
        return subgraphs.back();
    }

    void handleLine(std::string_view t, int line)
    {
        if (t.empty() || t == "..." || t == "…") {
            m_attrBlock = false;
            return;
        }
        if (m_datParameters) {
            // `.dat` parameter list: `%para1 : Tensor(F32)[]    # x` / `, %para2 : ...` / `) {`
            if (startsWith(t, ")")) {
                m_datParameters = false;
                m_inSubgraph = true;
                return;
            }
            if (startsWith(t, ","))
                t = trim(t.substr(1));
            const std::size_t colon = t.find(':');
            if (startsWith(t, "%para") && colon != std::string_view::npos) {
                const std::string name(trim(t.substr(0, colon)));
                std::string_view type = t.substr(colon + 1);
                const std::size_t hash = type.find('#');
                std::string debugName;
                if (hash != std::string_view::npos) {
                    debugName = std::string(trim(type.substr(hash + 1)));
                    type = type.substr(0, hash);
                }
                subgraphs.back().parameters.push_back(name);
                m_parameterTypes[name] = parseType(type);
                if (!debugName.empty())
                    m_parameterNames[name] = debugName;
                return;
            }
            unknown(line);
            return;
        }
        if (t.front() == '#') {
            handleComment(t, line);
            return;
        }
        if (startsWith(t, "subgraph attr:")) {
            m_attrBlock = true;
            return;
        }
        if (startsWith(t, "subgraph instance:") || startsWith(t, "indirect:")
            || startsWith(t, "Node counting information") || startsWith(t, "Total number of")
            || startsWith(t, "No more function graphs")) {
            if (startsWith(t, "Total number of"))
                metadata.push_back(
                    { std::string(trim(t.substr(0, t.find(':')))), std::string(trim(t.substr(t.find(':') + 1))) });
            return;
        }
        if (startsWith(t, "subgraph @")) {
            m_attrBlock = false;
            startSubgraph(t.substr(10), line);
            return;
        }
        if (startsWith(t, "funcgraph ")) {
            ParsedSubgraph s;
            const std::string_view rest = t.substr(10);
            const std::string alias(trim(rest.substr(0, rest.find('('))));
            s.name = m_pendingDatName.empty() ? alias : m_pendingDatName;
            s.aliases.push_back(alias);
            m_pendingDatName.clear();
            subgraphs.push_back(std::move(s));
            m_fragment = false;
            m_datParameters = !endsWith(t, "{");
            m_inSubgraph = !m_datParameters;
            m_node = nullptr;
            return;
        }
        if (t == "}") {
            m_inSubgraph = false;
            m_node = nullptr;
            return;
        }
        if (t.front() == '%') {
            if (startsWith(t, "%para") && !m_inSubgraph) {
                // Header parameter: `%para1_x: <Tensor[Float32], ()> : []`
                const std::size_t colon = t.find(':');
                if (colon != std::string_view::npos) {
                    const std::string name(trim(t.substr(0, colon)));
                    std::string_view type = trim(t.substr(colon + 1));
                    if (!type.empty() && type.front() == '<') {
                        const std::size_t close = text::matchingBracket(type, 0);
                        if (close != std::string_view::npos)
                            type = type.substr(0, close + 1);
                    }
                    globalParameters.emplace_back(name, parseType(type));
                    return;
                }
            }
            if (parseCnode(t))
                return;
            unknown(line);
            return;
        }
        if (startsWith(t, "Return(") || startsWith(t, "Primitive::Return")) {
            ParsedNode parsed;
            std::string rest;
            if (parseCall(t, parsed, rest)) {
                parsed.node.opType = "Return";
                finishHead(parsed, rest);
                return;
            }
        }
        if (startsWith(t, ":") && m_node) {
            handleSpec(trim(t.substr(1)));
            return;
        }
        if (m_attrBlock && t.find(':') != std::string_view::npos) {
            if (!m_inSubgraph && subgraphs.empty()) {
                const std::size_t colon = t.find(':');
                metadata.push_back({ std::string(trim(t.substr(0, colon))), std::string(trim(t.substr(colon + 1))) });
            }
            return;
        }
        if (startsWith(t, "Corresponding") || startsWith(t, "-"))
            return;
        // Keys of the header's attribute block (`has_shard: 0`) follow `# Attrs:` without a marker.
        if (m_headerAttrs && !m_inSubgraph && t.find(':') != std::string_view::npos) {
            const std::size_t colon = t.find(':');
            metadata.push_back({ std::string(trim(t.substr(0, colon))), std::string(trim(t.substr(colon + 1))) });
            return;
        }
        unknown(line);
    }

    void handleComment(std::string_view t, int line)
    {
        std::string_view body = trim(t.substr(1));
        m_attrBlock = false;
        if (startsWith(body, "IR entry")) {
            const std::size_t at = body.find('@');
            if (at != std::string_view::npos)
                entry = std::string(trim(body.substr(at + 1)));
            return;
        }
        if (startsWith(body, "Attrs:") || startsWith(body, "attrs")) {
            m_headerAttrs = true;
            return;
        }
        m_headerAttrs = false;
        if (startsWith(body, "In file ")) {
            if (!m_node)
                return; // a subgraph's own location
            models::graph::SourceLocation location;
            std::string trailer;
            if (parseSource(body.substr(8), location, &trailer)) {
                m_sources.push_back(std::move(location));
                // `.dat` ends the location with `#name`, the node's debug name.
                if (startsWith(trailer, "#") && m_node->node.name.empty())
                    m_datDebugName = trailer.substr(1);
            } else {
                unknown(line);
            }
            return;
        }
        if (startsWith(body, "Fullname with scope:") || startsWith(body, "scope:")) {
            if (!m_node)
                return;
            std::string_view value = trim(body.substr(body.find(':') + 1));
            if (value.size() >= 2 && value.front() == '(' && value.back() == ')')
                value = value.substr(1, value.size() - 2);
            setScope(value, startsWith(body, "Fullname"));
            return;
        }
        if (startsWith(body, "[No.")) {
            const std::size_t close = body.find(']');
            if (close != std::string_view::npos)
                m_pendingDatName = std::string(trim(body.substr(close + 1)));
            return;
        }
        if (startsWith(body, "------------------------>")) {
            m_failing = true;
            return;
        }
        // Header counts, order lists, separators, analyze_fail banners, "Corresponding ..." notes.
    }

    void setScope(std::string_view value, bool fullName)
    {
        models::graph::Node& node = m_node->node;
        m_node->hasScope = true;
        if (fullName) {
            auto [scope, name] = text::splitScope(value);
            node.scope = scope;
            node.attributes.push_back({ "debug_name", node.name });
            node.name = name;
        } else {
            node.scope = std::string(value);
        }
    }

    void handleSpec(std::string_view spec)
    {
        if (startsWith(spec, "full_name_with_scope:")) {
            std::string_view value = trim(spec.substr(21));
            if (value.size() >= 2 && value.front() == '(' && value.back() == ')')
                value = value.substr(1, value.size() - 2);
            setScope(value, true);
            return;
        }
        std::vector<models::graph::TensorType> inputs;
        models::graph::TensorType output;
        if (!parseSpec(spec, inputs, output))
            return;
        models::graph::Node& node = m_node->node;
        if (m_specLines++ > 0) {
            // The second spec line of kernel graphs gives device formats.
            node.attributes.push_back({ "device_types", text::elide(std::string(spec)) });
            return;
        }
        m_inputTypes = std::move(inputs);
        if (node.outputs.empty())
            node.outputs.emplace_back();
        if (output.known())
            node.outputs.front().type = output;
    }

    void startSubgraph(std::string_view rest, int line)
    {
        ParsedSubgraph s;
        const std::size_t open = rest.find('(');
        s.name = std::string(trim(rest.substr(0, open)));
        if (open != std::string_view::npos) {
            const std::size_t close = text::matchingBracket(rest, open);
            if (close != std::string_view::npos) {
                for (std::string_view p : text::splitTopLevel(rest.substr(open + 1, close - open - 1), ',')) {
                    if (!p.empty())
                        s.parameters.emplace_back(trim(p.substr(0, p.find(':'))));
                }
            } else {
                unknown(line);
            }
        }
        subgraphs.push_back(std::move(s));
        m_fragment = false;
        m_inSubgraph = true;
        m_node = nullptr;
    }

    bool parseCnode(std::string_view t)
    {
        std::size_t p = 1;
        while (p < t.size() && std::isdigit(static_cast<unsigned char>(t[p])))
            ++p;
        ParsedNode parsed;
        parsed.number = std::string(t.substr(1, p - 1));
        std::string_view rest = t.substr(p);
        std::string outputType;
        if (!rest.empty() && rest.front() == '(') {
            const std::size_t close = text::matchingBracket(rest, 0);
            if (close == std::string_view::npos)
                return false;
            parsed.node.name = std::string(rest.substr(1, close - 1));
            rest = trim(rest.substr(close + 1));
            if (!startsWith(rest, "="))
                return false;
            rest = trim(rest.substr(1));
        } else {
            // `.dat`: `%1 : Tensor(F32)[] = PrimitivePy::Sub{...}(%para3, ...)    #(types) #scope: Default`
            rest = trim(rest);
            if (!startsWith(rest, ":"))
                return false;
            const std::size_t eq = rest.find(" = ");
            if (eq == std::string_view::npos)
                return false;
            outputType = std::string(trim(rest.substr(1, eq - 1)));
            rest = trim(rest.substr(eq + 3));
        }
        std::string after;
        if (!parseCall(rest, parsed, after))
            return false;
        if (!outputType.empty()) {
            models::graph::Port out;
            out.type = parseType(outputType);
            parsed.node.outputs.push_back(std::move(out));
        }
        finishHead(parsed, after);
        return true;
    }

    /// Adds a parsed cnode head; spec and comment lines that follow complete it.
    void finishHead(ParsedNode& parsed, const std::string& after)
    {
        flushNode();
        std::string_view rest = after;
        // `.dat` trailers: `#(types)    # fg_22=2_construct.22 #scope: Default`
        const std::size_t scopeAt = rest.find("#scope:");
        std::string datScope;
        if (scopeAt != std::string_view::npos) {
            datScope = std::string(trim(rest.substr(scopeAt + 7)));
            rest = rest.substr(0, scopeAt);
        }
        const std::size_t typesAt = rest.find("#(");
        if (typesAt != std::string_view::npos) {
            const std::size_t close = text::matchingBracket(rest, typesAt + 1);
            if (close != std::string_view::npos) {
                m_inputTypes.clear();
                for (std::string_view part : text::splitTopLevel(rest.substr(typesAt + 2, close - typesAt - 2), ','))
                    m_inputTypes.push_back(parseType(part));
            }
            rest = rest.substr(0, typesAt);
        }
        parseAttributeBlocks(rest, parsed.node.attributes);
        if (m_failing) {
            parsed.node.attributes.push_back({ "evaluation", "failed here" });
            m_failing = false;
        }
        // Every argument becomes a port and, for a literal, a constant node of its own: a line of short
        // literals is the densest way to make nodes, so each one is charged here at that later size.
        const std::int64_t args = std::int64_t(parsed.args.size());
        const std::int64_t literals = std::count_if(parsed.args.begin(), parsed.args.end(),
                                                    [](const Ref& ref) { return ref.kind == Ref::Literal; });
        m_budget.spendElements(1 + args + literals);
        m_budget.spendBytes(std::int64_t(sizeof(ParsedNode) + sizeof(models::graph::Node))
                            + args * std::int64_t(sizeof(Ref) + sizeof(models::graph::Port))
                            + literals * std::int64_t(sizeof(models::graph::Node) + sizeof(models::graph::Port)));
        ParsedSubgraph& s = current();
        s.nodes.push_back(std::move(parsed));
        m_node = &s.nodes.back();
        if (!datScope.empty())
            setScope(datScope, false);
        m_specLines = 0;
    }

    void flushNode()
    {
        if (!m_node)
            return;
        models::graph::Node& node = m_node->node;
        // The dump prints the stack outermost first; we keep innermost first.
        std::reverse(m_sources.begin(), m_sources.end());
        node.sources = std::move(m_sources);
        m_sources.clear();
        if (node.name.empty() && !m_datDebugName.empty())
            node.name = m_datDebugName;
        m_datDebugName.clear();
        for (std::size_t k = 0; k < m_node->args.size(); ++k) {
            models::graph::Port port;
            port.name = m_node->args[k].kind == Ref::Node ? "%" + m_node->args[k].key
                : m_node->args[k].kind == Ref::Graph      ? "@" + m_node->args[k].key
                                                          : m_node->args[k].key;
            if (k < m_inputTypes.size())
                port.type = m_inputTypes[k];
            // Monads order side effects (Load, UpdateState, Depend): they are control, not data.
            port.control = text::startsWith(port.type.dtype, "UMonad") || text::startsWith(port.type.dtype, "IOMonad")
                || text::startsWith(port.name, "UMonad") || text::startsWith(port.name, "IOMonad");
            node.inputs.push_back(std::move(port));
        }
        m_inputTypes.clear();
        m_node = nullptr;
    }

public:
    void finish() { flushNode(); }
    std::unordered_map<std::string, models::graph::TensorType> m_parameterTypes;
    std::unordered_map<std::string, std::string> m_parameterNames;

private:
    const QString& m_path;
    const ImportControl& m_control;
    ImportBudget& m_budget;
    ParsedNode* m_node = nullptr;
    std::vector<models::graph::SourceLocation> m_sources;
    std::vector<models::graph::TensorType> m_inputTypes;
    std::string m_pendingDatName;
    std::string m_datDebugName;
    int m_specLines = 0;
    bool m_inSubgraph = false;
    bool m_fragment = false;
    bool m_attrBlock = false;
    bool m_headerAttrs = false;
    bool m_datParameters = false;
    bool m_failing = false;
};

std::string parameterDisplayName(const std::string& name)
{
    // `%para3_x` -> `x`; `.dat` `%para3` keeps its number.
    std::string_view n = name;
    if (startsWith(n, "%para")) {
        std::size_t p = 5;
        while (p < n.size() && std::isdigit(static_cast<unsigned char>(n[p])))
            ++p;
        if (p < n.size() && n[p] == '_')
            return std::string(n.substr(p + 1));
    }
    return std::string(n.size() > 1 && n.front() == '%' ? n.substr(1) : n);
}

/// Turns what the Parser found into a Graph: the subgraphs (the entry one first), parameters as implicit
/// nodes, the cnodes with their arguments resolved by number or name, and literal arguments as constants
/// after all cnodes. Counts the references it could not resolve.
class GraphAssembler
{
public:
    GraphAssembler(Parser& parser, const QString& path)
        : m_parser(parser)
        , m_parsed(parser.subgraphs)
        , m_path(path)
    { }

    std::unique_ptr<models::graph::Graph> assemble()
    {
        orderSubgraphs();
        createGraph();
        addParameters();
        for (std::size_t k = 0; k < m_order.size(); ++k)
            addSubgraphNodes(k);
        appendLiterals();
        return std::move(m_graph);
    }

    int unresolved = 0;
    int unknownCallees = 0;

private:
    struct Literal
    {
        int consumer = -1;
        std::size_t slot = 0;
        models::graph::Node node;
    };

    void orderSubgraphs()
    {
        // The entry graph is the main graph (index 0); the others keep their file order.
        for (std::size_t i = 0; i < m_parsed.size(); ++i) {
            if (!m_parser.entry.empty() && m_parsed[i].name == m_parser.entry && m_order.empty())
                m_order.insert(m_order.begin(), i);
        }
        for (std::size_t i = 0; i < m_parsed.size(); ++i) {
            if (m_order.empty() || m_order.front() != i)
                m_order.push_back(i);
        }
    }

    void createGraph()
    {
        m_graph = std::make_unique<models::graph::Graph>();
        m_graph->path = m_path;
        m_graph->format = models::graph::GraphFormat::MindSporeIr;
        m_graph->name = m_parser.entry.empty() ? m_parsed[m_order.front()].name : m_parser.entry;
        m_graph->metadata = m_parser.metadata;
        for (std::size_t k = 0; k < m_order.size(); ++k) {
            const ParsedSubgraph& s = m_parsed[m_order[k]];
            models::graph::Subgraph sub;
            sub.name = s.name;
            m_subgraphIndex.emplace(s.name, int(k));
            for (const std::string& alias : s.aliases)
                m_subgraphIndex.emplace(alias, int(k));
            m_graph->subgraphs.push_back(std::move(sub));
        }
    }

    void addParameters()
    {
        for (const auto& [name, type] : m_parser.globalParameters)
            addParameter(name, type, 0);
        for (std::size_t k = 0; k < m_order.size(); ++k) {
            for (const std::string& name : m_parsed[m_order[k]].parameters) {
                const auto type = m_parser.m_parameterTypes.find(name);
                addParameter(name, type != m_parser.m_parameterTypes.end() ? type->second : models::graph::TensorType(),
                             int(k));
            }
        }
    }

    void addParameter(const std::string& name, const models::graph::TensorType& type, int subgraph)
    {
        if (m_parameters.count(name))
            return;
        models::graph::Node node;
        node.kind = models::graph::NodeKind::Parameter;
        node.implicit = true;
        node.opType = "Parameter";
        node.id = m_ids.take(name);
        const auto debugName = m_parser.m_parameterNames.find(name);
        node.name = debugName != m_parser.m_parameterNames.end() ? debugName->second : parameterDisplayName(name);
        node.subgraph = subgraph;
        models::graph::Port out;
        out.name = name;
        out.type = type;
        node.outputs.push_back(std::move(out));
        const int index = int(m_graph->nodes.size());
        m_parameters.emplace(name, index);
        m_graph->subgraphs[std::size_t(subgraph)].nodes.push_back(index);
        m_graph->subgraphs[std::size_t(subgraph)].parameters.push_back(index);
        m_graph->nodes.push_back(std::move(node));
    }

    void addSubgraphNodes(std::size_t k)
    {
        ParsedSubgraph& s = m_parsed[m_order[k]];
        const int subgraph = int(k);
        const int first = int(m_graph->nodes.size());
        std::unordered_map<std::string, int> numbers;
        for (std::size_t i = 0; i < s.nodes.size(); ++i) {
            if (!s.nodes[i].number.empty())
                numbers[s.nodes[i].number] = first + int(i);
        }
        nameNodes(s, subgraph);
        resolveArguments(s, subgraph, numbers, first);
        for (std::size_t i = 0; i < s.nodes.size(); ++i) {
            m_graph->subgraphs[std::size_t(subgraph)].nodes.push_back(int(m_graph->nodes.size()));
            if (s.nodes[i].node.opType == "Return")
                m_graph->subgraphs[std::size_t(subgraph)].output = int(m_graph->nodes.size());
            m_graph->nodes.push_back(std::move(s.nodes[i].node));
        }
    }

    /// Ids, display names, callees and output names of a subgraph's cnodes.
    void nameNodes(ParsedSubgraph& s, int subgraph)
    {
        const std::string prefix = s.name.empty() ? std::string() : s.name + ":";
        for (ParsedNode& p : s.nodes) {
            models::graph::Node& node = p.node;
            node.subgraph = subgraph;
            node.id = m_ids.take(prefix + (p.number.empty() ? std::string("return") : "%" + p.number));
            if (node.name.empty())
                node.name = p.number.empty() ? node.opType : "%" + p.number;
            if (!p.calleeGraph.empty()) {
                const auto callee = m_subgraphIndex.find(p.calleeGraph);
                if (callee != m_subgraphIndex.end())
                    node.callee = callee->second;
                else
                    ++unknownCallees;
                node.attributes.push_back({ "callee", "@" + p.calleeGraph });
            }
            if (node.outputs.empty())
                node.outputs.emplace_back();
            node.outputs.front().name = node.id;
        }
    }

    void resolveArguments(ParsedSubgraph& s, int subgraph, const std::unordered_map<std::string, int>& numbers,
                          int first)
    {
        for (std::size_t i = 0; i < s.nodes.size(); ++i) {
            ParsedNode& p = s.nodes[i];
            for (std::size_t a = 0; a < p.args.size() && a < p.node.inputs.size(); ++a) {
                const Ref& ref = p.args[a];
                models::graph::Port& port = p.node.inputs[a];
                switch (ref.kind) {
                case Ref::Node: {
                    const auto it = numbers.find(ref.key);
                    if (it != numbers.end())
                        port.producer = it->second;
                    else
                        ++unresolved;
                    break;
                }
                case Ref::Parameter: {
                    const auto it = m_parameters.find(ref.key);
                    if (it != m_parameters.end())
                        port.producer = it->second;
                    else
                        ++unresolved;
                    break;
                }
                case Ref::Graph:
                    break; // a function value; the callee is named on the port
                case Ref::Literal:
                    m_literals.push_back({ first + int(i), a, literalConstant(p, a, port, subgraph) });
                    break;
                }
            }
        }
    }

    /// Literal arguments are constants of their consumer's scope.
    models::graph::Node literalConstant(const ParsedNode& p, std::size_t a, const models::graph::Port& port,
                                        int subgraph)
    {
        const Ref& ref = p.args[a];
        models::graph::Node constant;
        constant.kind = models::graph::NodeKind::Constant;
        constant.implicit = true;
        constant.opType = "Value";
        constant.name = text::elide(ref.key, 64);
        constant.scope = p.node.scope;
        constant.subgraph = subgraph;
        constant.id = m_ids.take(p.node.id + ".arg" + std::to_string(a));
        models::graph::Port out;
        out.name = ref.key;
        out.type = port.type;
        constant.outputs.push_back(std::move(out));
        constant.attributes.push_back({ "value", text::elide(ref.key) });
        return constant;
    }

    void appendLiterals()
    {
        // Literal constants go after all cnodes so cnode indices stay as numbered above.
        for (Literal& literal : m_literals) {
            const int index = int(m_graph->nodes.size());
            models::graph::Node& target = m_graph->nodes[std::size_t(literal.consumer)];
            if (literal.slot < target.inputs.size())
                target.inputs[literal.slot].producer = index;
            m_graph->subgraphs[std::size_t(literal.node.subgraph)].nodes.push_back(index);
            m_graph->nodes.push_back(std::move(literal.node));
        }
    }

    Parser& m_parser;
    std::vector<ParsedSubgraph>& m_parsed;
    QString m_path;
    std::vector<std::size_t> m_order;
    std::unique_ptr<models::graph::Graph> m_graph;
    std::unordered_map<std::string, int> m_subgraphIndex;
    UniqueIds m_ids;
    std::unordered_map<std::string, int> m_parameters;
    std::vector<Literal> m_literals;
};

std::size_t cnodeCount(const std::vector<ParsedSubgraph>& parsed)
{
    std::size_t cnodes = 0;
    for (const ParsedSubgraph& s : parsed)
        cnodes += s.nodes.size();
    return cnodes;
}

/// The notes about a graph that was read: where the budget stopped it, and what was skipped or unresolved.
void appendReadDiagnostics(models::Diagnostics& diagnostics, const QString& path, const ImportBudget& budget,
                           const Parser& parser, const GraphAssembler& assembler)
{
    if (budget.exceeded())
        diagnostics.append(budget.diagnostic(path, parser.stoppedAt));
    if (parser.unknownLines > 0)
        diagnostics.append(graphDiagnostic(models::Severity::Info, path,
                                           GraphTr::tr("%n line(s) were not understood and skipped (the first is "
                                                       "line %1).",
                                                       nullptr, parser.unknownLines)
                                               .arg(parser.firstUnknownLine),
                                           -1, parser.firstUnknownLine));
    if (assembler.unresolved > 0)
        diagnostics.append(graphDiagnostic(models::Severity::Info, path,
                                           GraphTr::tr("%n argument(s) refer to nodes or parameters that are not in "
                                                       "the file (an excerpt?).",
                                                       nullptr, assembler.unresolved)));
    if (assembler.unknownCallees > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Info, path,
            GraphTr::tr("%n call(s) name subgraphs that are not in the file.", nullptr, assembler.unknownCallees)));
}

} // namespace

GraphResult MindSporeIrReader::read(std::string_view input, const QString& path, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    if (trim(input).empty()) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The file is empty.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    ImportBudget budget { std::int64_t(input.size()) };
    Parser parser(path, control, budget);
    if (!parser.parse(input)) {
        GraphResult result = publishGraph(nullptr, diagnostics, true);
        result.canceled = true;
        return result;
    }
    parser.finish();
    if (cnodeCount(parser.subgraphs) == 0) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("No MindSpore IR nodes (`%N(name) = Op(...)`) were found.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    GraphAssembler assembler(parser, path);
    std::unique_ptr<models::graph::Graph> graph = assembler.assemble();
    appendReadDiagnostics(diagnostics, path, budget, parser, assembler);
    return publishGraph(std::move(graph), diagnostics);
}

} // namespace runlens::importers::graph
