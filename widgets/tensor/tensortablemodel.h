#pragma once

#include "models/tensor/tensor.h"

#include <QAbstractTableModel>
#include <QItemSelection>

#include <cstdint>

namespace runlens::widgets::tensor {

/// The values of a rank 0, 1 or 2 tensor view as a table: a scalar is one cell, a vector one column, a
/// matrix rows x columns. Nothing is stored per cell: each cell is read from the view when asked, so a
/// slice of millions of elements costs no memory. Header sections show indices in the tensor the view was
/// cut from (see setAxisOrigins). The model keeps the view (and so its data) alive.
class TensorTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles {
        ValueRole = Qt::UserRole + 1, ///< the element as a double
    };

    explicit TensorTableModel(QObject* parent = nullptr);
    ~TensorTableModel() override;

    /// Shows `view`; a rank above 2 gives an empty model.
    void setTensor(const models::tensor::Tensor& view);
    const models::tensor::Tensor& tensor() const { return m_tensor; }

    /// Header labels: row r shows rowStart + r * rowStep, column c shows colStart + c * colStep.
    void setAxisOrigins(std::int64_t rowStart, std::int64_t rowStep, std::int64_t colStart, std::int64_t colStep);
    /// Significant digits of floating values in Qt::DisplayRole.
    void setPrecision(int digits);
    int precision() const { return m_precision; }
    void setScientific(bool scientific);
    bool scientific() const { return m_scientific; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The cells' bounding box as tab-separated lines (cells inside the box but not listed are left empty).
    QString toTsv(const QModelIndexList& cells) const;
    /// The same with the column indices as a first line and the row index as a first column.
    QString toTsvWithIndices(const QModelIndexList& cells) const;

    /// The same for a view's selection, without listing its cells when it fills its bounding box.
    QString selectionToTsv(const QItemSelection& selection, bool withIndices) const;

    /// Display text of one element at full precision (round-trip for floats, exact for integers).
    QString fullText(int row, int column) const;
    /// Display text with the current precision and notation.
    QString displayText(int row, int column) const;

private:
    const std::byte* elementPointer(int row, int column) const;
    double elementValue(int row, int column) const;
    QString formatElement(const std::byte* p, bool full) const;

    models::tensor::Tensor m_tensor;
    std::int64_t m_rows = 0;
    std::int64_t m_columns = 0;
    std::int64_t m_rowStride = 0; ///< bytes
    std::int64_t m_columnStride = 0; ///< bytes
    std::int64_t m_rowStart = 0;
    std::int64_t m_rowStep = 1;
    std::int64_t m_colStart = 0;
    std::int64_t m_colStep = 1;
    int m_precision = 6;
    bool m_scientific = false;
};

} // namespace runlens::widgets::tensor
