#include "models/advisor/evidence.h"
#include "widgets/advisor/advisorpanel.h"
#include "widgets/advisor/findingdetails.h"
#include "widgets/advisor/findingsmodel.h"
#include "widgets/advisor/rulesmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

using namespace runlens::models::advisor;
using namespace runlens::widgets::advisor;

namespace {

QJsonObject ruleEntry(const char* id, const char* category, const char* severity, const char* title, const char* unit,
                      double recommended, QJsonArray range, const char* comparator = ">")
{
    return QJsonObject { { QStringLiteral("id"), QLatin1String(id) },
                         { QStringLiteral("category"), QLatin1String(category) },
                         { QStringLiteral("severity"), QLatin1String(severity) },
                         { QStringLiteral("title"), QLatin1String(title) },
                         { QStringLiteral("message"), QStringLiteral("{value} against {threshold}") },
                         { QStringLiteral("advice"), QStringLiteral("Try something.") },
                         { QStringLiteral("metric"), QStringLiteral("test.%1").arg(QLatin1String(id)) },
                         { QStringLiteral("condition"),
                           QJsonObject { { QStringLiteral("comparator"), QLatin1String(comparator) },
                                         { QStringLiteral("recommended"), recommended },
                                         { QStringLiteral("range"), range } } },
                         { QStringLiteral("unit"), QLatin1String(unit) },
                         { QStringLiteral("scope"), QStringLiteral("run") },
                         { QStringLiteral("evidence"), QStringLiteral("scalar") },
                         { QStringLiteral("report"), QStringLiteral("each") } };
}

/// Five rules: three accuracy/performance rules with findings, a distributed info rule, and a memory rule
/// that could not be evaluated.
RuleBook makeBook()
{
    const QJsonArray rules {
        ruleEntry("loss-nan", "accuracy", "error", "Loss became NaN or infinite", "count", 0, { 0, 0 }),
        ruleEntry("weight-update-large", "accuracy", "warning", "Weights change too fast", "ratio", 0.1, { 0, 10 }),
        ruleEntry("dataloader-share", "performance", "warning", "Data loading takes a large share of the step",
                  "percent", 5, { 0, 100 }),
        ruleEntry("rank-slow", "distributed", "info", "A rank is slower than the others", "percent", 20, { 0, 100 }),
        ruleEntry("memory-peak", "memory", "warning", "Memory peak close to the device capacity", "percent", 90,
                  { 50, 100 }),
    };
    RuleBook book;
    QStringList problems;
    book.apply(QJsonObject { { QStringLiteral("rules"), rules } }, QStringLiteral("test"), &problems);
    if (!problems.isEmpty())
        qWarning() << problems;
    return book;
}

Finding finding(const char* rule, Severity severity, Category category, const char* title, double value,
                double threshold, Unit unit, Scope scope, QStringList evidence, const char* message)
{
    Finding f;
    f.ruleId = QLatin1String(rule);
    f.severity = severity;
    f.category = category;
    f.title = QLatin1String(title);
    f.value = value;
    f.threshold = threshold;
    f.unit = unit;
    f.scope = std::move(scope);
    f.evidence = std::move(evidence);
    f.message = QLatin1String(message);
    f.advice = QStringLiteral("Advice for %1.").arg(f.ruleId);
    return f;
}

const QString kLossLocator = scalarEvidence(QStringLiteral("lr_high"), QStringLiteral("train/loss"), 120);
const QString kNodeLocator = graphEvidence(QStringLiteral("Default/fc3/MatMul-op12"));
const QString kTraceLocator = traceEvidence(QStringLiteral("/runs/a/trace.json"), 1000000, 9000000, 0);

/// Four findings (1 error, 2 warnings in two categories, 1 info) and one rule not evaluated.
std::shared_ptr<const AdvisorReport> makeReport()
{
    auto report = std::make_shared<AdvisorReport>();
    Scope lossScope;
    lossScope.run = QStringLiteral("lr_high");
    lossScope.step = 120;
    report->findings << finding("loss-nan", Severity::Error, Category::Accuracy, "Loss became NaN or infinite", 1, 0,
                                Unit::Count, lossScope, { kLossLocator, kNodeLocator },
                                "train/loss of run lr_high is NaN at step 120.");
    Scope layerScope;
    layerScope.run = QStringLiteral("lr_high");
    layerScope.layer = QStringLiteral("conv1");
    report->findings << finding("weight-update-large", Severity::Warning, Category::Accuracy, "Weights change too fast",
                                0.37, 0.1, Unit::Ratio, layerScope,
                                { histogramEvidence(QStringLiteral("lr_high"), QStringLiteral("conv1.weight"), 40) },
                                "conv1 changes by 0.37 of its size per step.");
    Scope runScope;
    runScope.run = QStringLiteral("slow_loader");
    report->findings << finding("dataloader-share", Severity::Warning, Category::Performance,
                                "Data loading takes a large share of the step", 37.5, 5, Unit::Percent, runScope,
                                { kTraceLocator }, "The DataLoader takes 37.5 % of each step.");
    Scope rankScope;
    rankScope.run = QStringLiteral("cluster");
    rankScope.rank = 3;
    report->findings << finding("rank-slow", Severity::Info, Category::Distributed, "A rank is slower than the others",
                                28, 20, Unit::Percent, rankScope, {}, "Rank 3 is 28 % slower than the mean.");
    const std::pair<const char*, int> evaluated[]
        = { { "loss-nan", 1 }, { "weight-update-large", 1 }, { "dataloader-share", 1 }, { "rank-slow", 1 } };
    for (const auto& [id, count] : evaluated)
        report->statuses << RuleStatus { QLatin1String(id), true, {}, count, count };
    report->statuses << RuleStatus { QStringLiteral("memory-peak"), false,
                                     QStringLiteral("no memory profile is loaded"), 0, 0 };
    return report;
}

std::shared_ptr<const AdvisorReport> cleanReport()
{
    auto report = std::make_shared<AdvisorReport>();
    report->statuses << RuleStatus { QStringLiteral("loss-nan"), true, {}, 0, 0 }
                     << RuleStatus { QStringLiteral("weight-update-large"), true, {}, 0, 0 }
                     << RuleStatus { QStringLiteral("dataloader-share"), true, {}, 0, 0 }
                     << RuleStatus { QStringLiteral("rank-slow"), false, QStringLiteral("only one rank is loaded"), 0,
                                     0 }
                     << RuleStatus { QStringLiteral("memory-peak"), false,
                                     QStringLiteral("no memory profile is loaded"), 0, 0 };
    return report;
}

QStringList childTexts(const QAbstractItemModel* model, const QModelIndex& parent)
{
    QStringList texts;
    for (int row = 0; row < model->rowCount(parent); ++row)
        texts << model->index(row, 0, parent).data().toString();
    return texts;
}

/// The proxy index of rule `id` in the Rules tab at `column`.
QModelIndex ruleIndex(const AdvisorPanel& panel, const QString& id, int column)
{
    const int row = panel.rulesModel()->rowOf(id);
    return panel.rulesProxy()->mapFromSource(panel.rulesModel()->index(row, column));
}

/// Types `text` into the threshold editor of rule `id` and presses Enter.
void editThreshold(AdvisorPanel& panel, const QString& id, const QString& text)
{
    QTreeView* view = panel.rulesView();
    const QModelIndex index = ruleIndex(panel, id, RulesModel::ThresholdColumn);
    view->setCurrentIndex(index);
    view->edit(index);
    auto* editor = view->findChild<QLineEdit*>(QStringLiteral("thresholdEdit"));
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_VERIFY(!view->findChild<QLineEdit*>(QStringLiteral("thresholdEdit"))
                || !view->findChild<QLineEdit*>(QStringLiteral("thresholdEdit"))->isVisible());
}

} // namespace

