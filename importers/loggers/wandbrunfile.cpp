#include "importers/loggers/wandbrunfile.h"

#include "importers/loggers/flatjson.h"
#include "importers/loggers/loggerstr.h"
#include "importers/loggers/proto/wandb_record.pb.h"

#include <zlib.h>

#include <cmath>

namespace runlens::importers::loggers {

namespace {

constexpr int kHeaderBytes = 7; // checksum (4), length (2), type (1) of each physical record

enum FragmentType : quint8 { kZero = 0, kFull = 1, kFirst = 2, kMiddle = 3, kLast = 4 };

quint32 readLe32(const char* p)
{
    return quint32(quint8(p[0])) | quint32(quint8(p[1])) << 8 | quint32(quint8(p[2])) << 16
        | quint32(quint8(p[3])) << 24;
}

quint16 readLe16(const char* p)
{
    return quint16(quint8(p[0]) | quint8(p[1]) << 8);
}

/// CRC-32 (zlib's) of the type byte followed by the data, as the writer computes it.
quint32 fragmentChecksum(quint8 type, const char* data, std::size_t size)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    const Bytef typeByte = type;
    crc = crc32(crc, &typeByte, 1);
    // zlib takes uInt lengths; a fragment is never longer than a block.
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data), uInt(size));
    return quint32(crc);
}

void appendJsonString(std::string& out, std::string_view text)
{
    out += '"';
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (quint8(c) < 0x20) {
            static const char kHex[] = "0123456789abcdef";
            out += "\\u00";
            out += kHex[(quint8(c) >> 4) & 0xf];
            out += kHex[quint8(c) & 0xf];
        } else {
            out += c;
        }
    }
    out += '"';
}

/// `key`, or the nested keys joined with '/' as nested JSON objects are named.
std::string itemKey(const wandb::Item& item)
{
    if (item.nested_key_size() == 0)
        return item.key();
    std::string key;
    for (const std::string& part : item.nested_key()) {
        if (!key.empty())
            key += '/';
        key += part;
    }
    return key;
}

/// A config or summary value: a number, a string or a boolean; nullopt for lists, maps and what is not JSON.
std::optional<QVariant> plainValue(std::string_view json)
{
    while (!json.empty() && (json.front() == ' ' || json.front() == '\n'))
        json.remove_prefix(1);
    while (!json.empty() && (json.back() == ' ' || json.back() == '\n'))
        json.remove_suffix(1);
    if (json == "true" || json == "false")
        return QVariant(json == "true");
    if (json == "null")
        return QVariant(QString());
    if (json.empty() || json.front() == '{' || json.front() == '[')
        return std::nullopt;
    std::string line = "{\"v\":";
    line.append(json);
    line += '}';
    std::vector<JsonLine::Value> values;
    if (!JsonLine(line).parse(values) || values.size() != 1)
        return std::nullopt;
    if (values.front().number)
        return QVariant(*values.front().number);
    if (values.front().isString)
        return QVariant(QString::fromStdString(values.front().text));
    return std::nullopt;
}

} // namespace

quint32 wandbFragmentChecksum(quint8 type, QByteArrayView data)
{
    return fragmentChecksum(type, data.data(), std::size_t(data.size()));
}

bool isWandbRunFile(std::string_view head)
{
    return head.size() >= kWandbHeaderSize && head.substr(0, 4) == ":W&B" && quint8(head[4]) == 0xE1
        && quint8(head[5]) == 0xBE && quint8(head[6]) == 0;
}

std::string wandbRunDisplayName(std::string_view head)
{
    if (!isWandbRunFile(head))
        return {};
    // Only FULL records of the first block: the run record is small and among the first few.
    std::size_t pos = kWandbHeaderSize;
    const std::size_t end = std::min<std::size_t>(head.size(), std::size_t(kWandbBlockSize));
    for (int count = 0; count < 16 && pos + kHeaderBytes <= end; ++count) {
        const quint32 crc = readLe32(head.data() + pos);
        const quint16 length = readLe16(head.data() + pos + 4);
        const quint8 type = quint8(head[pos + 6]);
        const char* data = head.data() + pos + kHeaderBytes;
        if (pos + kHeaderBytes + length > end || type != kFull || fragmentChecksum(type, data, length) != crc)
            return {};
        wandb::Record record;
        if (record.ParseFromArray(data, length) && record.has_run())
            return record.run().display_name();
        pos += kHeaderBytes + length;
    }
    return {};
}

