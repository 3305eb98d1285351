#include "models/core/panelchoice.h"

namespace runlens::models {

namespace {

const QString kRunBrowser = QStringLiteral("RunBrowserDock");
const QString kNodeDetails = QStringLiteral("NodeDetailsDock");
const QString kNotes = QStringLiteral("NotesDock");
const QString kScalars = QStringLiteral("ScalarsDock");
const QString kDistributions = QStringLiteral("DistributionsDock");
const QString kImages = QStringLiteral("ImagesDock");
const QString kText = QStringLiteral("TextDock");
const QString kAudio = QStringLiteral("AudioDock");
const QString kPrCurves = QStringLiteral("PrCurvesDock");
const QString kCompareRuns = QStringLiteral("CompareRunsDock");
const QString kAdvisor = QStringLiteral("AdvisorDock");
const QString kGraph = QStringLiteral("GraphDock");
const QString kTensors = QStringLiteral("TensorDock");
const QString kTimeline = QStringLiteral("TimelineDock");
const QString kOperators = QStringLiteral("OperatorsDock");
const QString kSteps = QStringLiteral("StepsDock");
const QString kMemory = QStringLiteral("MemoryDock");
const QString kOverview = QStringLiteral("OverviewDock");
const QString kDataPipeline = QStringLiteral("DataPipelineDock");
const QString kCluster = QStringLiteral("ClusterDock");
const QString kAccuracy = QStringLiteral("AccuracyDock");
const QString kProjector = QStringLiteral("ProjectorDock");
const QString kSystem = QStringLiteral("SystemDock");

} // namespace

bool ImportedContent::isEmpty() const
{
    return scalarTags == 0 && histogramTags == 0 && imageTags == 0 && textTags == 0 && audioTags == 0
        && prCurveTags == 0 && graphs == 0 && tensors == 0 && traces == 0 && profilerRanks == 0 && pipelines == 0
        && clusterRanks == 0 && memoryProfiles == 0 && comparisons == 0 && systemRuns == 0 && embeddingSets == 0;
}

QStringList PanelChoice::managedDocks()
{
    return { kRunBrowser, kNodeDetails, kNotes,        kScalars, kDistributions, kImages,   kText,      kAudio,
             kPrCurves,   kCompareRuns, kAdvisor,      kGraph,   kTensors,       kTimeline, kOperators, kSteps,
             kMemory,     kOverview,    kDataPipeline, kCluster, kAccuracy,      kSystem,   kProjector };
}

PanelChoice::PanelChoice(const ImportedContent& c, const QStringList& preferred)
{
    const bool overviewData = c.profilerRanks > 0 || c.traceSteps > 0;
    // Most wanted first. Within a tab group the first one with content goes in front; across groups the
    // order only matters when the user has put docks of different groups into one.
    struct Entry
    {
        const QString& dock;
        bool content;
    };
    const Entry ranking[] = {
        { kRunBrowser, true },
        // A comparison is what the user just asked for: it goes in front of whatever the bench folder holds.
        { kAccuracy, c.comparisons > 0 },
        { kScalars, c.scalarTags > 0 },
        { kDistributions, c.histogramTags > 0 },
        { kImages, c.imageTags > 0 },
        { kText, c.textTags > 0 },
        { kAudio, c.audioTags > 0 },
        { kPrCurves, c.prCurveTags > 0 },
        { kProjector, c.embeddingSets > 0 },
        // A trace without step markers has an overview of one "step": the Timeline says more.
        { kOverview, overviewData },
        { kTimeline, c.traces > 0 },
        { kOverview, !overviewData && c.traces > 0 },
        { kOperators, c.traces > 0 || c.profilerRanks > 0 },
        { kSteps, c.traces > 0 },
        { kMemory, c.memoryProfiles > 0 },
        { kDataPipeline, c.pipelines > 0 },
        { kCluster, c.clusterRanks > 1 },
        { kSystem, c.systemRuns > 0 },
        { kGraph, c.graphs > 0 },
        { kTensors, c.tensors > 0 },
        { kNodeDetails, c.graphs > 0 },
        { kNotes, c.noteCharacters > 0 },
        { kCompareRuns, c.comparableRuns > 1 },
        { kAdvisor, c.findings > 0 },
    };
    for (const Entry& e : ranking) {
        if (e.content && !m_withContent.contains(e.dock))
            m_withContent << e.dock;
    }
    // Nothing found (yet): Scalars stays, its empty state says what RunLens reads.
    if (c.isEmpty() && !m_withContent.contains(kScalars))
        m_withContent.insert(1, kScalars);
    for (const QString& dock : preferred) {
        if (m_withContent.contains(dock) && !m_frontOrder.contains(dock))
            m_frontOrder << dock;
    }
    for (const QString& dock : std::as_const(m_withContent)) {
        if (!m_frontOrder.contains(dock))
            m_frontOrder << dock;
    }
}

bool PanelChoice::hasContent(const QString& dock) const
{
    return m_withContent.contains(dock);
}

QStringList PanelChoice::withoutContent() const
{
    QStringList docks;
    for (const QString& dock : managedDocks()) {
        if (!m_withContent.contains(dock))
            docks << dock;
    }
    return docks;
}

QString PanelChoice::front(const QStringList& group) const
{
    for (const QString& dock : m_frontOrder) {
        if (group.contains(dock))
            return dock;
    }
    return {};
}

} // namespace runlens::models
