#pragma once

#include <QList>
#include <QMap>
#include <QWidget>

#include <functional>

class QLabel;
class QLayout;
class QToolButton;

namespace runlens::widgets {
class CardGrid;
}

namespace runlens::widgets::scalars {

/// A collapsible group of charts with a header (arrow, name, count) and the charts in a grid whose column
/// count the owner sets from the available width. Does not own the chart logic, only lays widgets out.
class ChartSection final : public QWidget
{
    Q_OBJECT
public:
    explicit ChartSection(const QString& name, QWidget* parent = nullptr);

    QString name() const { return m_name; }
    void setCount(int shown, int total);
    /// A short line beside the header saying what the group is (empty: none).
    void setNote(const QString& note);
    QString note() const;

    void setExpanded(bool expanded);
    bool isExpanded() const { return m_expanded; }

    /// Sets the charts shown, in order (widgets are reparented; ones no longer listed are hidden, not deleted).
    void setWidgets(const QList<QWidget*>& widgets);
    QList<QWidget*> widgets() const;
    /// Takes `widget` out of the grid; the others keep their order. The widget is not deleted.
    void removeWidget(QWidget* widget);
    /// Puts `replacement` where `current` is (same grid cell); `current` is hidden, not deleted.
    void replaceWidget(QWidget* current, QWidget* replacement);
    void setColumns(int columns, int chartHeight);
    int columns() const;
    CardGrid* grid() const { return m_grid; }

    QToolButton* headerButton() const { return m_header; }

signals:
    void expandedChanged(bool expanded);

private:
    QString m_name;
    QToolButton* m_header = nullptr;
    QLabel* m_countLabel = nullptr;
    QLabel* m_noteLabel = nullptr;
    CardGrid* m_grid = nullptr;
    bool m_expanded = true;
};

/// Removes from `cards` (widgets by key) each entry whose key `keep` rejects: it leaves the section
/// `sectionOf(key)` returns (none when null), is hidden, and is deleted when control returns to the event loop.
template<class Map, class Keep, class SectionOf> void retireCards(Map& cards, Keep keep, SectionOf sectionOf)
{
    for (auto it = cards.begin(); it != cards.end();) {
        if (keep(it.key())) {
            ++it;
            continue;
        }
        if (ChartSection* section = sectionOf(it.key()))
            section->removeWidget(it.value());
        it.value()->hide();
        it.value()->deleteLater();
        it = cards.erase(it);
    }
}

/// Removes from `sections` and from `layout` each section whose key `keep` rejects, as retireCards() does.
void retireSections(QMap<QString, ChartSection*>& sections, QLayout* layout,
                    const std::function<bool(const QString&)>& keep);

} // namespace runlens::widgets::scalars
