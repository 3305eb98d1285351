#include "models/accuracy/dumpgraph.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <utility>

namespace runlens::models::accuracy {

namespace {

/// construct.json chains deeper than this are cut: a real model nests a few dozen levels at most, and a
/// cycle in a hostile file must not recurse forever.
constexpr int kMaxDepth = 128;

QString forwardTwin(const EntryName& name)
{
    if (name.isModule())
        return name.scope() + QStringLiteral(".forward.") + QString::number(std::max<qint64>(name.counter, 0));
    return name.scope() + QLatin1Char('.') + QString::number(name.counter) + QStringLiteral(".forward");
}

/// The backward counterpart of a forward module or API name; other names unchanged.
QString backwardOf(const QString& name)
{
    const EntryName parsed = parseEntryName(name);
    if (!parsed.valid || parsed.direction != Direction::Forward)
        return name;
    if (parsed.isModule())
        return parsed.scope() + QStringLiteral(".backward.") + QString::number(parsed.counter);
    return parsed.scope() + QLatin1Char('.') + QString::number(parsed.counter) + QStringLiteral(".backward");
}

/// Library code between the user's line and msprobe's hook: an installed package or the interpreter's own.
bool isLibraryFrame(const QString& file)
{
    return file.contains(QLatin1String("/site-packages/")) || file.contains(QLatin1String("/dist-packages/"))
        || file.contains(QLatin1String("/lib/python"));
}

bool isMsprobeFrame(const QString& file)
{
    return file.contains(QLatin1String("/msprobe/"));
}

QString typeText(const DumpRow& row)
{
    graph::TensorType type;
    if (row.kind == ValueKind::Tensor) {
        type.dtype = row.dtype.toStdString();
        type.rankKnown = row.hasShape;
        for (const qint64 d : row.shape)
            type.dims.push_back(d);
        return QString::fromStdString(type.text());
    }
    if (row.kind == ValueKind::Null)
        return QStringLiteral("null");
    QString value;
    if (row.value.typeId() == QMetaType::QVariantList) {
        QStringList parts;
        for (const QVariant& v : row.value.toList())
            parts << (v.isNull() ? QStringLiteral("None") : v.toString());
        value = QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    } else if (row.value.typeId() == QMetaType::Double) {
        value = dumpStatText(row.value.toDouble());
    } else if (row.value.typeId() == QMetaType::Bool) {
        value = row.value.toBool() ? QStringLiteral("True") : QStringLiteral("False");
    } else {
        value = row.value.isNull() ? QStringLiteral("None") : row.value.toString();
    }
    return row.type + QStringLiteral(" = ") + value;
}

graph::Port portOf(const DumpEntry& entry, const DumpRow& row)
{
    graph::Port port;
    port.name = dumpRowLabel(entry, row).toStdString();
    if (row.kind == ValueKind::Tensor) {
        port.type.dtype = row.dtype.toStdString();
        port.type.rankKnown = row.hasShape;
        for (const qint64 d : row.shape)
            port.type.dims.push_back(d);
    } else if (row.kind == ValueKind::Scalar) {
        port.type.dtype = row.type.toStdString();
        port.type.rankKnown = true;
    }
    return port;
}

bool isOutputRole(ArgRole role)
{
    return role == ArgRole::Output || role == ArgRole::ParameterGrad;
}

/// What makes two rows the same tensor for the inferred edges, or empty when a row must not be joined:
/// values, bool masks and tensors of fewer than two elements match by chance far too often.
QString tensorKey(const DumpRow& row)
{
    if (row.kind != ValueKind::Tensor || !row.hasShape || row.booleanStats || !row.max || !row.min || !row.mean)
        return {};
    // Fewer than two elements: a dimension of 0 (or less), or every dimension 1. Not a product, which a
    // hostile shape overflows.
    bool empty = false;
    bool allOnes = true;
    for (const qint64 d : row.shape) {
        if (d <= 0)
            empty = true;
        else if (d != 1)
            allOnes = false;
    }
    if (empty || allOnes)
        return {};
    QStringList dims;
    for (const qint64 d : row.shape)
        dims << QString::number(d);
    return QStringList { row.dtype,
                         dims.join(QLatin1Char(',')),
                         dumpStatText(*row.max),
                         dumpStatText(*row.min),
                         dumpStatText(*row.mean),
                         row.norm ? dumpStatText(*row.norm) : QString(),
                         row.md5 }
        .join(QLatin1Char('|'));
}

class Builder
{
public:
    explicit Builder(const MsprobeDump& dump)
        : m_dump(dump)
    {
        // Computed once: a dump has as many parameters_grad entries as modules with weights.
        for (const DumpEntry& entry : m_dump.entries)
            noteBackward(entry.name.full);
        for (const QString& name : m_dump.constructOrder)
            noteBackward(name);
        if (m_dump.parents.isEmpty()) {
            // No module tree: modules nest by their dotted paths (the first call of each path stands for it).
            for (const DumpEntry& entry : m_dump.entries) {
                const EntryName& n = entry.name;
                if (n.valid && n.isModule() && n.direction != Direction::ParametersGrad)
                    m_modulesByPath.insert(pathKey(n.prefix, n.direction, n.modulePath), n.full);
            }
        }
    }

