#include "widgets/advisor/advisorpanel.h"

#include "widgets/advisor/advisorformat.h"
#include "widgets/advisor/findingdetails.h"
#include "widgets/advisor/findingsmodel.h"
#include "widgets/advisor/rulesmodel.h"
#include "widgets/advisor/thresholddelegate.h"

#include "widgets/common/panelheader.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace runlens::widgets::advisor {

namespace {

/// A group row across reports: its comparison (empty for the open run's), whether it is the comparison's own
/// row, its severity and category.
QString groupKey(const QModelIndex& index)
{
    if (index.data(FindingsModel::IsSectionRole).toBool())
        return index.data(FindingsModel::SectionRole).toString();
    const int category = index.data(FindingsModel::CategoryRole).toInt();
    return index.data(FindingsModel::SectionRole).toString() + QLatin1Char('\n')
        + QString::number(index.data(FindingsModel::SeverityRole).toInt() * 16 + (category < 0 ? 0 : category + 1));
}

/// "1 error", "3 warnings": English needs no "(s)" in the dock title; %n keeps plural forms translatable.
QString countText(models::advisor::Severity severity, int count)
{
    switch (severity) {
    case models::advisor::Severity::Error:
        return count == 1 ? AdvisorPanel::tr("1 error") : AdvisorPanel::tr("%n errors", nullptr, count);
    case models::advisor::Severity::Warning:
        return count == 1 ? AdvisorPanel::tr("1 warning") : AdvisorPanel::tr("%n warnings", nullptr, count);
    case models::advisor::Severity::Info:
        break;
    }
    return count == 1 ? AdvisorPanel::tr("1 info") : AdvisorPanel::tr("%n info", nullptr, count);
}

QToolButton* makeToggle(const QString& objectName, models::advisor::Severity severity, const QString& toolTip,
                        QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(objectName);
    button->setCheckable(true);
    button->setChecked(true);
    button->setAutoRaise(true);
    button->setIcon(severityIcon(severity));
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setToolTip(toolTip);
    return button;
}

} // namespace

AdvisorPanel::AdvisorPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("advisorPanel"));
    buildUi();
    updateSeverityButtons();
    updateFindingsState();
    updateSummary();
}

AdvisorPanel::~AdvisorPanel() = default;

void AdvisorPanel::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* header = new PanelHeader(this);
    m_summary = header->addSummary(QStringLiteral("advisorSummary"), PanelHeader::TextMode::WordWrap);
    m_summary->setToolTip(tr("Findings of the last evaluation and how many rules could run on the loaded data"));
    m_exportButton = header->addExportButton(QStringLiteral("advisorExport"), QStringLiteral("chart-export-document"));
    m_exportButton->setToolTip(tr("Save the findings as a Markdown or HTML report, or as JSON"));
    QMenu* menu = header->exportMenu();
    auto addExport = [this, menu](ExportFormat format, const QString& text, const QString& toolTip) {
        QAction* action = menu->addAction(text);
        action->setToolTip(toolTip);
        connect(action, &QAction::triggered, this, [this, format] { requestExport(format); });
    };
    addExport(ExportFormat::Markdown, tr("Markdown report\u2026"), tr("A report to paste into an issue or a wiki"));
    addExport(ExportFormat::Html, tr("HTML report\u2026"), tr("A report to open in a browser or attach to mail"));
    addExport(ExportFormat::Json, tr("JSON\u2026"), tr("The findings as JSON, as runlens advise --json writes them"));
    menu->setToolTipsVisible(true);
    layout->addWidget(header);

    m_busyLine = new QWidget(this);
    m_busyLine->setObjectName(QStringLiteral("advisorBusy"));
    m_busyLine->setToolTip(tr("The rules are being evaluated on the loaded data; the findings below are "
                              "those of the previous evaluation"));
    auto* busyRow = new QHBoxLayout(m_busyLine);
    busyRow->setContentsMargins(8, 0, 8, 6);
    busyRow->setSpacing(8);
    auto* busyLabel = new QLabel(tr("Evaluating the rules\u2026"), m_busyLine);
    busyLabel->setForegroundRole(QPalette::PlaceholderText);
    busyRow->addWidget(busyLabel);
    m_busyBar = new QProgressBar(m_busyLine);
    m_busyBar->setRange(0, 0);
    m_busyBar->setTextVisible(false);
    m_busyBar->setMaximumHeight(busyLabel->sizeHint().height() / 2);
    m_busyBar->setMaximumWidth(160);
    busyRow->addWidget(m_busyBar, 1);
    busyRow->addStretch(1);
    m_busyLine->hide();
    layout->addWidget(m_busyLine);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("advisorTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(buildFindingsTab(), tr("Findings"));
    m_tabs->setTabToolTip(0, tr("What the rules found, with the numbers, advice and evidence"));
    m_tabs->addTab(buildRulesTab(), tr("Rules"));
    m_tabs->setTabToolTip(1, tr("Every rule: switch it on or off, tune its threshold, see why it was not evaluated"));
    layout->addWidget(m_tabs, 1);
}

