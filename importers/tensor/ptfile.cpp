#include "importers/tensor/ptfile.h"

#include "importers/core/importbudget.h"
#include "importers/memory/safepickle.h"
#include "importers/tensor/zipdirectory.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLocale>

#include <zip.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::tensor {

namespace {

using namespace ziparchive;
using memory::PickleType;
using memory::PickleValue;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::tensor)
};

// pickle.dumps of torch.serialization's MAGIC_NUMBER 0x1950a86a20f9469cfc6c at protocol 2: how every legacy
// file starts.
constexpr unsigned char kLegacyMagic[]
    = { 0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19 };
// A data.pkl holds the structure only (a few hundred bytes per tensor); larger is not a checkpoint.
constexpr std::int64_t kMaxPickleBytes = std::int64_t(1) << 30;
// Checkpoints nest a few levels (checkpoint → optimizer → state → index → buffer); deeper is damage or a
// pickle that contains itself.
constexpr int kMaxWalkDepth = 64;
constexpr int kMaxRank = 64;
// A view copied out in C order lives in memory; beyond this it is refused rather than risking the machine.
constexpr std::int64_t kMaxCopyBytes = std::int64_t(8) << 30;
constexpr int kMaxMetadataEntries = 500;
constexpr int kMaxMetadataValueChars = 200;
// Names are made of dict keys, which a pickle may make megabytes long and repeat under every tensor below them.
constexpr int kMaxKeyChars = 256;
// What one listed tensor costs beyond its name (TensorInfo, its layout and source), spent on the budget: a
// memo can list one tensor a million times from a few bytes each.
constexpr std::int64_t kListedTensorBytes = 512;
constexpr std::int64_t kMaxByteorderBytes = 16;

struct StorageType
{
    std::string_view name;
    models::tensor::DType dtype;
};

constexpr StorageType kStorageTypes[] = {
    { "torch.FloatStorage", models::tensor::DType::Float32 },
    { "torch.HalfStorage", models::tensor::DType::Float16 },
    { "torch.BFloat16Storage", models::tensor::DType::BFloat16 },
    { "torch.DoubleStorage", models::tensor::DType::Float64 },
    { "torch.LongStorage", models::tensor::DType::Int64 },
    { "torch.IntStorage", models::tensor::DType::Int32 },
    { "torch.ShortStorage", models::tensor::DType::Int16 },
    { "torch.CharStorage", models::tensor::DType::Int8 },
    { "torch.ByteStorage", models::tensor::DType::UInt8 },
    { "torch.BoolStorage", models::tensor::DType::Bool },
};

constexpr StorageType kDtypes[] = {
    { "torch.float32", models::tensor::DType::Float32 },
    { "torch.float16", models::tensor::DType::Float16 },
    { "torch.bfloat16", models::tensor::DType::BFloat16 },
    { "torch.float64", models::tensor::DType::Float64 },
    { "torch.int64", models::tensor::DType::Int64 },
    { "torch.int32", models::tensor::DType::Int32 },
    { "torch.int16", models::tensor::DType::Int16 },
    { "torch.int8", models::tensor::DType::Int8 },
    { "torch.uint8", models::tensor::DType::UInt8 },
    { "torch.bool", models::tensor::DType::Bool },
    { "torch.uint16", models::tensor::DType::UInt16 },
    { "torch.uint32", models::tensor::DType::UInt32 },
    { "torch.uint64", models::tensor::DType::UInt64 },
    { "torch.float8_e4m3fn", models::tensor::DType::Float8E4M3 },
    { "torch.float8_e5m2", models::tensor::DType::Float8E5M2 },
};
constexpr std::string_view kUntypedStorage = "torch.UntypedStorage";

std::optional<models::tensor::DType> dtypeOfName(std::string_view name)
{
    for (const StorageType& type : kDtypes) {
        if (type.name == name)
            return type.dtype;
    }
    return std::nullopt;
}

std::optional<models::tensor::DType> dtypeOfStorage(std::string_view name)
{
    for (const StorageType& type : kStorageTypes) {
        if (type.name == name)
            return type.dtype;
    }
    return std::nullopt;
}

/// A `data/<key>` record: where its bytes are in the file.
struct StorageRecord
{
    std::int64_t dataStart = -1; ///< -1 when the record cannot be read in place
    std::int64_t size = 0;
    QString problem; ///< why it cannot, when dataStart is -1
};

