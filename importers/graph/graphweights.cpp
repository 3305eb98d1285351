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

/// The layout of `data` when it is plain elements of a known type and shape, else nothing.
std::optional<models::tensor::Tensor> plainLayout(const models::graph::TensorLocation& data)
{
    const std::optional<models::tensor::DType> dtype = dtypeOf(data.type.dtype);
    if (!dtype || !data.type.rankKnown || data.length <= 0)
        return std::nullopt;
    models::tensor::Tensor layout;
    layout.dtype = *dtype;
    layout.shape = data.type.dims;
    for (const std::int64_t d : layout.shape) {
        if (d < 0)
            return std::nullopt;
    }
    const int item = models::tensor::itemSize(*dtype);
    if (models::tensor::byteCount(models::tensor::elementCount(layout.shape), item) != data.length)
        return std::nullopt; // the shape does not account for the located bytes
    layout.strides = models::tensor::Tensor::contiguousStrides(layout.shape, item);
    return layout;
}

} // namespace

bool holdsPlainElements(const models::graph::TensorLocation& location)
{
    return plainLayout(location).has_value();
}

QList<models::tensor::TensorSeries> graphWeightSeries(const models::graph::Graph& graph)
{
    QList<models::tensor::TensorSeries> out;
    QHash<QString, std::shared_ptr<const tensor::SharedFileMapping>> mappings; // one per data file
    const QString graphName = QFileInfo(graph.path).fileName();
    const auto add = [&](const std::string& weight, const QString& nodeKey, const models::graph::TensorLocation& data) {
        std::optional<models::tensor::Tensor> plain = plainLayout(data);
        if (!plain)
            return;
        models::tensor::Tensor layout = std::move(*plain);
        const models::tensor::DType dtype = layout.dtype;
        layout.name = QString::fromStdString(weight);
        layout.offset = data.offset;
        layout.swap = std::endian::native == std::endian::big; // raw elements are little-endian

        const QString file = models::graph::weightDataFile(graph, data);
        // One stat and one mapping per data file: an ONNX model keeps a thousand initializers in one file.
        auto& mapping = mappings[file];
        if (!mapping)
            mapping = std::make_shared<const tensor::SharedFileMapping>(file, QFileInfo(file).size());
        const qint64 fileSize = mapping->expectedSize();
        if (fileSize <= 0 || data.offset > fileSize - data.length)
            return;

        models::tensor::TensorInfo info;
        info.path = file;
        info.member = QString::fromStdString(weight);
        info.format = QStringLiteral("graph");
        info.dtype = dtype;
        info.shape = layout.shape;
        info.byteSize = data.length;
        info.source = std::make_shared<const tensor::MappedTensorSource>(mapping, std::move(layout));

        models::tensor::TensorSeries series;
        series.name = graphName + QStringLiteral(": ") + QString::fromStdString(weight);
        series.nodeKey = nodeKey;
        series.kind = QStringLiteral("weight");
        series.versions.append(std::move(info));
        out.append(std::move(series));
    };
    for (const models::graph::Node& node : graph.nodes) {
        if (models::graph::hasLocatedValues(node))
            add(node.id, QString::fromStdString(node.id), *node.data);
    }
    // Checkpoint entries no node stands for: listed by their name, with no node to show in the graph.
    for (const models::graph::DetachedWeight& weight : graph.detachedWeights) {
        if (weight.data.encoding == "raw" && weight.data.offset >= 0)
            add(weight.name, QString(), weight.data);
    }
    return out;
}

} // namespace runlens::importers::graph
