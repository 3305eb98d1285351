// The two sides of a comparison as rows in execution order: from an msprobe dump, a tensor dump folder or a
// checkpoint.

#include "models/accuracy/dumpmatching.h"

#include "models/tensor/dtype.h"

#include <QFileInfo>

#include <algorithm>

namespace runlens::models::accuracy {

namespace {

RowKind rowKindOf(ArgRole role)
{
    switch (role) {
    case ArgRole::Input:
    case ArgRole::Kwarg:
        return RowKind::Input;
    case ArgRole::Parameter:
        return RowKind::Parameter;
    case ArgRole::Output:
        return RowKind::Output;
    case ArgRole::ParameterGrad:
        return RowKind::Gradient;
    }
    return RowKind::Input;
}

int kindOrder(RowKind kind)
{
    switch (kind) {
    case RowKind::Input:
        return 0;
    case RowKind::Parameter:
        return 1;
    case RowKind::Output:
        return 2;
    case RowKind::Gradient:
        return 3;
    }
    return 0;
}

QString dtypeText(tensor::DType type)
{
    const std::string_view name = tensor::dtypeName(type);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

} // namespace

QString rowKindId(RowKind kind)
{
    switch (kind) {
    case RowKind::Input:
        return QStringLiteral("input");
    case RowKind::Output:
        return QStringLiteral("output");
    case RowKind::Parameter:
        return QStringLiteral("parameter");
    case RowKind::Gradient:
        return QStringLiteral("gradient");
    }
    return {};
}

bool naturalLess(const QString& a, const QString& b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ie = i, je = j;
            while (ie < a.size() && a[ie].isDigit())
                ++ie;
            while (je < b.size() && b[je].isDigit())
                ++je;
            const qulonglong x = a.mid(i, ie - i).toULongLong();
            const qulonglong y = b.mid(j, je - j).toULongLong();
            if (x != y)
                return x < y;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

QString qualifiedName(const SideRow& row)
{
    return row.group.isEmpty() ? row.name : row.group + QLatin1Char('/') + row.name;
}

DumpSide sideFromMsprobe(std::shared_ptr<const MsprobeDump> shared)
{
    DumpSide side;
    if (!shared)
        return side;
    const MsprobeDump& dump = *shared;
    side.msprobe = shared;
    side.path = dump.folder;
    side.kind = SideKind::Msprobe;
    side.framework = dump.framework;
    side.task = dump.task;
    for (const DumpEntry& entry : dump.entries) {
        const int opIndex = int(side.ops.size());
        side.ops << entry.name.full;
        for (const DumpRow& r : entry.rows) {
            SideRow row;
            row.name = r.name;
            row.op = entry.name.full;
            row.opIndex = opIndex;
            row.kind = rowKindOf(r.role);
            bool numeric = false;
            const int index = r.path.section(QLatin1Char('.'), 0, 0).toInt(&numeric);
            row.index = numeric ? index : -1;
            row.dtype = r.kind == ValueKind::Tensor ? r.dtype : r.type;
            row.shape.assign(r.shape.begin(), r.shape.end());
            row.hasShape = r.hasShape;
            row.isTensor = r.kind == ValueKind::Tensor;
            row.stats = { r.max, r.min, r.mean, r.norm };
            row.md5 = r.md5;
            row.sourceText = dump.tensorFilePath(r);
            side.rows << row;
        }
    }
    return side;
}

DumpSide sideFromCatalog(const QString& path, const tensor::TensorCatalog& catalog)
{
    DumpSide side;
    side.path = path;
    side.kind = SideKind::TensorDump;
    side.task = DumpTask::Tensor;
    const QList<int> steps = catalog.steps();
    const bool severalSteps = steps.size() > 1;
    QList<SideRow> rows;
    for (const tensor::TensorSeries& series : catalog.series()) {
        for (const tensor::TensorInfo& info : series.versions) {
            SideRow row;
            const QString stepPrefix = severalSteps ? QStringLiteral("step_%1/").arg(info.step) : QString();
            row.name = stepPrefix + series.name;
            row.op = stepPrefix + (series.nodeKey.isEmpty() ? series.name : series.nodeKey);
            const QString kind = series.kind.toLower();
            if (series.io == graph::DumpIo::Input || kind.startsWith(QLatin1String("input")))
                row.kind = RowKind::Input;
            else if (series.io == graph::DumpIo::Output || kind.startsWith(QLatin1String("output"))
                     || kind == QLatin1String("act"))
                row.kind = RowKind::Output;
            else if (kind.contains(QLatin1String("grad")))
                row.kind = RowKind::Gradient;
            else
                row.kind = RowKind::Parameter;
            // A torch-style file names one input or output of its module: slot 0.
            row.index = series.slot >= 0                                    ? series.slot
                : row.kind == RowKind::Input || row.kind == RowKind::Output ? 0
                                                                            : -1;
            row.dtype = dtypeText(info.dtype);
            row.shape = info.shape;
            row.hasShape = true;
            row.source = info.source;
            row.sourceText = info.location();
            rows << row;
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const SideRow& x, const SideRow& y) {
        if (x.op != y.op)
            return naturalLess(x.op, y.op);
        if (x.kind != y.kind)
            return kindOrder(x.kind) < kindOrder(y.kind);
        return naturalLess(x.name, y.name);
    });
    for (SideRow& row : rows) {
        if (side.ops.isEmpty() || side.ops.back() != row.op)
            side.ops << row.op;
        row.opIndex = int(side.ops.size()) - 1;
    }
    side.rows = std::move(rows);
    return side;
}

DumpSide sideFromCheckpoint(const QString& path, const QList<tensor::TensorInfo>& tensors)
{
    DumpSide side;
    side.path = path;
    side.kind = SideKind::Checkpoint;
    side.task = DumpTask::Tensor;
    QHash<QString, int> opIndex;
    for (const tensor::TensorInfo& info : tensors) {
        SideRow row;
        row.name = info.member.isEmpty() ? QFileInfo(info.path).completeBaseName() : info.member;
        const int dot = int(row.name.lastIndexOf(QLatin1Char('.')));
        row.op = dot > 0 ? row.name.left(dot) : row.name;
        row.kind
            = row.name.contains(QLatin1String("grad"), Qt::CaseInsensitive) ? RowKind::Gradient : RowKind::Parameter;
        row.dtype = dtypeText(info.dtype);
        row.shape = info.shape;
        row.hasShape = true;
        row.source = info.source;
        row.sourceText = info.location();
        auto it = opIndex.constFind(row.op);
        if (it == opIndex.constEnd()) {
            it = opIndex.insert(row.op, int(side.ops.size()));
            side.ops << row.op;
        }
        row.opIndex = *it;
        side.rows << row;
    }
    return side;
}

} // namespace runlens::models::accuracy
