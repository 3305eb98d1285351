#pragma once

#include <QString>
#include <QStringList>

namespace runlens::models {

/// What the import of a folder has produced so far, counted by kind: what PanelChoice decides from.
struct ImportedContent
{
    int scalarTags = 0;
    int histogramTags = 0;
    int imageTags = 0;
    int textTags = 0;
    int audioTags = 0;
    int prCurveTags = 0;
    int comparableRuns = 0; ///< runs with scalars or summaries
    int graphs = 0;
    int tensors = 0; ///< tensor series in the inspector (files, dumps, summary tensors)
    int traces = 0; ///< trace files found (the first one is read at once)
    int traceSteps = 0; ///< steps marked in the trace in view (ProfilerStep#N and the like)
    int profilerRanks = 0; ///< ranks with MindSpore profiler tables (steps, operators)
    int pipelines = 0; ///< ranks with data pipeline figures
    int clusterRanks = 0;
    int memoryProfiles = 0;
    int findings = 0; ///< the Advisor's
    int noteCharacters = 0; ///< of the folder's notes
    int comparisons = 0; ///< dump comparisons in the Accuracy panel (running or finished)
    int systemRuns = 0; ///< hosts or ranks with system metrics (`system/*` scalars)
    int embeddingSets = 0; ///< sets in the Projector (TensorBoard projector folders)

    bool isEmpty() const;
};

/// Which docks have something to show for the folder that was read, and which of them goes in front of its
/// tab group. Pure: the main window counts what arrived, asks, and shows, hides and raises the docks; tests
/// ask without a window. Docks are named by their object names ("ScalarsDock"), which saved layouts and
/// sessions use too.
///
/// The default front follows what was found: scalars put Scalars in front; profiler output alone the
/// Overview, or the Timeline when the trace marks no steps; a graph alone the Graph; tensors alone the
/// Tensors; a dump comparison the Accuracy panel, ahead of all of these (it was asked for). A dock the user put in
/// front (in a saved view of the folder, or since it was opened) wins in its group as long as it has something to show:
/// an empty panel is never chosen.
class PanelChoice
{
public:
    /// `preferred`: docks the user put in front, the most recent first.
    explicit PanelChoice(const ImportedContent& content, const QStringList& preferred = {});

    bool hasContent(const QString& dock) const;
    /// Docks with something to show, the one to have in front first.
    QStringList frontOrder() const { return m_frontOrder; }
    /// Docks decided about that have nothing to show: they give their space to the others.
    QStringList withoutContent() const;
    /// The dock of `group` (object names) to have in front; empty when none of them has content.
    QString front(const QStringList& group) const;

    /// Every dock PanelChoice decides about. Others (the Source view, opened on request) are left alone.
    static QStringList managedDocks();

private:
    QStringList m_withContent;
    QStringList m_frontOrder;
};

} // namespace runlens::models
