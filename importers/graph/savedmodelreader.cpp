#include "importers/graph/savedmodelreader.h"

#include "importers/graph/graphtext.h"
#include "importers/graph/graphweights.h"
#include "importers/graph/proto/tf_saved_model.pb.h"
#include "importers/graph/protowire.h"
#include "importers/graph/tfcheckpointindex.h"
#include "importers/graph/tfgraphreader.h"
#include "importers/graph/uniqueids.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <map>
#include <unordered_map>

namespace runlens::importers::graph {

namespace {

/// A checkpoint index is a few bytes per variable; one larger than this is not an index.
constexpr qint64 kMaxIndexBytes = qint64(256) << 20;
/// Variables listed one per metadata row; the rest are counted.
constexpr std::size_t kMaxVariableRows = 200;
/// Longest object path followed in a TF2 object graph (checkpoint keys are a few hundred bytes).
constexpr std::size_t kMaxObjectPath = 4096;
/// All object paths together: a hostile graph of deep chains cannot make them grow without bound.
constexpr std::size_t kMaxObjectPathBytes = std::size_t(64) << 20;
/// A signature tensor naming a slot beyond this is damage; the port is not grown to reach it.
constexpr int kMaxSignatureSlot = 1024;
/// Real SavedModels hold one to a few meta graphs (serve, train, gpu variants); the rest of a file holding
/// more are counted, not read, as each is a whole graph.
constexpr std::size_t kMaxMetaGraphs = 16;

std::string tagsText(const tf::MetaGraphDef& meta)
{
    std::string out;
    for (const std::string& tag : meta.meta_info_def().tags())
        out += (out.empty() ? "" : ",") + text::elide(text::printable(tag), 64);
    return out.empty() ? std::string("untagged") : out;
}

bool hasTag(const tf::MetaGraphDef& meta, std::string_view tag)
{
    for (const std::string& t : meta.meta_info_def().tags())
        if (t == tag)
            return true;
    return false;
}

/// The tensor a TensorInfo names: the dense tensor, or the values of a sparse one; empty for composites.
std::string tensorName(const tf::TensorInfo& info)
{
    if (info.has_coo_sparse())
        return info.coo_sparse().values_tensor_name();
    return info.name();
}

/// "node:3" -> ("node", 3); "node" -> ("node", 0); a bad slot is -1.
std::pair<std::string, int> splitTensor(const std::string& tensor)
{
    const std::size_t colon = tensor.rfind(':');
    if (colon == std::string::npos)
        return { tensor, 0 };
    int slot = -1;
    if (!text::toInt(std::string_view(tensor).substr(colon + 1), slot) || slot < 0 || slot > kMaxSignatureSlot)
        slot = -1;
    return { tensor.substr(0, colon), slot };
}

models::graph::TensorType infoType(const tf::TensorInfo& info)
{
    if (!info.has_tensor_shape())
        return models::graph::TensorType { tfDataTypeName(info.dtype()), {}, {}, false };
    return tfTensorType(info.tensor_shape(), info.dtype());
}

/// Salvages the complete fields of a damaged message and, when the field that stopped it is one of the
/// `nested` ones, what can be read of that field's message too: a truncated SavedModel keeps the nodes of
/// its meta graph that were written before the cut.
std::size_t salvageMeta(tf::MetaGraphDef& meta, std::string_view bytes)
{
    const std::size_t stop = wire::salvage(meta, bytes);
    wire::Field cut;
    if (stop < bytes.size() && wire::cutField(bytes, stop, cut) && cut.wireType == 2) {
        const std::string_view partial
            = bytes.substr(cut.dataBegin, std::min(cut.dataSize, bytes.size() - cut.dataBegin));
        if (cut.number == 2)
            wire::salvage(*meta.mutable_graph_def(), partial);
        else if (cut.number == 1)
            wire::salvage(*meta.mutable_meta_info_def(), partial);
    }
    return stop;
}

class SavedModelBuilder
{
public:
    SavedModelBuilder(const QString& path, std::size_t inputBytes, const ImportControl& control)
        : m_path(path)
        , m_budget(std::int64_t(inputBytes))
        , m_graph(std::make_unique<models::graph::Graph>())
        , m_assembler(*m_graph, m_budget, control)
    {
        m_graph->path = path;
        m_graph->format = models::graph::GraphFormat::TensorFlow;
        m_graph->subgraphs.emplace_back();
    }

