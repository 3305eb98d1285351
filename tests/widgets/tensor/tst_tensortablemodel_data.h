#pragma once

#include "models/tensor/tensor.h"

#include <cstring>
#include <memory>
#include <vector>

namespace runlens::test {

/// A C-ordered tensor of `type` over a copy of `values` in memory, for the table and heatmap view tests.
template<typename T>
models::tensor::Tensor tensorOf(const std::vector<T>& values, models::tensor::DType type,
                                std::vector<std::int64_t> shape)
{
    std::vector<std::byte> bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    models::tensor::Tensor t;
    t.dtype = type;
    t.shape = std::move(shape);
    t.strides = models::tensor::Tensor::contiguousStrides(t.shape, int(sizeof(T)));
    t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    return t;
}

} // namespace runlens::test
