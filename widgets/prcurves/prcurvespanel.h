#pragma once

#include "widgets/common/chartexportmenu.h"
#include "widgets/prcurves/prcurvechart.h"
#include "models/summary/summarystore.h"

#include <QHash>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QScrollArea;
class QTimer;

namespace runlens {
class CardGrid;
}

namespace runlens::prcurves {

/// The PR curves panel: one PrCurveChart per PR-curve tag of the SummaryStore (TensorBoard's pr_curves
/// plugin, VisualDL pr curves), every run overlaid in its colour, each chart with its own step slider. A
/// tag filter narrows the charts; setVisibleRuns (driven by the Compare runs selection) chooses the runs.
/// Store changes are coalesced and refresh only the tags they name.
///
/// The panel reads the store it is given and never owns it. File names for "Export as…" come from
/// setExportFileNameProvider (the application shows a file dialog there).
class PrCurvesPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit PrCurvesPanel(summary::SummaryStore* store, QWidget* parent = nullptr);
    ~PrCurvesPanel() override;

    summary::SummaryStore* store() const { return m_store; }

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

    /// Every PR-curve tag of the store, sorted; and those that pass the filter and have a visible run.
    QStringList tags() const { return m_tags; }
    QStringList visibleTags() const;
    PrCurveChart* chartForTag(const QString& tag) const { return m_charts.value(tag); }
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
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildUi();
    void onSeriesChanged(summary::SummaryKind kind, const QString& run, const QStringList& tags);
    void rebuild();
    void refreshTags(const QSet<QString>& tags);
    void relayout();
    /// Columns of the chart grid for the page's width now.
    int columnCount() const;
    void updateEmptyState();
    void onFilterTextChanged(const QString& text);
    PrCurveChart* createChart(const QString& tag);
    bool hasVisibleRun(const QString& tag) const;

    QPointer<summary::SummaryStore> m_store;
    QStringList m_visibleRuns;
    QRegularExpression m_filter;
    bool m_filterValid = true;
    RunColorProvider m_colorProvider;
    ChartExportMenu::FileNameProvider m_fileNameProvider;
    QString m_exportDirectory;
    QStringList m_tags;
    QHash<QString, PrCurveChart*> m_charts;
    QSet<QString> m_pendingTags;
    bool m_rebuildPending = false;
    int m_columns = 0;

    QLineEdit* m_filterEdit = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr;
    CardGrid* m_grid = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QTimer* m_updateTimer = nullptr;
};

} // namespace runlens::prcurves
