#include "app/mainwindow.h"

#include "app/jobdigester.h"
#include "app/runcontroller.h"

#include "importers/cluster/rankdigestfile.h"
#include "importers/core/importsession.h"
#include "importers/memory/tracememory.h"
#include "importers/trace/chrometracereader.h"
#include "models/core/profilerbundle.h"
#include "models/core/runbrowsermodel.h"
#include "models/core/timerange.h"
#include "models/core/workerpool.h"
#include "models/memory/memoryanalysis.h"
#include "models/scalars/scalarstore.h"
#include "models/system/profilercpu.h"
#include "models/trace/stepbreakdown.h"
#include "widgets/cluster/clusterpanel.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/graph/nodedetailswidget.h"
#include "widgets/memory/memorypanel.h"
#include "widgets/operators/operatorspanel.h"
#include "widgets/overview/overviewpanel.h"
#include "widgets/pipeline/datapipelinepanel.h"
#include "widgets/scalars/scalarspanel.h"
#include "widgets/steps/stepspanel.h"
#include "widgets/system/systempanel.h"
#include "widgets/system/systemtimelinelink.h"
#include "widgets/timeline/timelinepanel.h"
#include "widgets/timeline/timelineview.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent>

// The docks of profiler data beyond the timeline: Memory, Overview, Data Pipeline and Cluster.

