#include "importers/tensor/npzfile.h"

#include "importers/core/importbudget.h"
#include "importers/tensor/npyfile.h"
#include "importers/tensor/npyheader.h"
#include "importers/tensor/zipdirectory.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <zip.h>

#include <bit>
#include <limits>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::tensor {

namespace {

using namespace ziparchive;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::tensor)
};

// An inflated member lives in memory; beyond this it is refused rather than risking the machine.
constexpr std::int64_t kMaxInflatedBytes = std::int64_t(8) << 30;
// The part of a member read to parse its .npy header: the fixed prefix, then as much as the header claims.
constexpr std::int64_t kNpyPrefixBytes = 12;
constexpr std::int64_t kMaxNpyHeaderBytes = (std::int64_t(1) << 20) + kNpyPrefixBytes;
// Deflate cannot shrink data more than 1032:1 (258-byte matches in at least 2 bits); a member claiming
// more is damaged or made to make RunLens allocate what it will never fill. The slack covers tiny members.
constexpr std::int64_t kMaxDeflateRatio = 1032;
constexpr std::int64_t kDeflateSlackBytes = 1024;

/// The member as a Tensor without its data, `offset` bytes into whatever holds the member's bytes.
models::tensor::Tensor layoutOf(const NpyHeader& header, models::tensor::DType type, const QString& name,
                                std::int64_t offset)
{
    models::tensor::Tensor layout;
    layout.name = name;
    layout.dtype = type;
    layout.shape = header.shape;
    layout.offset = offset;
    layout.swap = header.byteOrder != '|' && (header.byteOrder == '>') != (std::endian::native == std::endian::big);
    if (header.fortranOrder) {
        // The first index varies fastest: C strides of the reversed shape, reversed.
        const std::vector<std::int64_t> reversed(header.shape.rbegin(), header.shape.rend());
        const std::vector<std::int64_t> strides
            = models::tensor::Tensor::contiguousStrides(reversed, models::tensor::itemSize(type));
        layout.strides.assign(strides.rbegin(), strides.rend());
    } else {
        layout.strides = models::tensor::Tensor::contiguousStrides(header.shape, models::tensor::itemSize(type));
    }
    return layout;
}

/// A compressed member: inflated on the first open() and shared while any Tensor holds it.
class InflatedMemberSource final : public models::tensor::TensorSource
{
public:
    /// `layout.offset` is where the data starts in the inflated member; `neededBytes` the header and data.
    InflatedMemberSource(QString path, QByteArray rawName, std::int64_t uncompressedSize, models::tensor::Tensor layout,
                         std::int64_t neededBytes)
        : m_path(std::move(path))
        , m_rawName(std::move(rawName))
        , m_uncompressedSize(uncompressedSize)
        , m_layout(std::move(layout))
        , m_neededBytes(neededBytes)
    { }

    bool isImmediate() const override { return false; }