QWidget* AdvisorPanel::buildFindingsTab()
{
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* filterRow = new QHBoxLayout;
    filterRow->setContentsMargins(8, 6, 8, 6);
    filterRow->setSpacing(4);
    m_filterEdit = new QLineEdit(page);
    m_filterEdit->setObjectName(QStringLiteral("findingsFilter"));
    m_filterEdit->setPlaceholderText(tr("Filter findings"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setToolTip(tr("Show only findings whose title, message, advice, rule or scope contain all "
                                "these words"));
    filterRow->addWidget(m_filterEdit, 1);
    m_errorsButton
        = makeToggle(QStringLiteral("showErrors"), models::advisor::Severity::Error, tr("Show or hide errors"), page);
    m_warningsButton = makeToggle(QStringLiteral("showWarnings"), models::advisor::Severity::Warning,
                                  tr("Show or hide warnings"), page);
    m_infoButton
        = makeToggle(QStringLiteral("showInfo"), models::advisor::Severity::Info, tr("Show or hide information"), page);
    filterRow->addWidget(m_errorsButton);
    filterRow->addWidget(m_warningsButton);
    filterRow->addWidget(m_infoButton);
    layout->addLayout(filterRow);

    m_findingsStack = new QStackedWidget(page);
    layout->addWidget(m_findingsStack, 1);
    m_emptyLabel = new QLabel(m_findingsStack);
    m_emptyLabel->setObjectName(QStringLiteral("emptyState"));
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setMargin(24);
    m_emptyLabel->setTextFormat(Qt::PlainText);
    m_findingsStack->addWidget(m_emptyLabel);

    auto* splitter = new QSplitter(Qt::Vertical, m_findingsStack);
    splitter->setChildrenCollapsible(false);
    m_findingsStack->addWidget(splitter);
    m_findingsModel = new FindingsModel(this);
    m_findingsView = new QTreeView(splitter);
    m_findingsView->setObjectName(QStringLiteral("findingsView"));
    m_findingsView->setModel(m_findingsModel);
    m_findingsView->setUniformRowHeights(true);
    m_findingsView->setAlternatingRowColors(true);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findingsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_findingsView->setToolTip(tr("Double-click a finding to show its evidence"));
    m_findingsView->header()->setStretchLastSection(false);
    m_findingsView->header()->setSectionResizeMode(FindingsModel::TitleColumn, QHeaderView::Stretch);
    m_findingsView->header()->setSectionResizeMode(FindingsModel::ScopeColumn, QHeaderView::Interactive);
    m_findingsView->header()->setSectionResizeMode(FindingsModel::ValueColumn, QHeaderView::ResizeToContents);
    m_findingsView->header()->setSectionResizeMode(FindingsModel::ThresholdColumn, QHeaderView::ResizeToContents);
    m_findingsView->header()->resizeSection(FindingsModel::ScopeColumn, 220);
    m_findingsView->viewport()->installEventFilter(this); // keeps the scope column in proportion
    m_details = new FindingDetails(splitter);
    m_details->setObjectName(QStringLiteral("findingDetails"));
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    connect(m_findingsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AdvisorPanel::onCurrentFindingChanged);
    connect(m_findingsView, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const int finding = index.data(FindingsModel::FindingIndexRole).toInt();
        if (m_report && finding >= 0 && finding < m_report->findings.size()
            && !m_report->findings.at(finding).evidence.isEmpty())
            emit evidenceRequested(m_report->findings.at(finding).evidence.constFirst());
    });
    connect(m_findingsView, &QTreeView::collapsed, this,
            [this](const QModelIndex& index) { m_collapsedGroups.insert(groupKey(index)); });
    connect(m_findingsView, &QTreeView::expanded, this,
            [this](const QModelIndex& index) { m_collapsedGroups.remove(groupKey(index)); });
    connect(m_details, &FindingDetails::evidenceRequested, this, &AdvisorPanel::evidenceRequested);
    connect(m_filterEdit, &QLineEdit::textChanged, this, &AdvisorPanel::applyFilter);
    const std::pair<QToolButton*, models::advisor::Severity> toggles[]
        = { { m_errorsButton, models::advisor::Severity::Error },
            { m_warningsButton, models::advisor::Severity::Warning },
            { m_infoButton, models::advisor::Severity::Info } };
    for (const auto& [button, severity] : toggles) {
        connect(button, &QToolButton::toggled, this,
                [this, severity = severity](bool on) { setSeverityShown(severity, on); });
    }
    return page;
}

QWidget* AdvisorPanel::buildRulesTab()
{
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(8, 6, 8, 6);
    row->setSpacing(6);
    m_rulesFilter = new QLineEdit(page);
    m_rulesFilter->setObjectName(QStringLiteral("rulesFilter"));
    m_rulesFilter->setPlaceholderText(tr("Filter rules"));
    m_rulesFilter->setClearButtonEnabled(true);
    m_rulesFilter->setToolTip(tr("Show only rules whose id, title, category, severity or status contain this text"));
    row->addWidget(m_rulesFilter, 1);
    m_resetSelected = new QPushButton(tr("Reset"), page);
    m_resetSelected->setObjectName(QStringLiteral("resetRule"));
    m_resetSelected->setToolTip(tr("Reset the selected rule to its recommended threshold and built-in state"));
    m_resetSelected->setEnabled(false);
    row->addWidget(m_resetSelected);
    m_resetAll = new QPushButton(tr("Reset all"), page);
    m_resetAll->setObjectName(QStringLiteral("resetAllRules"));
    m_resetAll->setToolTip(tr("Reset every rule to its recommended threshold and built-in state"));
    row->addWidget(m_resetAll);
    layout->addLayout(row);

    m_ruleMessage = new QLabel(page);
    m_ruleMessage->setObjectName(QStringLiteral("ruleMessage"));
    m_ruleMessage->setWordWrap(true);
    m_ruleMessage->setContentsMargins(8, 0, 8, 6);
    m_ruleMessage->setToolTip(tr("Why the last threshold edit was not taken"));
    m_ruleMessage->hide();
    layout->addWidget(m_ruleMessage);

    m_rulesModel = new RulesModel(this);
    m_rulesProxy = new QSortFilterProxyModel(this);
    m_rulesProxy->setSourceModel(m_rulesModel);
    m_rulesProxy->setFilterKeyColumn(-1);
    m_rulesProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_rulesView = new QTreeView(page);
    m_rulesView->setObjectName(QStringLiteral("rulesView"));
    m_rulesView->setModel(m_rulesProxy);
    m_rulesView->setRootIsDecorated(false);
    m_rulesView->setUniformRowHeights(true);
    m_rulesView->setAlternatingRowColors(true);
    m_rulesView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rulesView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_rulesView->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                                 | QAbstractItemView::SelectedClicked);
    m_rulesView->setContextMenuPolicy(Qt::CustomContextMenu);
    m_thresholdDelegate = new ThresholdDelegate(this);
    m_rulesView->setItemDelegateForColumn(RulesModel::ThresholdColumn, m_thresholdDelegate);
    // What a user tunes and checks comes first, so a narrow dock still shows it: the rule, its threshold
    // and status; category and severity (also visible in the findings) come last.
    QHeaderView* header = m_rulesView->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(RulesModel::TitleColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(RulesModel::StatusColumn, QHeaderView::Interactive);
    header->resizeSection(RulesModel::TitleColumn, 220);
    header->resizeSection(RulesModel::StatusColumn, 280);
    header->moveSection(header->visualIndex(RulesModel::ThresholdColumn), 2);
    header->moveSection(header->visualIndex(RulesModel::RecommendedColumn), 3);
    header->moveSection(header->visualIndex(RulesModel::StatusColumn), 4);
    layout->addWidget(m_rulesView, 1);

    connect(m_rulesFilter, &QLineEdit::textChanged, m_rulesProxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_thresholdDelegate, &ThresholdDelegate::rejected, this, &AdvisorPanel::setRuleMessage);
    connect(m_rulesModel, &RulesModel::edited, this, [this] {
        setRuleMessage({});
        emit ruleBookEdited(m_rulesModel->ruleBook());
    });
    connect(m_rulesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { m_resetSelected->setEnabled(current.isValid()); });
    connect(m_rulesView, &QTreeView::customContextMenuRequested, this, &AdvisorPanel::showRuleMenu);
    connect(m_resetSelected, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_rulesView->currentIndex();
        if (current.isValid())
            resetToRecommended(current.data(RulesModel::RuleIdRole).toString());
    });
    connect(m_resetAll, &QPushButton::clicked, this, &AdvisorPanel::resetAllToRecommended);
    return page;
}

