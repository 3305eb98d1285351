#pragma once

#include "models/core/timerange.h"
#include "widgets/timeline/timelinelayout.h"

#include <QCoreApplication>
#include <QList>
#include <QRgb>
#include <QSet>
#include <QSize>

#include <cstdint>
#include <vector>

class QPainter;

namespace runlens::models::trace {
class TraceLod;
class TraceStore;
} // namespace runlens::models::trace

namespace runlens::widgets::timeline {

class TimelineHighlight;

/// Everything one timeline frame shows; filled by TimelineView, also usable to paint without a widget.
/// The colours of the timeline's chrome (background, gutter, headers, ruler, text), everything but the
/// slices: light, or dark to sit in a dark theme.
struct TimelineChrome
{
    QRgb background;
    QRgb gutter;
    QRgb header;
    QRgb separator;
    QRgb ruler;
    QRgb tick;
    QRgb text;
    QRgb muted;
    QRgb stepBand;
    QRgb asyncHeader;
    QRgb chipA; ///< alternating step chips in the ruler
    QRgb chipB;
    QRgb chipText;

    static const TimelineChrome& light();
    static const TimelineChrome& dark();
};

struct TimelinePaintState
{
    const models::trace::TraceStore* store = nullptr;
    const models::trace::TraceLod* lod = nullptr;
    const TimelineLayout* layout = nullptr;
    const std::vector<QRgb>* nameColors = nullptr; ///< per StringId
    bool colorByCategory = false;
    /// Slices to emphasise (search results, an operator's occurrences); the others are dimmed while it is
    /// non-empty, and the ruler shows a tick per match so they are findable at any zoom.
    const TimelineHighlight* highlight = nullptr;
    bool showFlows = true;
    models::TimeSpan visible;
    models::TimeSpan selection;
    QList<models::TimeSpan> marks;
    int selectedTrack = -1;
    std::int64_t selectedIndex = -1;
    int hoverTrack = -1;
    std::int64_t hoverIndex = -1;
    QSet<int> collapsedProcesses;
    int scrollY = 0;
    int labelWidth = 220;
    QString emptyText;
    bool dark = false; ///< TimelineChrome::dark() instead of light()
};

/// What the last frame cost: the level-of-detail guarantee is checked against these numbers.
struct TimelinePaintStats
{
    std::int64_t rects = 0; ///< filled rects and merged pixel columns
    std::int64_t slicesVisited = 0;
    std::int64_t labels = 0;
};

/// Paints a timeline frame with QPainter: time ruler with step chips and the selection's duration, track
/// gutter, process headers, nested slices merged to one column per pixel where they are narrower than a
/// pixel, instants, counters as area charts, step bands, marks, the selection and the highlighted slices.
/// Async tracks (b/e/n events) are drawn as outlined rounded slices under their process's "Async" header.
/// Stateless.
class TimelinePainter
{
    Q_DECLARE_TR_FUNCTIONS(runlens::widgets::timeline::TimelinePainter)
public:
    static constexpr int kRulerHeight = 36;
    static constexpr int kTickRowHeight = 19;

    static TimelinePaintStats paint(QPainter& painter, const QSize& size, const TimelinePaintState& state);

    /// Pixel x of time t in a frame of width `width`.
    static double timeToX(const TimelinePaintState& state, int width, std::int64_t t);
    static std::int64_t xToTime(const TimelinePaintState& state, int width, double x);
};

} // namespace runlens::widgets::timeline