    std::shared_ptr<graph::Graph> build()
    {
        auto g = std::make_shared<graph::Graph>();
        g->format = graph::GraphFormat::MsprobeDump;
        g->name = dumpGraphName(m_dump.folder).toStdString();
        const QString dumpJson = QDir(m_dump.folder).filePath(QStringLiteral("dump.json"));
        g->path = QFileInfo::exists(dumpJson) ? dumpJson : m_dump.folder;
        g->metadata = {
            { "framework", m_dump.frameworkText.toStdString() },
            { "task", m_dump.taskText.toStdString() },
            { "level", m_dump.levelText.toStdString() },
            { "entries", std::to_string(m_dump.entries.size()) },
            { "edges",
              "inferred: an input joins the latest earlier output with the same dtype, shape and "
              "statistics" },
        };
        g->nodes.reserve(std::size_t(m_dump.entries.size()));
        QHash<QString, std::pair<int, int>> producers[3];
        int previous[3] = { -1, -1, -1 };
        for (const DumpEntry& entry : m_dump.entries) {
            if (m_ids.contains(entry.name.full))
                continue; // dump.json keys are unique; a duplicate can only come from a damaged file
            m_ids.insert(entry.name.full);
            const int top = topGroup(entry.name);
            graph::Node node = nodeOf(entry, top);
            const int index = int(g->nodes.size());
            bool inferred = false;
            auto& seen = producers[top];
            for (const DumpRow& row : entry.rows) {
                if (isOutputRole(row.role))
                    continue;
                graph::Port port = portOf(entry, row);
                const QString key = tensorKey(row);
                if (!key.isEmpty()) {
                    const auto found = seen.constFind(key);
                    if (found != seen.constEnd()) {
                        port.producer = found->first;
                        port.producerSlot = found->second;
                        inferred = true;
                    }
                }
                node.inputs.push_back(std::move(port));
            }
            for (const DumpRow& row : entry.rows) {
                if (!isOutputRole(row.role))
                    continue;
                const QString key = tensorKey(row);
                if (!key.isEmpty())
                    seen.insert(key, { index, int(node.outputs.size()) });
                node.outputs.push_back(portOf(entry, row));
            }
            if (inferred)
                node.attributes.push_back({ "inputs joined by", "same dtype, shape and statistics (inferred)" });
            // Call order as a control edge from the previous call of the same direction, unless a tensor already
            // joins them: the panel then lays the calls out top to bottom, as msprobe's viewer lists them.
            const int before = std::exchange(previous[top], index);
            if (before >= 0) {
                const bool joined = std::any_of(node.inputs.begin(), node.inputs.end(),
                                                [before](const graph::Port& p) { return p.producer == before; });
                if (!joined) {
                    graph::Port order;
                    order.name = "call order";
                    order.producer = before;
                    order.producerSlot = -1;
                    order.control = true;
                    node.inputs.push_back(std::move(order));
                }
            }
            g->nodes.push_back(std::move(node));
        }
        g->finalize();
        return g;
    }

private:
    static QString pathKey(const QString& prefix, Direction direction, const QString& path)
    {
        return prefix + QLatin1Char('|') + directionId(direction) + QLatin1Char('|') + path;
    }

