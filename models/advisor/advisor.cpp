#include "models/advisor/advisor.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace runlens::models::advisor {

namespace {

/// `value` with `digits` significant digits and no exponent for ordinary magnitudes; trailing zeros go.
QString significant(double value, int digits)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    if (value == 0.0)
        return QStringLiteral("0");
    const double magnitude = std::fabs(value);
    if (magnitude < 1e-4 || magnitude >= 1e15)
        return QString::number(value, 'g', digits);
    const int exponent = int(std::floor(std::log10(magnitude)));
    const int decimals = std::max(0, digits - 1 - exponent);
    QString text = QString::number(value, 'f', decimals);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text == QLatin1String("-0") ? QStringLiteral("0") : text;
}

QString wholeNumber(double value)
{
    if (!std::isfinite(value) || std::fabs(value) >= 9e15)
        return significant(value, 4);
    return QString::number(qint64(std::llround(value)));
}

/// A fact or a plain value: integers as they are, other numbers with up to 4 significant digits.
QString plainNumber(double value)
{
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
        return wholeNumber(value);
    return significant(value, 4);
}

QString factText(const QVariant& fact)
{
    switch (fact.typeId()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::Long:
    case QMetaType::ULong:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Short:
    case QMetaType::UShort:
        return fact.toString();
    case QMetaType::Double:
    case QMetaType::Float:
        return plainNumber(fact.toDouble());
    case QMetaType::QStringList:
        return fact.toStringList().join(QStringLiteral(", "));
    default:
        return fact.toString();
    }
}

QString translatedRuleText(const QString& text)
{
    if (text.isEmpty())
        return text;
    const QByteArray source = text.toUtf8();
    return QCoreApplication::translate("runlens::advisor::Rules", source.constData());
}

/// Fills `{name}` placeholders: value and threshold by the rule's unit, then the measurement's facts, then
/// its scope ({at_step} is " at step N" or empty). Unknown placeholders stay as they are, so a typo shows
/// instead of vanishing.
QString fillTemplate(const QString& text, const Rule& rule, const Measurement& measurement)
{
    static const QRegularExpression placeholder(QStringLiteral("\\{([A-Za-z_][A-Za-z0-9_]*)\\}"));
    const Scope& scope = measurement.scope;
    auto lookup = [&](const QString& name) -> std::optional<QString> {
        if (name == QLatin1String("value"))
            return formatValue(measurement.value, rule.unit);
        if (name == QLatin1String("threshold"))
            return formatValue(rule.threshold, rule.unit);
        const auto fact = measurement.facts.constFind(name);
        if (fact != measurement.facts.cend())
            return factText(*fact);
        auto field = [](const QString& value) { return value.isEmpty() ? std::nullopt : std::optional(value); };
        if (name == QLatin1String("run"))
            return field(scope.shownRun());
        if (name == QLatin1String("rank"))
            return scope.rank ? std::optional(QString::number(*scope.rank)) : std::nullopt;
        if (name == QLatin1String("step"))
            return scope.step ? std::optional(QString::number(*scope.step)) : std::nullopt;
        // " at step 120", or nothing for a tensor without a step (a checkpoint member).
        if (name == QLatin1String("at_step"))
            return scope.step ? QCoreApplication::translate("runlens::advisor", " at step %1").arg(*scope.step)
                              : QString();
        if (name == QLatin1String("layer"))
            return field(scope.layer);
        if (name == QLatin1String("node"))
            return field(scope.node);
        if (name == QLatin1String("tensor"))
            return field(scope.tensor);
        if (name == QLatin1String("op"))
            return field(scope.op);
        if (name == QLatin1String("device"))
            return field(scope.device);
        if (name == QLatin1String("link"))
            return field(scope.link);
        if (name == QLatin1String("comparison"))
            return field(scope.comparison);
        return std::nullopt;
    };
    QString out;
    qsizetype last = 0;
    auto it = placeholder.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        out += QStringView(text).mid(last, match.capturedStart() - last);
        const std::optional<QString> value = lookup(match.captured(1));
        out += value ? *value : match.captured(0);
        last = match.capturedEnd();
    }
    out += QStringView(text).mid(last);
    return out;
}

/// How far past the threshold a value is, larger is worse whatever the comparator's direction.
double badness(Comparator comparator, double value)
{
    return comparator == Comparator::Greater || comparator == Comparator::GreaterEqual ? value : -value;
}

