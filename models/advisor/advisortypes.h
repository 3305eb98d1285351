#pragma once

#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <optional>

namespace runlens::models::advisor {

enum class Severity { Info, Warning, Error };
enum class Category { Accuracy, Performance, Memory, Distributed, Data };
enum class Comparator { Greater, GreaterEqual, Less, LessEqual };
/// What a rule's findings are about: one per run, per step, per rank, per layer, per tensor, per op.
enum class ScopeKind { Run, Step, Rank, Layer, Tensor, Op, Link, Device };
/// How a rule turns several matching measurements into findings: one finding for each, only the worst
/// (furthest past the threshold), or only the first occurrence (lowest `Measurement::order`, for
/// contagious problems such as NaN whose first appearance is the likely origin).
enum class ReportMode { Each, Worst, First };
/// How values and thresholds are printed.
enum class Unit { Value, Count, Ratio, Percent, Milliseconds, Nanoseconds, Bytes };

/// Where a measurement or finding applies. Empty strings and unset optionals mean "not applicable".
struct Scope
{
    QString run; ///< the run's id: its folder relative to the opened one, "." for the opened folder itself
    QString runName; ///< the run as users see it (runDisplayName); empty when it is `run`
    std::optional<int> rank;
    std::optional<qint64> step;
    QString layer; ///< module / namespace ("fc3", "Default/network/conv1")
    QString node; ///< graph node full name
    QString tensor; ///< tensor, histogram or summary tag name
    QString op; ///< operator name or type
    QString device; ///< "cuda:0", "Ascend 3"
    QString link; ///< "RDMA 0->4"
    /// The dump comparison a finding is about, "bench vs target" (comparisonDisplayName()); empty for the open
    /// run's findings. `run` is then empty: the comparison's sides are not runs of the opened folder.
    QString comparison;

    /// The run's name for messages and reports.
    QString shownRun() const { return runName.isEmpty() ? run : runName; }
};

/// A figure an analyser measured from the loaded data: the value a rule compares with its threshold,
/// where it applies, the facts its message quotes, and the locators of what shows it.
struct Measurement
{
    QString metric; ///< "loss.nonfinite", "trace.dataloader_share" ...
    double value = 0.0;
    Scope scope;
    /// Named facts for the rule's message template ("{tag}", "{step}", "{first_bad}" ...); numbers are
    /// formatted by the engine, strings inserted as they are.
    QVariantMap facts;
    QStringList evidence; ///< `runlens://` locators (see evidence.h), most specific first
    /// Position in time or execution order, lower is earlier (step, then node order); used by
    /// ReportMode::First.
    double order = 0.0;
};

/// A rule that matched: what it found, where, by how much, what to try, and where to look.
struct Finding
{
    QString ruleId;
    Severity severity = Severity::Warning;
    Category category = Category::Accuracy;
    Scope scope;
    double value = 0.0;
    double threshold = 0.0;
    Comparator comparator = Comparator::Greater;
    Unit unit = Unit::Value;
    QString title; ///< translated
    QString message; ///< translated, with the numbers filled in
    QString advice; ///< translated
    QStringList evidence;
    int occurrences = 1; ///< measurements that matched the rule in this scope group (First/Worst keep one)
};

/// Whether a rule could be evaluated on the loaded data, and why not.
struct RuleStatus
{
    QString ruleId;
    bool evaluated = false;
    QString reason; ///< translated: "no trace with DataLoader spans is loaded"; empty when evaluated
    int findings = 0;
    /// Measurements that matched the rule; more than `findings` when Worst/First kept one per group or
    /// the limit cut the list.
    int matches = 0;
};

QString toString(Severity severity); ///< "info", "warning", "error"
QString toString(Category category); ///< "accuracy", ...
QString toString(Comparator comparator); ///< ">", ">=", "<", "<="
QString toString(ScopeKind scope); ///< "run", "step", ...
QString toString(ReportMode mode); ///< "each", "worst", "first"
QString toString(Unit unit); ///< "value", "count", "ratio", "percent", "ms", "ns", "bytes"
std::optional<Severity> severityFromString(const QString& text);
std::optional<Category> categoryFromString(const QString& text);
std::optional<Comparator> comparatorFromString(const QString& text);
std::optional<ScopeKind> scopeKindFromString(const QString& text);
std::optional<ReportMode> reportModeFromString(const QString& text);
std::optional<Unit> unitFromString(const QString& text);
/// Whether `value comparator threshold` holds (false for NaN values).
bool holds(Comparator comparator, double value, double threshold);
/// Translated display names.
QString displayName(Severity severity);
QString displayName(Category category);

} // namespace runlens::models::advisor
