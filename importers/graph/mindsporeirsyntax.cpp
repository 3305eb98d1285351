#include "importers/graph/mindsporeirsyntax.h"

#include "importers/graph/graphtext.h"

#include <cctype>
#include <cstdlib>
#include <limits>

namespace runlens::importers::graph::msir {

using text::endsWith;
using text::startsWith;
using text::trim;

namespace {

std::vector<std::int64_t> parseDims(std::string_view s, bool& ok)
{
    std::vector<std::int64_t> dims;
    ok = true;
    for (std::string_view part : text::splitTopLevel(s, ',')) {
        if (part.empty())
            continue;
        if (part == "-1" || part == "?" || part == "-2") {
            dims.push_back(-1);
            continue;
        }
        std::int64_t v = 0;
        if (!text::toInt64(part, v)) {
            ok = false;
            return {};
        }
        dims.push_back(v);
    }
    return dims;
}

} // namespace

std::string normalizedDtype(std::string_view t)
{
    static const std::pair<std::string_view, std::string_view> kNames[] = {
        { "Float32", "float32" }, { "Float16", "float16" }, { "Float64", "float64" }, { "BFloat16", "bfloat16" },
        { "Int8", "int8" },       { "Int16", "int16" },     { "Int32", "int32" },     { "Int64", "int64" },
        { "UInt8", "uint8" },     { "UInt16", "uint16" },   { "UInt32", "uint32" },   { "UInt64", "uint64" },
        { "Bool", "bool" },       { "F32", "float32" },     { "F16", "float16" },     { "F64", "float64" },
        { "I8", "int8" },         { "I16", "int16" },       { "I32", "int32" },       { "I64", "int64" },
        { "U8", "uint8" },        { "U16", "uint16" },      { "U32", "uint32" },      { "U64", "uint64" },
    };
    for (const auto& [from, to] : kNames) {
        if (t == from)
            return std::string(to);
    }
    return std::string(t);
}

/// `<Tensor[Float32], (3, 8)>`, `<Ref[Tensor[Float32]], (4), ref_key=b>`, `<Int64, NoShape>`,
/// 1.x `<Tensor[Float32]x(2, 3)>`, `.dat` `Tensor(F32)[2,3]`.
models::graph::TensorType parseType(std::string_view s)
{
    models::graph::TensorType t;
    s = trim(s);
    if (s.size() >= 2 && s.front() == '<' && s.back() == '>')
        s = trim(s.substr(1, s.size() - 2));
    if (s.empty() || s == "null")
        return t;
    if (startsWith(s, "Tensor(")) {
        const std::size_t close = s.find(')');
        if (close != std::string_view::npos) {
            t.dtype = normalizedDtype(s.substr(7, close - 7));
            const std::size_t open = s.find('[', close);
            const std::size_t end = open == std::string_view::npos ? open : s.find(']', open);
            bool ok = false;
            if (end != std::string_view::npos)
                t.dims = parseDims(s.substr(open + 1, end - open - 1), ok);
            t.rankKnown = ok;
        }
        return t;
    }
    std::vector<std::string_view> parts = text::splitTopLevel(s, ',');
    if (parts.empty())
        return t;
    std::string_view head = parts.front();
    std::string_view shape = parts.size() > 1 ? parts[1] : std::string_view();
    const std::size_t oldShape = head.find("]x(");
    if (oldShape != std::string_view::npos) {
        shape = head.substr(oldShape + 2);
        head = head.substr(0, oldShape + 1);
    }
    for (std::string_view wrapper : { std::string_view("Ref["), std::string_view("Tensor[") }) {
        if (startsWith(head, wrapper) && endsWith(head, "]"))
            head = head.substr(wrapper.size(), head.size() - wrapper.size() - 1);
    }
    if (startsWith(head, "Tensor[") && endsWith(head, "]"))
        head = head.substr(7, head.size() - 8);
    t.dtype = normalizedDtype(head);
    if (shape.size() >= 2 && shape.front() == '(' && shape.back() == ')') {
        bool ok = false;
        t.dims = parseDims(shape.substr(1, shape.size() - 2), ok);
        t.rankKnown = ok;
    }
    return t;
}

/// `(T1, T2) -> (T)`: input types and the output type.
bool parseSpec(std::string_view s, std::vector<models::graph::TensorType>& inputs, models::graph::TensorType& output)
{
    s = trim(s);
    if (s.empty() || s.front() != '(')
        return false;
    const std::size_t close = text::matchingBracket(s, 0);
    if (close == std::string_view::npos)
        return false;
    inputs.clear();
    for (std::string_view part : text::splitTopLevel(s.substr(1, close - 1), ','))
        inputs.push_back(parseType(part));
    const std::size_t arrow = s.find("->", close);
    if (arrow != std::string_view::npos) {
        std::string_view out = trim(s.substr(arrow + 2));
        if (out.size() >= 2 && out.front() == '(' && out.back() == ')')
            out = out.substr(1, out.size() - 2);
        output = parseType(out);
    } else if (inputs.size() == 1) {
        // A Return's spec has only its (output) type.
        output = inputs.front();
    }
    return true;
}

/// `# In file t6.py:16, 12~25/    a = ops.sub(x, 1)/` (2.x), `# In file train.py(34)/ code/` (1.x).
bool parseSource(std::string_view s, models::graph::SourceLocation& location, std::string* trailer)
{
    std::size_t codeStart = std::string_view::npos;
    for (std::size_t p = 0; p < s.size(); ++p) {
        if ((s[p] != ':' && s[p] != '(') || p + 1 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[p + 1])))
            continue;
        std::size_t q = p + 1;
        while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q])))
            ++q;
        int line = 0;
        if (!text::toInt(s.substr(p + 1, q - p - 1), line))
            continue; // more digits than any line number has: not a location
        if (s[p] == '(') {
            if (q >= s.size() || s[q] != ')')
                continue;
            ++q;
        } else {
            if (q < s.size() && s[q] == '~')
                for (++q; q < s.size() && std::isdigit(static_cast<unsigned char>(s[q])); ++q) { }
            if (q + 1 < s.size() && s[q] == ',' && s[q + 1] == ' ') {
                std::size_t c = q + 2;
                while (c < s.size() && std::isdigit(static_cast<unsigned char>(s[c])))
                    ++c;
                int column = 0;
                if (c == q + 2
                    || (text::toInt(s.substr(q + 2, c - q - 2), column) && column < std::numeric_limits<int>::max()))
                    location.column = column + 1;
                if (c < s.size() && s[c] == '~')
                    for (++c; c < s.size() && std::isdigit(static_cast<unsigned char>(s[c])); ++c) { }
                q = c;
            }
        }
        if (q < s.size() && s[q] != '/')
            continue;
        location.file = std::string(trim(s.substr(0, p)));
        location.line = line;
        codeStart = q;
        break;
    }
    if (codeStart == std::string_view::npos)
        return false;
    std::string_view code = codeStart < s.size() ? s.substr(codeStart + 1) : std::string_view();
    const std::size_t marker = code.find("/<~~");
    if (marker != std::string_view::npos)
        code = code.substr(0, marker);
    const std::size_t last = code.rfind('/');
    if (last != std::string_view::npos) {
        if (trailer)
            *trailer = std::string(trim(code.substr(last + 1)));
        code = code.substr(0, last);
    }
    location.text = std::string(trim(code));
    return true;
}

