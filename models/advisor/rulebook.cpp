#include "models/advisor/rule.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>

#include <cmath>
#include <limits>
#include <optional>

namespace runlens::models::advisor {

namespace {

// A rule file is a few kilobytes; anything far larger is not one.
constexpr qint64 kMaxRuleFileBytes = qint64(16) << 20;
constexpr int kMaxLimit = 100000;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

const QStringList& definitionKeys()
{
    static const QStringList keys { QStringLiteral("id"),     QStringLiteral("category"),  QStringLiteral("severity"),
                                    QStringLiteral("title"),  QStringLiteral("message"),   QStringLiteral("advice"),
                                    QStringLiteral("metric"), QStringLiteral("condition"), QStringLiteral("threshold"),
                                    QStringLiteral("unit"),   QStringLiteral("scope"),     QStringLiteral("evidence"),
                                    QStringLiteral("report"), QStringLiteral("limit"),     QStringLiteral("params"),
                                    QStringLiteral("enabled") };
    return keys;
}

const QStringList& overrideKeys()
{
    static const QStringList keys { QStringLiteral("id"), QStringLiteral("threshold"), QStringLiteral("enabled"),
                                    QStringLiteral("severity"), QStringLiteral("params") };
    return keys;
}

const QStringList& evidenceKinds()
{
    static const QStringList kinds { QStringLiteral("scalar"),   QStringLiteral("histogram"), QStringLiteral("tensor"),
                                     QStringLiteral("graph"),    QStringLiteral("trace"),     QStringLiteral("memory"),
                                     QStringLiteral("profiler"), QStringLiteral("cluster"),   QStringLiteral("compare"),
                                     QStringLiteral("system") };
    return kinds;
}

/// Collects the problems of one entry, each prefixed with the file and the rule id.
class EntryProblems
{
public:
    EntryProblems(const QString& origin, const QString& id, QStringList* problems)
        : m_origin(origin)
        , m_id(id)
        , m_problems(problems)
    { }

    void add(const QString& text)
    {
        ++m_count;
        if (m_problems)
            m_problems->append(QCoreApplication::translate("runlens::models::advisor::RuleBook", "%1: rule %2: %3")
                                   .arg(m_origin, m_id, text));
    }
    int count() const { return m_count; }

private:
    QString m_origin;
    QString m_id;
    QStringList* m_problems;
    int m_count = 0;
};

QString numberText(double value)
{
    return QString::number(value, 'g', 10);
}

QString rangeText(const Rule& rule)
{
    return QCoreApplication::translate("runlens::models::advisor::RuleBook", "%1 to %2")
        .arg(std::isfinite(rule.minimum) ? numberText(rule.minimum) : QStringLiteral("-inf"),
             std::isfinite(rule.maximum) ? numberText(rule.maximum) : QStringLiteral("inf"));
}

bool inRange(const Rule& rule, double value)
{
    return std::isfinite(value) && value >= rule.minimum && value <= rule.maximum;
}

/// Reads a `params` object into `into`; non-numbers are reported and left out.
void readParams(const QJsonValue& value, QVariantMap& into, EntryProblems& problems)
{
    if (!value.isObject()) {
        problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                 "\"params\" must be an object of names and numbers; ignored"));
        return;
    }
    const QJsonObject params = value.toObject();
    for (auto it = params.begin(); it != params.end(); ++it) {
        if (!it.value().isDouble()) {
            problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                     "parameter '%1' must be a number; ignored")
                             .arg(it.key()));
            continue;
        }
        into.insert(it.key(), it.value().toDouble());
    }
}

template<typename Enum>
std::optional<Enum> readEnum(const QJsonObject& entry, const QString& key, std::optional<Enum> (*parse)(const QString&),
                             const char* known, EntryProblems& problems)
{
    const QString text = entry.value(key).toString();
    const std::optional<Enum> value = parse(text);
    if (!value)
        problems.add(
            QCoreApplication::translate("runlens::models::advisor::RuleBook", "unknown %1 '%2' (one of %3)")
                .arg(key, text.isEmpty() ? entry.value(key).toVariant().toString() : text, QString::fromLatin1(known)));
    return value;
}

