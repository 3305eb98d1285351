#include "models/accuracy/msprobedump.h"

#include <QRegularExpression>

#include <array>
#include <utility>

namespace runlens::models::accuracy {

namespace {

bool isCounter(const QString& text, qint64* value)
{
    if (text.isEmpty() || text.size() > 18)
        return false;
    for (const QChar c : text)
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    *value = text.toLongLong();
    return true;
}

Direction directionFromText(const QString& text)
{
    if (text == QLatin1String("forward"))
        return Direction::Forward;
    if (text == QLatin1String("backward"))
        return Direction::Backward;
    return Direction::Unknown;
}

QString joined(const QStringList& parts, qsizetype from, qsizetype to)
{
    return parts.mid(from, to - from).join(QLatin1Char('.'));
}

struct KindName
{
    EntryKind kind;
    const char* prefix;
    const char* id;
};

constexpr std::array kKinds {
    KindName { EntryKind::Module, "Module", "module" },
    KindName { EntryKind::Cell, "Cell", "cell" },
    KindName { EntryKind::Functional, "Functional", "functional" },
    KindName { EntryKind::Tensor, "Tensor", "tensor" },
    KindName { EntryKind::Torch, "Torch", "torch" },
    KindName { EntryKind::Npu, "NPU", "npu" },
    KindName { EntryKind::Vf, "VF", "vf" },
    KindName { EntryKind::Aten, "Aten", "aten" },
    KindName { EntryKind::Distributed, "Distributed", "distributed" },
    KindName { EntryKind::MindSpeed, "MindSpeed", "mindspeed" },
    KindName { EntryKind::Mint, "Mint", "mint" },
    KindName { EntryKind::MintFunctional, "MintFunctional", "mint-functional" },
    KindName { EntryKind::MintDistributed, "MintDistributed", "mint-distributed" },
    KindName { EntryKind::Primitive, "Primitive", "primitive" },
    KindName { EntryKind::Jit, "Jit", "jit" },
};

} // namespace

QString EntryName::scope() const
{
    if (!valid)
        return full;
    if (isModule())
        return modulePath.isEmpty() ? prefix + QLatin1Char('.') + className
                                    : prefix + QLatin1Char('.') + modulePath + QLatin1Char('.') + className;
    return prefix + QLatin1Char('.') + api;
}

EntryName parseEntryName(const QString& name)
{
    EntryName parsed;
    parsed.full = name;
    const QStringList parts = name.split(QLatin1Char('.'));
    if (parts.size() < 2)
        return parsed;
    parsed.prefix = parts.first();
    parsed.kind = entryKindFromPrefix(parsed.prefix);
    const qsizetype n = parts.size();
    const QString& last = parts[n - 1];
    qint64 counter = -1;
    if (parsed.isModule()) {
        if (last == QLatin1String("parameters_grad") && n >= 3) {
            parsed.className = parts[n - 2];
            parsed.modulePath = joined(parts, 1, n - 2);
            parsed.direction = Direction::ParametersGrad;
        } else if (n >= 4 && parts[n - 2] == QLatin1String("parameters_grad") && isCounter(last, &counter)) {
            parsed.className = parts[n - 3];
            parsed.modulePath = joined(parts, 1, n - 3);
            parsed.direction = Direction::ParametersGrad;
            parsed.counter = counter;
        } else if (n >= 4 && directionFromText(parts[n - 2]) != Direction::Unknown && isCounter(last, &counter)) {
            parsed.className = parts[n - 3];
            parsed.modulePath = joined(parts, 1, n - 3);
            parsed.direction = directionFromText(parts[n - 2]);
            parsed.counter = counter;
        } else {
            return parsed;
        }
        parsed.valid = !parsed.className.isEmpty();
        return parsed;
    }
    if (n >= 4 && directionFromText(last) != Direction::Unknown && isCounter(parts[n - 2], &counter)) {
        parsed.api = joined(parts, 1, n - 2);
        parsed.direction = directionFromText(last);
        parsed.counter = counter;
        parsed.valid = !parsed.api.isEmpty() && !parsed.prefix.isEmpty();
    }
    return parsed;
}

StackFrame parseStackFrame(const QString& text)
{
    static const QRegularExpression kFrame(QStringLiteral("^File (.*), line (\\d+), in ([^\\n]*?),? ?\\n ?(.*)$"),
                                           QRegularExpression::DotMatchesEverythingOption);
    StackFrame frame;
    const QRegularExpressionMatch match = kFrame.match(text);
    if (!match.hasMatch()) {
        frame.text = text;
        return frame;
    }
    frame.file = match.captured(1);
    bool ok = false;
    frame.line = match.captured(2).toInt(&ok);
    if (!ok)
        frame.line = -1;
    frame.function = match.captured(3);
    frame.code = match.captured(4).trimmed();
    return frame;
}

const DumpEntry* MsprobeDump::entry(const QString& name) const
{
    const auto found = entryIndex.constFind(name);
    return found == entryIndex.constEnd() ? nullptr : &entries[*found];
}

QString MsprobeDump::parentOf(const QString& name) const
{
    return parents.value(name).parent;
}

const Stack* MsprobeDump::stackOf(const QString& name) const
{
    auto lookup = [this](const QString& key) -> const Stack* {
        const auto found = stackIndex.constFind(key);
        return found == stackIndex.constEnd() ? nullptr : &stacks[*found];
    };
    if (const Stack* own = lookup(name))
        return own;
    // Only forward calls are given stacks; a backward entry shows where its forward call was made.
    const EntryName parsed = parseEntryName(name);
    if (!parsed.valid || parsed.direction == Direction::Forward)
        return nullptr;
    const QString scope = parsed.scope();
    if (!parsed.isModule())
        return lookup(scope + QLatin1Char('.') + QString::number(parsed.counter) + QStringLiteral(".forward"));
    if (parsed.counter >= 0)
        if (const Stack* twin = lookup(scope + QStringLiteral(".forward.") + QString::number(parsed.counter)))
            return twin;
    return lookup(scope + QStringLiteral(".forward.0"));
}

QString MsprobeDump::tensorFilePath(const DumpRow& row) const
{
    return row.dataName.isEmpty() ? QString() : tensorFiles.value(row.dataName);
}

qint64 MsprobeDump::rowCount() const
{
    qint64 count = 0;
    for (const DumpEntry& e : entries)
        count += e.rows.size();
    return count;
}

int MsprobeDump::countDirection(Direction direction) const
{
    int count = 0;
    for (const DumpEntry& e : entries)
        count += e.name.direction == direction ? 1 : 0;
    return count;
}

DumpTask dumpTaskFromText(const QString& text)
{
    if (text == QLatin1String("statistics"))
        return DumpTask::Statistics;
    if (text == QLatin1String("tensor"))
        return DumpTask::Tensor;
    if (text == QLatin1String("md5"))
        return DumpTask::Md5;
    if (text == QLatin1String("structure"))
        return DumpTask::Structure;
    return DumpTask::Unknown;
}

DumpLevel dumpLevelFromText(const QString& text)
{
    if (text == QLatin1String("L0"))
        return DumpLevel::L0;
    if (text == QLatin1String("L1"))
        return DumpLevel::L1;
    if (text == QLatin1String("mix"))
        return DumpLevel::Mix;
    if (text == QLatin1String("L2"))
        return DumpLevel::L2;
    if (text == QLatin1String("debug"))
        return DumpLevel::Debug;
    return DumpLevel::Unknown;
}

DumpFramework dumpFrameworkFromText(const QString& text)
{
    if (text == QLatin1String("pytorch"))
        return DumpFramework::PyTorch;
    if (text == QLatin1String("mindspore"))
        return DumpFramework::MindSpore;
    if (text == QLatin1String("mindtorch"))
        return DumpFramework::MindTorch;
    return DumpFramework::Unknown;
}

EntryKind entryKindFromPrefix(const QString& prefix)
{
    for (const KindName& k : kKinds)
        if (prefix == QLatin1String(k.prefix))
            return k.kind;
    return EntryKind::Other;
}

QString dumpTaskId(DumpTask task)
{
    switch (task) {
    case DumpTask::Statistics:
        return QStringLiteral("statistics");
    case DumpTask::Tensor:
        return QStringLiteral("tensor");
    case DumpTask::Md5:
        return QStringLiteral("md5");
    case DumpTask::Structure:
        return QStringLiteral("structure");
    case DumpTask::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString dumpLevelId(DumpLevel level)
{
    switch (level) {
    case DumpLevel::L0:
        return QStringLiteral("L0");
    case DumpLevel::L1:
        return QStringLiteral("L1");
    case DumpLevel::Mix:
        return QStringLiteral("mix");
    case DumpLevel::L2:
        return QStringLiteral("L2");
    case DumpLevel::Debug:
        return QStringLiteral("debug");
    case DumpLevel::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString dumpFrameworkId(DumpFramework framework)
{
    switch (framework) {
    case DumpFramework::PyTorch:
        return QStringLiteral("pytorch");
    case DumpFramework::MindSpore:
        return QStringLiteral("mindspore");
    case DumpFramework::MindTorch:
        return QStringLiteral("mindtorch");
    case DumpFramework::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString entryKindId(EntryKind kind)
{
    for (const KindName& k : kKinds)
        if (k.kind == kind)
            return QLatin1String(k.id);
    return QStringLiteral("other");
}

QString directionId(Direction direction)
{
    switch (direction) {
    case Direction::Forward:
        return QStringLiteral("forward");
    case Direction::Backward:
        return QStringLiteral("backward");
    case Direction::ParametersGrad:
        return QStringLiteral("parameters_grad");
    case Direction::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString argRoleId(ArgRole role)
{
    switch (role) {
    case ArgRole::Input:
        return QStringLiteral("input");
    case ArgRole::Kwarg:
        return QStringLiteral("kwarg");
    case ArgRole::Parameter:
        return QStringLiteral("parameter");
    case ArgRole::Output:
        return QStringLiteral("output");
    case ArgRole::ParameterGrad:
        return QStringLiteral("parameter_grad");
    }
    return QStringLiteral("input");
}

} // namespace runlens::models::accuracy