class TestAdvisorPanel : public QObject
{
    Q_OBJECT

private slots:
    void emptyStateSaysWhatToOpen();
    void cleanReportSaysHowManyRulesRan();
    void findingsAreGroupedBySeverityThenCategoryWithCounts();
    void comparisonFindingsHaveTheirOwnGroup();
    void titleSuffixCountsSeverities();
    void textFilterAndSeverityToggles();
    void detailsShowNumbersAdviceAndScope();
    void showEvidenceEmitsLocators();
    void busyKeepsOldFindings();
    void selectionSurvivesReevaluation();
    void thresholdEditWithinRangeEmitsEditedBook();
    void thresholdEditOutOfRangeIsRejected();
    void enabledToggleAndResetToRecommended();
    void notEvaluatedReasonsAreShown();
    void exportWritesMarkdownHtmlAndJson();
    void exportThroughProvider();
    void rendersReadably();
};

void TestAdvisorPanel::emptyStateSaysWhatToOpen()
{
    AdvisorPanel panel;
    QVERIFY(panel.isShowingEmptyState());
    QVERIFY2(panel.emptyStateText().contains(QLatin1String("Open a run folder")), qPrintable(panel.emptyStateText()));
    QVERIFY(panel.titleSuffix().isEmpty());
    QVERIFY(!panel.exportButton()->isEnabled());
    QVERIFY(!panel.filterEdit()->isEnabled());
}

void TestAdvisorPanel::cleanReportSaysHowManyRulesRan()
{
    AdvisorPanel panel;
    panel.setRuleBook(makeBook(), makeBook());
    panel.setReport(cleanReport());
    QVERIFY(panel.isShowingEmptyState());
    QVERIFY2(panel.emptyStateText().startsWith(
                 QStringLiteral("No problems found \u2014 3 rules evaluated, 2 not evaluated (missing data).")),
             qPrintable(panel.emptyStateText()));
    QCOMPARE(panel.titleSuffix(), QStringLiteral("(no problems)"));
    QVERIFY(panel.exportButton()->isEnabled());
}

