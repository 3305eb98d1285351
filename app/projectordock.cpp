#include "app/mainwindow.h"

#include "app/runcontroller.h"
#include "importers/core/importsession.h"
#include "widgets/projector/projectorpanel.h"
#include "widgets/tensor/tensorpanel.h"

#include <QDir>
#include <QDockWidget>
#include <QMessageBox>
#include <QStatusBar>

// The Projector dock: embedding sets of the open folder as a scatter of their principal components.

namespace runlens::app {

void MainWindow::createProjectorDock()
{
    m_projectorPanel = new widgets::projector::ProjectorPanel(this);
    m_projectorDock = addPanelDock(m_projectorPanel, tr("Projector"), QStringLiteral("ProjectorDock"), m_prCurvesDock);
    m_projectorPanel->setExportFileNameProvider(
        [this](widgets::ChartExporter::Format format, const QString& suggested) {
            return askExportFileName(format, suggested);
        });
    connect(m_projectorPanel, &widgets::projector::ProjectorPanel::chartExported, this,
            [this](const QString& fileName) {
                statusBar()->showMessage(tr("Chart written to %1").arg(QDir::toNativeSeparators(fileName)), 8000);
            });
    connect(m_projectorPanel, &widgets::projector::ProjectorPanel::chartExportFailed, this,
            [this](const QString& message) { QMessageBox::warning(this, tr("Export Chart"), message); });
    connect(m_run, &RunController::runCleared, m_projectorPanel, &widgets::projector::ProjectorPanel::clear);
    // "Project Rows" in the Tensors panel: the tensor's rows join the sets and are shown.
    connect(m_tensorPanel, &widgets::tensor::TensorPanel::rowsProjected, this,
            [this](const models::embeddings::EmbeddingSetPtr& set) {
                m_projectorPanel->addEmbeddings({ set }, tr("Tensors"));
                for (int i = 0; i < m_projectorPanel->setCount(); ++i) {
                    if (m_projectorPanel->setAt(i) == set && m_projectorPanel->currentSet() != set)
                        m_projectorPanel->setCurrentSet(i);
                }
                raiseDock(m_projectorDock);
            });
    connect(m_run, &RunController::sessionCreated, this, [this](importers::ImportSession* session) {
        connect(session, &importers::ImportSession::embeddingsArrived, this,
                [this, session](int artifactIndex,
                                std::shared_ptr<const std::vector<models::embeddings::EmbeddingSetPtr>> sets) {
                    // Several runs may log the same tag (VisualDL's train and eval): the run tells them apart.
                    const models::RunManifest& manifest = session->manifest();
                    QString run;
                    if (manifest.runs().size() > 1 && artifactIndex >= 0
                        && artifactIndex < int(manifest.artifacts.size()))
                        run = manifest.runDisplayName(manifest.artifacts[artifactIndex].run);
                    m_projectorPanel->addEmbeddings(*sets, run);
                    schedulePanelChoice();
                });
    });
}

} // namespace runlens::app