namespace runlens::app {

namespace { } // namespace

void MainWindow::createProfilerDocks()
{
    auto provider = [this](widgets::ChartExporter::Format format, const QString& suggested) {
        return askExportFileName(format, suggested);
    };
    auto written = [this](const QString& fileName) {
        statusBar()->showMessage(tr("Chart written to %1").arg(QDir::toNativeSeparators(fileName)), 8000);
    };
    auto failed = [this](const QString& message) { QMessageBox::warning(this, tr("Export Chart"), message); };

    m_overviewPanel = new widgets::overview::OverviewPanel(this);
    m_overviewDock = addPanelDock(m_overviewPanel, tr("Overview"), QStringLiteral("OverviewDock"), m_stepsDock);
    m_overviewPanel->setExportFileNameProvider(provider);
    connect(m_overviewPanel, &widgets::overview::OverviewPanel::chartExported, this, written);
    connect(m_overviewPanel, &widgets::overview::OverviewPanel::chartExportFailed, this, failed);
    m_pipelinePanel = new widgets::pipeline::DataPipelinePanel(this);
    m_pipelineDock
        = addPanelDock(m_pipelinePanel, tr("Data Pipeline"), QStringLiteral("DataPipelineDock"), m_overviewDock);
    m_pipelinePanel->setExportFileNameProvider(provider);
    connect(m_pipelinePanel, &widgets::pipeline::DataPipelinePanel::chartExported, this, written);
    connect(m_pipelinePanel, &widgets::pipeline::DataPipelinePanel::chartExportFailed, this, failed);
    m_clusterPanel = new widgets::cluster::ClusterPanel(this);
    m_clusterDock = addPanelDock(m_clusterPanel, tr("Cluster"), QStringLiteral("ClusterDock"), m_pipelineDock);
    m_clusterPanel->setExportFileNameProvider(provider);
    connect(m_clusterPanel, &widgets::cluster::ClusterPanel::chartExported, this, written);
    connect(m_clusterPanel, &widgets::cluster::ClusterPanel::chartExportFailed, this, failed);
    connect(m_clusterPanel, &widgets::cluster::ClusterPanel::rankActivated, this, &MainWindow::showRank);
    // The machine under the run, from the system/* scalars; its wall-clock axis follows Scalars' wall-time axis.
    m_systemPanel = new widgets::system::SystemPanel(this);
    m_systemPanel->setStore(m_scalars);
    m_systemDock = addPanelDock(m_systemPanel, tr("System"), QStringLiteral("SystemDock"), m_clusterDock);
    m_systemPanel->setExportFileNameProvider(provider);
    connect(m_systemPanel, &widgets::system::SystemPanel::chartExported, this, written);
    connect(m_systemPanel, &widgets::system::SystemPanel::chartExportFailed, this, failed);
    connect(m_systemPanel, &widgets::system::SystemPanel::timeRangeChanged, m_scalarsPanel,
            &widgets::scalars::ScalarsPanel::setWallTimeRange);
    connect(m_scalarsPanel, &widgets::scalars::ScalarsPanel::wallTimeRangeChanged, m_systemPanel,
            &widgets::system::SystemPanel::setTimeRange);
    // ... and the Timeline's, when the open trace has a wall clock and covers the same time.
    m_systemTimelineLink = new widgets::system::SystemTimelineLink(m_systemPanel, m_timeRange, this);
    // The Overview and the Data Pipeline show the same rank.
    connect(m_overviewPanel, &widgets::overview::OverviewPanel::rankChanged, m_pipelinePanel,
            &widgets::pipeline::DataPipelinePanel::setCurrentRank);
    connect(m_overviewPanel, &widgets::overview::OverviewPanel::rankChanged, this, [this] {
        if (m_profiler && m_profiler->ranks)
            m_operatorsPanel->setProfilerData(m_profiler->ranks, m_overviewPanel->rankIndex());
    });
    connect(m_overviewPanel, &widgets::overview::OverviewPanel::profilerRunChanged, this,
            &MainWindow::selectProfilerRun);
    connect(m_pipelinePanel, &widgets::pipeline::DataPipelinePanel::currentRankChanged, this, [this](int rank) {
        if (m_profiler && m_profiler->ranks) {
            const auto& ranks = m_profiler->ranks->ranks;
            for (std::size_t i = 0; i < ranks.size(); ++i)
                if (ranks[i].rank == rank && m_overviewPanel->rankIndex() != int(i))
                    m_overviewPanel->setRankIndex(int(i));
        }
    });
    connect(&m_breakdownWatcher, &QFutureWatcher<std::shared_ptr<const models::trace::StepBreakdown>>::finished, this,
            [this] {
                if (m_breakdownGeneration == m_breakdownWatcher.property("generation").toInt()) {
                    m_overviewPanel->setTraceBreakdown(m_breakdownWatcher.result());
                    schedulePanelChoice();
                }
            });

    m_memoryPanel = new widgets::memory::MemoryPanel(this);
    m_memoryPanel->setTimeRangeModel(m_timeRange);
    m_memoryDock = addPanelDock(m_memoryPanel, tr("Memory"), QStringLiteral("MemoryDock"), m_stepsDock);
    connect(m_memoryPanel, &widgets::memory::MemoryPanel::operatorSelected, m_timelinePanel,
            &widgets::timeline::TimelinePanel::highlightOperator);
    m_memoryPanel->setExportFileNameProvider([this](widgets::ChartExporter::Format format, const QString& suggested) {
        return askExportFileName(format, suggested);
    });
    connect(m_memoryPanel, &widgets::memory::MemoryPanel::chartExported, this, [this](const QString& fileName) {
        statusBar()->showMessage(tr("Chart written to %1").arg(QDir::toNativeSeparators(fileName)), 8000);
    });
    connect(m_memoryPanel, &widgets::memory::MemoryPanel::chartExportFailed, this,
            [this](const QString& message) { QMessageBox::warning(this, tr("Export Chart"), message); });
    connect(&m_traceMemoryWatcher, &QFutureWatcher<importers::memory::MemoryReadResult>::finished, this, [this] {
        if (m_traceMemoryWatcher.isCanceled())
            return;
        const importers::memory::MemoryReadResult result = m_traceMemoryWatcher.result();
        if (m_traceMemoryGeneration != m_traceMemoryWatcher.property("generation").toInt())
            return;
        m_traceMemory = result.profile && !result.profile->empty() ? result.profile : nullptr;
        updateMemoryPanel();
        // The Cluster table's peak memory of each Kineto rank: its highest device (not host) peak.
        std::map<int, double> peaks;
        if (m_traceMemory) {
            for (const models::memory::MemoryDevice& device : m_traceMemory->devices) {
                if (device.deviceId < 0 || device.relative || device.rank < 0)
                    continue;
                const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
                if (peak.valid)
                    peaks[device.rank] = std::max(peaks[device.rank], peak.bytes);
            }
        }
        m_clusterPanel->setPeakMemory(std::move(peaks));
        scheduleAdvice();
    });

    createAdvisorDock();
    // A Cluster made of rank digests feeds the cluster rules (see advisorInput()).
    connect(m_clusterPanel, &widgets::cluster::ClusterPanel::clusterReady, this, &MainWindow::scheduleAdvice);
}

void MainWindow::openTrace(int artifactIndex)
{
    const bool combine = m_combineRanksAction && m_combineRanksAction->isChecked();
    const QList<int> ranks = combine ? rankSiblings(artifactIndex) : QList<int>();
    const models::Artifact& artifact = m_run->session()->manifest().artifacts[artifactIndex];
    // A job too large to read together still gets its Cluster: from one digest per rank.
    if (combine && ranks.size() <= 1) {
        const QList<int> all = rankSiblings(artifactIndex, false);
        if (all.size() > 1)
            digestJobRanks(all);
    }
    if (ranks.size() > 1) {
        m_currentTraces = ranks;
        m_run->session()->importTraces(ranks);
        setBusy(true, tr("Reading the traces of %n rank(s)…", nullptr, int(ranks.size())));
    } else {
        m_currentTraces = { artifactIndex };
        m_run->session()->importArtifact(artifactIndex);
        setBusy(true, tr("Reading %1…").arg(QDir::toNativeSeparators(artifact.relativePath)));
    }
    for (int index : std::as_const(m_currentTraces))
        m_runModel->setArtifactState(index, m_run->session()->state(index));
}

QList<int> MainWindow::rankSiblings(int artifactIndex, bool withinLimits) const
{
    // Beyond these the combined store would not fit comfortably in memory next to the rest.
    constexpr int kMaxRanks = 32;
    constexpr qint64 kMaxBytes = qint64(4) << 30;
    const QList<models::Artifact>& artifacts = m_run->session()->manifest().artifacts;
    const models::Artifact& chosen = artifacts[artifactIndex];
    if (!chosen.rank)
        return {};
    // Ranks in folders of their own (rank_0/, rank_1/) are runs of their own: compare the runs without
    // their rank folders.
    const QString chosenJob = RunController::runWithoutRankFolders(chosen.run);
    // One trace per rank: the one asked for, else the newest of that rank.
    QMap<int, int> byRank;
    for (int i = 0; i < artifacts.size(); ++i) {
        const models::Artifact& a = artifacts[i];
        if (a.kind != models::ArtifactKind::ChromeTrace || !a.rank
            || RunController::runWithoutRankFolders(a.run) != chosenJob)
            continue;
        auto it = byRank.find(*a.rank);
        if (it == byRank.end())
            byRank.insert(*a.rank, i);
        else if (it.value() != artifactIndex && (i == artifactIndex || a.modified > artifacts[it.value()].modified))
            it.value() = i;
    }
    if (byRank.size() < 2)
        return {};
    if (!withinLimits)
        return byRank.values();
    if (byRank.size() > kMaxRanks)
        return {};
    qint64 bytes = 0;
    for (int index : byRank)
        bytes += artifacts[index].size;
    if (bytes > kMaxBytes)
        return {};
    return byRank.values();
}

void MainWindow::showTrace(const QList<int>& artifactIndices, std::shared_ptr<const models::trace::TraceStore> store)
{
    m_run->setTraceShown(store != nullptr);
    m_timelinePanel->setStore(store);
    m_systemTimelineLink->setTrace(store);
    m_operatorsPanel->setStore(store);
    m_stepsPanel->setStore(store);
    connect(m_graphPanel, &widgets::graph::GraphPanel::profileChanged, m_nodeDetails,
            &widgets::graph::NodeDetailsWidget::setProfile, Qt::UniqueConnection);
    m_graphPanel->setProfile(store);
    showTraceMemory(artifactIndices, store);
    showTraceOverview(store);
    if (!store || !m_run->session() || artifactIndices.isEmpty())
        return;
    const models::Artifact& first = m_run->session()->manifest().artifacts[artifactIndices.front()];
    if (artifactIndices.size() > 1) {
        const QString job = m_run->jobDisplayName(artifactIndices.front());
        m_timelineDock->setWindowTitle(
            tr("Timeline — %1 (%n rank(s))", nullptr, int(artifactIndices.size())).arg(QDir::toNativeSeparators(job)));
    } else {
        // Kineto names files "host_pid.timestamp.pt.trace.json": shortened in the middle so the dock's
        // tab stays readable among the others; the status bar and the Run Browser give the whole name.
        QString name = QFileInfo(first.relativePath).fileName();
        constexpr int kMaxTitleName = 24;
        if (name.size() > kMaxTitleName)
            name = name.left(kMaxTitleName / 2 - 1) + QStringLiteral("…") + name.right(kMaxTitleName / 2);
        m_timelineDock->setWindowTitle(tr("Timeline — %1").arg(name));
    }
    schedulePanelChoice();
}

void MainWindow::showProfiler(const QString& run, std::shared_ptr<const models::ProfilerBundle> bundle)
{
    // Every run's profiler output is kept; the docks show one run at a time (the first one read, until
    // another is picked in the Overview).
    m_profilers.insert(run, bundle);
    QStringList names;
    for (const QString& known : m_profilers.keys())
        names << (m_run->session() ? m_run->session()->manifest().runDisplayName(known) : known);
    m_overviewPanel->setProfilerRuns(m_profilers.keys(), m_profilerRun.isEmpty() ? run : m_profilerRun, names);
    // The data pipeline's CPU samples of every profiler run join the System panel, one series per rank.
    std::vector<models::system::SystemRun> cpuRuns;
    for (auto it = m_profilers.cbegin(); it != m_profilers.cend(); ++it) {
        for (models::system::SystemRun& r : models::system::systemRunsOfPipelines(it.key(), it.value()->pipelines))
            cpuRuns.push_back(std::move(r));
    }
    m_systemPanel->setProfilerRuns(std::move(cpuRuns));
    if (m_profiler && m_profilerRun != run)
        return;
    m_profilerRun = run;
    m_run->setShownProfilerRun(run);
    m_profiler = bundle;
    m_overviewPanel->setProfilerData(bundle->ranks);
    m_operatorsPanel->setProfilerData(bundle->ranks, m_overviewPanel->rankIndex());
    m_pipelinePanel->setPipelines(bundle->pipelines);
    // A cluster made of rank digests stays unless the profiler output has one of its own.
    if (bundle->cluster || m_clusterPanel->digests().empty())
        m_clusterPanel->setCluster(bundle->cluster ? clusterWithMemory(bundle->cluster) : nullptr);
    schedulePanelChoice();
}

void MainWindow::selectProfilerRun(const QString& run)
{
    const auto bundle = m_profilers.value(run);
    if (!bundle || run == m_profilerRun)
        return;
    m_profiler.reset();
    m_profilerRun = run;
    showProfiler(run, bundle);
}

std::shared_ptr<const models::cluster::Cluster>
MainWindow::clusterWithMemory(const std::shared_ptr<const models::cluster::Cluster>& cluster) const
{
    // MindSpore writes one memory usage summary per device; its id is the rank's.
    std::map<int, double> peaks;
    for (const auto& profile : std::as_const(m_fileMemory)) {
        if (profile->kind != models::memory::MemorySourceKind::MindSporeSummary)
            continue;
        for (const models::memory::MemoryDevice& device : profile->devices) {
            const int rank = device.rank >= 0 ? device.rank : device.deviceId;
            const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
            const double bytes = peak.valid ? peak.bytes : double(device.reportedPeak);
            if (rank >= 0 && bytes > 0)
                peaks[rank] = std::max(peaks[rank], bytes);
        }
    }
    if (peaks.empty())
        return cluster;
    auto filled = std::make_shared<models::cluster::Cluster>(*cluster);
    for (models::cluster::RankFigures& rank : filled->ranks) {
        const auto it = peaks.find(rank.rank);
        if (it != peaks.end())
            rank.peakMemoryBytes = it->second;
    }
    return filled;
}

void MainWindow::showTraceOverview(std::shared_ptr<const models::trace::TraceStore> store)
{
    const int generation = ++m_breakdownGeneration;
    m_overviewPanel->setTraceBreakdown(nullptr);
    if (!store)
        return;
    // A multi-rank trace makes a cluster of its own unless the profiler output already gave one.
    if (store->sources().size() > 1 && !(m_profiler && m_profiler->cluster))
        m_clusterPanel->setStore(store);
    m_breakdownWatcher.setProperty("generation", generation);
    m_breakdownWatcher.setFuture(
        QtConcurrent::run(models::workerPool(), [store]() -> std::shared_ptr<const models::trace::StepBreakdown> {
            return std::make_shared<const models::trace::StepBreakdown>(models::trace::computeStepBreakdown(*store));
        }));
}

void MainWindow::showRank(int rank)
{
    // MindSpore ranks open in the Overview; ranks of a trace collapse every other rank in the timeline.
    const models::trace::TraceStore* store = m_timelinePanel->store();
    bool inTrace = false;
    if (store) {
        for (const models::trace::Process& process : store->processes())
            inTrace = inTrace || process.rank == rank;
    }
    if (inTrace) {
        for (std::size_t p = 0; p < store->processes().size(); ++p)
            m_timelinePanel->view()->setProcessCollapsed(int(p), store->processes()[p].rank != rank);
        raiseDock(m_timelineDock);
        return;
    }
    if (m_profiler && m_profiler->ranks) {
        const auto& ranks = m_profiler->ranks->ranks;
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            if (ranks[i].rank == rank) {
                m_overviewPanel->setRankIndex(int(i));
                m_pipelinePanel->setCurrentRank(rank);
                raiseDock(m_overviewDock);
                return;
            }
        }
    }
    if (const auto digest = m_clusterPanel->digestOfRank(rank)) {
        if (QFileInfo(digest->file).isFile()) {
            openRankTrace(rank, digest->file);
        } else {
            showRankMessage(tr("The trace of rank %1 is not reachable from this computer:\n%2\n\nThe Cluster shows "
                               "its digest; copy the trace here, or open it where it lies, to see the rank's "
                               "timeline.")
                                .arg(rank)
                                .arg(QDir::toNativeSeparators(digest->file)));
        }
        return;
    }
    statusBar()->showMessage(tr("Rank %1 has no timeline or profiler data open.").arg(rank), 8000);
}

