#include "widgets/common/panelheader.h"

#include "widgets/common/chartexportmenu.h"
#include "widgets/common/charticons.h"

#include <QAbstractButton>
#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QScopedValueRollback>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QWidgetAction>

#include <algorithm>

namespace runlens::widgets {

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

int hintWidth(const QWidget* widget)
{
    return std::clamp(widget->sizeHint().width(), widget->minimumWidth(), widget->maximumWidth());
}

int leastWidth(const QWidget* widget)
{
    if (widget->minimumWidth() > 0)
        return widget->minimumWidth();
    return std::min(widget->minimumSizeHint().width(), hintWidth(widget));
}

/// A copy of a slider or spin box for the overflow menu that edits the original, or null for other widgets.
QWidget* editingCopy(QWidget* original, QWidget* parent)
{
    if (auto* slider = qobject_cast<QSlider*>(original)) {
        auto* copy = new QSlider(slider->orientation(), parent);
        copy->setRange(slider->minimum(), slider->maximum());
        copy->setPageStep(slider->pageStep());
        copy->setSingleStep(slider->singleStep());
        copy->setValue(slider->value());
        copy->setMinimumWidth(std::max(slider->minimumWidth(), 120));
        QObject::connect(copy, &QSlider::valueChanged, slider, &QSlider::setValue);
        QObject::connect(slider, &QSlider::valueChanged, copy, &QSlider::setValue);
        return copy;
    }
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(original)) {
        auto* copy = new QDoubleSpinBox(parent);
        copy->setRange(spin->minimum(), spin->maximum());
        copy->setDecimals(spin->decimals());
        copy->setSingleStep(spin->singleStep());
        copy->setPrefix(spin->prefix());
        copy->setSuffix(spin->suffix());
        copy->setValue(spin->value());
        QObject::connect(copy, &QDoubleSpinBox::valueChanged, spin, &QDoubleSpinBox::setValue);
        QObject::connect(spin, &QDoubleSpinBox::valueChanged, copy, &QDoubleSpinBox::setValue);
        return copy;
    }
    if (auto* spin = qobject_cast<QSpinBox*>(original)) {
        auto* copy = new QSpinBox(parent);
        copy->setRange(spin->minimum(), spin->maximum());
        copy->setSingleStep(spin->singleStep());
        copy->setPrefix(spin->prefix());
        copy->setSuffix(spin->suffix());
        copy->setValue(spin->value());
        QObject::connect(copy, &QSpinBox::valueChanged, spin, &QSpinBox::setValue);
        QObject::connect(spin, &QSpinBox::valueChanged, copy, &QSpinBox::setValue);
        return copy;
    }
    return nullptr;
}

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
    place(combo, 0, 0);
    return combo;
}

QLabel* PanelHeader::addLabel(const QString& objectName, TextMode mode)
{
    QLabel* label = mode == TextMode::Elide ? new ElidingLabel(this) : new QLabel(this);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(mode == TextMode::WordWrap);
    place(label, 0, 0);
    return label;
}

QLabel* PanelHeader::addSummary(const QString& objectName, TextMode mode)
{
    QLabel* label = addLabel(objectName, mode);
    m_row->setStretchFactor(label, 1);
    groupOf(label)->priority = kAlwaysShown;
    return label;
}

QLineEdit* PanelHeader::addFilter(const QString& objectName, const QString& placeholder)
{
    auto* edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    edit->setMinimumWidth(160);
    place(edit, 1, kAlwaysShown);
    return edit;
}

QToolButton* PanelHeader::addExportButton(const QString& objectName, const QString& icon)
{
    QToolButton* button = makeExportButton(this, objectName, icon);
    m_exportMenu = new QMenu(button);
    button->setMenu(m_exportMenu);
    place(button, 0, 0);
    return button;
}

QToolButton* PanelHeader::addAction(QAction* action, const QString& objectName)
{
    auto* button = new QToolButton(this);
    button->setObjectName(objectName);
    button->setDefaultAction(action);
    button->setAutoRaise(true);
    button->setToolButtonStyle(action->icon().isNull() ? Qt::ToolButtonTextOnly : Qt::ToolButtonTextBesideIcon);
    place(button, 0, 0);
    return button;
}

