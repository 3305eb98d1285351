#include "widgets/scalars/chartplaceholder.h"

#include "widgets/common/chartpalette.h"

#include <QPainter>

namespace runlens::widgets::scalars {

ChartPlaceholder::ChartPlaceholder(const QString& tag, QWidget* parent)
    : QWidget(parent)
    , m_tag(tag)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void ChartPlaceholder::paintEvent(QPaintEvent* event)
{
    Q_UNUSED(event)
    QPainter painter(this);
    const QPalette pal = palette();
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    painter.fillRect(rect(), base);
    painter.setPen(QPen(blendColors(text, base, 0.82), 1));
    painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    QFont titleFont = font();
    titleFont.setWeight(QFont::DemiBold);
    painter.setFont(titleFont);
    painter.setPen(blendColors(text, base, 0.5));
    painter.drawText(rect().adjusted(12, 8, -12, -8), Qt::AlignLeft | Qt::AlignTop, m_tag);
}

} // namespace runlens::widgets::scalars