/// A view whose strides are not C order: copied out element by element when opened, so that every consumer
/// (statistics over one run of values, exports) sees a dense tensor.
class CopiedViewSource final : public models::tensor::TensorSource
{
public:
    CopiedViewSource(std::shared_ptr<const SharedFileMapping> mapping, models::tensor::Tensor layout)
        : m_mapping(std::move(mapping))
        , m_layout(std::move(layout))
    { }

    bool isImmediate() const override { return false; }

    models::tensor::TensorResult open() const override
    {
        models::tensor::TensorResult result;
        const std::shared_ptr<const models::tensor::TensorData> data = m_mapping->get(result.error);
        if (!data)
            return result;
        const int item = models::tensor::itemSize(m_layout.dtype);
        const std::int64_t count = m_layout.elementCount();
        std::vector<std::byte> bytes;
        try {
            bytes.resize(std::size_t(models::tensor::byteCount(count, item)));
        } catch (const std::bad_alloc&) {
            result.error = QCoreApplication::translate("runlens::tensor::CopiedViewSource",
                                                       "%1: not enough memory to copy tensor '%2' (%3 bytes)")
                               .arg(m_mapping->path(), m_layout.name)
                               .arg(models::tensor::byteCount(count, item));
            return result;
        }
        // The listing checked that every element lies inside its storage record and the file.
        const std::byte* base = data->data();
        const int rank = m_layout.rank();
        std::vector<std::int64_t> index(std::size_t(rank), 0);
        std::int64_t at = m_layout.offset;
        for (std::int64_t i = 0; i < count; ++i) {
            if (at >= 0 && at + item <= data->size())
                std::memcpy(bytes.data() + i * item, base + at, std::size_t(item));
            for (int d = rank - 1; d >= 0; --d) {
                if (++index[std::size_t(d)] < m_layout.shape[std::size_t(d)]) {
                    at += m_layout.strides[std::size_t(d)];
                    break;
                }
                at -= m_layout.strides[std::size_t(d)] * (m_layout.shape[std::size_t(d)] - 1);
                index[std::size_t(d)] = 0;
            }
        }
        models::tensor::Tensor tensor = m_layout;
        tensor.offset = 0;
        tensor.strides = models::tensor::Tensor::contiguousStrides(tensor.shape, item);
        tensor.data = std::make_shared<const models::tensor::MemoryTensorData>(std::move(bytes));
        result.tensor = std::move(tensor);
        if (const QString damage = data->damage(); !damage.isEmpty())
            result.error = damage;
        return result;
    }

private:
    std::shared_ptr<const SharedFileMapping> m_mapping;
    models::tensor::Tensor m_layout;
};

/// Walks the decoded data.pkl and lists every tensor in it under its dotted name.
class Walker
{
public:
    Walker(QString path, std::int64_t fileSize, QHash<QString, StorageRecord> storages,
           std::shared_ptr<const SharedFileMapping> mapping, TensorListing& listing, ImportBudget& budget)
        : m_path(std::move(path))
        , m_fileSize(fileSize)
        , m_storages(std::move(storages))
        , m_mapping(std::move(mapping))
        , m_listing(listing)
        , m_budget(budget)
    { }

    void walk(const PickleValue& value, const QString& name, int depth);
    /// Notes on tensors that share a storage record with others.
    void noteSharing();

private:
    // Under the class's own context, where lupdate files the strings of its members.
    Q_DECLARE_TR_FUNCTIONS(runlens::tensor::Walker)
    void diagnose(models::Severity severity, const QString& message)
    {
        m_listing.diagnostics.append(models::Diagnostic { severity, m_path, -1, -1, message });
    }
    void addTensor(const PickleValue& object, const QString& name);
    void addMetadata(const QString& name, const PickleValue& value);
    /// "'name'" or "the tensor" for the root.
    static QString label(const QString& name)
    {
        return name.isEmpty() ? tr("the tensor") : tr("tensor '%1'").arg(name);
    }

    QString m_path;
    std::int64_t m_fileSize = 0;
    QHash<QString, StorageRecord> m_storages;
    std::shared_ptr<const SharedFileMapping> m_mapping;
    TensorListing& m_listing;
    ImportBudget& m_budget;
    bool m_stopped = false;
    bool m_deepNoted = false;
    int m_metadataLeftOut = 0;
    QList<QString> m_keyOfTensor; ///< storage key of each listed tensor
};

