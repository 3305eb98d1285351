#pragma once

#include "models/trace/tracestore.h"

#include <QColor>

#include <string_view>

namespace runlens::widgets::timeline {

/// Slice colours: a name always gets the same colour (FNV-1a hash into a soft categorical palette), so a
/// kernel or an op is recognisable across tracks, zoom levels and runs.
QRgb timelineNameColor(std::string_view name);
/// A colour per canonical event kind (the "colour by category" option).
QRgb timelineKindColor(models::trace::EventKind kind);
/// Readable label colour on a slice of colour `background`.
QRgb timelineTextColor(QRgb background);

} // namespace runlens::widgets::timeline
