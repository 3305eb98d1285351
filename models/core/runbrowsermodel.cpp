#include "runbrowsermodel.h"

#include <QDir>
#include <QFileInfo>
#include <QMap>

namespace runlens {

QString formatByteSize(qint64 bytes)
{
    static const char* const kUnits[] = { "B", "KB", "MB", "GB", "TB" };
    double value = double(bytes);
    int unit = 0;
    while (value >= 1000.0 && unit < 4) {
        value /= 1000.0;
        ++unit;
    }
    if (unit == 0)
        return QStringLiteral("%1 B").arg(bytes);
    return QStringLiteral("%1 %2").arg(value, 0, 'f', value < 10 ? 1 : 0).arg(QLatin1String(kUnits[unit]));
}

RunBrowserModel::RunBrowserModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void RunBrowserModel::clear()
{
    setManifest(RunManifest {});
}

void RunBrowserModel::setManifest(const RunManifest& manifest)
{
    beginResetModel();
    m_manifest = manifest;
    m_states.assign(manifest.artifacts.size(), ArtifactState {});
    m_nodes.clear();
    m_topLevel.clear();
    m_nodeOfArtifact.assign(manifest.artifacts.size(), -1);

    auto addNode = [this](Node node, int parent) {
        const int id = int(m_nodes.size());
        node.parent = parent;
        std::vector<int>& siblings = parent < 0 ? m_topLevel : m_nodes[parent].children;
        node.row = int(siblings.size());
        siblings.push_back(id);
        m_nodes.push_back(std::move(node));
        return id;
    };

    for (const QString& run : manifest.runs()) {
        const QList<int> members = manifest.artifactsOfRun(run);
        QMap<int, QList<int>> byRank; // -1: no rank
        for (int i : members)
            byRank[manifest.artifacts[i].rank.value_or(-1)].append(i);
        Node runNode;
        runNode.type = NodeType::Run;
        runNode.run = run;
        const int runId = addNode(runNode, -1);
        const bool showRanks = byRank.size() > 1 || !byRank.contains(-1);
        for (auto it = byRank.cbegin(); it != byRank.cend(); ++it) {
            int parent = runId;
            if (showRanks && it.key() >= 0) {
                Node rankNode;
                rankNode.type = NodeType::Rank;
                rankNode.run = run;
                rankNode.rank = it.key();
                parent = addNode(rankNode, runId);
            }
            for (int artifact : it.value()) {
                Node leaf;
                leaf.type = NodeType::Artifact;
                leaf.run = run;
                leaf.rank = it.key();
                leaf.artifact = artifact;
                m_nodeOfArtifact[artifact] = addNode(leaf, parent);
            }
        }
    }
    endResetModel();
}

void RunBrowserModel::setArtifactState(int artifactIndex, const ArtifactState& state)
{
    if (artifactIndex < 0 || artifactIndex >= int(m_states.size()))
        return;
    m_states[artifactIndex] = state;
    const QModelIndex first = indexOfArtifact(artifactIndex);
    if (!first.isValid())
        return;
    emit dataChanged(first, first.siblingAtColumn(ColumnCount - 1));
    // The run row summarises its artifacts' states.
    QModelIndex up = first.parent();
    while (up.isValid()) {
        emit dataChanged(up, up.siblingAtColumn(ColumnCount - 1));
        up = up.parent();
    }
}

QModelIndex RunBrowserModel::indexOfArtifact(int artifactIndex) const
{
    if (artifactIndex < 0 || artifactIndex >= int(m_nodeOfArtifact.size()))
        return {};
    const int id = m_nodeOfArtifact[artifactIndex];
    return id < 0 ? QModelIndex() : createIndex(m_nodes[id].row, 0, quintptr(id));
}

QString RunBrowserModel::runDisplayName(const QString& run) const
{
    return m_manifest.runDisplayName(run);
}

QModelIndex RunBrowserModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    const std::vector<int>& siblings = parent.isValid() ? m_nodes[parent.internalId()].children : m_topLevel;
    if (parent.isValid() && parent.column() != 0)
        return {};
    if (row >= int(siblings.size()))
        return {};
    return createIndex(row, column, quintptr(siblings[row]));
}

QModelIndex RunBrowserModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const int parentId = m_nodes[child.internalId()].parent;
    if (parentId < 0)
        return {};
    return createIndex(m_nodes[parentId].row, 0, quintptr(parentId));
}

int RunBrowserModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_topLevel.size());
    if (parent.column() != 0)
        return 0;
    return int(m_nodes[parent.internalId()].children.size());
}

int RunBrowserModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

Qt::ItemFlags RunBrowserModel::flags(const QModelIndex& index) const
{
    return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::NoItemFlags;
}

QVariant RunBrowserModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case KindColumn:
        return tr("Kind");
    case SizeColumn:
        return tr("Size");
    case StatusColumn:
        return tr("State");
    default:
        return {};
    }
}

void RunBrowserModel::collectArtifacts(const Node& node, std::vector<int>& out) const
{
    if (node.type == NodeType::Artifact) {
        out.push_back(node.artifact);
        return;
    }
    for (int child : node.children)
        collectArtifacts(m_nodes[child], out);
}

QVariant RunBrowserModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Node& node = m_nodes[index.internalId()];
    switch (role) {
    case NodeTypeRole:
        return int(node.type);
    case RunRole:
        return node.run;
    default:
        break;
    }
    if (node.type == NodeType::Artifact)
        return artifactData(node, index.column(), role);
    return runData(node, index.column(), role);
}

QVariant RunBrowserModel::runData(const Node& node, int column, int role) const
{
    std::vector<int> members;
    collectArtifacts(node, members);
    if (role == ArtifactIndexRole)
        return -1;
    if (role == SeverityRole) {
        int worst = -1;
        for (int a : members) {
            if (!m_states[a].diagnostics.isEmpty())
                worst = std::max(worst, int(m_states[a].worstSeverity()));
        }
        return worst;
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case NameColumn:
        if (node.type == NodeType::Rank)
            return tr("rank %1").arg(node.rank);
        if (role == Qt::ToolTipRole)
            return QDir(m_manifest.root).filePath(node.run);
        return runDisplayName(node.run);
    case KindColumn:
        return node.type == NodeType::Run ? tr("run") : tr("rank");
    case SizeColumn: {
        qint64 total = 0;
        for (int a : members)
            total += std::max(m_manifest.artifacts[a].size, m_states[a].bytesRead);
        return formatByteSize(total);
    }
    case StatusColumn: {
        int importing = 0;
        int problems = 0;
        for (int a : members) {
            const ImportStatus s = m_states[a].status;
            importing += (s == ImportStatus::Importing || s == ImportStatus::Pending) ? 1 : 0;
            problems += (s == ImportStatus::Partial || s == ImportStatus::Failed) ? 1 : 0;
        }
        if (importing > 0)
            return tr("Importing…");
        if (problems > 0)
            return tr("%n file(s) with problems", nullptr, problems);
        return tr("%n file(s)", nullptr, int(members.size()));
    }
    default:
        return {};
    }
}

QVariant RunBrowserModel::artifactData(const Node& node, int column, int role) const
{
    const Artifact& artifact = m_manifest.artifacts[node.artifact];
    const ArtifactState& state = m_states[node.artifact];
    switch (role) {
    case ArtifactIndexRole:
        return node.artifact;
    case KindIdRole:
        return artifactKindId(artifact.kind);
    case StatusRole:
        return int(state.status);
    case SeverityRole:
        return state.diagnostics.isEmpty() ? -1 : int(state.worstSeverity());
    case PathRole:
        return artifact.path;
    case Qt::ToolTipRole: {
        QStringList lines { artifact.path };
        if (state.scalarPoints() > 0)
            lines << tr("%n scalar point(s) in %1 tag(s)", nullptr, int(state.scalarPoints()))
                         .arg(state.scalarTags.size());
        if (state.growing)
            lines << tr("Still being written: new records are read as they arrive");
        for (const Diagnostic& d : state.diagnostics)
            lines << severityName(d.severity) + QStringLiteral(": ") + d.toString();
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn: {
            // Show the path below the run (or rank) folder, which is short and unique.
            QString shown = artifact.relativePath;
            const QString prefix = node.run == QLatin1String(".") ? QString() : node.run + QLatin1Char('/');
            if (!prefix.isEmpty() && shown.startsWith(prefix))
                shown = shown.mid(prefix.size());
            return shown;
        }
        case KindColumn:
            return artifactKindName(artifact.kind);
        case SizeColumn:
            // A file that grows while it is open has been read past the size it had when scanned.
            return formatByteSize(std::max(artifact.size, state.bytesRead));
        case StatusColumn: {
            QString text = importStatusName(state.status);
            if (!state.diagnostics.isEmpty())
                text += QStringLiteral(" (%1)").arg(state.diagnostics.size());
            return text;
        }
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return column == SizeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default:
        return {};
    }
}

} // namespace runlens
