#include "importers/graph/torchscriptreader.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/uniqueids.h"

#include <cctype>
#include <limits>
#include <unordered_map>

namespace runlens::importers::graph {

namespace {

using text::startsWith;
using text::trim;

std::string torchDtype(std::string_view t)
{
    static const std::pair<std::string_view, std::string_view> kNames[] = {
        { "Float", "float32" }, { "Double", "float64" }, { "Half", "float16" }, { "BFloat16", "bfloat16" },
        { "Long", "int64" },    { "Int", "int32" },      { "Short", "int16" },  { "Char", "int8" },
        { "Byte", "uint8" },    { "Bool", "bool" },
    };
    for (const auto& [from, to] : kNames) {
        if (t == from)
            return std::string(to);
    }
    return std::string(t);
}

/// `Float(2, 6, 28, 28, strides=[...], requires_grad=0, device=cpu)`, `Double(9216!, 4096!)`, `Tensor`,
/// `int[]`, fx's `[#users=1]` (no type).
models::graph::TensorType parseType(std::string_view s)
{
    models::graph::TensorType t;
    s = trim(s);
    if (s.empty() || s.front() == '[')
        return t;
    const std::size_t open = s.find('(');
    if (open == std::string_view::npos || s.back() != ')') {
        if (s != "Tensor")
            t.dtype = std::string(s);
        return t;
    }
    t.dtype = torchDtype(s.substr(0, open));
    t.rankKnown = true;
    for (std::string_view part : text::splitTopLevel(s.substr(open + 1, s.size() - open - 2), ',')) {
        if (part.find('=') != std::string_view::npos)
            break; // strides=, requires_grad=, device=
        std::string digits(part);
        if (!digits.empty() && digits.back() == '!')
            digits.pop_back();
        std::int64_t v = 0;
        t.dims.push_back(text::toInt64(digits, v) ? v : -1);
    }
    return t;
}

/// Every `%name` in `s`, in order.
std::vector<std::string> valueRefs(std::string_view s)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%')
            continue;
        std::size_t j = i + 1;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' || s[j] == '.'))
            ++j;
        // A trailing '.' ends a sentence, not a name.
        while (j > i + 1 && s[j - 1] == '.')
            --j;
        if (j > i + 1)
            out.emplace_back(s.substr(i + 1, j - i - 1));
        i = j - 1;
    }
    return out;
}

std::size_t topLevelEquals(std::string_view s)
{
    int depth = 0;
    for (std::size_t i = 0; i + 2 < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            --depth;
        else if (depth == 0 && c == ' ' && s[i + 1] == '=' && s[i + 2] == ' ')
            return i;
    }
    return std::string_view::npos;
}

std::string modulePath(std::string_view dotted)
{
    std::string out(dotted);
    for (char& c : out) {
        if (c == '.')
            c = '/';
    }
    return out;
}

class Parser
{
public:
    Parser(models::graph::Graph& graph, const ImportControl& control, ImportBudget& budget)
        : m_graph(graph)
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
        std::size_t i = 0;
        while (i < lines.size() && trim(lines[i]).empty())
            ++i;
        if (i < lines.size() && startsWith(trim(lines[i]), "graph(")) {
            // The header runs to the line that closes `graph(`. One search over the rest of the input: the
            // lines are views into it, so a header that never closes costs one pass, not one per line.
            const std::size_t headerStart = std::size_t(lines[i].data() - input.data());
            const std::size_t open = input.find('(', headerStart);
            const std::size_t close = text::matchingBracket(input, open);
            if (close == std::string_view::npos) {
                i = lines.size();
            } else {
                while (i < lines.size() && std::size_t(lines[i].data() - input.data()) + lines[i].size() < close)
                    ++i;
                ++i;
                parseHeader(input.substr(headerStart, close + 1 - headerStart));
            }
        }
        for (; i < lines.size(); ++i) {
            if ((i & 4095) == 0 && m_control.canceled())
                return false;
            if (m_budget.exceeded()) {
                stoppedAt = std::int64_t(lines[i].data() - input.data());
                break;
            }
            parseLine(trim(lines[i]), int(i) + 1);
        }
        return true;
    }

    int unknownLines = 0;
    int firstUnknownLine = 0;
    int unresolved = 0;

