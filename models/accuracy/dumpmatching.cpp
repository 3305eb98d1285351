#include "models/accuracy/dumpmatching.h"

#include "models/tensor/dtype.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace runlens::accuracy {

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
                const QList<int>& targetRows)
{
    if (benchRows.isEmpty() && targetRows.isEmpty())
        return true;
    QHash<QString, const SideRow*> bySuffix;
    for (int r : benchRows)
        bySuffix.insert(suffixOf(bench.rows[r]), &bench.rows[r]);
    int common = 0;
    for (int r : targetRows) {
        const SideRow& t = target.rows[r];
        const SideRow* b = bySuffix.value(suffixOf(t));
        if (!b)
            continue;
        ++common;
        if (b->hasShape && t.hasShape && b->shape != t.shape)
            return false;
    }
    return common > 0;
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
    return rows.isEmpty() && apis.isEmpty() && modules.isEmpty() && classes.isEmpty();
}

void NameMapping::merge(const NameMapping& other)
{
    rows.insert(other.rows);
    apis.insert(other.apis);
    classes.insert(other.classes);
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

MatchResult matchSides(const DumpSide& bench, const DumpSide& target, const NameMapping& mapping)
{
    const bool cross = (bench.framework == DumpFramework::PyTorch && target.framework == DumpFramework::MindSpore);
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
            && (mapped.back().fuzzyKey.isEmpty() || compatible(bench, benchOpRows[b], target, targetOpRows[o]))) {
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
            return compatible(bench, benchOpRows[benchOp], target, targetOpRows[targetOp]);
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
            const int br = bySuffix.value(suffixOf(target.rows[r]), -1);
            if (br >= 0 && !benchUsed[br])
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

} // namespace runlens::accuracy
