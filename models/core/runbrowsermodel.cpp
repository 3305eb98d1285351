#include "models/core/runbrowsermodel.h"

#include "models/tensor/dumpnaming.h"

#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>
#include <QSortFilterProxyModel>

#include <algorithm>
#include <optional>

namespace runlens::models {

namespace {

bool isTensorKind(ArtifactKind kind)
{
    return kind == ArtifactKind::TensorNpy || kind == ArtifactKind::TensorNpz || kind == ArtifactKind::TensorSafetensors
        || kind == ArtifactKind::TensorPt;
}

/// Orders names as people count: "step_2" before "step_10". (QCollator's numeric mode depends on the
/// collation backend Qt was built with, and the POSIX one ignores it.)
int naturalCompare(const QString& left, const QString& right)
{
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < left.size() && j < right.size()) {
        if (left[i].isDigit() && right[j].isDigit()) {
            qsizetype ei = i;
            qsizetype ej = j;
            while (ei < left.size() && left[ei].isDigit())
                ++ei;
            while (ej < right.size() && right[ej].isDigit())
                ++ej;
            // Compare the digit runs by value: strip leading zeros, then the longer number is larger.
            qsizetype si = i;
            qsizetype sj = j;
            while (si + 1 < ei && left[si] == QLatin1Char('0'))
                ++si;
            while (sj + 1 < ej && right[sj] == QLatin1Char('0'))
                ++sj;
            if (ei - si != ej - sj)
                return ei - si < ej - sj ? -1 : 1;
            if (const int c = QStringView(left).mid(si, ei - si).compare(QStringView(right).mid(sj, ej - sj)); c != 0)
                return c;
            i = ei;
            j = ej;
            continue;
        }
        const QChar a = left[i].toCaseFolded();
        const QChar b = right[j].toCaseFolded();
        if (a != b)
            return a < b ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < left.size() || j < right.size())
        return i < left.size() ? 1 : -1;
    return left.compare(right);
}

/// N of a folder named `rank_N`, `rank-N` or `rankN`.
std::optional<int> rankOfFolder(const QString& name)
{
    static const QRegularExpression pattern(QStringLiteral("^rank[_-]?(\\d+)$"),
                                            QRegularExpression::CaseInsensitiveOption);
    if (const QRegularExpressionMatch m = pattern.match(name); m.hasMatch())
        return m.captured(1).toInt();
    return std::nullopt;
}

/// Folders that hold tensors by convention, even with a few other files beside them (MindSpore writes
/// statistics and JSON next to its dumps).
bool isTensorFolderName(const QString& name)
{
    static const QStringList names { QStringLiteral("dump"), QStringLiteral("dumps"), QStringLiteral("tensor"),
                                     QStringLiteral("tensors"), QStringLiteral("msprobe") };
    // A compacted row ("dump/step_0") is named by the folders it stands for.
    const QStringList parts = name.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return std::any_of(parts.cbegin(), parts.cend(),
                       [](const QString& part) { return names.contains(part, Qt::CaseInsensitive); });
}

} // namespace

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
        const int rankCount = int(byRank.size()) - (byRank.contains(-1) ? 1 : 0);
        const bool rankRanges = showRanks && rankCount > kRankRangeSize;
        int range = -1;
        int inRange = 0;
        for (auto it = byRank.cbegin(); it != byRank.cend(); ++it) {
            int group = runId;
            if (showRanks && it.key() >= 0) {
                if (rankRanges && (range < 0 || inRange == kRankRangeSize)) {
                    Node rangeNode;
                    rangeNode.type = NodeType::RankRange;
                    rangeNode.run = run;
                    rangeNode.rank = it.key();
                    range = addNode(rangeNode, runId);
                    inRange = 0;
                }
                Node rankNode;
                rankNode.type = NodeType::Rank;
                rankNode.run = run;
                rankNode.rank = it.key();
                group = addNode(rankNode, rankRanges ? range : runId);
                if (rankRanges) {
                    m_nodes[range].lastRank = it.key();
                    ++inRange;
                }
            }
            QHash<QString, int> folders; // folder path below the group's folder -> node
            for (int artifact : it.value())
                addArtifact(artifact, group, folders);
        }
        compactChains(runId);
        summarise(runId);
        classify(runId, false);
    }
    endResetModel();
}

int RunBrowserModel::addNode(Node node, int parent)
{
    const int id = int(m_nodes.size());
    node.parent = parent;
    std::vector<int>& siblings = parent < 0 ? m_topLevel : m_nodes[parent].children;
    node.row = int(siblings.size());
    siblings.push_back(id);
    m_nodes.push_back(std::move(node));
    return id;
}