void TestAdvisorPanel::findingsAreGroupedBySeverityThenCategoryWithCounts()
{
    AdvisorPanel panel;
    FindingsModel* model = panel.findingsModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setReport(makeReport());
    QVERIFY(!panel.isShowingEmptyState());

    QCOMPARE(childTexts(model, {}), (QStringList { "Error (1)", "Warning (2)", "Info (1)" }));
    const QModelIndex warnings = model->index(1, 0);
    QCOMPARE(warnings.data(FindingsModel::CountRole).toInt(), 2);
    QCOMPARE(childTexts(model, warnings), (QStringList { "Accuracy (1)", "Performance (1)" }));
    const QModelIndex performance = model->index(1, 0, warnings);
    QCOMPARE(model->rowCount(performance), 1);
    const QModelIndex loader = model->index(0, 0, performance);
    QCOMPARE(loader.data().toString(), QStringLiteral("Data loading takes a large share of the step"));
    QCOMPARE(loader.siblingAtColumn(FindingsModel::ScopeColumn).data().toString(), QStringLiteral("run slow_loader"));
    QCOMPARE(loader.siblingAtColumn(FindingsModel::ValueColumn).data().toString(), formatValue(37.5, Unit::Percent));
    QCOMPARE(loader.siblingAtColumn(FindingsModel::ThresholdColumn).data().toString(),
             QStringLiteral("> ") + formatValue(5, Unit::Percent));
    QCOMPARE(loader.data(FindingsModel::FindingIndexRole).toInt(), 2);
    // Groups are expanded so every finding is visible at once.
    QVERIFY(panel.findingsView()->isExpanded(warnings));
    QVERIFY(panel.findingsView()->isExpanded(performance));
    const QModelIndex error = model->index(0, 0, model->index(0, 0, model->index(0, 0)));
    QCOMPARE(error.siblingAtColumn(FindingsModel::ScopeColumn).data().toString(),
             QStringLiteral("run lr_high \u00b7 step 120"));
}

// A dump comparison's findings follow the run's in a group titled with the comparison, with severity and category
// groups inside; collapsing it is remembered apart from the run's groups of the same severity.
void TestAdvisorPanel::comparisonFindingsHaveTheirOwnGroup()
{
    AdvisorPanel panel;
    FindingsModel* model = panel.findingsModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto report = std::make_shared<AdvisorReport>(*makeReport());
    Scope scope;
    scope.comparison = QStringLiteral("fp32 vs fp16");
    scope.tensor = QStringLiteral("layers.2.output");
    report->findings << finding("comparison-error-introduced", Severity::Error, Category::Accuracy,
                                "Error introduced at an op", 5, 0, Unit::Count, scope,
                                { compareEvidence(scope.tensor) }, "The numbers part at layers.2.output.");
    report->findings << finding("comparison-half-underflow", Severity::Warning, Category::Accuracy,
                                "Half precision underflow", 14.1, 1, Unit::Percent, scope,
                                { compareEvidence(scope.tensor) }, "Half precision underflow at layers.2.output.");
    panel.setReport(report);

    QCOMPARE(childTexts(model, {}),
             (QStringList { "Error (1)", "Warning (2)", "Info (1)", "Comparison fp32 vs fp16 (2)" }));
    const QModelIndex section = model->index(3, 0);
    QVERIFY(section.data(FindingsModel::IsSectionRole).toBool());
    QCOMPARE(section.data(FindingsModel::SectionRole).toString(), QStringLiteral("fp32 vs fp16"));
    QCOMPARE(section.data(FindingsModel::SeverityRole).toInt(), int(Severity::Error));
    QCOMPARE(childTexts(model, section), (QStringList { "Error (1)", "Warning (1)" }));
    const QModelIndex introduced = model->index(0, 0, model->index(0, 0, model->index(0, 0, section)));
    QCOMPARE(introduced.data().toString(), QStringLiteral("Error introduced at an op"));
    QCOMPARE(introduced.data(FindingsModel::FindingIndexRole).toInt(), 4);
    QCOMPARE(introduced.data(FindingsModel::SectionRole).toString(), QStringLiteral("fp32 vs fp16"));
    QVERIFY(panel.findingsView()->isExpanded(section));
    QVERIFY(panel.findingsView()->isExpanded(introduced.parent()));

    // The run's error group stays the first row and holds the run's error only.
    QCOMPARE(model->index(0, 0).data(FindingsModel::CountRole).toInt(), 1);
    panel.findingsView()->collapse(model->index(0, 0, section));
    panel.setReport(report);
    QVERIFY(!panel.findingsView()->isExpanded(model->index(0, 0, model->index(3, 0))));
    QVERIFY(panel.findingsView()->isExpanded(model->index(0, 0)));

    // Selecting the finding shows its evidence, the row of the comparison.
    QSignalSpy evidence(&panel, &AdvisorPanel::evidenceRequested);
    panel.selectFinding(4);
    QVERIFY(panel.showEvidence());
    QCOMPARE(evidence.size(), 1);
    QCOMPARE(evidence.first().first().toString(), compareEvidence(QStringLiteral("layers.2.output")));
}

