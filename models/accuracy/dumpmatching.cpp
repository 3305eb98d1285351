#include "models/accuracy/dumpmatching.h"

#include "models/tensor/dtype.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <array>

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

/// The part of a row name after its op ("`.input.0`"); the whole name when it does not start with the op.
QString suffixOf(const SideRow& row)
{
    if (!row.op.isEmpty() && row.name.startsWith(row.op))
        return row.name.mid(row.op.size());
    return row.name;
}

QString directionText(Direction d)
{
    return d == Direction::Backward ? QStringLiteral("backward") : QStringLiteral("forward");
}

QString replacePieces(QString path, const QList<QPair<QString, QString>>& pieces)
{
    if (pieces.isEmpty())
        return path;
    QString dotted = QLatin1Char('.') + path + QLatin1Char('.');
    for (const auto& [from, to] : pieces) {
        if (from.isEmpty())
            continue;
        dotted.replace(QLatin1Char('.') + from + QLatin1Char('.'), QLatin1Char('.') + to + QLatin1Char('.'));
    }
    return dotted.mid(1, dotted.size() - 2);
}

/// The op name mapped, and its key without the call counter (empty when the name has no counter).
struct MappedOp
{
    QString name;
    QString fuzzyKey;
};

MappedOp mapOp(const QString& op, const NameMapping& mapping, bool crossFramework)
{
    if (const auto it = mapping.rows.constFind(op); it != mapping.rows.constEnd())
        return { *it, {} };
    const EntryName e = parseEntryName(op);
    if (!e.valid)
        return { replacePieces(op, mapping.modules), {} };
    if (!e.isModule()) {
        QString scope = e.prefix + QLatin1Char('.') + e.api;
        if (const auto it = mapping.apis.constFind(scope); it != mapping.apis.constEnd())
            scope = *it;
        else if (crossFramework) {
            const NameMapping& builtIn = NameMapping::mindSporeToPyTorch();
            if (const auto b = builtIn.apis.constFind(scope); b != builtIn.apis.constEnd())
                scope = *b;
            else if (e.prefix == QLatin1String("Mint"))
                scope = QStringLiteral("Torch.") + e.api;
            else if (e.prefix == QLatin1String("MintFunctional"))
                scope = QStringLiteral("Functional.") + e.api;
        }
        const QString dir = directionText(e.direction);
        return { scope + QLatin1Char('.') + QString::number(e.counter) + QLatin1Char('.') + dir,
                 scope + QLatin1Char('.') + dir };
    }
    const QString prefix = crossFramework && e.kind == EntryKind::Cell ? QStringLiteral("Module") : e.prefix;
    const QString path = replacePieces(e.modulePath, mapping.modules);
    const QString cls = mapping.classes.value(e.className, e.className);
    const QString head = prefix + QLatin1Char('.') + (path.isEmpty() ? QString() : path + QLatin1Char('.')) + cls;
    if (e.direction == Direction::ParametersGrad)
        return { head + QStringLiteral(".parameters_grad")
                     + (e.counter >= 0 ? QLatin1Char('.') + QString::number(e.counter) : QString()),
                 {} };
    const QString dir = directionText(e.direction);
    return { head + QLatin1Char('.') + dir + QLatin1Char('.') + QString::number(e.counter),
             head + QLatin1Char('.') + dir };
}

/// Whether two calls look like the same call: every argument both record has the same shape on both sides,
/// and they share at least one argument. Arguments only one side records (a framework's extra keyword) do not
/// count against it, as they would across PyTorch and MindSpore.
bool compatible(const DumpSide& bench, const QList<int>& benchRows, const DumpSide& target,
                const QList<int>& targetRows, const QStringList& targetSuffixes)
{
    if (benchRows.isEmpty() && targetRows.isEmpty())
        return true;
    QHash<QString, const SideRow*> bySuffix;
    for (int r : benchRows)
        bySuffix.insert(suffixOf(bench.rows[r]), &bench.rows[r]);
    int common = 0;
    for (int r : targetRows) {
        const SideRow& t = target.rows[r];
        const SideRow* b = bySuffix.value(targetSuffixes[r]);
        if (!b)
            continue;
        ++common;
        if (b->hasShape && t.hasShape && b->shape != t.shape)
            return false;
    }
    return common > 0;
}