bool AdvisorPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_findingsView->viewport() && event->type() == QEvent::Resize)
        fitScopeColumn();
    return QWidget::eventFilter(watched, event);
}

void AdvisorPanel::fitScopeColumn()
{
    // The title column stretches; the scope column takes what its text needs, but at most a third of the
    // width, so that a narrow dock still shows the titles.
    const int width = m_findingsView->viewport()->width();
    int wanted = 80;
    if (m_report) {
        const QFontMetrics metrics = m_findingsView->fontMetrics();
        constexpr int kMeasured = 500; // enough to find the typical width; long lists need not be walked
        for (int i = 0; i < std::min<int>(int(m_report->findings.size()), kMeasured); ++i)
            wanted = std::max(wanted, metrics.horizontalAdvance(scopeText(m_report->findings.at(i).scope)) + 16);
    }
    m_findingsView->header()->resizeSection(FindingsModel::ScopeColumn, std::clamp(width / 3, 60, wanted));
}

// --- report ------------------------------------------------------------------------------------------

void AdvisorPanel::setReport(std::shared_ptr<const models::advisor::AdvisorReport> report)
{
    // The selection follows the finding (rule and scope) across evaluations, so a re-evaluation after a
    // threshold edit does not lose the user's place.
    QString selectedKey;
    if (const int current = currentFinding(); current >= 0) {
        const models::advisor::Finding& finding = m_report->findings.at(current);
        selectedKey = finding.ruleId + QLatin1Char('\n') + scopeText(finding.scope);
    }
    m_report = std::move(report);
    m_findingsModel->setFindings(m_report ? m_report->findings : QList<models::advisor::Finding> {});
    m_rulesModel->setStatuses(m_report ? m_report->statuses : QList<models::advisor::RuleStatus> {});
    restoreGroups();
    fitScopeColumn();
    if (!selectedKey.isEmpty() && m_report) {
        for (int i = 0; i < m_report->findings.size(); ++i) {
            const models::advisor::Finding& finding = m_report->findings.at(i);
            if (finding.ruleId + QLatin1Char('\n') + scopeText(finding.scope) == selectedKey) {
                const QModelIndex index = m_findingsModel->indexOfFinding(i);
                if (index.isValid())
                    m_findingsView->setCurrentIndex(index);
                break;
            }
        }
    }
    onCurrentFindingChanged();
    updateSeverityButtons();
    updateFindingsState();
    updateSummary();
    emit countsChanged(count(models::advisor::Severity::Error), count(models::advisor::Severity::Warning),
                       count(models::advisor::Severity::Info));
}