    /// Adds the meta graphs, the chosen one first; false when canceled.
    bool add(const std::vector<const tf::MetaGraphDef*>& metas)
    {
        std::size_t shown = 0;
        for (std::size_t i = 0; i < metas.size(); ++i) {
            if (hasTag(*metas[i], "serve")) {
                shown = i;
                break;
            }
        }
        std::vector<std::size_t> order { shown };
        for (std::size_t i = 0; i < metas.size(); ++i)
            if (i != shown)
                order.push_back(i);
        if (order.size() > kMaxMetaGraphs) {
            m_skippedMetaGraphs = int(order.size() - kMaxMetaGraphs);
            order.resize(kMaxMetaGraphs);
        }
        std::vector<Placed> placed;
        for (const std::size_t i : order) {
            if (m_budget.exceeded())
                break;
            const tf::MetaGraphDef& meta = *metas[i];
            Placed p { &meta, 0, std::string(), int(m_graph->nodes.size()) };
            const std::string tags = tagsText(meta);
            if (placed.empty()) {
                m_graph->subgraphs[0].name = tags;
            } else {
                // Tags may hold '/', which would split the scope.
                std::string scope = tags;
                for (char& c : scope)
                    if (c == '/')
                        c = '_';
                p.prefix = "[" + scope + "]";
                p.subgraph = int(m_graph->subgraphs.size());
                models::graph::Subgraph s;
                s.name = tags;
                m_graph->subgraphs.push_back(std::move(s));
            }
            if (!m_assembler.add(meta.graph_def(), p.subgraph, p.prefix))
                return false;
            if (placed.empty())
                m_shown = &meta;
            placed.push_back(std::move(p));
        }
        // Signature nodes get ids no graph node has.
        for (const models::graph::Node& node : m_graph->nodes)
            m_ids.take(node.id);
        describe(metas, placed);
        for (const Placed& p : placed) {
            if (m_budget.exceeded())
                break;
            addSignatures(p);
        }
        return true;
    }