WandbRunReader::WandbRunReader(QString path)
    : m_path(std::move(path))
    , m_history(m_path)
    , m_stats(m_path)
{ }

void WandbRunReader::warn(qint64 offset, const QString& message)
{
    // A file damaged all over would otherwise bury everything else under its messages.
    constexpr int kMaxWarnings = 50;
    if (++m_warnings < kMaxWarnings)
        m_diagnostics.append({ models::Severity::Warning, m_path, offset, -1, message });
    else if (m_warnings == kMaxWarnings)
        m_diagnostics.append({ models::Severity::Warning, m_path, offset, -1,
                               LoggersTr::tr("The W&B run file is damaged in more places; they are not listed.") });
}

bool WandbRunReader::feed(QByteArrayView data)
{
    if (m_failed)
        return false;
    const char* const base = data.data();
    const qint64 start = m_offset; // the file offset of data[0]
    const qint64 end = start + data.size();
    if (m_offset == 0) {
        if (data.size() < qsizetype(kWandbHeaderSize))
            return true;
        if (!isWandbRunFile(std::string_view(base, kWandbHeaderSize))) {
            m_failed = true;
            m_diagnostics.append(
                { models::Severity::Error, m_path, 0, -1,
                  LoggersTr::tr("%1 does not start with the header of a W&B run file (\":W&B\", magic 0xBEE1, "
                                "version 0); it is not read.")
                      .arg(m_path) });
            return false;
        }
        m_offset = kWandbHeaderSize;
    }

    std::string pending;
    qint64 pendingStart = -1;
    qint64 cursor = m_offset;
    bool stalled = false;
    while (cursor < end) {
        const qint64 blockLeft = kWandbBlockSize - cursor % kWandbBlockSize;
        if (blockLeft < kHeaderBytes) {
            // The writer pads the end of a block that cannot hold another record header.
            cursor += blockLeft;
            if (pendingStart < 0)
                m_offset = std::min(cursor, end);
            continue;
        }
        if (end - cursor < kHeaderBytes) {
            stalled = true;
            break;
        }
        const char* header = base + (cursor - start);
        const quint32 crc = readLe32(header);
        const quint16 length = readLe16(header + 4);
        const quint8 type = quint8(header[6]);
        const qint64 nextBlock = cursor + blockLeft;
        if (type == kZero && length == 0 && crc == 0) {
            // Zeroes where a record would be: space the writer reserved; data resumes in the next block.
            cursor = nextBlock;
            if (pendingStart < 0)
                m_offset = std::min(cursor, end);
            continue;
        }
        if (length > blockLeft - kHeaderBytes) {
            dropPending(cursor,
                        LoggersTr::tr("a record declares %1 bytes, past the end of its 32 KiB block").arg(length));
            pending.clear();
            pendingStart = -1;
            cursor = nextBlock;
            m_offset = std::min(cursor, end);
            continue;
        }
        if (cursor + kHeaderBytes + length > end) {
            stalled = true;
            break;
        }
        const char* payload = header + kHeaderBytes;
        if (fragmentChecksum(type, payload, length) != crc || type > kLast) {
            dropPending(cursor,
                        type > kLast ? LoggersTr::tr("a record has the unknown fragment type %1").arg(type)
                                     : LoggersTr::tr("a record's checksum does not match its data"));
            pending.clear();
            pendingStart = -1;
            cursor = nextBlock;
            m_offset = std::min(cursor, end);
            continue;
        }
        const qint64 after = cursor + kHeaderBytes + length;
        switch (type) {
        case kFull:
            m_skippingOversized = false;
            if (pendingStart >= 0)
                dropRecord(pendingStart, LoggersTr::tr("a record split over blocks was never finished"));
            pending.clear();
            pendingStart = -1;
            readRecord(std::string_view(payload, length), cursor);
            m_offset = after;
            break;
        case kFirst:
            m_skippingOversized = false;
            if (pendingStart >= 0)
                dropRecord(pendingStart, LoggersTr::tr("a record split over blocks was never finished"));
            pending.assign(payload, length);
            pendingStart = cursor;
            break;
        case kMiddle:
        case kLast:
            if (pendingStart < 0) {
                // The fragments after an oversized start are dropped with it, without a message each.
                if (!m_skippingOversized)
                    dropRecord(cursor, LoggersTr::tr("the rest of a record appears without its start"));
                m_skippingOversized = m_skippingOversized && type == kMiddle;
                m_offset = after;
                break;
            }
            if (qint64(pending.size()) + length > kMaxRecordBytes) {
                dropRecord(pendingStart, LoggersTr::tr("a record is larger than %1 MiB").arg(kMaxRecordBytes >> 20));
                pending.clear();
                pendingStart = -1;
                m_skippingOversized = type == kMiddle;
                m_offset = after;
                break;
            }
            pending.append(payload, length);
            if (type == kLast) {
                readRecord(pending, pendingStart);
                pending.clear();
                pendingStart = -1;
                m_offset = after;
            }
            break;
        default:
            break;
        }
        cursor = after;
    }
    if (pendingStart >= 0)
        stalled = true;
    if (m_badRecords > 0) {
        warn(m_firstBadRecord,
             LoggersTr::tr("%n records of the W&B run file are not W&B records and were left out.", nullptr,
                           int(std::min<qint64>(m_badRecords, 1 << 30))));
        m_badRecords = 0;
        m_firstBadRecord = -1;
    }
    return stalled;
}