QString groupKey(ScopeKind kind, const Scope& scope)
{
    const QString rank = scope.rank ? QString::number(*scope.rank) : QString();
    // A comparison's findings never share a group with the run's.
    const QString run = scope.comparison.isEmpty() ? scope.run : scope.comparison + QLatin1Char('\t');
    auto key = [&](const QString& field) { return run + QLatin1Char('\n') + rank + QLatin1Char('\n') + field; };
    switch (kind) {
    case ScopeKind::Run:
        return run;
    case ScopeKind::Step:
    case ScopeKind::Rank:
        return key({});
    case ScopeKind::Layer:
        return key(scope.layer.isEmpty() ? scope.node : scope.layer);
    case ScopeKind::Tensor:
        return key(scope.tensor.isEmpty() ? scope.node : scope.tensor);
    case ScopeKind::Op:
        return key(scope.op);
    case ScopeKind::Device:
        return key(scope.device);
    case ScopeKind::Link:
        return run + QLatin1Char('\n') + scope.link;
    }
    return run;
}

int severityRank(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return 0;
    case Severity::Warning:
        return 1;
    case Severity::Info:
        return 2;
    }
    return 3;
}

Finding makeFinding(const Rule& rule, const Measurement& measurement, int occurrences)
{
    Finding finding;
    finding.ruleId = rule.id;
    finding.severity = rule.severity;
    finding.category = rule.category;
    finding.scope = measurement.scope;
    Q_ASSERT(!finding.scope.step || *finding.scope.step >= 0); // AnalysisContext::add() drops negative steps
    finding.value = measurement.value;
    finding.threshold = rule.threshold;
    finding.comparator = rule.comparator;
    finding.unit = rule.unit;
    finding.title = translatedRuleText(rule.title);
    finding.message = fillTemplate(translatedRuleText(rule.message), rule, measurement);
    finding.advice = fillTemplate(translatedRuleText(rule.advice), rule, measurement);
    finding.evidence = measurement.evidence;
    finding.occurrences = occurrences;
    return finding;
}

/// The findings of one evaluated rule over the measurements of its metric.
QList<Finding> ruleFindings(const Rule& rule, const std::vector<const Measurement*>& measurements, int* matches)
{
    std::vector<const Measurement*> matched;
    for (const Measurement* measurement : measurements) {
        if (holds(rule.comparator, measurement->value, rule.threshold))
            matched.push_back(measurement);
    }
    *matches = int(matched.size());
    if (matched.empty())
        return {};

    auto worse = [&rule](const Measurement* a, const Measurement* b) {
        const double ba = badness(rule.comparator, a->value);
        const double bb = badness(rule.comparator, b->value);
        if (ba != bb)
            return ba > bb;
        return a->order < b->order;
    };
    auto earlier = [&worse](const Measurement* a, const Measurement* b) {
        if (a->order != b->order)
            return a->order < b->order;
        return worse(a, b);
    };

    // Each keeps every match; Worst and First keep one representative per scope group.
    std::vector<std::pair<const Measurement*, int>> kept;
    if (rule.report == ReportMode::Each) {
        for (const Measurement* measurement : matched)
            kept.emplace_back(measurement, 1);
    } else {
        QHash<QString, int> groups;
        for (const Measurement* measurement : matched) {
            const QString key = groupKey(rule.scope, measurement->scope);
            const auto found = groups.constFind(key);
            if (found == groups.cend()) {
                groups.insert(key, int(kept.size()));
                kept.emplace_back(measurement, 1);
                continue;
            }
            auto& [best, count] = kept[std::size_t(*found)];
            ++count;
            const bool better
                = rule.report == ReportMode::First ? earlier(measurement, best) : worse(measurement, best);
            if (better)
                best = measurement;
        }
    }
    const auto order = [&](const auto& a, const auto& b) {
        return rule.report == ReportMode::First ? earlier(a.first, b.first) : worse(a.first, b.first);
    };
    std::stable_sort(kept.begin(), kept.end(), order);
    if (int(kept.size()) > rule.limit)
        kept.resize(std::size_t(std::max(rule.limit, 0)));

    QList<Finding> findings;
    findings.reserve(qsizetype(kept.size()));
    for (const auto& [measurement, count] : kept)
        findings.append(makeFinding(rule, *measurement, count));
    return findings;
}

} // namespace