    /// Lists the checkpoint beside the file and locates the main graph's variables in it.
    void addVariables(models::Diagnostics& diagnostics, bool metaFile)
    {
        const QFileInfo file(m_path);
        QString indexPath;
        QString folder;
        std::string dataPrefix;
        if (metaFile) {
            indexPath = file.absolutePath() + QLatin1Char('/') + file.completeBaseName() + QStringLiteral(".index");
            dataPrefix = file.completeBaseName().toStdString();
        } else {
            folder = file.absolutePath() + QStringLiteral("/variables");
            indexPath = folder + QStringLiteral("/variables.index");
            dataPrefix = "variables/variables";
        }
        QFile index(indexPath);
        if (!QFileInfo(indexPath).isFile() || !index.open(QIODevice::ReadOnly)) {
            if (!folder.isEmpty() && QFileInfo(folder).isDir())
                describeFolder(folder);
            return;
        }
        if (index.size() > kMaxIndexBytes) {
            diagnostics.append(graphDiagnostic(
                models::Severity::Warning, indexPath,
                GraphTr::tr("The checkpoint index is %1 MiB, too large to be an index; its variables are not listed.")
                    .arg(index.size() >> 20)));
            return;
        }
        const QByteArray bytes = index.readAll();
        const TfCheckpointIndex table
            = readTfCheckpointIndex(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        if (!table.error.empty())
            diagnostics.append(graphDiagnostic(
                models::Severity::Warning, indexPath,
                GraphTr::tr("The checkpoint index cannot be read completely: %1; %n variable(s) were read before.",
                            nullptr, int(table.entries.size()))
                    .arg(QString::fromStdString(table.error))));
        std::int64_t total = 0;
        for (const TfCheckpointEntry& e : table.entries)
            total += std::max<std::int64_t>(e.size, 0);
        const std::string relativeIndex = metaFile ? dataPrefix + ".index" : "variables/variables.index";
        m_graph->metadata.push_back({ "checkpoint",
                                      relativeIndex + ": " + std::to_string(table.entries.size()) + " tensors, "
                                          + std::to_string(total) + " bytes in " + std::to_string(table.shards)
                                          + " shard(s)" + (table.truncated ? " (listing cut)" : "") });
        // Variables of the main graph are matched by name, as TF1 savers write them; TF2 ones through the
        // object graph, which gives the variable behind each object path.
        const std::unordered_map<std::string, std::string> objectVariables = variablesByCheckpointKey();
        std::unordered_map<std::string, int> variables;
        for (int i = 0; i < int(m_graph->nodes.size()); ++i) {
            const models::graph::Node& node = m_graph->nodes[std::size_t(i)];
            if (node.subgraph == 0 && node.kind == models::graph::NodeKind::Parameter && !node.implicit)
                variables.emplace(node.id, i);
        }
        std::size_t rows = 0;
        for (const TfCheckpointEntry& e : table.entries) {
            const std::string file = tfCheckpointShardName(dataPrefix, e.shard, std::max(table.shards, 1));
            if (rows++ < kMaxVariableRows)
                m_graph->metadata.push_back({ "variable " + text::elide(text::printable(e.key), 200),
                                              e.type.text() + (e.sliced ? " (partitioned)" : "") + ", "
                                                  + std::to_string(e.size) + " bytes in " + file + " at "
                                                  + std::to_string(e.offset) });
            if (e.sliced)
                continue; // a slice of a partitioned variable: not the variable's shape
            models::graph::TensorLocation location;
            location.type = e.type;
            location.file = file;
            location.offset = e.offset;
            location.length = e.size;
            // Numeric tensors are stored as their elements in the byte order the header names; strings
            // (length-prefixed, with a checksum) and resources are not.
            location.encoding = !table.bigEndian && holdsPlainElements(location) ? "raw" : "bytes";
            auto it = variables.find(e.key);
            if (it == variables.end()) {
                if (const auto named = objectVariables.find(e.key); named != objectVariables.end())
                    it = variables.find(named->second);
            }
            if (it != variables.end() && !m_graph->nodes[std::size_t(it->second)].data)
                m_graph->nodes[std::size_t(it->second)].data = std::move(location);
            else if (location.encoding == "raw")
                m_graph->detachedWeights.push_back({ text::printable(e.key), std::move(location) });
        }
        if (table.entries.size() > kMaxVariableRows)
            m_graph->metadata.push_back(
                { "variables not listed", std::to_string(table.entries.size() - kMaxVariableRows) });
    }

    /// The checkpoint key of each variable of the shown meta graph's TF2 object graph, to its name: the key
    /// is the first path from the root (breadth first) to the variable, each child's local name escaped
    /// ('.' as "..", '/' as ".S") and joined by '/', then "/.ATTRIBUTES/VARIABLE_VALUE".
    std::unordered_map<std::string, std::string> variablesByCheckpointKey() const
    {
        std::unordered_map<std::string, std::string> out;
        if (!m_shown || !m_shown->has_object_graph_def())
            return out;
        const auto& nodes = m_shown->object_graph_def().nodes();
        std::vector<std::string> paths(std::size_t(nodes.size()));
        std::vector<bool> seen(std::size_t(nodes.size()), false);
        std::vector<int> queue;
        std::size_t pathBytes = 0;
        if (!nodes.empty()) {
            queue.push_back(0);
            seen[0] = true;
        }
        for (std::size_t at = 0; at < queue.size(); ++at) {
            const tf::SavedObject& object = nodes.Get(queue[at]);
            const std::string& path = paths[std::size_t(queue[at])];
            if (object.has_variable() && !object.variable().name().empty() && !path.empty())
                out.emplace(path + "/.ATTRIBUTES/VARIABLE_VALUE", object.variable().name());
            for (const tf::SavedObject::ObjectReference& child : object.children()) {
                const int id = child.node_id();
                if (id < 0 || id >= nodes.size() || seen[std::size_t(id)])
                    continue;
                std::string name;
                for (const char c : child.local_name())
                    name += c == '.' ? std::string("..") : c == '/' ? std::string(".S") : std::string(1, c);
                std::string childPath = path.empty() ? std::move(name) : path + "/" + name;
                if (childPath.size() > kMaxObjectPath || pathBytes > kMaxObjectPathBytes)
                    continue; // no checkpoint names a path this long; a chain this deep is hostile
                pathBytes += childPath.size();
                seen[std::size_t(id)] = true;
                paths[std::size_t(id)] = std::move(childPath);
                queue.push_back(id);
            }
        }
        return out;
    }

    int skippedMetaGraphs() const { return m_skippedMetaGraphs; }
    ImportBudget& budget() { return m_budget; }
    const TfGraphAssembler& assembler() const { return m_assembler; }
    std::unique_ptr<models::graph::Graph> take() { return std::move(m_graph); }

private:
    struct Placed
    {
        const tf::MetaGraphDef* meta = nullptr;
        int subgraph = 0;
        std::string prefix;
        int firstNode = 0;
    };

    void describe(const std::vector<const tf::MetaGraphDef*>& metas, const std::vector<Placed>& placed)
    {
        auto& md = m_graph->metadata;
        if (metas.size() > 1) {
            std::string all;
            for (const Placed& p : placed)
                all += (all.empty() ? "" : "; ") + tagsText(*p.meta);
            md.push_back({ "meta graphs", std::to_string(metas.size()) + ": " + all });
        }
        if (placed.empty())
            return;
        const tf::MetaGraphDef& main = *placed.front().meta;
        const tf::MetaInfoDef& info = main.meta_info_def();
        md.push_back({ "tags", tagsText(main) });
        if (!info.tensorflow_version().empty())
            md.push_back({ "tensorflow_version", text::elide(text::printable(info.tensorflow_version()), 64) });
        if (!info.tensorflow_git_version().empty())
            md.push_back({ "tensorflow_git_version", text::elide(text::printable(info.tensorflow_git_version()), 64) });
        if (!info.meta_graph_version().empty())
            md.push_back({ "meta_graph_version", text::elide(text::printable(info.meta_graph_version()), 64) });
        if (main.graph_def().has_versions())
            md.push_back({ "producer", std::to_string(main.graph_def().versions().producer()) });
        for (const Placed& p : placed) {
            const std::map<std::string, const tf::SignatureDef*> sorted = signatures(*p.meta);
            for (const auto& [name, sig] : sorted) {
                std::string value = sig->method_name().empty() ? std::string() : text::printable(sig->method_name());
                auto list = [&value](const char* what, const auto& map) {
                    std::map<std::string, const tf::TensorInfo*> items;
                    for (const auto& [key, info] : map)
                        items.emplace(key, &info);
                    std::string part;
                    for (const auto& [key, info] : items)
                        part += (part.empty() ? "" : ", ") + text::printable(key) + " " + infoType(*info).text();
                    value += (value.empty() ? "" : "; ") + std::string(what) + ": " + part;
                };
                list("inputs", sig->inputs());
                list("outputs", sig->outputs());
                const std::string label = p.prefix.empty() ? "signature " : "signature " + p.prefix + " ";
                md.push_back({ label + text::elide(text::printable(name), 128), text::elide(value, 1024) });
            }
        }
    }

    static std::map<std::string, const tf::SignatureDef*> signatures(const tf::MetaGraphDef& meta)
    {
        std::map<std::string, const tf::SignatureDef*> sorted;
        for (const auto& [name, sig] : meta.signature_def())
            sorted.emplace(name, &sig);
        return sorted;
    }

    void describeFolder(const QString& folder)
    {
        qint64 bytes = 0;
        int files = 0;
        QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext() && files < 100000) {
            it.next();
            bytes += it.fileInfo().size();
            ++files;
        }
        m_graph->metadata.push_back({ "variables",
                                      "variables/: " + std::to_string(files) + " file(s), " + std::to_string(bytes)
                                          + " bytes (no variables.index)" });
    }