/// What must agree for two rows to pair, as msprobe's join on shape text and its dtype gate across
/// frameworks: a None pairs only with a None, a tensor only with a tensor of the same class of dtype
/// (integers, floating point, bool, complex: float32 pairs with bfloat16, torch.int64 with Int64), a value
/// only with a value of the same type.
QString dtypeClass(const SideRow& row)
{
    if (!row.isTensor)
        return row.dtype.isEmpty() ? QStringLiteral("none") : QStringLiteral("value:") + row.dtype.toLower();
    QString d = row.dtype.toLower();
    if (d.startsWith(QLatin1String("torch.")))
        d = d.mid(6);
    if (d.startsWith(QLatin1String("int")) || d.startsWith(QLatin1String("uint")))
        return QStringLiteral("int");
    if (d.startsWith(QLatin1String("float")) || d.startsWith(QLatin1String("bfloat")) || d == QLatin1String("half")
        || d == QLatin1String("double"))
        return QStringLiteral("float");
    if (d.startsWith(QLatin1String("complex")))
        return QStringLiteral("complex");
    return d;
}

bool rowsAlike(const SideRow& b, const SideRow& t)
{
    return dtypeClass(b) == dtypeClass(t);
}

/// The part of a target row's name after its op, its argument slot translated through the mapping's
/// argument lists for the op's API (msprobe's api_mapping); a slot the lists leave out gets a suffix no
/// bench row has.
QString targetSuffix(const SideRow& row, const NameMapping& mapping)
{
    const QString suffix = suffixOf(row);
    if (mapping.apiArguments.isEmpty())
        return suffix;
    const EntryName e = parseEntryName(row.op);
    if (!e.valid || e.isModule())
        return suffix;
    const auto it = mapping.apiArguments.constFind(e.prefix + QLatin1Char('.') + e.api);
    if (it == mapping.apiArguments.constEnd())
        return suffix;
    // ".input.0.1" -> role "input", slot "0", rest ".1".
    QStringList fields = suffix.mid(1).split(QLatin1Char('.'));
    if (fields.size() < 2)
        return suffix;
    const QString role = fields[0];
    const std::optional<QHash<QString, QString>>* slotMap = nullptr;
    if (role == QLatin1String("input") || role == QLatin1String("kwargs"))
        slotMap = &it->inputs;
    else if (role == QLatin1String("output"))
        slotMap = &it->outputs;
    else if (role == QLatin1String("parameters"))
        slotMap = &it->parameters;
    else if (role == QLatin1String("parameters_grad"))
        slotMap = &it->parameterGrads;
    if (!slotMap || !slotMap->has_value())
        return suffix;
    const auto slot = (*slotMap)->constFind(fields[1]);
    if (slot == (*slotMap)->constEnd())
        return suffix + QStringLiteral("#unmapped");
    fields[1] = *slot;
    return QLatin1Char('.') + fields.join(QLatin1Char('.'));
}

QHash<QString, QString> readStringMap(const QJsonObject& o)
{
    QHash<QString, QString> map;
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it->isString())
            map.insert(it.key(), it->toString());
    return map;
}

NameMapping fromSections(const QHash<QString, QHash<QString, QString>>& sections)
{
    NameMapping m;
    m.rows = sections.value(QStringLiteral("rows"));
    m.apis = sections.value(QStringLiteral("apis"));
    m.classes = sections.value(QStringLiteral("classes"));
    const QHash<QString, QString> modules = sections.value(QStringLiteral("modules"));
    // Longer pieces first, so "a.b" is replaced before "a".
    QStringList keys = modules.keys();
    std::sort(keys.begin(), keys.end(),
              [](const QString& x, const QString& y) { return x.size() != y.size() ? x.size() > y.size() : x < y; });
    for (const QString& k : keys)
        m.modules.append({ k, modules.value(k) });
    return m;
}

