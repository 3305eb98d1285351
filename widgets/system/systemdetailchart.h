#pragma once

#include "models/system/systemmetrics.h"
#include "widgets/common/chartdata.h"
#include "widgets/common/chartstyle.h"

#include <qcustomplot.h>

#include <vector>

namespace runlens::widgets {
class ChartExportMenu;
}

namespace runlens::widgets::system {

/// One host or rank in detail: stacked charts (CPU, memory, GPU utilisation, memory and power, disk, network,
/// InfiniBand; each only with data) over one wall-clock x axis. Zooming or dragging any of them moves all, and
/// the hover line stands at the same time in each. Only the bottom chart labels the time axis.
class SystemDetailChart final : public QCustomPlot
{
    Q_OBJECT
public:
    explicit SystemDetailChart(QWidget* parent = nullptr);
    static constexpr int kMinChartHeight = 110; ///< per stacked chart: the panel scrolls below that

    void setRun(const models::system::SystemRun& run);
    const models::system::SystemRun& run() const { return m_run; }

    /// Titles of the stacked charts, top to bottom.
    QStringList chartTitles() const;
    QList<QCPAxisRect*> chartRects() const { return m_rects; }
    /// Shows wall times lower..upper (seconds since the epoch) in every chart.
    void setTimeRange(double lower, double upper);
    QCPRange timeRange() const;
    /// Puts the hover line at `time` in every chart; NaN removes it.
    void setHoverTime(double time);
    double hoverTime() const { return m_hoverTime; }
    /// Marks lower..upper (an Advisor finding's time range) in every chart; lower > upper removes it.
    void setMarkedRange(double lower, double upper);

    ChartData chartData() const;
    ChartExportMenu* exportMenu() const { return m_export; }

signals:
    /// The shown wall-time range changed (zoom, drag, setTimeRange).
    void timeRangeChanged(double lower, double upper);
    void hoverTimeChanged(double time);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Group
    {
        QString title;
        QStringList metrics;
    };
    std::vector<Group> groupsOf(const models::system::SystemRun& run) const;
    void styleAxis(QCPAxis* axis) const;
    void onRangeChanged(const QCPRange& range);
    void updateHoverText();

    models::system::SystemRun m_run;
    ChartChrome m_chrome;
    QList<QCPAxisRect*> m_rects;
    QList<QCPItemStraightLine*> m_hoverLines;
    QList<QCPItemRect*> m_marks;
    QCPItemText* m_hoverText = nullptr;
    QCPMarginGroup* m_margins = nullptr;
    ChartExportMenu* m_export = nullptr;
    double m_hoverTime = std::numeric_limits<double>::quiet_NaN();
    bool m_syncing = false;
};

} // namespace runlens::widgets::system