QString childName(const QString& parent, const QString& key)
{
    return parent.isEmpty() ? key : parent + QLatin1Char('.') + key;
}

void Walker::walk(const PickleValue& value, const QString& name, int depth)
{
    if (m_stopped)
        return;
    // Every visit is spent: a memo can make one list appear under itself many times over.
    if (!m_budget.spendElements(1)) {
        m_listing.diagnostics.append(m_budget.diagnostic(m_path, -1));
        m_stopped = true;
        return;
    }
    if (depth > kMaxWalkDepth) {
        if (!m_deepNoted)
            diagnose(models::Severity::Warning,
                     tr("values nested deeper than %1 levels (at '%2') are skipped").arg(kMaxWalkDepth).arg(name));
        m_deepNoted = true;
        return;
    }
    switch (value.type()) {
    case PickleType::Object:
        addTensor(value, name);
        return;
    case PickleType::Dict:
        for (std::size_t i = 0; i < value.size() && !m_stopped; ++i) {
            const PickleValue key = value.keyAt(i);
            QString keyText;
            if (key.isString())
                keyText = key.toString();
            else if (key.type() == PickleType::Int || key.type() == PickleType::Bool)
                keyText = QString::number(key.toInt());
            else
                keyText = QStringLiteral("[%1]").arg(i);
            walk(value.valueAt(i), childName(name, keyText.left(kMaxKeyChars)), depth + 1);
        }
        return;
    case PickleType::List:
    case PickleType::Tuple:
        for (std::size_t i = 0; i < value.size() && !m_stopped; ++i)
            walk(value.at(i), childName(name, QString::number(i)), depth + 1);
        return;
    default:
        addMetadata(name, value);
        return;
    }
}

void Walker::addMetadata(const QString& name, const PickleValue& value)
{
    QString text;
    switch (value.type()) {
    case PickleType::None:
        text = QStringLiteral("None");
        break;
    case PickleType::Bool:
        text = value.toBool() ? QStringLiteral("True") : QStringLiteral("False");
        break;
    case PickleType::Int:
        text = QString::number(value.toInt());
        break;
    case PickleType::Float:
    case PickleType::BigInt:
        text = QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest);
        break;
    case PickleType::String:
        text = value.toString().left(kMaxMetadataValueChars);
        break;
    case PickleType::Bytes:
        text = tr("%n bytes", nullptr,
                  int(std::min<std::size_t>(value.bytes().size(), std::numeric_limits<int>::max())));
        break;
    case PickleType::Set:
        text = tr("a set of %n values", nullptr,
                  int(std::min<std::size_t>(value.size(), std::numeric_limits<int>::max())));
        break;
    default:
        // A storage or a type without a tensor around it.
        text = tr("(not a tensor)");
        break;
    }
    if (m_listing.metadata.size() >= kMaxMetadataEntries) {
        if (m_metadataLeftOut++ == 0)
            diagnose(models::Severity::Info,
                     tr("more than %1 values that are not tensors; the rest are not listed").arg(kMaxMetadataEntries));
        return;
    }
    m_listing.metadata.insert(name.isEmpty() ? QStringLiteral("(root)") : name.left(kMaxKeyChars * 4), text);
}

/// An int64 out of a pickle value that must be a non-negative integer.
std::optional<std::int64_t> nonNegative(const PickleValue& value)
{
    if (value.type() != PickleType::Int && value.type() != PickleType::Bool)
        return std::nullopt;
    const std::int64_t v = value.toInt(-1);
    return v >= 0 ? std::optional(v) : std::nullopt;
}

std::optional<std::vector<std::int64_t>> nonNegativeList(const PickleValue& value)
{
    if (!value.isSequence() || value.size() > std::size_t(kMaxRank))
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::optional<std::int64_t> v = nonNegative(value.at(i));
        if (!v)
            return std::nullopt;
        out.push_back(*v);
    }
    return out;
}

bool multiplyFits(std::int64_t a, std::int64_t b, std::int64_t& out)
{
    if (a != 0 && b > std::numeric_limits<std::int64_t>::max() / a)
        return false;
    out = a * b;
    return true;
}