void AdvisorPanel::setRuleBook(const models::advisor::RuleBook& current, const models::advisor::RuleBook& builtIn)
{
    const QString selected = m_rulesView->currentIndex().data(RulesModel::RuleIdRole).toString();
    m_rulesModel->setRuleBook(current, builtIn);
    if (!selected.isEmpty()) {
        const int row = m_rulesModel->rowOf(selected);
        if (row >= 0)
            m_rulesView->setCurrentIndex(m_rulesProxy->mapFromSource(m_rulesModel->index(row, 0)));
    }
    updateFindingsState();
}

const models::advisor::RuleBook& AdvisorPanel::ruleBook() const
{
    return m_rulesModel->ruleBook();
}

void AdvisorPanel::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    m_busyLine->setVisible(busy);
    updateFindingsState();
}

int AdvisorPanel::count(models::advisor::Severity severity) const
{
    return m_report ? m_report->count(severity) : 0;
}

QString AdvisorPanel::titleSuffix() const
{
    if (!m_report)
        return {};
    QStringList parts;
    for (models::advisor::Severity severity :
         { models::advisor::Severity::Error, models::advisor::Severity::Warning, models::advisor::Severity::Info }) {
        if (const int n = count(severity))
            parts << countText(severity, n);
    }
    if (parts.isEmpty())
        return tr("(no problems)");
    return tr("(%1)").arg(parts.join(tr(", ")));
}

