#include "widgets/tensor/tensorexport.h"

#include <QCoreApplication>
#include <QIODevice>
#include <QLocale>
#include <QStringList>

#include <bit>
#include <cstring>
#include <vector>

namespace runlens::widgets::tensor {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::tensorview)
};

/// numpy has no bfloat16 or float8: those are widened to float32 on export.
bool widensToFloat32(models::tensor::DType type)
{
    using models::tensor::DType;
    return type == DType::BFloat16 || type == DType::Float8E4M3 || type == DType::Float8E5M2;
}

/// Calls `visit(const std::byte* element)` for every element of `view` in C order.
template<typename Visit> void forEachElement(const models::tensor::Tensor& view, Visit&& visit)
{
    if (!view.data)
        return;
    const std::int64_t count = view.elementCount();
    if (count == 0)
        return;
    const int rank = view.rank();
    std::vector<std::int64_t> index(rank, 0);
    const std::byte* base = view.data->data();
    std::int64_t offset = view.offset;
    for (std::int64_t n = 0; n < count; ++n) {
        visit(base + offset);
        for (int d = rank - 1; d >= 0; --d) {
            if (++index[d] < view.shape[d]) {
                offset += view.strides[d];
                break;
            }
            offset -= view.strides[d] * (index[d] - 1);
            index[d] = 0;
        }
    }
}

/// Whether every element of `view` lies inside its data.
bool withinData(const models::tensor::Tensor& view)
{
    if (view.elementCount() == 0)
        return true;
    if (!view.data)
        return false;
    std::int64_t lo = view.offset, hi = view.offset;
    for (int d = 0; d < view.rank(); ++d) {
        const std::int64_t span = view.strides[d] * (view.shape[d] - 1);
        (span < 0 ? lo : hi) += span;
    }
    return lo >= 0 && hi + models::tensor::itemSize(view.dtype) <= view.data->size();
}

bool writeAll(QIODevice& device, const QByteArray& bytes, QString* errorMessage)
{
    if (device.write(bytes) == bytes.size())
        return true;
    if (errorMessage)
        *errorMessage = Text::tr("Cannot write: %1").arg(device.errorString());
    return false;
}

} // namespace

QString npyDescr(const models::tensor::Tensor& view)
{
    using models::tensor::DType;
    if (widensToFloat32(view.dtype))
        return QStringLiteral("<f4").replace(0, 1, std::endian::native == std::endian::little ? u'<' : u'>');
    QString code;
    switch (view.dtype) {
    case DType::Bool:
        code = QStringLiteral("b1");
        break;
    case DType::Int8:
        code = QStringLiteral("i1");
        break;
    case DType::Int16:
        code = QStringLiteral("i2");
        break;
    case DType::Int32:
        code = QStringLiteral("i4");
        break;
    case DType::Int64:
        code = QStringLiteral("i8");
        break;
    case DType::UInt8:
        code = QStringLiteral("u1");
        break;
    case DType::UInt16:
        code = QStringLiteral("u2");
        break;
    case DType::UInt32:
        code = QStringLiteral("u4");
        break;
    case DType::UInt64:
        code = QStringLiteral("u8");
        break;
    case DType::Float16:
        code = QStringLiteral("f2");
        break;
    case DType::Float32:
        code = QStringLiteral("f4");
        break;
    case DType::Float64:
        code = QStringLiteral("f8");
        break;
    case DType::Complex64:
        code = QStringLiteral("c8");
        break;
    case DType::Complex128:
        code = QStringLiteral("c16");
        break;
    default:
        code = QStringLiteral("f4");
        break;
    }
    if (models::tensor::itemSize(view.dtype) == 1)
        return QLatin1Char('|') + code;
    // Complex values swap each half on their own, which numpy's byte order of a complex type means too.
    const bool little = (std::endian::native == std::endian::little) != view.swap;
    return (little ? QLatin1Char('<') : QLatin1Char('>')) + code;
}

bool writeNpy(const models::tensor::Tensor& view, QIODevice& device, QString* errorMessage)
{
    if (!withinData(view)) {
        if (errorMessage)
            *errorMessage = Text::tr("The tensor's elements lie outside its data.");
        return false;
    }
    QStringList dims;
    for (const std::int64_t dim : view.shape)
        dims << QString::number(dim);
    const QString shape = view.rank() == 1 ? dims.first() + QLatin1Char(',') : dims.join(QStringLiteral(", "));
    QByteArray header = QStringLiteral("{'descr': '%1', 'fortran_order': False, 'shape': (%2), }")
                            .arg(npyDescr(view), shape)
                            .toLatin1();
    // magic (6) + version (2) + length (2 or 4) + header + '\n' is padded to a multiple of 64.
    const bool v2 = header.size() + 1 + 10 > 65535;
    const int prefix = v2 ? 12 : 10;
    const int total = int((prefix + header.size() + 1 + 63) / 64 * 64);
    header.append(QByteArray(total - prefix - header.size() - 1, ' '));
    header.append('\n');

    QByteArray out("\x93NUMPY", 6);
    out.append(char(v2 ? 2 : 1));
    out.append(char(0));
    const std::uint32_t length = std::uint32_t(header.size());
    out.append(char(length & 0xff));
    out.append(char((length >> 8) & 0xff));
    if (v2) {
        out.append(char((length >> 16) & 0xff));
        out.append(char((length >> 24) & 0xff));
    }
    out.append(header);
    if (!writeAll(device, out, errorMessage))
        return false;

    // Elements go out in chunks so that a large view never needs a second copy in memory.
    constexpr qsizetype kChunk = 1 << 20;
    QByteArray chunk;
    chunk.reserve(kChunk + 16);
    const int item = models::tensor::itemSize(view.dtype);
    const bool widen = widensToFloat32(view.dtype);
    bool ok = true;
    forEachElement(view, [&](const std::byte* p) {
        if (!ok)
            return;
        if (widen) {
            const float value = float(models::tensor::loadElement(p, view.dtype, view.swap));
            chunk.append(reinterpret_cast<const char*>(&value), sizeof value);
        } else {
            chunk.append(reinterpret_cast<const char*>(p), item);
        }
        if (chunk.size() >= kChunk) {
            ok = writeAll(device, chunk, errorMessage);
            chunk.resize(0);
        }
    });
    return ok && writeAll(device, chunk, errorMessage);
}

bool writeCsv(const models::tensor::Tensor& view, QIODevice& device, QString* errorMessage)
{
    if (view.rank() > 2) {
        if (errorMessage)
            *errorMessage = Text::tr("Only tensors of at most two dimensions can be written as CSV; this one has %1.")
                                .arg(view.rank());
        return false;
    }
    if (!withinData(view)) {
        if (errorMessage)
            *errorMessage = Text::tr("The tensor's elements lie outside its data.");
        return false;
    }
    const std::int64_t columns = view.rank() == 2 ? view.shape[1] : 1;
    QByteArray chunk;
    std::int64_t n = 0;
    bool ok = true;
    forEachElement(view, [&](const std::byte* p) {
        if (!ok)
            return;
        const double value = models::tensor::loadElement(p, view.dtype, view.swap);
        chunk.append(QByteArray::number(value, 'g', QLocale::FloatingPointShortest));
        chunk.append(++n % columns == 0 ? '\n' : ',');
        if (chunk.size() >= (1 << 20)) {
            ok = writeAll(device, chunk, errorMessage);
            chunk.resize(0);
        }
    });
    return ok && writeAll(device, chunk, errorMessage);
}

} // namespace runlens::widgets::tensor
