#include "importers/tensor/safetensorsfile.h"

#include "importers/core/importbudget.h"
#include "importers/core/jsonscan.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::tensor {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::tensor)
};

constexpr std::int64_t kLengthBytes = 8;
// The reference implementation refuses headers above 100 MB; a larger one is damage, not a model.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;

std::optional<models::tensor::DType> dtypeFromSafetensors(std::string_view name)
{
    struct Entry
    {
        std::string_view name;
        models::tensor::DType type;
    };
    static constexpr Entry kTypes[] = {
        { "BOOL", models::tensor::DType::Bool },
        { "U8", models::tensor::DType::UInt8 },
        { "I8", models::tensor::DType::Int8 },
        { "U16", models::tensor::DType::UInt16 },
        { "I16", models::tensor::DType::Int16 },
        { "U32", models::tensor::DType::UInt32 },
        { "I32", models::tensor::DType::Int32 },
        { "U64", models::tensor::DType::UInt64 },
        { "I64", models::tensor::DType::Int64 },
        { "F16", models::tensor::DType::Float16 },
        { "BF16", models::tensor::DType::BFloat16 },
        { "F32", models::tensor::DType::Float32 },
        { "F64", models::tensor::DType::Float64 },
        { "F8_E4M3", models::tensor::DType::Float8E4M3 },
        { "F8_E5M2", models::tensor::DType::Float8E5M2 },
    };
    for (const Entry& entry : kTypes) {
        if (entry.name == name)
            return entry.type;
    }
    return std::nullopt;
}

/// A JSON number as a non-negative int64, if it is one.
std::optional<std::int64_t> nonNegative(const nlohmann::json& value)
{
    if (value.is_number_unsigned()) {
        const auto v = value.get<std::uint64_t>();
        if (v <= std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            return std::int64_t(v);
    } else if (value.is_number_integer()) {
        const auto v = value.get<std::int64_t>();
        if (v >= 0)
            return v;
    }
    return std::nullopt;
}

struct Entry
{
    QString name;
    models::tensor::DType dtype = models::tensor::DType::Float32;
    std::vector<std::int64_t> shape;
    std::int64_t begin = 0;
    std::int64_t end = 0;
};

/// One header entry checked against the data section of `dataSize` bytes; nothing and `problem` when unusable.
std::optional<Entry> readEntry(const QString& name, const nlohmann::json& value, std::int64_t dataSize,
                               QString& problem)
{
    if (!value.is_object()) {
        problem = Text::tr("entry '%1' is not a JSON object; skipped").arg(name);
        return std::nullopt;
    }
    const auto dtype = value.find("dtype");
    const auto shape = value.find("shape");
    const auto offsets = value.find("data_offsets");
    if (dtype == value.end() || !dtype->is_string() || shape == value.end() || !shape->is_array()
        || offsets == value.end() || !offsets->is_array()) {
        problem = Text::tr("entry '%1' lacks a dtype string, a shape list or data_offsets; skipped").arg(name);
        return std::nullopt;
    }
    Entry entry;
    entry.name = name;
    const std::string& dtypeText = dtype->get_ref<const std::string&>();
    const std::optional<models::tensor::DType> type = dtypeFromSafetensors(dtypeText);
    if (!type) {
        problem = Text::tr("entry '%1' has dtype '%2', which RunLens does not read; skipped")
                      .arg(name, QString::fromStdString(dtypeText));
        return std::nullopt;
    }
    entry.dtype = *type;
    std::int64_t count = 1;
    bool overflow = false;
    for (const nlohmann::json& dim : *shape) {
        const std::optional<std::int64_t> d = nonNegative(dim);
        if (!d) {
            problem = Text::tr("entry '%1' has a shape that is not a list of non-negative integers; skipped").arg(name);
            return std::nullopt;
        }
        entry.shape.push_back(*d);
        if (*d != 0 && count > std::numeric_limits<std::int64_t>::max() / *d)
            overflow = true;
        else
            count *= *d;
    }
    const bool empty = std::find(entry.shape.begin(), entry.shape.end(), 0) != entry.shape.end();
    const int item = models::tensor::itemSize(entry.dtype);
    if (!empty && (overflow || count > std::numeric_limits<std::int64_t>::max() / item)) {
        problem = Text::tr("entry '%1' has a shape describing more data than any file can hold; skipped").arg(name);
        return std::nullopt;
    }
    const std::int64_t bytes = empty ? 0 : count * item;
    std::int64_t begin = -1, end = -1;
    if (offsets->size() == 2) {
        begin = nonNegative((*offsets)[0]).value_or(-1);
        end = nonNegative((*offsets)[1]).value_or(-1);
    }
    if (begin < 0 || end < 0 || begin > end) {
        problem
            = Text::tr("entry '%1' has data_offsets that are not [begin, end] with begin <= end; skipped").arg(name);
        return std::nullopt;
    }
    if (end > dataSize) {
        problem = Text::tr("entry '%1' ends at data byte %2, past the end of the file's %3 data bytes; skipped")
                      .arg(name)
                      .arg(end)
                      .arg(dataSize);
        return std::nullopt;
    }
    if (end - begin != bytes) {
        problem = Text::tr("entry '%1' holds %2 bytes but its shape and dtype need %3; skipped")
                      .arg(name)
                      .arg(end - begin)
                      .arg(bytes);
        return std::nullopt;
    }
    entry.begin = begin;
    entry.end = end;
    return entry;
}

} // namespace

