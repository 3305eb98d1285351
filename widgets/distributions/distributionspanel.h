#pragma once

#include "models/summary/summarystore.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/distributions/distributionchart.h"

#include <QHash>
#include <QMap>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QVariantMap>
#include <QWidget>

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;
class QTimer;
class QVBoxLayout;

namespace runlens::widgets::scalars {
class ChartSection;
}

namespace runlens::widgets::distributions {

/// The Distributions panel: every histogram tag of every run, as TensorBoard users know it. One section
/// per tag (collapsible, filtered by a regular expression over tags) holding one chart per run, so runs
/// compare side by side on the same scales. A toolbar switches all charts between percentile bands and
/// offset histograms (ridgeline) and picks the step axis (step, relative or wall time). Hovering a chart
/// shows the histogram of the step under the mouse; steps with NaN/Inf values are marked.
///
/// Charts are created only when their place scrolls into view and prepare their data only when painted;
/// store updates are coalesced, so a run with 50 tags of 500 steps opens and tails without stalls. The
/// panel reads the SummaryStore it is given and never owns it. setVisibleRuns() (driven by the Compare
/// runs selection) limits the runs shown.
class DistributionsPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit DistributionsPanel(models::summary::SummaryStore* store = nullptr, QWidget* parent = nullptr);
    ~DistributionsPanel() override;

    void setStore(models::summary::SummaryStore* store);
    models::summary::SummaryStore* store() const { return m_store; }

    /// Shows only these runs (an empty list shows every run). Runs that appear later are shown only when
    /// listed (or when the list is empty).
    void setVisibleRuns(const QStringList& runs);
    QStringList visibleRuns() const { return m_visibleRuns; }
    bool isRunShown(const QString& run) const;

    void setMode(DistributionMode mode);
    DistributionMode mode() const { return m_options.mode; }
    void setXAxisMode(scalars::XAxisMode mode);
    scalars::XAxisMode xAxisMode() const { return m_options.xAxisMode; }

    /// Case-insensitive regular expression matched anywhere in the tag. An invalid pattern is shown in
    /// red with the error as tooltip and the last valid filter stays in effect.
    void setTagFilter(const QString& pattern);
    QString tagFilter() const;
    bool isTagFilterValid() const { return m_filterValid; }

    /// Every histogram tag of the store, sorted.
    QStringList tags() const { return m_tags; }
    /// Tags that pass the filter and have at least one shown run, in display order.
    QStringList visibleTags() const;
    /// The shown runs that have `tag`, in display order.
    QStringList runsOfTag(const QString& tag) const;
    /// The chart of a run's tag, or nullptr when it is not shown or has not been in view yet.
    DistributionChart* chart(const QString& tag, const QString& run) const;
    /// Charts that exist and are shown, in display order.
    QList<DistributionChart*> charts() const;
    scalars::ChartSection* sectionForTag(const QString& tag) const { return m_sections.value(tag); }
    void setTagExpanded(const QString& tag, bool expanded);

    /// Applies store changes waiting for the coalescing timer now and creates the charts in view.
    void flushPendingUpdates();

    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    /// Where exports go without a FileNameProvider (tests; scripted use).
    void setExportDirectory(const QString& directory);

    /// View settings (mode, axis, filter, collapsed tags) for the application to keep in its settings.
    QVariantMap saveState() const;
    void restoreState(const QVariantMap& state);

    static constexpr int kUpdateDelayMs = 50;
    static constexpr int kMinChartWidth = 360;
    static constexpr int kMaxColumns = 4;
    static constexpr int kChartsPerPass = 4; ///< charts created per event loop round while a page fills

signals:
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);
    /// Mode, axis, filter or shown runs changed.
    void optionsChanged();
    /// The mouse is over the histogram of `step` in a chart of `run` and `tag` (-1: left the chart).
    void hoveredStepChanged(const QString& run, const QString& tag, qint64 step);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildUi();
    void onSeriesChanged(models::summary::SummaryKind kind, const QString& run, const QStringList& tags);
    void scheduleUpdate();
    void rebuildStructure();
    void updateSection(scalars::ChartSection* section);
    void updateAllSections();
    QWidget* slotFor(const QString& tag, const QString& run);
    DistributionChart* createChart(const QString& tag, const QString& run);
    void scheduleMaterialize();
    void materializeVisible(int budget);
    void updateColumns();
    void updateEmptyState();
    void onFilterTextChanged(const QString& text);
    QColor colorOfRun(const QString& run) const;
    bool tagPassesFilter(const QString& tag) const;

    QPointer<models::summary::SummaryStore> m_store;
    DistributionChartOptions m_options;
    QStringList m_visibleRuns;
    QRegularExpression m_filter;
    bool m_filterValid = true;
    QStringList m_tags;
    QStringList m_runs; ///< every run of the store, in store order (colours follow it)
    QMap<QString, QStringList> m_runsOfTag; ///< tag -> runs that have it
    QMap<QString, scalars::ChartSection*> m_sections;
    QHash<QString, DistributionChart*> m_charts; ///< by slot key (tag, run)
    QHash<QString, QWidget*> m_placeholders; ///< slots whose chart is not created yet
    QSet<QString> m_collapsedTags;
    QSet<QString> m_pendingKeys;
    bool m_structurePending = false;
    ChartExportMenu::FileNameProvider m_fileNameProvider;
    QString m_exportDirectory;
    int m_columns = 2;
    int m_chartHeight = 260;

    QLineEdit* m_filterEdit = nullptr;
    QButtonGroup* m_modeGroup = nullptr;
    QComboBox* m_xAxisCombo = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr;
    QVBoxLayout* m_sectionLayout = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QTimer* m_updateTimer = nullptr;
    QTimer* m_filterTimer = nullptr;
    QTimer* m_materializeTimer = nullptr;
};

} // namespace runlens::widgets::distributions
