#include "importers/core/report.h"

#include "importers/profiler/profilerrunreader.h"
#include "models/cluster/clusterreport.h"
#include "models/core/profilerbundle.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cmath>

namespace runlens::importers {

namespace {

QJsonValue rankValue(const models::Artifact& artifact)
{
    return artifact.rank ? QJsonValue(*artifact.rank) : QJsonValue(QJsonValue::Null);
}

QJsonArray diagnosticsJson(const models::Diagnostics& diagnostics, const QString& root)
{
    QJsonArray out;
    for (const models::Diagnostic& d : diagnostics) {
        QJsonObject o;
        o.insert(QStringLiteral("severity"), models::severityId(d.severity));
        o.insert(QStringLiteral("message"), d.message);
        o.insert(QStringLiteral("offset"), d.offset >= 0 ? QJsonValue(double(d.offset)) : QJsonValue());
        if (d.line >= 0)
            o.insert(QStringLiteral("line"), double(d.line));
        if (!d.file.isEmpty() && !root.isEmpty() && d.file.startsWith(root + QLatin1Char('/')))
            o.insert(QStringLiteral("file"), d.file.mid(root.size() + 1));
        else if (!d.file.isEmpty())
            o.insert(QStringLiteral("file"), d.file);
        out.append(o);
    }
    return out;
}

QJsonObject artifactBase(const models::Artifact& artifact, const models::RunManifest& manifest)
{
    QJsonObject o;
    o.insert(QStringLiteral("path"), artifact.relativePath);
    o.insert(QStringLiteral("kind"), models::artifactKindId(artifact.kind));
    o.insert(QStringLiteral("run"), artifact.run);
    o.insert(QStringLiteral("run_display_name"), manifest.runDisplayName(artifact.run));
    o.insert(QStringLiteral("rank"), rankValue(artifact));
    o.insert(QStringLiteral("size"), double(artifact.size));
    return o;
}

QString contractStatus(models::ImportStatus status)
{
    // The contract knows ok|partial|failed, plus "unsupported" for kinds this build lists only.
    switch (status) {
    case models::ImportStatus::Ok:
        return QStringLiteral("ok");
    case models::ImportStatus::Partial:
    case models::ImportStatus::Canceled:
        return QStringLiteral("partial");
    case models::ImportStatus::Unsupported:
        return QStringLiteral("unsupported");
    case models::ImportStatus::Deferred:
        return QStringLiteral("deferred");
    default:
        return QStringLiteral("failed");
    }
}

QJsonObject countsJson(const QMap<QString, quint64>& counts)
{
    QJsonObject o;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        o.insert(it.key(), double(it.value()));
    return o;
}

QJsonObject traceJson(const models::trace::TraceSummary& t)
{
    QJsonObject o;
    o.insert(QStringLiteral("events"), double(t.events));
    o.insert(QStringLiteral("by_phase"), countsJson(t.byPhase));
    o.insert(QStringLiteral("by_kind"), countsJson(t.byKind));
    o.insert(QStringLiteral("tracks"), t.tracks);
    o.insert(QStringLiteral("processes"), t.processes);
    o.insert(QStringLiteral("steps"), t.steps);
    o.insert(QStringLiteral("memory_events"), double(t.memoryEvents));
    o.insert(QStringLiteral("flows"), double(t.flows));
    o.insert(QStringLiteral("span_ns"), double(t.spanNs));
    QJsonArray top;
    for (const models::trace::TraceSummary::Operator& op : t.topOperators) {
        top.append(QJsonObject { { QStringLiteral("name"), op.name },
                                 { QStringLiteral("calls"), double(op.calls) },
                                 { QStringLiteral("total_ns"), double(op.totalNs) },
                                 { QStringLiteral("self_ns"), double(op.selfNs) } });
    }
    o.insert(QStringLiteral("top_operators"), top);
    return o;
}

QJsonObject memoryJson(const QList<models::MemoryDeviceSummary>& devices)
{
    QJsonArray list;
    for (const models::MemoryDeviceSummary& m : devices) {
        QJsonObject o;
        o.insert(QStringLiteral("device"), m.device);
        o.insert(QStringLiteral("rank"), m.rank >= 0 ? QJsonValue(m.rank) : QJsonValue());
        o.insert(QStringLiteral("peak_bytes"), double(m.peakBytes));
        o.insert(m.timeAxis ? QStringLiteral("peak_time_ns") : QStringLiteral("peak_node"),
                 m.peakLocated ? QJsonValue(double(m.peakAt)) : QJsonValue());
        o.insert(QStringLiteral("peak_op"), m.peakOp.isEmpty() ? QJsonValue() : QJsonValue(m.peakOp));
        o.insert(QStringLiteral("peak_step"), m.peakStep >= 0 ? QJsonValue(double(m.peakStep)) : QJsonValue());
        o.insert(QStringLiteral("capacity_bytes"), m.capacity > 0 ? QJsonValue(double(m.capacity)) : QJsonValue());
        o.insert(QStringLiteral("oom_count"), m.ooms);
        o.insert(QStringLiteral("relative"), m.relative);
        list.append(o);
    }
    return QJsonObject { { QStringLiteral("devices"), list } };
}

QString mebibytes(qint64 bytes)
{
    return QString::number(double(bytes) / double(1 << 20), 'f', 1);
}

QString memoryText(const models::MemoryDeviceSummary& m)
{
    QString line;
    if (!m.peakLocated)
        line = QCoreApplication::translate("runlens::Report", "  memory %1: peak %2 MiB")
                   .arg(m.device, mebibytes(m.peakBytes));
    else if (m.timeAxis)
        line = QCoreApplication::translate("runlens::Report", "  memory %1: peak %2 MiB at %3 ms")
                   .arg(m.device, mebibytes(m.peakBytes))
                   .arg(double(m.peakAt - m.origin) / 1e6, 0, 'f', 3);
    else
        line = QCoreApplication::translate("runlens::Report", "  memory %1: peak %2 MiB at node %3")
                   .arg(m.device, mebibytes(m.peakBytes))
                   .arg(m.peakAt);
    if (!m.peakOp.isEmpty())
        line += QCoreApplication::translate("runlens::Report", ", in %1").arg(m.peakOp);
    if (m.peakStep >= 0)
        line += QCoreApplication::translate("runlens::Report", ", step %1").arg(m.peakStep);
    if (m.capacity > 0)
        line += QCoreApplication::translate("runlens::Report", ", capacity %1 MiB").arg(mebibytes(m.capacity));
    if (m.ooms > 0)
        line += QCoreApplication::translate("runlens::Report", ", %n out-of-memory event(s)", nullptr, m.ooms);
    if (m.relative)
        line += QCoreApplication::translate("runlens::Report", " (relative to an unknown baseline)");
    return line + QLatin1Char('\n');
}

QJsonObject profilerJson(const models::ProfilerBundle& bundle)
{
    QJsonObject o;
    QJsonArray ranks;
    if (bundle.ranks) {
        for (const models::profiler::ProfilerRankData& rank : bundle.ranks->ranks)
            ranks.append(profiler::rankInfoJson(rank));
    }
    o.insert(QStringLiteral("ranks"), ranks);
    QJsonArray pipelines;
    for (const auto& p : bundle.pipelines) {
        QJsonObject q;
        q.insert(QStringLiteral("rank"), p->rank);
        q.insert(QStringLiteral("ops"), int(p->ops.size()));
        const models::pipeline::Bottleneck* b = p->primaryBottleneck();
        const models::pipeline::PipelineOp* op = b ? p->op(b->opId) : nullptr;
        q.insert(QStringLiteral("bottleneck"),
                 op ? QJsonValue(QStringLiteral("%1 (op %2)").arg(op->type).arg(op->id)) : QJsonValue());
        q.insert(QStringLiteral("keeps_up"), p->pipelineKeepsUp);
        pipelines.append(q);
    }
    o.insert(QStringLiteral("pipelines"), pipelines);
    if (bundle.cluster)
        o.insert(QStringLiteral("cluster"), models::cluster::clusterReport(*bundle.cluster));
    return o;
}

QString profilerText(const models::ProfilerBundle& bundle)
{
    QString out;
    if (bundle.ranks) {
        for (const models::profiler::ProfilerRankData& rank : bundle.ranks->ranks) {
            QString line = QCoreApplication::translate("runlens::Report", "  profiler rank %1 (%2): %n step(s)",
                                                       nullptr, int(rank.steps.steps.size()))
                               .arg(rank.rank)
                               .arg(models::profiler::deviceTypeName(rank.deviceType));
            if (!rank.steps.isEmpty())
                line += QCoreApplication::translate("runlens::Report", ", average step %1 ms")
                            .arg(rank.steps.average.totalUs / 1000.0, 0, 'f', 3);
            if (!rank.operators.types.empty()) {
                const models::profiler::OpTypeStats& top = rank.operators.types.front();
                line += QCoreApplication::translate("runlens::Report", ", top operator type %1 (%2%)")
                            .arg(top.type)
                            .arg(top.share * 100.0, 0, 'f', 1);
            }
            out += line + QLatin1Char('\n');
        }
    }
    for (const auto& p : bundle.pipelines) {
        const models::pipeline::Bottleneck* b = p->primaryBottleneck();
        const models::pipeline::PipelineOp* op = b ? p->op(b->opId) : nullptr;
        out += (op ? QCoreApplication::translate("runlens::Report", "  data pipeline rank %1: %n op(s), bottleneck %2",
                                                 nullptr, int(p->ops.size()))
                         .arg(p->rank)
                         .arg(op->type)
                   : QCoreApplication::translate("runlens::Report", "  data pipeline rank %1: %n op(s), no bottleneck",
                                                 nullptr, int(p->ops.size()))
                         .arg(p->rank))
            + QLatin1Char('\n');
    }
    if (bundle.cluster) {
        for (const QString& line : models::cluster::clusterReportLines(*bundle.cluster))
            out += QStringLiteral("  ") + line + QLatin1Char('\n');
    }
    return out;
}

QJsonObject graphJson(const models::graph::GraphSummary& g)
{
    QJsonObject o;
    o.insert(QStringLiteral("nodes"), g.nodes);
    o.insert(QStringLiteral("edges"), g.edges);
    o.insert(QStringLiteral("groups"), g.groups);
    o.insert(QStringLiteral("max_depth"), g.maxDepth);
    o.insert(QStringLiteral("format"), QString::fromLatin1(models::graph::graphFormatId(g.format)));
    o.insert(QStringLiteral("subgraphs"), g.subgraphs);
    o.insert(QStringLiteral("implicit_nodes"), g.implicitNodes);
    o.insert(QStringLiteral("all_edges"), g.allEdges);
    QJsonObject types;
    for (const auto& [type, count] : g.opTypes)
        types.insert(QString::fromStdString(type), count);
    o.insert(QStringLiteral("op_types"), types);
    return o;
}

} // namespace

QJsonValue finiteOrNull(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue();
}

QJsonObject tensorJson(const models::tensor::TensorSummary& t)
{
    QJsonObject o;
    o.insert(QStringLiteral("dtype"), QString::fromLatin1(models::tensor::dtypeName(t.dtype)));
    QJsonArray shape;
    for (const std::int64_t d : t.shape)
        shape.append(double(d));
    o.insert(QStringLiteral("shape"), shape);
    if (!t.note.isEmpty())
        o.insert(QStringLiteral("note"), t.note);
    if (t.statistics) {
        const models::tensor::TensorStatistics& s = *t.statistics;
        o.insert(QStringLiteral("min"), finiteOrNull(s.min));
        o.insert(QStringLiteral("max"), finiteOrNull(s.max));
        o.insert(QStringLiteral("mean"), finiteOrNull(s.mean));
        o.insert(QStringLiteral("std"), finiteOrNull(s.std));
        o.insert(QStringLiteral("mean_abs"), finiteOrNull(s.meanAbs));
        o.insert(QStringLiteral("l2"), finiteOrNull(s.l2));
        o.insert(QStringLiteral("nan"), double(s.nan));
        o.insert(QStringLiteral("posinf"), double(s.posInf));
        o.insert(QStringLiteral("neginf"), double(s.negInf));
        o.insert(QStringLiteral("zeros"), double(s.zeros));
    }
    return o;
}

QString tensorText(const models::tensor::TensorSummary& t)
{
    QString out = QLatin1String(models::tensor::dtypeName(t.dtype)) + models::tensor::shapeText(t.shape);
    if (t.statistics) {
        const models::tensor::TensorStatistics& s = *t.statistics;
        out += QCoreApplication::translate("runlens::Report",
                                           "  min %1  max %2  mean %3  std %4  NaN %5  +Inf %6  -Inf %7  zeros %8")
                   .arg(s.min, 0, 'g', 7)
                   .arg(s.max, 0, 'g', 7)
                   .arg(s.mean, 0, 'g', 7)
                   .arg(s.std, 0, 'g', 7)
                   .arg(s.nan)
                   .arg(s.posInf)
                   .arg(s.negInf)
                   .arg(s.zeros);
    }
    if (!t.note.isEmpty())
        out += QStringLiteral("  (%1)").arg(t.note);
    return out;
}

QJsonObject scanReportJson(const models::RunManifest& manifest)
{
    QJsonObject root;
    root.insert(QStringLiteral("root"), manifest.root);
    root.insert(QStringLiteral("truncated"), manifest.truncated);
    root.insert(QStringLiteral("entries"), double(manifest.entriesVisited));
    QJsonArray runs;
    for (const QString& run : manifest.runs()) {
        QJsonObject r;
        r.insert(QStringLiteral("name"), run);
        r.insert(QStringLiteral("display_name"), manifest.runDisplayName(run));
        QJsonArray ranks;
        QJsonObject kinds;
        for (int i : manifest.artifactsOfRun(run)) {
            const models::Artifact& a = manifest.artifacts[i];
            if (a.rank && !ranks.contains(*a.rank))
                ranks.append(*a.rank);
            const QString id = models::artifactKindId(a.kind);
            kinds.insert(id, kinds.value(id).toInt() + 1);
        }
        r.insert(QStringLiteral("ranks"), ranks);
        r.insert(QStringLiteral("kinds"), kinds);
        runs.append(r);
    }
    root.insert(QStringLiteral("runs"), runs);
    QJsonArray artifacts;
    for (const models::Artifact& a : manifest.artifacts)
        artifacts.append(artifactBase(a, manifest));
    root.insert(QStringLiteral("artifacts"), artifacts);
    root.insert(QStringLiteral("diagnostics"), diagnosticsJson(manifest.diagnostics, manifest.root));
    return root;
}

QString scanReportText(const models::RunManifest& manifest)
{
    QString out;
    out += QCoreApplication::translate("runlens::Report", "Run folder: %1").arg(manifest.root) + QLatin1Char('\n');
    for (const QString& run : manifest.runs()) {
        const QList<int> members = manifest.artifactsOfRun(run);
        out += QCoreApplication::translate("runlens::Report", "run %1 (%2 files)")
                   .arg(manifest.runDisplayName(run))
                   .arg(members.size())
            + QLatin1Char('\n');
        for (int i : members) {
            const models::Artifact& a = manifest.artifacts[i];
            QString line = QStringLiteral("  %1  [%2]").arg(a.relativePath, models::artifactKindId(a.kind));
            if (a.rank)
                line += QStringLiteral("  rank %1").arg(*a.rank);
            line += QStringLiteral("  %1 bytes").arg(a.size);
            out += line + QLatin1Char('\n');
        }
    }
    if (manifest.artifacts.isEmpty())
        out += QCoreApplication::translate("runlens::Report", "No training artifacts found.") + QLatin1Char('\n');
    if (manifest.truncated)
        out += QCoreApplication::translate("runlens::Report",
                                           "The walk stopped at the entry limit; some files were not scanned.")
            + QLatin1Char('\n');
    for (const models::Diagnostic& d : manifest.diagnostics)
        out += models::severityId(d.severity) + QStringLiteral(": ") + d.toString() + QLatin1Char('\n');
    return out;
}

namespace {

QJsonValue finiteOrNull(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QJsonObject hparamsJson(const models::summary::HParams& h)
{
    QJsonObject o;
    o.insert(QStringLiteral("values"), QJsonObject::fromVariantMap(h.values));
    QJsonArray infos;
    for (const models::summary::HParamInfo& info : h.hparamInfos) {
        QJsonObject i;
        i.insert(QStringLiteral("name"), info.name);
        i.insert(QStringLiteral("type"), info.type);
        if (!info.domainValues.isEmpty())
            i.insert(QStringLiteral("domain"), QJsonArray::fromVariantList(info.domainValues));
        if (!std::isnan(info.domainMin) || !std::isnan(info.domainMax))
            i.insert(QStringLiteral("interval"),
                     QJsonArray { finiteOrNull(info.domainMin), finiteOrNull(info.domainMax) });
        infos.append(i);
    }
    o.insert(QStringLiteral("hparam_infos"), infos);
    QJsonArray metrics;
    for (const models::summary::MetricInfo& m : h.metricInfos)
        metrics.append(QJsonObject { { QStringLiteral("tag"), m.tag }, { QStringLiteral("group"), m.group } });
    o.insert(QStringLiteral("metrics"), metrics);
    if (!h.status.isEmpty())
        o.insert(QStringLiteral("status"), h.status);
    if (!h.groupName.isEmpty())
        o.insert(QStringLiteral("group"), h.groupName);
    return o;
}

} // namespace

QJsonObject infoReportJson(const models::RunManifest& manifest, const std::vector<models::ArtifactState>& states)
{
    QJsonObject root;
    root.insert(QStringLiteral("root"), manifest.root);
    QJsonArray artifacts;
    for (int i = 0; i < manifest.artifacts.size(); ++i) {
        const models::Artifact& a = manifest.artifacts[i];
        const models::ArtifactState& state = states.at(i);
        QJsonObject o;
        o.insert(QStringLiteral("path"), a.relativePath);
        o.insert(QStringLiteral("kind"), models::artifactKindId(a.kind));
        o.insert(QStringLiteral("run"), a.run);
        o.insert(QStringLiteral("run_display_name"), manifest.runDisplayName(a.run));
        o.insert(QStringLiteral("rank"), rankValue(a));
        o.insert(QStringLiteral("status"), contractStatus(state.status));
        o.insert(QStringLiteral("diagnostics"), diagnosticsJson(state.diagnostics, manifest.root));
        if (state.growing)
            o.insert(QStringLiteral("incomplete_tail"), true);
        if (models::carriesScalars(a.kind) && state.status != models::ImportStatus::Unsupported) {
            QJsonObject tags;
            for (auto it = state.scalarTags.cbegin(); it != state.scalarTags.cend(); ++it) {
                QJsonObject t;
                t.insert(QStringLiteral("points"), double(it->points));
                t.insert(QStringLiteral("first_step"), double(it->firstStep));
                t.insert(QStringLiteral("last_step"), double(it->lastStep));
                tags.insert(it.key(), t);
            }
            o.insert(QStringLiteral("scalars"), QJsonObject { { QStringLiteral("tags"), tags } });
        }
        if (state.trace)
            o.insert(QStringLiteral("trace"), traceJson(*state.trace));
        if (state.graph)
            o.insert(QStringLiteral("graph"), graphJson(*state.graph));
        if (state.memory)
            o.insert(QStringLiteral("memory"), memoryJson(*state.memory));
        if (state.profiler)
            o.insert(QStringLiteral("profiler"), profilerJson(*state.profiler));
        if (state.tensors) {
            // A .npy is one tensor; archives and safetensors files hold several, by member name.
            if ((a.kind == models::ArtifactKind::TensorNpy || a.kind == models::ArtifactKind::TensorPt)
                && state.tensors->size() == 1 && state.tensors->first().member.isEmpty()) {
                o.insert(QStringLiteral("tensor"), tensorJson(state.tensors->first()));
            } else {
                QJsonObject members;
                for (const models::tensor::TensorSummary& t : *state.tensors)
                    members.insert(t.member, tensorJson(t));
                o.insert(QStringLiteral("tensors"), members);
            }
            if (!state.tensorFileMetadata.isEmpty()) {
                QJsonObject metadata;
                for (auto it = state.tensorFileMetadata.cbegin(); it != state.tensorFileMetadata.cend(); ++it)
                    metadata.insert(it.key(), it.value());
                o.insert(QStringLiteral("metadata"), metadata);
            }
        }
        if (state.lineage)
            o.insert(QStringLiteral("lineage"), QJsonObject::fromVariantMap(state.lineage->toVariantMap()));
        // Histograms, images, texts, audio, PR and ROC curves and summary tensors: the values kept per tag.
        // `count` came first; `points` is the name the scalars section and the documented contract use.
        for (auto kind = state.summaryTags.cbegin(); kind != state.summaryTags.cend(); ++kind) {
            QJsonObject tags;
            for (auto it = kind->cbegin(); it != kind->cend(); ++it) {
                QJsonObject t;
                t.insert(QStringLiteral("count"), double(it->points));
                t.insert(QStringLiteral("points"), double(it->points));
                t.insert(QStringLiteral("first_step"), double(it->firstStep));
                t.insert(QStringLiteral("last_step"), double(it->lastStep));
                if (kind.key() == QLatin1String("audio")) {
                    t.insert(QStringLiteral("sample_rate"), it->sampleRate);
                    t.insert(QStringLiteral("channels"), it->channels);
                }
                tags.insert(it.key(), t);
            }
            o.insert(kind.key(), QJsonObject { { QStringLiteral("tags"), tags } });
        }
        if (state.hparams)
            o.insert(QStringLiteral("hparams"), hparamsJson(*state.hparams));
        if (state.embeddings) {
            QJsonObject sets;
            for (const models::embeddings::EmbeddingSummary& e : *state.embeddings) {
                sets.insert(
                    e.name,
                    QJsonObject { { QStringLiteral("points"), e.points },
                                  { QStringLiteral("dims"), e.dims },
                                  { QStringLiteral("metadata_columns"), QJsonArray::fromStringList(e.metadataColumns) },
                                  { QStringLiteral("sprite"), e.sprite } });
            }
            o.insert(QStringLiteral("embeddings"), sets);
        }
        artifacts.append(o);
    }
    root.insert(QStringLiteral("artifacts"), artifacts);
    return root;
}

QString infoReportText(const models::RunManifest& manifest, const std::vector<models::ArtifactState>& states)
{
    QString out;
    out += QCoreApplication::translate("runlens::Report", "Run folder: %1").arg(manifest.root) + QLatin1Char('\n');
    for (int i = 0; i < manifest.artifacts.size(); ++i) {
        const models::Artifact& a = manifest.artifacts[i];
        const models::ArtifactState& state = states.at(i);
        out += QStringLiteral("%1  [%2]  run %3  %4\n")
                   .arg(a.relativePath, models::artifactKindId(a.kind), manifest.runDisplayName(a.run),
                        contractStatus(state.status));
        if (state.growing)
            out += QStringLiteral("  ")
                + QCoreApplication::translate("runlens::Report",
                                              "ends in an incomplete record: the writer may still be adding to it")
                + QLatin1Char('\n');
        if (state.trace) {
            const models::trace::TraceSummary& t = *state.trace;
            QStringList phases;
            for (auto it = t.byPhase.cbegin(); it != t.byPhase.cend(); ++it)
                phases << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
            out += QCoreApplication::translate("runlens::Report",
                                               "  trace: %1 events (%2), %3 tracks, %4 steps, %5 memory events, "
                                               "%6 flows, span %7 ms")
                       .arg(t.events)
                       .arg(phases.join(QStringLiteral(", ")))
                       .arg(t.tracks)
                       .arg(t.steps)
                       .arg(t.memoryEvents)
                       .arg(t.flows)
                       .arg(double(t.spanNs) / 1e6, 0, 'f', 3)
                + QLatin1Char('\n');
            for (const models::trace::TraceSummary::Operator& op : t.topOperators) {
                out += QCoreApplication::translate("runlens::Report", "    %1: %2 calls, %3 ms total, %4 ms self")
                           .arg(op.name)
                           .arg(op.calls)
                           .arg(double(op.totalNs) / 1e6, 0, 'f', 3)
                           .arg(double(op.selfNs) / 1e6, 0, 'f', 3)
                    + QLatin1Char('\n');
            }
        }
        if (state.profiler)
            out += profilerText(*state.profiler);
        if (state.memory) {
            for (const models::MemoryDeviceSummary& m : *state.memory)
                out += memoryText(m);
        }
        if (state.tensors) {
            for (const models::tensor::TensorSummary& t : *state.tensors) {
                out += (t.member.isEmpty() ? QCoreApplication::translate("runlens::Report", "  tensor: %1")
                                           : QStringLiteral("  %1: ").arg(t.member) + QStringLiteral("%1"))
                           .arg(tensorText(t))
                    + QLatin1Char('\n');
            }
            for (auto it = state.tensorFileMetadata.cbegin(); it != state.tensorFileMetadata.cend(); ++it)
                out += QCoreApplication::translate("runlens::Report", "  metadata %1: %2").arg(it.key(), it.value())
                    + QLatin1Char('\n');
        }
        if (state.lineage) {
            const QVariantMap values = state.lineage->toVariantMap();
            for (auto it = values.cbegin(); it != values.cend(); ++it)
                out += QCoreApplication::translate("runlens::Report", "  lineage %1: %2")
                           .arg(it.key(), it.value().toString())
                    + QLatin1Char('\n');
        }
        if (state.graph) {
            const models::graph::GraphSummary& g = *state.graph;
            out += QCoreApplication::translate("runlens::Report",
                                               "  graph (%1): %2 nodes, %3 edges, %4 groups, depth %5, %6 subgraphs, "
                                               "%7 weights/constants/inputs/outputs")
                       .arg(QString::fromLatin1(models::graph::graphFormatId(g.format)))
                       .arg(g.nodes)
                       .arg(g.edges)
                       .arg(g.groups)
                       .arg(g.maxDepth)
                       .arg(g.subgraphs)
                       .arg(g.implicitNodes)
                + QLatin1Char('\n');
            QStringList types;
            for (const auto& [type, count] : g.opTypes)
                types << QStringLiteral("%1 %2").arg(QString::fromStdString(type)).arg(count);
            if (!types.isEmpty())
                out += QCoreApplication::translate("runlens::Report", "    op types: %1")
                           .arg(types.join(QStringLiteral(", ")))
                    + QLatin1Char('\n');
        }
        for (auto it = state.scalarTags.cbegin(); it != state.scalarTags.cend(); ++it) {
            out += QCoreApplication::translate("runlens::Report", "  scalars %1: %2 points, steps %3..%4")
                       .arg(it.key())
                       .arg(it->points)
                       .arg(it->firstStep)
                       .arg(it->lastStep)
                + QLatin1Char('\n');
        }
        for (auto kind = state.summaryTags.cbegin(); kind != state.summaryTags.cend(); ++kind) {
            for (auto it = kind->cbegin(); it != kind->cend(); ++it) {
                out += QCoreApplication::translate("runlens::Report", "  %1 %2: %3 kept, steps %4..%5")
                           .arg(kind.key(), it.key())
                           .arg(it->points)
                           .arg(it->firstStep)
                           .arg(it->lastStep)
                    + QLatin1Char('\n');
            }
        }
        if (state.embeddings) {
            for (const models::embeddings::EmbeddingSummary& e : *state.embeddings) {
                out += QCoreApplication::translate("runlens::Report", "  embeddings %1: %2 points x %3 dimensions")
                           .arg(e.name)
                           .arg(e.points)
                           .arg(e.dims)
                    + QLatin1Char('\n');
            }
        }
        if (state.hparams) {
            const QVariantMap values = state.hparams->values;
            for (auto it = values.cbegin(); it != values.cend(); ++it)
                out += QCoreApplication::translate("runlens::Report", "  hparam %1: %2")
                           .arg(it.key(), it.value().toString())
                    + QLatin1Char('\n');
            QStringList metrics;
            for (const models::summary::MetricInfo& m : state.hparams->metricInfos)
                metrics << (m.group.isEmpty() ? m.tag : m.group + QLatin1Char('/') + m.tag);
            if (!metrics.isEmpty())
                out += QCoreApplication::translate("runlens::Report", "  hparams metrics: %1")
                           .arg(metrics.join(QStringLiteral(", ")))
                    + QLatin1Char('\n');
            if (!state.hparams->status.isEmpty())
                out += QCoreApplication::translate("runlens::Report", "  hparams session: %1")
                           .arg(state.hparams->status)
                    + QLatin1Char('\n');
        }
        for (const models::Diagnostic& d : state.diagnostics)
            out += QStringLiteral("  ") + models::severityId(d.severity) + QStringLiteral(": ") + d.toString()
                + QLatin1Char('\n');
    }
    if (manifest.artifacts.isEmpty())
        out += QCoreApplication::translate("runlens::Report", "No training artifacts found.") + QLatin1Char('\n');
    return out;
}

} // namespace runlens::importers
