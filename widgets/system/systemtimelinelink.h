#pragma once

#include <QObject>
#include <QPointer>

#include <cstdint>
#include <memory>

namespace runlens::models {
class TimeRangeModel;
}
namespace runlens::models::trace {
class TraceStore;
}

namespace runlens::widgets::system {

class SystemPanel;

/// Keeps the System panel's wall-clock axis and the Timeline's time range (the shared TimeRangeModel) together:
/// a zoom or a drag in either moves the other, and the hover line stands at the same time in both. It acts only
/// while the open trace carries a wall-clock base time (`baseTimeNanoseconds`, so its times are nanoseconds since
/// the epoch) and its span overlaps the run shown in the System panel: otherwise the two are not the same run, or
/// not on the same clock. Owned by its QObject parent; the panel and the model are not owned.
class SystemTimelineLink final : public QObject
{
    Q_OBJECT
public:
    SystemTimelineLink(SystemPanel* panel, models::TimeRangeModel* range, QObject* parent = nullptr);
    ~SystemTimelineLink() override;

    /// The trace the Timeline shows; nullptr when none.
    void setTrace(std::shared_ptr<const models::trace::TraceStore> store);
    /// The trace has a wall clock and overlaps the System panel's run: the two follow each other.
    bool isActive() const;

private:
    void fromSystem(double lower, double upper);
    void fromTimeline(std::int64_t start, std::int64_t end);
    void hoverFromSystem(double time);
    void hoverFromTimeline(std::int64_t time);

    QPointer<SystemPanel> m_panel;
    QPointer<models::TimeRangeModel> m_range;
    std::shared_ptr<const models::trace::TraceStore> m_store;
    bool m_wallClock = false;
    bool m_syncing = false; ///< inside a change this link made: the echo is not passed back
};

} // namespace runlens::widgets::system