int AdvisorPanel::evaluatedRules() const
{
    if (!m_report)
        return 0;
    return int(std::count_if(m_report->statuses.cbegin(), m_report->statuses.cend(),
                             [](const models::advisor::RuleStatus& status) { return status.evaluated; }));
}

QString AdvisorPanel::summaryText() const
{
    return m_summary->text();
}

void AdvisorPanel::updateSummary()
{
    if (!m_report) {
        m_summary->setText(tr("No evaluation yet"));
        return;
    }
    const QString rules = tr("%1 of %n rules evaluated", nullptr, int(m_report->statuses.size())).arg(evaluatedRules());
    const QString suffix = titleSuffix();
    const QString findings = m_report->findings.isEmpty()
        ? tr("No problems found")
        : suffix.mid(1, suffix.size() - 2); // the counts without the parentheses
    m_summary->setText(tr("%1 \u00b7 %2").arg(findings, rules));
}

// --- findings tab --------------------------------------------------------------------------------------

void AdvisorPanel::setFilterText(const QString& text)
{
    m_filterEdit->setText(text); // applyFilter() runs from textChanged
}

void AdvisorPanel::setSeverityShown(models::advisor::Severity severity, bool shown)
{
    if (m_shownSeverities.contains(severity) == shown)
        return;
    if (shown)
        m_shownSeverities.insert(severity);
    else
        m_shownSeverities.remove(severity);
    if (QToolButton* button = severityButton(severity); button->isChecked() != shown)
        button->setChecked(shown);
    applyFilter();
}

QToolButton* AdvisorPanel::severityButton(models::advisor::Severity severity) const
{
    switch (severity) {
    case models::advisor::Severity::Error:
        return m_errorsButton;
    case models::advisor::Severity::Warning:
        return m_warningsButton;
    case models::advisor::Severity::Info:
        break;
    }
    return m_infoButton;
}

void AdvisorPanel::applyFilter()
{
    const int selected = currentFinding();
    m_findingsModel->setFilter(m_filterEdit->text(), m_shownSeverities);
    restoreGroups();
    if (selected >= 0) {
        const QModelIndex index = m_findingsModel->indexOfFinding(selected);
        if (index.isValid())
            m_findingsView->setCurrentIndex(index);
    }
    onCurrentFindingChanged();
    updateFindingsState();
}

void AdvisorPanel::restoreGroups()
{
    QSignalBlocker blocker(m_findingsView); // expanded()/collapsed() record the user's choices only
    // Group rows (comparisons, severities, categories) span the columns and keep their expanded state.
    std::function<void(const QModelIndex&)> restore = [&](const QModelIndex& parent) {
        for (int r = 0; r < m_findingsModel->rowCount(parent); ++r) {
            const QModelIndex index = m_findingsModel->index(r, 0, parent);
            if (index.data(FindingsModel::FindingIndexRole).toInt() >= 0)
                continue;
            m_findingsView->setExpanded(index, !m_collapsedGroups.contains(groupKey(index)));
            m_findingsView->setFirstColumnSpanned(r, parent, true);
            restore(index);
        }
    };
    restore({});
}

void AdvisorPanel::updateSeverityButtons()
{
    for (models::advisor::Severity severity :
         { models::advisor::Severity::Error, models::advisor::Severity::Warning, models::advisor::Severity::Info })
        severityButton(severity)->setText(countText(severity, count(severity)));
}

