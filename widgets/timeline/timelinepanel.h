#pragma once

#include "core/timerange.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QSplitter;

namespace runlens {

namespace trace {
class TraceStore;
}

class TimelineDetails;
class TimelineSearchBar;
class TimelineView;

/// The Timeline panel: a search bar and colour option on top, the timeline, and the details of the
/// selected slice below. The visible range, the selection and the selected slice live in the shared
/// TimeRangeModel (owned by the application, or by the panel when none is given), so Memory, Steps and
/// other time-based panels follow; the panel also forwards them as signals.
class TimelinePanel final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelinePanel(TimeRangeModel* range = nullptr, QWidget* parent = nullptr);
    ~TimelinePanel() override;

    void setStore(std::shared_ptr<const trace::TraceStore> store);
    const trace::TraceStore* store() const { return m_store.get(); }
    void setTimeRangeModel(TimeRangeModel* range);
    TimeRangeModel* timeRangeModel() const;

    TimelineView* view() const { return m_view; }
    TimelineDetails* details() const { return m_details; }
    TimelineSearchBar* searchBar() const { return m_search; }

signals:
    void visibleRangeChanged(qint64 start, qint64 end);
    void selectionRangeChanged(qint64 start, qint64 end); ///< end < start: cleared
    void sliceSelected(int track, qint64 index);

private:
    void connectRange();

    std::shared_ptr<const trace::TraceStore> m_store;
    TimelineView* m_view = nullptr;
    TimelineDetails* m_details = nullptr;
    TimelineSearchBar* m_search = nullptr;
    QComboBox* m_colorBy = nullptr;
    QSplitter* m_splitter = nullptr;
    QMetaObject::Connection m_visibleConnection;
};

} // namespace runlens
