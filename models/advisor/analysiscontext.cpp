#include "models/advisor/analysis.h"

#include "models/core/runmanifest.h"

#include <QDir>

#include <utility>

namespace runlens::models::advisor {

AnalysisContext::AnalysisContext(const RuleBook& rules, const std::atomic_bool* canceled)
    : m_rules(rules)
    , m_canceled(canceled)
{ }

double AnalysisContext::parameter(const QString& ruleId, const QString& name, double fallback) const
{
    const Rule* rule = m_rules.rule(ruleId);
    return rule ? rule->parameter(name, fallback) : fallback;
}

double AnalysisContext::threshold(const QString& ruleId, double fallback) const
{
    const Rule* rule = m_rules.rule(ruleId);
    return rule ? rule->threshold : fallback;
}

void AnalysisContext::add(Measurement measurement)
{
    // Readers mark "no step" as -1 (a checkpoint member); a scope shows such a tensor without a step.
    if (measurement.scope.step && *measurement.scope.step < 0)
        measurement.scope.step.reset();
    if (!m_root.isEmpty() && !measurement.scope.run.isEmpty()) {
        auto name = m_runNames.constFind(measurement.scope.run);
        if (name == m_runNames.cend()) {
            // Analyses of a whole folder (a cluster of rank digests) give the folder's path as their run:
            // inside the opened folder it is named like the run it is relative to.
            QString run = measurement.scope.run;
            if (QDir::isAbsolutePath(run)) {
                const QString relative = QDir(m_root).relativeFilePath(run);
                if (!relative.startsWith(QLatin1String("..")) && !QDir::isAbsolutePath(relative))
                    run = relative.isEmpty() ? QStringLiteral(".") : relative;
            }
            name = m_runNames.insert(measurement.scope.run, runDisplayName(m_root, run));
        }
        if (*name != measurement.scope.run)
            measurement.scope.runName = *name;
    }
    m_evaluated.insert(measurement.metric, true);
    m_measurements.push_back(std::move(measurement));
}

void AnalysisContext::markEvaluated(const QString& metric)
{
    m_evaluated.insert(metric, true);
}

void AnalysisContext::markMissing(const QString& metric, const QString& reason)
{
    if (!m_missing.contains(metric))
        m_missing.insert(metric, reason);
}

bool AnalysisContext::isEvaluated(const QString& metric) const
{
    return m_evaluated.value(metric, false);
}

QString AnalysisContext::missingReason(const QString& metric) const
{
    return isEvaluated(metric) ? QString() : m_missing.value(metric);
}

} // namespace runlens::models::advisor
