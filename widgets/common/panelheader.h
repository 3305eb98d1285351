#pragma once

#include <QString>
#include <QWidget>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QToolButton;

namespace runlens {

class ChartExportMenu;

/// The row at the top of a panel: selectors (run, rank, device), a summary that takes the free width, a
/// filter field, the panel's own buttons and its Export button, with the margins and spacing every panel
/// shares. Widgets stand, and take the keyboard focus, in the order they are added; the header creates
/// them as its children and the panel keeps the pointers it needs. Widgets a panel makes itself are
/// created with the header as parent and added with addWidget() in their turn.
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

    explicit PanelHeader(QWidget* parent = nullptr);

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
    /// A widget the panel made itself, parented to this header.
    void addWidget(QWidget* widget, int stretch = 0);

    /// The Export button's menu; null before addExportButton().
    QMenu* exportMenu() const { return m_exportMenu; }
    /// Puts a chart's export actions in the Export menu, in a submenu when `submenuTitle` is not empty
    /// (panels with more than one chart).
    void addChartExport(const ChartExportMenu* chart, const QString& submenuTitle = {});

private:
    QHBoxLayout* m_row = nullptr;
    QMenu* m_exportMenu = nullptr;
};

} // namespace runlens
