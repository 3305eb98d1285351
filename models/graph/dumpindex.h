#pragma once

#include "models/core/diagnostic.h"

#include <QHash>
#include <QList>
#include <QString>

namespace runlens::models::graph {

struct Node;
class ScopeTree;

/// What a dumped tensor is to its node: an input or output slot (MindSpore dumps) or a module-level
/// role (torch-style `{module}.{kind}.npy`: act, weight, bias, weight_grad ...).
enum class DumpIo { Input, Output, Other };

/// One tensor file of a dump folder, as far as its name, its folders and its `.npy` header tell.
struct DumpEntry
{
    QString path; ///< absolute
    int step = -1; ///< step or iteration from the folders (`step_N`, `iteration_N`, MindSpore `{graph}/{iteration}`)
    QString nodeKey; ///< as written in the file name: MindSpore op name, or torch module path "layer1.0.conv1"
    QString opType; ///< MindSpore op type; empty for torch-style dumps
    DumpIo io = DumpIo::Other;
    int slot = -1; ///< input/output slot, -1 for torch-style dumps
    QString kind; ///< torch-style role ("act", "weight_grad", "pred"); "input"/"output" for MindSpore dumps
    QString dtype; ///< numpy name: "float32", "float16", "int64", "bool"
    QList<qint64> shape; ///< empty for a scalar
    qint64 dataOffset = 0; ///< where the values start in the file
    qint64 dataSize = 0;

    /// "output 0", "input 1", "weight_grad".
    QString role() const;
    /// "float32[6,3,5,5]".
    QString typeText() const;
};

/// The tensor files of a run's dumps, indexed by the node they belong to, for the Node Details dock and the
/// Tensor inspector. Built once on a worker by the tensor importer, then shared read-only. Keys are matched
/// with '.' and '/' treated alike, so the module `layer1.0.conv1` meets the scope `layer1/0/conv1`.
class DumpIndex
{
public:
    DumpIndex() = default;
    explicit DumpIndex(QList<DumpEntry> entries, Diagnostics diagnostics = {});

    const QList<DumpEntry>& entries() const { return m_entries; }
    const Diagnostics& diagnostics() const { return m_diagnostics; }
    bool isEmpty() const { return m_entries.isEmpty(); }

    /// Entries whose node key matches `key`, ordered by step, then role, then path.
    QList<int> find(const QString& key) const;
    /// Entries of a graph node: by full name (also with '/' written as '_' or '--', as dump names do), by
    /// name, and failing those by its scope, which is the module for torch-style dumps.
    QList<int> findForNode(const Node& node) const;
    /// Entries of a scope group ("layer1/0/conv1"), the module of torch-style dumps.
    QList<int> findForScope(const QString& scope) const;
    /// Entries of a ScopeTree item: findForNode for ops, findForScope for groups.
    QList<int> findForItem(const ScopeTree& tree, int item) const;

    /// The lookup form of a key: '.' and '/' become '/'.
    static QString normalizedKey(const QString& key);

private:
    QList<int> sorted(QList<int> indices) const;

    QList<DumpEntry> m_entries;
    Diagnostics m_diagnostics;
    QMultiHash<QString, int> m_byKey;
};

} // namespace runlens::models::graph
