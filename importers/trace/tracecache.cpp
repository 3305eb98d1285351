#include "importers/trace/tracecache.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QStandardPaths>

#include <algorithm>
#include <atomic>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>

namespace runlens::importers::trace {

namespace {

std::atomic_bool g_enabled { false };
std::atomic<std::int64_t> g_limit { TraceCache::kDefaultSizeLimit };
std::atomic_int g_indexReads { 0 };

QMutex& directoryMutex()
{
    static QMutex mutex;
    return mutex;
}

QString& directoryOverride()
{
    static QString directory;
    return directory;
}

struct Entry
{
    QString path;
    std::int64_t size = 0;
    std::int64_t used = 0;
};

std::vector<Entry> entries(const QString& root)
{
    std::vector<Entry> result;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        result.push_back({ info.absoluteFilePath(), info.size(), info.lastModified().toMSecsSinceEpoch() });
    }
    return result;
}

} // namespace

void TraceCache::setEnabled(bool enabled)
{
    g_enabled = enabled;
}

bool TraceCache::enabled()
{
    return g_enabled;
}

void TraceCache::setDirectory(const QString& directory)
{
    const QMutexLocker lock(&directoryMutex());
    directoryOverride() = directory;
}

QString TraceCache::directory()
{
    {
        const QMutexLocker lock(&directoryMutex());
        if (!directoryOverride().isEmpty())
            return directoryOverride();
    }
    return QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).filePath(QStringLiteral("traces"));
}

void TraceCache::setSizeLimit(std::int64_t bytes)
{
    g_limit = std::max<std::int64_t>(bytes, 0);
}

std::int64_t TraceCache::sizeLimit()
{
    return g_limit;
}

std::int64_t TraceCache::size()
{
    std::int64_t total = 0;
    for (const Entry& e : entries(directory()))
        total += e.size;
    return total;
}

bool TraceCache::clear()
{
    bool ok = true;
    for (const Entry& e : entries(directory()))
        ok = QFile::remove(e.path) && ok;
    return ok;
}

void TraceCache::evict(const QString& keep)
{
    std::vector<Entry> all = entries(directory());
    std::int64_t total = 0;
    for (const Entry& e : all)
        total += e.size;
    const std::int64_t limit = sizeLimit();
    if (total <= limit)
        return;
    std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    const QString kept = keep.isEmpty() ? QString() : QFileInfo(keep).absoluteFilePath();
    for (const Entry& e : all) {
        if (total <= limit)
            break;
        if (e.path == kept)
            continue;
        if (QFile::remove(e.path))
            total -= e.size;
    }
}

bool TraceCache::keyOf(const QString& path, models::trace::TraceSourceKey& key)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    struct stat info
    {
    };
    if (::stat(QFile::encodeName(absolute).constData(), &info) != 0 || !S_ISREG(info.st_mode))
        return false;
    key.path = absolute;
    key.size = info.st_size;
    key.mtimeNs = std::int64_t(info.st_mtim.tv_sec) * 1000'000'000 + info.st_mtim.tv_nsec;
    return true;
}

bool TraceCache::keyOf(const QStringList& paths, models::trace::TraceCacheKey& key)
{
    key.clear();
    for (const QString& path : paths) {
        models::trace::TraceSourceKey k;
        if (!keyOf(path, k))
            return false;
        key.push_back(k);
    }
    return !key.empty();
}

QString TraceCache::entryPath(const QString& kind, const models::trace::TraceCacheKey& key)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const models::trace::TraceSourceKey& k : key) {
        hash.addData(k.path.toUtf8());
        hash.addData(QByteArray(1, '\0'));
        hash.addData(QByteArray::number(qint64(k.size)) + '/' + QByteArray::number(qint64(k.mtimeNs)) + '\n');
    }
    const QString name = QString::fromLatin1(hash.result().toHex().left(40));
    return QDir(directory()).filePath(kind + QLatin1Char('/') + name);
}

int TraceCache::indexReads()
{
    return g_indexReads;
}

void TraceCache::countIndexRead()
{
    ++g_indexReads;
}

QString TraceCache::indexPath(const models::trace::TraceCacheKey& key)
{
    // The translation of one of the reader's sentences stands for the language: it changes exactly when the
    // diagnostics would.
    const QString probe
        = QCoreApplication::translate("runlens::ChromeTraceReader", "The file could not be read completely");
    const QByteArray language = QCryptographicHash::hash(probe.toUtf8(), QCryptographicHash::Sha256).toHex().left(8);
    return entryPath(QStringLiteral("index"), key) + QLatin1Char('.') + QString::fromLatin1(language);
}

void TraceCache::touch(const QString& entry)
{
    // utimensat with null times: now, without opening the file for writing.
    ::utimensat(AT_FDCWD, QFile::encodeName(entry).constData(), nullptr, 0);
}

} // namespace runlens::importers::trace