void parseAttributeBlocks(std::string_view rest, std::vector<models::graph::Attribute>& out)
{
    // `{instance name: sub} primitive_attrs: {k: v, ...} cnode_attrs: {...}`
    std::size_t pos = 0;
    while ((pos = rest.find('{', pos)) != std::string_view::npos) {
        const std::size_t close = text::matchingBracket(rest, pos);
        if (close == std::string_view::npos)
            break;
        for (std::string_view item : text::splitTopLevel(rest.substr(pos + 1, close - pos - 1), ',')) {
            const std::size_t colon = item.find(':');
            if (colon == std::string_view::npos)
                continue;
            out.push_back(
                { std::string(trim(item.substr(0, colon))), text::elide(std::string(trim(item.substr(colon + 1)))) });
        }
        pos = close + 1;
    }
}

Ref parseArg(std::string_view a)
{
    Ref ref;
    if (startsWith(a, "%para")) {
        ref.kind = Ref::Parameter;
        ref.key = std::string(a);
    } else if (a.size() > 1 && a.front() == '%' && std::isdigit(static_cast<unsigned char>(a[1]))) {
        ref.kind = Ref::Node;
        ref.key = std::string(a.substr(1));
    } else if (a.size() > 1 && a.front() == '@') {
        ref.kind = Ref::Graph;
        ref.key = std::string(a.substr(1));
    } else {
        ref.kind = Ref::Literal;
        ref.key = std::string(a);
    }
    return ref;
}

