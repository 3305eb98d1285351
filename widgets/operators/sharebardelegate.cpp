#include "widgets/operators/sharebardelegate.h"

#include "widgets/common/chartpalette.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace runlens::widgets::operators {

ShareBarDelegate::ShareBarDelegate(int shareRole, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_shareRole(shareRole)
{ }

void ShareBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const double share = std::clamp(index.data(m_shareRole).toDouble(), 0.0, 1.0);
    const QRect area = option.rect.adjusted(3, 3, -3, -3);
    painter->save();
    if (share > 0 && area.width() > 0) {
        QColor bar = runColor(0);
        bar.setAlphaF(option.state & QStyle::State_Selected ? 0.55 : 0.35);
        const int width = std::max(1, int(area.width() * share + 0.5));
        painter->fillRect(QRect(area.left(), area.top(), width, area.height()), bar);
    }
    const QPalette::ColorRole role = option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text;
    painter->setPen(option.palette.color(role));
    painter->setFont(opt.font);
    painter->drawText(area.adjusted(2, 0, -2, 0), Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
}

QSize ShareBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setWidth(std::max(size.width(), 110));
    return size;
}

} // namespace runlens::widgets::operators
