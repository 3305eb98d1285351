#pragma once

#include "models/advisor/advisorinput.h"
#include "models/core/runmanifest.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace runlens::importers {

/// Reads a run folder (or one file) for the Advisor without a window: scalars, histograms, tensors (files
/// and summary tensors), graphs, traces, memory profiles and MindSpore profiler output. The traces of the
/// ranks of one job are read together into one store, so that one TraceInput holds every rank.
///
/// Blocks until everything is read. Needs a QCoreApplication: the combined rank traces are delivered
/// through the event loop. Warnings and errors of the scan and of each artifact go to `problems`, each
/// naming its file; what could be read is returned all the same.
models::advisor::AdvisorInput loadAdvisorInput(const QString& path, QStringList* problems = nullptr);

/// The trace artifacts of each job that has traces of two or more ranks (the newest trace of each rank),
/// as indices into `manifest.artifacts` ordered by rank. Ranks in folders of their own (`job/rank_3`)
/// belong to the job `job`. Jobs beyond 32 ranks or 4 GiB of traces are left out.
QList<QList<int>> rankTraceGroups(const models::RunManifest& manifest);

} // namespace runlens::importers
