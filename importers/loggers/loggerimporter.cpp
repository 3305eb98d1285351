#include "importers/loggers/loggerimporter.h"

#include "importers/loggers/loggerruns.h"
#include "importers/loggers/loggerstr.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace runlens::importers::loggers {

namespace {

constexpr qint64 kChunk = 8 * 1024 * 1024;
constexpr qint64 kFirstLineBytes = 4096;

/// The Trainer saves its state in the output folder at the end and in every `checkpoint-N` folder on the way,
/// each holding the whole history up to then. All of them belong to one run, so only the newest is read: the
/// output folder's, else the highest checkpoint's. Returns the newer file that supersedes `path`, if any.
QString newerTrainerState(const QString& path)
{
    const QFileInfo info(path);
    const QDir folder = info.absoluteDir();
    static const QRegularExpression checkpoint(QStringLiteral("^checkpoint-(\\d+)$"));
    const QRegularExpressionMatch own = checkpoint.match(folder.dirName());
    if (!own.hasMatch())
        return {};
    QDir output = folder;
    if (!output.cdUp())
        return {};
    const QString top = output.filePath(info.fileName());
    if (QFileInfo::exists(top))
        return top;
    const qint64 number = own.captured(1).toLongLong();
    QString best;
    qint64 bestNumber = number;
    const QStringList siblings
        = output.entryList({ QStringLiteral("checkpoint-*") }, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& sibling : siblings) {
        const QRegularExpressionMatch match = checkpoint.match(sibling);
        const QString candidate = output.filePath(sibling + QLatin1Char('/') + info.fileName());
        if (match.hasMatch() && match.captured(1).toLongLong() > bestNumber && QFileInfo::exists(candidate)) {
            bestNumber = match.captured(1).toLongLong();
            best = candidate;
        }
    }
    return best;
}

/// W&B clients that write the binary run file keep the run's history there; the JSON lines files in the run's
/// `files/` folder then repeat part of it. Returns the run file that supersedes `path`, if any.
QString wandbRunFileOf(const QString& path)
{
    const QFileInfo info(path);
    if (info.fileName() != QLatin1String("wandb-history.jsonl")
        && info.fileName() != QLatin1String("wandb-events.jsonl"))
        return {};
    QDir run = info.absoluteDir();
    if (run.dirName() != QLatin1String("files") || !run.cdUp())
        return {};
    const QStringList files = run.entryList({ QStringLiteral("run-*.wandb") }, QDir::Files, QDir::Name);
    return files.isEmpty() ? QString() : run.filePath(files.first());
}

} // namespace

LoggerImporter::LoggerImporter(QString path, models::ArtifactKind kind)
    : m_path(std::move(path))
    , m_kind(kind)
    , m_parser(m_path)
{ }

ImportUpdate LoggerImporter::poll(const ImportControl& control)
{
    if (m_kind == models::ArtifactKind::WandbRun)
        return pollWandbRun(control);
    if (m_kind == models::ArtifactKind::Table) {
        if (const QString runFile = wandbRunFileOf(m_path); !runFile.isEmpty()) {
            ImportUpdate update;
            if (!m_done)
                update.diagnostics.append(
                    { models::Severity::Info, m_path, -1, -1,
                      LoggersTr::tr("%1 holds this run's history; this copy is not read.").arg(runFile) });
            m_done = true;
            return update;
        }
    }
    if (m_kind == models::ArtifactKind::Table || m_kind == models::ArtifactKind::GpuMetricsLog)
        return pollTable(control);
    ImportUpdate update;
    if (m_done)
        return update;
    m_done = true;
    LoggerRun run;
    if (m_kind == models::ArtifactKind::TrainerState) {
        const QString newer = newerTrainerState(m_path);
        if (!newer.isEmpty()) {
            update.diagnostics.append(
                { models::Severity::Info, m_path, -1, -1,
                  LoggersTr::tr("%1 holds this history and more; this copy is not read.").arg(newer) });
            return update;
        }
    }
    if (m_kind == models::ArtifactKind::MlflowRun) {
        run = readMlflowRun(m_path, control);
    } else {
        QFile file(m_path);
        if (file.size() > kMaxBytes || !file.open(QIODevice::ReadOnly)) {
            update.status = models::ImportStatus::Failed;
            update.diagnostics.append({ models::Severity::Error, m_path, -1, -1,
                                        LoggersTr::tr("The file cannot be read: %1.").arg(file.errorString()) });
            return update;
        }
        const QByteArray data = file.readAll();
        update.bytesRead = data.size();
        run = readTrainerState(data, m_path);
    }
    update.scalars = std::move(run.scalars);
    update.diagnostics = std::move(run.diagnostics);
    if (run.hparams) {
        auto batch = std::make_shared<models::summary::SummaryBatch>();
        batch->hparams = std::move(run.hparams);
        update.summaries = std::move(batch);
    }
    for (const models::scalars::TagPoints& tag : update.scalars)
        update.recordsRead += qint64(tag.points.size());
    if (!run.ok)
        update.status = models::ImportStatus::Failed;
    else if (!update.diagnostics.isEmpty())
        update.status = models::ImportStatus::Partial;
    return update;
}

