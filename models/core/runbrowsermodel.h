#pragma once

#include "importstate.h"
#include "runmanifest.h"

#include <QAbstractItemModel>

#include <vector>

namespace runlens {

/// The Run Browser's tree: runs > ranks (when a run has several) > artifacts, with each artifact's
/// kind, size and import state. Icons are a widget concern: this model exposes kind ids, statuses and
/// severities through roles, and the view maps them to pictures.
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
        PathRole, ///< absolute path of an artifact
        RunRole, ///< run name of any node
    };
    enum class NodeType { Run, Rank, Artifact };

    explicit RunBrowserModel(QObject* parent = nullptr);

    void setManifest(const RunManifest& manifest);
    void setArtifactState(int artifactIndex, const ArtifactState& state);
    void clear();
    const RunManifest& manifest() const { return m_manifest; }
    /// The model index of an artifact (column 0), or an invalid index.
    QModelIndex indexOfArtifact(int artifactIndex) const;
    /// Display name of a run (runlens::runDisplayName): "." becomes the opened folder's name.
    QString runDisplayName(const QString& run) const;

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
        int rank = -1;
        int artifact = -1;
    };

    QVariant runData(const Node& node, int column, int role) const;
    QVariant artifactData(const Node& node, int column, int role) const;
    void collectArtifacts(const Node& node, std::vector<int>& out) const;

    RunManifest m_manifest;
    std::vector<ArtifactState> m_states;
    std::vector<Node> m_nodes;
    std::vector<int> m_topLevel;
    std::vector<int> m_nodeOfArtifact;
};

/// "1.2 MB"-style size for tables and messages.
QString formatByteSize(qint64 bytes);

} // namespace runlens