void AdvisorPanel::updateFindingsState()
{
    QString message;
    if (!m_report) {
        message = m_busy ? tr("Evaluating the rules\u2026")
                         : tr("Nothing to check yet. Open a run folder (File \u203a Open) with TensorBoard or "
                              "MindSpore summaries, profiler traces, memory files or tensor dumps: the Advisor "
                              "checks them against its rules and lists what looks wrong, with the evidence.");
    } else if (m_report->findings.isEmpty()) {
        const int evaluated = evaluatedRules();
        const int notEvaluated = int(m_report->statuses.size()) - evaluated;
        message = tr("No problems found \u2014 %1 rules evaluated, %2 not evaluated (missing data).")
                      .arg(evaluated)
                      .arg(notEvaluated);
        if (notEvaluated > 0)
            message += QLatin1Char('\n') + tr("The Rules tab says what each of those needs.");
    } else if (m_findingsModel->shownCount() == 0) {
        message = tr("No finding matches the filter (%n hidden).", nullptr, int(m_report->findings.size()));
    }
    m_emptyLabel->setText(message);
    m_findingsStack->setCurrentIndex(message.isEmpty() ? 1 : 0);
    const bool haveFindings = m_report && !m_report->findings.isEmpty();
    m_filterEdit->setEnabled(haveFindings);
    for (models::advisor::Severity severity :
         { models::advisor::Severity::Error, models::advisor::Severity::Warning, models::advisor::Severity::Info })
        severityButton(severity)->setEnabled(haveFindings);
    m_exportButton->setEnabled(m_report != nullptr);
}

bool AdvisorPanel::isShowingEmptyState() const
{
    return m_findingsStack->currentIndex() == 0;
}

QString AdvisorPanel::emptyStateText() const
{
    return isShowingEmptyState() ? m_emptyLabel->text() : QString();
}

int AdvisorPanel::currentFinding() const
{
    const QModelIndex current = m_findingsView->currentIndex();
    return current.isValid() ? current.data(FindingsModel::FindingIndexRole).toInt() : -1;
}

void AdvisorPanel::selectFinding(int findingIndex)
{
    if (!m_report || findingIndex < 0 || findingIndex >= m_report->findings.size())
        return;
    QModelIndex index = m_findingsModel->indexOfFinding(findingIndex);
    if (!index.isValid()) {
        m_filterEdit->clear();
        for (models::advisor::Severity severity :
             { models::advisor::Severity::Error, models::advisor::Severity::Warning, models::advisor::Severity::Info })
            setSeverityShown(severity, true);
        index = m_findingsModel->indexOfFinding(findingIndex);
    }
    m_findingsView->scrollTo(index);
    m_findingsView->setCurrentIndex(index);
}

void AdvisorPanel::onCurrentFindingChanged()
{
    const int finding = currentFinding();
    const bool valid = m_report && finding >= 0 && finding < m_report->findings.size();
    const std::optional<models::advisor::Finding> shown
        = valid ? std::optional<models::advisor::Finding>(m_report->findings.at(finding)) : std::nullopt;
    const bool changed = m_details->finding().has_value() != shown.has_value()
        || (shown
            && (m_details->finding()->ruleId != shown->ruleId || m_details->finding()->message != shown->message));
    m_details->setFinding(shown);
    if (changed)
        emit findingSelected(valid ? finding : -1);
}

bool AdvisorPanel::showEvidence()
{
    const QString locator = m_details->currentEvidence();
    if (locator.isEmpty())
        return false;
    emit evidenceRequested(locator);
    return true;
}

// --- rules tab -----------------------------------------------------------------------------------------

bool AdvisorPanel::setThreshold(const QString& ruleId, double threshold)
{
    const models::advisor::Rule* rule = m_rulesModel->ruleBook().rule(ruleId);
    if (!m_rulesModel->setThreshold(ruleId, threshold)) {
        if (rule) {
            setRuleMessage(tr("%1 is outside the range of rule %2 (%3); the threshold stays %4.")
                               .arg(models::advisor::formatValue(threshold, rule->unit), ruleId,
                                    RulesModel::rangeText(*rule),
                                    models::advisor::formatValue(rule->threshold, rule->unit)));
        }
        return false;
    }
    return true;
}

bool AdvisorPanel::setRuleEnabled(const QString& ruleId, bool enabled)
{
    return m_rulesModel->setEnabled(ruleId, enabled);
}

void AdvisorPanel::resetToRecommended(const QString& ruleId)
{
    m_rulesModel->resetToRecommended(ruleId);
}