void TestAdvisorPanel::titleSuffixCountsSeverities()
{
    AdvisorPanel panel;
    QSignalSpy counts(&panel, &AdvisorPanel::countsChanged);
    panel.setReport(makeReport());
    QCOMPARE(panel.titleSuffix(), QStringLiteral("(1 error, 2 warnings, 1 info)"));
    QCOMPARE(counts.size(), 1);
    QCOMPARE(counts.at(0), (QVariantList { 1, 2, 1 }));
    QCOMPARE(panel.severityButton(Severity::Warning)->text(), QStringLiteral("2 warnings"));
    QVERIFY(panel.summaryText().contains(QLatin1String("4 of 5 rules evaluated")));
    panel.setReport(nullptr);
    QVERIFY(panel.titleSuffix().isEmpty());
    QCOMPARE(counts.last(), (QVariantList { 0, 0, 0 }));
    QVERIFY(panel.isShowingEmptyState());
}

void TestAdvisorPanel::textFilterAndSeverityToggles()
{
    AdvisorPanel panel;
    FindingsModel* model = panel.findingsModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setReport(makeReport());

    // Words match title, message, advice, rule id and scope, case-insensitively, all of them.
    QTest::keyClicks(panel.filterEdit(), QStringLiteral("DATALOADER"));
    QCOMPARE(model->shownCount(), 1);
    QCOMPARE(childTexts(model, {}), (QStringList { "Warning (1)" }));
    QCOMPARE(childTexts(model, model->index(0, 0)), (QStringList { "Performance (1)" }));
    panel.setFilterText(QStringLiteral("lr_high conv1"));
    QCOMPARE(model->shownCount(), 1);
    QCOMPARE(model->index(0, 0, model->index(0, 0, model->index(0, 0))).data(FindingsModel::FindingIndexRole).toInt(),
             1);
    panel.setFilterText(QStringLiteral("no such words"));
    QCOMPARE(model->shownCount(), 0);
    QVERIFY(panel.isShowingEmptyState());
    QVERIFY(panel.emptyStateText().contains(QLatin1String("No finding matches the filter")));
    panel.setFilterText({});
    QCOMPARE(model->shownCount(), 4);
    QVERIFY(!panel.isShowingEmptyState());

    // Severity toggles hide whole groups.
    panel.severityButton(Severity::Error)->click();
    QVERIFY(!panel.isSeverityShown(Severity::Error));
    QCOMPARE(childTexts(model, {}), (QStringList { "Warning (2)", "Info (1)" }));
    panel.severityButton(Severity::Warning)->click();
    QCOMPARE(childTexts(model, {}), (QStringList { "Info (1)" }));
    QCOMPARE(model->shownCount(), 1);
    panel.setSeverityShown(Severity::Error, true);
    QVERIFY(panel.severityButton(Severity::Error)->isChecked());
    QCOMPARE(childTexts(model, {}), (QStringList { "Error (1)", "Info (1)" }));

    // Selecting a hidden finding shows everything again.
    panel.selectFinding(2);
    QCOMPARE(panel.currentFinding(), 2);
    QCOMPARE(model->shownCount(), 4);
}

void TestAdvisorPanel::detailsShowNumbersAdviceAndScope()
{
    AdvisorPanel panel;
    panel.resize(900, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy selected(&panel, &AdvisorPanel::findingSelected);
    panel.setReport(makeReport());
    QVERIFY(panel.details()->plainText().contains(QLatin1String("Select a finding")));
    QVERIFY(!panel.details()->showEvidenceButton()->isEnabled());

    const QModelIndex loader = panel.findingsModel()->indexOfFinding(2);
    QTest::mouseClick(panel.findingsView()->viewport(), Qt::LeftButton, {},
                      panel.findingsView()->visualRect(loader).center());
    QCOMPARE(panel.currentFinding(), 2);
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.at(0).at(0).toInt(), 2);
    const QString text = panel.details()->plainText();
    QVERIFY2(text.contains(QLatin1String("Data loading takes a large share of the step")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("The DataLoader takes 37.5 % of each step.")));
    QVERIFY(text.contains(formatValue(37.5, Unit::Percent)));
    QVERIFY(text.contains(QStringLiteral("> ") + formatValue(5, Unit::Percent)));
    QVERIFY(text.contains(QLatin1String("run slow_loader")));
    QVERIFY(text.contains(QLatin1String("Advice for dataloader-share.")));
    QVERIFY(text.contains(QLatin1String("dataloader-share")));
    QVERIFY(text.contains(QLatin1String("Performance")));
}

