#pragma once

// Shared by the .npz and .safetensors tests: what numpy (and the fixture script's own decoders) say the
// container fixtures hold (tests/data/tensor/container_expected.tsv, written by make_container_fixtures.py),
// and small helpers for files written by the tests.

#include "importers/tensor/tensorlisting.h"
#include "models/tensor/tensor.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace runlens::test {

struct ExpectedTensor
{
    QString dtype; ///< RunLens/numpy name: "float32", "bfloat16", "float8_e4m3fn"
    std::vector<std::int64_t> shape;
    std::vector<double> values; ///< every element in C order
};

struct ExpectedContainers
{
    /// file name → member → expected tensor
    QHash<QString, QHash<QString, ExpectedTensor>> tensors;
    /// file name → metadata key → value
    QHash<QString, QHash<QString, QString>> metadata;
    bool loaded = false;
};

inline double parseExpectedValue(const QString& text)
{
    if (text == QLatin1String("nan"))
        return std::numeric_limits<double>::quiet_NaN();
    if (text == QLatin1String("inf"))
        return std::numeric_limits<double>::infinity();
    if (text == QLatin1String("-inf"))
        return -std::numeric_limits<double>::infinity();
    return text.toDouble();
}

inline ExpectedContainers loadExpectedContainers()
{
    ExpectedContainers expected;
    QFile file(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/container_expected.tsv"));
    if (!file.open(QIODevice::ReadOnly))
        return expected;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
    for (const QString& line : lines) {
        const QStringList f = line.split(u'\t');
        if (f.size() == 4 && f[0] == QLatin1String("metadata")) {
            expected.metadata[f[1]][f[2]] = f[3];
        } else if (f.size() == 6 && f[0] == QLatin1String("tensor")) {
            ExpectedTensor tensor;
            tensor.dtype = f[3];
            for (const QString& dim : f[4].split(u',', Qt::SkipEmptyParts))
                tensor.shape.push_back(dim.toLongLong());
            for (const QString& value : f[5].split(u',', Qt::SkipEmptyParts))
                tensor.values.push_back(parseExpectedValue(value));
            expected.tensors[f[1]][f[2]] = tensor;
        } else {
            return expected;
        }
    }
    expected.loaded = true;
    return expected;
}

/// The index of flat C-order position `flat` in `shape`.
inline std::vector<std::int64_t> unravelIndex(std::int64_t flat, const std::vector<std::int64_t>& shape)
{
    std::vector<std::int64_t> index(shape.size());
    for (int k = int(shape.size()) - 1; k >= 0; --k) {
        index[k] = flat % shape[k];
        flat /= shape[k];
    }
    return index;
}

/// Same value, NaN equal to NaN and -0.0 apart from 0.0.
inline bool sameValue(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

/// Empty when every element of `tensor` equals `expected` in C order, else the first mismatch.
inline QString compareValues(const models::tensor::Tensor& tensor, const std::vector<double>& expected)
{
    if (std::int64_t(expected.size()) != tensor.elementCount())
        return QStringLiteral("%1 elements, %2 expected").arg(tensor.elementCount()).arg(expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double got = tensor.value(unravelIndex(std::int64_t(i), tensor.shape));
        if (!sameValue(got, expected[i]))
            return QStringLiteral("element %1 is %2, %3 expected")
                .arg(i)
                .arg(got, 0, 'g', 17)
                .arg(expected[i], 0, 'g', 17);
    }
    return {};
}

/// Writes `bytes` to `name` in `dir`; the file's path.
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(bytes);
    return path;
}

/// Every diagnostic of a listing, one a line, for failure messages.
inline QString diagnosticsText(const importers::tensor::TensorListing& listing)
{
    QStringList lines;
    for (const models::Diagnostic& d : listing.diagnostics)
        lines << d.toString();
    return lines.join(u'\n');
}

/// Whether every element `tensor` can address lies inside its data (always so for an empty tensor).
inline bool viewInsideData(const models::tensor::Tensor& tensor)
{
    if (tensor.elementCount() == 0)
        return true;
    if (!tensor.data)
        return false;
    std::int64_t low = tensor.offset, high = tensor.offset;
    for (std::size_t k = 0; k < tensor.shape.size(); ++k)
        (tensor.strides[k] < 0 ? low : high) += (tensor.shape[k] - 1) * tensor.strides[k];
    return low >= 0 && high + models::tensor::itemSize(tensor.dtype) <= tensor.data->size();
}

/// Lists `bytes` written to a file once per damaged copy (byte `i * step` xor-ed for each i), opens every
/// tensor listed; empty when each opened view stays inside its data, else the first that does not.
template<typename List>
QString damagedCopiesStayInside(const QByteArray& bytes, const QString& name, List list, int copies)
{
    QTemporaryDir dir;
    const qsizetype step = std::max<qsizetype>(1, bytes.size() / copies);
    for (qsizetype at = 0; at < bytes.size(); at += step) {
        QByteArray damaged = bytes;
        damaged[at] = char(damaged[at] ^ (0x11 + at % 0xee));
        const QString path = writeFile(dir, name, damaged);
        const importers::tensor::TensorListing listing = list(path);
        for (const models::tensor::TensorInfo& info : listing.tensors) {
            const models::tensor::TensorResult opened = info.source->open();
            if (opened.tensor && !viewInsideData(*opened.tensor))
                return QStringLiteral("byte %1 changed: %2 views outside its data").arg(at).arg(info.member);
            if (!opened.tensor && opened.error.isEmpty())
                return QStringLiteral("byte %1 changed: %2 neither opens nor says why").arg(at).arg(info.member);
        }
    }
    return {};
}

/// Empty when `listing` has no diagnostic (`expected` empty) or exactly one, about the file at `path`, whose
/// message contains `expected`; otherwise what it has instead.
inline QString diagnosticMismatch(const importers::tensor::TensorListing& listing, const QString& path,
                                  const QString& expected)
{
    if (expected.isEmpty())
        return listing.diagnostics.isEmpty() ? QString() : QStringLiteral("unexpected: ") + diagnosticsText(listing);
    if (listing.diagnostics.size() == 1 && listing.diagnostics[0].file == QFileInfo(path).absoluteFilePath()
        && listing.diagnostics[0].message.contains(expected))
        return {};
    return QStringLiteral("expected one diagnostic with '%1', got: %2").arg(expected, diagnosticsText(listing));
}

} // namespace runlens::test
