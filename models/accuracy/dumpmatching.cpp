#include "models/accuracy/dumpmatching.h"

#include <algorithm>

namespace runlens::models::accuracy {

namespace {

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

} // namespace

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
