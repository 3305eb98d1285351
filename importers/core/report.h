#pragma once

#include "models/core/importstate.h"
#include "models/core/runmanifest.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace runlens::importers {

/// The reports of `runlens scan` and `runlens info`, as JSON (the stable contract documented in the
/// README) and as text for a terminal. Paths in reports are relative to the root.
QJsonObject scanReportJson(const models::RunManifest& manifest);
QString scanReportText(const models::RunManifest& manifest);

/// `states` has one entry per manifest artifact.
QJsonObject infoReportJson(const models::RunManifest& manifest, const std::vector<models::ArtifactState>& states);
QString infoReportText(const models::RunManifest& manifest, const std::vector<models::ArtifactState>& states);

} // namespace runlens::importers