ImportUpdate LoggerImporter::pollWandbRun(const ImportControl& control)
{
    ImportUpdate update;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly)) {
        update.status = models::ImportStatus::Failed;
        update.diagnostics.append({ models::Severity::Error, m_path, -1, -1,
                                    LoggersTr::tr("The file cannot be read: %1.").arg(file.errorString()) });
        return update;
    }
    const qint64 size = file.size();
    // The writer only appends: a shorter file was started again, and is read again from its start.
    if (!m_wandb || size < m_offset) {
        m_wandb = std::make_unique<WandbRunReader>(m_path);
        m_offset = 0;
    }
    const qint64 start = m_wandb->resumeOffset();
    bool cut = false;
    qint64 want = kChunk;
    while (m_wandb->resumeOffset() < size && !m_wandb->failed() && !control.canceled()) {
        const qint64 from = m_wandb->resumeOffset();
        if (!file.seek(from))
            break;
        const QByteArray chunk = file.read(std::min(want, size - from));
        if (chunk.isEmpty())
            break;
        cut = m_wandb->feed(chunk);
        if (m_wandb->resumeOffset() == from) {
            // A record longer than the chunk: read more at once, or wait for the rest of it at the end of the file.
            if (from + chunk.size() >= size || want > WandbRunReader::kMaxRecordBytes)
                break;
            want *= 2;
            continue;
        }
        want = kChunk;
        control.report(int(qint64(1000) * m_wandb->resumeOffset() / std::max<qint64>(size, 1)));
    }
    m_offset = size;
    update.bytesRead = m_wandb->resumeOffset() - start;
    update.mayGrow = cut && !m_wandb->failed();
    update.scalars = m_wandb->takeBatch();
    for (const models::scalars::TagPoints& tag : update.scalars)
        update.recordsRead += qint64(tag.points.size());
    if (auto hparams = m_wandb->takeHparams()) {
        auto batch = std::make_shared<models::summary::SummaryBatch>();
        batch->hparams = std::move(hparams);
        update.summaries = std::move(batch);
    }
    update.diagnostics = m_wandb->takeDiagnostics();
    if (m_wandb->failed()) {
        update.status = models::ImportStatus::Failed;
        return update;
    }
    for (const models::Diagnostic& d : update.diagnostics) {
        if (d.severity != models::Severity::Info)
            update.status = models::ImportStatus::Partial;
    }
    return update;
}

ImportUpdate LoggerImporter::pollTable(const ImportControl& control)
{
    ImportUpdate update;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly)) {
        update.status = models::ImportStatus::Failed;
        update.diagnostics.append({ models::Severity::Error, m_path, -1, -1,
                                    LoggersTr::tr("The file cannot be read: %1.").arg(file.errorString()) });
        return update;
    }
    const qint64 size = file.size();
    // Lightning's CSVLogger rewrites the whole file under a wider header when a new metric appears; other
    // writers may truncate and start again. Read from the start then: the steps it repeats replace what was
    // delivered (the Scalars model drops points at or after a step that comes again).
    const QByteArray firstLine = file.read(kFirstLineBytes).split('\n').value(0);
    if (size < m_offset || (m_offset > 0 && firstLine != m_firstLine)) {
        m_offset = 0;
        m_line = 0;
        m_parser = MetricsTableParser(m_path);
    }
    if (m_offset == 0)
        m_firstLine = firstLine;
    if (size > kMaxBytes) {
        update.status = models::ImportStatus::Failed;
        update.diagnostics.append(
            { models::Severity::Error, m_path, -1, -1, LoggersTr::tr("The file is too large to read as a table.") });
        return update;
    }
    if (!file.seek(m_offset)) {
        update.status = models::ImportStatus::Failed;
        return update;
    }
    const qint64 start = m_offset;
    bool partial = false;
    while (m_offset < size && !control.canceled()) {
        const QByteArray chunk = file.read(std::min(kChunk, size - m_offset));
        if (chunk.isEmpty())
            break;
        const qsizetype lastBreak = chunk.lastIndexOf('\n');
        if (lastBreak < 0) {
            // A line longer than a chunk: read on until its end, or wait for it.
            if (chunk.size() < kChunk) {
                partial = true;
                break;
            }
            m_parser.feedLine(std::string_view(chunk.constData(), std::size_t(chunk.size())), ++m_line);
            m_offset += chunk.size();
            continue;
        }
        qsizetype pos = 0;
        while (pos <= lastBreak) {
            const qsizetype end = chunk.indexOf('\n', pos);
            m_parser.feedLine(std::string_view(chunk.constData() + pos, std::size_t(end - pos)), ++m_line);
            pos = end + 1;
        }
        m_offset += pos;
        file.seek(m_offset);
        if (pos < chunk.size() && m_offset + (chunk.size() - pos) >= size)
            partial = true;
        control.report(int(qint64(1000) * m_offset / std::max<qint64>(size, 1)));
    }
    update.bytesRead = m_offset - start;
    update.mayGrow = partial;
    update.recordsRead = 0;
    update.scalars = m_parser.takeBatch();
    for (const models::scalars::TagPoints& tag : update.scalars)
        update.recordsRead += qint64(tag.points.size());
    update.diagnostics = m_parser.takeDiagnostics();
    if (start == 0 && m_kind == models::ArtifactKind::Table) {
        if (auto hparams = tableSideHparams(m_path, update.diagnostics)) {
            auto batch = std::make_shared<models::summary::SummaryBatch>();
            batch->hparams = std::move(hparams);
            update.summaries = std::move(batch);
        }
    }
    for (const models::Diagnostic& d : update.diagnostics) {
        if (d.severity != models::Severity::Info)
            update.status = models::ImportStatus::Partial;
    }
    if (m_parser.notOverTime()) {
        update.status = models::ImportStatus::Unsupported;
        update.summaries.reset();
    }
    if (m_parser.format() == TableFormat::Unknown && size > 0 && !partial) {
        update.status = models::ImportStatus::Failed;
        update.diagnostics.append(
            { models::Severity::Error, m_path, -1, -1, LoggersTr::tr("The file holds no table.") });
    }
    return update;
}

} // namespace runlens::importers::loggers
