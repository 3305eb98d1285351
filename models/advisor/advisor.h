#pragma once

#include "models/advisor/advisorinput.h"
#include "models/advisor/advisortypes.h"
#include "models/advisor/analysis.h"
#include "models/advisor/rule.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <atomic>

namespace runlens::models::advisor {

/// The result of one evaluation: findings ordered by severity (errors first), then category, then rule
/// order; and for every rule whether it was evaluated.
struct AdvisorReport
{
    QList<Finding> findings;
    QList<RuleStatus> statuses; ///< one per rule of the book, in book order
    QList<Rule> rules; ///< the rules as they were applied (thresholds in effect), parallel to `statuses`
    QString root;

    int count(Severity severity) const;
    /// The highest severity among the findings; nullopt when there are none.
    std::optional<Severity> worst() const;
};

/// Runs every analyser over the input, then every enabled rule over the measurements. Pure and thread
/// safe: call it on a worker. `canceled` stops it early (the report is then partial).
AdvisorReport evaluate(const AdvisorInput& input, const RuleBook& rules, const std::atomic_bool* canceled = nullptr);
/// The second half of evaluate(): every enabled rule of `rules` over the measurements in `context`.
///
/// A rule's matches are its metric's measurements for which `value comparator threshold` holds. Each keeps
/// every match (the worst first); Worst and First keep one per scope group, the furthest past the threshold
/// or the one with the lowest order. The group is the run plus the scope field the rule is about: Run and
/// Step group by run (and rank for Step), Rank by rank, Layer/Tensor/Op/Device/Link by that field (node
/// when a layer or tensor is not named). At most `limit` findings per rule are kept.
AdvisorReport applyRules(const AnalysisContext& context, const RuleBook& rules);

/// A number as the rule texts print it: percent "37.5 %", ms "12.3 ms", ns scaled to "850 ns" / "1.2 µs" /
/// "3.4 ms" / "1.5 s", bytes "1.5 GiB", ratio with 3 significant digits, count as a whole number, value with
/// up to 4 significant digits. Analysers may use it for facts that carry a unit.
QString formatValue(double value, Unit unit);

/// Exports (ARCHITECTURE.md §5 for the JSON contract).
QJsonObject reportJson(const AdvisorReport& report);
/// One entry of reportJson()'s "findings".
QJsonObject findingJson(const Finding& finding);
QString reportMarkdown(const AdvisorReport& report);
QString reportHtml(const AdvisorReport& report);
QString reportText(const AdvisorReport& report); ///< for a terminal

} // namespace runlens::models::advisor
