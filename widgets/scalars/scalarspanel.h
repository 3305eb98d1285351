#pragma once

#include "models/scalars/scalarstore.h"
#include "widgets/common/cardgrid.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/scalars/scalarchart.h"
#include "widgets/scalars/scalarformat.h"

#include <QHash>
#include <QMap>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QVariantMap>
#include <QWidget>

#include <optional>

class QLabel;
class QListView;
class QScrollArea;
class QSplitter;
class QTimer;
class QVBoxLayout;

namespace runlens::widgets::scalars {

class ChartSection;
class RunLegendModel;
class ScalarsToolbar;

/// The Scalars panel: training curves of every tag of every run, TensorBoard style but faster and
/// denser. A toolbar (tag filter, smoothing, x axis, log scale, outliers), a runs legend that toggles runs
/// in every chart, and charts grouped by tag prefix (the part before the first '/') in collapsible
/// sections laid out in a responsive grid. A chart is created when it first scrolls into view (until then a
/// light placeholder of the same size holds its place), so a run with hundreds of tags opens at once; store
/// updates are coalesced and refresh only the affected charts.
///
/// The panel reads the ScalarStore it is given and never owns it. File names for "Export as…" come
/// from setExportFileNameProvider (the application shows a file dialog there).
class ScalarsPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit ScalarsPanel(models::scalars::ScalarStore* store = nullptr, QWidget* parent = nullptr);
    ~ScalarsPanel() override;

    void setStore(models::scalars::ScalarStore* store);
    models::scalars::ScalarStore* store() const { return m_store; }

    /// Case-insensitive regular expression matched anywhere in the tag. An invalid pattern is shown in
    /// red with the error as tooltip and the last valid filter stays in effect.
    void setTagFilter(const QString& pattern);
    QString tagFilter() const;
    bool isTagFilterValid() const { return m_filterValid; }

    void setSmoothing(double weight); ///< 0 .. 0.999, default 0.6
    double smoothing() const { return m_options.smoothing; }
    void setXAxisMode(XAxisMode mode);
    XAxisMode xAxisMode() const { return m_options.xAxisMode; }
    void setLogY(bool enabled);
    bool logY() const { return m_options.logY; }
    void setIgnoreOutliers(bool enabled);
    bool ignoreOutliers() const { return m_options.ignoreOutliers; }
    void setRunVisible(const QString& run, bool visible);
    bool isRunVisible(const QString& run) const;
    /// Shows only these runs in every chart (an empty list shows every run), as the Compare runs panel's
    /// selection asks; runs that appear later follow the same rule until the next call.
    void setVisibleRuns(const QStringList& runs);
    QStringList visibleRunsFilter() const { return m_visibleRunsFilter; }
    /// The options every chart is drawn with (also what a command-line export should use).
    ScalarChartOptions chartOptions() const { return m_options; }

    /// Tags that pass the filter, in display order (grouped, sorted).
    QStringList visibleTags() const;
    /// Names of the groups that have visible tags, in display order.
    QStringList visibleGroups() const;
    /// The chart of a tag, or nullptr when it is filtered out or has not been in view yet (its section
    /// collapsed, scrolled far away, or the panel never shown).
    ScalarChart* chartForTag(const QString& tag) const;
    QList<ScalarChart*> charts() const;
    ChartSection* sectionForGroup(const QString& group) const;
    void setGroupExpanded(const QString& group, bool expanded);
    RunLegendModel* runModel() const { return m_runModel; }
    /// The group a tag is shown in: the part before the first '/', or the tag itself.
    static QString groupOfTag(const QString& tag);

    /// How large the chart cards are; the column count follows from it and the panel's width.
    void setCardSize(CardSize size);
    CardSize cardSize() const { return m_cardSize; }
    /// The grid of a medium card; the others are scaled from it (CardGridSpec::scaled).
    static CardGridSpec cardGridSpec(CardSize size = CardSize::Medium);
    /// Columns of the chart grid now.
    int columnCount() const { return m_columns; }

    /// Fits every chart to its data.
    void fitAll();
    /// Marks `step` on the chart of `tag` with a vertical line (now, or when the chart is built); nullopt
    /// removes the mark. One step is marked at a time.
    void markStep(const QString& tag, std::optional<qint64> step);
    /// Modifiers that make the wheel zoom a chart (default Ctrl, so that the plain wheel scrolls the page;
    /// Qt::NoModifier makes the plain wheel zoom).
    void setWheelZoomModifiers(Qt::KeyboardModifiers modifiers);
    Qt::KeyboardModifiers wheelZoomModifiers() const { return m_wheelZoomModifiers; }
    /// Applies store changes that are waiting for the coalescing timer now, and creates the charts that are
    /// in view.
    void flushPendingUpdates();

    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    /// Where exports go without a FileNameProvider (tests; scripted use).
    void setExportDirectory(const QString& directory);

