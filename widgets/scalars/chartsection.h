#pragma once

#include <QList>
#include <QWidget>

class QLabel;
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

} // namespace runlens::widgets::scalars
