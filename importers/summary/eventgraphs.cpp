#include "importers/summary/eventgraphs.h"

#include "importers/graph/anfirgraphreader.h"
#include "importers/graph/protowire.h"
#include "importers/graph/tfgraphreader.h"
#include "importers/summary/summarytr.h"

#include <string_view>

namespace runlens::importers::summary {

namespace {

/// MetaGraphDef.graph_def (TensorFlow's meta_graph.proto).
constexpr std::uint32_t kMetaGraphDefGraphField = 2;
constexpr int kLengthDelimited = 2;

enum class MetaGraph { HasGraph, NoGraph, Damaged };

/// Where the GraphDef inside a serialized MetaGraphDef is; only the top-level fields are walked.
MetaGraph findMetaGraphGraph(std::string_view bytes, std::string_view* graph)
{
    std::size_t pos = 0;
    graph::wire::Field field;
    bool found = false;
    while (graph::wire::next(bytes, pos, field)) {
        if (field.number == kMetaGraphDefGraphField && field.wireType == kLengthDelimited) {
            // Several occurrences of an embedded message merge; writers emit one, the last is kept here.
            *graph = graph::wire::payload(bytes, field);
            found = true;
        }
    }
    if (pos != bytes.size())
        return MetaGraph::Damaged;
    return found ? MetaGraph::HasGraph : MetaGraph::NoGraph;
}

} // namespace

EventGraphs::EventGraphs(QString file)
    : m_file(std::move(file))
{ }

void EventGraphs::take(std::string& bytes, Encoding encoding, qint64 offset, qint64 step)
{
    if (encoding == Encoding::MetaGraphDef) {
        // TensorBoard shows a meta graph's graph only while no graph_def was given directly.
        std::string_view graph;
        if (m_direct || findMetaGraphGraph(bytes, &graph) == MetaGraph::NoGraph)
            return;
    } else {
        m_direct = true;
    }
    ++m_seen;
    m_bytes.swap(bytes);
    m_encoding = encoding;
    m_offset = offset;
    m_step = step;
    m_pending = true;
}

bool EventGraphs::deliver(ImportUpdate& update, const ImportControl& control)
{
    if (!m_pending)
        return true;
    std::string_view bytes(m_bytes);
    graph::GraphResult result;
    if (m_encoding == Encoding::AnfIrGraph) {
        result = graph::AnfIrGraphReader::readGraphProto(bytes, m_file, control);
    } else if (m_encoding == Encoding::GraphDef) {
        result = graph::TfGraphReader::readGraphDef(bytes, m_file, control);
    } else if (findMetaGraphGraph(bytes, &bytes) == MetaGraph::HasGraph) {
        result = graph::TfGraphReader::readGraphDef(bytes, m_file, control);
    } else {
        result.diagnostics.append(models::Diagnostic {
            models::Severity::Warning, m_file, -1, -1,
            SummaryTr::tr("The MetaGraphDef is damaged before its graph_def; no graph was read from it.") });
    }
    if (result.canceled)
        return false;
    m_pending = false;

    // The graph readers count offsets inside the graph's bytes; the user needs the record in the file.
    for (models::Diagnostic& diagnostic : result.diagnostics) {
        if (diagnostic.severity != models::Severity::Info)
            m_problems = true;
        const QString where = diagnostic.offset >= 0
            ? SummaryTr::tr("The graph of the event at step %1 (byte %2 of the graph): %3")
                  .arg(m_step)
                  .arg(diagnostic.offset)
                  .arg(diagnostic.message)
            : SummaryTr::tr("The graph of the event at step %1: %2").arg(m_step).arg(diagnostic.message);
        update.diagnostics.append(models::Diagnostic { diagnostic.severity, m_file, m_offset, -1, where });
    }
    if (!result.graph && result.diagnostics.isEmpty()) {
        m_problems = true;
        update.diagnostics.append(
            models::Diagnostic { models::Severity::Warning, m_file, m_offset, -1,
                                 SummaryTr::tr("The graph of the event at step %1 could not be read.").arg(m_step) });
    }
    if (m_seen > 1) {
        update.diagnostics.append(models::Diagnostic {
            models::Severity::Info, m_file, m_offset, -1,
            SummaryTr::tr("The file holds %n graph(s); the last one (step %1, at this offset) is shown.", nullptr,
                          m_seen)
                .arg(m_step) });
    }
    // The bytes are no longer needed; a long-running tail should not keep a large graph twice.
    std::string().swap(m_bytes);
    if (result.graph) {
        update.graphSummary = models::graph::summarizeGraph(*result.graph);
        update.graph = std::move(result.graph);
    }
    return true;
}

} // namespace runlens::importers::summary
