#include "models/advisor/advisor.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QMap>

#include <cmath>

// The exports of an AdvisorReport: JSON (the stable contract of ARCHITECTURE.md §5), Markdown, HTML and
// terminal text.

namespace runlens::models::advisor {

namespace {

QJsonValue number(double value)
{
    // JSON has no NaN or infinity; the message says which it was.
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QJsonValue text(const QString& value)
{
    return value.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
}

QJsonObject scopeJson(const Scope& scope)
{
    QJsonObject json {
        { QStringLiteral("run"), text(scope.run) },
        { QStringLiteral("run_display_name"), text(scope.shownRun()) },
        { QStringLiteral("rank"), scope.rank ? QJsonValue(*scope.rank) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("step"), scope.step ? QJsonValue(*scope.step) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("layer"), text(scope.layer) },
        { QStringLiteral("node"), text(scope.node) },
        { QStringLiteral("tensor"), text(scope.tensor) },
        { QStringLiteral("op"), text(scope.op) },
        { QStringLiteral("device"), text(scope.device) },
        { QStringLiteral("link"), text(scope.link) },
    };
    // Only a comparison's findings (`runlens compare`) carry the key: `advise` keeps its documented set.
    if (!scope.comparison.isEmpty())
        json.insert(QStringLiteral("comparison"), scope.comparison);
    return json;
}

/// "run baseline, rank 3, step 120, layer fc3": the parts of a scope that are set.
QString scopeText(const Scope& scope)
{
    QStringList parts;
    auto add = [&parts](const char* label, const QString& value) {
        if (!value.isEmpty())
            parts << QCoreApplication::translate("runlens::advisor", label).arg(value);
    };
    add(QT_TRANSLATE_NOOP("runlens::advisor", "run %1"), scope.shownRun());
    add(QT_TRANSLATE_NOOP("runlens::advisor", "rank %1"), scope.rank ? QString::number(*scope.rank) : QString());
    add(QT_TRANSLATE_NOOP("runlens::advisor", "step %1"), scope.step ? QString::number(*scope.step) : QString());
    add(QT_TRANSLATE_NOOP("runlens::advisor", "layer %1"), scope.layer);
    add(QT_TRANSLATE_NOOP("runlens::advisor", "node %1"), scope.node);
    add(QT_TRANSLATE_NOOP("runlens::advisor", "tensor %1"), scope.tensor);
    add(QT_TRANSLATE_NOOP("runlens::advisor", "op %1"), scope.op);
    add(QT_TRANSLATE_NOOP("runlens::advisor", "device %1"), scope.device);
    add(QT_TRANSLATE_NOOP("runlens::advisor", "link %1"), scope.link);
    add(QT_TRANSLATE_NOOP("runlens::advisor", "comparison %1"), scope.comparison);
    return parts.join(QStringLiteral(", "));
}

/// "37.5 % (threshold > 5 %)".
QString comparisonText(const Finding& finding)
{
    return QCoreApplication::translate("runlens::advisor", "%1 (threshold %2 %3)")
        .arg(formatValue(finding.value, finding.unit), toString(finding.comparator),
             formatValue(finding.threshold, finding.unit));
}

QString summaryText(const AdvisorReport& report)
{
    int evaluated = 0;
    for (const RuleStatus& status : report.statuses)
        evaluated += status.evaluated ? 1 : 0;
    return QCoreApplication::translate("runlens::advisor",
                                       "%1 error(s), %2 warning(s), %3 info(s); %4 of %5 rules evaluated")
        .arg(report.count(Severity::Error))
        .arg(report.count(Severity::Warning))
        .arg(report.count(Severity::Info))
        .arg(evaluated)
        .arg(report.statuses.size());
}

/// Reasons of the rules that were not evaluated, each with the ids it applies to, in rule order.
QList<std::pair<QString, QStringList>> notEvaluated(const AdvisorReport& report)
{
    QList<std::pair<QString, QStringList>> reasons;
    for (const RuleStatus& status : report.statuses) {
        if (status.evaluated)
            continue;
        auto it = std::find_if(reasons.begin(), reasons.end(),
                               [&status](const auto& entry) { return entry.first == status.reason; });
        if (it == reasons.end())
            reasons.append({ status.reason, { status.ruleId } });
        else
            it->second << status.ruleId;
    }
    return reasons;
}

const Rule* ruleOf(const AdvisorReport& report, int index)
{
    return index < report.rules.size() ? &report.rules[index] : nullptr;
}

QString markdownEscaped(const QString& value)
{
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        if (QStringLiteral("\\`*_[]<>|#").contains(c))
            out += QLatin1Char('\\');
        out += c == QLatin1Char('\n') ? QLatin1Char(' ') : c;
    }
    return out;
}

QString markdownCode(const QString& value)
{
    // A code span holds any text when its fence is longer than the longest run of backticks inside.
    int longest = 0;
    int run = 0;
    for (const QChar c : value) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(longest + 1, QLatin1Char('`'));
    const QString pad
        = value.startsWith(QLatin1Char('`')) || value.endsWith(QLatin1Char('`')) ? QStringLiteral(" ") : QString();
    return fence + pad + value + pad + fence;
}

QString severityHeading(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return QCoreApplication::translate("runlens::advisor", "Errors");
    case Severity::Warning:
        return QCoreApplication::translate("runlens::advisor", "Warnings");
    case Severity::Info:
        return QCoreApplication::translate("runlens::advisor", "Information");
    }
    return {};
}

constexpr Severity kSeverityOrder[] = { Severity::Error, Severity::Warning, Severity::Info };

} // namespace

