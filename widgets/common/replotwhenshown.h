#pragma once

class QCustomPlot;

namespace runlens {

/// Replots `plot` at once when it is on screen, otherwise when it is next shown. A chart of ten thousand
/// stacked bars (the steps of a long trace) takes the GUI thread about 45 ms per replot; a panel in a
/// tab behind another need not pay that until the user brings it to the front.
void replotWhenShown(QCustomPlot* plot);

} // namespace runlens