void AdvisorPanel::resetAllToRecommended()
{
    m_rulesModel->resetAllToRecommended();
}

QString AdvisorPanel::ruleMessage() const
{
    return m_ruleMessage->text();
}

void AdvisorPanel::setRuleMessage(const QString& message)
{
    m_ruleMessage->setText(message);
    m_ruleMessage->setVisible(!message.isEmpty());
}

void AdvisorPanel::showRuleMenu(const QPoint& pos)
{
    const QModelIndex index = m_rulesView->indexAt(pos);
    if (!index.isValid())
        return;
    const QString id = index.data(RulesModel::RuleIdRole).toString();
    QMenu menu(this);
    QAction* reset = menu.addAction(tr("Reset %1 to recommended").arg(id));
    reset->setEnabled(index.data(RulesModel::ModifiedRole).toBool());
    connect(reset, &QAction::triggered, this, [this, id] { resetToRecommended(id); });
    QAction* edit = menu.addAction(tr("Edit threshold"));
    connect(edit, &QAction::triggered, this,
            [this, index] { m_rulesView->edit(index.siblingAtColumn(RulesModel::ThresholdColumn)); });
    menu.addSeparator();
    menu.addAction(tr("Reset all rules to recommended"), this, &AdvisorPanel::resetAllToRecommended);
    menu.exec(m_rulesView->viewport()->mapToGlobal(pos));
}

// --- export --------------------------------------------------------------------------------------------

QString AdvisorPanel::suffix(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Markdown:
        return QStringLiteral("md");
    case ExportFormat::Html:
        return QStringLiteral("html");
    case ExportFormat::Json:
        break;
    }
    return QStringLiteral("json");
}

QString AdvisorPanel::exportDirectory() const
{
    if (!m_exportDirectory.isEmpty())
        return m_exportDirectory;
    QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (dir.isEmpty() || !QDir(dir).exists())
        dir = QDir::homePath();
    return dir;
}

QString AdvisorPanel::uniqueDefaultFileName(ExportFormat format) const
{
    const QDir dir(exportDirectory());
    const QString ext = suffix(format);
    QString candidate = dir.filePath(QStringLiteral("advisor-report.") + ext);
    for (int i = 2; QFileInfo::exists(candidate) && i < 10000; ++i)
        candidate = dir.filePath(QStringLiteral("advisor-report-%1.%2").arg(i).arg(ext));
    return candidate;
}

QString AdvisorPanel::requestExport(ExportFormat format)
{
    if (!m_report)
        return {};
    QString fileName;
    if (m_fileNameProvider) {
        fileName = m_fileNameProvider(
            format, QDir(exportDirectory()).filePath(QStringLiteral("advisor-report.") + suffix(format)));
        if (fileName.isEmpty())
            return {};
        if (QFileInfo(fileName).suffix().isEmpty())
            fileName += QLatin1Char('.') + suffix(format);
    } else {
        fileName = uniqueDefaultFileName(format);
    }
    QString error;
    if (!exportReport(*m_report, fileName, &error)) {
        emit exportFailed(error);
        return {};
    }
    emit reportExported(fileName);
    return fileName;
}

bool AdvisorPanel::exportReport(const models::advisor::AdvisorReport& report, const QString& fileName, QString* error)
{
    const QString ext = QFileInfo(fileName).suffix().toLower();
    QByteArray bytes;
    if (ext == QLatin1String("md") || ext == QLatin1String("markdown")) {
        bytes = models::advisor::reportMarkdown(report).toUtf8();
    } else if (ext == QLatin1String("html") || ext == QLatin1String("htm")) {
        bytes = models::advisor::reportHtml(report).toUtf8();
    } else if (ext == QLatin1String("json")) {
        bytes = QJsonDocument(models::advisor::reportJson(report)).toJson(QJsonDocument::Indented);
    } else {
        if (error)
            *error = tr("Cannot export the Advisor report to %1: use a .md, .html or .json file name.")
                         .arg(QDir::toNativeSeparators(fileName));
        return false;
    }
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = tr("Cannot write the Advisor report to %1: %2")
                         .arg(QDir::toNativeSeparators(fileName), file.errorString());
        return false;
    }
    return true;
}

} // namespace runlens::widgets::advisor
