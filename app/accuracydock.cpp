#include "app/mainwindow.h"

#include "app/comparedumpsdialog.h"
#include "importers/accuracy/dumpcompare.h"
#include "models/accuracy/dumpgraph.h"
#include "widgets/accuracy/accuracypanel.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/runbrowser/runbrowserwidget.h"
#include "widgets/tensor/tensorpanel.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

// The Accuracy dock: two dumps compared op by op. The panel runs the comparison the window gives it on the
// worker pool; reading the dumps (importers) stays here, out of the widgets.

namespace runlens::app {

namespace {

widgets::accuracy::CompareOutcome runComparison(const widgets::accuracy::CompareRequest& request,
                                                const importers::ImportControl& control,
                                                const widgets::accuracy::AccuracyPanel::RowCallback& rowReady)
{
    widgets::accuracy::CompareOutcome outcome;
    importers::accuracy::CompareOptions options;
    if (!request.mapping.isEmpty()) {
        QFile file(request.mapping);
        if (!file.open(QIODevice::ReadOnly)) {
            outcome.error = MainWindow::tr("Could not read the mapping file %1: %2")
                                .arg(QDir::toNativeSeparators(request.mapping), file.errorString());
            return outcome;
        }
        QString error;
        const std::optional<models::accuracy::NameMapping> mapping
            = models::accuracy::NameMapping::parse(file.readAll(), &error);
        if (!mapping) {
            outcome.error = MainWindow::tr("Could not read the mapping file %1: %2")
                                .arg(QDir::toNativeSeparators(request.mapping), error);
            return outcome;
        }
        options.mapping = *mapping;
    }
    // Reading takes a share of the progress, comparing the rest.
    importers::ImportControl readControl;
    readControl.cancel = control.cancel;
    const importers::accuracy::DumpSideResult bench = importers::accuracy::readDumpSide(request.bench, readControl);
    if (!bench.side) {
        outcome.error = bench.error;
        return outcome;
    }
    const importers::accuracy::DumpSideResult target = importers::accuracy::readDumpSide(request.target, readControl);
    if (!target.side) {
        outcome.error = target.error;
        return outcome;
    }
    if (control.canceled())
        return outcome;
    // Rows are named as the result names them: with their step and rank when a side spans several dumps.
    if (bench.side->msprobe) {
        // The graph is the first dump's: only its rows are nodes there.
        const QString first = bench.side->groups.value(0);
        for (const models::accuracy::SideRow& row : bench.side->rows)
            if (row.group == first)
                outcome.benchOps.insert(models::accuracy::qualifiedName(row), row.op);
        // The same graph the Graph panel shows for the folder: its node ids are the rows' ops.
        outcome.benchGraph = models::accuracy::buildDumpGraph(*bench.side->msprobe);
    } else {
        outcome.benchGraph = models::accuracy::buildOpsGraph(QFileInfo(request.bench).fileName(), bench.side->ops);
    }
    // The graph is the first dump's: rows of other ranks and steps have no node there.
    const QString firstGroup = bench.side->groups.value(0);
    for (const models::accuracy::SideRow& row : bench.side->rows) {
        if (row.group == firstGroup)
            outcome.benchNodes.insert(models::accuracy::qualifiedName(row), row.op);
    }
    for (const models::accuracy::SideRow& row : bench.side->rows) {
        if (row.source)
            outcome.benchTensors.insert(models::accuracy::qualifiedName(row), row.source);
    }
    for (const models::accuracy::SideRow& row : target.side->rows) {
        if (row.source)
            outcome.targetTensors.insert(models::accuracy::qualifiedName(row), row.source);
    }
    outcome.result = importers::accuracy::compareDumpSides(*bench.side, *target.side, options, control, rowReady);
    if (outcome.result) {
        outcome.result->messages = bench.warnings + target.warnings + outcome.result->messages;
    }
    return outcome;
}

} // namespace

void MainWindow::createAccuracyDock()
{
    m_accuracyPanel = new widgets::accuracy::AccuracyPanel(this);
    m_accuracyDock = addPanelDock(m_accuracyPanel, tr("Accuracy"), QStringLiteral("AccuracyDock"), m_timelineDock);
    m_accuracyDock->hide();
    m_accuracyPanel->setComparer(&runComparison);
    m_accuracyPanel->setExportFileNameProvider([this](const QString& suggested, const QString& filter) {
        QSettings settings;
        const QString dir = settings.value(QStringLiteral("export/directory"), QDir::homePath()).toString();
        const QString fileName = QFileDialog::getSaveFileName(
            this, tr("Export Comparison"), QDir(dir).filePath(QFileInfo(suggested).fileName()), filter);
        if (!fileName.isEmpty())
            settings.setValue(QStringLiteral("export/directory"), QFileInfo(fileName).absolutePath());
        return fileName;
    });
    connect(m_accuracyPanel, &widgets::accuracy::AccuracyPanel::exported, this, [this](const QString& fileName) {
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(fileName)), 8000);
    });
    connect(m_accuracyPanel, &widgets::accuracy::AccuracyPanel::exportFailed, this,
            [this](const QString& message) { QMessageBox::warning(this, tr("Export failed"), message); });
    // A row of an msprobe bench is an entry of the bench's graph when that dump is the open folder.
    connect(m_accuracyPanel, &widgets::accuracy::AccuracyPanel::nodeSelected, this, [this](const QString& node) {
        if (m_graphPanel->tree())
            showNodeInGraph(node);
    });
    connect(m_accuracyPanel, &widgets::accuracy::AccuracyPanel::tensorsRequested, this,
            [this](const auto& bench, const QString& benchLabel, const auto& target, const QString& targetLabel) {
                m_tensorPanel->compareTensors(bench, benchLabel, target, targetLabel);
                raiseDock(m_tensorDock);
            });
    // The Advisor's comparison rules run over each finished comparison; a failed or cancelled one has none.
    connect(m_accuracyPanel, &widgets::accuracy::AccuracyPanel::comparisonStarted, this, [this] {
        if (m_advisorComparison) {
            m_advisorComparison.reset();
            scheduleAdvice();
        }
    });
    connect(m_accuracyPanel, &widgets::accuracy::AccuracyPanel::comparisonFinished, this, [this] {
        const models::accuracy::CompareResult* result = m_accuracyPanel->result();
        m_advisorComparison = result ? std::make_shared<const models::accuracy::CompareResult>(*result) : nullptr;
        scheduleAdvice();
    });
    // Double-clicking a row also opens the bench op's call stack at the user's frame.
    connect(m_accuracyPanel, &widgets::accuracy::AccuracyPanel::sourceRequested, this, &MainWindow::showSource);
    connect(m_runBrowser, &widgets::runbrowser::RunBrowserWidget::compareDumpsRequested, this,
            [this](const QString& bench, const QString& target) { compareDumps(bench, target); });
}

void MainWindow::compareDumps(const QString& bench, const QString& target, const QString& mapping)
{
    m_accuracyDock->setWindowTitle(tr("Accuracy"));
    m_accuracyPanel->compare({ bench, target, mapping });
    raiseDock(m_accuracyDock);
    schedulePanelChoice();
}

void MainWindow::chooseDumpsToCompare()
{
    CompareDumpsDialog dialog(this);
    const widgets::accuracy::CompareRequest last = m_accuracyPanel->request();
    dialog.setBench(last.bench);
    dialog.setTarget(last.target);
    if (dialog.exec() != QDialog::Accepted)
        return;
    compareDumps(dialog.bench(), dialog.target(), dialog.mapping());
}

} // namespace runlens::app
