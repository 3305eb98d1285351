#include "widgets/common/chartstyle.h"

#include "widgets/common/theme.h"

#include <QWidget>

#include <qcustomplot.h>

#include <algorithm>

namespace runlens::widgets {

ChartChrome styleChartAxes(QCustomPlot* plot, const QFont& font, bool bareValueAxis)
{
    const ChartTheme theme = chartTheme(plot->palette());
    ChartChrome chrome;
    chrome.background = theme.background;
    chrome.muted = theme.muted;
    chrome.axisLine = theme.axisLine;
    chrome.gridLine = theme.gridLine;
    chrome.tickFont = font;
    chrome.tickFont.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.85));
    plot->setBackground(chrome.background);
    for (QCPAxis* axis : { plot->xAxis, plot->yAxis }) {
        const bool bare = bareValueAxis && axis == plot->yAxis;
        axis->setBasePen(bare ? QPen(Qt::NoPen) : QPen(chrome.axisLine, 1));
        axis->setTickPen(QPen(chrome.axisLine, 1));
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLengthIn(0);
        axis->setTickLengthOut(bare ? 0 : 4);
        axis->setTickLabelColor(chrome.muted);
        axis->setTickLabelFont(chrome.tickFont);
        axis->setLabelColor(chrome.muted);
        axis->setLabelFont(chrome.tickFont);
        axis->grid()->setPen(QPen(chrome.gridLine, 1));
        axis->grid()->setSubGridVisible(false);
        axis->grid()->setAntialiased(false);
    }
    return chrome;
}

std::function<void(bool exporting)> exportTitleHook(QCustomPlot* plot, const QWidget* owner,
                                                    std::function<QString()> title)
{
    return [plot, owner, title = std::move(title)](bool exporting) {
        QCPLayoutGrid* layout = plot->plotLayout();
        if (exporting) {
            layout->insertRow(0);
            auto* element = new QCPTextElement(plot, title());
            QFont font = owner->font();
            font.setWeight(QFont::DemiBold);
            element->setFont(font);
            element->setTextColor(owner->palette().color(QPalette::Text));
            layout->addElement(0, 0, element);
            layout->setRowStretchFactor(0, 0.001);
        } else if (auto* element = qobject_cast<QCPTextElement*>(layout->element(0, 0))) {
            layout->remove(element);
            layout->simplify();
        }
    };
}

} // namespace runlens::widgets
