#pragma once

#include "importers/core/artifactimporter.h"

#include <QString>

#include <string>

namespace runlens::importers::summary {

/// The computation graphs an event file carries (TensorBoard `graph_def` / `meta_graph_def`, MindSpore's
/// anf_ir `graph_def`). EventFileReader hands over the serialized bytes of each graph record as it meets
/// it; only the last one is decoded, once per poll, so a file that rewrites its graph every step costs one
/// decode. As in TensorBoard, a graph given directly wins over one inside a MetaGraphDef.
class EventGraphs
{
public:
    enum class Encoding {
        GraphDef, ///< tensorboard Event.graph_def: a serialized TensorFlow GraphDef
        MetaGraphDef, ///< tensorboard Event.meta_graph_def: its graph_def is field 2
        AnfIrGraph, ///< MindSpore Event.graph_def: a serialized anf_ir GraphProto
    };

    explicit EventGraphs(QString file);

    /// Takes the bytes of a graph record at byte `offset` (they are swapped out of `bytes`, not copied).
    void take(std::string& bytes, Encoding encoding, qint64 offset, qint64 step);
    /// Decodes the last graph taken since the previous delivery into `update` (graph, summary and the
    /// reader's diagnostics). Returns false when it was canceled; the graph is then decoded next time.
    bool deliver(ImportUpdate& update, const ImportControl& control);
    /// Some delivered graph or its record had warnings or errors.
    bool hadProblems() const { return m_problems; }

private:
    QString m_file;
    std::string m_bytes;
    Encoding m_encoding = Encoding::GraphDef;
    qint64 m_offset = -1;
    qint64 m_step = 0;
    bool m_pending = false;
    bool m_direct = false; ///< a graph_def was seen: graphs from meta graphs are ignored from then on
    int m_seen = 0; ///< graph records taken (including ones ignored or superseded)
    bool m_problems = false;
};

} // namespace runlens::importers::summary
