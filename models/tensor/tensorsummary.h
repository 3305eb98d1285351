#pragma once

#include "models/tensor/dtype.h"
#include "models/tensor/tensorstatistics.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace runlens::models::tensor {

/// What `runlens info` reports for one tensor of a tensor file: its type and whole-tensor statistics.
struct TensorSummary
{
    QString member; ///< archive member or safetensors entry; empty for a `.npy`
    DType dtype = DType::Float32;
    std::vector<std::int64_t> shape;
    QString note;
    std::optional<TensorStatistics> statistics; ///< absent when the values could not be read
};

} // namespace runlens::models::tensor
