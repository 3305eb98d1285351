#include "models/graph/dumpindex.h"

#include "models/graph/graph.h"
#include "models/graph/scopetree.h"

#include <QCoreApplication>

#include <algorithm>

namespace runlens::models::graph {

QString DumpEntry::role() const
{
    switch (io) {
    case DumpIo::Input:
        return QCoreApplication::translate("runlens::DumpIndex", "input %1").arg(slot);
    case DumpIo::Output:
        return QCoreApplication::translate("runlens::DumpIndex", "output %1").arg(slot);
    case DumpIo::Other:
        break;
    }
    return kind;
}

QString DumpEntry::typeText() const
{
    QStringList dims;
    for (const qint64 dim : shape)
        dims << QString::number(dim);
    return QStringLiteral("%1[%2]").arg(dtype, dims.join(QLatin1Char(',')));
}

DumpIndex::DumpIndex(QList<DumpEntry> entries, Diagnostics diagnostics)
    : m_entries(std::move(entries))
    , m_diagnostics(std::move(diagnostics))
{
    for (int i = 0; i < m_entries.size(); ++i)
        m_byKey.insert(normalizedKey(m_entries[i].nodeKey), i);
}

QString DumpIndex::normalizedKey(const QString& key)
{
    QString out = key;
    out.replace(QLatin1Char('.'), QLatin1Char('/'));
    return out;
}

QList<int> DumpIndex::sorted(QList<int> indices) const
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    std::stable_sort(indices.begin(), indices.end(), [this](int a, int b) {
        const DumpEntry& x = m_entries[a];
        const DumpEntry& y = m_entries[b];
        if (x.step != y.step)
            return x.step < y.step;
        if (x.io != y.io)
            return x.io < y.io;
        if (x.slot != y.slot)
            return x.slot < y.slot;
        if (x.kind != y.kind)
            return x.kind < y.kind;
        return x.path < y.path;
    });
    return indices;
}

QList<int> DumpIndex::find(const QString& key) const
{
    if (key.isEmpty())
        return {};
    return sorted(m_byKey.values(normalizedKey(key)));
}

QList<int> DumpIndex::findForNode(const Node& node) const
{
    const QString fullName = QString::fromStdString(node.fullName());
    for (const QString& key : { fullName, QString(fullName).replace(QLatin1Char('/'), QLatin1Char('_')),
                                QString(fullName).replace(QLatin1Char('/'), QStringLiteral("--")),
                                QString::fromStdString(node.name), QString::fromStdString(node.id) }) {
        if (QList<int> found = find(key); !found.isEmpty())
            return found;
    }
    return findForScope(QString::fromStdString(node.scope));
}

QList<int> DumpIndex::findForScope(const QString& scope) const
{
    return find(scope);
}

QList<int> DumpIndex::findForItem(const ScopeTree& tree, int item) const
{
    if (item < 0 || item >= tree.itemCount())
        return {};
    const ScopeItem& scopeItem = tree.item(item);
    if (scopeItem.kind == ScopeItemKind::Op)
        return findForNode(tree.graph().nodes[std::size_t(scopeItem.node)]);
    // Group keys are "g:" + the scope path; series and sections have no module of their own.
    if (scopeItem.kind == ScopeItemKind::Group && scopeItem.key.size() > 2)
        return findForScope(QString::fromStdString(scopeItem.key.substr(2)));
    return {};
}

} // namespace runlens::models::graph
