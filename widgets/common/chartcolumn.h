#pragma once

class QLabel;
class QObject;
class QScrollArea;
class QVBoxLayout;
class QWidget;

namespace runlens::widgets {

/// The scrolling page a chart panel lays its sections or cards on: a vertical scroll area (object name
/// "chartScroll") whose content ("chartContent") starts with the empty-state message ("emptyState").
/// The panel adds its sections or grid to `layout` below the message and keeps the parts.
struct ChartColumn
{
    QScrollArea* scroll = nullptr;
    QWidget* content = nullptr;
    QVBoxLayout* layout = nullptr;
    QLabel* emptyLabel = nullptr;
};

/// Builds the column inside `parent`; `viewportFilter` (usually the panel) watches the viewport's resizes
/// and wheel events. The content has `sideMargin` left, right and bottom, `topMargin` on top.
ChartColumn createChartColumn(QWidget* parent, QObject* viewportFilter, int sideMargin, int topMargin = 8,
                              int spacing = 8);

} // namespace runlens::widgets
