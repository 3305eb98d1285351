#pragma once

#include "models/core/timerange.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QSplitter;
class QTimer;

namespace runlens::models::trace {
class TraceStore;
}

namespace runlens::widgets::timeline {

class TimelineDetails;
class TimelineSearchBar;
class TimelineView;

/// The Timeline panel: a search bar and colour option on top, the timeline, and the details of the
/// selected slice below. The visible range, the selection and the selected slice live in the shared
/// TimeRangeModel (owned by the application, or by the panel when none is given), so Memory, Steps and
/// other time-based panels follow; the panel also forwards them as signals.
///
/// Search results are highlighted in the view; highlightOperator() does the same for every occurrence of
/// an operator (the Operators panel's current row). The colour mode and the flow arrows are remembered
/// in QSettings, and per trace file (keyed by its path) the collapsed process groups and the visible range,
/// restored when the file is shown again.
class TimelinePanel final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelinePanel(models::TimeRangeModel* range = nullptr, QWidget* parent = nullptr);
    ~TimelinePanel() override;

    /// The complete store (replacing any partial one); null clears the panel.
    void setStore(std::shared_ptr<const models::trace::TraceStore> store);
    const models::trace::TraceStore* store() const { return m_store.get(); }
    /// While a trace is read: paints `partial` (an immutable store of what is indexed so far) with a
    /// "reading… N %" note, until setStore() brings the whole trace. A null or the same partial store only
    /// updates the note. Search and details wait for the whole trace; no per-file state is saved meanwhile.
    void showPartialStore(std::shared_ptr<const models::trace::TraceStore> partial, int permille);
    const models::trace::TraceStore* partialStore() const { return m_partial.get(); }
    void setTimeRangeModel(models::TimeRangeModel* range);
    models::TimeRangeModel* timeRangeModel() const;

    TimelineView* view() const { return m_view; }
    TimelineDetails* details() const { return m_details; }
    TimelineSearchBar* searchBar() const { return m_search; }

    /// Highlights every slice named exactly `name` (and lets the search bar walk them); empty clears.
    void highlightOperator(const QString& name);

    /// The QSettings group of a store's per-file state: derived from its source paths; empty when the store
    /// has no file behind it.
    static QString settingsKey(const models::trace::TraceStore& store);
    /// Writes the per-file state of the current store now (it is otherwise written shortly after a change).
    void saveTraceSettings() const;

signals:
    void visibleRangeChanged(qint64 start, qint64 end);
    void selectionRangeChanged(qint64 start, qint64 end); ///< end < start: cleared
    void sliceSelected(int track, qint64 index);

private:
    void connectRange();
    void restoreTraceSettings();
    void saveViewSettings() const;

    std::shared_ptr<const models::trace::TraceStore> m_store;
    std::shared_ptr<const models::trace::TraceStore> m_partial; ///< shown while reading, until m_store arrives
    QLabel* m_readingNote = nullptr;
    TimelineView* m_view = nullptr;
    TimelineDetails* m_details = nullptr;
    TimelineSearchBar* m_search = nullptr;
    QComboBox* m_colorBy = nullptr;
    QCheckBox* m_flows = nullptr;
    QTimer* m_saveTimer = nullptr;
    QString m_settingsKey;
    bool m_restoring = false;
    QSplitter* m_splitter = nullptr;
    QMetaObject::Connection m_visibleConnection;
};

} // namespace runlens::widgets::timeline