private:
    void parseHeader(std::string_view header)
    {
        const std::size_t open = header.find('(');
        const std::size_t close = text::matchingBracket(header, open);
        if (close == std::string_view::npos)
            return;
        std::string inner(header.substr(open + 1, close - open - 1));
        // Old tracer dumps separate parameters by line breaks only.
        for (char& c : inner) {
            if (c == '\n')
                c = ',';
        }
        for (std::string_view param : text::splitTopLevel(inner, ',')) {
            if (param.empty() || param.front() != '%')
                continue;
            const std::size_t colon = param.find(" : ");
            const std::string name(
                trim(param.substr(1, colon == std::string_view::npos ? std::string_view::npos : colon - 1)));
            models::graph::Node node;
            node.kind = models::graph::NodeKind::Input;
            node.implicit = true;
            node.opType = "Input";
            node.name = name;
            models::graph::Port out;
            out.name = "%" + name;
            if (colon != std::string_view::npos)
                out.type = parseType(param.substr(colon + 3));
            node.outputs.push_back(std::move(out));
            define(name, add(std::move(node), name), 0);
            m_graph.subgraphs[0].parameters.push_back(int(m_graph.nodes.size()) - 1);
        }
    }

    void parseLine(std::string_view t, int line)
    {
        if (t.empty() || t == "}" || startsWith(t, "#"))
            return;
        if (startsWith(t, "block") || startsWith(t, "->"))
            return; // nested blocks of prim::If / prim::Loop: their statements are read as nodes
        if (startsWith(t, "return")) {
            addReturn(trim(t.substr(6)));
            return;
        }
        std::string_view outputs;
        std::string_view rhs = t;
        const std::size_t eq = topLevelEquals(t);
        if (eq != std::string_view::npos) {
            outputs = t.substr(0, eq);
            rhs = trim(t.substr(eq + 3));
        }
        // The op: `aten::relu`, `prim::Constant[value=0]`, `^Threshold(0, 0, True)(%19)`, `call_module[target=x]`.
        std::size_t p = 0;
        while (p < rhs.size() && rhs[p] != '[' && rhs[p] != '(' && rhs[p] != ',' && rhs[p] != ' ')
            ++p;
        std::string op(rhs.substr(0, p));
        if (!op.empty() && op.front() == '^')
            op.erase(0, 1);
        if (op.empty() || (eq == std::string_view::npos && op.find("::") == std::string::npos)) {
            unknown(line);
            return;
        }
        models::graph::Node node;
        node.kind = models::graph::NodeKind::Op;
        node.opType = op;
        std::string_view rest = rhs.substr(p);
        if (startsWith(rest, "[")) {
            const std::size_t close = text::matchingBracket(rest, 0);
            if (close == std::string_view::npos) {
                unknown(line);
                return;
            }
            for (std::string_view item : text::splitTopLevel(rest.substr(1, close - 1), ',')) {
                const std::size_t e = item.find('=');
                if (e != std::string_view::npos)
                    node.attributes.push_back(
                        { std::string(trim(item.substr(0, e))), std::string(trim(item.substr(e + 1))) });
            }
            rest = rest.substr(close + 1);
        }
        // Parenthesised groups: the last one holds the arguments, earlier ones (old tracer) parameters.
        std::vector<std::string_view> groups;
        while (startsWith(rest, "(")) {
            const std::size_t close = text::matchingBracket(rest, 0);
            if (close == std::string_view::npos)
                break;
            groups.push_back(rest.substr(1, close - 1));
            rest = rest.substr(close + 1);
        }
        for (std::size_t g = 0; g + 1 < groups.size(); ++g)
            node.attributes.push_back({ "params", std::string(groups[g]) });
        // Trailers: `, scope: __module.conv1 # file.py:459:0`, `, uses = [[...]];`
        const std::size_t hash = rest.find(" # ");
        if (hash != std::string_view::npos) {
            parseSource(trim(rest.substr(hash + 3)), node);
            rest = rest.substr(0, hash);
        }
        const std::size_t scopeAt = rest.find("scope: ");
        if (scopeAt != std::string_view::npos) {
            std::string_view scope = trim(rest.substr(scopeAt + 7));
            const std::size_t end = scope.find_first_of(", ");
            scope = scope.substr(0, end);
            if (startsWith(scope, "__module."))
                scope = scope.substr(9);
            else if (scope == "__module")
                scope = {};
            node.scope = modulePath(scope);
        }
        for (const models::graph::Attribute& a : node.attributes) {
            // fx: call_module[target=layer1.0.conv1] sits in layer1/0.
            if (a.name == "target" && (op == "call_module" || op == "get_attr")) {
                const std::string path = modulePath(a.value);
                node.scope = text::splitScope(path).first;
            }
        }
        if (op == "prim::Constant")
            node.kind = models::graph::NodeKind::Constant;
        else if (op == "placeholder")
            node.kind = models::graph::NodeKind::Input;
        else if (op == "get_attr")
            node.kind = models::graph::NodeKind::Parameter;
        std::vector<std::string> outputNames;
        for (std::string_view out : text::splitTopLevel(outputs, ',')) {
            if (out.empty() || out.front() != '%')
                continue;
            const std::size_t colon = out.find(" : ");
            const std::string name(
                trim(out.substr(1, colon == std::string_view::npos ? std::string_view::npos : colon - 1)));
            models::graph::Port port;
            port.name = "%" + name;
            if (colon != std::string_view::npos)
                port.type = parseType(out.substr(colon + 3));
            node.outputs.push_back(std::move(port));
            outputNames.push_back(name);
        }
        if (op == "prim::GetAttr" && node.outputs.size() == 1 && node.outputs.front().type.dtype.empty()
            && !node.outputs.front().type.rankKnown)
            node.kind = models::graph::NodeKind::Parameter; // `%weight : Tensor = prim::GetAttr[name="weight"](%conv1)`
        if (!groups.empty()) {
            for (const std::string& ref : valueRefs(groups.back()))
                node.inputs.push_back(input(ref));
        }
        node.name = outputNames.empty() ? op : outputNames.front();
        const std::string id = outputNames.empty() ? op : "%" + outputNames.front();
        const int index = add(std::move(node), id);
        for (std::size_t k = 0; k < outputNames.size(); ++k)
            define(outputNames[k], index, int(k));
    }

    void parseSource(std::string_view s, models::graph::Node& node)
    {
        // `/usr/lib/python3/dist-packages/torch/nn/modules/conv.py:459:0`
        const std::size_t last = s.rfind(':');
        if (last == std::string_view::npos)
            return;
        const std::size_t before = s.rfind(':', last - 1);
        models::graph::SourceLocation location;
        int line = 0;
        int column = 0;
        if (before != std::string_view::npos && text::toInt(s.substr(before + 1, last - before - 1), line)) {
            location.file = std::string(s.substr(0, before));
            location.line = line;
            if (text::toInt(s.substr(last + 1), column) && column >= 0 && column < std::numeric_limits<int>::max())
                location.column = column + 1;
        } else if (text::toInt(s.substr(last + 1), line)) {
            location.file = std::string(s.substr(0, last));
            location.line = line;
        }
        if (location.line > 0)
            node.sources.push_back(std::move(location));
    }

    void addReturn(std::string_view values)
    {
        models::graph::Node node;
        node.kind = models::graph::NodeKind::Output;
        node.implicit = true;
        node.opType = "Output";
        node.name = "return";
        std::vector<std::string> refs = valueRefs(values);
        if (refs.empty()) {
            // fx prints `return fc3` (plain names, maybe in a tuple).
            std::string plain(values);
            for (char& c : plain) {
                if (c == '(' || c == ')' || c == ';')
                    c = ' ';
            }
            for (std::string_view name : text::splitTopLevel(plain, ',')) {
                if (!name.empty() && name != "None")
                    refs.emplace_back(name);
            }
        }
        for (const std::string& ref : refs)
            node.inputs.push_back(input(ref));
        const int index = add(std::move(node), "return");
        if (m_graph.subgraphs[0].output < 0)
            m_graph.subgraphs[0].output = index;
    }

    models::graph::Port input(const std::string& name)
    {
        models::graph::Port port;
        port.name = "%" + name;
        const auto it = m_values.find(name);
        if (it != m_values.end()) {
            port.producer = it->second.first;
            port.producerSlot = it->second.second;
            const models::graph::Node& producer = m_graph.nodes[std::size_t(port.producer)];
            if (std::size_t(port.producerSlot) < producer.outputs.size())
                port.type = producer.outputs[std::size_t(port.producerSlot)].type;
        } else {
            ++unresolved;
        }
        return port;
    }

    void define(const std::string& name, int node, int slot) { m_values[name] = { node, slot }; }

    int add(models::graph::Node node, const std::string& id)
    {
        node.id = m_ids.take(id);
        node.subgraph = 0;
        chargeNode(m_budget, node);
        const int index = int(m_graph.nodes.size());
        m_graph.subgraphs[0].nodes.push_back(index);
        m_graph.nodes.push_back(std::move(node));
        return index;
    }

    void unknown(int line)
    {
        if (unknownLines++ == 0)
            firstUnknownLine = line;
    }

    models::graph::Graph& m_graph;
    const ImportControl& m_control;
    ImportBudget& m_budget;
    std::unordered_map<std::string, std::pair<int, int>> m_values;
    UniqueIds m_ids;
};

} // namespace