QString unquote(QString s)
{
    s = s.trimmed();
    if (s.size() >= 2 && (s.front() == QLatin1Char('"') || s.front() == QLatin1Char('\'')) && s.back() == s.front())
        s = s.mid(1, s.size() - 2);
    return s;
}

/// One api_mapping entry read from its keys: values are names or lists of slots.
using ApiEntry = QHash<QString, QStringList>;

const QStringList& apiEntryKeys()
{
    static const QStringList keys { QStringLiteral("ms_api"),
                                    QStringLiteral("pt_api"),
                                    QStringLiteral("ms_args"),
                                    QStringLiteral("pt_args"),
                                    QStringLiteral("ms_outputs"),
                                    QStringLiteral("pt_outputs"),
                                    QStringLiteral("ms_parameters"),
                                    QStringLiteral("pt_parameters"),
                                    QStringLiteral("ms_parameters_grad"),
                                    QStringLiteral("pt_parameters_grad") };
    return keys;
}

bool isSlotToken(const QString& s)
{
    if (s.isEmpty() || s.size() > 256)
        return false;
    for (const QChar c : s)
        if (!(c.isLetterOrNumber() || c == QLatin1Char('_')))
            return false;
    return true;
}

/// Adds the entries to `m`; false with `error` set when one is incomplete or its paired lists differ in length.
bool addApiEntries(const QList<ApiEntry>& entries, NameMapping& m, QString* error)
{
    static const std::array<std::pair<const char*, const char*>, 4> kPairs { {
        { "ms_args", "pt_args" },
        { "ms_outputs", "pt_outputs" },
        { "ms_parameters", "pt_parameters" },
        { "ms_parameters_grad", "pt_parameters_grad" },
    } };
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const ApiEntry& e = entries[i];
        const QStringList msApi = e.value(QStringLiteral("ms_api"));
        const QStringList ptApi = e.value(QStringLiteral("pt_api"));
        if (msApi.size() != 1 || ptApi.size() != 1 || msApi.front().isEmpty() || ptApi.front().isEmpty()) {
            if (error)
                *error = QCoreApplication::translate(
                             "runlens::accuracy", "Entry %1 of the api mapping needs one ms_api and one pt_api name.")
                             .arg(i + 1);
            return false;
        }
        ApiArguments args;
        std::optional<QHash<QString, QString>>* roles[]
            = { &args.inputs, &args.outputs, &args.parameters, &args.parameterGrads };
        for (std::size_t k = 0; k < kPairs.size(); ++k) {
            const QString msKey = QLatin1String(kPairs[k].first);
            const QString ptKey = QLatin1String(kPairs[k].second);
            if (!e.contains(msKey) && !e.contains(ptKey))
                continue;
            const QStringList ms = e.value(msKey);
            const QStringList pt = e.value(ptKey);
            if (ms.size() != pt.size()) {
                if (error)
                    *error = QCoreApplication::translate(
                                 "runlens::accuracy", "Entry %1 of the api mapping (%2): %3 and %4 differ in length.")
                                 .arg(i + 1)
                                 .arg(msApi.front(), msKey, ptKey);
                return false;
            }
            QHash<QString, QString> slotMap;
            for (qsizetype j = 0; j < ms.size(); ++j)
                slotMap.insert(ms[j], pt[j]);
            *roles[k] = std::move(slotMap);
        }
        m.apis.insert(msApi.front(), ptApi.front());
        m.apiArguments.insert(msApi.front(), args);
    }
    return true;
}

