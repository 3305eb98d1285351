#include "panelheader.h"

#include "chartexportmenu.h"
#include "charticons.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace runlens {

namespace {

/// A one-line label that paints its text cut with "…" where the room ends. Its minimum width is a few
/// characters, so a long summary never becomes the dock's minimum width; text() is the whole text.
class ElidingLabel final : public QLabel
{
public:
    explicit ElidingLabel(QWidget* parent)
        : QLabel(parent)
    {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }

    QSize minimumSizeHint() const override
    {
        QSize size = QLabel::minimumSizeHint();
        const int margins = contentsMargins().left() + contentsMargins().right() + 2 * margin();
        size.setWidth(std::min(size.width(), fontMetrics().horizontalAdvance(QStringLiteral("Mm\u2026")) + margins));
        return size;
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        const QRect room = contentsRect().adjusted(margin(), margin(), -margin(), -margin());
        const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, room.width());
        style()->drawItemText(&painter, room, int(QStyle::visualAlignment(layoutDirection(), alignment())), palette(),
                              isEnabled(), shown, foregroundRole());
    }
};

} // namespace

PanelHeader::PanelHeader(QWidget* parent)
    : QWidget(parent)
{
    m_row = new QHBoxLayout(this);
    m_row->setContentsMargins(kMarginX, kMarginY, kMarginX, kMarginY);
    m_row->setSpacing(kSpacing);
}

QComboBox* PanelHeader::addSelector(const QString& objectName, const QString& toolTip)
{
    auto* combo = new QComboBox(this);
    combo->setObjectName(objectName);
    combo->setToolTip(toolTip);
    m_row->addWidget(combo);
    return combo;
}

QLabel* PanelHeader::addLabel(const QString& objectName, TextMode mode)
{
    QLabel* label = mode == TextMode::Elide ? new ElidingLabel(this) : new QLabel(this);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(mode == TextMode::WordWrap);
    m_row->addWidget(label);
    return label;
}

QLabel* PanelHeader::addSummary(const QString& objectName, TextMode mode)
{
    QLabel* label = addLabel(objectName, mode);
    m_row->setStretchFactor(label, 1);
    return label;
}

QLineEdit* PanelHeader::addFilter(const QString& objectName, const QString& placeholder)
{
    auto* edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    edit->setMinimumWidth(160);
    m_row->addWidget(edit, 1);
    return edit;
}

QToolButton* PanelHeader::addExportButton(const QString& objectName, const QString& icon)
{
    QToolButton* button = makeExportButton(this, objectName, icon);
    m_exportMenu = new QMenu(button);
    button->setMenu(m_exportMenu);
    m_row->addWidget(button);
    return button;
}

void PanelHeader::addWidget(QWidget* widget, int stretch)
{
    Q_ASSERT(widget && widget->parentWidget() == this);
    m_row->addWidget(widget, stretch);
}

void PanelHeader::addChartExport(const ChartExportMenu* chart, const QString& submenuTitle)
{
    Q_ASSERT(m_exportMenu);
    chart->addTo(submenuTitle.isEmpty() ? m_exportMenu : m_exportMenu->addMenu(submenuTitle));
}

} // namespace runlens
