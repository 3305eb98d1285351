#include "models/tensor/summarytensors.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHash>

#include <algorithm>
#include <limits>

namespace runlens::models::tensor {

namespace {

/// Whether every element the shape and strides reach lies inside `size` bytes; false on overflow too
/// (the shape comes from a file).
bool coversShape(const Tensor& t, std::int64_t size)
{
    std::int64_t low = t.offset;
    std::int64_t high = t.offset;
    for (int k = 0; k < t.rank(); ++k) {
        if (t.shape[k] < 0)
            return false;
        if (t.shape[k] == 0)
            return true; // no element to read
        std::int64_t reach = 0;
        if (__builtin_mul_overflow(t.shape[k] - 1, t.strides[k], &reach))
            return false;
        if (__builtin_add_overflow(reach < 0 ? low : high, reach, reach < 0 ? &low : &high))
            return false;
    }
    std::int64_t end = 0;
    if (__builtin_add_overflow(high, std::int64_t(itemSize(t.dtype)), &end))
        return false;
    return low >= 0 && end <= size;
}

int clampedStep(qint64 step)
{
    return int(std::clamp<qint64>(step, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

} // namespace

SummaryTensorSource::SummaryTensorSource(Tensor tensor, QString file, QString tag, qint64 step)
    : m_tensor(std::move(tensor))
    , m_file(std::move(file))
    , m_tag(std::move(tag))
    , m_step(step)
{
    // Readers may leave strides out for the C-ordered values a summary holds.
    if (m_tensor.strides.empty() && !m_tensor.shape.empty())
        m_tensor.strides = Tensor::contiguousStrides(m_tensor.shape, itemSize(m_tensor.dtype));
    if (m_tensor.name.isEmpty())
        m_tensor.name = m_tag;
}

TensorResult SummaryTensorSource::open() const
{
    auto fail = [this](const char* why) {
        return TensorResult { std::nullopt,
                              QCoreApplication::translate("runlens::models::tensor::SummaryTensorSource",
                                                          "%1, tag %2, step %3: %4")
                                  .arg(m_file, m_tag)
                                  .arg(m_step)
                                  .arg(QCoreApplication::translate("runlens::SummaryTensorSet", why)) };
    };
    if (!m_tensor.data)
        return fail(QT_TRANSLATE_NOOP("runlens::SummaryTensorSet", "the summary holds no values for this tensor."));
    if (m_tensor.strides.size() != m_tensor.shape.size() || !coversShape(m_tensor, m_tensor.data->size()))
        return fail(QT_TRANSLATE_NOOP("runlens::SummaryTensorSet",
                                      "the recorded values are fewer than the recorded shape needs."));
    return TensorResult { m_tensor, {} };
}

bool SummaryTensorSet::update(const QString& run, const QString& source, const summary::SummaryBatch& batch)
{
    return update(run, source, batch.tensors);
}

bool SummaryTensorSet::update(const QString& run, const QString& source,
                              const std::vector<summary::TensorSeries>& series)
{
    if (series.empty())
        return false;
    auto& tags = m_runs[run];
    for (const summary::TensorSeries& s : series)
        tags[s.tag][source] = s;
    return true;
}

bool SummaryTensorSet::removeRun(const QString& run)
{
    return m_runs.remove(run) > 0;
}

void SummaryTensorSet::clear()
{
    m_runs.clear();
}

QString SummaryTensorSet::tagOf(const TensorInfo& info)
{
    const qsizetype at = info.member.lastIndexOf(QLatin1Char('@'));
    return at < 0 ? info.member : info.member.left(at);
}

QList<TensorSeries> SummaryTensorSet::series() const
{
    QList<TensorSeries> out;
    for (auto run = m_runs.cbegin(); run != m_runs.cend(); ++run) {
        for (auto tag = run->cbegin(); tag != run->cend(); ++tag) {
            TensorSeries series;
            series.name = tag.key();
            series.kind = format();
            series.run = run.key();
            QHash<QString, int> members; // a step written twice into one file keeps both, apart
            for (auto file = tag->cbegin(); file != tag->cend(); ++file) {
                for (const summary::SummaryTensor& item : file->items) {
                    TensorInfo info;
                    info.path = file.key();
                    info.member = QStringLiteral("%1@%2").arg(tag.key()).arg(item.step);
                    const int seen = members[info.location()]++;
                    if (seen > 0)
                        info.member += QStringLiteral("#%1").arg(seen + 1);
                    info.format = format();
                    info.step = clampedStep(item.step);
                    info.dtype = item.tensor.dtype;
                    info.shape = item.tensor.shape;
                    info.byteSize = byteCount(item.tensor.elementCount(), itemSize(item.tensor.dtype));
                    if (item.wallTime > 0)
                        info.note
                            = QCoreApplication::translate("runlens::models::tensor::SummaryTensorSet", "written %1")
                                  .arg(QDateTime::fromMSecsSinceEpoch(qint64(item.wallTime * 1000.0), Qt::UTC)
                                           .toString(Qt::ISODate));
                    info.source = std::make_shared<SummaryTensorSource>(item.tensor, file.key(), tag.key(), item.step);
                    series.versions << info;
                }
            }
            if (!series.versions.isEmpty())
                out << series;
        }
    }
    return out;
}

} // namespace runlens::models::tensor