/// A flow list "[0, 2]" or a single value; nullopt when a slot is not a plain name or number.
std::optional<QStringList> parseYamlValue(const QString& value)
{
    QString v = value.trimmed();
    QStringList out;
    if (v.startsWith(QLatin1Char('['))) {
        if (!v.endsWith(QLatin1Char(']')))
            return std::nullopt;
        for (const QString& part : v.mid(1, v.size() - 2).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString item = unquote(part);
            if (!isSlotToken(item))
                return std::nullopt;
            out << item;
        }
        return out;
    }
    out << unquote(v);
    return out;
}

/// msprobe's api_mapping YAML: a list of entries (`- ms_api: ...` with the other keys indented below), or one
/// entry at the top level; lists as `[0, 1]` or as `- 0` lines below their key.
std::optional<NameMapping> parseApiMappingYaml(const QByteArray& text, QString* error)
{
    QList<ApiEntry> entries;
    QString listKey; // the key whose `- item` lines follow
    int lineNumber = 0;
    auto fail = [&](const QString& message) -> std::optional<NameMapping> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    for (const QByteArray& raw : text.split('\n')) {
        ++lineNumber;
        QString line = QString::fromUtf8(raw);
        const int hash = int(line.indexOf(QLatin1Char('#')));
        if (hash >= 0)
            line.truncate(hash);
        QString body = line.trimmed();
        if (body.isEmpty() || body == QLatin1String("---"))
            continue;
        bool newEntry = false;
        if (body == QLatin1String("-") || body.startsWith(QLatin1String("- "))) {
            const QString item = body.mid(1).trimmed();
            if (!listKey.isEmpty() && !item.contains(QLatin1Char(':'))) {
                if (!isSlotToken(unquote(item)))
                    return fail(QCoreApplication::translate("runlens::accuracy",
                                                            "Line %1 of the api mapping: '%2' is not an argument slot.")
                                    .arg(lineNumber)
                                    .arg(item.left(80)));
                entries.back()[listKey] << unquote(item);
                continue;
            }
            newEntry = true;
            body = item;
        }
        if (newEntry || entries.isEmpty())
            entries.append(ApiEntry {});
        listKey.clear();
        if (body.isEmpty())
            continue;
        const int colon = int(body.indexOf(QLatin1Char(':')));
        if (colon <= 0)
            return fail(
                QCoreApplication::translate("runlens::accuracy", "Line %1 of the api mapping is not 'key: value'.")
                    .arg(lineNumber));
        const QString key = unquote(body.left(colon));
        if (!apiEntryKeys().contains(key))
            return fail(QCoreApplication::translate(
                            "runlens::accuracy",
                            "Line %1 of the api mapping: unknown key '%2' (ms_api, pt_api, ms_args, pt_args, "
                            "ms_outputs, pt_outputs, ms_parameters, pt_parameters, ms_parameters_grad, "
                            "pt_parameters_grad).")
                            .arg(lineNumber)
                            .arg(key.left(80)));
        if (entries.back().contains(key))
            return fail(QCoreApplication::translate("runlens::accuracy",
                                                    "Line %1 of the api mapping: '%2' appears twice in one entry.")
                            .arg(lineNumber)
                            .arg(key));
        const QString value = body.mid(colon + 1).trimmed();
        if (value.isEmpty()) {
            entries.back().insert(key, {});
            listKey = key;
            continue;
        }
        const std::optional<QStringList> parsed = parseYamlValue(value);
        if (!parsed)
            return fail(QCoreApplication::translate("runlens::accuracy",
                                                    "Line %1 of the api mapping: '%2' is not a list of argument slots.")
                            .arg(lineNumber)
                            .arg(value.left(80)));
        entries.back().insert(key, *parsed);
    }
    NameMapping m;
    if (!addApiEntries(entries, m, error))
        return std::nullopt;
    return m;
}