void TestAdvisorPanel::showEvidenceEmitsLocators()
{
    AdvisorPanel panel;
    panel.resize(900, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy evidence(&panel, &AdvisorPanel::evidenceRequested);
    panel.setReport(makeReport());

    // A finding with two locators lists both; the button shows the picked one, the first by default.
    panel.selectFinding(0);
    QListWidget* list = panel.details()->evidenceList();
    QVERIFY(list->isVisible());
    QCOMPARE(list->count(), 2);
    QVERIFY(list->item(0)->text().contains(QLatin1String("train/loss")));
    QVERIFY(list->item(1)->text().contains(QLatin1String("Default/fc3/MatMul-op12")));
    QTest::mouseClick(panel.details()->showEvidenceButton(), Qt::LeftButton);
    QCOMPARE(evidence.size(), 1);
    QCOMPARE(evidence.at(0).at(0).toString(), kLossLocator);
    list->setCurrentRow(1);
    QTest::mouseClick(panel.details()->showEvidenceButton(), Qt::LeftButton);
    QCOMPARE(evidence.last().at(0).toString(), kNodeLocator);

    // One locator: no list; a finding without evidence disables the button.
    panel.selectFinding(2);
    QVERIFY(!list->isVisible());
    QVERIFY(panel.showEvidence());
    QCOMPARE(evidence.last().at(0).toString(), kTraceLocator);
    panel.selectFinding(3);
    QVERIFY(!panel.details()->showEvidenceButton()->isEnabled());
    QVERIFY(!panel.showEvidence());

    // Double-click on a finding shows its first evidence; on a group row it does not.
    evidence.clear();
    QTreeView* view = panel.findingsView();
    const QModelIndex loss = panel.findingsModel()->indexOfFinding(0);
    // A real double-click is a press and release, then the second press delivered as a double-click.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(loss).center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(loss).center());
    QCOMPARE(evidence.size(), 1);
    QCOMPARE(evidence.at(0).at(0).toString(), kLossLocator);
    const QPoint group = view->visualRect(panel.findingsModel()->index(1, 0)).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, group);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, group);
    QCOMPARE(evidence.size(), 1);
}

void TestAdvisorPanel::busyKeepsOldFindings()
{
    AdvisorPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(!panel.busyIndicator()->isVisible());
    panel.setBusy(true);
    QVERIFY(panel.busyIndicator()->isVisible());
    QVERIFY(panel.emptyStateText().contains(QLatin1String("Evaluating")));
    panel.setReport(makeReport());
    QVERIFY(panel.isBusy());
    QVERIFY(!panel.isShowingEmptyState());
    QCOMPARE(panel.findingsModel()->shownCount(), 4);
    panel.setBusy(false);
    QVERIFY(!panel.busyIndicator()->isVisible());
    QCOMPARE(panel.findingsModel()->shownCount(), 4);
}

void TestAdvisorPanel::selectionSurvivesReevaluation()
{
    AdvisorPanel panel;
    panel.setReport(makeReport());
    panel.selectFinding(1);
    // The same finding comes back at another index (an error before it disappeared).
    auto next = std::make_shared<AdvisorReport>(*makeReport());
    next->findings.removeFirst();
    panel.setReport(next);
    QCOMPARE(panel.currentFinding(), 0);
    QCOMPARE(panel.details()->finding()->ruleId, QStringLiteral("weight-update-large"));
    // User-collapsed groups stay collapsed.
    const QModelIndex warnings = panel.findingsModel()->index(0, 0);
    QCOMPARE(warnings.data().toString(), QStringLiteral("Warning (2)"));
    panel.findingsView()->collapse(warnings);
    panel.setReport(makeReport());
    QVERIFY(!panel.findingsView()->isExpanded(panel.findingsModel()->index(1, 0)));
    QVERIFY(panel.findingsView()->isExpanded(panel.findingsModel()->index(0, 0)));
}