    static int topGroup(const EntryName& name)
    {
        if (name.direction == Direction::Forward)
            return 0;
        if (name.direction == Direction::Backward || name.direction == Direction::ParametersGrad)
            return 1;
        return 2;
    }

    /// The module (or pseudo node) `name` belongs to; empty at the top.
    QString parentOf(const QString& name) const
    {
        const auto record = m_dump.parents.constFind(name);
        if (record != m_dump.parents.constEnd() && !record->parent.isEmpty())
            return record->parent;
        const EntryName parsed = parseEntryName(name);
        if (parsed.valid && parsed.direction == Direction::ParametersGrad)
            return backwardModuleOf(parsed);
        if (parsed.valid && parsed.direction == Direction::Backward) {
            // msprobe's fix-up: a backward node without a parent takes its forward twin's, renamed.
            const QString twin = forwardTwin(parsed);
            if (m_dump.parents.contains(twin)) {
                const QString parent = m_dump.parentOf(twin);
                return parent.isEmpty() ? QString() : backwardOf(parent);
            }
        }
        if (record == m_dump.parents.constEnd() && m_dump.parents.isEmpty() && parsed.valid && parsed.isModule()) {
            QString path = parsed.modulePath;
            const Direction direction
                = parsed.direction == Direction::ParametersGrad ? Direction::Backward : parsed.direction;
            while (!path.isEmpty()) {
                const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
                path = dot < 0 ? QString() : path.left(dot);
                const auto found = m_modulesByPath.constFind(pathKey(parsed.prefix, direction, path));
                if (found != m_modulesByPath.constEnd() && *found != name)
                    return *found;
            }
        }
        return {};
    }

    /// msprobe hangs a module's parameter gradients under its backward call with the highest counter.
    QString backwardModuleOf(const EntryName& grads) const
    {
        const auto found = m_lastBackward.constFind(grads.scope());
        return found == m_lastBackward.constEnd() ? grads.scope() + QStringLiteral(".backward.0") : found->second;
    }

    void noteBackward(const QString& name)
    {
        const EntryName parsed = parseEntryName(name);
        if (!parsed.valid || !parsed.isModule() || parsed.direction != Direction::Backward)
            return;
        auto& last = m_lastBackward[parsed.scope()];
        if (last.second.isEmpty() || parsed.counter > last.first)
            last = { parsed.counter, name };
    }

    /// A scope component for module `name` under `parent`: its path below the parent's, its class and call
    /// counter ("self_attention.ParallelAttention.0"); the direction is the top group's.
    static std::string component(const QString& name, const QString& parent)
    {
        const EntryName parsed = parseEntryName(name);
        QString label;
        if (!parsed.valid || !parsed.isModule()) {
            label = name;
        } else {
            QString path = parsed.modulePath;
            const EntryName up = parseEntryName(parent);
            if (up.valid && up.isModule() && !up.modulePath.isEmpty()
                && path.startsWith(up.modulePath + QLatin1Char('.')))
                path = path.mid(up.modulePath.size() + 1);
            label = path.isEmpty() ? parsed.className : path + QLatin1Char('.') + parsed.className;
            if (parsed.counter >= 0)
                label += QLatin1Char('.') + QString::number(parsed.counter);
        }
        label.replace(QLatin1Char('/'), QLatin1Char('_'));
        return label.toStdString();
    }

    /// Scope components from the top module down to `name` itself.
    std::vector<std::string> chain(const QString& name)
    {
        const auto memo = m_chains.constFind(name);
        if (memo != m_chains.constEnd())
            return *memo;
        std::vector<std::string> out;
        const QString parent = parentOf(name);
        if (!parent.isEmpty() && !m_open.contains(parent) && m_open.size() < kMaxDepth) {
            m_open.insert(name);
            out = chain(parent);
            m_open.remove(name);
        }
        out.push_back(component(name, parent));
        m_chains.insert(name, out);
        return out;
    }