/// The same entries as a JSON array of objects.
std::optional<NameMapping> parseApiMappingJson(const QJsonArray& array, QString* error)
{
    QList<ApiEntry> entries;
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array[i].isObject()) {
            if (error)
                *error
                    = QCoreApplication::translate("runlens::accuracy", "Entry %1 of the api mapping is not an object.")
                          .arg(i + 1);
            return std::nullopt;
        }
        const QJsonObject o = array[i].toObject();
        ApiEntry e;
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!apiEntryKeys().contains(it.key())) {
                if (error)
                    *error = QCoreApplication::translate("runlens::accuracy",
                                                         "Entry %1 of the api mapping: unknown key '%2'.")
                                 .arg(i + 1)
                                 .arg(it.key().left(80));
                return std::nullopt;
            }
            QStringList values;
            if (it->isString()) {
                values << it->toString();
            } else if (it->isArray()) {
                for (const QJsonValue& v : it->toArray()) {
                    const QString slot = v.isDouble() ? QString::number(v.toInteger()) : v.toString();
                    if (!isSlotToken(slot)) {
                        if (error)
                            *error = QCoreApplication::translate(
                                         "runlens::accuracy",
                                         "Entry %1 of the api mapping: '%2' holds something other than "
                                         "argument slots.")
                                         .arg(i + 1)
                                         .arg(it.key());
                        return std::nullopt;
                    }
                    values << slot;
                }
            } else {
                if (error)
                    *error = QCoreApplication::translate(
                                 "runlens::accuracy", "Entry %1 of the api mapping: '%2' is neither a name nor a list.")
                                 .arg(i + 1)
                                 .arg(it.key());
                return std::nullopt;
            }
            e.insert(it.key(), values);
        }
        entries << e;
    }
    NameMapping m;
    if (!addApiEntries(entries, m, error))
        return std::nullopt;
    return m;
}

/// Whether YAML text is msprobe's api_mapping form: its first line with content is a list item or an
/// `ms_api`/`pt_api` key.
bool looksLikeApiMapping(const QByteArray& text)
{
    for (const QByteArray& raw : text.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#') || line == "---")
            continue;
        return line == "-" || line.startsWith("- ") || line.startsWith("ms_api:") || line.startsWith("pt_api:");
    }
    return false;
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

QString matchRuleId(MatchRule rule)
{
    switch (rule) {
    case MatchRule::Exact:
        return QStringLiteral("exact");
    case MatchRule::Mapped:
        return QStringLiteral("mapped");
    case MatchRule::Fuzzy:
        return QStringLiteral("fuzzy");
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

bool NameMapping::isEmpty() const
{
    return rows.isEmpty() && apis.isEmpty() && modules.isEmpty() && classes.isEmpty() && apiArguments.isEmpty();
}

void NameMapping::merge(const NameMapping& other)
{
    rows.insert(other.rows);
    apis.insert(other.apis);
    classes.insert(other.classes);
    apiArguments.insert(other.apiArguments);
    for (const auto& piece : other.modules) {
        modules.erase(
            std::remove_if(modules.begin(), modules.end(), [&](const auto& p) { return p.first == piece.first; }),
            modules.end());
        modules.append(piece);
    }
}

const NameMapping& NameMapping::mindSporeToPyTorch()
{
    static const NameMapping mapping = [] {
        QFile file(QStringLiteral(":/accuracy/apimapping.json"));
        NameMapping m;
        if (file.open(QIODevice::ReadOnly)) {
            QString error;
            if (const std::optional<NameMapping> parsed = parse(file.readAll(), &error))
                m = *parsed;
        }
        return m;
    }();
    return mapping;
}

std::optional<NameMapping> NameMapping::parse(const QByteArray& text, QString* error)
{
    static const QStringList kSections { QStringLiteral("rows"), QStringLiteral("apis"), QStringLiteral("modules"),
                                         QStringLiteral("classes") };
    QHash<QString, QHash<QString, QString>> sections;
    const QByteArray trimmed = text.trimmed();
    if (trimmed.startsWith('[')) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (!doc.isArray()) {
            if (error)
                *error = QCoreApplication::translate("runlens::accuracy", "The mapping is not valid JSON: %1")
                             .arg(parseError.errorString());
            return std::nullopt;
        }
        return parseApiMappingJson(doc.array(), error);
    }
    if (!trimmed.startsWith('{') && looksLikeApiMapping(text))
        return parseApiMappingYaml(text, error);
    if (trimmed.startsWith('{')) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (!doc.isObject()) {
            if (error)
                *error = QCoreApplication::translate("runlens::accuracy", "The mapping is not valid JSON: %1")
                             .arg(parseError.errorString());
            return std::nullopt;
        }
        const QJsonObject root = doc.object();
        for (auto it = root.begin(); it != root.end(); ++it) {
            if (kSections.contains(it.key()) && it->isObject())
                sections[it.key()] = readStringMap(it->toObject());
            else if (it->isString())
                sections[QStringLiteral("rows")].insert(it.key(), it->toString());
        }
        return fromSections(sections);
    }
    // YAML, the small subset mapping files need: `section:` lines with indented `key: value` lines below,
    // or top-level `key: value` lines (row names, as msprobe's data_mapping files write them).
    QString section;
    int lineNumber = 0;
    for (const QByteArray& raw : text.split('\n')) {
        ++lineNumber;
        QString line = QString::fromUtf8(raw);
        const int hash = int(line.indexOf(QLatin1String(" #")));
        if (hash >= 0)
            line.truncate(hash);
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(QLatin1Char('#'))
            || line.trimmed() == QLatin1String("---"))
            continue;
        const bool indented = line.front().isSpace();
        const int colon = int(line.indexOf(QLatin1String(": ")));
        const QString trimmedLine = line.trimmed();
        if (!indented && trimmedLine.endsWith(QLatin1Char(':')) && colon < 0) {
            section = unquote(trimmedLine.chopped(1));
            if (!kSections.contains(section)) {
                if (error)
                    *error = QCoreApplication::translate(
                                 "runlens::accuracy",
                                 "Line %1 of the mapping: unknown section '%2' (rows, apis, modules or classes).")
                                 .arg(lineNumber)
                                 .arg(section);
                return std::nullopt;
            }
            continue;
        }
        if (colon < 0) {
            if (error)
                *error = QCoreApplication::translate("runlens::accuracy", "Line %1 of the mapping is not 'name: name'.")
                             .arg(lineNumber);
            return std::nullopt;
        }
        const QString key = unquote(line.left(colon));
        const QString value = unquote(line.mid(colon + 2));
        sections[indented && !section.isEmpty() ? section : QStringLiteral("rows")].insert(key, value);
    }
    return fromSections(sections);
}