void RunBrowserModel::addArtifact(int artifact, int groupNode, QHash<QString, int>& folders)
{
    const Artifact& a = m_manifest.artifacts[artifact];
    const QStringList parts = a.relativePath.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    // Folders are shown below the run's folder, and below the rank's folder inside a rank row.
    qsizetype first = 0;
    if (a.run != QLatin1String(".") && a.relativePath.startsWith(a.run + QLatin1Char('/')))
        first = a.run.count(QLatin1Char('/')) + 1;
    const int rank = m_nodes[groupNode].rank;
    if (m_nodes[groupNode].type == NodeType::Rank) {
        for (qsizetype i = parts.size() - 2; i >= first; --i) {
            if (rankOfFolder(parts[i]) == rank) {
                first = i + 1;
                break;
            }
        }
    }
    int parent = groupNode;
    QString key;
    for (qsizetype i = first; i + 1 < parts.size(); ++i) {
        key += parts[i] + QLatin1Char('/');
        auto it = folders.find(key);
        if (it == folders.end()) {
            Node folder;
            folder.type = NodeType::Folder;
            folder.run = a.run;
            folder.rank = rank;
            folder.name = parts[i];
            folder.folderPath = parts.mid(0, i + 1).join(QLatin1Char('/'));
            it = folders.insert(key, addNode(folder, parent));
        }
        parent = *it;
    }
    Node leaf;
    leaf.type = NodeType::Artifact;
    leaf.run = a.run;
    leaf.rank = a.rank.value_or(-1);
    leaf.artifact = artifact;
    leaf.name = parts.isEmpty() ? a.relativePath : parts.constLast();
    m_nodeOfArtifact[artifact] = addNode(leaf, parent);
}

void RunBrowserModel::compactChains(int id)
{
    // A folder whose only content is one folder (msprobe's `step0/rank/`) shares its row with it, named by
    // their path: deep layouts would otherwise spend the Name column on indentation. Step folders keep their
    // rows, so a dump row stands for the whole dump however many steps it holds.
    for (int child : m_nodes[id].children) {
        if (m_nodes[child].type == NodeType::Artifact)
            continue;
        while (m_nodes[child].type == NodeType::Folder && m_nodes[child].children.size() == 1
               && m_nodes[m_nodes[child].children.front()].type == NodeType::Folder
               && tensor::stepOfFolderName(m_nodes[m_nodes[child].children.front()].name) < 0) {
            const int only = m_nodes[child].children.front();
            Node& folder = m_nodes[child];
            Node& inner = m_nodes[only];
            folder.name += QLatin1Char('/') + inner.name;
            folder.folderPath = inner.folderPath;
            folder.children = std::move(inner.children);
            inner.children.clear();
            inner.parent = -1;
            for (int moved : folder.children)
                m_nodes[moved].parent = child;
        }
        compactChains(child);
    }
}

void RunBrowserModel::sortChildren(std::vector<int>& children)
{
    // Folders, then files, then ranks; names in natural order so step_2 comes before step_10.
    static const auto order = [](NodeType type) {
        switch (type) {
        case NodeType::Folder:
            return 0;
        case NodeType::Artifact:
            return 1;
        default:
            return 2;
        }
    };
    std::stable_sort(children.begin(), children.end(), [&](int left, int right) {
        const Node& l = m_nodes[left];
        const Node& r = m_nodes[right];
        if (order(l.type) != order(r.type))
            return order(l.type) < order(r.type);
        if (l.type == NodeType::Rank || l.type == NodeType::RankRange)
            return l.rank < r.rank;
        return naturalCompare(l.name, r.name) < 0;
    });
    for (size_t row = 0; row < children.size(); ++row)
        m_nodes[children[row]].row = int(row);
}

void RunBrowserModel::summarise(int id)
{
    sortChildren(m_nodes[id].children);
    for (int child : m_nodes[id].children) {
        Node& c = m_nodes[child];
        if (c.type == NodeType::Artifact) {
            const Artifact& a = m_manifest.artifacts[c.artifact];
            c.files = 1;
            c.tensors = isTensorKind(a.kind) ? 1 : 0;
            if (c.tensors > 0) {
                c.firstStep = c.lastStep = tensor::stepOfFolders(a.relativePath);
            }
        } else {
            summarise(child);
        }
    }
    Node& node = m_nodes[id];
    node.files = node.tensors = 0;
    node.firstStep = node.lastStep = -1;
    node.bytes = 0;
    node.busy = node.problems = 0;
    node.severities = {};
    for (int child : node.children) {
        const Node& c = m_nodes[child];
        node.files += c.files;
        node.tensors += c.tensors;
        if (c.type == NodeType::Artifact) {
            const Contribution share = contributionOf(c.artifact, m_states[c.artifact]);
            node.bytes += share.bytes;
            node.busy += share.busy;
            node.problems += share.problems;
            if (share.severity >= 0)
                ++node.severities[share.severity];
        } else {
            node.bytes += c.bytes;
            node.busy += c.busy;
            node.problems += c.problems;
            for (size_t s = 0; s < node.severities.size(); ++s)
                node.severities[s] += c.severities[s];
        }
        if (c.firstStep >= 0)
            node.firstStep = node.firstStep < 0 ? c.firstStep : std::min(node.firstStep, c.firstStep);
        node.lastStep = std::max(node.lastStep, c.lastStep);
    }
}

