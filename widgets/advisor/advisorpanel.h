#pragma once

#include "models/advisor/advisor.h"
#include "models/advisor/advisortypes.h"
#include "models/advisor/rule.h"

#include <QSet>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QToolButton;
class QTreeView;
class QWidget;

namespace runlens::widgets::advisor {

class FindingDetails;
class FindingsModel;
class RulesModel;
class ThresholdDelegate;

/// The Advisor pane. The Findings tab lists what the rules found, grouped by severity then category with
/// counts, filterable by text and severity; the selected finding shows its message, numbers, advice and
/// evidence ("Show evidence" and double-click emit evidenceRequested with a runlens:// locator the
/// application resolves to a panel selection). The Rules tab lists every rule with its enabled state,
/// threshold (editable within range), recommended value and whether it could be evaluated; edits emit
/// ruleBookEdited so the application re-evaluates and stores the overrides. The report exports as
/// Markdown, HTML or JSON.
///
/// The panel shows what it is given and never evaluates: the application runs advisor::evaluate() on a
/// worker (setBusy(true) meanwhile; the old findings stay visible) and passes the report in. Choosing an
/// export file is the application's business too (widgets show no dialogs): it installs a
/// FileNameProvider; without one, exports go to exportDirectory() under a new name.
class AdvisorPanel final : public QWidget
{
    Q_OBJECT
public:
    enum class ExportFormat { Markdown, Html, Json };
    /// Returns the file to write, given a suggested absolute file name; empty cancels.
    using FileNameProvider = std::function<QString(ExportFormat format, const QString& suggestedFileName)>;

    explicit AdvisorPanel(QWidget* parent = nullptr);
    ~AdvisorPanel() override;

    void setReport(std::shared_ptr<const models::advisor::AdvisorReport> report);
    std::shared_ptr<const models::advisor::AdvisorReport> report() const { return m_report; }
    /// The rules in effect and the built-in ones (for "reset to recommended" and what counts as changed).
    void setRuleBook(const models::advisor::RuleBook& current, const models::advisor::RuleBook& builtIn);
    /// The book with the user's edits.
    const models::advisor::RuleBook& ruleBook() const;
    /// An evaluation is running: a busy line is shown above the findings, which stay as they are.
    void setBusy(bool busy);
    bool isBusy() const { return m_busy; }

    /// For the dock title: "(2 errors, 3 warnings)", "(no problems)", or empty when no report is loaded.
    QString titleSuffix() const;
    int count(models::advisor::Severity severity) const;

    // Findings tab
    void setFilterText(const QString& text);
    void setSeverityShown(models::advisor::Severity severity, bool shown);
    bool isSeverityShown(models::advisor::Severity severity) const { return m_shownSeverities.contains(severity); }
    /// Selects finding `findingIndex` of report()->findings (clears the filter when it hides it).
    void selectFinding(int findingIndex);
    /// Index into report()->findings of the selected finding, or -1.
    int currentFinding() const;
    /// Emits evidenceRequested for the selected finding's chosen locator; false when there is none.
    bool showEvidence();
    /// True while the Findings tab shows a message instead of the findings (nothing loaded, clean, or
    /// nothing matches the filter).
    bool isShowingEmptyState() const;
    QString emptyStateText() const;
    QString summaryText() const;

    // Rules tab
    /// Sets a threshold as the threshold editor does; false when out of range (nothing changes).
    bool setThreshold(const QString& ruleId, double threshold);
    bool setRuleEnabled(const QString& ruleId, bool enabled);
    void resetToRecommended(const QString& ruleId);
    void resetAllToRecommended();
    /// The message of the last rejected threshold edit; empty after a successful edit.
    QString ruleMessage() const;

