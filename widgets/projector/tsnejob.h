#pragma once

#include "models/embeddings/embeddingset.h"
#include "models/embeddings/tsne.h"

#include <atomic>
#include <memory>
#include <vector>

namespace runlens::widgets::projector {

/// One t-SNE run. The panel owns it through a shared pointer and so does each chunk task on the worker
/// pool, so a task never outlives what it works on. The GUI thread reads the fields a task writes only once
/// that task has finished (the future orders the two); `cancel` alone is shared while a task runs.
class TsneJob
{
public:
    models::embeddings::EmbeddingSetPtr data;
    models::embeddings::TsneOptions options;
    bool reduce = false; ///< start from the top principal components
    std::atomic_bool cancel = false;

    // Worker side.
    std::unique_ptr<models::embeddings::TsneRun> run;
    bool pcaFailed = false;
    int chunk = 5;
    int lastProgress = -1;

    // Results of the last chunk.
    std::vector<float> embedding;
    int iteration = 0;
    double kl = 0.0;
};

} // namespace runlens::widgets::projector
