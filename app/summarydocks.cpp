#include "app/mainwindow.h"

#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"
#include "widgets/audio/audiopanel.h"
#include "widgets/common/chartpalette.h"
#include "widgets/compare/comparerunspanel.h"
#include "widgets/distributions/distributionspanel.h"
#include "widgets/images/imagespanel.h"
#include "widgets/images/textpanel.h"
#include "widgets/prcurves/prcurvespanel.h"
#include "widgets/scalars/scalarspanel.h"

#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QMessageBox>
#include <QStatusBar>

// The docks of summary data beyond scalars (Distributions, Images, Text, Audio, PR Curves, Compare Runs).

namespace runlens::app {

QDockWidget* MainWindow::addPanelDock(QWidget* panel, const QString& title, const QString& objectName,
                                      QDockWidget* tabWith)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    tabifyDockWidget(tabWith, dock);
    return dock;
}

void MainWindow::createSummaryDocks()
{
    // Summary data beyond scalars: each panel reads the shared SummaryStore; the Compare runs selection
    // narrows every chart to the chosen runs.
    m_distributionsPanel = new widgets::distributions::DistributionsPanel(m_summaries, this);
    m_distributionsDock
        = addPanelDock(m_distributionsPanel, tr("Distributions"), QStringLiteral("DistributionsDock"), m_scalarsDock);
    m_imagesPanel = new widgets::images::ImagesPanel(m_summaries, this);
    m_imagesDock = addPanelDock(m_imagesPanel, tr("Images"), QStringLiteral("ImagesDock"), m_distributionsDock);
    m_textPanel = new widgets::images::TextPanel(m_summaries, this);
    m_textDock = addPanelDock(m_textPanel, tr("Text"), QStringLiteral("TextDock"), m_imagesDock);
    auto* audioPanel = new widgets::audio::AudioPanel(m_summaries, this);
    QDockWidget* audioDock = addPanelDock(audioPanel, tr("Audio"), QStringLiteral("AudioDock"), m_textDock);
    m_prCurvesPanel = new widgets::prcurves::PrCurvesPanel(m_summaries, this);
    m_prCurvesDock = addPanelDock(m_prCurvesPanel, tr("PR Curves"), QStringLiteral("PrCurvesDock"), audioDock);
    // A run keeps the colour the Scalars panel gives it.
    m_prCurvesPanel->setRunColorProvider([this](const QString& run) {
        const int index = m_scalars->runIndex(run);
        return index >= 0 ? widgets::runColor(index) : QColor();
    });
    m_comparePanel = new widgets::compare::CompareRunsPanel(m_scalars, m_summaries, this);
    m_compareDock = addPanelDock(m_comparePanel, tr("Compare Runs"), QStringLiteral("CompareRunsDock"), m_prCurvesDock);

    connect(m_comparePanel, &widgets::compare::CompareRunsPanel::visibleRunsChanged, this,
            [this, audioPanel](const QStringList& runs) {
                m_scalarsPanel->setVisibleRuns(runs);
                m_distributionsPanel->setVisibleRuns(runs);
                m_imagesPanel->setVisibleRuns(runs);
                m_textPanel->setVisibleRuns(runs);
                audioPanel->setVisibleRuns(runs);
                m_prCurvesPanel->setVisibleRuns(runs);
            });
    auto provider = [this](widgets::ChartExporter::Format format, const QString& suggested) {
        return askExportFileName(format, suggested);
    };
    m_distributionsPanel->setExportFileNameProvider(provider);
    m_imagesPanel->setExportFileNameProvider(provider);
    m_prCurvesPanel->setExportFileNameProvider(provider);
    m_comparePanel->setExportFileNameProvider(provider);
    audioPanel->setExportFileNameProvider([this](const QString& suggested) {
        return QFileDialog::getSaveFileName(this, tr("Export WAV"), suggested, tr("WAV audio (*.wav)"));
    });
    auto written = [this](const QString& fileName) {
        statusBar()->showMessage(tr("Chart written to %1").arg(QDir::toNativeSeparators(fileName)), 8000);
    };
    auto failed = [this](const QString& message) { QMessageBox::warning(this, tr("Export Chart"), message); };
    connect(m_distributionsPanel, &widgets::distributions::DistributionsPanel::chartExported, this, written);
    connect(m_distributionsPanel, &widgets::distributions::DistributionsPanel::chartExportFailed, this, failed);
    connect(m_imagesPanel, &widgets::images::ImagesPanel::imageExported, this, written);
    connect(m_imagesPanel, &widgets::images::ImagesPanel::imageExportFailed, this, failed);
    connect(m_prCurvesPanel, &widgets::prcurves::PrCurvesPanel::chartExported, this, written);
    connect(m_prCurvesPanel, &widgets::prcurves::PrCurvesPanel::chartExportFailed, this, failed);
    connect(audioPanel, &widgets::audio::AudioPanel::clipExported, this, [this](const QString& fileName) {
        statusBar()->showMessage(tr("Clip written to %1").arg(QDir::toNativeSeparators(fileName)), 8000);
    });
    connect(audioPanel, &widgets::audio::AudioPanel::clipExportFailed, this,
            [this](const QString& message) { QMessageBox::warning(this, tr("Export WAV"), message); });
    connect(m_comparePanel, &widgets::compare::CompareRunsPanel::chartExported, this, written);
    connect(m_comparePanel, &widgets::compare::CompareRunsPanel::chartExportFailed, this, failed);
}

} // namespace runlens::app
