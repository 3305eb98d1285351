#include "app/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHash>
#include <QHeaderView>
#include <QKeySequence>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace runlens::app {

namespace {

/// "&Open Run Folder…" → "Open Run Folder…"; "&&" stays one ampersand.
QString plainText(QString text)
{
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

QString keysText(const QList<QKeySequence>& shortcuts)
{
    QStringList keys;
    for (const QKeySequence& shortcut : shortcuts)
        keys << shortcut.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

} // namespace

ShortcutsDialog::ShortcutsDialog(const QMenuBar* menuBar, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    resize(640, 680);

    auto* filter = new QLineEdit(this);
    filter->setObjectName(QStringLiteral("shortcutFilter"));
    filter->setPlaceholderText(tr("Filter by command or key"));
    filter->setToolTip(tr("Shows only the lines whose command, keys or group contain this text"));
    filter->setClearButtonEnabled(true);

    m_view = new QTreeWidget(this);
    m_view->setObjectName(QStringLiteral("shortcutList"));
    m_view->setColumnCount(2);
    m_view->setHeaderLabels({ tr("Command"), tr("Keys") });
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setRootIsDecorated(false);
    m_view->setItemsExpandable(false);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_view->header()->setStretchLastSection(false);

    QList<Entry> entries = menuShortcuts(menuBar);
    entries += panelShortcuts();
    QTreeWidgetItem* group = nullptr;
    for (const Entry& entry : std::as_const(entries)) {
        if (!group || group->text(0) != entry.group) {
            group = new QTreeWidgetItem(m_view, { entry.group });
            QFont font = group->font(0);
            font.setBold(true);
            group->setFont(0, font);
            group->setFirstColumnSpanned(true);
        }
        auto* item = new QTreeWidgetItem(group, { entry.command, entry.keys });
        item->setToolTip(0, entry.command);
    }
    m_view->expandAll();

    connect(filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        for (int g = 0; g < m_view->topLevelItemCount(); ++g) {
            QTreeWidgetItem* groupItem = m_view->topLevelItem(g);
            const bool groupMatches = groupItem->text(0).contains(text, Qt::CaseInsensitive);
            int shown = 0;
            for (int i = 0; i < groupItem->childCount(); ++i) {
                QTreeWidgetItem* item = groupItem->child(i);
                const bool match = groupMatches || item->text(0).contains(text, Qt::CaseInsensitive)
                    || item->text(1).contains(text, Qt::CaseInsensitive);
                item->setHidden(!match);
                shown += match ? 1 : 0;
            }
            groupItem->setHidden(shown == 0);
        }
    });

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(buttons);
}

void ShortcutsDialog::collect(const QMenu* menu, const QString& group, QList<Entry>& out)
{
    for (const QAction* action : menu->actions()) {
        if (action->isSeparator() || !action->isVisible())
            continue;
        if (const QMenu* sub = action->menu()) {
            collect(sub, group + QStringLiteral(" > ") + plainText(sub->title()), out);
            continue;
        }
        if (action->shortcuts().isEmpty())
            continue;
        out.append({ group, plainText(action->text()), keysText(action->shortcuts()) });
    }
}

QList<ShortcutsDialog::Entry> ShortcutsDialog::menuShortcuts(const QMenuBar* menuBar)
{
    QList<Entry> entries;
    if (!menuBar)
        return entries;
    for (const QAction* action : menuBar->actions()) {
        if (const QMenu* menu = action->menu())
            collect(menu, plainText(menu->title()), entries);
    }
    // One block per menu path even when a submenu sits between two runs of its parent's items.
    QHash<QString, int> firstOfGroup;
    for (int i = 0; i < entries.size(); ++i)
        firstOfGroup.insert(entries[i].group, firstOfGroup.value(entries[i].group, i));
    std::stable_sort(entries.begin(), entries.end(), [&firstOfGroup](const Entry& a, const Entry& b) {
        return firstOfGroup.value(a.group) < firstOfGroup.value(b.group);
    });
    return entries;
}

QList<ShortcutsDialog::Entry> ShortcutsDialog::panelShortcuts()
{
    const QString timeline = tr("Timeline");
    const QString graph = tr("Graph");
    const QString charts = tr("Scalars and Distributions");
    const QString memory = tr("Memory");
    const QString tensors = tr("Tensors and Images");
    auto key
        = [](QKeySequence::StandardKey standard) { return QKeySequence(standard).toString(QKeySequence::NativeText); };
    return {
        { timeline, tr("Zoom in / out (hold to keep going)"), QStringLiteral("W / S") },
        { timeline, tr("Pan left / right (hold to keep going)"), QStringLiteral("A / D") },
        { timeline, tr("Pan by a step"), tr("Left / Right") },
        { timeline, tr("Fit the whole trace"), QStringLiteral("F") },
        { timeline, tr("Mark the selected range"), QStringLiteral("M") },
        { timeline, tr("Clear the selection and highlight"), tr("Esc") },
        { timeline, tr("Undo the last zoom"), key(QKeySequence::Undo) },
        { timeline, tr("Zoom at the cursor"), tr("Wheel") },
        { timeline, tr("Pan"), tr("Shift+Wheel, drag") },
        { timeline, tr("Select a time range"), tr("Shift+drag") },
        { graph, tr("Expand or collapse the selected group"), tr("Enter, double-click") },
        { graph, tr("Collapse the selected node's parent"), tr("Backspace") },
        { graph, tr("Fit the graph to the view"), tr("Space") },
        { graph, tr("Zoom in / out"), tr("+ / −, Wheel") },
        { graph, tr("Clear the selection"), tr("Esc") },
        { charts, tr("Zoom a chart (the plain wheel scrolls the page)"), tr("Ctrl+Wheel") },
        { charts, tr("Fit the chart to its data"), tr("Double-click") },
        { memory, tr("Zoom at the cursor"), tr("Wheel") },
        { memory, tr("Fit every curve"), tr("Double-click") },
        { tensors, tr("Copy the selected values"), key(QKeySequence::Copy) },
        { tensors, tr("Zoom the heat map or image"), tr("Ctrl+Wheel") },
    };
}

} // namespace runlens::app