QString mapOpName(const QString& op, const NameMapping& mapping, bool crossFramework)
{
    return mapOp(op, mapping, crossFramework).name;
}

namespace {

MatchResult matchOneDump(const DumpSide& bench, const DumpSide& target, const NameMapping& mapping)
{
    const bool cross = (bench.framework == DumpFramework::PyTorch && target.framework == DumpFramework::MindSpore);
    QStringList targetSuffixes;
    targetSuffixes.reserve(target.rows.size());
    for (const SideRow& row : target.rows)
        targetSuffixes << targetSuffix(row, mapping);
    QList<QList<int>> benchOpRows(bench.ops.size());
    QList<QList<int>> targetOpRows(target.ops.size());
    for (int i = 0; i < bench.rows.size(); ++i)
        if (bench.rows[i].opIndex >= 0)
            benchOpRows[bench.rows[i].opIndex] << i;
    for (int i = 0; i < target.rows.size(); ++i)
        if (target.rows[i].opIndex >= 0)
            targetOpRows[target.rows[i].opIndex] << i;
    QHash<QString, int> benchRowByName;
    for (int i = 0; i < bench.rows.size(); ++i)
        benchRowByName.insert(bench.rows[i].name, i);
    QHash<QString, int> benchOpByName;
    for (int i = 0; i < bench.ops.size(); ++i)
        benchOpByName.insert(bench.ops[i], i);

    QList<bool> benchUsed(bench.rows.size(), false);
    QList<bool> targetUsed(target.rows.size(), false);
    MatchResult result;
    auto pairRows = [&](int b, int t, MatchRule rule) {
        benchUsed[b] = true;
        targetUsed[t] = true;
        result.pairs.append({ b, t, rule });
    };

    // 1. Whole row names of the mapping.
    for (int t = 0; t < target.rows.size(); ++t) {
        const auto it = mapping.rows.constFind(target.rows[t].name);
        if (it == mapping.rows.constEnd())
            continue;
        const int b = benchRowByName.value(*it, -1);
        if (b >= 0 && !benchUsed[b])
            pairRows(b, t, MatchRule::Mapped);
    }

    // 2. Ops by name, after the mapping.
    QList<int> targetOpPartner(target.ops.size(), -1);
    QList<MatchRule> targetOpRule(target.ops.size(), MatchRule::Exact);
    QList<bool> benchOpUsed(bench.ops.size(), false);
    QList<MappedOp> mapped;
    mapped.reserve(target.ops.size());
    for (int o = 0; o < target.ops.size(); ++o) {
        mapped << mapOp(target.ops[o], mapping, cross);
        const int b = benchOpByName.value(mapped.back().name, -1);
        // As msprobe joins on name and shape: a call with other shapes under the same name is likely another
        // call (the counters shifted), left to the alignment below.
        if (b >= 0 && !benchOpUsed[b]
            && (mapped.back().fuzzyKey.isEmpty()
                || compatible(bench, benchOpRows[b], target, targetOpRows[o], targetSuffixes))) {
            benchOpUsed[b] = true;
            targetOpPartner[o] = b;
            targetOpRule[o] = mapped.back().name == target.ops[o] ? MatchRule::Exact : MatchRule::Mapped;
        }
    }

    // 3. Ops equal but for the call counter, aligned in call order by their rows' shapes.
    QHash<QString, QList<int>> benchByKey;
    QStringList keyOrder;
    for (int o = 0; o < bench.ops.size(); ++o) {
        if (benchOpUsed[o])
            continue;
        const MappedOp self = mapOp(bench.ops[o], {}, false);
        if (!self.fuzzyKey.isEmpty())
            benchByKey[self.fuzzyKey] << o;
    }
    QHash<QString, QList<int>> targetByKey;
    for (int o = 0; o < target.ops.size(); ++o) {
        if (targetOpPartner[o] >= 0 || mapped[o].fuzzyKey.isEmpty())
            continue;
        if (!targetByKey.contains(mapped[o].fuzzyKey))
            keyOrder << mapped[o].fuzzyKey;
        targetByKey[mapped[o].fuzzyKey] << o;
    }
    for (const QString& key : keyOrder) {
        const QList<int> b = benchByKey.value(key);
        const QList<int> t = targetByKey.value(key);
        auto fits = [&](int benchOp, int targetOp) {
            return compatible(bench, benchOpRows[benchOp], target, targetOpRows[targetOp], targetSuffixes);
        };
        qsizetype i = 0, j = 0;
        while (i < t.size() && j < b.size()) {
            if (!fits(b[j], t[i])) {
                // An extra call on one side: skip it rather than shift every later pair, whichever skip is
                // shorter. A call that fits no call of the other side stays unmatched.
                qsizetype nextBench = -1, nextTarget = -1;
                for (qsizetype k = j + 1; k < b.size() && nextBench < 0; ++k)
                    if (fits(b[k], t[i]))
                        nextBench = k;
                for (qsizetype k = i + 1; k < t.size() && nextTarget < 0; ++k)
                    if (fits(b[j], t[k]))
                        nextTarget = k;
                if (nextBench >= 0 && (nextTarget < 0 || nextBench - j <= nextTarget - i)) {
                    j = nextBench;
                } else if (nextTarget >= 0) {
                    i = nextTarget;
                } else {
                    ++i;
                    continue;
                }
            }
            targetOpPartner[t[i]] = b[j];
            targetOpRule[t[i]] = mapped[t[i]].name != bench.ops[b[j]] ? MatchRule::Fuzzy
                : mapped[t[i]].name == target.ops[t[i]]               ? MatchRule::Exact
                                                                      : MatchRule::Mapped;
            benchOpUsed[b[j]] = true;
            ++i;
            ++j;
        }
    }

    // 4. Rows of paired ops by argument.
    for (int o = 0; o < target.ops.size(); ++o) {
        const int b = targetOpPartner[o];
        if (b < 0)
            continue;
        QHash<QString, int> bySuffix;
        for (int r : benchOpRows[b])
            bySuffix.insert(suffixOf(bench.rows[r]), r);
        for (int r : targetOpRows[o]) {
            if (targetUsed[r])
                continue;
            const int br = bySuffix.value(targetSuffixes[r], -1);
            if (br >= 0 && !benchUsed[br] && rowsAlike(bench.rows[br], target.rows[r]))
                pairRows(br, r, targetOpRule[o]);
        }
    }
    std::sort(result.pairs.begin(), result.pairs.end(),
              [](const MatchedPair& x, const MatchedPair& y) { return x.target < y.target; });
    for (int i = 0; i < bench.rows.size(); ++i)
        if (!benchUsed[i])
            result.unmatchedBench << i;
    for (int i = 0; i < target.rows.size(); ++i)
        if (!targetUsed[i])
            result.unmatchedTarget << i;
    return result;
}

/// The rows of one group of a side as a side of their own, and where each came from.
DumpSide groupSide(const DumpSide& side, const QList<int>& rows)
{
    DumpSide sub;
    sub.path = side.path;
    sub.kind = side.kind;
    sub.framework = side.framework;
    sub.task = side.task;
    QHash<int, int> opIndex;
    for (int r : rows) {
        SideRow row = side.rows[r];
        auto it = opIndex.constFind(row.opIndex);
        if (it == opIndex.constEnd()) {
            it = opIndex.insert(row.opIndex, int(sub.ops.size()));
            sub.ops << row.op;
        }
        row.opIndex = *it;
        sub.rows << row;
    }
    return sub;
}

} // namespace

