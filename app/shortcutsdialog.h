#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QMenu;
class QMenuBar;
class QTreeWidget;

namespace runlens::app {

/// Help > Keyboard Shortcuts: every menu command that has a key, read from the menu bar when the dialog
/// opens (so it never disagrees with the menus), then the keys and gestures the panels handle themselves.
class ShortcutsDialog final : public QDialog
{
    Q_OBJECT
public:
    struct Entry
    {
        QString group; ///< "File", "View > Panels", "Timeline" ...
        QString command;
        QString keys; ///< as the platform writes them, alternatives separated by commas
    };

    explicit ShortcutsDialog(const QMenuBar* menuBar, QWidget* parent = nullptr);

    /// Menu actions with a shortcut, grouped by menu path, in menu order. Hidden actions are left out.
    static QList<Entry> menuShortcuts(const QMenuBar* menuBar);
    /// What the panels do with keys and the mouse wheel (kept next to their keyPressEvent/wheelEvent docs).
    static QList<Entry> panelShortcuts();

    QTreeWidget* view() const { return m_view; }

private:
    static void collect(const QMenu* menu, const QString& group, QList<Entry>& out);

    QTreeWidget* m_view = nullptr;
};

} // namespace runlens::app
