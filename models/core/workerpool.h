#pragma once

class QThreadPool;

namespace runlens::models {

/// The thread pool for RunLens's own background work: imports, scans, statistics, searches, summaries of
/// traces. Qt's global pool is left to Qt, whose raster paint engine splits large fills and image
/// conversions across it from the GUI thread and waits for them: an import holding a global-pool thread
/// for seconds would stop every paint for as long. Same size as the global pool; lives until exit.
QThreadPool* workerPool();

} // namespace runlens::models
