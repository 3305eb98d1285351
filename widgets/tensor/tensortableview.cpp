#include "widgets/tensor/tensortableview.h"

#include "widgets/tensor/tensortablemodel.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>

namespace runlens::widgets::tensor {

TensorTableView::TensorTableView(QWidget* parent)
    : QTableView(parent)
{
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setWordWrap(false);
    setCornerButtonEnabled(true);
    // Uniform fixed sizes let the view map a scroll position to a row by division instead of asking every
    // row for its height, which is what keeps tens of millions of rows smooth.
    const int rowHeight = fontMetrics().height() + 6;
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(rowHeight);
    verticalHeader()->setMinimumSectionSize(rowHeight);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    horizontalHeader()->setDefaultSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("-0.00000e+00")) + 12);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    setVerticalScrollMode(QAbstractItemView::ScrollPerItem);
}

TensorTableView::~TensorTableView() = default;

void TensorTableView::setModel(QAbstractItemModel* model)
{
    QTableView::setModel(model);
}

TensorTableModel* TensorTableView::tensorModel() const
{
    return qobject_cast<TensorTableModel*>(model());
}

QString TensorTableView::selectionAsTsv(bool withIndices) const
{
    const TensorTableModel* tensor = tensorModel();
    if (!tensor || !selectionModel())
        return {};
    return tensor->selectionToTsv(selectionModel()->selection(), withIndices);
}

void TensorTableView::copySelection(bool withIndices)
{
    const QString text = selectionAsTsv(withIndices);
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

void TensorTableView::keyPressEvent(QKeyEvent* event)
{
    if (event == QKeySequence::Copy) {
        copySelection(false);
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

void TensorTableView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    const bool hasSelection = selectionModel() && selectionModel()->hasSelection();
    QAction* copy = menu.addAction(tr("Copy"), this, [this] { copySelection(false); });
    copy->setShortcut(QKeySequence::Copy);
    QAction* copyIndices = menu.addAction(tr("Copy with indices"), this, [this] { copySelection(true); });
    copy->setEnabled(hasSelection);
    copyIndices->setEnabled(hasSelection);
    menu.exec(event->globalPos());
}

} // namespace runlens::widgets::tensor