void RunBrowserModel::classify(int id, bool insideTensorFolder)
{
    const Node& node = m_nodes[id];
    const bool crowded = int(node.children.size()) > kExpandLimit;
    for (int child : node.children) {
        Node& c = m_nodes[child];
        if (c.type == NodeType::Artifact)
            continue;
        if (c.type == NodeType::Folder) {
            // Only the outermost folder of tensors speaks for them; the folders inside it show counts.
            c.tensorFolder
                = !insideTensorFolder && c.tensors > 0 && (c.tensors == c.files || isTensorFolderName(c.name));
            // A big folder, or one among many, would bury its neighbours: it waits until the user opens it.
            c.defaultExpanded = c.files <= kExpandLimit && !crowded;
        } else if (c.type == NodeType::Rank) {
            // A thousand ranks' rows, each open on its file, would be two thousand rows to scroll past.
            c.defaultExpanded = c.files <= kExpandLimit && !crowded;
        } else if (c.type == NodeType::RankRange) {
            c.defaultExpanded = false;
        }
        classify(child, insideTensorFolder || c.tensorFolder);
    }
}

void RunBrowserModel::setArtifactState(int artifactIndex, const ArtifactState& state)
{
    if (artifactIndex < 0 || artifactIndex >= int(m_states.size()))
        return;
    const QModelIndex first = indexOfArtifact(artifactIndex);
    if (first.isValid()) {
        const Contribution before = contributionOf(artifactIndex, m_states[artifactIndex]);
        const Contribution after = contributionOf(artifactIndex, state);
        for (int up = m_nodes[first.internalId()].parent; up >= 0; up = m_nodes[up].parent) {
            addContribution(up, before, -1);
            addContribution(up, after, +1);
        }
    }
    m_states[artifactIndex] = state;
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

RunBrowserModel::Contribution RunBrowserModel::contributionOf(int artifact, const ArtifactState& state) const
{
    Contribution c;
    // A file that grows while it is open has been read past the size it had when scanned.
    c.bytes = std::max(m_manifest.artifacts[artifact].size, state.bytesRead);
    c.busy = (state.status == ImportStatus::Importing || state.status == ImportStatus::Pending) ? 1 : 0;
    c.problems = (state.status == ImportStatus::Partial || state.status == ImportStatus::Failed) ? 1 : 0;
    c.severity = state.diagnostics.isEmpty() ? -1 : int(state.worstSeverity());
    return c;
}

void RunBrowserModel::addContribution(int id, const Contribution& c, int sign)
{
    Node& node = m_nodes[id];
    node.bytes += sign * c.bytes;
    node.busy += sign * c.busy;
    node.problems += sign * c.problems;
    if (c.severity >= 0)
        node.severities[c.severity] += sign;
}

void RunBrowserModel::configureFilter(QSortFilterProxyModel* proxy)
{
    proxy->setRecursiveFilteringEnabled(true);
    proxy->setAutoAcceptChildRows(true);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(NameColumn);
    proxy->setFilterRole(NameRole);
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
    case DefaultExpandedRole:
        return node.defaultExpanded;
    case NameRole:
        switch (node.type) {
        case NodeType::Run:
            return runDisplayName(node.run);
        case NodeType::Rank:
            return tr("rank %1").arg(node.rank);
        case NodeType::RankRange:
            return tr("ranks %1–%2").arg(node.rank).arg(node.lastRank);
        default:
            return node.name;
        }
    default:
        break;
    }
    if (node.type == NodeType::Artifact)
        return artifactData(node, index.column(), role);
    if (node.type == NodeType::Folder)
        return folderData(node, index.column(), role);
    return runData(node, index.column(), role);
}

int RunBrowserModel::worstSeverityOf(const Node& node)
{
    for (int s = int(node.severities.size()) - 1; s >= 0; --s) {
        if (node.severities[s] > 0)
            return s;
    }
    return -1;
}

QString RunBrowserModel::stateOf(const Node& node) const
{
    if (node.busy > 0)
        return tr("importing…");
    if (node.problems > 0)
        return tr("%n file(s) with problems", nullptr, node.problems);
    // A folder's Kind column already counts its files.
    if (node.type == NodeType::Folder)
        return {};
    return tr("%n file(s)", nullptr, node.files);
}

