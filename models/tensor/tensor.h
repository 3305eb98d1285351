#pragma once

#include "models/tensor/dtype.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace runlens::models::tensor {

/// A read-only run of bytes a Tensor views: a memory mapping of a file, an inflated archive member, or
/// bytes in memory. Kept alive by every Tensor (and view) that reads it.
class TensorData
{
public:
    virtual ~TensorData() = default;
    virtual const std::byte* data() const = 0;
    virtual std::int64_t size() const = 0;
    /// Empty while the bytes are the file's; otherwise a sentence naming the file and what happened (it shrank
    /// while mapped and the missing part reads as zeros). Check after reading.
    virtual QString damage() const { return {}; }
};

/// Bytes held in memory (tests, small tensors from summaries).
class MemoryTensorData : public TensorData
{
public:
    explicit MemoryTensorData(std::vector<std::byte> bytes)
        : m_bytes(std::move(bytes))
    { }
    const std::byte* data() const override { return m_bytes.data(); }
    std::int64_t size() const override { return std::int64_t(m_bytes.size()); }

private:
    std::vector<std::byte> m_bytes;
};

/// Number of elements of a shape: the product of its extents (1 for a scalar, 0 when one is empty), saturating at
/// the largest int64 when a shape read from a header claims more.
std::int64_t elementCount(const std::vector<std::int64_t>& shape);
/// Bytes of `count` elements of `itemBytes` each, saturating like elementCount().
std::int64_t byteCount(std::int64_t count, int itemBytes);
/// "[6, 3, 5, 5]" (numpy writes shapes with parentheses; lists of extents read more plainly in brackets).
QString shapeText(const std::vector<std::int64_t>& shape);

/// An n-dimensional array over a byte source: element (i0, i1, ...) lives at
/// `offset + sum(ik * strides[k])` bytes. Strides are in bytes and may be negative or zero, so slices
/// are views that share the data without copying it.
struct Tensor
{
    QString name;
    DType dtype = DType::Float32;
    std::vector<std::int64_t> shape; ///< empty for a scalar
    std::vector<std::int64_t> strides; ///< bytes, one per dimension
    std::int64_t offset = 0; ///< bytes from the start of `data` to element (0, 0, ...)
    bool swap = false; ///< the data's byte order differs from this machine's
    std::shared_ptr<const TensorData> data;

    int rank() const { return int(shape.size()); }
    /// Product of the shape (1 for a scalar, 0 when a dimension is empty).
    std::int64_t elementCount() const;
    /// Elements laid out one after another in C order with no gaps.
    bool isContiguous() const;
    /// Strides of a C-ordered (row-major) array of `shape` with elements of `itemBytes`.
    static std::vector<std::int64_t> contiguousStrides(const std::vector<std::int64_t>& shape, int itemBytes);
    /// The element at `index` (one entry per dimension, each within its dimension) as a double; NaN when
    /// the index does not fit or the element lies outside the data.
    double value(const std::vector<std::int64_t>& index) const;
};

} // namespace runlens::models::tensor
