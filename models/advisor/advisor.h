#pragma once

#include "advisor/advisorinput.h"
#include "advisor/advisortypes.h"
#include "advisor/rule.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <atomic>

namespace runlens::advisor {

/// The result of one evaluation: findings ordered by severity (errors first), then category, then rule
/// order; and for every rule whether it was evaluated.
struct AdvisorReport
{
    QList<Finding> findings;
    QList<RuleStatus> statuses; ///< one per rule of the book, in book order
    QString root;

    int count(Severity severity) const;
    /// The highest severity among the findings; nullopt when there are none.
    std::optional<Severity> worst() const;
};

/// Runs every analyser over the input, then every enabled rule over the measurements. Pure and thread
/// safe: call it on a worker. `canceled` stops it early (the report is then partial).
AdvisorReport evaluate(const AdvisorInput& input, const RuleBook& rules, const std::atomic_bool* canceled = nullptr);

/// Exports (ARCHITECTURE.md §5 for the JSON contract).
QJsonObject reportJson(const AdvisorReport& report);
QString reportMarkdown(const AdvisorReport& report);
QString reportHtml(const AdvisorReport& report);
QString reportText(const AdvisorReport& report); ///< for a terminal

} // namespace runlens::advisor
