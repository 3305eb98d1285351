#pragma once

class QScrollArea;
class QWidget;

namespace runlens {

/// Puts a panel's toolbar in a strip one toolbar high that never widens the panel: in a narrow dock the
/// toolbar's right end is cut off (and scrolled into view as the keyboard focus moves there) instead of
/// its full width becoming the dock's minimum width.
QScrollArea* makeToolbarStrip(QWidget* toolbar, QWidget* parent);

} // namespace runlens
