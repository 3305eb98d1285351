#pragma once

#include "models/tensor/tensor.h"

#include <QString>

class QIODevice;

namespace runlens::widgets::tensor {

/// Writes `view` as a `.npy` (format 1.0, or 2.0 for a header over 64 KiB) in C order, copying its
/// elements whatever its strides. Elements keep their stored byte order and the descr says which
/// ('<', '>' or '|'). bfloat16 and float8, which numpy lacks, are written as float32 values.
/// Returns false with `errorMessage` set when the device refuses the bytes.
bool writeNpy(const models::tensor::Tensor& view, QIODevice& device, QString* errorMessage = nullptr);

/// Writes a view of rank 0 to 2 as comma-separated values: one line per row, the shortest text that reads
/// back to the same double ("nan", "inf" and "-inf" as numpy writes them). Higher ranks are refused.
bool writeCsv(const models::tensor::Tensor& view, QIODevice& device, QString* errorMessage = nullptr);

/// The numpy descr of the elements writeNpy writes for `view`, e.g. "<f4", "|b1", ">i8".
QString npyDescr(const models::tensor::Tensor& view);

} // namespace runlens::widgets::tensor
