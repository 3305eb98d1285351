#pragma once

#include "models/advisor/advisortypes.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVariantMap>

#include <optional>

namespace runlens::models::advisor {

/// One expert rule, as data (resources/rules/*.json, user rule files). Title, message and advice are
/// English source texts; the engine translates them in the "runlens::advisor::Rules" context.
struct Rule
{
    QString id; ///< "loss-nan", stable: findings, JSON reports and overrides refer to it
    Category category = Category::Accuracy;
    Severity severity = Severity::Warning;
    QString title;
    /// Template of the one-line explanation: "{value}", "{threshold}" and the measurement's facts in braces.
    QString message;
    QString advice; ///< what to try
    QString metric; ///< the measurement this rule reads
    Comparator comparator = Comparator::Greater;
    double threshold = 0.0; ///< in effect (user override or recommended)
    double recommended = 0.0;
    double minimum = 0.0; ///< validation range of the threshold
    double maximum = 0.0;
    Unit unit = Unit::Value;
    ScopeKind scope = ScopeKind::Run;
    QString evidence; ///< evidence kind: "scalar", "histogram", "tensor", "graph", "trace", "memory", "profiler",
                      ///< "cluster", "compare", "system"
    ReportMode report = ReportMode::Each;
    int limit = 50; ///< at most this many findings (ReportMode::Each)
    bool enabled = true;
    /// Analyser parameters that are not compared (window length, tolerances): name -> number.
    QVariantMap params;
    QString source; ///< file the rule (or its last override) came from

    double parameter(const QString& name, double fallback) const;
};

/// The rules in effect: the built-in set, then user files layered over it (same ids override
/// threshold, enabled, severity and params; new ids add rules).
class RuleBook
{
public:
    /// The built-in rules (compiled-in resources/rules/*.json). `problems` receives what is wrong with
    /// them (a test keeps it empty).
    static RuleBook builtIn(QStringList* problems = nullptr);
    /// The user's rule files in the settings folder (`<AppConfigLocation>/rules/*.json`), sorted by name.
    static QStringList userRuleFiles();
    /// The folder of the user's rule files: the one chosen in Preferences ("preferences/rulesFolder" in
    /// the application's settings), else <configuration>/rules.
    static QString userRulesFolder();
    /// The rules in effect: the built-in set, then the settings folder's rule files, then `extraFiles`
    /// (command line), each layered over the previous ones. Unreadable files are reported in `problems`.
    static RuleBook effective(const QStringList& extraFiles = {}, QStringList* problems = nullptr);

    /// Reads a rule file and layers it over this book. Problems are reported per entry, naming `path`;
    /// valid entries still apply. Returns false when the file could not be read at all.
    bool load(const QString& path, QStringList* problems = nullptr);
    /// Layers a parsed rule document over this book (`origin` names it in problems).
    void apply(const QJsonObject& document, const QString& origin, QStringList* problems = nullptr);

    const QList<Rule>& rules() const { return m_rules; }
    const Rule* rule(const QString& id) const;
    Rule* rule(const QString& id);

    /// Sets a threshold within the rule's range; false when out of range or unknown.
    bool setThreshold(const QString& id, double threshold);
    bool setEnabled(const QString& id, bool enabled);
    void resetToRecommended(const QString& id);

    /// What differs from `base` (thresholds, enabled, severity, params), as a user rule document that
    /// apply() reads back.
    QJsonObject overrides(const RuleBook& base) const;

private:
    QList<Rule> m_rules;
};

} // namespace runlens::models::advisor
