#pragma once

class QCustomPlot;

namespace runlens::widgets {

/// Replots `plot` at once when it is on screen, otherwise when it is next painted. A chart of ten thousand
/// stacked bars (the steps of a long trace) takes the GUI thread about 45 ms per replot; a panel in a dock
/// tab behind another (which Qt keeps visible, moved out of sight) need not pay that, nor again for each
/// resize, until the user brings it to the front.
void replotWhenShown(QCustomPlot* plot);

} // namespace runlens::widgets
