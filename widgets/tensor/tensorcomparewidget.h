#pragma once

#include "models/tensor/tensor.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QTableWidget;
class QVBoxLayout;

namespace runlens::widgets::tensor {

class HeatmapView;

/// Two tensors of the same shape side by side as one: the element-wise difference (signed, absolute or
/// relative) as a heatmap, a summary line (max and mean |diff|, RMSE, differing elements, NaN mismatches)
/// and the largest differences with their indices. Typically the same tensor at two steps. Small tensors
/// are compared at once, large ones on a worker thread; a new pair or mode cancels the running job.
class TensorCompareWidget : public QWidget
{
    Q_OBJECT
public:
    enum class Mode { Difference, AbsoluteDifference, RelativeDifference };
    /// Pairs with at most this many elements are compared on the GUI thread.
    static constexpr std::int64_t kSynchronousLimit = 1 << 16;
    /// Rows of the largest-differences table.
    static constexpr int kLargest = 100;

    explicit TensorCompareWidget(QWidget* parent = nullptr);
    ~TensorCompareWidget() override;

    void setTensors(const models::tensor::Tensor& a, const QString& labelA, const models::tensor::Tensor& b,
                    const QString& labelB);
    void clear();

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);

    bool isComputing() const { return m_job != nullptr; }
    /// The summary line as shown, or the reason nothing is compared.
    QString summaryText() const;
    /// Indices of the rows of the largest-differences table, in order.
    std::vector<std::vector<std::int64_t>> largestIndices() const;

    QComboBox* modeCombo() const { return m_modeCombo; }
    QLabel* summaryLabel() const { return m_summary; }
    /// The element under the mouse in the heatmap: its index, both values and their difference.
    QLabel* hoverLabel() const { return m_hover; }
    QTableWidget* largestTable() const { return m_table; }
    HeatmapView* heatmap() const { return m_heatmap; }

signals:
    void indexActivated(const std::vector<std::int64_t>& index);
    /// The comparison of the current pair in the current mode is shown.
    void comparisonReady();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Outcome;
    struct Job;

    void start();
    void stopJob();
    void showOutcome(const std::shared_ptr<const Outcome>& outcome);
    void showMessage(const QString& message);
    void showHovered(std::int64_t row, std::int64_t column, double diff);

    models::tensor::Tensor m_a;
    models::tensor::Tensor m_b;
    QString m_labelA;
    QString m_labelB;
    bool m_hasTensors = false;
    Mode m_mode = Mode::Difference;
    std::shared_ptr<Job> m_job;
    std::shared_ptr<const Outcome> m_outcome;
    std::vector<std::int64_t> m_shownShape; ///< of the difference in the heatmap, to fit it when it changes
    bool m_fitPending = false; ///< fit the heatmap once it has its size

    QComboBox* m_modeCombo = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_hover = nullptr;
    HeatmapView* m_heatmap = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace runlens::widgets::tensor