MatchResult matchSides(const DumpSide& bench, const DumpSide& target, const NameMapping& mapping)
{
    if (bench.groups.isEmpty() && target.groups.isEmpty())
        return matchOneDump(bench, target, mapping);
    // Several dumps (ranks, steps): rows pair only within the group of the same name; a group one side lacks
    // leaves all its rows unmatched.
    auto rowsByGroup = [](const DumpSide& side) {
        QHash<QString, QList<int>> by;
        for (int i = 0; i < side.rows.size(); ++i)
            by[side.rows[i].group] << i;
        return by;
    };
    const QHash<QString, QList<int>> benchGroups = rowsByGroup(bench);
    const QHash<QString, QList<int>> targetGroups = rowsByGroup(target);
    MatchResult result;
    QList<bool> benchPaired(bench.rows.size(), false);
    QList<bool> targetPaired(target.rows.size(), false);
    for (auto it = targetGroups.begin(); it != targetGroups.end(); ++it) {
        const auto b = benchGroups.constFind(it.key());
        if (b == benchGroups.constEnd())
            continue;
        const MatchResult sub = matchOneDump(groupSide(bench, *b), groupSide(target, *it), mapping);
        for (const MatchedPair& p : sub.pairs) {
            result.pairs.append({ (*b)[p.bench], (*it)[p.target], p.rule });
            benchPaired[(*b)[p.bench]] = true;
            targetPaired[(*it)[p.target]] = true;
        }
    }
    std::sort(result.pairs.begin(), result.pairs.end(),
              [](const MatchedPair& x, const MatchedPair& y) { return x.target < y.target; });
    for (int i = 0; i < bench.rows.size(); ++i)
        if (!benchPaired[i])
            result.unmatchedBench << i;
    for (int i = 0; i < target.rows.size(); ++i)
        if (!targetPaired[i])
            result.unmatchedTarget << i;
    return result;
}

} // namespace runlens::models::accuracy
