#pragma once

#include <QColor>

namespace runlens::widgets {

/// Categorical colours for runs and series. The first ten are a Tableau-10-like set chosen to stay
/// distinguishable on light and dark backgrounds; later indices cycle through them with a lightness shift
/// so that runs 11+ still differ from runs 1-10.
QColor runColor(int index);

/// The number of distinct base colours before runColor() starts shifting lightness.
int runColorCount();

/// A colour for "something is wrong here" marks (NaN/Inf values) that stands apart from the run colours.
QColor alertColor();

/// Blends `a` towards `b`: t = 0 gives a, t = 1 gives b. Used for grid lines and muted text derived from a palette.
QColor blendColors(const QColor& a, const QColor& b, double t);

} // namespace runlens::widgets
