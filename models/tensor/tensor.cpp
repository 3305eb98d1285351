#include "models/tensor/tensor.h"

#include <QStringList>

#include <algorithm>
#include <limits>

namespace runlens::models::tensor {

namespace {

// Shapes come from file headers: a product that does not fit saturates, and the size checks against the
// file that follow refuse it.
std::int64_t saturatingMultiply(std::int64_t a, std::int64_t b)
{
    std::int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product))
        return std::numeric_limits<std::int64_t>::max();
    return product;
}

} // namespace

std::int64_t elementCount(const std::vector<std::int64_t>& shape)
{
    // An empty (or invalid, negative) extent makes the tensor empty whatever the others claim.
    for (const std::int64_t extent : shape) {
        if (extent <= 0)
            return 0;
    }
    std::int64_t count = 1;
    for (const std::int64_t extent : shape)
        count = saturatingMultiply(count, extent);
    return count;
}

std::int64_t byteCount(std::int64_t count, int itemBytes)
{
    return saturatingMultiply(std::max<std::int64_t>(count, 0), itemBytes);
}

QString shapeText(const std::vector<std::int64_t>& shape)
{
    QStringList parts;
    for (const std::int64_t extent : shape)
        parts << QString::number(extent);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

std::int64_t Tensor::elementCount() const
{
    return tensor::elementCount(shape);
}

bool Tensor::isContiguous() const
{
    if (elementCount() == 0)
        return true;
    std::int64_t expected = itemSize(dtype);
    for (int k = rank() - 1; k >= 0; --k) {
        // A dimension of one element can have any stride: it is never stepped over.
        if (shape[k] != 1 && strides[k] != expected)
            return false;
        expected = saturatingMultiply(expected, shape[k]);
    }
    return true;
}

std::vector<std::int64_t> Tensor::contiguousStrides(const std::vector<std::int64_t>& shape, int itemBytes)
{
    std::vector<std::int64_t> result(shape.size());
    std::int64_t stride = itemBytes;
    for (int k = int(shape.size()) - 1; k >= 0; --k) {
        result[k] = stride;
        stride = saturatingMultiply(stride, shape[k] > 0 ? shape[k] : 1);
    }
    return result;
}

double Tensor::value(const std::vector<std::int64_t>& index) const
{
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    if (!data || index.size() != shape.size() || strides.size() != shape.size())
        return kNaN;
    std::int64_t position = offset;
    for (size_t k = 0; k < index.size(); ++k) {
        if (index[k] < 0 || index[k] >= shape[k])
            return kNaN;
        std::int64_t step = 0;
        if (__builtin_mul_overflow(index[k], strides[k], &step) || __builtin_add_overflow(position, step, &position))
            return kNaN;
    }
    if (position < 0 || position > data->size() - itemSize(dtype))
        return kNaN;
    return loadElement(data->data() + position, dtype, swap);
}

} // namespace runlens::models::tensor