    void addSignatures(const Placed& p)
    {
        std::unordered_map<std::string, int> byId;
        for (int i = p.firstNode; i < int(m_graph->nodes.size()); ++i)
            if (m_graph->nodes[std::size_t(i)].subgraph == p.subgraph)
                byId.emplace(m_graph->nodes[std::size_t(i)].id, i);
        auto find = [&](const std::string& node) {
            const auto it = byId.find(p.prefix.empty() ? node : p.prefix + "/" + node);
            return it == byId.end() ? -1 : it->second;
        };
        for (const auto& [name, sig] : signatures(*p.meta)) {
            const std::string sigName = text::elide(text::printable(name), 128);
            for (const auto& [key, info] : sortedInfos(sig->inputs())) {
                const auto [node, slot] = splitTensor(tensorName(*info));
                const int index = node.empty() || slot < 0 ? -1 : find(node);
                const std::string label = sigName + ":" + text::printable(key);
                if (index >= 0) {
                    models::graph::Node& target = m_graph->nodes[std::size_t(index)];
                    target.attributes.push_back({ "signature input", label + " " + infoType(*info).text() });
                    if (int(target.outputs.size()) <= slot) {
                        if (!m_budget.spendElements(slot + 1 - std::int64_t(target.outputs.size())))
                            return;
                        while (int(target.outputs.size()) <= slot) {
                            models::graph::Port out;
                            out.name = target.id + ":" + std::to_string(target.outputs.size());
                            target.outputs.push_back(std::move(out));
                        }
                    }
                    if (!target.outputs[std::size_t(slot)].type.known())
                        target.outputs[std::size_t(slot)].type = infoType(*info);
                    continue;
                }
                models::graph::Node input;
                input.kind = models::graph::NodeKind::Input;
                input.implicit = true;
                input.opType = "SignatureInput";
                input.name = label;
                input.scope = p.prefix;
                input.subgraph = p.subgraph;
                input.id = m_ids.take(p.prefix.empty() ? label : p.prefix + "/" + label);
                models::graph::Port out;
                out.name = text::printable(tensorName(*info));
                out.type = infoType(*info);
                input.outputs.push_back(std::move(out));
                if (!push(std::move(input), p.subgraph))
                    return;
            }
            for (const auto& [key, info] : sortedInfos(sig->outputs())) {
                const auto [node, slot] = splitTensor(tensorName(*info));
                const int index = node.empty() || slot < 0 ? -1 : find(node);
                const std::string label = sigName + ":" + text::printable(key);
                models::graph::Node output;
                output.kind = models::graph::NodeKind::Output;
                output.implicit = true;
                output.opType = "SignatureOutput";
                output.name = label;
                output.scope = p.prefix;
                output.subgraph = p.subgraph;
                output.id = m_ids.take(p.prefix.empty() ? label : p.prefix + "/" + label);
                models::graph::Port in;
                in.name = text::printable(tensorName(*info));
                in.type = infoType(*info);
                if (index >= 0) {
                    in.producer = index;
                    in.producerSlot = slot;
                    auto& outputs = m_graph->nodes[std::size_t(index)].outputs;
                    if (int(outputs.size()) <= slot) {
                        if (!m_budget.spendElements(slot + 1 - std::int64_t(outputs.size())))
                            return;
                        while (int(outputs.size()) <= slot) {
                            models::graph::Port port;
                            port.name = m_graph->nodes[std::size_t(index)].id + ":" + std::to_string(outputs.size());
                            outputs.push_back(std::move(port));
                        }
                    }
                }
                output.inputs.push_back(std::move(in));
                if (!push(std::move(output), p.subgraph))
                    return;
            }
        }
    }

