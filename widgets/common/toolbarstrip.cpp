#include "toolbarstrip.h"

#include <QScrollArea>

namespace runlens {

QScrollArea* makeToolbarStrip(QWidget* toolbar, QWidget* parent)
{
    auto* strip = new QScrollArea(parent);
    strip->setFrameShape(QFrame::NoFrame);
    strip->setWidgetResizable(true);
    strip->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    strip->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    strip->setWidget(toolbar);
    strip->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    strip->setMinimumWidth(160);
    strip->setFixedHeight(toolbar->sizeHint().height());
    return strip;
}

} // namespace runlens
