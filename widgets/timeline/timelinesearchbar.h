#pragma once

#include "widgets/timeline/timelinesearch.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace runlens::models::trace {
class TraceStore;
}

namespace runlens::widgets::timeline {

/// Search by slice name for the timeline: a regular-expression field, previous/next buttons and an
/// "n of m" count. Big stores are searched on a worker thread (the GUI never waits); a newer pattern
/// cancels an older search. Walking the matches emits matchActivated in time order.
class TimelineSearchBar final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineSearchBar(QWidget* parent = nullptr);
    ~TimelineSearchBar() override;

    void setStore(std::shared_ptr<const models::trace::TraceStore> store);
    /// Sets the pattern and searches (on a worker above kSyncLimit events; see isSearching()).
    void setPattern(const QString& pattern);
    QString pattern() const;
    bool isSearching() const;
    const std::vector<TimelineMatch>& matches() const { return m_matches; }
    int currentMatch() const { return m_current; } ///< -1: none
    QLineEdit* lineEdit() const { return m_edit; }

    /// Stores with more events than this are searched on a worker thread.
    static constexpr std::uint64_t kSyncLimit = 200'000;

public slots:
    void next();
    void previous();

signals:
    void matchActivated(int track, qint64 index);
    void searchFinished(int count);

private:
    void startSearch();
    void setMatches(std::vector<TimelineMatch> matches);
    void activate(int current);
    void updateCount();

    std::shared_ptr<const models::trace::TraceStore> m_store;
    QLineEdit* m_edit = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_count = nullptr;
    QTimer* m_debounce = nullptr;
    QFutureWatcher<std::vector<TimelineMatch>>* m_watcher = nullptr;
    std::shared_ptr<std::atomic_bool> m_cancel;
    std::vector<TimelineMatch> m_matches;
    int m_current = -1;
    bool m_invalid = false;
};

} // namespace runlens::widgets::timeline
