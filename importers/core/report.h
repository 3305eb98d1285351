#pragma once

#include "models/core/importstate.h"
#include "models/core/runmanifest.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace runlens {

/// The reports of `runlens scan` and `runlens info`, as JSON (the stable contract documented in the
/// README) and as text for a terminal. Paths in reports are relative to the root.
QJsonObject scanReportJson(const RunManifest& manifest);
QString scanReportText(const RunManifest& manifest);

/// `states` has one entry per manifest artifact.
QJsonObject infoReportJson(const RunManifest& manifest, const std::vector<ArtifactState>& states);
QString infoReportText(const RunManifest& manifest, const std::vector<ArtifactState>& states);

} // namespace runlens
