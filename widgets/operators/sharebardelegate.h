#pragma once

#include <QStyledItemDelegate>

namespace runlens::widgets::operators {

/// Draws a cell's share (a 0..1 fraction read from `shareRole`) as a horizontal bar behind its text, the
/// way profilers show "% of total" columns so the heavy rows stand out while scrolling.
class ShareBarDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit ShareBarDelegate(int shareRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_shareRole;
};

} // namespace runlens::widgets::operators
