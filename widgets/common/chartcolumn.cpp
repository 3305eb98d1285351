#include "widgets/common/chartcolumn.h"

#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

namespace runlens::widgets {

ChartColumn createChartColumn(QWidget* parent, QObject* viewportFilter, int sideMargin, int topMargin, int spacing)
{
    ChartColumn column;
    column.scroll = new QScrollArea(parent);
    column.scroll->setObjectName(QStringLiteral("chartScroll"));
    column.scroll->setWidgetResizable(true);
    column.scroll->setFrameShape(QFrame::NoFrame);
    column.scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    column.scroll->verticalScrollBar()->setSingleStep(24);
    column.content = new QWidget(column.scroll);
    column.content->setObjectName(QStringLiteral("chartContent"));
    column.content->setBackgroundRole(QPalette::Window);
    column.content->setAutoFillBackground(true);
    column.layout = new QVBoxLayout(column.content);
    column.layout->setContentsMargins(sideMargin, topMargin, sideMargin, sideMargin);
    column.layout->setSpacing(spacing);
    column.emptyLabel = new QLabel(column.content);
    column.emptyLabel->setObjectName(QStringLiteral("emptyState"));
    column.emptyLabel->setAlignment(Qt::AlignCenter);
    column.emptyLabel->setWordWrap(true);
    column.emptyLabel->setForegroundRole(QPalette::PlaceholderText);
    column.emptyLabel->setContentsMargins(20, 60, 20, 20);
    column.layout->addWidget(column.emptyLabel);
    column.scroll->setWidget(column.content);
    if (viewportFilter)
        column.scroll->viewport()->installEventFilter(viewportFilter);
    return column;
}

} // namespace runlens::widgets
