#include "importers/cluster/mindsporeclusterparts.h"

#include "importers/profiler/csvtable.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace runlens::importers::cluster::mindspore {

namespace {

/// Visits every object of a JSON tree keyed "src-dst" whose value describes one transfer.
template<typename Visit> void forEachTransfer(const QJsonObject& object, int depth, Visit&& visit)
{
    static const QRegularExpression linkKey(QStringLiteral("^\\s*(\\d+)\\s*-\\s*(\\d+)\\s*$"));
    if (depth > 8)
        return;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!it.value().isObject())
            continue;
        const QJsonObject value = it.value().toObject();
        const auto match = linkKey.match(it.key());
        if (match.hasMatch() && value.contains(QLatin1String("Transport Type")))
            visit(match.captured(1).toInt(), match.captured(2).toInt(), value);
        else
            forEachTransfer(value, depth + 1, visit);
    }
}

} // namespace

/// A rank's 2.x `communication_matrix.json`: `{step: {collective|p2p: {op: {"src-dst": {"Transport Type",
/// "Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)"}}}}}`. Each link's bandwidth is its total size
/// over its total time across the steps and operators; self-transfers are left out as MindInsight does.
void readCommunicationMatrix(const QString& path, std::map<LinkKey, std::vector<models::cluster::ClusterLink>>& links,
                             models::Diagnostics& diagnostics)
{
    const auto doc = readJson(path, diagnostics);
    if (!doc)
        return;
    if (!doc->isObject()) {
        diagnostics.append(
            { models::Severity::Error, path, -1, -1, trCluster("Not a communication matrix: no JSON object") });
        return;
    }
    struct Totals
    {
        double size = 0;
        double time = 0;
    };
    std::map<std::tuple<int, int, QString>, Totals> totals;
    int transfers = 0;
    forEachTransfer(doc->object(), 0, [&](int src, int dst, const QJsonObject& transfer) {
        ++transfers;
        if (src == dst)
            return;
        const QString type = transfer.value(QLatin1String("Transport Type")).toString().trimmed().toUpper();
        const double size = transfer.value(QLatin1String("Transit Size(MB)")).toDouble(-1);
        const double time = transfer.value(QLatin1String("Transit Time(ms)")).toDouble(-1);
        if (type.isEmpty() || type == QLatin1String("LOCAL") || size < 0 || time < 0)
            return;
        Totals& t = totals[{ src, dst, type }];
        t.size += size;
        t.time += time;
    });
    if (transfers == 0) {
        diagnostics.append({ models::Severity::Warning, path, -1, -1,
                             trCluster("No “src-dst” transfers with a Transport Type: not a communication matrix") });
        return;
    }
    for (const auto& [key, t] : totals) {
        models::cluster::ClusterLink link;
        link.src = std::get<0>(key);
        link.dst = std::get<1>(key);
        link.type = std::get<2>(key);
        link.size = t.size;
        link.time = t.time;
        link.bandwidth = t.time > 0 ? t.size / t.time : models::cluster::kMissing; // MB/ms = GB/s
        links[key].push_back(link);
    }
}

models::cluster::ClusterLink meanLink(const std::vector<models::cluster::ClusterLink>& list)
{
    models::cluster::ClusterLink mean = list.front();
    std::vector<double> time;
    std::vector<double> size;
    std::vector<double> bandwidth;
    for (const models::cluster::ClusterLink& l : list) {
        time.push_back(l.time);
        size.push_back(l.size);
        bandwidth.push_back(l.bandwidth);
    }
    mean.time = models::cluster::meanOfKnown(time);
    mean.size = models::cluster::meanOfKnown(size);
    mean.bandwidth = models::cluster::meanOfKnown(bandwidth);
    return mean;
}

/// Links of one hccl_raw file: the average row, or the mean over steps when it is missing.
void readHccl(const QString& path, std::map<LinkKey, std::vector<models::cluster::ClusterLink>>& links,
              models::Diagnostics& diagnostics)
{
    const auto table = profiler::CsvTable::readFile(path);
    diagnostics += table.diagnostics();
    if (!table.hasHeader())
        return;
    const int step = table.column({ "step_num" });
    const int linkInfo = table.column({ "link_info" });
    if (linkInfo < 0) {
        diagnostics.append(table.fileDiagnostic(trCluster("No link_info column: not an HCCL table")));
        return;
    }
    int averageRow = -1;
    for (int row = 0; row < table.rowCount(); ++row) {
        if (isAverageRow(table, row, step))
            averageRow = row;
    }
    std::map<LinkKey, std::vector<models::cluster::ClusterLink>> fileLinks;
    for (int row = 0; row < table.rowCount(); ++row) {
        if (averageRow >= 0 && row != averageRow)
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(table.bytes(row, linkInfo).toByteArray(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            diagnostics.append(table.cellDiagnostic(row, linkInfo, trCluster("link_info is not a JSON object")));
            continue;
        }
        const QJsonObject object = doc.object();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const QStringList ends = it.key().split(QLatin1Char('-'));
            bool srcOk = false;
            bool dstOk = false;
            const int src = ends.size() == 2 ? ends[0].trimmed().toInt(&srcOk) : -1;
            const int dst = ends.size() == 2 ? ends[1].trimmed().toInt(&dstOk) : -1;
            if (!srcOk || !dstOk) {
                diagnostics.append(table.cellDiagnostic(
                    row, linkInfo, trCluster("A link is not named “src-dst”: “%1”").arg(it.key())));
                continue;
            }
            const QJsonObject types = it.value().toObject();
            for (auto t = types.begin(); t != types.end(); ++t) {
                const QJsonArray values = t.value().toArray();
                models::cluster::ClusterLink link;
                link.src = src;
                link.dst = dst;
                link.type = t.key().toUpper();
                auto at = [&values](int i) {
                    if (i >= values.size())
                        return models::cluster::kMissing;
                    const QJsonValue v = values[i];
                    if (v.isDouble())
                        return v.toDouble();
                    bool ok = false;
                    const double d = v.toString().toDouble(&ok);
                    return ok ? d : models::cluster::kMissing;
                };
                link.time = at(0);
                link.size = at(1);
                link.bandwidth = at(2);
                fileLinks[{ src, dst, link.type }].push_back(link);
            }
        }
    }
    for (const auto& [key, list] : fileLinks)
        links[key].push_back(meanLink(list));
}

} // namespace runlens::importers::cluster::mindspore