    /// The last part of a module's path ("attention"; "layers.0" for a numbered one), its class for the root.
    static QString moduleLeaf(const EntryName& name)
    {
        const QStringList parts = name.modulePath.split(QLatin1Char('.'), Qt::SkipEmptyParts);
        if (parts.isEmpty())
            return name.className;
        bool numbered = false;
        parts.last().toInt(&numbered);
        return numbered && parts.size() > 1 ? parts.at(parts.size() - 2) + QLatin1Char('.') + parts.last()
                                            : parts.last();
    }

    std::string scopeOf(const EntryName& name, int top)
    {
        static const char* const kTops[] = { kForwardGroup, kBackwardGroup, kOtherGroup };
        std::vector<std::string> parts;
        if (name.valid && name.isModule() && name.direction != Direction::ParametersGrad) {
            parts = chain(name.full);
        } else {
            const QString parent = parentOf(name.full);
            if (!parent.isEmpty())
                parts = chain(parent);
        }
        std::string scope = kTops[top];
        for (const std::string& part : parts)
            scope += '/' + part;
        return scope;
    }

    graph::Node nodeOf(const DumpEntry& entry, int top)
    {
        const EntryName& n = entry.name;
        graph::Node node;
        node.id = n.full.toStdString();
        node.scope = scopeOf(n, top);
        if (!n.valid) {
            node.name = n.full.toStdString();
            node.opType = n.prefix.toStdString();
        } else if (n.direction == Direction::ParametersGrad) {
            node.name = (n.className + QStringLiteral(".parameters_grad")
                         + (n.counter >= 0 ? QLatin1Char('.') + QString::number(n.counter) : QString()))
                            .toStdString();
            node.opType = "parameters_grad";
        } else if (n.isModule()) {
            // Box labels are the leaf of the name ("attention.forward.0"), the class is the subtitle and the
            // full name the node's id: whole msprobe names do not fit a box.
            node.name = (moduleLeaf(n) + QLatin1Char('.') + directionId(n.direction) + QLatin1Char('.')
                         + QString::number(n.counter))
                            .toStdString();
            node.opType = n.className.toStdString();
        } else {
            node.name
                = ((n.api.isEmpty() ? n.scope() : n.api) + QLatin1Char('.') + QString::number(n.counter)).toStdString();
            node.opType = n.scope().toStdString();
        }
        node.attributes.push_back({ "entry", node.id });
        node.attributes.push_back({ "kind", entryKindId(n.kind).toStdString() });
        node.attributes.push_back({ "direction", directionId(n.direction).toStdString() });
        if (n.counter >= 0)
            node.attributes.push_back({ "counter", std::to_string(n.counter) });
        if (entry.isRecompute)
            node.attributes.push_back({ "recompute", *entry.isRecompute ? "true" : "false" });
        for (const DumpRow& row : entry.rows)
            addRowAttributes(node, entry, row);
        addSources(node, n.full);
        return node;
    }

    void addRowAttributes(graph::Node& node, const DumpEntry& entry, const DumpRow& row) const
    {
        const std::string label = dumpRowLabel(entry, row).toStdString();
        node.attributes.push_back({ label, typeText(row).toStdString() });
        const auto stat = [&](const char* key, const std::optional<double>& value, bool boolean) {
            if (!value)
                return;
            const QString text
                = boolean ? (*value != 0 ? QStringLiteral("true") : QStringLiteral("false")) : dumpStatText(*value);
            node.attributes.push_back({ label + ' ' + key, text.toStdString() });
        };
        if (row.kind == ValueKind::Tensor) {
            stat("Max", row.max, row.booleanStats);
            stat("Min", row.min, row.booleanStats);
            stat("Mean", row.mean, false);
            stat("Norm", row.norm, false);
        }
        if (!row.md5.isEmpty())
            node.attributes.push_back({ label + " md5", row.md5.toStdString() });
        if (!row.dataName.isEmpty()) {
            const QString file = m_dump.tensorFilePath(row);
            if (file.isEmpty())
                node.attributes.push_back({ label + " data_name", row.dataName.toStdString() });
            else
                node.attributes.push_back({ label + " file", QDir::toNativeSeparators(file).toStdString() });
        }
    }