void PanelHeader::addWidget(QWidget* widget, int stretch)
{
    Q_ASSERT(widget && widget->parentWidget() == this);
    place(widget, stretch, 0);
}

void PanelHeader::addStretch()
{
    if (m_overflowButton)
        m_row->insertStretch(m_row->indexOf(m_overflowButton), 1);
    else
        m_row->addStretch(1);
}

void PanelHeader::place(QWidget* widget, int stretch, int priority)
{
    if (m_overflowButton) {
        // The "…" button stays last, in the row and for the keyboard.
        m_row->insertWidget(m_row->indexOf(m_overflowButton), widget, stretch);
        setTabOrder(widget, m_overflowButton);
    } else {
        m_row->addWidget(widget, stretch);
    }
    m_groups.push_back(Group { { widget }, priority, {} });
}

void PanelHeader::addChartExport(const ChartExportMenu* chart, const QString& submenuTitle)
{
    Q_ASSERT(m_exportMenu);
    chart->addTo(submenuTitle.isEmpty() ? m_exportMenu : m_exportMenu->addMenu(submenuTitle));
}

void PanelHeader::enableOverflowMenu()
{
    if (m_overflowButton)
        return;
    m_overflowButton = new QToolButton(this);
    m_overflowButton->setObjectName(QStringLiteral("headerOverflow"));
    m_overflowButton->setText(QStringLiteral("\u2026"));
    m_overflowButton->setToolTip(tr("More controls that do not fit the panel's width"));
    m_overflowButton->setAutoRaise(true);
    m_overflowButton->setPopupMode(QToolButton::InstantPopup);
    // "…" already says there is more; the menu arrow beside it would only make the button wider.
    m_overflowButton->setStyleSheet(QStringLiteral("QToolButton::menu-indicator { image: none; width: 0px; }"));
    m_overflowMenu = new QMenu(m_overflowButton);
    m_overflowButton->setMenu(m_overflowMenu);
    connect(m_overflowMenu, &QMenu::aboutToShow, this, &PanelHeader::fillOverflowMenu);
    m_overflowButton->hide();
    m_row->addWidget(m_overflowButton);
    updateGeometry();
}

PanelHeader::Group* PanelHeader::groupOf(QWidget* widget)
{
    for (Group& group : m_groups) {
        if (group.widgets.contains(widget))
            return &group;
    }
    return nullptr;
}

void PanelHeader::setOverflowPriority(QWidget* widget, int priority)
{
    if (Group* group = groupOf(widget))
        group->priority = priority;
    updateOverflow();
}

void PanelHeader::groupForOverflow(const QList<QWidget*>& widgets, OverflowEntry entry)
{
    if (widgets.isEmpty())
        return;
    Group* first = groupOf(widgets.first());
    Q_ASSERT(first);
    if (!first)
        return;
    const auto firstIndex = first - m_groups.data();
    for (QWidget* widget : widgets.mid(1)) {
        Group* group = groupOf(widget);
        if (!group || group == &m_groups[std::size_t(firstIndex)])
            continue;
        group->widgets.removeOne(widget);
        m_groups[std::size_t(firstIndex)].widgets.append(widget);
    }
    m_groups[std::size_t(firstIndex)].entry = std::move(entry);
    std::erase_if(m_groups, [](const Group& group) { return group.widgets.isEmpty(); });
    updateOverflow();
}

QList<QWidget*> PanelHeader::overflowWidgets() const
{
    QList<QWidget*> moved;
    for (const Group& group : m_groups) {
        for (QWidget* widget : group.widgets) {
            if (m_movedOut.contains(widget))
                moved.append(widget);
        }
    }
    return moved;
}

bool PanelHeader::wanted(const QWidget* widget) const
{
    // A widget the panel hid itself stays hidden; one the header moved out is still part of the row.
    return !widget->isHidden() || m_movedOut.contains(const_cast<QWidget*>(widget));
}

