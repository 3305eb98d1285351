#pragma once

#include "models/core/importstate.h"
#include "models/core/runmanifest.h"

#include <QAbstractItemModel>
#include <QHash>

#include <array>
#include <vector>

class QSortFilterProxyModel;

namespace runlens::models {

/// The Run Browser's tree: runs > ranks (when a run has several) > the folders below the run's (or rank's)
/// folder > artifacts, with each artifact's kind, size and import state. Folders of tensor files carry a
/// one-line summary (count, step range, size); other folders their file count and size. Icons and which
/// rows start expanded are a view concern: this model exposes kind ids, statuses, severities and a
/// default expansion through roles, and the view maps them to pictures and expanded rows.
class RunBrowserModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, SizeColumn, StatusColumn, ColumnCount };
    enum Role {
        NodeTypeRole = Qt::UserRole + 1, ///< NodeType
        ArtifactIndexRole, ///< index into the manifest's artifacts, or -1
        KindIdRole, ///< artifactKindId() of an artifact
        StatusRole, ///< int(ImportStatus) of an artifact
        SeverityRole, ///< int(Severity) of the worst diagnostic, or -1 when there is none
        PathRole, ///< absolute path of an artifact or folder
        RunRole, ///< run name of any node
        DefaultExpandedRole, ///< bool: whether the view shows this row expanded until the user says otherwise
        NameRole, ///< the plain name (run, "rank N", folder or file name) that the filter matches
    };
    /// RankRange: a run of more than kRankRangeSize ranks shows them in rows of that many ("ranks 0–63").
    enum class NodeType { Run, Rank, Artifact, Folder, RankRange };

    /// Folders holding more files than this (or lying beside more rows than this) start collapsed.
    static constexpr int kExpandLimit = 20;
    /// Ranks per RankRange row, so that a thousand-rank job is sixteen rows under its run.
    static constexpr int kRankRangeSize = 64;

    explicit RunBrowserModel(QObject* parent = nullptr);

    void setManifest(const RunManifest& manifest);
    void setArtifactState(int artifactIndex, const ArtifactState& state);
    void clear();
    const RunManifest& manifest() const { return m_manifest; }
    /// The model index of an artifact (column 0), or an invalid index.
    QModelIndex indexOfArtifact(int artifactIndex) const;
    /// Display name of a run (runlens::runDisplayName): "." becomes the opened folder's name.
    QString runDisplayName(const QString& run) const;
    /// Sets up a filter proxy over this model (or over a proxy of it) the way the Run Browser filters:
    /// case-insensitive on names, keeping the parents of matches and the contents of matching folders.
    static void configureFilter(QSortFilterProxyModel* proxy);
    /// What the State column says of an artifact: what the user can do about it, in a few words.
    static QString artifactStateText(const ArtifactState& state);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    struct Node
    {
        NodeType type = NodeType::Run;
        int parent = -1; ///< node index, -1 for top level
        int row = 0;
        std::vector<int> children;
        QString run;
        int rank = -1; ///< a rank's number; the first rank of a RankRange
        int lastRank = -1; ///< the last rank of a RankRange
        int artifact = -1;
        QString name; ///< folder or file name
        QString folderPath; ///< folder path relative to the root
        int files = 0; ///< artifacts beneath a folder
        int tensors = 0; ///< tensor artifacts beneath a folder
        int firstStep = -1; ///< step range of the tensors beneath a folder, from step_N path parts
        int lastStep = -1;
        bool tensorFolder = false; ///< shows the tensor summary as its name
        bool defaultExpanded = true;
        // What the artifacts beneath a run, rank or folder add up to, kept up to date as their states
        // change so that painting a row does not visit every file beneath it.
        qint64 bytes = 0;
        int busy = 0; ///< pending or importing
        int problems = 0; ///< partial or failed
        std::array<int, 3> severities {}; ///< artifacts whose worst diagnostic has this severity
    };
    /// One artifact's share of its ancestors' totals.
    struct Contribution
    {
        qint64 bytes = 0;
        int busy = 0;
        int problems = 0;
        int severity = -1;
    };
    Contribution contributionOf(int artifact, const ArtifactState& state) const;
    void addContribution(int node, const Contribution& c, int sign);

    int addNode(Node node, int parent);
    void addArtifact(int artifact, int groupNode, QHash<QString, int>& folders);
    void compactChains(int id);
    void sortChildren(std::vector<int>& children);
    void summarise(int id);
    void classify(int id, bool insideTensorFolder);
    QVariant runData(const Node& node, int column, int role) const;
    QVariant folderData(const Node& node, int column, int role) const;
    QString folderSummary(const Node& node) const;
    static int worstSeverityOf(const Node& node);
    QString stateOf(const Node& node) const;
    QVariant artifactData(const Node& node, int column, int role) const;

    RunManifest m_manifest;
    std::vector<ArtifactState> m_states;
    std::vector<Node> m_nodes;
    std::vector<int> m_topLevel;
    std::vector<int> m_nodeOfArtifact;
};

/// "1.2 MB"-style size for tables and messages.
QString formatByteSize(qint64 bytes);

} // namespace runlens::models
