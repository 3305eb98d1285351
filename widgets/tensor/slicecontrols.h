#pragma once

#include "models/tensor/tensor.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <optional>

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QSlider;
class QSpinBox;
class QTimer;

namespace runlens::widgets::tensor {

/// Chooses a view of at most two dimensions of a tensor: "Rows" and "Columns" pick the dimensions shown
/// (Columns may be none, for a vector), every other dimension gets a spin box and a slider for its index,
/// and a numpy index expression (`[0, :, 2:10:2, -1]`, `...`, negative indices, steps) says the same in
/// text. The two stay in sync: the controls rewrite the text, and an edited expression (applied on Enter
/// or after a short pause) moves the controls when they can express it and always determines the view.
/// An invalid expression shows the parser's message and keeps the last valid view. Rows after columns
/// (a transposed choice) give a view with swapped strides, never a copy. The widget shares the tensor's
/// data through the Tensor it is given.
class SliceControls final : public QWidget
{
    Q_OBJECT
public:
    /// What the panel remembers per series: the expression and the chosen dimensions.
    struct State
    {
        QString expression;
        int rowDim = -1;
        int colDim = -1;
    };

    explicit SliceControls(QWidget* parent = nullptr);
    ~SliceControls() override;

    /// Shows controls for `tensor`. With `keepSlice` and an unchanged shape the slice stays (a step of the
    /// same series); otherwise the view becomes the last two dimensions at index 0 of the others.
    /// Does not emit sliceChanged().
    void setTensor(const models::tensor::Tensor& tensor, bool keepSlice = false);
    void clear();
    const models::tensor::Tensor& tensor() const { return m_tensor; }

    /// The expression of the current view (the last valid one).
    QString expression() const { return m_expression; }
    /// The current view of the tensor, sliced and transposed as chosen; nullopt without a valid one.
    const std::optional<models::tensor::Tensor>& view() const { return m_view; }
    /// Whether the view shows the later dimension as rows.
    bool isTransposed() const { return m_transposed; }
    int rowDimension() const { return m_rowDim; }
    /// -1 for none (a vector).
    int columnDimension() const { return m_colDim; }
    /// The message under the expression field; empty when the expression is valid.
    QString errorText() const;
    /// Tensor dimensions (in order) that the view keeps, for labelling its axes: rows first.
    QList<int> viewDimensions() const { return m_viewDims; }
    /// First index and step along each shown axis of the view, in the tensor's coordinates.
    QList<std::pair<std::int64_t, std::int64_t>> viewOrigins() const { return m_viewOrigins; }

    State state() const;
    /// Restores a remembered state; falls back to the default view when it does not fit the tensor.
    void setState(const State& state);

    /// Applies `text` as if typed and confirmed with Enter. Returns whether it was valid.
    bool setExpression(const QString& text);
    void setRowDimension(int dim);
    void setColumnDimension(int dim);
    void setIndex(int dim, std::int64_t index);
    std::int64_t index(int dim) const;

    QComboBox* rowCombo() const { return m_rows; }
    QComboBox* columnCombo() const { return m_cols; }
    QLineEdit* expressionEdit() const { return m_edit; }
    QLabel* errorLabel() const { return m_error; }
    /// The index spin box and slider of a dimension (hidden while it is a row or column dimension).
    QSpinBox* indexSpinBox(int dim) const;
    QSlider* indexSlider(int dim) const;

    /// The expression the controls describe, e.g. `[0, :, 3, :]`.
    static QString controlsExpression(const std::vector<std::int64_t>& shape, int rowDim, int colDim,
                                      const std::vector<std::int64_t>& indices);

signals:
    /// The view changed (through the controls or the expression).
    void sliceChanged(const QString& expression);

private:
    struct DimControls
    {
        QLabel* label = nullptr;
        QSpinBox* spin = nullptr;
        QSlider* slider = nullptr;
    };

    void rebuild();
    void resetToDefault();
    void fillCombos();
    void updateIndexVisibility();
    void onControlsChanged(bool emitChange = true);
    void onRowsChosen(int comboIndex);
    void onColumnsChosen(int comboIndex);
    void onTextEdited();
    /// Validates and applies `text`; on success syncs the controls, stores the view and returns true.
    bool applyText(const QString& text, bool emitChange);
    void showError(const QString& message);

    models::tensor::Tensor m_tensor;
    QString m_expression;
    std::optional<models::tensor::Tensor> m_view;
    bool m_transposed = false;
    int m_rowDim = -1;
    int m_colDim = -1;
    QList<int> m_viewDims;
    QList<std::pair<std::int64_t, std::int64_t>> m_viewOrigins;
    bool m_syncing = false;

    QComboBox* m_rows = nullptr;
    QComboBox* m_cols = nullptr;
    QLineEdit* m_edit = nullptr;
    QLabel* m_error = nullptr;
    QGridLayout* m_indexGrid = nullptr;
    QWidget* m_indexBox = nullptr;
    QList<DimControls> m_dims;
    QTimer* m_editTimer = nullptr;
};

} // namespace runlens::widgets::tensor
