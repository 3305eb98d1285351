#pragma once

#include "models/advisor/advisor.h" // formatValue(), which the pane shares with the rule texts
#include "models/advisor/advisortypes.h"

#include <QIcon>
#include <QString>

namespace runlens::widgets::advisor {

/// The unit as a threshold editor's suffix (" %", " ms", " B"); empty for plain values and ratios.
QString unitSuffix(models::advisor::Unit unit);
/// "run baseline · rank 3 · step 120 · layer fc3": the parts of a scope that apply, in a fixed order.
QString scopeText(const models::advisor::Scope& scope);
/// A short description of an evidence locator ("Scalar train/loss of run a at step 12"); the locator
/// itself when it cannot be parsed. The run of `scope` is named as `scope` shows it.
QString describeEvidence(const QString& locator, const models::advisor::Scope& scope = {});
QIcon severityIcon(models::advisor::Severity severity);

} // namespace runlens::widgets::advisor