QJsonObject findingJson(const Finding& finding)
{
    return QJsonObject {
        { QStringLiteral("rule"), finding.ruleId },
        { QStringLiteral("severity"), toString(finding.severity) },
        { QStringLiteral("category"), toString(finding.category) },
        { QStringLiteral("title"), finding.title },
        { QStringLiteral("scope"), scopeJson(finding.scope) },
        { QStringLiteral("value"), number(finding.value) },
        { QStringLiteral("threshold"), number(finding.threshold) },
        { QStringLiteral("comparator"), toString(finding.comparator) },
        { QStringLiteral("unit"), toString(finding.unit) },
        { QStringLiteral("message"), finding.message },
        { QStringLiteral("advice"), finding.advice },
        { QStringLiteral("evidence"), QJsonArray::fromStringList(finding.evidence) },
        { QStringLiteral("occurrences"), finding.occurrences },
    };
}

QJsonObject reportJson(const AdvisorReport& report)
{
    QJsonArray findings;
    for (const Finding& finding : report.findings)
        findings.append(findingJson(finding));
    QJsonArray rules;
    for (int i = 0; i < report.statuses.size(); ++i) {
        const RuleStatus& status = report.statuses[i];
        QJsonObject entry { { QStringLiteral("id"), status.ruleId },
                            { QStringLiteral("evaluated"), status.evaluated },
                            { QStringLiteral("reason"), status.reason },
                            { QStringLiteral("findings"), status.findings },
                            { QStringLiteral("matches"), status.matches } };
        if (const Rule* rule = ruleOf(report, i)) {
            entry.insert(QStringLiteral("threshold"), number(rule->threshold));
            entry.insert(QStringLiteral("recommended"), number(rule->recommended));
            entry.insert(QStringLiteral("enabled"), rule->enabled);
            entry.insert(QStringLiteral("severity"), toString(rule->severity));
            entry.insert(QStringLiteral("category"), toString(rule->category));
            entry.insert(QStringLiteral("metric"), rule->metric);
        }
        rules.append(entry);
    }
    return QJsonObject {
        { QStringLiteral("root"), report.root },
        { QStringLiteral("findings"), findings },
        { QStringLiteral("rules"), rules },
        { QStringLiteral("summary"),
          QJsonObject { { QStringLiteral("errors"), report.count(Severity::Error) },
                        { QStringLiteral("warnings"), report.count(Severity::Warning) },
                        { QStringLiteral("infos"), report.count(Severity::Info) } } },
    };
}

QString reportText(const AdvisorReport& report)
{
    QString out;
    if (!report.root.isEmpty())
        out += QCoreApplication::translate("runlens::advisor", "Advisor report for %1").arg(report.root)
            + QLatin1Char('\n');
    out += summaryText(report) + QStringLiteral("\n\n");
    if (report.findings.isEmpty())
        out += QCoreApplication::translate("runlens::advisor", "No findings.") + QStringLiteral("\n\n");
    for (const Finding& finding : report.findings) {
        out += QStringLiteral("[%1] %2 (%3, %4)\n")
                   .arg(toString(finding.severity), finding.title, finding.ruleId, toString(finding.category));
        out += QStringLiteral("  ") + finding.message + QLatin1Char('\n');
        const QString where = scopeText(finding.scope);
        if (!where.isEmpty())
            out += QStringLiteral("  ") + QCoreApplication::translate("runlens::advisor", "where: %1").arg(where)
                + QLatin1Char('\n');
        out += QStringLiteral("  ")
            + QCoreApplication::translate("runlens::advisor", "value: %1").arg(comparisonText(finding));
        if (finding.occurrences > 1)
            out += QStringLiteral("; ")
                + QCoreApplication::translate("runlens::advisor", "%n occurrence(s)", nullptr, finding.occurrences);
        out += QLatin1Char('\n');
        if (!finding.advice.isEmpty())
            out += QStringLiteral("  ")
                + QCoreApplication::translate("runlens::advisor", "advice: %1").arg(finding.advice) + QLatin1Char('\n');
        for (const QString& locator : finding.evidence)
            out += QStringLiteral("  ") + QCoreApplication::translate("runlens::advisor", "evidence: %1").arg(locator)
                + QLatin1Char('\n');
        out += QLatin1Char('\n');
    }
    const auto reasons = notEvaluated(report);
    if (!reasons.isEmpty()) {
        out += QCoreApplication::translate("runlens::advisor", "Not evaluated:") + QLatin1Char('\n');
        for (const auto& [reason, ids] : reasons)
            out += QStringLiteral("  %1: %2\n").arg(reason, ids.join(QStringLiteral(", ")));
    }
    return out;
}

