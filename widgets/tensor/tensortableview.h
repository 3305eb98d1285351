#pragma once

#include <QTableView>

namespace runlens::widgets::tensor {

class TensorTableModel;

/// A table for TensorTableModel: uniform fixed row heights so tens of millions of rows scroll smoothly,
/// Ctrl+C and a context menu copy the selection as TSV (optionally with the indices).
class TensorTableView : public QTableView
{
    Q_OBJECT
public:
    explicit TensorTableView(QWidget* parent = nullptr);
    ~TensorTableView() override;

    void setModel(QAbstractItemModel* model) override;

    /// The selected cells as TSV (bounding box), optionally with index header row and column.
    QString selectionAsTsv(bool withIndices) const;
    void copySelection(bool withIndices = false);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    TensorTableModel* tensorModel() const;
};

} // namespace runlens::widgets::tensor
