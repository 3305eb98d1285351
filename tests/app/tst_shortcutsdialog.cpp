#include "app/shortcutsdialog.h"

#include <QAction>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QtTest>

using runlens::app::ShortcutsDialog;

class TestShortcutsDialog : public QObject
{
    Q_OBJECT
private slots:
    void listsMenuActionsWithTheirKeys();
    void dialogGroupsByMenuAndFilters();
    void panelKeysAreListed();

private:
    static void fillMenuBar(QMenuBar& bar);
};

void TestShortcutsDialog::fillMenuBar(QMenuBar& bar)
{
    QMenu* file = bar.addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&Open Run Folder…"))->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    file->addAction(QStringLiteral("Without a key")); // not listed
    QMenu* recent = file->addMenu(QStringLiteral("Open &Recent"));
    recent->addAction(QStringLiteral("Reopen &Last"))->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    file->addSeparator();
    QAction* hidden = file->addAction(QStringLiteral("Hidden"));
    hidden->setShortcut(QKeySequence(Qt::Key_F9));
    hidden->setVisible(false);
    file->addAction(QStringLiteral("&Quit"))->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    QMenu* view = bar.addMenu(QStringLiteral("&View"));
    QAction* both = view->addAction(QStringLiteral("Save && Close"));
    both->setShortcuts({ QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R) });
}

void TestShortcutsDialog::listsMenuActionsWithTheirKeys()
{
    QMenuBar bar;
    fillMenuBar(bar);
    const auto entries = ShortcutsDialog::menuShortcuts(&bar);
    QCOMPARE(entries.size(), 4);
    // Menu order, with the submenu's block after its parent's.
    QCOMPARE(entries[0].group, QStringLiteral("File"));
    QCOMPARE(entries[0].command, QStringLiteral("Open Run Folder…"));
    QCOMPARE(entries[0].keys, QKeySequence(Qt::CTRL | Qt::Key_O).toString(QKeySequence::NativeText));
    QCOMPARE(entries[1].group, QStringLiteral("File"));
    QCOMPARE(entries[1].command, QStringLiteral("Quit"));
    QCOMPARE(entries[1].keys, QStringLiteral("Ctrl+Q"));
    QCOMPARE(entries[2].group, QStringLiteral("File > Open Recent"));
    QCOMPARE(entries[2].command, QStringLiteral("Reopen Last"));
    QCOMPARE(entries[2].keys, QStringLiteral("Ctrl+Shift+T"));
    QCOMPARE(entries[3].group, QStringLiteral("View"));
    QCOMPARE(entries[3].command, QStringLiteral("Save & Close"));
    QCOMPARE(entries[3].keys, QStringLiteral("F5, Ctrl+R"));
    QVERIFY(ShortcutsDialog::menuShortcuts(nullptr).isEmpty());
}

void TestShortcutsDialog::dialogGroupsByMenuAndFilters()
{
    QMenuBar bar;
    fillMenuBar(bar);
    ShortcutsDialog dialog(&bar);
    QTreeWidget* view = dialog.view();
    QVERIFY(view->topLevelItemCount() >= 3);
    QTreeWidgetItem* file = view->topLevelItem(0);
    QCOMPARE(file->text(0), QStringLiteral("File"));
    QCOMPARE(file->childCount(), 2);
    QCOMPARE(file->child(1)->text(0), QStringLiteral("Quit"));
    QCOMPARE(file->child(1)->text(1), QStringLiteral("Ctrl+Q"));
    QCOMPARE(view->topLevelItem(1)->text(0), QStringLiteral("File > Open Recent"));

    auto* filter = dialog.findChild<QLineEdit*>(QStringLiteral("shortcutFilter"));
    QVERIFY(filter);
    filter->setText(QStringLiteral("ctrl+q"));
    QVERIFY(!file->isHidden());
    QVERIFY(file->child(0)->isHidden());
    QVERIFY(!file->child(1)->isHidden());
    QVERIFY(view->topLevelItem(1)->isHidden());
    filter->clear();
    QVERIFY(!file->child(0)->isHidden());
    QVERIFY(!view->topLevelItem(1)->isHidden());
}

void TestShortcutsDialog::panelKeysAreListed()
{
    const auto entries = ShortcutsDialog::panelShortcuts();
    QStringList timelineKeys;
    for (const auto& entry : entries) {
        QVERIFY(!entry.group.isEmpty() && !entry.command.isEmpty() && !entry.keys.isEmpty());
        if (entry.group == QStringLiteral("Timeline"))
            timelineKeys << entry.keys;
    }
    // The keys TimelineView::keyPressEvent handles.
    for (const char* key : { "W / S", "A / D", "F", "M" })
        QVERIFY2(timelineKeys.contains(QLatin1String(key)), key);

    QMenuBar bar;
    ShortcutsDialog dialog(&bar);
    bool graph = false;
    for (int g = 0; g < dialog.view()->topLevelItemCount(); ++g)
        graph = graph || dialog.view()->topLevelItem(g)->text(0) == QStringLiteral("Graph");
    QVERIFY(graph);
}

QTEST_MAIN(TestShortcutsDialog)
#include "tst_shortcutsdialog.moc"
