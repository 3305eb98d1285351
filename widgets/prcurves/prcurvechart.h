#pragma once

#include "models/summary/summarydata.h"
#include "models/summary/summarystore.h"
#include "widgets/common/chartdata.h"
#include "widgets/common/chartexportmenu.h"

#include <QColor>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QCPCurve;
class QCPGraph;
class QCPLayoutGrid;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QMenu;
class QSlider;

namespace runlens::widgets::prcurves {

/// The colour a run is drawn in; the panel hands the application's (the Scalars panel's) choice down.
using RunColorProvider = std::function<QColor(const QString& run)>;

/// What a chart draws: precision over recall, or the ROC curve (true-positive rate over false-positive rate)
/// from the same TP/FP/TN/FN counts.
enum class CurveMode { PrecisionRecall, Roc };

/// One point of a drawn curve, as the tooltip and the tests see it.
struct PrPoint
{
    QString run;
    QString runLabel; ///< the run as users see it (runDisplayName)
    qint64 step = 0;
    int index = -1; ///< entry of the `[6, N]` tensor
    double threshold = 0.0;
    double precision = 0.0;
    double recall = 0.0;
    double truePositives = 0.0;
    double falsePositives = 0.0;
    double trueNegatives = 0.0;
    double falseNegatives = 0.0;
    double truePositiveRate = 0.0; ///< TP / (TP + FN), NaN without both classes
    double falsePositiveRate = 0.0; ///< FP / (FP + TN)
};

/// The card of one PR-curve tag: precision (y) over recall (x) of every run that has the tag, overlaid in
/// the runs' colours, for the step chosen with the slider under the chart (the steps any run wrote a
/// curve at; the latest by default, and it follows new steps while it stays there). A run without a curve
/// at that step shows its latest earlier one, named with its step in the legend. Hovering marks the
/// nearest point and shows its threshold, precision, recall and counts; the context menu exports PNG, SVG,
/// PDF and CSV. Entries where precision is undefined are not drawn (see isDefinedEntry).
///
/// In ROC mode the same chart draws TPR over FPR from the counts (see isRocEntry), with the chance diagonal
/// and each curve's AUC in the legend. A chart of ROC-only data (`source` RocCurves: VisualDL ROC records)
/// is always in ROC mode.
///
/// The chart copies what it shows from the store in refreshData() and does not own the store.
class PrCurveChart final : public QWidget
{
    Q_OBJECT
public:
    PrCurveChart(const models::summary::SummaryStore* store, const QString& tag, QWidget* parent = nullptr);
    /// `source` is SummaryKind::PrCurves or SummaryKind::RocCurves.
    PrCurveChart(const models::summary::SummaryStore* store, const QString& tag, models::summary::SummaryKind source,
                 QWidget* parent = nullptr);
    ~PrCurveChart() override;

    QString tag() const { return m_tag; }
    models::summary::SummaryKind source() const { return m_source; }
    /// Whether the data has only ROC counts, so the chart stays in ROC mode.
    bool isRocOnly() const { return m_source == models::summary::SummaryKind::RocCurves; }
    CurveMode mode() const { return m_mode; }
    /// Switches between the PR and the ROC view; ignored for ROC-only charts.
    void setMode(CurveMode mode);
    /// The AUC of the curve a run shows now (ROC mode, or NaN).
    double shownAuc(const QString& run) const;

    /// Re-reads this tag of every run from the store.
    void refreshData();
    /// Runs shown (empty: all); the others stay loaded but are not drawn, exported or hovered.
    void setVisibleRuns(const QStringList& runs);
    void setRunColorProvider(RunColorProvider provider);

    /// Runs that have this tag, in the store's order.
    QStringList runs() const;
    /// Runs drawn at the current step (visible and with a curve at or before it).
    QStringList shownRuns() const;
    bool isRunVisible(const QString& run) const;

    /// Steps with a curve in any visible run, ascending.
    std::vector<qint64> steps() const { return m_steps; }
    qint64 currentStep() const;
    /// Moves to the step with a curve nearest to `step`.
    void setCurrentStep(qint64 step);
    /// The step of the curve a run shows now, or nothing when it shows none.
    std::optional<qint64> shownStep(const QString& run) const;
    /// The points drawn for a run, in threshold order.
    std::vector<PrPoint> shownPoints(const QString& run) const;
    QCPCurve* curveForRun(const QString& run) const;

    /// The point nearest to `pos` (widget coordinates of plot()) over the visible runs; nothing outside the
    /// plot area or without points.
    std::optional<PrPoint> pointNear(const QPointF& pos) const;
    /// The tooltip (HTML) for a point, with the rates of `mode`.
    static QString pointText(const PrPoint& point, CurveMode mode = CurveMode::PrecisionRecall);
    /// The tooltip shown for the last hover, empty when none.
    QString hoverText() const { return m_hoverText; }
    /// Where a point is drawn, in widget coordinates of plot().
    QPointF pixelPosition(const PrPoint& point) const;

    /// The numbers behind the chart for CSV: per visible run the shown step's defined entries.
    ChartData chartData() const;
    ChartExportMenu* exportMenu() const { return m_exportMenu; }
    QCustomPlot* plot() const { return m_plot; }
    QSlider* stepSlider() const { return m_slider; }
    QLabel* stepLabel() const { return m_stepLabel; }
    /// The context menu as it would pop up (the caller owns it).
    QMenu* createContextMenu(QWidget* parent);

    QSize sizeHint() const override { return { 440, 360 }; }
    QSize minimumSizeHint() const override { return { 280, 240 }; }

signals:
    void currentStepChanged(qint64 step);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct RunCurve;

    RunCurve* runCurve(const QString& run) const;
    QColor colorOf(const QString& run) const;
    void rebuildSteps();
    void applyStep();
    void applyTheme();
    void applyMode();
    void updateStepLabel();
    void updateLegend();
    void setHoverPosition(const QPointF& pos);
    void clearHover();
    void replotOverlay();
    void onSliderMoved(int value);

    QPointer<const models::summary::SummaryStore> m_store;
    QString m_tag;
    models::summary::SummaryKind m_source = models::summary::SummaryKind::PrCurves;
    CurveMode m_mode = CurveMode::PrecisionRecall;
    std::vector<std::unique_ptr<RunCurve>> m_curves;
    std::vector<qint64> m_steps;
    qint64 m_step = 0;
    bool m_followLatest = true;
    QSet<QString> m_visibleRuns; ///< empty: all
    RunColorProvider m_colorProvider;
    QString m_hoverText;

    QCustomPlot* m_plot = nullptr;
    QCPLayoutGrid* m_header = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPGraph* m_hoverMark = nullptr;
    QCPGraph* m_diagonal = nullptr; ///< the chance line of ROC mode
    ChartExportMenu* m_exportMenu = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_stepLabel = nullptr;
};

} // namespace runlens::widgets::prcurves
