#pragma once

#include "models/tensor/tensor.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace runlens::models::tensor {

/// One entry of a numpy index expression: an integer (drops its dimension), a range `start:stop:step`
/// with any part left out, or `...` (as many full ranges as the other entries leave over).
struct SliceItem
{
    enum class Kind { Index, Range, Ellipsis };
    Kind kind = Kind::Range;
    std::int64_t index = 0; ///< Kind::Index; negative counts from the end
    std::optional<std::int64_t> start, stop, step; ///< Kind::Range; step is never 0
    int position = 0; ///< where the entry starts in the expression (0-based), for messages
};

/// A parsed expression, or the first thing wrong with it.
struct SliceParseResult
{
    std::vector<SliceItem> items;
    QString error; ///< empty when the expression is valid
    int errorPosition = -1; ///< 0-based position of the error in the expression
    bool ok() const { return error.isEmpty(); }
};

/// A view, or why the expression does not fit the tensor.
struct SliceResult
{
    std::optional<Tensor> tensor;
    QString error;
};

/// Parses a numpy index expression such as `[0, :, 2:10:2, -1]`, `..., ::-1` or `1:` (the brackets may be
/// left out). Bounds are checked by applySlice, which knows the shape.
SliceParseResult parseSlice(const QString& expression);

/// The view of `tensor` that numpy would give for `items`: no data is copied, only offset, shape and
/// strides change. Integer entries drop their dimension; ranges are clipped as Python slices are.
SliceResult applySlice(const Tensor& tensor, const std::vector<SliceItem>& items);

/// parseSlice then applySlice; the error names the position in the expression.
SliceResult sliceTensor(const Tensor& tensor, const QString& expression);

} // namespace runlens::models::tensor