void Walker::addTensor(const PickleValue& object, const QString& name)
{
    const std::string_view function = object.at(0).globalName();
    PickleValue args = object.at(1);
    if (function == "torch._utils._rebuild_parameter") {
        // Parameter(data, requires_grad, backward_hooks): the data is a rebuilt tensor.
        const PickleValue data = args.at(0);
        if (data.type() != PickleType::Object || data.at(0).globalName() == function) {
            diagnose(models::Severity::Error, tr("%1: a parameter without a tensor; skipped").arg(label(name)));
            return;
        }
        addTensor(data, name);
        return;
    }
    // _rebuild_tensor(storage, offset, size, stride), _rebuild_tensor_v2(..., requires_grad, hooks[, meta]) and
    // _rebuild_tensor_v3(..., requires_grad, hooks, dtype[, meta]), whose storage is untyped: sized in bytes.
    const bool v2 = function == "torch._utils._rebuild_tensor_v2";
    const bool v3 = function == "torch._utils._rebuild_tensor_v3";
    if (args.size() < 4 || (v2 && args.size() < 6) || (v3 && args.size() < 7)) {
        diagnose(models::Severity::Error,
                 tr("%1: %2 called with %3 arguments; skipped")
                     .arg(label(name), QString::fromUtf8(function.data(), qsizetype(function.size())))
                     .arg(args.size()));
        return;
    }
    const PickleValue persistent = args.at(0);
    const PickleValue id = persistent.at(0);
    if (persistent.type() != PickleType::PersistentId || id.size() != 5) {
        diagnose(
            models::Severity::Error,
            tr("%1: its storage is not a ('storage', type, key, location, size) record; skipped").arg(label(name)));
        return;
    }
    const std::string_view typeName = id.at(1).globalName();
    const bool untyped = typeName == kUntypedStorage;
    const std::optional<models::tensor::DType> dtype
        = v3 ? dtypeOfName(args.at(6).globalName()) : dtypeOfStorage(typeName);
    std::optional<std::int64_t> numel = nonNegative(id.at(4));
    if (dtype && numel && untyped) {
        // An untyped storage counts bytes; its whole elements are what a view may reach.
        numel = *numel / models::tensor::itemSize(*dtype);
    }
    if (!dtype || !id.at(2).isString() || !numel || untyped != v3) {
        diagnose(
            models::Severity::Error,
            tr("%1: its storage record names no storage type, key or size RunLens reads; skipped").arg(label(name)));
        return;
    }
    const QString key = id.at(2).toString();
    const std::optional<std::int64_t> offset = nonNegative(args.at(1));
    const std::optional<std::vector<std::int64_t>> shape = nonNegativeList(args.at(2));
    const std::optional<std::vector<std::int64_t>> stride = nonNegativeList(args.at(3));
    if (!offset || !shape || !stride || shape->size() != stride->size()) {
        diagnose(models::Severity::Error,
                 tr("%1: its offset, sizes or strides are not non-negative integers of matching rank (at most %2); "
                    "skipped")
                     .arg(label(name))
                     .arg(kMaxRank));
        return;
    }
    const auto record = m_storages.constFind(key);
    if (record == m_storages.constEnd()) {
        diagnose(models::Severity::Error,
                 tr("%1: its storage record data/%2 is missing from the archive; skipped").arg(label(name), key));
        return;
    }
    if (record->dataStart < 0) {
        diagnose(models::Severity::Error,
                 tr("%1: storage record data/%2 %3; skipped").arg(label(name), key, record->problem));
        return;
    }
    const int item = models::tensor::itemSize(*dtype);
    std::int64_t storageBytes = 0;
    if (!multiplyFits(*numel, item, storageBytes) || storageBytes > record->size) {
        diagnose(models::Severity::Error,
                 tr("%1: storage data/%2 claims %3 elements of %4 bytes but its record holds %5 bytes; skipped")
                     .arg(label(name), key)
                     .arg(*numel)
                     .arg(item)
                     .arg(record->size));
        return;
    }
    std::int64_t count = 1;
    std::int64_t last = *offset; // element index of the last element
    bool fits = true;
    for (std::size_t d = 0; d < shape->size() && fits; ++d) {
        fits = multiplyFits(count, (*shape)[d], count);
    }
    if (fits && count > 0) {
        for (std::size_t d = 0; d < shape->size() && fits; ++d) {
            std::int64_t reach = 0;
            fits = multiplyFits((*shape)[d] - 1, (*stride)[d], reach)
                && reach <= std::numeric_limits<std::int64_t>::max() - last;
            if (fits)
                last += reach;
        }
    }
    if (!fits || (count > 0 && last >= *numel) || (count == 0 && *offset > *numel)) {
        diagnose(models::Severity::Error,
                 tr("%1: sizes %2, strides %3 and offset %4 reach beyond its storage data/%5 of %6 elements; skipped")
                     .arg(label(name), models::tensor::shapeText(*shape), models::tensor::shapeText(*stride))
                     .arg(*offset)
                     .arg(key)
                     .arg(*numel));
        return;
    }
    const std::vector<std::int64_t> contiguous = models::tensor::Tensor::contiguousStrides(*shape, 1);
    bool isContiguous = true;
    for (std::size_t d = 0; d < shape->size(); ++d)
        isContiguous = isContiguous && ((*shape)[d] <= 1 || (*stride)[d] == contiguous[d]);

    models::tensor::Tensor layout;
    layout.name = name;
    layout.dtype = *dtype;
    layout.shape = *shape;
    layout.offset = record->dataStart + *offset * item;
    for (const std::int64_t s : *stride) {
        // Only a dimension that is never stepped through (extent 1, or an empty tensor) escapes the reach check
        // above with a stride this large.
        std::int64_t bytes = 0;
        layout.strides.push_back(multiplyFits(s, item, bytes) ? bytes : 0);
    }
    layout.swap = std::endian::native == std::endian::big && item > 1;

    models::tensor::TensorInfo info;
    info.path = m_path;
    info.member = name;
    info.format = QStringLiteral("pt");
    info.dtype = *dtype;
    info.shape = *shape;
    info.byteSize = models::tensor::byteCount(count, item);
    if (isContiguous) {
        info.source = std::make_shared<MappedTensorSource>(m_mapping, std::move(layout));
    } else {
        ImportBudget copyBudget { m_fileSize };
        if (info.byteSize > kMaxCopyBytes || !copyBudget.spendBytes(info.byteSize)) {
            diagnose(models::Severity::Error,
                     tr("%1: a view of %2 bytes with strides %3 would have to be copied, more than RunLens copies "
                        "out of a file of this size; skipped")
                         .arg(label(name))
                         .arg(info.byteSize)
                         .arg(models::tensor::shapeText(*stride)));
            return;
        }
        info.note = tr("view with strides %1, copied in C order").arg(models::tensor::shapeText(*stride));
        info.source = std::make_shared<CopiedViewSource>(m_mapping, std::move(layout));
    }
    if (!m_budget.spendBytes(kListedTensorBytes + 2 * std::int64_t(name.size()))) {
        m_listing.diagnostics.append(m_budget.diagnostic(m_path, -1));
        m_stopped = true;
        return;
    }
    m_listing.tensors.append(std::move(info));
    m_keyOfTensor.append(key);
}

