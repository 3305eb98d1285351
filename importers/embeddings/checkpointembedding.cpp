#include "importers/embeddings/checkpointembedding.h"

#include "models/core/crc32c.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cmath>
#include <cstring>
#include <limits>

namespace runlens::importers::embeddings {

namespace {

/// The same translation context as the rest of the projector reader's messages.
struct CheckpointTr
{
    Q_DECLARE_TR_FUNCTIONS(runlens::embeddings::ProjectorReader)
};

// A `checkpoint` state file is a few lines per kept checkpoint.
constexpr qint64 kMaxStateBytes = 1024 * 1024;
// An index lists names, shapes and offsets: tens of bytes per variable. The table reader has its own
// limits on what it decompresses; this only keeps a huge file from being loaded whole.
constexpr qint64 kMaxIndexBytes = qint64(graph::checkpointlimits::kMaxTotalBytes);
// Names listed when a tensor is not found: enough to spot a typo or a missing suffix.
constexpr int kListedNames = 6;
// The key a TF2 object-based checkpoint (tf.train.Checkpoint) stores a variable's value under.
constexpr char kObjectValueSuffix[] = "/.ATTRIBUTES/VARIABLE_VALUE";

models::Diagnostic problem(models::Severity severity, const QString& path, const QString& message)
{
    models::Diagnostic d;
    d.severity = severity;
    d.file = path;
    d.message = message;
    return d;
}

QString native(const QString& path)
{
    return QDir::toNativeSeparators(path);
}

QString resolve(const QDir& folder, const QString& path)
{
    return QDir::cleanPath(QDir::isAbsolutePath(path) ? path : folder.filePath(path));
}

/// The prefix a folder's `checkpoint` file names; empty (and, when the file exists but names nothing
/// usable, an error) otherwise. `tried` collects the state files looked at, for the message when none is.
QString latestCheckpoint(const QString& folder, models::Diagnostics& diagnostics, QStringList& tried)
{
    const QString statePath = QDir(folder).filePath(QStringLiteral("checkpoint"));
    tried.append(native(statePath));
    QFile state(statePath);
    if (!QFileInfo(statePath).isFile() || !state.open(QIODevice::ReadOnly))
        return {};
    if (state.size() > kMaxStateBytes) {
        diagnostics.append(
            problem(models::Severity::Error, statePath,
                    CheckpointTr::tr("%1 bytes is more than a checkpoint state file holds").arg(state.size())));
        return {};
    }
    const QString named = checkpointStatePath(state.readAll());
    if (named.isEmpty()) {
        diagnostics.append(
            problem(models::Severity::Error, statePath, CheckpointTr::tr("no model_checkpoint_path in the file")));
        return {};
    }
    const QString prefix = resolve(QDir(folder), named);
    if (!QFileInfo::exists(prefix + QStringLiteral(".index"))) {
        diagnostics.append(problem(models::Severity::Error, statePath,
                                   CheckpointTr::tr("the file names the checkpoint %1, but %2 does not exist")
                                       .arg(named, native(prefix + QStringLiteral(".index")))));
        return {};
    }
    return prefix;
}

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t(h & 0x8000) << 16;
    const int exponent = (h >> 10) & 0x1f;
    const std::uint32_t mantissa = h & 0x3ff;
    if (exponent == 0) // zero or subnormal: mantissa * 2^-24
        return (sign ? -1.0f : 1.0f) * std::ldexp(float(mantissa), -24);
    std::uint32_t bits = 0;
    if (exponent == 31)
        bits = sign | 0x7f800000u | (mantissa << 13);
    else
        bits = sign | (std::uint32_t(exponent - 15 + 127) << 23) | (mantissa << 13);
    float out = 0;
    std::memcpy(&out, &bits, sizeof out);
    return out;
}

template<class T> T load(const char* p)
{
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

QString shapeText(const models::graph::TensorType& type)
{
    return QString::fromStdString(type.text());
}

} // namespace

QString checkpointStatePath(const QByteArray& text)
{
    // CheckpointState in text format, one field per line: `model_checkpoint_path: "model.ckpt-100"`.
    for (const QByteArray& rawLine : text.split('\n')) {
        const QByteArray line = rawLine.trimmed();
        if (!line.startsWith("model_checkpoint_path"))
            continue;
        qsizetype at = qsizetype(std::strlen("model_checkpoint_path"));
        while (at < line.size() && (line[at] == ' ' || line[at] == ':'))
            ++at;
        if (at >= line.size() || (line[at] != '"' && line[at] != '\''))
            continue;
        const char quote = line[at++];
        QByteArray value;
        for (; at < line.size() && line[at] != quote; ++at) {
            if (line[at] == '\\' && at + 1 < line.size())
                ++at;
            value.append(line[at]);
        }
        if (at < line.size())
            return QString::fromUtf8(value);
    }
    return {};
}

QString findProjectorCheckpoint(const ProjectorConfig& config, const QString& configPath,
                                models::Diagnostics& diagnostics)
{
    const QDir folder = QFileInfo(configPath).absoluteDir();
    QStringList tried;
    if (!config.modelCheckpointPath.isEmpty()) {
        const QString path = resolve(folder, config.modelCheckpointPath);
        if (QFileInfo(path).isDir()) {
            // A folder, as tf.train.load_checkpoint also takes: its `checkpoint` file names the prefix.
            const qsizetype before = diagnostics.size();
            const QString prefix = latestCheckpoint(path, diagnostics, tried);
            if (!prefix.isEmpty() || diagnostics.size() != before)
                return prefix;
        } else if (QFileInfo::exists(path + QStringLiteral(".index"))) {
            return path;
        } else if (path.endsWith(QStringLiteral(".index")) && QFileInfo::exists(path)) {
            return path.chopped(6);
        }
        diagnostics.append(problem(
            models::Severity::Error, configPath,
            CheckpointTr::tr("model_checkpoint_path names %1, but %2 does not exist")
                .arg(config.modelCheckpointPath,
                     tried.isEmpty() ? native(path + QStringLiteral(".index")) : tried.join(QStringLiteral(", ")))));
        return {};
    }
    QStringList folders;
    if (!config.modelCheckpointDir.isEmpty()) {
        folders.append(resolve(folder, config.modelCheckpointDir));
    } else {
        // TensorBoard's log folder of a projector config: two levels up from `<logdir>/plugins/projector`.
        QString logDir = folder.absolutePath();
        if (logDir.contains(QStringLiteral("/plugins/")))
            logDir = QDir::cleanPath(logDir + QStringLiteral("/../.."));
        folders = { logDir, QDir::cleanPath(logDir + QStringLiteral("/..")) };
    }
    for (const QString& candidate : std::as_const(folders)) {
        const qsizetype before = diagnostics.size();
        const QString prefix = latestCheckpoint(candidate, diagnostics, tried);
        if (!prefix.isEmpty())
            return prefix;
        if (diagnostics.size() != before)
            return {};
    }
    diagnostics.append(problem(models::Severity::Error, configPath,
                               CheckpointTr::tr("no checkpoint to read tensor_name embeddings from: the config has "
                                                "no model_checkpoint_path and there is no %1")
                                   .arg(tried.join(CheckpointTr::tr(" or ")))));
    return {};
}

int tensorElementSize(std::string_view dtype)
{
    if (dtype == "float32" || dtype == "int32" || dtype == "uint32")
        return 4;
    if (dtype == "float64" || dtype == "int64" || dtype == "uint64")
        return 8;
    if (dtype == "float16" || dtype == "bfloat16" || dtype == "int16" || dtype == "uint16")
        return 2;
    if (dtype == "int8" || dtype == "uint8" || dtype == "bool")
        return 1;
    return 0;
}

bool tensorBytesToFloats(std::string_view dtype, std::string_view bytes, std::vector<float>& out, qint64& nonFinite)
{
    const int size = tensorElementSize(dtype);
    if (size == 0 || bytes.size() % std::size_t(size) != 0)
        return false;
    const std::size_t count = bytes.size() / std::size_t(size);
    out.resize(count);
    const char* p = bytes.data();
    auto put = [&](std::size_t i, double v) {
        // Wider values beyond a float's range would become infinite: they read as 0 like NaN does.
        if (!std::isfinite(v) || std::fabs(v) > double(std::numeric_limits<float>::max())) {
            ++nonFinite;
            v = 0;
        }
        out[i] = float(v);
    };
    for (std::size_t i = 0; i < count; ++i, p += size) {
        if (dtype == "float32")
            put(i, load<float>(p));
        else if (dtype == "float64")
            put(i, load<double>(p));
        else if (dtype == "float16")
            put(i, halfToFloat(load<std::uint16_t>(p)));
        else if (dtype == "bfloat16") {
            const std::uint32_t bits = std::uint32_t(load<std::uint16_t>(p)) << 16;
            put(i, load<float>(reinterpret_cast<const char*>(&bits)));
        } else if (dtype == "int8")
            put(i, load<std::int8_t>(p));
        else if (dtype == "uint8" || dtype == "bool")
            put(i, load<std::uint8_t>(p));
        else if (dtype == "int16")
            put(i, load<std::int16_t>(p));
        else if (dtype == "uint16")
            put(i, load<std::uint16_t>(p));
        else if (dtype == "int32")
            put(i, load<std::int32_t>(p));
        else if (dtype == "uint32")
            put(i, load<std::uint32_t>(p));
        else if (dtype == "int64")
            put(i, double(load<std::int64_t>(p)));
        else
            put(i, double(load<std::uint64_t>(p)));
    }
    return true;
}

CheckpointTensorReader::CheckpointTensorReader(QString prefix)
    : m_prefix(std::move(prefix))
{ }

bool CheckpointTensorReader::loadIndex(models::Diagnostics& diagnostics)
{
    if (m_loaded)
        return m_usable;
    m_loaded = true;
    const QString path = indexPath();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        diagnostics.append(
            problem(models::Severity::Error, path, CheckpointTr::tr("cannot open: %1").arg(file.errorString())));
        return false;
    }
    if (file.size() > kMaxIndexBytes) {
        diagnostics.append(problem(models::Severity::Error, path,
                                   CheckpointTr::tr("%1 bytes is more than the %2 bytes read for a checkpoint index")
                                       .arg(file.size())
                                       .arg(kMaxIndexBytes)));
        return false;
    }
    const QByteArray bytes = file.readAll();
    m_index = graph::readTfCheckpointIndex(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!m_index.error.empty()) {
        diagnostics.append(problem(m_index.entries.empty() ? models::Severity::Error : models::Severity::Warning, path,
                                   CheckpointTr::tr("the checkpoint index is damaged (%1); %2 tensors were read before")
                                       .arg(QString::fromStdString(m_index.error))
                                       .arg(m_index.entries.size())));
    }
    m_usable = !m_index.entries.empty();
    return m_usable;
}

