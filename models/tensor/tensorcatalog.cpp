#include "models/tensor/tensorcatalog.h"

#include <QStringList>

#include <algorithm>
#include <set>

namespace runlens::models::tensor {

std::int64_t TensorInfo::elementCount() const
{
    return tensor::elementCount(shape);
}

QString TensorInfo::location() const
{
    return member.isEmpty() ? path : path + QLatin1Char(':') + member;
}

QString TensorInfo::typeText() const
{
    return QLatin1String(dtypeName(dtype)) + shapeText(shape);
}

const TensorInfo* TensorSeries::atStep(int step) const
{
    for (const TensorInfo& info : versions)
        if (info.step == step)
            return &info;
    return nullptr;
}

QList<int> TensorSeries::steps() const
{
    QList<int> out;
    out.reserve(versions.size());
    for (const TensorInfo& info : versions)
        out << info.step;
    return out;
}

TensorCatalog::TensorCatalog(QList<TensorSeries> series, Diagnostics diagnostics)
    : m_series(std::move(series))
    , m_diagnostics(std::move(diagnostics))
{
    for (TensorSeries& s : m_series)
        std::stable_sort(s.versions.begin(), s.versions.end(),
                         [](const TensorInfo& a, const TensorInfo& b) { return a.step < b.step; });
    std::stable_sort(m_series.begin(), m_series.end(), [](const TensorSeries& a, const TensorSeries& b) {
        if (a.run != b.run)
            return a.run < b.run;
        if (a.rank != b.rank)
            return a.rank < b.rank;
        return a.name < b.name;
    });
    for (int i = 0; i < m_series.size(); ++i) {
        for (int v = 0; v < m_series[i].versions.size(); ++v)
            m_byLocation.insert(m_series[i].versions[v].location(), i);
        if (!m_series[i].nodeKey.isEmpty())
            m_byNodeKey.insert(graph::DumpIndex::normalizedKey(m_series[i].nodeKey), i);
    }
}

TensorCatalog TensorCatalog::withSeries(QList<TensorSeries> more) const
{
    QList<TensorSeries> all = m_series;
    all.append(std::move(more));
    return TensorCatalog(std::move(all), m_diagnostics);
}

int TensorCatalog::tensorCount() const
{
    int count = 0;
    for (const TensorSeries& s : m_series)
        count += int(s.versions.size());
    return count;
}

int TensorCatalog::indexOf(const QString& name, const QString& run) const
{
    for (int i = 0; i < m_series.size(); ++i)
        if (m_series[i].name == name && (run.isEmpty() || m_series[i].run == run))
            return i;
    return -1;
}

std::pair<int, int> TensorCatalog::findLocation(const QString& location) const
{
    const int series = m_byLocation.value(location, -1);
    if (series < 0)
        return { -1, -1 };
    const QList<TensorInfo>& versions = m_series[series].versions;
    for (int v = 0; v < versions.size(); ++v)
        if (versions[v].location() == location)
            return { series, v };
    return { -1, -1 };
}

QList<int> TensorCatalog::findNodeKey(const QString& key) const
{
    if (key.isEmpty())
        return {};
    QList<int> out = m_byNodeKey.values(graph::DumpIndex::normalizedKey(key));
    std::sort(out.begin(), out.end());
    return out;
}

QList<int> TensorCatalog::steps() const
{
    std::set<int> all;
    for (const TensorSeries& s : m_series)
        for (const TensorInfo& info : s.versions)
            if (info.step >= 0)
                all.insert(info.step);
    return QList<int>(all.begin(), all.end());
}

} // namespace runlens::models::tensor
