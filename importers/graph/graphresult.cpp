#include "importers/graph/graphresult.h"

#include "importers/graph/graphtext.h"

#include <algorithm>

namespace runlens::importers::graph {

namespace {

/// Finds the first newline at or after a position that only grows, remembering the last answer: every
/// byte is searched once however many frames share a line.
class NextNewline
{
public:
    explicit NextNewline(std::string_view s)
        : m_s(s)
    { }
    std::size_t from(std::size_t pos)
    {
        if (!m_searched || (m_found != std::string_view::npos && m_found < pos)) {
            m_found = m_s.find('\n', pos);
            m_searched = true;
        }
        return m_found;
    }

private:
    std::string_view m_s;
    std::size_t m_found = std::string_view::npos;
    bool m_searched = false;
};

} // namespace

std::vector<models::graph::SourceLocation> stackTraceSources(std::string_view trace, bool& cut)
{
    std::vector<models::graph::SourceLocation> out;
    NextNewline eolAfterQuote(trace);
    NextNewline eolAfterEol(trace);
    std::size_t pos = 0;
    while ((pos = trace.find("File \"", pos)) != std::string_view::npos) {
        pos += 6;
        const std::size_t quote = trace.find('"', pos);
        if (quote == std::string_view::npos)
            break;
        models::graph::SourceLocation location;
        location.file = std::string(trace.substr(pos, quote - pos));
        // `", line 12`: the number follows within a few characters of the quote.
        const std::size_t lineAt = trace.substr(quote, 12).find("line ");
        if (lineAt != std::string_view::npos) {
            const std::string_view rest = trace.substr(quote + lineAt + 5, 11);
            int line = 0;
            if (text::toInt(rest.substr(0, std::min(rest.find_first_not_of("0123456789"), rest.size())), line))
                location.line = line;
        }
        const std::size_t eol = eolAfterQuote.from(quote);
        if (eol != std::string_view::npos) {
            const std::size_t next = eolAfterEol.from(eol + 1);
            const std::string_view code = text::trim(
                trace.substr(eol + 1, next == std::string_view::npos ? std::string_view::npos : next - eol - 1));
            if (!code.empty() && !text::startsWith(code, "File \""))
                location.text = std::string(code);
        }
        out.push_back(std::move(location));
        if (out.size() >= 2 * kMaxStackFrames) {
            out.erase(out.begin(), out.begin() + std::ptrdiff_t(kMaxStackFrames));
            cut = true;
        }
        pos = quote;
    }
    if (out.size() > kMaxStackFrames) {
        out.erase(out.begin(), out.end() - std::ptrdiff_t(kMaxStackFrames));
        cut = true;
    }
    std::reverse(out.begin(), out.end());
    return out;
}

models::Diagnostic graphDiagnostic(models::Severity severity, const QString& path, const QString& message,
                                   qint64 offset, qint64 line)
{
    models::Diagnostic d;
    d.severity = severity;
    d.file = path;
    d.offset = offset;
    d.line = line;
    d.message = message;
    return d;
}

bool boundScope(std::string& scope)
{
    std::size_t components = 0;
    std::size_t cut = std::string::npos;
    for (std::size_t i = 0; i <= scope.size(); ++i) {
        if (i < scope.size() && scope[i] != '/')
            continue;
        if (i > kMaxScopeBytes)
            break;
        if (++components > std::size_t(ImportLimits::kMaxDepth))
            break;
        cut = i;
    }
    if (cut == scope.size())
        return false;
    if (cut == std::string::npos) {
        // Only an over-long first component leaves no boundary to cut at: cut at a character instead.
        cut = kMaxScopeBytes;
        while (cut > 0 && (static_cast<unsigned char>(scope[cut]) & 0xC0) == 0x80)
            --cut;
    }
    scope.resize(cut);
    return true;
}

bool chargeNode(ImportBudget& budget, const models::graph::Node& node)
{
    const std::int64_t ports = std::int64_t(node.inputs.size() + node.outputs.size());
    const bool elements = budget.spendElements(1 + ports);
    return budget.spendBytes(std::int64_t(sizeof(models::graph::Node))
                             + ports * std::int64_t(sizeof(models::graph::Port)))
        && elements;
}

void dropDanglingProducers(models::graph::Graph& graph)
{
    const int count = int(graph.nodes.size());
    for (models::graph::Node& node : graph.nodes) {
        for (models::graph::Port& in : node.inputs) {
            if (in.producer >= count)
                in.producer = -1;
        }
    }
    for (models::graph::Subgraph& s : graph.subgraphs) {
        if (s.output >= count)
            s.output = -1;
    }
}

GraphResult publishGraph(std::unique_ptr<models::graph::Graph> graph, models::Diagnostics diagnostics, bool failed)
{
    GraphResult result;
    if (graph && !failed) {
        int cut = 0;
        const models::graph::Node* first = nullptr;
        for (models::graph::Node& node : graph->nodes) {
            if (boundScope(node.scope) && cut++ == 0)
                first = &node;
        }
        if (cut > 0)
            diagnostics.append(graphDiagnostic(
                models::Severity::Warning, graph->path,
                GraphTr::tr("%n node scope(s) nested deeper than %1 levels or longer than %2 bytes were cut to "
                            "that size (the first is node \"%3\").",
                            nullptr, cut)
                    .arg(ImportLimits::kMaxDepth)
                    .arg(qulonglong(kMaxScopeBytes))
                    .arg(QString::fromStdString(first->id.substr(0, 200)))));
        graph->finalize();
        graph->diagnostics = diagnostics;
        result.graph = std::shared_ptr<const models::graph::Graph>(std::move(graph));
    }
    result.diagnostics = std::move(diagnostics);
    return result;
}

} // namespace runlens::importers::graph
