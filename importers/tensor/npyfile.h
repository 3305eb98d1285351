#pragma once

#include "importers/tensor/npyheader.h"
#include "models/tensor/tensor.h"
#include "models/tensor/tensorcatalog.h"

#include <QString>

#include <optional>

namespace runlens::importers::tensor {

/// A `.npy` file opened as a Tensor, or why it cannot be (the message names the file).
struct NpyFileResult
{
    std::optional<models::tensor::Tensor> tensor;
    QString error;
    QString note; ///< how the element type was read when numpy's header does not say it plainly
};

/// The element type of a parsed header, or nothing when RunLens does not read it. Raw two-byte elements
/// (`<V2`, how numpy saves bfloat16 arrays of its extensions) are read as bfloat16 and one-byte ones as
/// float8 when `fileName` names the format (`e4m3`, `e5m2`); `note` then says so.
struct NpyElementType
{
    std::optional<models::tensor::DType> type;
    QString note;
};
NpyElementType npyElementType(const NpyHeader& header, const QString& fileName);

/// The element type numpy's kind code and item size describe ('f' and 4 → Float32), if RunLens reads it.
std::optional<models::tensor::DType> dtypeFromNpy(char typeCode, std::int64_t itemSize);

/// Opens the `.npy` at `path` as a Tensor over a read-only memory mapping of its data: only the header is
/// read now, elements are paged in when viewed. C and Fortran order and both byte orders are kept as
/// strides and `swap`. Object arrays, strings and data shorter than the shape claims are refused.
NpyFileResult openNpyFile(const QString& path);

/// A catalog source that opens the `.npy` at `path` (mapping it) each time it is viewed.
std::shared_ptr<const models::tensor::TensorSource> npyTensorSource(const QString& path);

} // namespace runlens::importers::tensor