const graph::TfCheckpointEntry* CheckpointTensorReader::find(const std::string& key) const
{
    for (const graph::TfCheckpointEntry& e : m_index.entries) {
        if (e.key == key)
            return &e;
    }
    return nullptr;
}

bool CheckpointTensorReader::read(const QString& tensorName, const ProjectorLimits& limits,
                                  models::embeddings::EmbeddingSet& set, models::Diagnostics& diagnostics)
{
    if (!loadIndex(diagnostics))
        return false;
    const QString index = indexPath();
    auto fail = [&](const QString& file, const QString& message) {
        diagnostics.append(problem(models::Severity::Error, file, message));
        return false;
    };

    QString name = tensorName;
    if (name.endsWith(QStringLiteral(":0")))
        name.chop(2);
    // The exact key first (TF1 Saver names, "embedding/weights"); then the TF2 object-based key.
    const graph::TfCheckpointEntry* entry = find(name.toStdString());
    if (!entry)
        entry = find(name.toStdString() + kObjectValueSuffix);
    if (!entry) {
        // Two-dimensional variables first: they are the ones a projector config means to name.
        QStringList names;
        for (int pass = 0; pass < 2 && names.size() < kListedNames; ++pass) {
            for (const graph::TfCheckpointEntry& e : m_index.entries) {
                if ((e.type.dims.size() == 2) == (pass == 0) && names.size() < kListedNames)
                    names.append(QString::fromStdString(e.key).left(120));
            }
        }
        return fail(index,
                    CheckpointTr::tr("tensor %1 is not in the checkpoint (neither as named nor with %2); "
                                     "it holds %3 tensors, among them %4")
                        .arg(tensorName, QString::fromLatin1(kObjectValueSuffix))
                        .arg(m_index.entries.size())
                        .arg(names.join(QStringLiteral(", "))));
    }
    const QString key = QString::fromStdString(entry->key);
    const models::graph::TensorType& type = entry->type;
    if (entry->sliced)
        return fail(index,
                    CheckpointTr::tr("%1 is a partitioned variable saved in slices, which is not read").arg(key));
    const int elementSize = tensorElementSize(type.dtype);
    if (elementSize == 0) {
        return fail(index,
                    CheckpointTr::tr("%1 is of type %2; only float, integer and bool tensors can be shown as points")
                        .arg(key, QString::fromStdString(type.dtype)));
    }
    // TensorBoard's projector offers only the 2-D variables of a checkpoint as embeddings.
    if (!type.rankKnown || type.dims.size() != 2 || type.dims[0] < 0 || type.dims[1] < 0) {
        return fail(index,
                    CheckpointTr::tr("%1 has the shape %2; only 2-D tensors (points x dimensions) are "
                                     "embeddings")
                        .arg(key, shapeText(type)));
    }
    const std::int64_t rows = type.dims[0];
    const std::int64_t dims = type.dims[1];
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    const bool overflow = (dims != 0 && rows > kMax / dims) || (rows * dims > kMax / elementSize && dims != 0);
    if (overflow || entry->size != rows * dims * elementSize) {
        return fail(index,
                    CheckpointTr::tr("the index gives %1 %2 bytes, but its shape and type need %3")
                        .arg(key)
                        .arg(entry->size)
                        .arg(overflow ? CheckpointTr::tr("more than any file holds")
                                      : QString::number(rows * dims * elementSize)));
    }
    if (rows > limits.maxRows || dims > limits.maxDims || rows * dims > limits.maxValues) {
        return fail(index,
                    CheckpointTr::tr("%1 is %2 points x %3 dimensions, more than the projector reads (%4 "
                                     "points, %5 dimensions, %6 values)")
                        .arg(key)
                        .arg(rows)
                        .arg(dims)
                        .arg(limits.maxRows)
                        .arg(limits.maxDims)
                        .arg(limits.maxValues));
    }
    const int shards = std::max(1, m_index.shards);
    if (entry->shard < 0 || entry->shard >= shards) {
        return fail(
            index,
            CheckpointTr::tr("%1 is in shard %2 of a checkpoint of %3 shards").arg(key).arg(entry->shard).arg(shards));
    }
    const QString shardPath
        = QString::fromStdString(graph::tfCheckpointShardName(m_prefix.toStdString(), entry->shard, shards));
    QFile shard(shardPath);
    if (!shard.open(QIODevice::ReadOnly))
        return fail(shardPath, CheckpointTr::tr("cannot open: %1 (it holds %2)").arg(shard.errorString(), key));
    const qint64 length = shard.size();
    if (entry->offset < 0 || entry->offset > length || entry->size > length - entry->offset) {
        return fail(shardPath,
                    CheckpointTr::tr("the file is %1 bytes, but %2 lies at bytes %3 to %4: the file is "
                                     "truncated or not this checkpoint's")
                        .arg(length)
                        .arg(key)
                        .arg(entry->offset)
                        .arg(entry->offset + entry->size));
    }
    QByteArray bytes;
    if (!shard.seek(entry->offset) || (bytes = shard.read(entry->size)).size() != entry->size) {
        return fail(
            shardPath,
            CheckpointTr::tr("cannot read the %1 bytes of %2: %3").arg(entry->size).arg(key, shard.errorString()));
    }
    if (entry->maskedCrc32c != 0
        && models::maskedCrc32c(bytes.constData(), std::size_t(bytes.size())) != entry->maskedCrc32c) {
        diagnostics.append(problem(models::Severity::Warning, shardPath,
                                   CheckpointTr::tr("the bytes of %1 do not match the CRC-32C the index stores for "
                                                    "them; the values are shown as read but may be damaged")
                                       .arg(key)));
    }
    qint64 nonFinite = 0;
    if (!tensorBytesToFloats(type.dtype, std::string_view(bytes.constData(), std::size_t(bytes.size())), set.values,
                             nonFinite)) {
        return fail(shardPath,
                    CheckpointTr::tr("the bytes of %1 are not whole %2 values")
                        .arg(key)
                        .arg(QString::fromStdString(type.dtype)));
    }
    if (nonFinite > 0) {
        diagnostics.append(
            problem(models::Severity::Warning, shardPath,
                    CheckpointTr::tr("%1 values of %2 are not finite floats and read as 0").arg(nonFinite).arg(key)));
    }
    set.rows = int(rows);
    set.dims = int(dims);
    set.source = shardPath;
    return true;
}

} // namespace runlens::importers::embeddings
