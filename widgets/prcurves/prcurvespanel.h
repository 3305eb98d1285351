#pragma once

#include "models/summary/summarystore.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/prcurves/prcurvechart.h"

#include <QHash>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <QVariantMap>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;
class QTimer;

namespace runlens::widgets {
class CardGrid;
}

namespace runlens::widgets::prcurves {

/// The PR curves panel: one PrCurveChart per PR-curve tag of the SummaryStore (TensorBoard's pr_curves
/// plugin, VisualDL pr curves) and per ROC-only tag (VisualDL ROC records), every run overlaid in its
/// colour, each chart with its own step slider. The mode selector shows the PR tags as precision-recall or
/// as ROC curves (from the same counts); ROC-only tags are always ROC charts. A tag filter narrows the
/// charts; setVisibleRuns (driven by the Compare runs selection) chooses the runs. Store changes are
/// coalesced and refresh only the tags they name.
///
/// The panel reads the store it is given and never owns it. File names for "Export as…" come from
/// setExportFileNameProvider (the application shows a file dialog there).
class PrCurvesPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit PrCurvesPanel(models::summary::SummaryStore* store, QWidget* parent = nullptr);
    ~PrCurvesPanel() override;

    models::summary::SummaryStore* store() const { return m_store; }

    /// Runs shown in every chart; an empty list shows all runs.
    void setVisibleRuns(const QStringList& runs);
    QStringList visibleRuns() const { return m_visibleRuns; }

    /// Case-insensitive regular expression matched anywhere in the tag. An invalid pattern is marked in
    /// the filter box with the error as tooltip, and the last valid filter stays in effect.
    void setTagFilter(const QString& pattern);
    QString tagFilter() const { return m_filter.pattern(); }
    bool isTagFilterValid() const { return m_filterValid; }

    /// The colour of each run; by default the run's position among the store's runs picks runColor().
    void setRunColorProvider(RunColorProvider provider);

    /// How the PR tags are drawn (ROC-only tags are always ROC).
    void setMode(CurveMode mode);
    CurveMode mode() const { return m_mode; }

    /// The view settings a session keeps: the mode ("mode": "roc" when ROC) and the tag filter ("filter").
    /// Empty when both are at their defaults.
    QVariantMap saveState() const;
    /// Sets what saveState gave back; a missing mode is precision-recall, a missing filter keeps the filter.
    void restoreState(const QVariantMap& state);

    /// Every PR-curve tag of the store, sorted; and those that pass the filter and have a visible run.
    QStringList tags() const { return m_tags; }
    QStringList visibleTags() const;
    /// Every ROC-only tag, sorted; and those that pass the filter and have a visible run.
    QStringList rocTags() const { return m_rocTags; }
    QStringList visibleRocTags() const;
    /// The chart of a PR tag, else of a ROC-only tag of that name.
    PrCurveChart* chartForTag(const QString& tag) const;
    PrCurveChart* rocChartForTag(const QString& tag) const { return m_rocCharts.value(tag); }
    /// PR charts, then ROC-only charts, each in tag order.
    QList<PrCurveChart*> charts() const;
    /// The message shown instead of charts, empty when charts are shown.
    QString emptyStateText() const;

    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    /// Where exports go without a FileNameProvider (tests; scripted use).
    void setExportDirectory(const QString& directory);

    /// Applies store changes that wait for the coalescing timer now.
    void flushPendingUpdates();

    static constexpr int kUpdateDelayMs = 50;
    static constexpr int kMinChartWidth = 400;
    static constexpr int kMaxColumns = 3;
    static constexpr int kChartHeight = 380;

signals:
    void modeChanged(runlens::widgets::prcurves::CurveMode mode);
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildUi();
    void onSeriesChanged(models::summary::SummaryKind kind, const QString& run, const QStringList& tags);
    void rebuild();
    void refreshTags(const QSet<QString>& tags);
    void relayout();
    /// Columns of the chart grid for the page's width now.
    int columnCount() const;
    void updateEmptyState();
    void onFilterTextChanged(const QString& text);
    PrCurveChart* createChart(const QString& tag, models::summary::SummaryKind source);
    bool hasVisibleRun(const QString& tag, models::summary::SummaryKind source) const;
    /// Brings a hash of charts in line with the store's tags of `source`; returns those tags.
    QStringList syncCharts(QHash<QString, PrCurveChart*>& charts, models::summary::SummaryKind source);
    int runCount() const;

    QPointer<models::summary::SummaryStore> m_store;
    QStringList m_visibleRuns;
    QRegularExpression m_filter;
    bool m_filterValid = true;
    RunColorProvider m_colorProvider;
    ChartExportMenu::FileNameProvider m_fileNameProvider;
    QString m_exportDirectory;
    CurveMode m_mode = CurveMode::PrecisionRecall;
    QStringList m_tags;
    QStringList m_rocTags;
    QHash<QString, PrCurveChart*> m_charts; ///< PR tags
    QHash<QString, PrCurveChart*> m_rocCharts; ///< ROC-only tags
    QSet<QString> m_pendingTags;
    QSet<QString> m_pendingRocTags;
    bool m_rebuildPending = false;
    int m_columns = 0;

    QComboBox* m_modeBox = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr;
    CardGrid* m_grid = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QTimer* m_updateTimer = nullptr;
};

} // namespace runlens::widgets::prcurves
