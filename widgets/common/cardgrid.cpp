#include "widgets/common/cardgrid.h"

#include <QGridLayout>

#include <algorithm>
#include <cmath>

namespace runlens::widgets {

QString cardSizeKey(CardSize size)
{
    switch (size) {
    case CardSize::Small:
        return QStringLiteral("small");
    case CardSize::Medium:
        return QStringLiteral("medium");
    case CardSize::Large:
        return QStringLiteral("large");
    }
    return QStringLiteral("medium");
}

CardSize cardSizeFromKey(const QString& key, CardSize fallback)
{
    for (CardSize size : { CardSize::Small, CardSize::Medium, CardSize::Large }) {
        if (key == cardSizeKey(size))
            return size;
    }
    return fallback;
}

CardGridSpec CardGridSpec::scaled(CardSize size) const
{
    if (size == CardSize::Medium)
        return *this;
    // Small cards still hold a readable chart (axis labels and a legend line); large ones make two columns
    // of a wide dock at most.
    const double factor = size == CardSize::Small ? 0.68 : 1.5;
    CardGridSpec spec = *this;
    spec.minCardWidth = int(std::lround(minCardWidth * factor));
    spec.minHeight = int(std::lround(minHeight * (size == CardSize::Small ? 0.78 : 1.3)));
    spec.maxHeight = int(std::lround(maxHeight * (size == CardSize::Small ? 0.78 : 1.4)));
    spec.maxColumns = size == CardSize::Small ? maxColumns + 2 : std::max(1, maxColumns / 2);
    return spec;
}

CardGridGeometry cardGridGeometry(const CardGridSpec& spec, int availableWidth)
{
    CardGridGeometry geometry;
    const int width = std::max(1, availableWidth);
    geometry.columns = std::clamp((width + spec.spacing) / std::max(1, spec.minCardWidth + spec.spacing), 1,
                                  std::max(1, spec.maxColumns));
    geometry.cardWidth = std::max(1, (width - (geometry.columns - 1) * spec.spacing) / geometry.columns);
    geometry.cardHeight = spec.aspect > 0 ? std::clamp(int(std::lround(geometry.cardWidth * spec.aspect)),
                                                       spec.minHeight, std::max(spec.minHeight, spec.maxHeight))
                                          : spec.minHeight;
    return geometry;
}

CardGrid::CardGrid(QWidget* parent)
    : QWidget(parent)
{
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 2, 0, 6);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(10);
}

void CardGrid::setWidgets(const QList<QWidget*>& widgets)
{
    if (widgets == m_widgets)
        return;
    for (QWidget* w : std::as_const(m_widgets)) {
        if (!widgets.contains(w)) {
            m_grid->removeWidget(w);
            w->hide();
        }
    }
    m_widgets = widgets;
    relayout();
}

void CardGrid::replaceWidget(QWidget* current, QWidget* replacement)
{
    const qsizetype i = m_widgets.indexOf(current);
    if (i < 0 || !replacement)
        return;
    m_widgets[i] = replacement;
    m_grid->removeWidget(current);
    current->hide();
    replacement->setParent(this);
    replacement->setFixedHeight(m_cardHeight);
    m_grid->addWidget(replacement, int(i) / m_columns, int(i) % m_columns);
    replacement->show();
}

void CardGrid::setColumns(int columns, int cardHeight)
{
    columns = std::max(1, columns);
    if (columns == m_columns && cardHeight == m_cardHeight)
        return;
    m_columns = columns;
    m_cardHeight = cardHeight;
    relayout();
}

QPair<int, int> CardGrid::cellOf(QWidget* widget) const
{
    const int index = m_grid->indexOf(widget);
    if (index < 0)
        return { -1, -1 };
    int row = 0;
    int column = 0;
    int rowSpan = 0;
    int columnSpan = 0;
    m_grid->getItemPosition(index, &row, &column, &rowSpan, &columnSpan);
    return { row, column };
}

void CardGrid::relayout()
{
    for (QWidget* w : std::as_const(m_widgets))
        m_grid->removeWidget(w);
    for (int i = 0; i < m_widgets.size(); ++i) {
        QWidget* w = m_widgets.at(i);
        w->setParent(this);
        w->setFixedHeight(m_cardHeight);
        m_grid->addWidget(w, i / m_columns, i % m_columns);
        w->show();
    }
    // Equal columns even when the last row is not full.
    const int columnCount = std::max(m_grid->columnCount(), m_columns);
    for (int c = 0; c < columnCount; ++c)
        m_grid->setColumnStretch(c, c < m_columns ? 1 : 0);
}

} // namespace runlens::widgets
