#include "widgets/images/imagedecodecache.h"

#include "models/core/workerpool.h"

#include <QThread>
#include <QtConcurrent>

namespace runlens::widgets::images {

namespace {

qsizetype costKb(const ImageDecodeCache::Entry& entry)
{
    const qsizetype bytes = entry.decoded.image.sizeInBytes() + entry.stretched.sizeInBytes();
    return std::max<qsizetype>(1, bytes / 1024);
}

} // namespace

ImageDecodeCache::ImageDecodeCache(QObject* parent)
    : QObject(parent)
    , m_cache(kDefaultCapacityKb)
{ }

ImageDecodeCache::~ImageDecodeCache() = default;

const ImageDecodeCache::Entry* ImageDecodeCache::find(const QString& key, bool stretched) const
{
    const Entry* entry = m_cache.object(key);
    if (!entry)
        return nullptr;
    if (stretched && entry->decoded.isValid() && entry->stretched.isNull())
        return nullptr;
    return entry;
}

void ImageDecodeCache::request(const QString& key, const QByteArray& bytes, bool stretched)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_pending.contains(key) || find(key, stretched))
        return;
    m_pending.insert(key);
    // A stretched request reuses the decoded picture when it is still cached.
    const Entry* cached = m_cache.object(key);
    const DecodedImage known = cached ? cached->decoded : DecodedImage {};
    QtConcurrent::run(models::workerPool(), [bytes, stretched, known] {
        Entry entry;
        entry.decoded = known.isValid() ? known : decodeImage(bytes);
        if (stretched && entry.decoded.isValid())
            entry.stretched = autoStretched(entry.decoded.image);
        return entry;
    }).then(this, [this, key](const Entry& entry) {
        m_pending.remove(key);
        auto* stored = new Entry(entry);
        // An image larger than the whole cache still gets in (alone) so that its card can show it.
        m_cache.insert(key, stored, std::min(costKb(*stored), m_cache.maxCost()));
        emit decoded(key);
    });
}

void ImageDecodeCache::setCapacityKb(int kilobytes)
{
    m_cache.setMaxCost(std::max(1, kilobytes));
}

void ImageDecodeCache::clear()
{
    m_cache.clear();
}

} // namespace runlens::widgets::images
