#pragma once

#include <QList>
#include <QSet>
#include <QString>
#include <QWidget>

#include <functional>
#include <limits>
#include <vector>

class QAction;
class QComboBox;
class QFrame;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QToolButton;

namespace runlens::widgets {

class ChartExportMenu;

/// The row at the top of a panel: selectors (run, rank, device), a summary that takes the free width, a
/// filter field, the panel's own buttons and its Export button, with the margins and spacing every panel
/// shares. Widgets stand, and take the keyboard focus, in the order they are added; the header creates
/// them as its children and the panel keeps the pointers it needs. Widgets a panel makes itself are
/// created with the header as parent and added with addWidget() in their turn.
///
/// With enableOverflowMenu() the row fits any panel width: the widgets that matter least move into a
/// "…" menu at the row's end when the panel is narrower than the row, so the header never makes a dock
/// wider than its default and nothing is cut off at the edge.
class PanelHeader final : public QWidget
{
    Q_OBJECT
public:
    /// How a label treats text wider than its room.
    enum class TextMode {
        /// One line; the label is as wide as its text, so long text widens the panel.
        SingleLine,
        /// Wraps onto more lines; the header grows in height.
        WordWrap,
        /// One line cut with "…" at the panel's edge; text() stays the whole text.
        Elide,
    };

    static constexpr int kMarginX = 8;
    static constexpr int kMarginY = 6;
    static constexpr int kSpacing = 8;
    /// The overflow priority of widgets that never leave the row.
    static constexpr int kAlwaysShown = std::numeric_limits<int>::max();
    /// Puts the overflow entry of a group of widgets into `menu`.
    using OverflowEntry = std::function<void(QMenu* menu)>;

    explicit PanelHeader(QWidget* parent = nullptr);

    /// The one-pixel line panels draw between their header and what it controls, in the palette's Mid role.
    static QFrame* createRule(QWidget* parent);

    /// A combo box choosing what the panel shows (a run, a rank, a device).
    QComboBox* addSelector(const QString& objectName, const QString& toolTip = {});
    /// A plain-text label of its text's width.
    QLabel* addLabel(const QString& objectName, TextMode mode = TextMode::SingleLine);
    /// The plain-text summary that takes the width left over.
    QLabel* addSummary(const QString& objectName, TextMode mode = TextMode::Elide);
    /// A filter field with a clear button that takes the width left over.
    QLineEdit* addFilter(const QString& objectName, const QString& placeholder);
    /// The Export button with an empty menu (exportMenu()) that pops up at once.
    QToolButton* addExportButton(const QString& objectName, const QString& icon = QStringLiteral("chart-export-image"));
    /// A tool button for `action` (its text, icon, tooltip, checked state), as a toolbar would show it.
    QToolButton* addAction(QAction* action, const QString& objectName = {});
    /// A widget the panel made itself, parented to this header.
    void addWidget(QWidget* widget, int stretch = 0);
    /// Empty room that takes the width left over (a row without a summary or filter stays left-aligned).
    void addStretch();

    /// Lets the row fit any width (see the class comment). The header's minimum width is then that of the
    /// widgets that always stay: the summary and the filter unless setOverflowPriority() says otherwise.
    /// When the row is too wide, widgets leave it lowest priority first, and among equals the last added
    /// first; they come back as the panel widens.
    void enableOverflowMenu();
    bool hasOverflowMenu() const { return m_overflowButton != nullptr; }
    /// The "…" button; null without enableOverflowMenu().
    QToolButton* overflowButton() const { return m_overflowButton; }
    /// How long `widget` (and the widgets grouped with it) stays in the row; higher stays longer.
    void setOverflowPriority(QWidget* widget, int priority);
    /// Makes `widgets` leave and come back together, with one entry in the overflow menu: `entry`, or the
    /// one the header writes (see overflowMenu()). The group takes the priority of its first widget.
    void groupForOverflow(const QList<QWidget*>& widgets, OverflowEntry entry = {});
    /// Widgets that are in the overflow menu now rather than in the row.
    QList<QWidget*> overflowWidgets() const;
    /// The overflow menu as it shows now: a button becomes its action (a menu button its submenu), a check
    /// box a checkable action, a combo box a submenu of its choices (named by the group's label, else the
    /// combo box's accessible name, else its current text), other fields a copy of themselves that edits
    /// the original; a label names the entry of its group.
    QMenu* overflowMenu();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /// The Export button's menu; null before addExportButton().
    QMenu* exportMenu() const { return m_exportMenu; }
    /// Puts a chart's export actions in the Export menu, in a submenu when `submenuTitle` is not empty
    /// (panels with more than one chart).
    void addChartExport(const ChartExportMenu* chart, const QString& submenuTitle = {});

protected:
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Group
    {
        QList<QWidget*> widgets;
        int priority = 0;
        OverflowEntry entry;
    };

    void place(QWidget* widget, int stretch, int priority);
    Group* groupOf(QWidget* widget);
    bool wanted(const QWidget* widget) const;
    int stretchOf(QWidget* widget) const;
    int naturalWidth(const Group& group) const;
    int squeezedWidth(const Group& group) const;
    void updateOverflow();
    void fillOverflowMenu();
    void addDefaultEntry(QMenu* menu, const Group& group);

    QHBoxLayout* m_row = nullptr;
    QMenu* m_exportMenu = nullptr;
    QToolButton* m_overflowButton = nullptr;
    QMenu* m_overflowMenu = nullptr;
    std::vector<Group> m_groups;
    QSet<QWidget*> m_movedOut;
    bool m_updating = false;
};

} // namespace runlens::widgets