    models::tensor::TensorResult open() const override
    {
        models::tensor::TensorResult result;
        const std::lock_guard lock(m_mutex);
        std::shared_ptr<const models::tensor::TensorData> data = m_data.lock();
        if (!data) {
            data = inflate(result.error);
            m_data = data;
        }
        if (data) {
            result.tensor = m_layout;
            result.tensor->data = std::move(data);
        }
        return result;
    }

private:
    std::shared_ptr<const models::tensor::TensorData> inflate(QString& error) const
    {
        const QString member = QString::fromUtf8(m_rawName);
        const ZipArchive zip(m_path);
        if (!zip.archive) {
            error = zip.error;
            return nullptr;
        }
        const zip_int64_t index = zip_name_locate(zip.archive, m_rawName.constData(), ZIP_FL_ENC_RAW);
        zip_stat_t stat;
        zip_stat_init(&stat);
        if (index < 0 || zip_stat_index(zip.archive, zip_uint64_t(index), ZIP_FL_ENC_RAW, &stat) != 0
            || std::int64_t(stat.size) != m_uncompressedSize) {
            error = QCoreApplication::translate("runlens::tensor::InflatedMemberSource",
                                                "%1: member '%2' changed since the archive was listed; open it again")
                        .arg(m_path, member);
            return nullptr;
        }
        // Only the header and the data it declares are needed; anything after them stays compressed.
        const std::int64_t needed = m_neededBytes;
        if (needed > m_uncompressedSize || needed > kMaxInflatedBytes) {
            error = QCoreApplication::translate(
                        "runlens::tensor::InflatedMemberSource",
                        "%1: member '%2' would take %3 bytes inflated, more than RunLens keeps in memory")
                        .arg(m_path, member)
                        .arg(needed);
            return nullptr;
        }
        std::vector<std::byte> bytes;
        try {
            bytes.resize(std::size_t(needed));
        } catch (const std::bad_alloc&) {
            error = QCoreApplication::translate("runlens::tensor::InflatedMemberSource",
                                                "%1: not enough memory to inflate member '%2' (%3 bytes)")
                        .arg(m_path, member)
                        .arg(needed);
            return nullptr;
        }
        zip_file_t* file = zip_fopen_index(zip.archive, zip_uint64_t(index), 0);
        if (!file) {
            error = QCoreApplication::translate("runlens::tensor::InflatedMemberSource",
                                                "%1: cannot open member '%2': %3")
                        .arg(m_path, member, QString::fromLocal8Bit(zip_strerror(zip.archive)));
            return nullptr;
        }
        std::int64_t got = 0;
        bool ok = readMember(file, bytes.data(), needed, got);
        if (ok && got == needed && needed == m_uncompressedSize) {
            // One more read reaches the end of the member, where libzip checks its CRC.
            std::byte extra {};
            ok = zip_fread(file, &extra, 1) == 0;
        }
        const QString readError = QString::fromLocal8Bit(zip_file_strerror(file));
        zip_fclose(file);
        if (!ok || got != needed) {
            error = QCoreApplication::translate("runlens::tensor::InflatedMemberSource",
                                                "%1: cannot inflate member '%2': %3")
                        .arg(m_path, member,
                             ok ? QCoreApplication::translate("runlens::tensor::InflatedMemberSource",
                                                              "it ends after %1 of %2 bytes")
                                      .arg(got)
                                      .arg(needed)
                                : readError);
            return nullptr;
        }
        return std::make_shared<const models::tensor::MemoryTensorData>(std::move(bytes));
    }

    QString m_path;
    QByteArray m_rawName;
    std::int64_t m_uncompressedSize = 0;
    models::tensor::Tensor m_layout;
    std::int64_t m_neededBytes = 0;
    mutable std::mutex m_mutex;
    mutable std::weak_ptr<const models::tensor::TensorData> m_data;
};

/// The first bytes of a compressed member, enough for its .npy header; empty with `error` on failure, or
/// empty when the bytes to inflate would pass `budget` (one archive may list members that all point at the
/// same compressed bytes, so the headers inflated are counted over the whole listing).
std::string readCompressedHeader(zip_t* archive, zip_uint64_t index, std::int64_t memberSize, ImportBudget& budget,
                                 QString& error)
{
    if (!budget.spendBytes(std::min(memberSize, kNpyPrefixBytes)))
        return {};
    zip_file_t* file = zip_fopen_index(archive, index, 0);
    if (!file) {
        error = QString::fromLocal8Bit(zip_strerror(archive));
        return {};
    }
    std::string bytes(std::size_t(std::min(memberSize, kNpyPrefixBytes)), '\0');
    std::int64_t got = 0;
    bool ok = readMember(file, reinterpret_cast<std::byte*>(bytes.data()), std::int64_t(bytes.size()), got);
    bytes.resize(std::size_t(got));
    if (ok && got == kNpyPrefixBytes) {
        const auto byteAt = [&](std::size_t i) { return std::int64_t(static_cast<unsigned char>(bytes[i])); };
        const std::int64_t end = bytes[6] == 1
            ? 10 + (byteAt(8) | byteAt(9) << 8)
            : 12 + (byteAt(8) | byteAt(9) << 8 | byteAt(10) << 16 | byteAt(11) << 24);
        const std::int64_t wanted = std::min({ end, memberSize, kMaxNpyHeaderBytes });
        if (wanted > got && !budget.spendBytes(wanted - got)) {
            zip_fclose(file);
            return {};
        }
        if (wanted > got) {
            bytes.resize(std::size_t(wanted));
            std::int64_t more = 0;
            ok = readMember(file, reinterpret_cast<std::byte*>(bytes.data()) + got, wanted - got, more);
            bytes.resize(std::size_t(got + more));
        }
    }
    if (!ok) {
        error = QString::fromLocal8Bit(zip_file_strerror(file));
        bytes.clear();
    }
    zip_fclose(file);
    return bytes;
}

} // namespace