void Walker::noteSharing()
{
    QHash<QString, int> users;
    for (const QString& key : std::as_const(m_keyOfTensor))
        ++users[key];
    for (int i = 0; i < m_listing.tensors.size(); ++i) {
        const int others = users.value(m_keyOfTensor[i]) - 1;
        if (others <= 0)
            continue;
        models::tensor::TensorInfo& info = m_listing.tensors[i];
        const QString note
            = tr("shares storage data/%1 with %n other tensor(s)", nullptr, others).arg(m_keyOfTensor[i]);
        info.note = info.note.isEmpty() ? note : info.note + QStringLiteral("; ") + note;
    }
}

/// The bytes of a member read through libzip (stored or compressed); false with `error` when unreadable.
bool readWholeMember(zip_t* archive, zip_uint64_t index, std::int64_t size, std::string& out, QString& error)
{
    zip_file_t* file = zip_fopen_index(archive, index, 0);
    if (!file) {
        error = QString::fromLocal8Bit(zip_strerror(archive));
        return false;
    }
    out.assign(std::size_t(size), '\0');
    std::int64_t got = 0;
    const bool ok = readMember(file, reinterpret_cast<std::byte*>(out.data()), size, got);
    if (!ok)
        error = QString::fromLocal8Bit(zip_file_strerror(file));
    else if (got != size)
        error = Text::tr("it ends after %1 of %2 bytes").arg(got).arg(size);
    zip_fclose(file);
    return ok && got == size;
}

} // namespace

bool looksLikeLegacyTorchSave(std::string_view head)
{
    return head.size() >= sizeof(kLegacyMagic) && std::memcmp(head.data(), kLegacyMagic, sizeof(kLegacyMagic)) == 0;
}

