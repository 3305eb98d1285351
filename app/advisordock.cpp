#include "app/mainwindow.h"
#include "app/runcontroller.h"

#include "app/appsettings.h"
#include "importers/core/importsession.h"
#include "models/advisor/inputsnapshot.h"
#include "models/core/profilerbundle.h"
#include "models/core/timerange.h"
#include "models/core/workerpool.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"
#include "widgets/accuracy/accuracypanel.h"
#include "widgets/advisor/advisorpanel.h"
#include "widgets/cluster/clusterpanel.h"
#include "widgets/distributions/distributionspanel.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/memory/memorypanel.h"
#include "widgets/operators/operatorspanel.h"
#include "widgets/overview/overviewpanel.h"
#include "widgets/pipeline/datapipelinepanel.h"
#include "widgets/scalars/scalarspanel.h"
#include "widgets/system/systempanel.h"
#include "widgets/tensor/tensorpanel.h"
#include "widgets/timeline/timelinepanel.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QJsonDocument>
#include <QMessageBox>
#include <QSaveFile>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>

// The Advisor dock: the expert rules evaluated on a worker over snapshots of everything loaded, again
// whenever data arrives or the user changes a rule, and each finding's evidence shown in its panel.

namespace runlens::app {

namespace {

/// The file in the rules folder that keeps the thresholds and switches edited in the Advisor pane.
constexpr auto kEditedRulesFile = "thresholds.json";

/// Waits this long after the last data change before evaluating, so a burst of arrivals (every file of a
/// run) costs one evaluation.
constexpr int kAdviceDelayMs = 700;

QString rulesFolder()
{
    return AppSettings::load().rulesFolder;
}

QStringList ruleFiles(const QString& folder)
{
    QStringList files;
    const QDir dir(folder);
    for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files | QDir::Readable, QDir::Name))
        files << dir.filePath(name);
    return files;
}

} // namespace

void MainWindow::createAdvisorDock()
{
    m_advisorPanel = new widgets::advisor::AdvisorPanel(this);
    m_advisorDock = addPanelDock(m_advisorPanel, tr("Advisor"), QStringLiteral("AdvisorDock"), m_overviewDock);
    m_advisorTimer = new QTimer(this);
    m_advisorTimer->setSingleShot(true);
    m_advisorTimer->setInterval(kAdviceDelayMs);
    connect(m_advisorTimer, &QTimer::timeout, this, &MainWindow::runAdvisor);

    loadRuleBooks();
    connect(m_advisorPanel, &widgets::advisor::AdvisorPanel::evidenceRequested, this, &MainWindow::showEvidence);
    connect(m_advisorPanel, &widgets::advisor::AdvisorPanel::ruleBookEdited, this, &MainWindow::saveRuleBook);
    connect(m_advisorPanel, &widgets::advisor::AdvisorPanel::countsChanged, this, [this] {
        const QString suffix = m_advisorPanel->titleSuffix();
        m_advisorDock->setWindowTitle(suffix.isEmpty() ? tr("Advisor") : tr("Advisor %1").arg(suffix));
    });
    m_advisorPanel->setExportFileNameProvider(
        [this](widgets::advisor::AdvisorPanel::ExportFormat format, const QString& suggested) {
            const QString suffix = widgets::advisor::AdvisorPanel::suffix(format);
            QString filter;
            switch (format) {
            case widgets::advisor::AdvisorPanel::ExportFormat::Markdown:
                filter = tr("Markdown (*.md)");
                break;
            case widgets::advisor::AdvisorPanel::ExportFormat::Html:
                filter = tr("HTML (*.html)");
                break;
            case widgets::advisor::AdvisorPanel::ExportFormat::Json:
                filter = tr("JSON (*.json)");
                break;
            }
            QString file = QFileDialog::getSaveFileName(this, tr("Export Findings"), suggested, filter);
            if (!file.isEmpty() && QFileInfo(file).suffix().isEmpty())
                file += QLatin1Char('.') + suffix;
            return file;
        });
    connect(m_advisorPanel, &widgets::advisor::AdvisorPanel::reportExported, this, [this](const QString& fileName) {
        statusBar()->showMessage(tr("Findings written to %1").arg(QDir::toNativeSeparators(fileName)), 8000);
    });
    connect(m_advisorPanel, &widgets::advisor::AdvisorPanel::exportFailed, this,
            [this](const QString& message) { QMessageBox::warning(this, tr("Export Findings"), message); });

    // Every change of the shared models asks for a new evaluation.
    connect(m_scalars, &models::scalars::ScalarStore::seriesChanged, this, &MainWindow::scheduleAdvice);
    connect(m_scalars, &models::scalars::ScalarStore::cleared, this, &MainWindow::scheduleAdvice);
    connect(m_summaries, &models::summary::SummaryStore::seriesChanged, this, &MainWindow::scheduleAdvice);
    connect(m_summaries, &models::summary::SummaryStore::cleared, this, &MainWindow::scheduleAdvice);
}

