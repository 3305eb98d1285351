#include "widgets/scalars/chartsection.h"

#include "widgets/common/cardgrid.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QToolButton>
#include <QVBoxLayout>

namespace runlens::widgets::scalars {

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

    m_noteLabel = new QLabel(this);
    m_noteLabel->setObjectName(QStringLiteral("sectionNote"));
    m_noteLabel->setForegroundRole(QPalette::PlaceholderText);
    m_noteLabel->hide();

    auto* headerRow = new QHBoxLayout;
    headerRow->setContentsMargins(0, 0, 0, 0);
    headerRow->setSpacing(6);
    headerRow->addWidget(m_header);
    headerRow->addWidget(m_countLabel);
    headerRow->addWidget(m_noteLabel);
    headerRow->addStretch(1);

    m_grid = new CardGrid(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(headerRow);
    layout->addWidget(m_grid);
}

void ChartSection::setCount(int shown, int total)
{
    m_countLabel->setText(shown == total ? QString::number(total) : tr("%1 of %2").arg(shown).arg(total));
}

void ChartSection::setNote(const QString& note)
{
    m_noteLabel->setText(note);
    m_noteLabel->setVisible(!note.isEmpty());
}

QString ChartSection::note() const
{
    return m_noteLabel->text();
}

void ChartSection::setExpanded(bool expanded)
{
    if (expanded == m_expanded)
        return;
    m_expanded = expanded;
    m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_grid->setVisible(expanded);
    emit expandedChanged(expanded);
}

void ChartSection::setWidgets(const QList<QWidget*>& widgets)
{
    m_grid->setWidgets(widgets);
}

QList<QWidget*> ChartSection::widgets() const
{
    return m_grid->widgets();
}

void ChartSection::removeWidget(QWidget* widget)
{
    QList<QWidget*> shown = widgets();
    if (shown.removeAll(widget) > 0)
        setWidgets(shown);
}

void retireSections(QMap<QString, ChartSection*>& sections, QLayout* layout,
                    const std::function<bool(const QString&)>& keep)
{
    for (auto it = sections.begin(); it != sections.end();) {
        if (keep(it.key())) {
            ++it;
            continue;
        }
        layout->removeWidget(it.value());
        it.value()->hide();
        it.value()->deleteLater();
        it = sections.erase(it);
    }
}

void ChartSection::replaceWidget(QWidget* current, QWidget* replacement)
{
    m_grid->replaceWidget(current, replacement);
}

void ChartSection::setColumns(int columns, int chartHeight)
{
    m_grid->setColumns(columns, chartHeight);
}

int ChartSection::columns() const
{
    return m_grid->columns();
}

} // namespace runlens::widgets::scalars