    /// View settings (smoothing, axis, scales, filter, collapsed groups, hidden runs) for the application
    /// to keep in its settings.
    QVariantMap saveState() const;
    void restoreState(const QVariantMap& state);
    /// The x ranges of the charts the user zoomed or panned (tag -> [lower, upper] in the units of the x axis
    /// mode), for a session to keep; charts that follow their data are left out.
    QVariantMap xRanges() const;
    /// Zooms the charts of these tags to their ranges: those already created at once, the others when they
    /// are created (kept until the next call). Best called once the data is in, so y fits it.
    void setXRanges(const QVariantMap& ranges);
    /// With the wall-time x axis, shows lower..upper (seconds since the epoch) in every chart, as another
    /// time-based panel (System) asks; in the other axis modes nothing changes.
    void setWallTimeRange(double lower, double upper);

    static constexpr int kUpdateDelayMs = 50;
    /// A medium card: two fit beside the runs legend in a dock of the default layout.
    static constexpr int kMinChartWidth = 330;
    static constexpr int kMaxColumns = 4;
    static constexpr int kChartsPerPass = 4; ///< charts created per event loop round while a page fills

signals:
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);
    /// Smoothing, axis mode, scale, outliers, filter or run visibility changed.
    void optionsChanged();
    /// With the wall-time x axis, the user zoomed or panned a chart to lower..upper (seconds since the epoch).
    void wallTimeRangeChanged(double lower, double upper);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    /// The group of the `system/*` tags (machine metrics): folded by default and shown last.
    static const QString kSystemGroup;
    void buildUi();
    void onStoreDestroyed();
    void onStructureChanged();
    void onSeriesChanged(const QString& run, const QStringList& tags);
    void onStoreCleared();
    void rebuildStructure();
    void applyFilter();
    void updateSection(ChartSection* section);
    /// Group names in display order: sorted, the machine metrics' group last.
    QStringList orderedGroups() const;
    ScalarChart* createChart(const QString& tag);
    /// The chart of a tag if it exists, else its placeholder (created on demand).
    QWidget* slotFor(const QString& tag);
    void scheduleMaterialize();
    /// Replaces up to `budget` placeholders in (or near) the visible part of the page with charts.
    void materializeVisible(int budget);
    void updateColumns();
    void updateEmptyState();
    void onFilterTextChanged(const QString& text);

    QPointer<models::scalars::ScalarStore> m_store;
    ScalarChartOptions m_options;
    QRegularExpression m_filter;
    bool m_filterValid = true;
    QStringList m_tags; ///< all tags of the store, sorted
    QMap<QString, QStringList> m_groups; ///< group -> tags
    QMap<QString, ChartSection*> m_sections;
    QHash<QString, ScalarChart*> m_charts;
    QHash<QString, QWidget*> m_placeholders; ///< tags in a section whose chart is not created yet
    QSet<QString> m_collapsedGroups;
    QStringList m_visibleRunsFilter; ///< runs to show, from setVisibleRuns; empty = no restriction
    QVariantMap m_pendingXRanges; ///< from setXRanges, for charts not created yet
    QSet<QString> m_pendingTags;
    bool m_structurePending = false;
    ChartExportMenu::FileNameProvider m_fileNameProvider;
    QString m_exportDirectory;
    QString m_markedTag;
    std::optional<qint64> m_markedStep;
    Qt::KeyboardModifiers m_wheelZoomModifiers = Qt::ControlModifier;
    int m_columns = 2;
    bool m_followingWallTime = false; ///< inside setWallTimeRange: the charts' changes are not the user's
    int m_chartHeight = 280;
    CardSize m_cardSize = CardSize::Medium;

    RunLegendModel* m_runModel = nullptr;
    ScalarsToolbar* m_toolbar = nullptr;
    QListView* m_runView = nullptr;
    QSplitter* m_splitter = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr;
    QVBoxLayout* m_sectionLayout = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QTimer* m_updateTimer = nullptr;
    QTimer* m_filterTimer = nullptr;
    QTimer* m_materializeTimer = nullptr;
};

} // namespace runlens::widgets::scalars
