#pragma once

#include "widgets/images/imagedecoding.h"

#include <QCache>
#include <QObject>
#include <QSet>
#include <QString>

namespace runlens::widgets::images {

/// Decoded summary images shared by the cards of the Images panel: decodes on worker threads and keeps
/// the results in a cache bounded by their size in memory, so scrolling back to a step is instant while
/// a log with thousands of large images never holds them all decoded. Keys are chosen by the caller
/// (run, tag, step, wall time and index name one encoded image); a key asked for twice while its decode
/// runs is decoded once. Lives on the GUI thread.
class ImageDecodeCache final : public QObject
{
    Q_OBJECT
public:
    /// The decoded image and its auto-stretched version (null unless asked for).
    struct Entry
    {
        DecodedImage decoded;
        QImage stretched;
    };

    explicit ImageDecodeCache(QObject* parent = nullptr);
    ~ImageDecodeCache() override;

    /// The entry of `key`, or nullptr when it is not decoded yet (or was evicted). With `stretched`, an
    /// entry without its stretched version counts as missing. The pointer is valid until the next insert.
    const Entry* find(const QString& key, bool stretched) const;
    /// Starts decoding `bytes` on a worker unless the key is cached or already being decoded; decoded(key)
    /// follows.
    void request(const QString& key, const QByteArray& bytes, bool stretched);
    bool isPending(const QString& key) const { return m_pending.contains(key); }
    int pendingCount() const { return int(m_pending.size()); }

    /// Largest memory the decoded images may take, in kilobytes.
    void setCapacityKb(int kilobytes);
    int capacityKb() const { return int(m_cache.maxCost()); }
    void clear();

    static constexpr int kDefaultCapacityKb = 256 * 1024;

signals:
    void decoded(const QString& key);

private:
    QCache<QString, Entry> m_cache;
    QSet<QString> m_pending;
};

} // namespace runlens::widgets::images
