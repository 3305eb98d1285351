#pragma once

#include <QList>
#include <QString>
#include <QWidget>

class QGridLayout;

namespace runlens::widgets {

/// How large the cards of a grid panel are: smaller cards put more charts on a row.
enum class CardSize { Small, Medium, Large };

/// "small", "medium", "large": how a panel keeps the size in its saved state.
QString cardSizeKey(CardSize size);
CardSize cardSizeFromKey(const QString& key, CardSize fallback = CardSize::Medium);

/// How a card grid fills a width (TensorBoard's card grid): as many columns as cards of at least
/// `minCardWidth` fit, at most `maxColumns`; cards `aspect` times as tall as wide, kept within
/// [minHeight, maxHeight] (aspect 0: always minHeight). The numbers are those of a medium card.
struct CardGridSpec
{
    int minCardWidth = 380;
    int maxColumns = 4;
    int spacing = 10;
    double aspect = 0.0;
    int minHeight = 230;
    int maxHeight = 340;

    /// The spec for cards of `size`: small cards are narrower and lower with more of them on a row, large
    /// ones wider and taller with fewer.
    CardGridSpec scaled(CardSize size) const;
};

/// Columns and card size for one width.
struct CardGridGeometry
{
    int columns = 1;
    int cardWidth = 0;
    int cardHeight = 0;

    bool operator==(const CardGridGeometry&) const = default;
};

/// The geometry of a grid `availableWidth` wide (without margins); at least one column.
CardGridGeometry cardGridGeometry(const CardGridSpec& spec, int availableWidth);

/// Widgets laid out as cards of one height in rows of equal columns. The owner sets the column count and
/// card height (from cardGridGeometry() and the width it has); the grid takes the widgets as children but
/// deleting them stays with the owner: widgets no longer listed are hidden, not deleted.
class CardGrid final : public QWidget
{
    Q_OBJECT
public:
    explicit CardGrid(QWidget* parent = nullptr);

    /// The cards shown, in order.
    void setWidgets(const QList<QWidget*>& widgets);
    QList<QWidget*> widgets() const { return m_widgets; }
    /// Puts `replacement` in the cell of `current`, which is hidden, not deleted.
    void replaceWidget(QWidget* current, QWidget* replacement);
    void setColumns(int columns, int cardHeight);
    int columns() const { return m_columns; }
    int cardHeight() const { return m_cardHeight; }
    /// The grid's row and column of a card; (-1, -1) when it is not in the grid.
    QPair<int, int> cellOf(QWidget* widget) const;

private:
    void relayout();

    QGridLayout* m_grid = nullptr;
    QList<QWidget*> m_widgets;
    int m_columns = 2;
    int m_cardHeight = 280;
};

} // namespace runlens::widgets
