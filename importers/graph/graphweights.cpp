#include "importers/graph/graphweights.h"

#include "importers/tensor/tensorlisting.h"
#include "models/tensor/dtype.h"

#include <QFileInfo>
#include <QHash>

#include <bit>
#include <optional>
#include <string_view>

namespace runlens::importers::graph {

namespace {

std::optional<models::tensor::DType> dtypeOf(std::string_view name)
{
    using models::tensor::DType;
    static const std::pair<std::string_view, DType> kTypes[] = {
        { "bool", DType::Bool },       { "int8", DType::Int8 },           { "int16", DType::Int16 },
        { "int32", DType::Int32 },     { "int64", DType::Int64 },         { "uint8", DType::UInt8 },
        { "uint16", DType::UInt16 },   { "uint32", DType::UInt32 },       { "uint64", DType::UInt64 },
        { "float16", DType::Float16 }, { "bfloat16", DType::BFloat16 },   { "float32", DType::Float32 },
        { "float64", DType::Float64 }, { "complex64", DType::Complex64 }, { "complex128", DType::Complex128 },
    };
    for (const auto& [n, t] : kTypes) {
        if (n == name)
            return t;
    }
    return std::nullopt;
}

} // namespace

QList<models::tensor::TensorSeries> graphWeightSeries(const models::graph::Graph& graph)
{
    QList<models::tensor::TensorSeries> out;
    QHash<QString, std::shared_ptr<const tensor::SharedFileMapping>> mappings; // one per data file
    const QString graphName = QFileInfo(graph.path).fileName();
    for (const models::graph::Node& node : graph.nodes) {
        if (!models::graph::hasLocatedValues(node))
            continue;
        const models::graph::TensorLocation& data = *node.data;
        const std::optional<models::tensor::DType> dtype = dtypeOf(data.type.dtype);
        if (!dtype)
            continue;
        models::tensor::Tensor layout;
        layout.name = QString::fromStdString(node.id);
        layout.dtype = *dtype;
        layout.shape = data.type.dims;
        bool known = true;
        for (const std::int64_t d : layout.shape)
            known = known && d >= 0;
        const int item = models::tensor::itemSize(*dtype);
        const std::int64_t count = models::tensor::elementCount(layout.shape);
        if (!known || models::tensor::byteCount(count, item) != data.length)
            continue; // the shape does not account for the located bytes
        layout.strides = models::tensor::Tensor::contiguousStrides(layout.shape, item);
        layout.offset = data.offset;
        layout.swap = std::endian::native == std::endian::big; // raw elements are little-endian

        const QString file = models::graph::weightDataFile(graph, data);
        // One stat and one mapping per data file: an ONNX model keeps a thousand initializers in one file.
        auto& mapping = mappings[file];
        if (!mapping)
            mapping = std::make_shared<const tensor::SharedFileMapping>(file, QFileInfo(file).size());
        const qint64 fileSize = mapping->expectedSize();
        if (fileSize <= 0 || data.offset > fileSize - data.length)
            continue;

        models::tensor::TensorInfo info;
        info.path = file;
        info.member = QString::fromStdString(node.id);
        info.format = QStringLiteral("graph");
        info.dtype = *dtype;
        info.shape = layout.shape;
        info.byteSize = data.length;
        info.source = std::make_shared<const tensor::MappedTensorSource>(mapping, std::move(layout));

        models::tensor::TensorSeries series;
        series.name = graphName + QStringLiteral(": ") + QString::fromStdString(node.id);
        series.nodeKey = QString::fromStdString(node.id);
        series.kind = QStringLiteral("weight");
        series.versions.append(std::move(info));
        out.append(std::move(series));
    }
    return out;
}

} // namespace runlens::importers::graph
