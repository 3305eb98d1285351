#include "chartsection.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace runlens {

ChartSection::ChartSection(const QString& name, QWidget* parent)
    : QWidget(parent)
    , m_name(name)
{
    m_header = new QToolButton(this);
    m_header->setObjectName(QStringLiteral("sectionHeader"));
    m_header->setText(name);
    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setArrowType(Qt::DownArrow);
    m_header->setAutoRaise(true);
    m_header->setIconSize(QSize(10, 10));
    m_header->setCursor(Qt::PointingHandCursor);
    m_header->setToolTip(tr("Show or hide the charts of %1").arg(name));
    QFont headerFont = m_header->font();
    headerFont.setWeight(QFont::DemiBold);
    headerFont.setPointSizeF(headerFont.pointSizeF() * 1.08);
    m_header->setFont(headerFont);
    connect(m_header, &QToolButton::clicked, this, [this] { setExpanded(!m_expanded); });

    m_countLabel = new QLabel(this);
    m_countLabel->setObjectName(QStringLiteral("sectionCount"));
    m_countLabel->setForegroundRole(QPalette::PlaceholderText);

    auto* headerRow = new QHBoxLayout;
    headerRow->setContentsMargins(0, 0, 0, 0);
    headerRow->setSpacing(6);
    headerRow->addWidget(m_header);
    headerRow->addWidget(m_countLabel);
    headerRow->addStretch(1);

    m_body = new QWidget(this);
    m_grid = new QGridLayout(m_body);
    m_grid->setContentsMargins(0, 2, 0, 6);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(10);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(headerRow);
    layout->addWidget(m_body);
}

void ChartSection::setCount(int shown, int total)
{
    m_countLabel->setText(shown == total ? QString::number(total) : tr("%1 of %2").arg(shown).arg(total));
}

void ChartSection::setExpanded(bool expanded)
{
    if (expanded == m_expanded)
        return;
    m_expanded = expanded;
    m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_body->setVisible(expanded);
    emit expandedChanged(expanded);
}

void ChartSection::setWidgets(const QList<QWidget*>& widgets)
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

void ChartSection::replaceWidget(QWidget* current, QWidget* replacement)
{
    const qsizetype i = m_widgets.indexOf(current);
    if (i < 0 || !replacement)
        return;
    m_widgets[i] = replacement;
    m_grid->removeWidget(current);
    current->hide();
    replacement->setParent(m_body);
    replacement->setFixedHeight(m_chartHeight);
    m_grid->addWidget(replacement, int(i) / m_columns, int(i) % m_columns);
    replacement->show();
}

void ChartSection::setColumns(int columns, int chartHeight)
{
    columns = std::max(1, columns);
    if (columns == m_columns && chartHeight == m_chartHeight)
        return;
    m_columns = columns;
    m_chartHeight = chartHeight;
    relayout();
}

void ChartSection::relayout()
{
    for (QWidget* w : std::as_const(m_widgets))
        m_grid->removeWidget(w);
    for (int i = 0; i < m_widgets.size(); ++i) {
        QWidget* w = m_widgets.at(i);
        w->setParent(m_body);
        w->setFixedHeight(m_chartHeight);
        m_grid->addWidget(w, i / m_columns, i % m_columns);
        w->show();
    }
    // Equal columns even when the last row is not full.
    const int columnCount = std::max(m_grid->columnCount(), m_columns);
    for (int c = 0; c < columnCount; ++c)
        m_grid->setColumnStretch(c, c < m_columns ? 1 : 0);
}

} // namespace runlens
