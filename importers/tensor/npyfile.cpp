#include "importers/tensor/npyfile.h"

#include "importers/tensor/npyheader.h"
#include "importers/tensor/tensorlisting.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <bit>

namespace runlens::importers::tensor {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::tensor)
};

class NpySource final : public models::tensor::TensorSource
{
public:
    explicit NpySource(QString path)
        : m_path(std::move(path))
    { }
    models::tensor::TensorResult open() const override
    {
        NpyFileResult opened = openNpyFile(m_path);
        return { std::move(opened.tensor), std::move(opened.error) };
    }

private:
    QString m_path;
};

} // namespace

std::shared_ptr<const models::tensor::TensorSource> npyTensorSource(const QString& path)
{
    return std::make_shared<NpySource>(path);
}

std::optional<models::tensor::DType> dtypeFromNpy(char typeCode, std::int64_t itemSize)
{
    struct Entry
    {
        char code;
        std::int64_t size;
        models::tensor::DType type;
    };
    static constexpr Entry kTypes[] = {
        { 'b', 1, models::tensor::DType::Bool },      { 'i', 1, models::tensor::DType::Int8 },
        { 'i', 2, models::tensor::DType::Int16 },     { 'i', 4, models::tensor::DType::Int32 },
        { 'i', 8, models::tensor::DType::Int64 },     { 'u', 1, models::tensor::DType::UInt8 },
        { 'u', 2, models::tensor::DType::UInt16 },    { 'u', 4, models::tensor::DType::UInt32 },
        { 'u', 8, models::tensor::DType::UInt64 },    { 'f', 2, models::tensor::DType::Float16 },
        { 'f', 4, models::tensor::DType::Float32 },   { 'f', 8, models::tensor::DType::Float64 },
        { 'c', 8, models::tensor::DType::Complex64 }, { 'c', 16, models::tensor::DType::Complex128 },
    };
    for (const Entry& entry : kTypes) {
        if (entry.code == typeCode && entry.size == itemSize)
            return entry.type;
    }
    return std::nullopt;
}

NpyElementType npyElementType(const NpyHeader& header, const QString& fileName)
{
    NpyElementType out;
    if (header.typeCode == kExtensionTypeCode) {
        for (models::tensor::DType type : { models::tensor::DType::BFloat16, models::tensor::DType::Float8E4M3,
                                            models::tensor::DType::Float8E5M2 }) {
            if (models::tensor::dtypeName(type) == header.dtype)
                out.type = type;
        }
        return out;
    }
    if (header.typeCode == 'V') {
        const QString name = QFileInfo(fileName).fileName().toLower();
        if (header.itemSize == 2) {
            out.type = models::tensor::DType::BFloat16;
            out.note = Text::tr("raw 2-byte elements (%1) read as bfloat16").arg(QString::fromStdString(header.descr));
        } else if (header.itemSize == 1 && name.contains(QLatin1String("e4m3"))) {
            out.type = models::tensor::DType::Float8E4M3;
            out.note = Text::tr("raw bytes (%1) read as float8_e4m3fn, as the file name says")
                           .arg(QString::fromStdString(header.descr));
        } else if (header.itemSize == 1 && name.contains(QLatin1String("e5m2"))) {
            out.type = models::tensor::DType::Float8E5M2;
            out.note = Text::tr("raw bytes (%1) read as float8_e5m2, as the file name says")
                           .arg(QString::fromStdString(header.descr));
        }
        return out;
    }
    out.type = dtypeFromNpy(header.typeCode, header.itemSize);
    return out;
}

NpyFileResult openNpyFile(const QString& path)
{
    NpyFileResult result;
    const NpyHeaderResult parsed = readNpyHeader(QFile::encodeName(path).toStdString());
    if (!parsed.header) {
        result.error = QString::fromStdString(parsed.error);
        return result;
    }
    const NpyHeader& header = *parsed.header;
    const NpyElementType element = npyElementType(header, path);
    const std::optional<models::tensor::DType> type = element.type;
    result.note = element.note;
    if (!type) {
        result.error = Text::tr("%1: element type '%2' (%3) is not a numeric type RunLens reads")
                           .arg(path, QString::fromStdString(header.descr), QString::fromStdString(header.dtype));
        return result;
    }

    models::tensor::Tensor tensor;
    QString name = QFileInfo(path).fileName();
    if (name.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
        name.chop(4);
    tensor.name = name;
    tensor.dtype = *type;
    tensor.shape = header.shape;
    const bool bigEndianData = header.byteOrder == '>';
    tensor.swap = header.byteOrder != '|' && bigEndianData != (std::endian::native == std::endian::big);
    if (header.fortranOrder) {
        // Fortran order: the first index varies fastest, i.e. C strides of the reversed shape, reversed.
        std::vector<std::int64_t> reversed(header.shape.rbegin(), header.shape.rend());
        std::vector<std::int64_t> strides = models::tensor::Tensor::contiguousStrides(reversed, itemSize(*type));
        tensor.strides.assign(strides.rbegin(), strides.rend());
    } else {
        tensor.strides = models::tensor::Tensor::contiguousStrides(header.shape, itemSize(*type));
    }

    if (header.dataSize == 0) {
        tensor.data = std::make_shared<models::tensor::MemoryTensorData>(std::vector<std::byte>());
        result.tensor = std::move(tensor);
        return result;
    }
    const qint64 fileSize = QFileInfo(path).size();
    if (fileSize - header.dataOffset < header.dataSize) {
        result.error = Text::tr("%1: truncated: the shape needs %2 data bytes but only %3 follow the header")
                           .arg(path)
                           .arg(header.dataSize)
                           .arg(fileSize - header.dataOffset);
        return result;
    }
    std::shared_ptr<FileMapping> mapping = FileMapping::map(path, header.dataOffset, header.dataSize, result.error);
    if (!mapping)
        return result;
    tensor.data = std::make_shared<MappedTensorData>(std::move(mapping));
    result.tensor = std::move(tensor);
    return result;
}

} // namespace runlens::importers::tensor