QString reportMarkdown(const AdvisorReport& report)
{
    QString out = QStringLiteral("# ") + QCoreApplication::translate("runlens::advisor", "RunLens Advisor report")
        + QStringLiteral("\n\n");
    if (!report.root.isEmpty())
        out += QCoreApplication::translate("runlens::advisor", "Folder: %1").arg(markdownCode(report.root))
            + QStringLiteral("\n\n");
    out += QStringLiteral("**") + summaryText(report) + QStringLiteral("**\n\n");
    for (const Severity severity : kSeverityOrder) {
        if (report.count(severity) == 0)
            continue;
        out += QStringLiteral("## ") + severityHeading(severity) + QStringLiteral("\n\n");
        for (const Finding& finding : report.findings) {
            if (finding.severity != severity)
                continue;
            out += QStringLiteral("### ") + markdownEscaped(finding.title) + QStringLiteral("\n\n");
            QString line = markdownCode(finding.ruleId) + QStringLiteral(" · ") + displayName(finding.category);
            const QString where = scopeText(finding.scope);
            if (!where.isEmpty())
                line += QStringLiteral(" · ") + markdownEscaped(where);
            out += line + QStringLiteral("\n\n");
            out += markdownEscaped(finding.message) + QStringLiteral("\n\n");
            out += QStringLiteral("- **") + QCoreApplication::translate("runlens::advisor", "Value")
                + QStringLiteral(":** ") + markdownEscaped(comparisonText(finding)) + QLatin1Char('\n');
            if (finding.occurrences > 1)
                out += QStringLiteral("- **") + QCoreApplication::translate("runlens::advisor", "Occurrences")
                    + QStringLiteral(":** ") + QString::number(finding.occurrences) + QLatin1Char('\n');
            if (!finding.advice.isEmpty())
                out += QStringLiteral("- **") + QCoreApplication::translate("runlens::advisor", "Advice")
                    + QStringLiteral(":** ") + markdownEscaped(finding.advice) + QLatin1Char('\n');
            for (const QString& locator : finding.evidence)
                out += QStringLiteral("- **") + QCoreApplication::translate("runlens::advisor", "Evidence")
                    + QStringLiteral(":** ") + markdownCode(locator) + QLatin1Char('\n');
            out += QLatin1Char('\n');
        }
    }
    if (report.findings.isEmpty())
        out += QCoreApplication::translate("runlens::advisor", "No findings.") + QStringLiteral("\n\n");

    out += QStringLiteral("## ") + QCoreApplication::translate("runlens::advisor", "Rules") + QStringLiteral("\n\n");
    out += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n|---|---|---|---|---|\n")
               .arg(QCoreApplication::translate("runlens::advisor", "Rule"),
                    QCoreApplication::translate("runlens::advisor", "Severity"),
                    QCoreApplication::translate("runlens::advisor", "Threshold"),
                    QCoreApplication::translate("runlens::advisor", "Findings"),
                    QCoreApplication::translate("runlens::advisor", "Status"));
    for (int i = 0; i < report.statuses.size(); ++i) {
        const RuleStatus& status = report.statuses[i];
        const Rule* rule = ruleOf(report, i);
        out += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                   .arg(markdownCode(status.ruleId), rule ? displayName(rule->severity) : QString(),
                        rule ? markdownEscaped(toString(rule->comparator) + QLatin1Char(' ')
                                               + formatValue(rule->threshold, rule->unit))
                             : QString(),
                        QString::number(status.findings),
                        status.evaluated ? QCoreApplication::translate("runlens::advisor", "evaluated")
                                         : markdownEscaped(status.reason));
    }
    return out;
}

