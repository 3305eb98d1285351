#pragma once

namespace runlens::importers::summary {

/// Which Event schema the records of a TFRecord-framed summary file hold.
enum class SummaryFlavor {
    TensorBoard, ///< tensorboard.Event (TF1/TF2, PyTorch, tensorboardX)
    MindSpore, ///< mindinsight Event (`_MS` files)
};

} // namespace runlens::importers::summary