/// A complete rule definition, or nullopt (with problems) when the entry cannot be one.
std::optional<Rule> parseRule(const QJsonObject& entry, const QString& origin, QStringList* problemList)
{
    Rule rule;
    rule.id = entry.value(QStringLiteral("id")).toString();
    rule.source = origin;
    EntryProblems problems(origin, rule.id, problemList);

    QStringList missing;
    const QJsonObject condition = entry.value(QStringLiteral("condition")).toObject();
    for (const char* key : { "category", "severity", "title", "message", "metric" }) {
        if (entry.value(QLatin1String(key)).toString().isEmpty())
            missing << QString::fromLatin1(key);
    }
    if (!entry.value(QStringLiteral("condition")).isObject())
        missing << QStringLiteral("condition");
    else {
        if (!condition.contains(QStringLiteral("comparator")))
            missing << QStringLiteral("condition.comparator");
        if (!condition.value(QStringLiteral("recommended")).isDouble())
            missing << QStringLiteral("condition.recommended");
    }
    if (!missing.isEmpty()) {
        problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                 "no rule with this id exists, and a new rule needs %1; skipped")
                         .arg(missing.join(QStringLiteral(", "))));
        return std::nullopt;
    }

    const int before = problems.count();
    const auto category = readEnum<Category>(entry, QStringLiteral("category"), categoryFromString,
                                             "accuracy, performance, memory, distributed, data", problems);
    const auto severity
        = readEnum<Severity>(entry, QStringLiteral("severity"), severityFromString, "info, warning, error", problems);
    const auto comparator
        = readEnum<Comparator>(condition, QStringLiteral("comparator"), comparatorFromString, ">, >=, <, <=", problems);
    QJsonObject defaults = entry;
    for (const auto& [key, fallback] :
         { std::pair { "unit", "value" }, std::pair { "scope", "run" }, std::pair { "report", "each" } }) {
        if (!defaults.contains(QLatin1String(key)))
            defaults.insert(QLatin1String(key), QLatin1String(fallback));
    }
    const auto unit = readEnum<Unit>(defaults, QStringLiteral("unit"), unitFromString,
                                     "value, count, ratio, percent, ms, ns, bytes", problems);
    const auto scope = readEnum<ScopeKind>(defaults, QStringLiteral("scope"), scopeKindFromString,
                                           "run, step, rank, layer, tensor, op, link, device", problems);
    const auto report = readEnum<ReportMode>(defaults, QStringLiteral("report"), reportModeFromString,
                                             "each, worst, first", problems);

    rule.evidence = entry.value(QStringLiteral("evidence")).toString();
    if (!rule.evidence.isEmpty() && !evidenceKinds().contains(rule.evidence))
        problems.add(
            QCoreApplication::translate("runlens::models::advisor::RuleBook", "unknown evidence '%1' (one of %2)")
                .arg(rule.evidence, evidenceKinds().join(QStringLiteral(", "))));

    rule.minimum = -kInfinity;
    rule.maximum = kInfinity;
    if (condition.contains(QStringLiteral("range"))) {
        const QJsonArray range = condition.value(QStringLiteral("range")).toArray();
        if (range.size() != 2 || !range[0].isDouble() || !range[1].isDouble()
            || range[0].toDouble() > range[1].toDouble()) {
            problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                     "\"range\" must be [minimum, maximum] with minimum <= maximum"));
        } else {
            rule.minimum = range[0].toDouble();
            rule.maximum = range[1].toDouble();
        }
    }
    rule.recommended = condition.value(QStringLiteral("recommended")).toDouble();
    if (problems.count() == before && !inRange(rule, rule.recommended))
        problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                 "the recommended threshold %1 is outside the range %2")
                         .arg(numberText(rule.recommended), rangeText(rule)));
    rule.threshold = rule.recommended;

    const QJsonValue limit = entry.value(QStringLiteral("limit"));
    if (!limit.isUndefined()) {
        if (!limit.isDouble() || limit.toDouble() < 1 || limit.toDouble() > kMaxLimit
            || limit.toDouble() != std::floor(limit.toDouble()))
            problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                     "\"limit\" must be a whole number from 1 to %1")
                             .arg(kMaxLimit));
        else
            rule.limit = limit.toInt();
    }
    if (problems.count() != before) {
        problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook", "the rule is skipped"));
        return std::nullopt;
    }

    rule.category = *category;
    rule.severity = *severity;
    rule.comparator = *comparator;
    rule.unit = *unit;
    rule.scope = *scope;
    rule.report = *report;
    rule.title = entry.value(QStringLiteral("title")).toString();
    rule.message = entry.value(QStringLiteral("message")).toString();
    rule.advice = entry.value(QStringLiteral("advice")).toString();
    rule.metric = entry.value(QStringLiteral("metric")).toString();

    // Optional fields that a new rule in a user file may carry: a problem there leaves the default.
    if (entry.contains(QStringLiteral("params")))
        readParams(entry.value(QStringLiteral("params")), rule.params, problems);
    if (entry.contains(QStringLiteral("enabled"))) {
        if (entry.value(QStringLiteral("enabled")).isBool())
            rule.enabled = entry.value(QStringLiteral("enabled")).toBool();
        else
            problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                     "\"enabled\" must be true or false; ignored"));
    }
    for (const QJsonValue& threshold :
         { condition.value(QStringLiteral("threshold")), entry.value(QStringLiteral("threshold")) }) {
        if (threshold.isUndefined())
            continue;
        if (threshold.isDouble() && inRange(rule, threshold.toDouble()))
            rule.threshold = threshold.toDouble();
        else
            problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                     "threshold %1 is outside the range %2; %3 is used")
                             .arg(threshold.toVariant().toString(), rangeText(rule), numberText(rule.threshold)));
    }
    for (auto it = entry.begin(); it != entry.end(); ++it) {
        if (!definitionKeys().contains(it.key()))
            problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook", "unknown field '%1' ignored")
                             .arg(it.key()));
    }
    return rule;
}

