#include "mainwindow.h"

#include "core/timerange.h"
#include "memory/memorypanel.h"
#include "memory/tracememory.h"
#include "timeline/timelinepanel.h"

#include <QDir>
#include <QDockWidget>
#include <QMessageBox>
#include <QStatusBar>
#include <QtConcurrent>

// The docks of profiler data beyond the timeline: Memory.

namespace runlens {

void MainWindow::createProfilerDocks()
{
    m_memoryPanel = new MemoryPanel(this);
    m_memoryPanel->setTimeRangeModel(m_timeRange);
    m_memoryDock = addPanelDock(m_memoryPanel, tr("Memory"), QStringLiteral("MemoryDock"), m_stepsDock);
    connect(m_memoryPanel, &MemoryPanel::operatorSelected, m_timelinePanel, &TimelinePanel::highlightOperator);
    m_memoryPanel->setExportFileNameProvider([this](ChartExporter::Format format, const QString& suggested) {
        return askExportFileName(format, suggested);
    });
    connect(m_memoryPanel, &MemoryPanel::chartExported, this, [this](const QString& fileName) {
        statusBar()->showMessage(tr("Chart written to %1").arg(QDir::toNativeSeparators(fileName)), 8000);
    });
    connect(m_memoryPanel, &MemoryPanel::chartExportFailed, this,
            [this](const QString& message) { QMessageBox::warning(this, tr("Export Chart"), message); });
    connect(&m_traceMemoryWatcher, &QFutureWatcher<memory::MemoryReadResult>::finished, this, [this] {
        if (m_traceMemoryWatcher.isCanceled())
            return;
        const memory::MemoryReadResult result = m_traceMemoryWatcher.result();
        if (m_traceMemoryGeneration != m_traceMemoryWatcher.property("generation").toInt())
            return;
        m_traceMemory = result.profile && !result.profile->empty() ? result.profile : nullptr;
        updateMemoryPanel();
    });
}

void MainWindow::clearMemory()
{
    ++m_traceMemoryGeneration;
    m_traceMemory.reset();
    m_fileMemory.clear();
    m_traceMemoryByArtifact.clear();
    m_memoryPanel->setTraceStore(nullptr);
    updateMemoryPanel();
}

void MainWindow::addMemory(int artifactIndex, std::shared_ptr<const memory::MemoryProfile> profile)
{
    if (m_session && m_session->manifest().artifacts[artifactIndex].kind == ArtifactKind::ChromeTrace) {
        // A trace's memory is shown with the trace it belongs to (see showTraceMemory()).
        m_traceMemoryByArtifact.insert(artifactIndex, std::move(profile));
        return;
    }
    m_fileMemory.insert(artifactIndex, std::move(profile));
    updateMemoryPanel();
}

void MainWindow::showTraceMemory(const QList<int>& artifactIndices, std::shared_ptr<const trace::TraceStore> store)
{
    const int generation = ++m_traceMemoryGeneration;
    m_memoryPanel->setTraceStore(store);
    m_traceMemory.reset();
    if (!store) {
        updateMemoryPanel();
        return;
    }
    // A trace read on its own came with its memory curves; ranks read together get theirs from the combined
    // store, on a worker.
    if (artifactIndices.size() == 1 && m_traceMemoryByArtifact.contains(artifactIndices.front())) {
        m_traceMemory = m_traceMemoryByArtifact.value(artifactIndices.front());
        updateMemoryPanel();
        return;
    }
    updateMemoryPanel();
    m_traceMemoryWatcher.setProperty("generation", generation);
    m_traceMemoryWatcher.setFuture(QtConcurrent::run([store] { return memory::memoryFromTrace(*store); }));
}

void MainWindow::updateMemoryPanel()
{
    std::vector<std::shared_ptr<const memory::MemoryProfile>> profiles;
    if (m_traceMemory)
        profiles.push_back(m_traceMemory);
    for (const auto& profile : std::as_const(m_fileMemory))
        profiles.push_back(profile);
    m_memoryPanel->setProfiles(std::move(profiles));
}

} // namespace runlens
