#pragma once

#include "models/tensor/tensor.h"
#include "models/tensor/tensorstatistics.h"
#include "widgets/common/chartdata.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QWidget>

#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <vector>

class QBoxLayout;
class QCheckBox;
class QCPBars;
class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QToolButton;
class QTableWidget;
class QTimer;

namespace runlens::widgets {
class ChartExportMenu;
}

namespace runlens::widgets::tensor {

/// Whole-tensor statistics by location (a file, or `file:member` inside an archive), shared by every
/// statistics pane of the window so a tensor is scanned once. Bounded: the least recently used entries
/// are dropped beyond maxEntries(). Lives on the GUI thread.
class TensorStatsCache : public QObject
{
    Q_OBJECT
public:
    explicit TensorStatsCache(QObject* parent = nullptr);

    std::optional<models::tensor::TensorStatistics> find(const QString& location) const;
    void insert(const QString& location, const models::tensor::TensorStatistics& statistics);
    bool contains(const QString& location) const { return m_entries.contains(location); }
    int size() const { return int(m_entries.size()); }
    void clear();

    static constexpr int kDefaultMaxEntries = 4096;
    int maxEntries() const { return m_maxEntries; }
    void setMaxEntries(int maxEntries);

signals:
    void ready(const QString& location);

private:
    void trim();

    struct Entry
    {
        models::tensor::TensorStatistics statistics;
        std::list<QString>::iterator use;
    };
    // find() is const but marks the entry as recently used.
    mutable std::list<QString> m_uses; ///< most recently used first
    QHash<QString, Entry> m_entries;
    int m_maxEntries = kDefaultMaxEntries;
};

/// Statistics of the slice shown by the tensor panel next to those of the whole tensor, and a histogram of
/// either. Small slices are computed at once; large slices and whole tensors on a worker thread, with a
/// progress bar and a cancel button for the whole tensor. Switching tensors cancels the running job; the
/// GUI thread never scans data. The cache is not owned.
class TensorStatsWidget : public QWidget
{
    Q_OBJECT
public:
    enum class HistogramSource { Slice, Whole };
    /// Slices with at most this many elements are computed on the GUI thread.
    static constexpr std::int64_t kSynchronousLimit = 1 << 16;
    static constexpr int kHistogramBins = 64;

    explicit TensorStatsWidget(QWidget* parent = nullptr);
    ~TensorStatsWidget() override;

    void setCache(TensorStatsCache* cache);
    TensorStatsCache* cache() const { return m_cache; }

    void setSlice(const models::tensor::Tensor& slice);
    void setWhole(const QString& location, const models::tensor::Tensor& whole);
    void clear();

    /// Cancels the whole-tensor computation, if one runs.
    void cancelWhole();

    std::optional<models::tensor::TensorStatistics> sliceStatistics() const { return m_sliceStats; }
    std::optional<models::tensor::TensorStatistics> wholeStatistics() const { return m_wholeStats; }
    QString location() const { return m_location; }
    bool isComputingSlice() const { return m_sliceJob != nullptr; }
    bool isComputingWhole() const { return m_wholeJob != nullptr; }
    /// Number of whole-tensor computations started (tests check cache hits with it).
    int wholeComputations() const { return m_wholeComputations; }

    HistogramSource histogramSource() const { return m_histogramSource; }
    void setHistogramSource(HistogramSource source);
    bool logCounts() const { return m_logCounts; }
    void setLogCounts(bool log);
    /// Bin counts and the [min, max] range of the shown histogram (empty when there is none).
    const std::vector<std::int64_t>& histogramCounts() const { return m_histogram.counts; }
    double histogramMin() const { return m_histogram.min; }
    double histogramMax() const { return m_histogram.max; }

    /// Text shown in the table for a statistic row (0-based, in the order of rowNames()) and column
    /// (0 slice, 1 whole).
    QString cellText(int row, int column) const;
    static QStringList rowNames();

    QTableWidget* table() const { return m_table; }
    QCustomPlot* plot() const { return m_plot; }
    QProgressBar* progressBar() const { return m_progress; }
    QToolButton* cancelButton() const { return m_cancel; }
    /// Shown after a cancelled whole-tensor computation, to start it again.
    QToolButton* computeButton() const { return m_compute; }
    QCheckBox* logCheckBox() const { return m_logBox; }
    QComboBox* sourceCombo() const { return m_sourceCombo; }
    ChartExportMenu* exportMenu() const { return m_exportMenu; }
    /// Whether the histogram sits below the numbers (a narrow panel) rather than beside them.
    bool isStacked() const;

    QSize minimumSizeHint() const override;

signals:
    void wholeStatisticsReady(const QString& location, const models::tensor::TensorStatistics& statistics);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Histogram
    {
        std::vector<std::int64_t> counts;
        double min = 0;
        double max = 0;
    };
    /// What a worker hands back: statistics (unless given) and the histogram over their finite range.
    struct Result
    {
        models::tensor::TensorStatistics statistics;
        Histogram histogram;
        QString damage; ///< the file changed under the tensor while it was read
    };
    struct Job;

    static Result compute(const models::tensor::Tensor& tensor,
                          const std::optional<models::tensor::TensorStatistics>& known,
                          const models::tensor::StatisticsOptions& options);
    void startSlice();
    /// Starts the whole-tensor job: statistics unless known, and the histogram.
    void startWhole();
    void stopSliceJob();
    void stopWholeJob();
    void wholeFinished(const Result& result, bool computedStatistics);
    void showColumn(int column, const std::optional<models::tensor::TensorStatistics>& statistics,
                    const QString& pending);
    void updateHistogram();
    void updateProgress();
    void updateWholeControls();
    ChartData chartData() const;

    QPointer<TensorStatsCache> m_cache;
    models::tensor::Tensor m_slice;
    bool m_hasSlice = false;
    models::tensor::Tensor m_whole;
    bool m_hasWhole = false;
    bool m_wholeCancelled = false;
    QString m_damage; ///< set when the file under the tensor shrank while its statistics were computed
    QString m_location;
    std::optional<models::tensor::TensorStatistics> m_sliceStats;
    std::optional<models::tensor::TensorStatistics> m_wholeStats;
    std::optional<Histogram> m_sliceHistogram;
    std::optional<Histogram> m_wholeHistogram;
    Histogram m_histogram; ///< the one shown
    std::shared_ptr<Job> m_sliceJob;
    std::shared_ptr<Job> m_wholeJob;
    int m_wholeComputations = 0;
    HistogramSource m_histogramSource = HistogramSource::Slice;
    bool m_logCounts = false;

    QTableWidget* m_table = nullptr;
    QCustomPlot* m_plot = nullptr;
    QBoxLayout* m_outer = nullptr; ///< numbers and histogram, side by side or stacked
    QBoxLayout* m_numbersLayout = nullptr;
    QBoxLayout* m_chartLayout = nullptr;
    QCPBars* m_bars = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
    QToolButton* m_compute = nullptr;
    QToolButton* m_exportButton = nullptr;
    QCheckBox* m_logBox = nullptr;
    QComboBox* m_sourceCombo = nullptr;
    QLabel* m_status = nullptr;
    QTimer* m_progressTimer = nullptr;
    ChartExportMenu* m_exportMenu = nullptr;
};

} // namespace runlens::widgets::tensor