QString formatValue(double value, Unit unit)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    switch (unit) {
    case Unit::Value:
        return plainNumber(value);
    case Unit::Count:
        return wholeNumber(value);
    case Unit::Ratio:
        return significant(value, 3);
    case Unit::Percent: {
        // A share short of all is never shown as 100 %: beside the 99.9 % thresholds that would read as every
        // value when one in a thousand is not.
        QString text = significant(value, 3);
        for (int digits = 4; digits <= 9 && value < 100.0 && text == QLatin1String("100"); ++digits)
            text = significant(value, digits);
        return text + QStringLiteral(" %");
    }
    case Unit::Milliseconds:
        return significant(value, 3) + QStringLiteral(" ms");
    case Unit::Nanoseconds: {
        const double magnitude = std::fabs(value);
        if (!std::isfinite(value) || magnitude < 1e3)
            return significant(value, 3) + QStringLiteral(" ns");
        if (magnitude < 1e6)
            return significant(value / 1e3, 3) + QStringLiteral(" µs");
        if (magnitude < 1e9)
            return significant(value / 1e6, 3) + QStringLiteral(" ms");
        return significant(value / 1e9, 3) + QStringLiteral(" s");
    }
    case Unit::Bytes: {
        static const char* const kUnits[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
        if (!std::isfinite(value))
            return significant(value, 3) + QStringLiteral(" B");
        double scaled = value;
        int index = 0;
        while (std::fabs(scaled) >= 1024.0 && index < 5) {
            scaled /= 1024.0;
            ++index;
        }
        return (index == 0 ? wholeNumber(scaled) : significant(scaled, 3)) + QLatin1Char(' ')
            + QLatin1String(kUnits[index]);
    }
    }
    return plainNumber(value);
}

int AdvisorReport::count(Severity severity) const
{
    return int(std::count_if(findings.cbegin(), findings.cend(),
                             [severity](const Finding& finding) { return finding.severity == severity; }));
}

std::optional<Severity> AdvisorReport::worst() const
{
    std::optional<Severity> worst;
    for (const Finding& finding : findings) {
        if (!worst || severityRank(finding.severity) < severityRank(*worst))
            worst = finding.severity;
    }
    return worst;
}

AdvisorReport applyRules(const AnalysisContext& context, const RuleBook& rules)
{
    QHash<QString, std::vector<const Measurement*>> byMetric;
    for (const Measurement& measurement : context.measurements())
        byMetric[measurement.metric].push_back(&measurement);

    AdvisorReport report;
    struct Ranked
    {
        Finding finding;
        int rule;
    };
    std::vector<Ranked> ranked;
    int index = 0;
    for (const Rule& rule : rules.rules()) {
        RuleStatus status;
        status.ruleId = rule.id;
        if (!rule.enabled) {
            status.reason = QCoreApplication::translate("runlens::advisor", "disabled");
        } else if (!context.isEvaluated(rule.metric)) {
            status.reason = context.missingReason(rule.metric);
            if (status.reason.isEmpty())
                status.reason
                    = QCoreApplication::translate("runlens::advisor", "no analyser measures %1").arg(rule.metric);
        } else {
            status.evaluated = true;
            const QList<Finding> findings = ruleFindings(rule, byMetric.value(rule.metric), &status.matches);
            status.findings = int(findings.size());
            for (const Finding& finding : findings)
                ranked.push_back({ finding, index });
        }
        report.statuses.append(status);
        report.rules.append(rule);
        ++index;
    }
    // Errors first, then by category, then in the order of the rule book; a rule's own findings keep the
    // order its report mode gave them.
    std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
        if (a.finding.severity != b.finding.severity)
            return severityRank(a.finding.severity) < severityRank(b.finding.severity);
        if (a.finding.category != b.finding.category)
            return int(a.finding.category) < int(b.finding.category);
        return a.rule < b.rule;
    });
    report.findings.reserve(qsizetype(ranked.size()));
    for (Ranked& entry : ranked)
        report.findings.append(std::move(entry.finding));
    return report;
}

AdvisorReport evaluate(const AdvisorInput& input, const RuleBook& rules, const std::atomic_bool* canceled)
{
    AnalysisContext context(rules, canceled);
    context.setRoot(input.root);
    using Analyser = void (*)(const AdvisorInput&, AnalysisContext&);
    for (Analyser analyser : { analyseScalars, analyseWeights, analyseTraces, analyseMemory, analyseProfiler,
                               analyseCluster, analyseSystem, analyseComparison }) {
        if (context.isCanceled())
            break;
        analyser(input, context);
    }
    AdvisorReport report = applyRules(context, rules);
    report.root = input.root;
    return report;
}

} // namespace runlens::models::advisor