    void addSources(graph::Node& node, const QString& name) const
    {
        const Stack* stack = m_dump.stackOf(name);
        if (!stack)
            return;
        std::vector<graph::SourceLocation> frames;
        int firstUser = -1;
        for (const StackFrame& frame : *stack) {
            if (!frame.file.isEmpty() && isMsprobeFrame(frame.file))
                continue;
            graph::SourceLocation location;
            if (frame.file.isEmpty()) {
                location.text = frame.text.toStdString();
            } else {
                location.file = frame.file.toStdString();
                location.line = std::max(frame.line, 0);
                location.text = frame.code.toStdString();
                if (firstUser < 0 && !isLibraryFrame(frame.file))
                    firstUser = int(frames.size());
            }
            frames.push_back(std::move(location));
        }
        // The line the user wrote is what a stack is opened for; framework frames above it follow.
        if (firstUser > 0)
            std::rotate(frames.begin(), frames.begin() + firstUser, frames.begin() + firstUser + 1);
        node.sources = std::move(frames);
    }

    const MsprobeDump& m_dump;
    QHash<QString, QString> m_modulesByPath;
    QHash<QString, std::pair<qint64, QString>>
        m_lastBackward; ///< module scope -> its backward call with the highest counter
    QHash<QString, std::vector<std::string>> m_chains;
    QSet<QString> m_open;
    QSet<QString> m_ids;
};

} // namespace

QString dumpGraphName(const QString& folder)
{
    static const QRegularExpression kRank(QStringLiteral("^rank\\d*$"));
    const QFileInfo info(folder);
    const QString name = info.fileName();
    if (kRank.match(name).hasMatch()) {
        const QString parent = QFileInfo(info.absolutePath()).fileName();
        if (!parent.isEmpty())
            return parent + QLatin1Char('/') + name;
    }
    return name.isEmpty() ? folder : name;
}

QString dumpRowLabel(const DumpEntry& entry, const DumpRow& row)
{
    const QString& full = entry.name.full;
    if (row.name.size() > full.size() + 1 && row.name.startsWith(full) && row.name.at(full.size()) == QLatin1Char('.'))
        return row.name.mid(full.size() + 1);
    return row.path.isEmpty() ? argRoleId(row.role) : argRoleId(row.role) + QLatin1Char('.') + row.path;
}

QString dumpStatText(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("Infinity") : QStringLiteral("-Infinity");
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

std::shared_ptr<graph::Graph> buildDumpGraph(const MsprobeDump& dump)
{
    return Builder(dump).build();
}

std::shared_ptr<graph::Graph> buildOpsGraph(const QString& name, const QStringList& ops)
{
    auto g = std::make_shared<graph::Graph>();
    g->name = name.toStdString();
    g->format = graph::GraphFormat::MsprobeDump;
    graph::Subgraph main;
    main.name = g->name;
    QSet<QString> seen;
    for (const QString& op : ops) {
        if (op.isEmpty() || seen.contains(op))
            continue;
        seen.insert(op);
        QStringList parts = op.split(QLatin1Char('.'), Qt::SkipEmptyParts);
        graph::Node node;
        node.id = op.toStdString();
        node.name = parts.isEmpty() ? node.id : parts.takeLast().toStdString();
        node.scope = parts.join(QLatin1Char('/')).toStdString();
        // A numbered leaf ("layers.0") says little alone: it keeps its parent's name in its label.
        bool numbered = false;
        QString::fromStdString(node.name).toInt(&numbered);
        if (numbered && !parts.isEmpty())
            node.name = parts.constLast().toStdString() + '.' + node.name;
        if (!g->nodes.empty()) {
            graph::Port order;
            order.name = "execution order";
            order.producer = int(g->nodes.size()) - 1;
            order.control = true;
            node.inputs.push_back(order);
        }
        main.nodes.push_back(int(g->nodes.size()));
        g->nodes.push_back(std::move(node));
    }
    g->subgraphs.push_back(std::move(main));
    g->finalize();
    return g;
}

} // namespace runlens::models::accuracy