int PanelHeader::stretchOf(QWidget* widget) const
{
    const int index = m_row->indexOf(widget);
    return index < 0 ? 0 : m_row->stretch(index);
}

int PanelHeader::naturalWidth(const Group& group) const
{
    int width = 0;
    for (QWidget* widget : group.widgets) {
        if (wanted(widget))
            width += hintWidth(widget) + kSpacing;
    }
    return width;
}

int PanelHeader::squeezedWidth(const Group& group) const
{
    int width = 0;
    for (QWidget* widget : group.widgets) {
        if (wanted(widget))
            width += (stretchOf(widget) > 0 ? leastWidth(widget) : hintWidth(widget)) + kSpacing;
    }
    return width;
}

QSize PanelHeader::sizeHint() const
{
    QSize size = QWidget::sizeHint();
    if (!m_overflowButton)
        return size;
    int width = 2 * kMarginX - kSpacing;
    for (const Group& group : m_groups)
        width += naturalWidth(group);
    size.setWidth(std::max(width, 2 * kMarginX));
    return size;
}

QSize PanelHeader::minimumSizeHint() const
{
    QSize size = QWidget::minimumSizeHint();
    if (!m_overflowButton)
        return size;
    int width = 2 * kMarginX + hintWidth(m_overflowButton);
    for (const Group& group : m_groups) {
        if (group.priority == kAlwaysShown)
            width += squeezedWidth(group);
    }
    size.setWidth(width);
    size.setHeight(std::max(size.height(), QWidget::sizeHint().height()));
    return size;
}

bool PanelHeader::event(QEvent* event)
{
    const bool handled = QWidget::event(event);
    if (event->type() == QEvent::LayoutRequest)
        updateOverflow();
    return handled;
}

void PanelHeader::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateOverflow();
}

void PanelHeader::updateOverflow()
{
    if (!m_overflowButton || m_updating)
        return;
    const QScopedValueRollback<bool> guard(m_updating, true);
    const int room = width();

    int natural = 2 * kMarginX - kSpacing;
    for (const Group& group : m_groups)
        natural += naturalWidth(group);

    int squeezed = 2 * kMarginX - kSpacing;
    for (const Group& group : m_groups)
        squeezed += squeezedWidth(group);

    std::vector<bool> out(m_groups.size(), false);
    if (natural > room && squeezed > room) {
        // Move groups out, least important first and among equals the rightmost first, until the rest
        // (the stretching widgets at their least width) and the "…" button fit.
        int needed = squeezed + kSpacing + hintWidth(m_overflowButton);
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < m_groups.size(); ++i) {
            if (m_groups[i].priority != kAlwaysShown)
                order.push_back(i);
        }
        std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
            if (m_groups[a].priority != m_groups[b].priority)
                return m_groups[a].priority < m_groups[b].priority;
            return a > b;
        });
        for (std::size_t i : order) {
            if (needed <= room)
                break;
            out[i] = true;
            needed -= squeezedWidth(m_groups[i]);
        }
    }

    bool anyOut = false;
    for (std::size_t i = 0; i < m_groups.size(); ++i) {
        for (QWidget* widget : m_groups[i].widgets) {
            if (out[i]) {
                if (!widget->isHidden()) {
                    m_movedOut.insert(widget);
                    widget->hide();
                }
                anyOut = anyOut || m_movedOut.contains(widget);
            } else if (m_movedOut.remove(widget)) {
                widget->show();
            }
        }
    }
    m_overflowButton->setVisible(anyOut);
}

QMenu* PanelHeader::overflowMenu()
{
    if (m_overflowMenu)
        fillOverflowMenu();
    return m_overflowMenu;
}