/// Layers an override entry over an existing rule: threshold, enabled, severity and params.
void applyOverride(Rule& rule, const QJsonObject& entry, const QString& origin, QStringList* problemList)
{
    EntryProblems problems(origin, rule.id, problemList);
    bool changed = false;
    QStringList ignored;
    for (auto it = entry.begin(); it != entry.end(); ++it) {
        if (!overrideKeys().contains(it.key()))
            ignored << it.key();
    }
    if (!ignored.isEmpty())
        problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                 "the rule exists already (%1); a rule file may change only its "
                                                 "threshold, enabled, severity and params, so %2 is ignored")
                         .arg(rule.source, ignored.join(QStringLiteral(", "))));

    const QJsonValue threshold = entry.value(QStringLiteral("threshold"));
    if (!threshold.isUndefined()) {
        if (!threshold.isDouble())
            problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                     "threshold must be a number; %1 is kept")
                             .arg(numberText(rule.threshold)));
        else if (!inRange(rule, threshold.toDouble()))
            problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                     "threshold %1 is outside the range %2; %3 is kept")
                             .arg(numberText(threshold.toDouble()), rangeText(rule), numberText(rule.threshold)));
        else {
            rule.threshold = threshold.toDouble();
            changed = true;
        }
    }
    const QJsonValue enabled = entry.value(QStringLiteral("enabled"));
    if (!enabled.isUndefined()) {
        if (enabled.isBool()) {
            rule.enabled = enabled.toBool();
            changed = true;
        } else {
            problems.add(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                     "\"enabled\" must be true or false; ignored"));
        }
    }
    if (entry.contains(QStringLiteral("severity"))) {
        if (const auto severity = readEnum<Severity>(entry, QStringLiteral("severity"), severityFromString,
                                                     "info, warning, error", problems)) {
            rule.severity = *severity;
            changed = true;
        }
    }
    if (entry.contains(QStringLiteral("params"))) {
        const QVariantMap before = rule.params;
        readParams(entry.value(QStringLiteral("params")), rule.params, problems);
        changed = changed || rule.params != before;
    }
    if (changed)
        rule.source = origin;
}