void TestAdvisorPanel::thresholdEditWithinRangeEmitsEditedBook()
{
    AdvisorPanel panel;
    panel.resize(1000, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.tabs()->setCurrentIndex(1);
    const RuleBook book = makeBook();
    QCOMPARE(book.rules().size(), 5);
    panel.setRuleBook(book, book);
    panel.setReport(makeReport());
    QAbstractItemModelTester tester(panel.rulesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy edited(&panel, &AdvisorPanel::ruleBookEdited);

    const QModelIndex threshold = ruleIndex(panel, QStringLiteral("dataloader-share"), RulesModel::ThresholdColumn);
    QCOMPARE(threshold.data().toString(), QStringLiteral("> ") + formatValue(5, Unit::Percent));
    editThreshold(panel, QStringLiteral("dataloader-share"), QStringLiteral("12.5"));
    QCOMPARE(edited.size(), 1);
    const auto emitted = edited.at(0).at(0).value<RuleBook>();
    QCOMPARE(emitted.rule(QStringLiteral("dataloader-share"))->threshold, 12.5);
    QCOMPARE(emitted.rule(QStringLiteral("dataloader-share"))->recommended, 5.0);
    QCOMPARE(emitted.rule(QStringLiteral("weight-update-large"))->threshold, 0.1);
    QCOMPARE(panel.ruleBook().rule(QStringLiteral("dataloader-share"))->threshold, 12.5);
    QCOMPARE(threshold.data().toString(), QStringLiteral("> ") + formatValue(12.5, Unit::Percent));
    QVERIFY(threshold.data(RulesModel::ModifiedRole).toBool());
    QVERIFY(panel.ruleMessage().isEmpty());

    // Scientific notation is accepted.
    editThreshold(panel, QStringLiteral("weight-update-large"), QStringLiteral("2e-3"));
    QCOMPARE(edited.size(), 2);
    QCOMPARE(edited.last().at(0).value<RuleBook>().rule(QStringLiteral("weight-update-large"))->threshold, 2e-3);
    QVERIFY(panel.setThreshold(QStringLiteral("memory-peak"), 50));
    QCOMPARE(edited.last().at(0).value<RuleBook>().rule(QStringLiteral("memory-peak"))->threshold, 50.0);
}

void TestAdvisorPanel::thresholdEditOutOfRangeIsRejected()
{
    AdvisorPanel panel;
    panel.resize(1000, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.tabs()->setCurrentIndex(1);
    panel.setRuleBook(makeBook(), makeBook());
    QSignalSpy edited(&panel, &AdvisorPanel::ruleBookEdited);

    editThreshold(panel, QStringLiteral("dataloader-share"), QStringLiteral("150"));
    QCOMPARE(edited.size(), 0);
    QCOMPARE(panel.ruleBook().rule(QStringLiteral("dataloader-share"))->threshold, 5.0);
    QVERIFY2(panel.ruleMessage().contains(QLatin1String("outside")), qPrintable(panel.ruleMessage()));
    QVERIFY(panel.findChild<QLabel*>(QStringLiteral("ruleMessage"))->isVisible());

    // The lower end of memory-peak's range is 50 %; loss-nan's range is the single value 0.
    QVERIFY(!panel.setThreshold(QStringLiteral("memory-peak"), 49.9));
    QVERIFY(panel.ruleMessage().contains(QLatin1String("memory-peak")));
    QVERIFY(!panel.setThreshold(QStringLiteral("loss-nan"), 1));
    QVERIFY(!panel.setThreshold(QStringLiteral("no-such-rule"), 1));
    QVERIFY(!panel.rulesModel()->setData(
        ruleIndex(panel, QStringLiteral("weight-update-large"), RulesModel::ThresholdColumn), -0.5));
    QCOMPARE(edited.size(), 0);
    QCOMPARE(panel.ruleBook().rule(QStringLiteral("memory-peak"))->threshold, 90.0);
    QCOMPARE(panel.ruleBook().rule(QStringLiteral("weight-update-large"))->threshold, 0.1);

    // The range bounds themselves are valid; a good edit clears the message.
    QVERIFY(panel.setThreshold(QStringLiteral("memory-peak"), 100));
    QCOMPARE(edited.size(), 1);
    QVERIFY(panel.ruleMessage().isEmpty());
}

void TestAdvisorPanel::enabledToggleAndResetToRecommended()
{
    AdvisorPanel panel;
    panel.setRuleBook(makeBook(), makeBook());
    QSignalSpy edited(&panel, &AdvisorPanel::ruleBookEdited);
    RulesModel* model = panel.rulesModel();

    const QModelIndex check = model->index(model->rowOf(QStringLiteral("rank-slow")), RulesModel::RuleColumn);
    QCOMPARE(check.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
    QVERIFY(model->setData(check, int(Qt::Unchecked), Qt::CheckStateRole));
    QCOMPARE(edited.size(), 1);
    QVERIFY(!edited.last().at(0).value<RuleBook>().rule(QStringLiteral("rank-slow"))->enabled);
    QCOMPARE(check.siblingAtColumn(RulesModel::StatusColumn).data().toString(), QStringLiteral("Disabled"));

    QVERIFY(panel.setThreshold(QStringLiteral("dataloader-share"), 30));
    QVERIFY(panel.setThreshold(QStringLiteral("memory-peak"), 75));
    QCOMPARE(edited.size(), 3);

    // Per rule: threshold back to recommended, the other edits stay.
    panel.resetToRecommended(QStringLiteral("dataloader-share"));
    QCOMPARE(edited.size(), 4);
    RuleBook book = edited.last().at(0).value<RuleBook>();
    QCOMPARE(book.rule(QStringLiteral("dataloader-share"))->threshold, 5.0);
    QCOMPARE(book.rule(QStringLiteral("memory-peak"))->threshold, 75.0);
    QVERIFY(!book.rule(QStringLiteral("rank-slow"))->enabled);
    // Resetting a rule that is already at its recommended state changes nothing.
    panel.resetToRecommended(QStringLiteral("dataloader-share"));
    QCOMPARE(edited.size(), 4);

    // All rules, through the button.
    QTest::mouseClick(panel.findChild<QPushButton*>(QStringLiteral("resetAllRules")), Qt::LeftButton);
    QCOMPARE(edited.size(), 5);
    book = edited.last().at(0).value<RuleBook>();
    QCOMPARE(book.rule(QStringLiteral("memory-peak"))->threshold, 90.0);
    QVERIFY(book.rule(QStringLiteral("rank-slow"))->enabled);
    for (int row = 0; row < model->rowCount(); ++row)
        QVERIFY(!model->index(row, 0).data(RulesModel::ModifiedRole).toBool());
}

void TestAdvisorPanel::notEvaluatedReasonsAreShown()
{
    AdvisorPanel panel;
    panel.setRuleBook(makeBook(), makeBook());
    RulesModel* model = panel.rulesModel();
    const QModelIndex memory = model->index(model->rowOf(QStringLiteral("memory-peak")), RulesModel::StatusColumn);
    QCOMPARE(memory.data().toString(), QStringLiteral("Not run yet"));
    panel.setReport(makeReport());
    QCOMPARE(memory.data().toString(), QStringLiteral("Not evaluated: no memory profile is loaded"));
    QVERIFY(memory.data(Qt::ToolTipRole).toString().contains(QLatin1String("no memory profile is loaded")));
    const QModelIndex loss = model->index(model->rowOf(QStringLiteral("loss-nan")), RulesModel::StatusColumn);
    QVERIFY2(loss.data().toString().startsWith(QLatin1String("Evaluated")), qPrintable(loss.data().toString()));
    QVERIFY(loss.data().toString().contains(QLatin1Char('1')));
    QCOMPARE(loss.siblingAtColumn(RulesModel::TitleColumn).data().toString(),
             QStringLiteral("Loss became NaN or infinite"));
    QCOMPARE(loss.siblingAtColumn(RulesModel::CategoryColumn).data().toString(), displayName(Category::Accuracy));
    QCOMPARE(loss.siblingAtColumn(RulesModel::SeverityColumn).data().toString(), displayName(Severity::Error));
    QCOMPARE(memory.siblingAtColumn(RulesModel::RecommendedColumn).data().toString(), formatValue(90, Unit::Percent));

    // The rules filter finds rules by their status too.
    auto* filter = panel.findChild<QLineEdit*>(QStringLiteral("rulesFilter"));
    QTest::keyClicks(filter, QStringLiteral("not evaluated"));
    QCOMPARE(panel.rulesProxy()->rowCount(), 1);
    QCOMPARE(panel.rulesProxy()->index(0, 0).data(RulesModel::RuleIdRole).toString(), QStringLiteral("memory-peak"));
}

void TestAdvisorPanel::exportWritesMarkdownHtmlAndJson()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto report = makeReport();
    QString error;

    const QString json = dir.filePath(QStringLiteral("report.json"));
    QVERIFY2(AdvisorPanel::exportReport(*report, json, &error), qPrintable(error));
    QFile jsonFile(json);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(jsonFile.readAll(), &parseError);
    QCOMPARE(parseError.error, QJsonParseError::NoError);
    const QJsonArray findings = document.object().value(QStringLiteral("findings")).toArray();
    QCOMPARE(findings.size(), report->findings.size());
    for (int i = 0; i < findings.size(); ++i) {
        const QJsonObject entry = findings.at(i).toObject();
        const Finding& expected = report->findings.at(i);
        QCOMPARE(entry.value(QStringLiteral("rule")).toString(), expected.ruleId);
        QCOMPARE(entry.value(QStringLiteral("severity")).toString(), toString(expected.severity));
        QCOMPARE(entry.value(QStringLiteral("category")).toString(), toString(expected.category));
        QCOMPARE(entry.value(QStringLiteral("value")).toDouble(), expected.value);
        QCOMPARE(entry.value(QStringLiteral("threshold")).toDouble(), expected.threshold);
        QCOMPARE(entry.value(QStringLiteral("message")).toString(), expected.message);
        QCOMPARE(entry.value(QStringLiteral("evidence")).toArray().size(), expected.evidence.size());
    }
    QCOMPARE(findings.at(0).toObject().value(QStringLiteral("scope")).toObject().value(QStringLiteral("step")).toInt(),
             120);
    QCOMPARE(findings.at(0).toObject().value(QStringLiteral("evidence")).toArray().at(1).toString(), kNodeLocator);

    const QString markdown = dir.filePath(QStringLiteral("report.md"));
    QVERIFY2(AdvisorPanel::exportReport(*report, markdown, &error), qPrintable(error));
    QFile markdownFile(markdown);
    QVERIFY(markdownFile.open(QIODevice::ReadOnly));
    const QString markdownText = QString::fromUtf8(markdownFile.readAll());
    QVERIFY(markdownText.contains(QLatin1String("Loss became NaN or infinite")));
    QVERIFY(markdownText.contains(QLatin1String("Advice for dataloader-share.")));
    QVERIFY(!markdownText.contains(QLatin1String("<html"), Qt::CaseInsensitive));

    const QString html = dir.filePath(QStringLiteral("report.HTML"));
    QVERIFY2(AdvisorPanel::exportReport(*report, html, &error), qPrintable(error));
    QFile htmlFile(html);
    QVERIFY(htmlFile.open(QIODevice::ReadOnly));
    const QString htmlText = QString::fromUtf8(htmlFile.readAll());
    QVERIFY(htmlText.contains(QLatin1String("<html"), Qt::CaseInsensitive));
    QVERIFY(htmlText.contains(QLatin1String("Weights change too fast")));

    // Unknown suffixes and unwritable places fail with a message naming the file.
    const QString text = dir.filePath(QStringLiteral("report.txt"));
    QVERIFY(!AdvisorPanel::exportReport(*report, text, &error));
    QVERIFY(error.contains(QDir::toNativeSeparators(text)));
    QVERIFY(!QFile::exists(text));
    const QString missing = dir.filePath(QStringLiteral("no/such/folder/report.json"));
    QVERIFY(!AdvisorPanel::exportReport(*report, missing, &error));
    QVERIFY(error.contains(QDir::toNativeSeparators(missing)));
}

void TestAdvisorPanel::exportThroughProvider()
{
    QTemporaryDir dir;
    AdvisorPanel panel;
    panel.setExportDirectory(dir.path());
    QSignalSpy exported(&panel, &AdvisorPanel::reportExported);
    QVERIFY(panel.requestExport(AdvisorPanel::ExportFormat::Json).isEmpty()); // nothing to export yet
    panel.setReport(makeReport());

    // Without a provider: new names in the export directory, never overwriting.
    const QString first = panel.requestExport(AdvisorPanel::ExportFormat::Markdown);
    const QString second = panel.requestExport(AdvisorPanel::ExportFormat::Markdown);
    QCOMPARE(QFileInfo(first).fileName(), QStringLiteral("advisor-report.md"));
    QCOMPARE(QFileInfo(second).fileName(), QStringLiteral("advisor-report-2.md"));
    QCOMPARE(exported.size(), 2);

    // The provider picks the file (the application's save dialog); a missing suffix gets the format's.
    AdvisorPanel::ExportFormat asked = AdvisorPanel::ExportFormat::Markdown;
    panel.setExportFileNameProvider([&](AdvisorPanel::ExportFormat format, const QString& suggested) {
        asked = format;
        return QFileInfo(suggested).suffix() == QLatin1String("html") ? dir.filePath(QStringLiteral("chosen"))
                                                                      : QString();
    });
    const QString chosen = panel.requestExport(AdvisorPanel::ExportFormat::Html);
    QCOMPARE(asked, AdvisorPanel::ExportFormat::Html);
    QCOMPARE(chosen, dir.filePath(QStringLiteral("chosen.html")));
    QVERIFY(QFile::exists(chosen));
    QVERIFY(panel.requestExport(AdvisorPanel::ExportFormat::Json).isEmpty()); // cancelled
    QCOMPARE(exported.size(), 3);
}

void TestAdvisorPanel::rendersReadably()
{
    AdvisorPanel panel;
    panel.resize(760, 620);
    panel.setRuleBook(makeBook(), makeBook());
    panel.setReport(makeReport());
    panel.selectFinding(0);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QImage findings = panel.grab().toImage();
    panel.tabs()->setCurrentIndex(1);
    const QImage rules = panel.grab().toImage();
    QVERIFY(!findings.isNull() && !rules.isNull());
    QVERIFY(findings != rules);
    // Every finding row is laid out inside the view, not clipped away.
    QTreeView* view = panel.findingsView();
    for (int i = 0; i < 4; ++i) {
        const QRect rect = view->visualRect(panel.findingsModel()->indexOfFinding(i));
        QVERIFY(view->viewport()->rect().contains(rect.topLeft()));
    }
    // For looking at the picture: RUNLENS_SHOTS_DIR=/some/dir writes both tabs there.
    const QString shots = qEnvironmentVariable("RUNLENS_SHOTS_DIR");
    if (!shots.isEmpty()) {
        findings.save(QDir(shots).filePath(QStringLiteral("advisor-findings.png")));
        rules.save(QDir(shots).filePath(QStringLiteral("advisor-rules.png")));
        panel.setReport(cleanReport());
        panel.tabs()->setCurrentIndex(0);
        panel.grab().save(QDir(shots).filePath(QStringLiteral("advisor-clean.png")));
        panel.setReport(makeReport());
        panel.tabs()->setCurrentIndex(0);
        panel.selectFinding(2);
        panel.resize(420, 620);
        panel.grab().save(QDir(shots).filePath(QStringLiteral("advisor-narrow.png")));
        panel.resize(760, 620);
        const RuleBook builtIn = RuleBook::builtIn();
        panel.setRuleBook(builtIn, builtIn);
        panel.tabs()->setCurrentIndex(1);
        panel.grab().save(QDir(shots).filePath(QStringLiteral("advisor-builtin-rules.png")));
        AdvisorPanel empty;
        empty.resize(760, 420);
        empty.setBusy(true);
        empty.setBusy(false);
        empty.grab().save(QDir(shots).filePath(QStringLiteral("advisor-empty.png")));
    }
}

QTEST_MAIN(TestAdvisorPanel)
#include "tst_advisorpanel.moc"