void PanelHeader::fillOverflowMenu()
{
    // Rebuilt each time it opens, so it shows the widgets' current state.
    // Submenus of choices are the menu's children; a button's own menu is only borrowed (not a child).
    for (QMenu* submenu : m_overflowMenu->findChildren<QMenu*>(Qt::FindDirectChildrenOnly))
        submenu->deleteLater();
    m_overflowMenu->clear();
    m_overflowMenu->setToolTipsVisible(true);
    for (const Group& group : m_groups) {
        const bool moved = std::any_of(group.widgets.cbegin(), group.widgets.cend(),
                                       [this](QWidget* widget) { return m_movedOut.contains(widget); });
        if (!moved)
            continue;
        if (group.entry)
            group.entry(m_overflowMenu);
        else
            addDefaultEntry(m_overflowMenu, group);
    }
}

void PanelHeader::addDefaultEntry(QMenu* menu, const Group& group)
{
    QString title;
    for (QWidget* widget : group.widgets) {
        if (auto* label = qobject_cast<QLabel*>(widget); label && title.isEmpty())
            title = label->text().remove(QLatin1Char('&')).trimmed();
    }
    QList<QWidget*> fields;
    for (QWidget* widget : group.widgets) {
        if (!m_movedOut.contains(widget) || qobject_cast<QLabel*>(widget))
            continue;
        if (auto* tool = qobject_cast<QToolButton*>(widget); tool && tool->defaultAction()) {
            menu->addAction(tool->defaultAction());
            continue;
        }
        if (auto* button = qobject_cast<QAbstractButton*>(widget)) {
            const QString text = button->text().isEmpty() ? button->toolTip() : button->text();
            auto* tool = qobject_cast<QToolButton*>(button);
            if (tool && tool->menu()) {
                // The button's own menu as the submenu, so a menu that fills itself as it opens still does.
                QAction* submenu = tool->menu()->menuAction();
                submenu->setText(text);
                submenu->setIcon(button->icon());
                menu->addAction(submenu);
                continue;
            }
            QAction* action = menu->addAction(button->icon(), text);
            action->setToolTip(button->toolTip());
            action->setCheckable(button->isCheckable());
            action->setChecked(button->isChecked());
            action->setEnabled(button->isEnabled());
            connect(action, &QAction::triggered, button, [button] { button->click(); });
            continue;
        }
        if (auto* combo = qobject_cast<QComboBox*>(widget)) {
            QString name = title.isEmpty() ? combo->accessibleName() : title;
            if (name.isEmpty())
                name = combo->currentText();
            QMenu* submenu = menu->addMenu(name);
            submenu->setToolTip(combo->toolTip());
            submenu->setEnabled(combo->isEnabled());
            auto* choices = new QActionGroup(submenu);
            for (int i = 0; i < combo->count(); ++i) {
                QAction* action = submenu->addAction(combo->itemIcon(i), combo->itemText(i));
                action->setCheckable(true);
                action->setChecked(i == combo->currentIndex());
                const QModelIndex item = combo->model()->index(i, combo->modelColumn(), combo->rootModelIndex());
                action->setEnabled(combo->model()->flags(item).testFlag(Qt::ItemIsEnabled));
                choices->addAction(action);
                connect(action, &QAction::triggered, combo, [combo, i] {
                    combo->setCurrentIndex(i);
                    // As if the user picked it in the combo box: panels listen to either signal.
                    emit combo->activated(i);
                });
            }
            continue;
        }
        fields.append(widget);
    }
    if (fields.isEmpty())
        return;
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(kMarginX, 2, kMarginX, 2);
    layout->setSpacing(kSpacing);
    if (!title.isEmpty())
        layout->addWidget(new QLabel(title, row));
    for (QWidget* field : std::as_const(fields)) {
        if (QWidget* copy = editingCopy(field, row)) {
            copy->setToolTip(field->toolTip());
            layout->addWidget(copy, qobject_cast<QSlider*>(copy) ? 1 : 0);
        }
    }
    auto* action = new QWidgetAction(menu);
    action->setDefaultWidget(row);
    menu->addAction(action);
}

QFrame* PanelHeader::createRule(QWidget* parent)
{
    auto* line = new QFrame(parent);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Plain);
    line->setForegroundRole(QPalette::Mid);
    line->setFixedHeight(1);
    return line;
}

} // namespace runlens::widgets
