#pragma once

#include "models/summary/summarystore.h"

#include <QHash>
#include <QMap>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QWidget>

class QLabel;
class QLineEdit;
class QScrollArea;
class QTimer;
class QVBoxLayout;

namespace runlens::widgets {
class PanelHeader;
}
namespace runlens::widgets::scalars {
class ChartSection;
}

namespace runlens::widgets::images {

/// The frame the Images and Text panels share: a toolbar with a tag filter, one collapsible section per
/// tag holding a card per run, an empty state, the runs chosen in Compare runs, and store updates
/// coalesced so that a live log refreshes only the cards whose series changed. Subclasses make and fill
/// the cards. Reads the SummaryStore it is given and never owns it.
class SummaryCardsPanel : public QWidget
{
    Q_OBJECT
public:
    ~SummaryCardsPanel() override;

    models::summary::SummaryStore* store() const { return m_store; }
    void setStore(models::summary::SummaryStore* store);

    /// Shows only these runs' cards; an empty list shows every run.
    void setVisibleRuns(const QStringList& runs);
    QStringList visibleRuns() const { return m_visibleRuns; }

    /// Case-insensitive regular expression matched anywhere in the tag. An invalid pattern is shown in red
    /// with the error as tooltip and the last valid filter stays in effect.
    void setTagFilter(const QString& pattern);
    QString tagFilter() const;
    bool isTagFilterValid() const { return m_filterValid; }

    /// Tags shown (after the filter and the visible runs), in order.
    QStringList visibleTags() const;
    /// The card of a run's tag (it may be hidden by the filter), or nullptr.
    QWidget* cardWidget(const QString& run, const QString& tag) const;
    /// The cards shown, in display order.
    QList<QWidget*> visibleCardWidgets() const;
    scalars::ChartSection* sectionForTag(const QString& tag) const { return m_sections.value(tag); }
    /// The empty-state text, or an empty string when cards are shown.
    QString emptyStateText() const;

    /// Applies store changes waiting for the coalescing timer now.
    void flushPendingUpdates();

    static constexpr int kUpdateDelayMs = 50;

protected:
    SummaryCardsPanel(models::summary::SummaryStore* store, models::summary::SummaryKind kind, QWidget* parent);

    /// Call at the end of the subclass constructor: reads the store.
    void initialize();
    /// A new card for a run's tag, filled from the store.
    virtual QWidget* createCard(const QString& run, const QString& tag) = 0;
    /// Re-reads the store into an existing card.
    virtual void refreshCard(QWidget* card, const QString& run, const QString& tag) = 0;
    /// The empty state when the store has no tag of this kind (rich text).
    virtual QString noDataText() const = 0;
    virtual int cardHeight() const = 0;
    virtual int minimumCardWidth() const = 0;
    /// Adds a control to the toolbar, after the filter and the controls added before (subclass constructor).
    void addToolbarWidget(QWidget* widget);
    /// Re-lays the sections out, e.g. after cardHeight() changed.
    void relayoutCards();
    /// The colour of a run: its place among the store's runs, in the palette every chart uses.
    QColor colorOfRun(const QString& run) const;
    QList<QWidget*> allCardWidgets() const;

    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onSeriesChanged(models::summary::SummaryKind kind, const QString& run, const QStringList& tags);
    void onStructureChanged();
    void rebuild();
    void applyFilter();
    void onFilterTextChanged(const QString& text);
    void updateColumns();
    void updateEmptyState();
    bool isRunShown(const QString& run) const;
    static QString cardKey(const QString& run, const QString& tag) { return run + QLatin1Char('\n') + tag; }

    QPointer<models::summary::SummaryStore> m_store;
    models::summary::SummaryKind m_kind;
    QStringList m_visibleRuns;
    QRegularExpression m_filter;
    bool m_filterValid = true;
    QMap<QString, QStringList> m_runsByTag; ///< tag -> runs with that tag, sorted
    QMap<QString, scalars::ChartSection*> m_sections;
    QHash<QString, QWidget*> m_cards; ///< by cardKey
    QSet<QString> m_pendingCards; ///< cardKeys whose series changed
    bool m_structurePending = false;
    int m_columns = 2;

    PanelHeader* m_toolbar = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr;
    QVBoxLayout* m_sectionLayout = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QTimer* m_updateTimer = nullptr;
};

} // namespace runlens::widgets::images