QJsonObject definitionJson(const Rule& rule)
{
    QJsonObject condition { { QStringLiteral("comparator"), toString(rule.comparator) },
                            { QStringLiteral("recommended"), rule.recommended } };
    if (std::isfinite(rule.minimum) && std::isfinite(rule.maximum))
        condition.insert(QStringLiteral("range"), QJsonArray { rule.minimum, rule.maximum });
    QJsonObject object { { QStringLiteral("id"), rule.id },
                         { QStringLiteral("category"), toString(rule.category) },
                         { QStringLiteral("severity"), toString(rule.severity) },
                         { QStringLiteral("title"), rule.title },
                         { QStringLiteral("message"), rule.message },
                         { QStringLiteral("advice"), rule.advice },
                         { QStringLiteral("metric"), rule.metric },
                         { QStringLiteral("condition"), condition },
                         { QStringLiteral("unit"), toString(rule.unit) },
                         { QStringLiteral("scope"), toString(rule.scope) },
                         { QStringLiteral("report"), toString(rule.report) },
                         { QStringLiteral("limit"), rule.limit } };
    if (!rule.evidence.isEmpty())
        object.insert(QStringLiteral("evidence"), rule.evidence);
    if (rule.threshold != rule.recommended)
        object.insert(QStringLiteral("threshold"), rule.threshold);
    if (!rule.enabled)
        object.insert(QStringLiteral("enabled"), false);
    if (!rule.params.isEmpty())
        object.insert(QStringLiteral("params"), QJsonObject::fromVariantMap(rule.params));
    return object;
}

} // namespace

double Rule::parameter(const QString& name, double fallback) const
{
    const QVariant value = params.value(name);
    bool ok = false;
    const double number = value.toDouble(&ok);
    return ok ? number : fallback;
}

RuleBook RuleBook::builtIn(QStringList* problems)
{
    RuleBook book;
    const QDir dir(QStringLiteral(":/rules"));
    for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
        const QString path = dir.filePath(name);
        RuleBook part;
        part.load(path, problems);
        for (const Rule& rule : std::as_const(part.m_rules)) {
            if (const Rule* earlier = book.rule(rule.id)) {
                if (problems)
                    problems->append(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                                 "%1: rule %2 is defined in %3 already; skipped")
                                         .arg(path, rule.id, earlier->source));
                continue;
            }
            book.m_rules.append(rule);
        }
    }
    return book;
}

QString RuleBook::userRulesFolder()
{
    // The folder chosen in Preferences, else <configuration>/rules.
    const QString chosen = QSettings().value(QStringLiteral("preferences/rulesFolder")).toString();
    if (!chosen.isEmpty())
        return chosen;
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/rules");
}

QStringList RuleBook::userRuleFiles()
{
    const QDir dir(userRulesFolder());
    QStringList files;
    for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files | QDir::Readable, QDir::Name))
        files << dir.filePath(name);
    return files;
}

RuleBook RuleBook::effective(const QStringList& extraFiles, QStringList* problems)
{
    RuleBook book = builtIn(problems);
    for (const QString& file : userRuleFiles() + extraFiles)
        book.load(file, problems);
    return book;
}

bool RuleBook::load(const QString& path, QStringList* problems)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (problems)
            problems->append(
                QCoreApplication::translate("runlens::models::advisor::RuleBook", "%1: cannot read the rule file: %2")
                    .arg(path, file.errorString()));
        return false;
    }
    if (file.size() > kMaxRuleFileBytes) {
        if (problems)
            problems->append(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                         "%1: %2 bytes is too large for a rule file")
                                 .arg(path)
                                 .arg(file.size()));
        return false;
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError) {
        if (problems)
            problems->append(
                QCoreApplication::translate("runlens::models::advisor::RuleBook", "%1: not valid JSON at offset %2: %3")
                    .arg(path)
                    .arg(error.offset)
                    .arg(error.errorString()));
        return false;
    }
    if (!document.isObject() || !document.object().value(QStringLiteral("rules")).isArray()) {
        if (problems)
            problems->append(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                         "%1: not a rule file (an object with a \"rules\" array is "
                                                         "expected)")
                                 .arg(path));
        return false;
    }
    apply(document.object(), path, problems);
    return true;
}