QString reportHtml(const AdvisorReport& report)
{
    auto esc = [](const QString& value) { return value.toHtmlEscaped(); };
    QString out;
    out += QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>%1</title>\n")
               .arg(esc(QCoreApplication::translate("runlens::advisor", "RunLens Advisor report")));
    out += QStringLiteral(
        "<style>\n"
        "body{font-family:system-ui,sans-serif;margin:2em;max-width:60em;color:#222}\n"
        ".finding{border-left:4px solid #888;padding:.3em 1em;margin:1em 0;background:#fafafa}\n"
        ".error{border-color:#c62828}.warning{border-color:#ef8f00}.info{border-color:#1565c0}\n"
        ".meta{color:#666;font-size:90%}code{font-size:90%;word-break:break-all}\n"
        "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2em .6em;text-align:left}\n"
        "</style></head><body>\n");
    out += QStringLiteral("<h1>%1</h1>\n")
               .arg(esc(QCoreApplication::translate("runlens::advisor", "RunLens Advisor report")));
    if (!report.root.isEmpty())
        out += QStringLiteral("<p>%1</p>\n")
                   .arg(QCoreApplication::translate("runlens::advisor", "Folder: %1")
                            .arg(QStringLiteral("<code>") + esc(report.root) + QStringLiteral("</code>")));
    out += QStringLiteral("<p><strong>%1</strong></p>\n").arg(esc(summaryText(report)));
    for (const Severity severity : kSeverityOrder) {
        if (report.count(severity) == 0)
            continue;
        out += QStringLiteral("<h2>%1</h2>\n").arg(esc(severityHeading(severity)));
        for (const Finding& finding : report.findings) {
            if (finding.severity != severity)
                continue;
            out += QStringLiteral("<div class=\"finding %1\">\n<h3>%2</h3>\n")
                       .arg(toString(finding.severity), esc(finding.title));
            QString meta = QStringLiteral("<code>") + esc(finding.ruleId) + QStringLiteral("</code> · ")
                + esc(displayName(finding.category));
            const QString where = scopeText(finding.scope);
            if (!where.isEmpty())
                meta += QStringLiteral(" · ") + esc(where);
            out += QStringLiteral("<p class=\"meta\">%1</p>\n<p>%2</p>\n<ul>\n").arg(meta, esc(finding.message));
            out += QStringLiteral("<li><strong>%1:</strong> %2</li>\n")
                       .arg(esc(QCoreApplication::translate("runlens::advisor", "Value")),
                            esc(comparisonText(finding)));
            if (finding.occurrences > 1)
                out += QStringLiteral("<li><strong>%1:</strong> %2</li>\n")
                           .arg(esc(QCoreApplication::translate("runlens::advisor", "Occurrences")))
                           .arg(finding.occurrences);
            if (!finding.advice.isEmpty())
                out += QStringLiteral("<li><strong>%1:</strong> %2</li>\n")
                           .arg(esc(QCoreApplication::translate("runlens::advisor", "Advice")), esc(finding.advice));
            for (const QString& locator : finding.evidence)
                out += QStringLiteral("<li><strong>%1:</strong> <code>%2</code></li>\n")
                           .arg(esc(QCoreApplication::translate("runlens::advisor", "Evidence")), esc(locator));
            out += QStringLiteral("</ul>\n</div>\n");
        }
    }
    if (report.findings.isEmpty())
        out += QStringLiteral("<p>%1</p>\n").arg(esc(QCoreApplication::translate("runlens::advisor", "No findings.")));

    out += QStringLiteral("<h2>%1</h2>\n<table>\n<tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th></tr>\n")
               .arg(esc(QCoreApplication::translate("runlens::advisor", "Rules")),
                    esc(QCoreApplication::translate("runlens::advisor", "Rule")),
                    esc(QCoreApplication::translate("runlens::advisor", "Severity")),
                    esc(QCoreApplication::translate("runlens::advisor", "Threshold")),
                    esc(QCoreApplication::translate("runlens::advisor", "Findings")),
                    esc(QCoreApplication::translate("runlens::advisor", "Status")));
    for (int i = 0; i < report.statuses.size(); ++i) {
        const RuleStatus& status = report.statuses[i];
        const Rule* rule = ruleOf(report, i);
        out += QStringLiteral("<tr><td><code>%1</code></td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>\n")
                   .arg(esc(status.ruleId), rule ? esc(displayName(rule->severity)) : QString(),
                        rule ? esc(toString(rule->comparator) + QLatin1Char(' ')
                                   + formatValue(rule->threshold, rule->unit))
                             : QString(),
                        QString::number(status.findings),
                        esc(status.evaluated ? QCoreApplication::translate("runlens::advisor", "evaluated")
                                             : status.reason));
    }
    out += QStringLiteral("</table>\n</body></html>\n");
    return out;
}

} // namespace runlens::models::advisor
