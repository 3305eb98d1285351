#include "widgets/system/systemtimelinelink.h"

#include "models/core/timerange.h"
#include "models/trace/tracestore.h"
#include "widgets/system/systemdetailchart.h"
#include "widgets/system/systempanel.h"

#include <cmath>

namespace runlens::widgets::system {

namespace {

constexpr double kNanosecondsPerSecond = 1e9;

double seconds(std::int64_t ns)
{
    return double(ns) / kNanosecondsPerSecond;
}

std::int64_t nanoseconds(double s)
{
    return std::int64_t(std::llround(s * kNanosecondsPerSecond));
}

} // namespace

SystemTimelineLink::SystemTimelineLink(SystemPanel* panel, models::TimeRangeModel* range, QObject* parent)
    : QObject(parent)
    , m_panel(panel)
    , m_range(range)
{
    Q_ASSERT(panel && range);
    connect(panel, &SystemPanel::timeRangeChanged, this, &SystemTimelineLink::fromSystem);
    connect(panel->detailChart(), &SystemDetailChart::hoverTimeChanged, this, &SystemTimelineLink::hoverFromSystem);
    connect(range, &models::TimeRangeModel::visibleRangeChanged, this, &SystemTimelineLink::fromTimeline);
    connect(range, &models::TimeRangeModel::hoverTimeChanged, this, &SystemTimelineLink::hoverFromTimeline);
}

SystemTimelineLink::~SystemTimelineLink() = default;

void SystemTimelineLink::setTrace(std::shared_ptr<const models::trace::TraceStore> store)
{
    m_store = std::move(store);
    m_wallClock = false;
    if (m_store) {
        // Without a base time a trace's clock is the profiler's own (often the boot clock): no wall time.
        for (const models::trace::TraceSource& source : m_store->sources())
            m_wallClock = m_wallClock || source.baseTimeNs != 0;
    }
}

bool SystemTimelineLink::isActive() const
{
    if (!m_store || !m_wallClock || !m_panel || !m_range || m_store->endTime() <= m_store->startTime())
        return false;
    const models::system::SystemRun& run = m_panel->detailChart()->run();
    if (run.isEmpty())
        return false;
    // The recorder samples every second or so: a trace that starts within a sample of the metrics still belongs.
    constexpr double kSlackSeconds = 5.0;
    return seconds(m_store->startTime()) <= run.endTime() + kSlackSeconds
        && seconds(m_store->endTime()) >= run.startTime() - kSlackSeconds;
}

void SystemTimelineLink::fromSystem(double lower, double upper)
{
    if (m_syncing || !isActive() || !(upper > lower))
        return;
    m_syncing = true;
    m_range->setVisibleRange(nanoseconds(lower), nanoseconds(upper));
    m_syncing = false;
}

void SystemTimelineLink::fromTimeline(std::int64_t start, std::int64_t end)
{
    if (m_syncing || !isActive() || end <= start)
        return;
    m_syncing = true;
    m_panel->setTimeRange(seconds(start), seconds(end));
    m_syncing = false;
}

void SystemTimelineLink::hoverFromSystem(double time)
{
    if (m_syncing || !isActive())
        return;
    m_syncing = true;
    m_range->setHoverTime(std::isfinite(time) ? nanoseconds(time) : models::TimeRangeModel::kNoHover);
    m_syncing = false;
}

void SystemTimelineLink::hoverFromTimeline(std::int64_t time)
{
    if (m_syncing || !isActive())
        return;
    m_syncing = true;
    m_panel->detailChart()->setHoverTime(time == models::TimeRangeModel::kNoHover ? std::nan("") : seconds(time));
    m_syncing = false;
}

} // namespace runlens::widgets::system