void MainWindow::showRankMessage(const QString& text)
{
    // Not modal: the Cluster stays usable, and another rank can be tried at once.
    auto* box = new QMessageBox(QMessageBox::Information, tr("Open Rank"), text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("openRankMessage"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::addRankDigest(int, std::shared_ptr<const models::cluster::RankDigest> digest)
{
    // The first digest read of a rank is kept; a folder has one per rank.
    m_rankDigests.emplace(digest->rank(), std::move(digest));
    // Digests arrive one per file, in bursts while a folder is read: the cluster is assembled once a quarter of
    // a second passes without a new one, not once per burst (each assembly analyses every rank so far).
    if (!m_digestClusterPending) {
        m_digestClusterPending = true;
        QTimer::singleShot(kDigestQuietMs, this, &MainWindow::showDigestCluster);
    }
    m_lastDigestArrival.start();
}

void MainWindow::showDigestCluster()
{
    if (m_lastDigestArrival.isValid() && m_lastDigestArrival.elapsed() < kDigestQuietMs) {
        QTimer::singleShot(kDigestQuietMs - int(m_lastDigestArrival.elapsed()), this, &MainWindow::showDigestCluster);
        return;
    }
    m_digestClusterPending = false;
    if (m_rankDigests.empty() || (m_profiler && m_profiler->cluster))
        return;
    std::vector<std::shared_ptr<const models::cluster::RankDigest>> digests;
    digests.reserve(m_rankDigests.size());
    for (const auto& [rank, digest] : m_rankDigests)
        digests.push_back(digest);
    m_clusterPanel->setDigests(std::move(digests));
    schedulePanelChoice();
}

void MainWindow::openRankTrace(int rank, const QString& path)
{
    // A trace of the open folder is read as any other (alone, not with its job's other ranks).
    if (m_run->session()) {
        const QList<models::Artifact>& artifacts = m_run->session()->manifest().artifacts;
        const QString wanted = QFileInfo(path).canonicalFilePath();
        for (int i = 0; i < artifacts.size(); ++i) {
            if (artifacts[i].kind == models::ArtifactKind::ChromeTrace
                && QFileInfo(artifacts[i].path).canonicalFilePath() == wanted) {
                m_currentTraces = { i };
                m_run->session()->importArtifact(i);
                m_runModel->setArtifactState(i, m_run->session()->state(i));
                setBusy(true, tr("Reading %1…").arg(QDir::toNativeSeparators(artifacts[i].relativePath)));
                raiseDock(m_timelineDock);
                return;
            }
        }
    }
    // Elsewhere (the digest names where the rank was digested): read on a worker, that rank alone.
    const int generation = ++m_rankTraceGeneration;
    m_currentTraces.clear();
    setBusy(true, tr("Reading the trace of rank %1…").arg(rank));
    QtConcurrent::run(models::workerPool(), [path] {
        return importers::trace::ChromeTraceReader::read({ path });
    }).then(this, [this, generation, rank, path](importers::trace::ChromeTraceResult result) {
        if (generation != m_rankTraceGeneration)
            return;
        setBusy(false);
        if (!result.store || result.store->eventCount() == 0) {
            const QString why = result.diagnostics.isEmpty() ? QString() : result.diagnostics.front().toString();
            showRankMessage(tr("The trace of rank %1 could not be read:\n%2\n%3")
                                .arg(rank)
                                .arg(QDir::toNativeSeparators(path), why));
            return;
        }
        showTrace({}, result.store);
        m_timelineDock->setWindowTitle(tr("Timeline — rank %1").arg(rank));
        raiseDock(m_timelineDock);
    });
}

void MainWindow::digestJobRanks(const QList<int>& artifactIndices)
{
    // Opening another rank of the same job keeps the digests already made (or being made).
    if (!m_run->session() || artifactIndices == m_digestedJob)
        return;
    m_digestedJob = artifactIndices;
    QList<JobDigester::Rank> ranks;
    for (int index : artifactIndices) {
        const models::Artifact& artifact = m_run->session()->manifest().artifacts[index];
        ranks.append({ artifact.path, artifact.rank.value_or(-1) });
    }
    statusBar()->showMessage(tr("Digesting %n rank(s) for the Cluster…", nullptr, int(ranks.size())));
    m_digestCancelButton->show();
    m_jobDigester->start(ranks);
}

void MainWindow::createJobDigester()
{
    m_jobDigester = new JobDigester(this);
    m_digestCancelButton = new QToolButton(this);
    m_digestCancelButton->setObjectName(QStringLiteral("cancelDigest"));
    m_digestCancelButton->setText(tr("Cancel digesting"));
    m_digestCancelButton->setToolTip(tr("Stop digesting ranks for the Cluster; the ranks already digested are shown"));
    statusBar()->addPermanentWidget(m_digestCancelButton);
    m_digestCancelButton->hide();
    connect(m_digestCancelButton, &QToolButton::clicked, m_jobDigester, &JobDigester::cancel);
    connect(m_jobDigester, &JobDigester::progress, this, [this](int done, int total) {
        statusBar()->showMessage(tr("Digesting ranks for the Cluster: %1 of %2").arg(done).arg(total));
    });
    connect(m_jobDigester, &JobDigester::finished, this,
            [this](const JobDigester::DigestList& digests, const QStringList& problems, bool cancelled, int total) {
                m_digestCancelButton->hide();
                const int digested = int(digests.size());
                const QString text = cancelled ? tr("Digesting cancelled after %1 of %2 ranks").arg(digested).arg(total)
                    : problems.isEmpty()       ? tr("Cluster of %n rank(s) ready", nullptr, digested)
                                               : problems.front();
                statusBar()->showMessage(text, 8000);
                if (cancelled)
                    // Opening the same job again digests it again, whole.
                    m_digestedJob.clear();
                if (!(m_profiler && m_profiler->cluster) && !digests.empty())
                    m_clusterPanel->setDigests(digests);
            });
}

void MainWindow::clearProfiler()
{
    ++m_breakdownGeneration;
    m_jobDigester->discard();
    m_digestCancelButton->hide();
    ++m_rankTraceGeneration;
    m_rankDigests.clear();
    m_digestedJob.clear();
    m_profiler.reset();
    m_profilerRun.clear();
    m_profilers.clear();
    scheduleAdvice();
    m_overviewPanel->setProfilerRuns({}, {});
    m_overviewPanel->setProfilerData(nullptr);
    m_operatorsPanel->setProfilerData(nullptr, -1);
    m_overviewPanel->setTraceBreakdown(nullptr);
    m_pipelinePanel->setPipelines({});
    m_systemPanel->setProfilerRuns({});
    m_clusterPanel->setCluster(nullptr);
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

void MainWindow::addMemory(int artifactIndex, std::shared_ptr<const models::memory::MemoryProfile> profile)
{
    if (m_run->session()
        && m_run->session()->manifest().artifacts[artifactIndex].kind == models::ArtifactKind::ChromeTrace) {
        // A trace's memory is shown with the trace it belongs to (see showTraceMemory()).
        m_traceMemoryByArtifact.insert(artifactIndex, std::move(profile));
        return;
    }
    const bool mindSporeSummary = profile->kind == models::memory::MemorySourceKind::MindSporeSummary;
    m_fileMemory.insert(artifactIndex, std::move(profile));
    updateMemoryPanel();
    if (mindSporeSummary && m_profiler && m_profiler->cluster)
        m_clusterPanel->setCluster(clusterWithMemory(m_profiler->cluster));
}

void MainWindow::showTraceMemory(const QList<int>& artifactIndices,
                                 std::shared_ptr<const models::trace::TraceStore> store)
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
    m_traceMemoryWatcher.setFuture(
        QtConcurrent::run(models::workerPool(), [store] { return importers::memory::memoryFromTrace(*store); }));
}

void MainWindow::updateMemoryPanel()
{
    std::vector<std::shared_ptr<const models::memory::MemoryProfile>> profiles;
    if (m_traceMemory)
        profiles.push_back(m_traceMemory);
    for (const auto& profile : std::as_const(m_fileMemory))
        profiles.push_back(profile);
    m_memoryPanel->setProfiles(std::move(profiles));
    schedulePanelChoice();
}

} // namespace runlens::app