    // Export
    void setExportFileNameProvider(FileNameProvider provider) { m_fileNameProvider = std::move(provider); }
    void setExportDirectory(const QString& directory) { m_exportDirectory = directory; }
    /// Where exports go without a FileNameProvider; defaults to the user's documents folder.
    QString exportDirectory() const;
    /// Asks the FileNameProvider (or takes a new default name) and exports the current report. Returns
    /// the written file, or an empty string when cancelled or failed.
    QString requestExport(ExportFormat format);
    /// Writes `report` to `fileName` as Markdown (.md, .markdown), HTML (.html, .htm) or JSON (.json),
    /// chosen by the suffix. On failure returns false and says why (naming the file) in `error`.
    static bool exportReport(const models::advisor::AdvisorReport& report, const QString& fileName,
                             QString* error = nullptr);
    static QString suffix(ExportFormat format);

    // Parts, for tests and the application's wiring.
    QTabWidget* tabs() const { return m_tabs; }
    QTreeView* findingsView() const { return m_findingsView; }
    FindingsModel* findingsModel() const { return m_findingsModel; }
    FindingDetails* details() const { return m_details; }
    QLineEdit* filterEdit() const { return m_filterEdit; }
    QToolButton* severityButton(models::advisor::Severity severity) const;
    QTreeView* rulesView() const { return m_rulesView; }
    RulesModel* rulesModel() const { return m_rulesModel; }
    QSortFilterProxyModel* rulesProxy() const { return m_rulesProxy; }
    QWidget* busyIndicator() const { return m_busyLine; }
    QToolButton* exportButton() const { return m_exportButton; }

signals:
    /// Show this evidence (a runlens:// locator, see advisor/evidence.h).
    void evidenceRequested(const QString& locator);
    /// The selected finding changed: an index into report()->findings, or -1.
    void findingSelected(int findingIndex);
    /// The user changed a threshold, an enabled state or reset rules: re-evaluate with this book.
    void ruleBookEdited(const runlens::models::advisor::RuleBook& book);
    /// The counts behind titleSuffix() changed (new report or none).
    void countsChanged(int errors, int warnings, int infos);
    void reportExported(const QString& fileName);
    void exportFailed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildUi();
    QWidget* buildFindingsTab();
    QWidget* buildRulesTab();
    void applyFilter();
    void updateSeverityButtons();
    void updateFindingsState();
    void updateSummary();
    int evaluatedRules() const;
    void onCurrentFindingChanged();
    void restoreGroups();
    void fitScopeColumn();
    void showRuleMenu(const QPoint& pos);
    void setRuleMessage(const QString& message);
    QString uniqueDefaultFileName(ExportFormat format) const;

    std::shared_ptr<const models::advisor::AdvisorReport> m_report;
    bool m_busy = false;
    QSet<models::advisor::Severity> m_shownSeverities { models::advisor::Severity::Error,
                                                        models::advisor::Severity::Warning,
                                                        models::advisor::Severity::Info };
    /// Groups the user collapsed, kept across reports: comparison, then severity * 16 + category (+1; 0 for
    /// severity rows); a comparison's own row by its name.
    QSet<QString> m_collapsedGroups;
    FileNameProvider m_fileNameProvider;
    QString m_exportDirectory;

    QLabel* m_summary = nullptr;
    QToolButton* m_exportButton = nullptr;
    QWidget* m_busyLine = nullptr;
    QProgressBar* m_busyBar = nullptr;
    QTabWidget* m_tabs = nullptr;

    QLineEdit* m_filterEdit = nullptr;
    QToolButton* m_errorsButton = nullptr;
    QToolButton* m_warningsButton = nullptr;
    QToolButton* m_infoButton = nullptr;
    QStackedWidget* m_findingsStack = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QTreeView* m_findingsView = nullptr;
    FindingsModel* m_findingsModel = nullptr;
    FindingDetails* m_details = nullptr;

    QLineEdit* m_rulesFilter = nullptr;
    QPushButton* m_resetSelected = nullptr;
    QPushButton* m_resetAll = nullptr;
    QLabel* m_ruleMessage = nullptr;
    QTreeView* m_rulesView = nullptr;
    RulesModel* m_rulesModel = nullptr;
    QSortFilterProxyModel* m_rulesProxy = nullptr;
    ThresholdDelegate* m_thresholdDelegate = nullptr;
};

} // namespace runlens::widgets::advisor