void WandbRunReader::dropPending(qint64 offset, const QString& why)
{
    warn(offset,
         LoggersTr::tr("The W&B run file is damaged here: %1; the rest of that 32 KiB block is left out.").arg(why));
}

void WandbRunReader::dropRecord(qint64 offset, const QString& why)
{
    warn(offset, LoggersTr::tr("The W&B run file is damaged here: %1; that record is left out.").arg(why));
}

void WandbRunReader::readRecord(std::string_view bytes, qint64 offset)
{
    wandb::Record record;
    if (!record.ParseFromArray(bytes.data(), int(bytes.size()))) {
        if (m_badRecords++ == 0)
            m_firstBadRecord = offset;
        return;
    }
    ++m_records;
    switch (record.record_type_case()) {
    case wandb::Record::kHistory: {
        // One JSON line, as older clients wrote it to wandb-history.jsonl: the same parser names the scalars.
        const wandb::HistoryRecord& history = record.history();
        std::string line = "{";
        if (history.has_step()) {
            line += "\"_step\":";
            line += std::to_string(history.step().num());
        }
        for (const wandb::Item& item : history.item()) {
            const std::string key = itemKey(item);
            if ((history.has_step() && key == "_step") || item.value_json().empty())
                continue;
            if (line.size() > 1)
                line += ',';
            appendJsonString(line, key);
            line += ':';
            line += item.value_json();
        }
        line += '}';
        std::vector<JsonLine::Value> check;
        if (!JsonLine(line).parse(check)) {
            warn(offset, LoggersTr::tr("A history record holds a value that is not JSON; it is left out."));
            return;
        }
        m_history.feedLine(line, ++m_historyRows);
        break;
    }
    case wandb::Record::kStats: {
        // As wandb-events.jsonl: `system.<key>` and the sample's time.
        const wandb::StatsRecord& stats = record.stats();
        std::string line = "{";
        if (stats.has_timestamp()) {
            line += "\"_timestamp\":";
            char number[64];
            std::snprintf(number, sizeof number, "%.17g",
                          double(stats.timestamp().seconds()) + stats.timestamp().nanos() / 1e9);
            line += number;
        }
        for (const wandb::Item& item : stats.item()) {
            if (item.value_json().empty())
                continue;
            if (line.size() > 1)
                line += ',';
            appendJsonString(line, "system." + item.key());
            line += ':';
            line += item.value_json();
        }
        line += '}';
        std::vector<JsonLine::Value> check;
        if (!JsonLine(line).parse(check)) {
            warn(offset, LoggersTr::tr("A system statistics record holds a value that is not JSON; it is left out."));
            return;
        }
        m_stats.feedLine(line, ++m_statsRows);
        break;
    }
    case wandb::Record::kConfig:
    case wandb::Record::kRun: {
        const wandb::ConfigRecord& config = record.has_config() ? record.config() : record.run().config();
        for (const wandb::Item& item : config.update()) {
            const QString key = QString::fromStdString(itemKey(item));
            if (key.isEmpty() || key.startsWith(QLatin1Char('_')))
                continue;
            if (const auto value = plainValue(item.value_json())) {
                m_config.insert(key, *value);
                m_skippedConfig.removeAll(key);
            } else if (!m_skippedConfig.contains(key)) {
                m_skippedConfig.append(key);
            }
            m_hparamsChanged = true;
        }
        for (const wandb::Item& item : config.remove()) {
            m_config.remove(QString::fromStdString(itemKey(item)));
            m_hparamsChanged = true;
        }
        if (!record.has_run())
            break;
        const wandb::RunRecord& run = record.run();
        auto put = [&](const char* name, const std::string& value) {
            if (!value.empty())
                m_run.insert(QLatin1String(name), QString::fromStdString(value));
        };
        put("wandb.run_id", run.run_id());
        put("wandb.display_name", run.display_name());
        put("wandb.entity", run.entity());
        put("wandb.project", run.project());
        put("wandb.group", run.run_group());
        put("wandb.job_type", run.job_type());
        put("wandb.notes", run.notes());
        put("wandb.host", run.host());
        QStringList tags;
        for (const std::string& tag : run.tags())
            tags.append(QString::fromStdString(tag));
        if (!tags.isEmpty())
            m_run.insert(QStringLiteral("wandb.tags"), tags.join(QStringLiteral(", ")));
        if (run.has_start_time() && run.start_time().seconds() > 0)
            m_startTime = double(run.start_time().seconds()) + run.start_time().nanos() / 1e9;
        m_hparamsChanged = true;
        if (!run.has_summary())
            break;
        [[fallthrough]];
    }
    case wandb::Record::kSummary: {
        const wandb::SummaryRecord& summary = record.has_summary() ? record.summary() : record.run().summary();
        for (const wandb::Item& item : summary.update()) {
            const QString key = QString::fromStdString(itemKey(item));
            if (key.isEmpty() || key.startsWith(QLatin1Char('_')))
                continue;
            const auto value = plainValue(item.value_json());
            if (value && value->typeId() != QMetaType::Bool
                && !(value->typeId() == QMetaType::QString && value->toString().isEmpty()))
                m_summary.insert(QStringLiteral("summary/") + key, *value);
        }
        for (const wandb::Item& item : summary.remove())
            m_summary.remove(QStringLiteral("summary/") + QString::fromStdString(itemKey(item)));
        m_hparamsChanged = true;
        break;
    }
    case wandb::Record::kExit:
        m_run.insert(QStringLiteral("wandb.exit_code"), double(record.exit().exit_code()));
        m_run.insert(QStringLiteral("wandb.runtime"), double(record.exit().runtime()));
        m_exitCode = record.exit().exit_code();
        m_runtime = record.exit().runtime();
        m_hparamsChanged = true;
        break;
    default:
        break;
    }
}