TensorListing listSafetensorsFile(const QString& path)
{
    TensorListing listing;
    const QString absolutePath = QFileInfo(path).absoluteFilePath();
    const auto diagnose = [&](models::Severity severity, const QString& message) {
        models::Diagnostic diagnostic;
        diagnostic.severity = severity;
        diagnostic.file = absolutePath;
        diagnostic.message = message;
        listing.diagnostics.append(diagnostic);
    };

    QFile file(absolutePath);
    if (!file.open(QIODevice::ReadOnly)) {
        listing.error = Text::tr("%1: cannot open: %2").arg(absolutePath, file.errorString());
        return listing;
    }
    const std::int64_t fileSize = file.size();
    const QByteArray lengthBytes = file.read(kLengthBytes);
    if (lengthBytes.size() != kLengthBytes) {
        listing.error
            = Text::tr("%1: not a .safetensors file: it is shorter than the 8-byte header length").arg(absolutePath);
        return listing;
    }
    std::uint64_t headerLength = 0;
    for (int i = kLengthBytes - 1; i >= 0; --i)
        headerLength = headerLength << 8 | std::uint8_t(lengthBytes[i]);
    if (headerLength > std::uint64_t(fileSize - kLengthBytes)) {
        listing.error
            = Text::tr("%1: not a .safetensors file or truncated: the header claims %2 bytes but only %3 follow")
                  .arg(absolutePath)
                  .arg(headerLength)
                  .arg(fileSize - kLengthBytes);
        return listing;
    }
    if (headerLength > kMaxHeaderBytes) {
        listing.error = Text::tr("%1: the .safetensors header claims %2 bytes, more than the 100 MB the format allows")
                            .arg(absolutePath)
                            .arg(headerLength);
        return listing;
    }
    const QByteArray headerText = file.read(qint64(headerLength));
    if (std::uint64_t(headerText.size()) != headerLength) {
        listing.error = Text::tr("%1: cannot read the .safetensors header: %2").arg(absolutePath, file.errorString());
        return listing;
    }
    file.close();
    const std::int64_t dataStart = kLengthBytes + std::int64_t(headerLength);
    const std::int64_t dataSize = fileSize - dataStart;

    // A DOM costs tens of bytes per byte of deeply nested or tiny values: the header is checked first.
    ImportBudget budget { fileSize };
    const std::int64_t overrun
        = scanJsonLimits(std::string_view(headerText.constData(), std::size_t(headerText.size())), budget);
    if (overrun >= 0) {
        const models::Diagnostic diagnostic = budget.diagnostic(absolutePath, kLengthBytes + overrun);
        listing.diagnostics.append(diagnostic);
        listing.error
            = Text::tr("%1: the .safetensors header cannot be read: %2").arg(absolutePath, diagnostic.message);
        return listing;
    }

    const nlohmann::json header = nlohmann::json::parse(headerText.begin(), headerText.end(), nullptr, false);
    if (header.is_discarded() || !header.is_object()) {
        listing.error = Text::tr("%1: the .safetensors header is not a JSON object").arg(absolutePath);
        return listing;
    }

    std::vector<Entry> entries;
    try {
        for (const auto& [key, value] : header.items()) {
            const QString name = QString::fromStdString(key);
            if (key == "__metadata__") {
                if (!value.is_object()) {
                    diagnose(models::Severity::Warning, Text::tr("__metadata__ is not a JSON object; ignored"));
                    continue;
                }
                for (const auto& [metaKey, metaValue] : value.items()) {
                    if (metaValue.is_string())
                        listing.metadata.insert(QString::fromStdString(metaKey),
                                                QString::fromStdString(metaValue.get<std::string>()));
                    else
                        diagnose(models::Severity::Warning,
                                 Text::tr("__metadata__ value of '%1' is not a string; ignored")
                                     .arg(QString::fromStdString(metaKey)));
                }
                continue;
            }
            QString problem;
            if (std::optional<Entry> entry = readEntry(name, value, dataSize, problem))
                entries.push_back(std::move(*entry));
            else
                diagnose(models::Severity::Error, problem);
        }
    } catch (const nlohmann::json::exception& e) {
        // The checks above leave nothing to throw; kept so a library surprise stays a message.
        listing.error
            = Text::tr("%1: cannot read the .safetensors header: %2").arg(absolutePath, QString::fromUtf8(e.what()));
    }

    // In file order; overlapping entries are readable but a sign of a damaged or hand-made file.
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.begin != b.begin ? a.begin < b.begin : a.name < b.name; });
    const Entry* last = nullptr; // the entry reaching furthest so far; empty entries share no bytes
    for (const Entry& entry : entries) {
        if (entry.begin == entry.end)
            continue;
        if (last && entry.begin < last->end)
            diagnose(models::Severity::Warning,
                     Text::tr("entries '%1' and '%2' share data bytes").arg(last->name, entry.name));
        if (!last || entry.end > last->end)
            last = &entry;
    }

    const auto mapping = std::make_shared<const SharedFileMapping>(absolutePath, fileSize);
    const bool swap = std::endian::native == std::endian::big;
    for (const Entry& entry : entries) {
        models::tensor::Tensor layout;
        layout.name = entry.name;
        layout.dtype = entry.dtype;
        layout.shape = entry.shape;
        layout.strides = models::tensor::Tensor::contiguousStrides(entry.shape, models::tensor::itemSize(entry.dtype));
        layout.offset = dataStart + entry.begin;
        layout.swap = swap && models::tensor::itemSize(entry.dtype) > 1;

        models::tensor::TensorInfo info;
        info.path = absolutePath;
        info.member = entry.name;
        info.format = QStringLiteral("safetensors");
        info.dtype = entry.dtype;
        info.shape = entry.shape;
        info.byteSize = entry.end - entry.begin;
        info.source = std::make_shared<MappedTensorSource>(mapping, std::move(layout));
        listing.tensors.append(std::move(info));
    }
    return listing;
}

} // namespace runlens::importers::tensor
