#pragma once

#include "tensor/tensor.h"

#include <QString>

#include <optional>

namespace runlens::tensor {

/// A `.npy` file opened as a Tensor, or why it cannot be (the message names the file).
struct NpyFileResult
{
    std::optional<Tensor> tensor;
    QString error;
};

/// The element type numpy's kind code and item size describe ('f' and 4 → Float32), if RunLens reads it.
std::optional<DType> dtypeFromNpy(char typeCode, std::int64_t itemSize);

/// Opens the `.npy` at `path` as a Tensor over a read-only memory mapping of its data: only the header is
/// read now, elements are paged in when viewed. C and Fortran order and both byte orders are kept as
/// strides and `swap`. Object arrays, strings and data shorter than the shape claims are refused.
NpyFileResult openNpyFile(const QString& path);

} // namespace runlens::tensor
