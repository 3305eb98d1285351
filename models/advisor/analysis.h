#pragma once

#include "models/advisor/advisorinput.h"
#include "models/advisor/advisortypes.h"
#include "models/advisor/rule.h"

#include <QHash>
#include <QString>

#include <atomic>
#include <vector>

namespace runlens::models::advisor {

/// What the analysers write to while they run over an AdvisorInput: measurements, and for every metric
/// they own whether it could be measured on this input (and if not, why). Analysers read the thresholds
/// and parameters they need to compute a metric (window lengths, tolerances) from the rule book.
class AnalysisContext
{
public:
    AnalysisContext(const RuleBook& rules, const std::atomic_bool* canceled = nullptr);

    const RuleBook& rules() const { return m_rules; }
    /// A rule's parameter, or `fallback` when the rule or the parameter is absent.
    double parameter(const QString& ruleId, const QString& name, double fallback) const;
    /// A rule's threshold in effect, or `fallback`.
    double threshold(const QString& ruleId, double fallback) const;
    bool isCanceled() const { return m_canceled && m_canceled->load(std::memory_order_relaxed); }

    /// The opened folder: measurements added from now on name their run as users see it.
    void setRoot(const QString& root) { m_root = root; }
    void add(Measurement measurement);
    /// The metric was computed on this input (zero measurements then means healthy).
    void markEvaluated(const QString& metric);
    /// The metric could not be computed: `reason` is translated and says what data is missing.
    /// A later markEvaluated() of the same metric wins (another source had the data).
    void markMissing(const QString& metric, const QString& reason);

    const std::vector<Measurement>& measurements() const { return m_measurements; }
    bool isEvaluated(const QString& metric) const;
    /// Why a metric was not evaluated; empty when it was, or when no analyser mentioned it.
    QString missingReason(const QString& metric) const;

private:
    const RuleBook& m_rules;
    const std::atomic_bool* m_canceled = nullptr;
    QString m_root;
    QHash<QString, QString> m_runNames;
    std::vector<Measurement> m_measurements;
    QHash<QString, bool> m_evaluated;
    QHash<QString, QString> m_missing;
};

/// The analysers. Each reads one family of sources and measures the metrics its rules compare; each
/// marks every metric it owns as evaluated or missing. They run one after another on a worker thread.
void analyseScalars(const AdvisorInput& input, AnalysisContext& context); // scalaranalysis.cpp
void analyseWeights(const AdvisorInput& input, AnalysisContext& context); // weightanalysis.cpp: histograms + tensors
void analyseTraces(const AdvisorInput& input, AnalysisContext& context); // traceanalysis.cpp
void analyseMemory(const AdvisorInput& input, AnalysisContext& context); // memoryrules.cpp
void analyseProfiler(const AdvisorInput& input,
                     AnalysisContext& context); // profileranalysis.cpp: MindSpore steps, pipeline
void analyseCluster(const AdvisorInput& input,
                    AnalysisContext& context); // clusteranalysis.cpp: MindSpore and Kineto ranks
void analyseSystem(const AdvisorInput& input, AnalysisContext& context); // systemanalysis.cpp: system/* scalars
void analyseComparison(const AdvisorInput& input,
                       AnalysisContext& context); // comparisonanalysis.cpp: a dump comparison's rows

/// "fp32 vs fp16": the last parts of the two paths that differ, which is how findings name a comparison.
QString comparisonDisplayName(const QString& bench, const QString& target);

} // namespace runlens::models::advisor
