#include "models/tensor/tensorrows.h"

#include "models/tensor/dtype.h"

#include <QCoreApplication>

#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace runlens::models::tensor {

namespace {

struct RowsTr
{
    Q_DECLARE_TR_FUNCTIONS(runlens::models::tensor::TensorRows)
};

/// The byte position of element `index` within `tensor`, or -1 when it lies outside the data.
std::int64_t positionOf(const Tensor& tensor, const std::vector<std::int64_t>& index)
{
    std::int64_t position = tensor.offset;
    for (std::size_t k = 0; k < index.size(); ++k) {
        std::int64_t step = 0;
        if (__builtin_mul_overflow(index[k], tensor.strides[k], &step)
            || __builtin_add_overflow(position, step, &position))
            return -1;
    }
    return position;
}

} // namespace

TensorRows tensorRowsAsEmbeddings(const Tensor& tensor, const QString& name, const QString& source,
                                  const std::function<bool()>& cancelled)
{
    TensorRows out;
    if (tensor.rank() < 2) {
        out.error = RowsTr::tr("Only a tensor of two or more dimensions has rows to project; this one has shape %1.")
                        .arg(shapeText(tensor.shape));
        return out;
    }
    if (!tensor.data || tensor.strides.size() != tensor.shape.size()) {
        out.error = RowsTr::tr("The tensor has no data to project.");
        return out;
    }
    const std::int64_t rows = tensor.shape[0];
    const std::int64_t count = tensor.elementCount();
    const std::int64_t dims = rows > 0 ? count / rows : 0;
    if (rows < 2 || dims < 1) {
        out.error
            = RowsTr::tr("A tensor of shape %1 has too few rows or columns to project.").arg(shapeText(tensor.shape));
        return out;
    }
    if (count > kMaxProjectedValues || rows > std::numeric_limits<int>::max()
        || dims > std::numeric_limits<int>::max()) {
        out.error = RowsTr::tr("A tensor of shape %1 has %2 values, more than the %3 the Projector takes.")
                        .arg(shapeText(tensor.shape))
                        .arg(count)
                        .arg(kMaxProjectedValues);
        return out;
    }

    auto set = std::make_shared<embeddings::EmbeddingSet>();
    set->name = name;
    set->source = source;
    set->rows = int(rows);
    set->dims = int(dims);
    set->values.resize(std::size_t(count));
    const std::byte* base = tensor.data->data();
    const std::int64_t size = tensor.data->size();
    const int item = itemSize(tensor.dtype);
    float* target = set->values.data();

    if (tensor.dtype == DType::Float32 && !tensor.swap && tensor.isContiguous() && tensor.offset >= 0
        && tensor.offset <= size - count * item) {
        // Rows one after another in memory: copied a row at a time, so cancelling stays prompt.
        for (std::int64_t r = 0; r < rows; ++r) {
            if (cancelled && cancelled())
                return {};
            std::memcpy(target + r * dims, base + tensor.offset + r * dims * item, std::size_t(dims * item));
        }
    } else {
        const int rank = tensor.rank();
        std::vector<std::int64_t> index(std::size_t(rank), 0);
        constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
        for (std::int64_t r = 0; r < rows; ++r) {
            if (cancelled && cancelled())
                return {};
            std::fill(index.begin(), index.end(), 0);
            index[0] = r;
            std::int64_t position = positionOf(tensor, index);
            for (std::int64_t c = 0; c < dims; ++c) {
                *target++ = position >= 0 && position <= size - item
                    ? float(loadElement(base + position, tensor.dtype, tensor.swap))
                    : kNaN;
                // The next element in C order over the trailing dimensions (an odometer): one stride added
                // while no dimension wraps, the position recomputed after a wrap.
                bool wrapped = false;
                for (int k = rank - 1; k >= 1; --k) {
                    if (++index[std::size_t(k)] < tensor.shape[std::size_t(k)]) {
                        if (!wrapped && __builtin_add_overflow(position, tensor.strides[std::size_t(k)], &position))
                            wrapped = true; // recomputed (and found outside) below
                        break;
                    }
                    index[std::size_t(k)] = 0;
                    wrapped = true;
                }
                if (wrapped)
                    position = positionOf(tensor, index);
            }
        }
    }
    set->metadataColumns = { QStringLiteral("row") };
    set->metadata.reserve(std::size_t(rows));
    for (std::int64_t r = 0; r < rows; ++r)
        set->metadata.push_back({ QString::number(r) });
    out.set = std::move(set);
    return out;
}

} // namespace runlens::models::tensor