models::scalars::ScalarBatch WandbRunReader::takeBatch()
{
    models::scalars::ScalarBatch batch = m_history.takeBatch();
    models::scalars::ScalarBatch stats = m_stats.takeBatch();
    for (models::scalars::TagPoints& tag : stats)
        batch.push_back(std::move(tag));
    return batch;
}

models::Diagnostics WandbRunReader::takeDiagnostics()
{
    models::Diagnostics out = std::move(m_diagnostics);
    m_diagnostics.clear();
    out.append(m_history.takeDiagnostics());
    out.append(m_stats.takeDiagnostics());
    return out;
}

std::optional<models::summary::HParams> WandbRunReader::takeHparams()
{
    if (!m_hparamsChanged)
        return std::nullopt;
    m_hparamsChanged = false;
    models::summary::HParams hparams;
    hparams.values = m_config;
    for (auto it = m_summary.cbegin(); it != m_summary.cend(); ++it)
        hparams.values.insert(it.key(), it.value());
    for (auto it = m_run.cbegin(); it != m_run.cend(); ++it)
        hparams.values.insert(it.key(), it.value());
    // As an hparams session's start and end: Compare Runs shows when the run ran and how it ended.
    hparams.startTime = m_startTime;
    if (m_exitCode) {
        hparams.status = *m_exitCode == 0 ? QStringLiteral("success") : QStringLiteral("failure");
        if (!std::isnan(m_startTime))
            hparams.endTime = m_startTime + m_runtime;
    }
    if (!m_skippedConfig.isEmpty())
        m_diagnostics.append({ models::Severity::Info, m_path, -1, -1,
                               LoggersTr::tr("Hyper-parameters that are lists or nested settings are not shown: %1.")
                                   .arg(m_skippedConfig.join(QStringLiteral(", "))) });
    return hparams;
}

} // namespace runlens::importers::loggers