GraphResult TorchScriptReader::read(std::string_view input, const QString& path, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    if (trim(input).empty()) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The file is empty.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    auto graph = std::make_unique<models::graph::Graph>();
    graph->path = path;
    graph->format = models::graph::GraphFormat::TorchScript;
    graph->subgraphs.emplace_back();
    ImportBudget budget { std::int64_t(input.size()) };
    Parser parser(*graph, control, budget);
    if (!parser.parse(input)) {
        GraphResult result = publishGraph(nullptr, diagnostics, true);
        result.canceled = true;
        return result;
    }
    if (graph->nodeCount() == 0) {
        diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                           GraphTr::tr("No TorchScript or torch.fx statements were found.")));
        return publishGraph(nullptr, diagnostics, true);
    }
    if (budget.exceeded())
        diagnostics.append(budget.diagnostic(path, parser.stoppedAt));
    if (parser.unknownLines > 0)
        diagnostics.append(graphDiagnostic(models::Severity::Info, path,
                                           GraphTr::tr("%n line(s) were not understood and skipped (the first is "
                                                       "line %1).",
                                                       nullptr, parser.unknownLines)
                                               .arg(parser.firstUnknownLine),
                                           -1, parser.firstUnknownLine));
    if (parser.unresolved > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Warning, path,
            GraphTr::tr("%n argument(s) name values that no statement defines.", nullptr, parser.unresolved)));
    return publishGraph(std::move(graph), diagnostics);
}

} // namespace runlens::importers::graph
