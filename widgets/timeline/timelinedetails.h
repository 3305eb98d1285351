#pragma once

#include <QTextBrowser>

#include <cstdint>
#include <memory>

namespace runlens::models::trace {
class LaunchIndex;
class TraceStore;
} // namespace runlens::models::trace

namespace runlens::widgets::timeline {

/// Details of the selected timeline slice: name, category, start, duration, self time, depth, thread and
/// process, the parsed `args`, flows in and out, the device work an op launched (in its whole subtree) and
/// the host call that launched a kernel, as links that jump to the other end. Args are parsed from the retained input
/// only when shown.
class TimelineDetails final : public QTextBrowser
{
    Q_OBJECT
public:
    explicit TimelineDetails(QWidget* parent = nullptr);
    ~TimelineDetails() override;

    void setStore(std::shared_ptr<const models::trace::TraceStore> store);
    /// Shows a slice (track = -1 clears).
    void showSlice(int track, std::int64_t index);
    int shownTrack() const { return m_track; }
    std::int64_t shownIndex() const { return m_index; }
    /// Duration minus the time covered by direct children (slices one depth deeper inside it).
    static std::int64_t selfTime(const models::trace::TraceStore& store, int track, std::size_t index);

signals:
    /// A flow link was clicked: the other end of the flow.
    void jumpToSlice(int track, qint64 index);

private:
    void openLink(const QUrl& url);
    QString launchRows(int track, std::size_t index);

    std::shared_ptr<const models::trace::TraceStore> m_store;
    std::unique_ptr<models::trace::LaunchIndex> m_launches; ///< built when first needed
    int m_track = -1;
    std::int64_t m_index = -1;
};

} // namespace runlens::widgets::timeline