    static std::map<std::string, const tf::TensorInfo*>
    sortedInfos(const google::protobuf::Map<std::string, tf::TensorInfo>& map)
    {
        std::map<std::string, const tf::TensorInfo*> sorted;
        for (const auto& [key, info] : map)
            sorted.emplace(key, &info);
        return sorted;
    }

    bool push(models::graph::Node node, int subgraph)
    {
        if (!chargeNode(m_budget, node))
            return false;
        m_graph->subgraphs[std::size_t(subgraph)].nodes.push_back(int(m_graph->nodes.size()));
        m_graph->nodes.push_back(std::move(node));
        return true;
    }

    QString m_path;
    ImportBudget m_budget;
    std::unique_ptr<models::graph::Graph> m_graph;
    TfGraphAssembler m_assembler;
    UniqueIds m_ids;
    int m_skippedMetaGraphs = 0;
    const tf::MetaGraphDef* m_shown = nullptr; ///< the meta graph shown as subgraph 0
};

GraphResult build(const std::vector<const tf::MetaGraphDef*>& metas, std::size_t inputBytes, const QString& path,
                  models::Diagnostics diagnostics, const ImportControl& control, bool metaFile,
                  std::int64_t schemaVersion)
{
    SavedModelBuilder builder(path, inputBytes, control);
    if (!builder.add(metas)) {
        GraphResult result = publishGraph(builder.take(), diagnostics, true);
        result.canceled = true;
        return result;
    }
    if (builder.budget().exceeded())
        diagnostics.append(builder.budget().diagnostic(path, -1));
    builder.assembler().report(diagnostics, path);
    if (builder.skippedMetaGraphs() > 0)
        diagnostics.append(graphDiagnostic(models::Severity::Warning, path,
                                           GraphTr::tr("The file holds %1 meta graphs; the first %2 were read.")
                                               .arg(metas.size())
                                               .arg(kMaxMetaGraphs)));
    builder.addVariables(diagnostics, metaFile);
    std::unique_ptr<models::graph::Graph> graph = builder.take();
    if (schemaVersion >= 0)
        graph->metadata.insert(graph->metadata.begin(),
                               { "saved_model_schema_version", std::to_string(schemaVersion) });
    return publishGraph(std::move(graph), diagnostics);
}

} // namespace

GraphResult SavedModelReader::read(std::string_view bytes, const QString& path, const ImportControl& control)
{
    if (path.endsWith(QLatin1String(".meta"), Qt::CaseInsensitive))
        return readMetaGraph(bytes, path, control);
    return readSavedModel(bytes, path, control);
}

GraphResult SavedModelReader::readSavedModel(std::string_view bytes, const QString& path, const ImportControl& control)
{
    return guardedRead(path, [&]() -> GraphResult {
        models::Diagnostics diagnostics;
        if (bytes.empty()) {
            diagnostics.append(graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The SavedModel is empty.")));
            return publishGraph(nullptr, diagnostics, true);
        }
        tf::SavedModel model;
        if (!wire::parse(model, bytes)) {
            model.Clear();
            const std::size_t stop = wire::salvage(model, bytes);
            wire::Field cut;
            if (stop < bytes.size() && wire::cutField(bytes, stop, cut) && cut.number == 2 && cut.wireType == 2) {
                tf::MetaGraphDef partial;
                salvageMeta(partial, bytes.substr(cut.dataBegin, std::min(cut.dataSize, bytes.size() - cut.dataBegin)));
                if (partial.graph_def().node_size() > 0 || partial.graph_def().library().function_size() > 0)
                    *model.add_meta_graphs() = std::move(partial);
            }
            if (model.meta_graphs_size() == 0) {
                diagnostics.append(graphDiagnostic(
                    models::Severity::Error, path,
                    GraphTr::tr(
                        "Not a readable TensorFlow SavedModel: the protobuf data is damaged or of another kind."),
                    qint64(stop)));
                return publishGraph(nullptr, diagnostics, true);
            }
            diagnostics.append(graphDiagnostic(
                models::Severity::Warning, path,
                GraphTr::tr("The SavedModel is damaged or cut off after byte %1; what was before it was read.")
                    .arg(stop),
                qint64(stop)));
        }
        if (model.meta_graphs_size() == 0) {
            diagnostics.append(
                graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The SavedModel holds no meta graph.")));
            return publishGraph(nullptr, diagnostics, true);
        }
        std::vector<const tf::MetaGraphDef*> metas;
        for (const tf::MetaGraphDef& meta : model.meta_graphs())
            metas.push_back(&meta);
        return build(metas, bytes.size(), path, diagnostics, control, false, model.saved_model_schema_version());
    });
}

GraphResult SavedModelReader::readMetaGraph(std::string_view bytes, const QString& path, const ImportControl& control)
{
    return guardedRead(path, [&]() -> GraphResult {
        models::Diagnostics diagnostics;
        if (bytes.empty()) {
            diagnostics.append(
                graphDiagnostic(models::Severity::Error, path, GraphTr::tr("The MetaGraphDef is empty.")));
            return publishGraph(nullptr, diagnostics, true);
        }
        tf::MetaGraphDef meta;
        if (!wire::parse(meta, bytes)) {
            meta.Clear();
            const std::size_t stop = salvageMeta(meta, bytes);
            if (meta.graph_def().node_size() == 0 && meta.graph_def().library().function_size() == 0) {
                diagnostics.append(graphDiagnostic(
                    models::Severity::Error, path,
                    GraphTr::tr(
                        "Not a readable TensorFlow MetaGraphDef: the protobuf data is damaged or of another kind."),
                    qint64(stop)));
                return publishGraph(nullptr, diagnostics, true);
            }
            diagnostics.append(graphDiagnostic(
                models::Severity::Warning, path,
                GraphTr::tr("The MetaGraphDef is damaged or cut off after byte %1; the %2 nodes before it were read.")
                    .arg(stop)
                    .arg(meta.graph_def().node_size()),
                qint64(stop)));
        }
        return build({ &meta }, bytes.size(), path, diagnostics, control, true, -1);
    });
}

} // namespace runlens::importers::graph