/// Splits the right-hand side `callee(args) rest` of a cnode into the node.
bool parseCall(std::string_view rhs, ParsedNode& parsed, std::string& rest)
{
    std::size_t open = std::string_view::npos;
    int depth = 0;
    for (std::size_t i = 0; i < rhs.size(); ++i) {
        const char c = rhs[i];
        if (c == '[' || c == '{')
            ++depth;
        else if ((c == ']' || c == '}') && depth > 0)
            --depth;
        else if (c == '(' && depth == 0) {
            open = i;
            break;
        }
    }
    if (open == std::string_view::npos)
        return false;
    const std::size_t close = text::matchingBracket(rhs, open);
    if (close == std::string_view::npos)
        return false;
    std::string_view callee = trim(rhs.substr(0, open));
    rest = std::string(rhs.substr(close + 1));
    for (std::string_view a : text::splitTopLevel(rhs.substr(open + 1, close - open - 1), ','))
        parsed.args.push_back(parseArg(a));
    models::graph::Node& node = parsed.node;
    if (startsWith(callee, "call "))
        callee = trim(callee.substr(5));
    if (startsWith(callee, "FuncGraph::")) {
        node.kind = models::graph::NodeKind::Call;
        parsed.calleeGraph = std::string(callee.substr(11));
        node.opType = "call";
        return true;
    }
    const std::size_t scopeSep = callee.find("::");
    if (scopeSep != std::string_view::npos) {
        // `.dat`: PrimitivePy::Sub{prim_type=2}[input_names=[...], ...]
        std::string_view name = callee.substr(scopeSep + 2);
        const std::size_t cut = name.find_first_of("{[");
        const std::size_t attrs = name.find('[');
        if (attrs != std::string_view::npos) {
            const std::size_t end = text::matchingBracket(name, attrs);
            if (end != std::string_view::npos) {
                for (std::string_view item : text::splitTopLevel(name.substr(attrs + 1, end - attrs - 1), ',')) {
                    const std::size_t eq = item.find('=');
                    if (eq != std::string_view::npos)
                        node.attributes.push_back(
                            { std::string(trim(item.substr(0, eq))), std::string(trim(item.substr(eq + 1))) });
                }
            }
        }
        node.opType = std::string(name.substr(0, cut));
        return true;
    }
    if (!callee.empty() && callee.front() == '@') {
        node.kind = models::graph::NodeKind::Call;
        parsed.calleeGraph = std::string(callee.substr(1));
        node.opType = "call";
        return true;
    }
    if (!callee.empty() && callee.front() == '%') {
        // A call through a value: `%0(...)`, `%5[@FuncUnion(@a, @b)]()`.
        node.kind = models::graph::NodeKind::Call;
        node.opType = "call";
        const std::size_t bracket = callee.find('[');
        const std::string_view target = bracket == std::string_view::npos ? callee : callee.substr(0, bracket);
        parsed.args.insert(parsed.args.begin(), parseArg(target));
        if (bracket != std::string_view::npos)
            node.attributes.push_back({ "callees", std::string(callee.substr(bracket)) });
        return true;
    }
    node.opType = std::string(startsWith(callee, "PrimFunc_") ? callee.substr(9) : callee);
    return !node.opType.empty();
}

} // namespace runlens::importers::graph::msir