void RuleBook::apply(const QJsonObject& document, const QString& origin, QStringList* problems)
{
    const QJsonValue list = document.value(QStringLiteral("rules"));
    if (!list.isArray()) {
        if (problems)
            problems->append(QCoreApplication::translate("runlens::models::advisor::RuleBook", "%1: no \"rules\" array")
                                 .arg(origin));
        return;
    }
    QSet<QString> seen;
    int position = 0;
    for (const QJsonValue& value : list.toArray()) {
        ++position;
        const QJsonObject entry = value.toObject();
        const QString id = entry.value(QStringLiteral("id")).toString();
        if (!value.isObject() || id.isEmpty()) {
            if (problems)
                problems->append(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                             "%1: entry %2 is not a rule (an object with an \"id\")")
                                     .arg(origin)
                                     .arg(position));
            continue;
        }
        if (seen.contains(id)) {
            if (problems)
                problems->append(QCoreApplication::translate("runlens::models::advisor::RuleBook",
                                                             "%1: rule %2 appears more than once; entry %3 is ignored")
                                     .arg(origin, id)
                                     .arg(position));
            continue;
        }
        seen.insert(id);
        if (Rule* existing = rule(id))
            applyOverride(*existing, entry, origin, problems);
        else if (std::optional<Rule> created = parseRule(entry, origin, problems))
            m_rules.append(std::move(*created));
    }
}

const Rule* RuleBook::rule(const QString& id) const
{
    for (const Rule& candidate : m_rules) {
        if (candidate.id == id)
            return &candidate;
    }
    return nullptr;
}

Rule* RuleBook::rule(const QString& id)
{
    for (Rule& candidate : m_rules) {
        if (candidate.id == id)
            return &candidate;
    }
    return nullptr;
}

bool RuleBook::setThreshold(const QString& id, double threshold)
{
    Rule* target = rule(id);
    if (!target || !inRange(*target, threshold))
        return false;
    target->threshold = threshold;
    return true;
}

bool RuleBook::setEnabled(const QString& id, bool enabled)
{
    Rule* target = rule(id);
    if (!target)
        return false;
    target->enabled = enabled;
    return true;
}

void RuleBook::resetToRecommended(const QString& id)
{
    if (Rule* target = rule(id))
        target->threshold = target->recommended;
}

QJsonObject RuleBook::overrides(const RuleBook& base) const
{
    QJsonArray entries;
    for (const Rule& rule : m_rules) {
        const Rule* original = base.rule(rule.id);
        if (!original) {
            entries.append(definitionJson(rule));
            continue;
        }
        QJsonObject entry;
        if (rule.threshold != original->threshold)
            entry.insert(QStringLiteral("threshold"), rule.threshold);
        if (rule.enabled != original->enabled)
            entry.insert(QStringLiteral("enabled"), rule.enabled);
        if (rule.severity != original->severity)
            entry.insert(QStringLiteral("severity"), toString(rule.severity));
        QJsonObject params;
        for (auto it = rule.params.cbegin(); it != rule.params.cend(); ++it) {
            if (!original->params.contains(it.key())
                || original->params.value(it.key()).toDouble() != it.value().toDouble())
                params.insert(it.key(), it.value().toDouble());
        }
        if (!params.isEmpty())
            entry.insert(QStringLiteral("params"), params);
        if (entry.isEmpty())
            continue;
        entry.insert(QStringLiteral("id"), rule.id);
        entries.append(entry);
    }
    return QJsonObject { { QStringLiteral("rules"), entries } };
}

} // namespace runlens::models::advisor