bool looksLikeTorchSaveZip(std::string_view head)
{
    if (head.size() < 30 || head.substr(0, 4) != std::string_view("PK\x03\x04", 4))
        return false;
    const std::size_t nameLength = std::uint8_t(head[26]) | (std::size_t(std::uint8_t(head[27])) << 8);
    const std::string_view name = head.substr(30, std::min(nameLength, head.size() - 30));
    const std::size_t slash = name.find('/');
    if (slash == std::string_view::npos || slash == 0)
        return false;
    const std::string_view record = name.substr(slash + 1);
    return record == "data.pkl" || record == "byteorder" || record == ".format_version" || record == "version";
}

TensorListing listPtFile(const QString& path)
{
    TensorListing listing;
    const QString absolutePath = QFileInfo(path).absoluteFilePath();

    {
        QFile file(absolutePath);
        if (!file.open(QIODevice::ReadOnly)) {
            listing.error = Text::tr("%1: cannot open: %2").arg(absolutePath, file.errorString());
            return listing;
        }
        const QByteArray head = file.read(64);
        const std::string_view headView(head.constData(), std::size_t(head.size()));
        if (looksLikeLegacyTorchSave(headView)) {
            listing.error = Text::tr("%1: a torch.save file in the legacy format (PyTorch before 1.6, or "
                                     "_use_new_zipfile_serialization=False), which RunLens does not read; load it in "
                                     "Python and save it again with a current PyTorch")
                                .arg(absolutePath);
            return listing;
        }
        if (!headView.starts_with(std::string_view("PK\x03\x04", 4))) {
            listing.error = Text::tr("%1: not a torch.save file: it is neither a zip archive nor a legacy torch pickle")
                                .arg(absolutePath);
            return listing;
        }
    }

    const ZipArchive zip(absolutePath);
    if (!zip.archive) {
        listing.error = zip.error;
        return listing;
    }
    const std::int64_t fileSize = QFileInfo(absolutePath).size();
    const auto mapping = std::make_shared<const SharedFileMapping>(absolutePath, fileSize);
    QString mapError;
    const std::shared_ptr<const models::tensor::TensorData> mapped = mapping->get(mapError);
    if (!mapped) {
        listing.error = mapError;
        return listing;
    }
    const Bytes bytes { reinterpret_cast<const unsigned char*>(mapped->data()), mapped->size() };
    const std::optional<QHash<QByteArray, CentralEntry>> entries = centralEntries(bytes);

    // The folder is the one of the first data.pkl: writers name it after the file, not always "archive".
    const zip_int64_t count = zip_get_num_entries(zip.archive, 0);
    QString folder;
    zip_int64_t pickleIndex = -1;
    std::int64_t pickleSize = 0;
    zip_int64_t byteorderIndex = -1;
    std::int64_t byteorderSize = 0;
    for (zip_int64_t i = 0; i < count && pickleIndex < 0; ++i) {
        zip_stat_t stat;
        zip_stat_init(&stat);
        if (zip_stat_index(zip.archive, zip_uint64_t(i), ZIP_FL_ENC_RAW, &stat) != 0 || !stat.name)
            continue;
        const QString name = QString::fromUtf8(stat.name);
        const qsizetype slash = name.indexOf(u'/');
        if (slash > 0 && name.mid(slash + 1) == QLatin1String("data.pkl")) {
            folder = name.left(slash);
            pickleIndex = i;
            pickleSize = std::int64_t(std::min<zip_uint64_t>(stat.size, std::numeric_limits<std::int64_t>::max()));
        }
    }
    if (pickleIndex < 0) {
        listing.error
            = Text::tr("%1: a zip archive without a <folder>/data.pkl record; not a torch.save file").arg(absolutePath);
        return listing;
    }

    // The storage records, in place in the mapped file (torch.save stores them uncompressed).
    QHash<QString, StorageRecord> storages;
    const QString dataPrefix = folder + QStringLiteral("/data/");
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t stat;
        zip_stat_init(&stat);
        if (zip_stat_index(zip.archive, zip_uint64_t(i), ZIP_FL_ENC_RAW, &stat) != 0 || !stat.name)
            continue;
        const QByteArray rawName(stat.name);
        const QString name = QString::fromUtf8(rawName);
        if (name == folder + QStringLiteral("/byteorder")) {
            byteorderIndex = i;
            byteorderSize = std::int64_t(std::min<zip_uint64_t>(stat.size, kMaxByteorderBytes + 1));
            continue;
        }
        if (!name.startsWith(dataPrefix) || name.size() == dataPrefix.size())
            continue;
        const QString key = name.mid(dataPrefix.size());
        StorageRecord record;
        const CentralEntry entry = entries ? entries->value(rawName) : CentralEntry();
        const std::int64_t local = entry.local;
        if (stat.comp_method != ZIP_CM_STORE || stat.comp_size != stat.size) {
            record.problem = Text::tr("is compressed; torch.save writes storages uncompressed");
        } else if ((stat.valid & ZIP_STAT_ENCRYPTION_METHOD) && stat.encryption_method != ZIP_EM_NONE) {
            record.problem = Text::tr("is encrypted");
        } else if (entry.entry < 0 || !entry.inside || !bytes.has(local, kLocalHeaderBytes)
                   || bytes.le(local, 4) != kLocalHeaderSignature
                   || stat.size > zip_uint64_t(std::numeric_limits<std::int64_t>::max())) {
            record.problem = Text::tr("has a missing or damaged zip header");
        } else {
            // The local header's extra field (torch pads records to 64 bytes there) decides where data starts.
            const std::int64_t start = local + kLocalHeaderBytes + std::int64_t(bytes.le(local + 26, 2))
                + std::int64_t(bytes.le(local + 28, 2));
            if (!bytes.has(start, std::int64_t(stat.size)))
                record.problem = Text::tr("runs past the end of the file");
            else {
                record.dataStart = start;
                record.size = std::int64_t(stat.size);
            }
        }
        storages.insert(key, record);
    }

    if (byteorderIndex >= 0) {
        std::string order;
        QString readError;
        if (byteorderSize <= kMaxByteorderBytes
            && readWholeMember(zip.archive, zip_uint64_t(byteorderIndex), byteorderSize, order, readError)) {
            if (order == "big") {
                listing.error = Text::tr("%1: the tensors are stored big-endian (byteorder 'big'), which RunLens does "
                                         "not read; save them again on a little-endian machine")
                                    .arg(absolutePath);
                return listing;
            }
            if (order != "little")
                listing.diagnostics.append(
                    models::Diagnostic { models::Severity::Warning, absolutePath, -1, -1,
                                         Text::tr("unknown byteorder record; little-endian assumed") });
        }
    }

    ImportBudget budget { fileSize };
    if (pickleSize > kMaxPickleBytes || !budget.spendBytes(pickleSize)) {
        listing.error
            = Text::tr("%1: %2/data.pkl claims %3 bytes, more than a torch.save structure can need; the file is "
                       "damaged")
                  .arg(absolutePath, folder)
                  .arg(pickleSize);
        return listing;
    }
    std::string pickle;
    QString readError;
    if (!readWholeMember(zip.archive, zip_uint64_t(pickleIndex), pickleSize, pickle, readError)) {
        listing.error = Text::tr("%1: cannot read %2/data.pkl: %3").arg(absolutePath, folder, readError);
        return listing;
    }

    memory::PickleLimits limits;
    limits.torchWeights = true;
    limits.maxDepth = ImportLimits::kMaxDepth;
    const QString pickleName = absolutePath + QLatin1Char(':') + folder + QStringLiteral("/data.pkl");
    const memory::PickleResult decoded = memory::decodePickle(pickle, pickleName, budget, {}, limits);
    const PickleValue root = decoded.document.root();
    if (!root.isValid()) {
        const QString why
            = decoded.diagnostics.isEmpty() ? Text::tr("it holds no value") : decoded.diagnostics.first().message;
        listing.error = Text::tr("%1: cannot read %2/data.pkl: %3").arg(absolutePath, folder, why);
        return listing;
    }
    // A damaged pickle keeps what was decoded before the damage, which is listed.
    for (models::Diagnostic diagnostic : decoded.diagnostics) {
        diagnostic.file = absolutePath;
        diagnostic.message = Text::tr("%1/data.pkl: %2").arg(folder, diagnostic.message);
        listing.diagnostics.append(diagnostic);
    }

    Walker walker(absolutePath, fileSize, std::move(storages), mapping, listing, budget);
    walker.walk(root, QString(), 0);
    walker.noteSharing();
    if (listing.tensors.isEmpty() && listing.diagnostics.isEmpty())
        listing.diagnostics.append(
            models::Diagnostic { models::Severity::Info, absolutePath, -1, -1, Text::tr("the file holds no tensors") });
    return listing;
}

} // namespace runlens::importers::tensor