QVariant RunBrowserModel::runData(const Node& node, int column, int role) const
{
    if (role == ArtifactIndexRole)
        return -1;
    if (role == SeverityRole)
        return worstSeverityOf(node);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case NameColumn:
        if (node.type == NodeType::Rank)
            return tr("rank %1").arg(node.rank);
        if (node.type == NodeType::RankRange) {
            return role == Qt::ToolTipRole
                ? tr("Ranks %1 to %2 of this run (%n rank(s))", nullptr, int(node.children.size()))
                      .arg(node.rank)
                      .arg(node.lastRank)
                : tr("ranks %1–%2").arg(node.rank).arg(node.lastRank);
        }
        if (role == Qt::ToolTipRole) {
            // A run named by its logger (MLflow's run_name, W&B's display name) is not a folder: show where it is.
            int first = node.artifact;
            for (const Node* n = &node; first < 0 && !n->children.empty();
                 n = &m_nodes[std::size_t(n->children.front())])
                first = m_nodes[std::size_t(n->children.front())].artifact;
            const QString run = node.run + QLatin1Char('/');
            if (first >= 0 && node.run != QLatin1String(".")
                && !m_manifest.artifacts[first].relativePath.startsWith(run))
                return QFileInfo(m_manifest.artifacts[first].path).absolutePath();
            return QDir(m_manifest.root).filePath(node.run);
        }
        return runDisplayName(node.run);
    case KindColumn:
        if (node.type == NodeType::RankRange)
            return tr("%n rank(s)", nullptr, int(node.children.size()));
        return node.type == NodeType::Run ? tr("run") : tr("rank");
    case SizeColumn:
        return formatByteSize(node.bytes);
    case StatusColumn:
        return stateOf(node);
    default:
        return {};
    }
}

QString RunBrowserModel::folderSummary(const Node& node) const
{
    // The headline of a folder reads as a sentence, so it spells the plural out.
    QStringList parts { node.tensors == 1 ? tr("%n tensor", nullptr, node.tensors)
                                          : tr("%n tensors", nullptr, node.tensors) };
    // A step_N folder already says its step.
    const bool stepInName = node.firstStep == node.lastStep && tensor::stepOfFolderName(node.name) == node.firstStep;
    if (node.firstStep >= 0 && !stepInName) {
        parts << (node.firstStep == node.lastStep ? tr("step %1").arg(node.firstStep)
                                                  : tr("steps %1–%2").arg(node.firstStep).arg(node.lastStep));
    }
    parts << formatByteSize(node.bytes);
    return tr("%1 — %2").arg(node.name, parts.join(tr(", ")));
}

QVariant RunBrowserModel::folderData(const Node& node, int column, int role) const
{
    switch (role) {
    case ArtifactIndexRole:
        return -1;
    case PathRole:
        return QDir(m_manifest.root).filePath(node.folderPath);
    case SeverityRole:
        return worstSeverityOf(node);
    case Qt::ToolTipRole:
        if (node.tensorFolder)
            return QDir(m_manifest.root).filePath(node.folderPath) + QLatin1Char('\n') + folderSummary(node);
        return QDir(m_manifest.root).filePath(node.folderPath);
    case Qt::TextAlignmentRole:
        return column == SizeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (column) {
    case NameColumn:
        return node.tensorFolder ? folderSummary(node) : node.name;
    case KindColumn:
        return tr("%n file(s)", nullptr, node.files);
    case SizeColumn:
        return formatByteSize(node.bytes);
    case StatusColumn:
        return stateOf(node);
    default:
        return {};
    }
}

QString RunBrowserModel::artifactStateText(const ArtifactState& state)
{
    // Says what the user can do about the file, in words short enough for the column.
    switch (state.status) {
    case ImportStatus::Pending:
        return tr("waiting");
    case ImportStatus::Importing:
        return tr("importing…");
    case ImportStatus::Ok:
        return tr("imported");
    case ImportStatus::Partial:
        return tr("partly read — hover");
    case ImportStatus::Failed:
        return tr("failed — hover for why");
    case ImportStatus::Unsupported:
        return tr("listed only");
    case ImportStatus::Canceled:
        return tr("canceled");
    case ImportStatus::Deferred:
        return tr("double-click to open");
    }
    return {};
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
        if (state.status == ImportStatus::Deferred)
            lines << tr("Double-click to open it");
        for (const Diagnostic& d : state.diagnostics)
            lines << severityName(d.severity) + QStringLiteral(": ") + d.toString();
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return node.name;
        case KindColumn:
            return artifactKindName(artifact.kind);
        case SizeColumn:
            return formatByteSize(std::max(artifact.size, state.bytesRead));
        case StatusColumn:
            return artifactStateText(state);
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return column == SizeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default:
        return {};
    }
}

} // namespace runlens::models