void MainWindow::loadRuleBooks()
{
    // Built in, then the user's rule files, then the thresholds edited in the pane (last, so they win).
    QStringList problems;
    m_builtInRules = models::advisor::RuleBook::builtIn(&problems);
    m_rules = m_builtInRules;
    const QString folder = rulesFolder();
    const QString edited = QDir(folder).filePath(QLatin1String(kEditedRulesFile));
    QStringList files = ruleFiles(folder);
    files.removeAll(edited);
    for (const QString& file : std::as_const(files))
        m_rules.load(file, &problems);
    m_rulesBase = m_rules;
    if (QFileInfo::exists(edited))
        m_rules.load(edited, &problems);
    m_advisorPanel->setRuleBook(m_rules, m_builtInRules);
    if (!problems.isEmpty())
        statusBar()->showMessage(tr("Rule files: %1").arg(problems.join(QStringLiteral("; "))), 15000);
}

void MainWindow::saveRuleBook(const models::advisor::RuleBook& book)
{
    m_rules = book;
    const QString folder = rulesFolder();
    const QString path = QDir(folder).filePath(QLatin1String(kEditedRulesFile));
    const QJsonObject overrides = book.overrides(m_rulesBase);
    QSaveFile file(path);
    if (!QDir().mkpath(folder) || !file.open(QIODevice::WriteOnly)
        || file.write(QJsonDocument(overrides).toJson(QJsonDocument::Indented)) < 0 || !file.commit()) {
        statusBar()->showMessage(
            tr("Cannot save the rule thresholds to %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()),
            15000);
    }
    scheduleAdvice();
}

void MainWindow::connectAdvisor(importers::ImportSession* session)
{
    m_advisorGraphs.clear();
    connect(session, &importers::ImportSession::graphArrived, this,
            [this](int index, std::shared_ptr<const models::graph::Graph> graph) {
                const models::Artifact& artifact = m_run->session()->manifest().artifacts[index];
                m_advisorGraphs.push_back({ artifact.run, artifact.path, std::move(graph) });
                scheduleAdvice();
            });
    connect(session, &importers::ImportSession::finished, this, &MainWindow::scheduleAdvice);
    connect(session, &importers::ImportSession::profilerArrived, this, &MainWindow::scheduleAdvice);
    connect(session, &importers::ImportSession::memoryArrived, this, &MainWindow::scheduleAdvice);
    connect(session, &importers::ImportSession::traceArrived, this, &MainWindow::scheduleAdvice);
    connect(session, &importers::ImportSession::tracesArrived, this, &MainWindow::scheduleAdvice);
}

void MainWindow::scheduleAdvice()
{
    if (m_advisorTimer)
        m_advisorTimer->start();
}

models::advisor::AdvisorInput MainWindow::advisorInput() const
{
    models::advisor::AdvisorInput input;
    input.root = m_run->session() ? m_run->session()->manifest().root : QString();
    input.scalars = models::advisor::scalarTracks(*m_scalars);
    input.histograms = models::advisor::histogramTracks(*m_summaries);
    input.tensors = m_tensorPanel->catalog();
    input.graphs = m_advisorGraphs;
    // The trace in the Timeline: one file, or the ranks of a job read together.
    if (const auto store = m_operatorsPanel->store(); store && m_run->session() && !m_currentTraces.isEmpty()) {
        const models::Artifact& artifact = m_run->session()->manifest().artifacts[m_currentTraces.front()];
        input.traces.push_back({ artifact.run, artifact.path, store });
    }
    if (m_traceMemory)
        input.memory.push_back({ input.traces.empty() ? QString() : input.traces.front().run,
                                 input.traces.empty() ? QString() : input.traces.front().path, m_traceMemory });
    for (auto it = m_fileMemory.cbegin(); it != m_fileMemory.cend(); ++it) {
        const models::Artifact& artifact = m_run->session()->manifest().artifacts[it.key()];
        input.memory.push_back({ artifact.run, artifact.path, it.value() });
    }
    for (auto it = m_profilers.cbegin(); it != m_profilers.cend(); ++it)
        input.profilers.push_back({ it.key(), it.value() });
    input.comparison = m_advisorComparison;
    // A Cluster made of rank digests (a digest folder, or a job too large to read together) is not in the
    // traces above: the cluster rules get it as a profiler's cluster.
    if ((!m_rankDigests.empty() || !m_digestedJob.isEmpty()) && !m_clusterPanel->digests().empty()
        && m_clusterPanel->cluster()) {
        auto bundle = std::make_shared<models::ProfilerBundle>();
        bundle->cluster = m_clusterPanel->cluster();
        input.profilers.push_back(
            { m_run->session() ? m_run->session()->manifest().root : QString(), std::move(bundle) });
    }
    return input;
}

bool MainWindow::isAdvising() const
{
    return m_advisorRunning || (m_advisorTimer && m_advisorTimer->isActive());
}

void MainWindow::runAdvisor()
{
    if (!m_advisorPanel)
        return;
    if (m_advisorCancel)
        m_advisorCancel->store(true);
    auto input = std::make_shared<models::advisor::AdvisorInput>(advisorInput());
    if (input->isEmpty()) {
        ++m_advisorGeneration;
        m_advisorRunning = false;
        m_advisorPanel->setBusy(false);
        m_advisorPanel->setReport(nullptr);
        notifyIdle();
        return;
    }
    const int generation = ++m_advisorGeneration;
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_advisorCancel = cancel;
    m_advisorPanel->setBusy(true);
    m_advisorRunning = true;
    QtConcurrent::run(models::workerPool(), [input, rules = m_rules, cancel] {
        return std::make_shared<const models::advisor::AdvisorReport>(
            models::advisor::evaluate(*input, rules, cancel.get()));
    }).then(this, [this, generation, cancel](std::shared_ptr<const models::advisor::AdvisorReport> report) {
        if (generation != m_advisorGeneration || cancel->load())
            return;
        m_advisorRunning = false;
        m_advisorPanel->setBusy(false);
        m_advisorPanel->setReport(std::move(report));
        schedulePanelChoice();
        notifyIdle();
    });
}

void MainWindow::clearAdvisor()
{
    if (m_advisorCancel)
        m_advisorCancel->store(true);
    ++m_advisorGeneration;
    m_advisorRunning = false;
    if (m_advisorTimer)
        m_advisorTimer->stop();
    m_advisorGraphs.clear();
    if (m_advisorPanel) {
        m_advisorPanel->setBusy(false);
        m_advisorPanel->setReport(nullptr);
    }
    // The comparison is not the run's: its findings come back without waiting for the next run's data.
    if (m_advisorComparison)
        scheduleAdvice();
}

void MainWindow::showEvidence(const QString& locator)
{
    const EvidenceRoute route = m_run->routeEvidence(locator);
    QString message = route.message;
    switch (route.target) {
    case EvidenceRoute::Target::None:
        break;
    case EvidenceRoute::Target::Scalars:
        m_scalarsPanel->setTagFilter(route.tagFilter);
        m_scalarsPanel->markStep(route.tag, route.step);
        raiseDock(m_scalarsDock);
        break;
    case EvidenceRoute::Target::Distributions:
        m_distributionsPanel->setTagFilter(route.tagFilter);
        m_distributionsPanel->setTagExpanded(route.tag, true);
        raiseDock(m_distributionsDock);
        break;
    case EvidenceRoute::Target::Tensors:
        if (m_tensorPanel->showLocation(route.tensorLocation))
            raiseDock(m_tensorDock);
        else
            message = route.failureMessage;
        break;
    case EvidenceRoute::Target::Graph:
        showNodeInGraph(route.node);
        break;
    case EvidenceRoute::Target::Timeline:
        if (route.hasTimeRange) {
            m_timeRange->setVisibleRange(route.visibleStart, route.visibleEnd, true);
            m_timeRange->setSelection(route.selectionStart, route.selectionEnd);
        }
        if (!route.op.isEmpty())
            m_timelinePanel->highlightOperator(route.op);
        raiseDock(m_timelineDock);
        break;
    case EvidenceRoute::Target::Memory:
        for (int entry = 0; entry < m_memoryPanel->deviceEntryCount(); ++entry) {
            if (m_memoryPanel->deviceEntryText(entry).contains(route.device)) {
                m_memoryPanel->setCurrentDeviceEntry(entry);
                break;
            }
        }
        raiseDock(m_memoryDock);
        m_memoryPanel->goToPeak();
        break;
    case EvidenceRoute::Target::Overview:
    case EvidenceRoute::Target::Pipeline:
        if (!route.profilerRun.isEmpty())
            selectProfilerRun(route.profilerRun);
        if (route.rankIndex >= 0)
            m_overviewPanel->setRankIndex(route.rankIndex);
        if (route.pipelineRank)
            m_pipelinePanel->setCurrentRank(*route.pipelineRank);
        raiseDock(route.target == EvidenceRoute::Target::Pipeline ? m_pipelineDock : m_overviewDock);
        break;
    case EvidenceRoute::Target::Cluster:
        raiseDock(m_clusterDock);
        break;
    case EvidenceRoute::Target::System:
        raiseDock(m_systemDock);
        if (!m_systemPanel->showRun(route.systemRun, route.wallStart, route.wallEnd))
            message = tr("%1 has no system metrics in the System panel.").arg(route.systemRun);
        break;
    case EvidenceRoute::Target::Accuracy:
        raiseDock(m_accuracyDock);
        if (!m_accuracyPanel->selectRow(route.compareRow))
            message = tr("The row %1 is not in the Accuracy panel: compare the two dumps again.").arg(route.compareRow);
        break;
    }
    if (!message.isEmpty())
        statusBar()->showMessage(message, 8000);
}

} // namespace runlens::app
