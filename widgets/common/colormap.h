#pragma once

#include <QImage>
#include <QRgb>
#include <QSize>
#include <QString>

#include <array>

namespace runlens::widgets {

/// Colour maps for value pictures (tensor heatmaps). Viridis is perceptually uniform for magnitudes, Grey
/// for printing, Diverging (blue - white - red) for signed values around zero.
enum class ColorMap { Viridis, Grey, Diverging };

/// 256 opaque colours from the low end (index 0) to the high end (index 255).
const std::array<QRgb, 256>& colorTable(ColorMap map);

/// The map's name for menus and combo boxes (translated).
QString colorMapName(ColorMap map);

/// A picture of the map, low values on the left (or at the bottom when `size` is taller than wide).
QImage colorBar(ColorMap map, QSize size);

} // namespace runlens::widgets