TensorListing listNpzFile(const QString& path)
{
    TensorListing listing;
    const QString absolutePath = QFileInfo(path).absoluteFilePath();
    qint64 fileSize = 0;
    // Offsets come from the archive's own tables, which may be damaged: one that is not inside the file
    // is left out rather than reported as a place in it.
    const auto inFile = [&](qint64 offset) { return offset >= 0 && offset <= fileSize ? offset : qint64(-1); };
    const auto diagnose = [&](models::Severity severity, const QString& message, qint64 offset = -1) {
        models::Diagnostic diagnostic;
        diagnostic.severity = severity;
        diagnostic.file = absolutePath;
        diagnostic.offset = inFile(offset);
        diagnostic.message = message;
        listing.diagnostics.append(diagnostic);
    };

    const ZipArchive zip(absolutePath);
    if (!zip.archive) {
        listing.error = zip.error;
        return listing;
    }
    const auto mapping = std::make_shared<const SharedFileMapping>(absolutePath, QFileInfo(absolutePath).size());
    QString mapError;
    const std::shared_ptr<const models::tensor::TensorData> mapped = mapping->get(mapError);
    if (!mapped) {
        listing.error = mapError;
        return listing;
    }
    const Bytes bytes { reinterpret_cast<const unsigned char*>(mapped->data()), mapped->size() };
    fileSize = bytes.size;
    const std::optional<QHash<QByteArray, CentralEntry>> entries = centralEntries(bytes);
    ImportBudget budget { bytes.size };

    const zip_int64_t count = zip_get_num_entries(zip.archive, 0);
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t stat;
        zip_stat_init(&stat);
        if (zip_stat_index(zip.archive, zip_uint64_t(i), ZIP_FL_ENC_RAW, &stat) != 0 || !stat.name) {
            diagnose(
                models::Severity::Error,
                Text::tr("member %1 cannot be read: %2").arg(i).arg(QString::fromLocal8Bit(zip_strerror(zip.archive))));
            continue;
        }
        const QByteArray rawName(stat.name);
        const QString memberName = QString::fromUtf8(rawName);
        if (!memberName.endsWith(QLatin1String(".npy"))) {
            if (!memberName.endsWith(u'/'))
                diagnose(models::Severity::Warning,
                         Text::tr("member '%1' is not a .npy array; skipped").arg(memberName));
            continue;
        }
        const QString key = memberName.chopped(4);
        if ((stat.valid & ZIP_STAT_ENCRYPTION_METHOD) && stat.encryption_method != ZIP_EM_NONE) {
            diagnose(models::Severity::Error,
                     Text::tr("member '%1' is encrypted; RunLens does not read encrypted archives").arg(memberName));
            continue;
        }
        const bool stored = stat.comp_method == ZIP_CM_STORE;
        if (!stored && !zip_compression_method_supported(stat.comp_method, 0)) {
            diagnose(models::Severity::Error,
                     Text::tr("member '%1' uses compression method %2, which RunLens cannot inflate")
                         .arg(memberName)
                         .arg(stat.comp_method));
            continue;
        }
        if (stat.size > zip_uint64_t(std::numeric_limits<std::int64_t>::max())
            || (stored && stat.comp_size != stat.size)) {
            diagnose(models::Severity::Error, Text::tr("member '%1' claims an impossible size").arg(memberName));
            continue;
        }
        const std::int64_t memberSize = std::int64_t(stat.size);
        const CentralEntry entry = entries ? entries->value(rawName) : CentralEntry();
        if (entry.entry >= 0 && !entry.inside) {
            diagnose(models::Severity::Error,
                     Text::tr("member '%1' skipped: its directory entry places it at offset %2, beyond the end of the "
                              "archive (%3 bytes); the archive is damaged or truncated")
                         .arg(memberName)
                         .arg(entry.local)
                         .arg(bytes.size),
                     entry.entry);
            continue;
        }
        const std::int64_t local = entry.local;

        std::int64_t dataStart = -1; // of a stored member, in the archive
        NpyHeaderResult parsed;
        if (stored) {
            // The local header's own extra field decides where the data starts (numpy writes a zip64 extra
            // field there that the central directory lacks).
            if (local < 0 || !bytes.has(local, kLocalHeaderBytes) || bytes.le(local, 4) != kLocalHeaderSignature) {
                diagnose(models::Severity::Error,
                         Text::tr("member '%1': its local header is missing or damaged").arg(memberName), local);
                continue;
            }
            dataStart = local + kLocalHeaderBytes + std::int64_t(bytes.le(local + 26, 2))
                + std::int64_t(bytes.le(local + 28, 2));
            if (!bytes.has(dataStart, memberSize)) {
                diagnose(models::Severity::Error,
                         Text::tr("member '%1' runs past the end of the archive").arg(memberName), local);
                continue;
            }
            const std::int64_t headerBytes = std::min(memberSize, kMaxNpyHeaderBytes);
            parsed = parseNpyHeader(
                std::string_view(reinterpret_cast<const char*>(bytes.data + dataStart), std::size_t(headerBytes)),
                memberSize);
        } else {
            QString readError;
            const std::string head = readCompressedHeader(zip.archive, zip_uint64_t(i), memberSize, budget, readError);
            if (budget.exceeded()) {
                // What was listed is kept; the members after this one are not looked at.
                listing.diagnostics.append(budget.diagnostic(absolutePath, inFile(local)));
                break;
            }
            if (!readError.isEmpty()) {
                diagnose(models::Severity::Error,
                         Text::tr("member '%1' cannot be inflated: %2").arg(memberName, readError));
                continue;
            }
            parsed = parseNpyHeader(head, memberSize);
        }
        if (!parsed.header) {
            diagnose(models::Severity::Error,
                     Text::tr("member '%1' skipped: %2").arg(memberName, QString::fromStdString(parsed.error)));
            continue;
        }
        const NpyHeader& header = *parsed.header;
        const NpyElementType element = npyElementType(header, memberName);
        const std::optional<models::tensor::DType> type = element.type;
        if (!type) {
            diagnose(models::Severity::Error,
                     Text::tr("member '%1' skipped: element type '%2' (%3) is not a numeric type RunLens reads")
                         .arg(memberName, QString::fromStdString(header.descr), QString::fromStdString(header.dtype)));
            continue;
        }

        models::tensor::TensorInfo info;
        info.path = absolutePath;
        info.member = key;
        info.format = QStringLiteral("npz");
        info.dtype = *type;
        info.shape = header.shape;
        if (stored) {
            info.note = element.note;
            info.byteSize = header.dataSize;
            info.source = std::make_shared<MappedTensorSource>(
                mapping, layoutOf(header, *type, key, dataStart + header.dataOffset));
        } else {
            // The sizes are checked here, before any open() allocates them: what the .npy header declares must
            // fit in the member, deflate must be able to produce it, and it must fit the archive's budget.
            const std::int64_t needed = header.dataOffset + header.dataSize;
            if (needed > memberSize) {
                diagnose(models::Severity::Error,
                         Text::tr("member '%1' skipped: its header declares %2 bytes but the member holds %3")
                             .arg(memberName)
                             .arg(needed)
                             .arg(memberSize),
                         local);
                continue;
            }
            if (stat.comp_method == ZIP_CM_DEFLATE
                && std::uint64_t(memberSize) / kMaxDeflateRatio > stat.comp_size + kDeflateSlackBytes) {
                diagnose(models::Severity::Error,
                         Text::tr("member '%1' skipped: it claims to inflate %2 bytes from %3, more than deflate can; "
                                  "the archive is damaged")
                             .arg(memberName)
                             .arg(memberSize)
                             .arg(stat.comp_size),
                         local);
                continue;
            }
            ImportBudget memberBudget { bytes.size };
            if (!memberBudget.spendBytes(needed)) {
                models::Diagnostic diagnostic = memberBudget.diagnostic(absolutePath, inFile(local));
                diagnostic.message = Text::tr("member '%1' skipped: %2").arg(memberName, diagnostic.message);
                listing.diagnostics.append(diagnostic);
                continue;
            }
            info.byteSize = std::int64_t(stat.comp_size);
            info.note = stat.comp_method == ZIP_CM_DEFLATE ? QStringLiteral("deflated") : QStringLiteral("compressed");
            if (!element.note.isEmpty())
                info.note += QStringLiteral("; ");
            info.source = std::make_shared<InflatedMemberSource>(absolutePath, rawName, memberSize,
                                                                 layoutOf(header, *type, key, header.dataOffset),
                                                                 header.dataOffset + header.dataSize);
            info.note += element.note;
        }
        listing.tensors.append(std::move(info));
    }
    if (count < 0)
        listing.error = Text::tr("%1: cannot list the archive: %2")
                            .arg(absolutePath, QString::fromLocal8Bit(zip_strerror(zip.archive)));
    return listing;
}

} // namespace runlens::importers::tensor
