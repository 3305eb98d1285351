#include "tensorstatswidget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QProgressBar>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace runlens::tensorview {

struct TensorStatsWidget::Job
{
    std::atomic<bool> cancelled { false };
};

TensorStatsCache::TensorStatsCache(QObject* parent)
    : QObject(parent)
{ }

std::optional<tensor::TensorStatistics> TensorStatsCache::find(const QString& location) const
{
    const auto it = m_entries.constFind(location);
    if (it == m_entries.constEnd())
        return std::nullopt;
    m_uses.splice(m_uses.begin(), m_uses, it->use);
    return it->statistics;
}

void TensorStatsCache::insert(const QString& location, const tensor::TensorStatistics& statistics)
{
    auto it = m_entries.find(location);
    if (it != m_entries.end()) {
        it->statistics = statistics;
        m_uses.splice(m_uses.begin(), m_uses, it->use);
    } else {
        m_uses.push_front(location);
        m_entries.insert(location, Entry { statistics, m_uses.begin() });
        trim();
    }
    emit ready(location);
}

void TensorStatsCache::clear()
{
    m_entries.clear();
    m_uses.clear();
}

void TensorStatsCache::setMaxEntries(int maxEntries)
{
    m_maxEntries = std::max(1, maxEntries);
    trim();
}

void TensorStatsCache::trim()
{
    while (int(m_entries.size()) > m_maxEntries) {
        m_entries.remove(m_uses.back());
        m_uses.pop_back();
    }
}

TensorStatsWidget::TensorStatsWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_table = new QTableWidget(int(rowNames().size()), 2, this);
    layout->addWidget(m_table);
}

TensorStatsWidget::~TensorStatsWidget() = default;

void TensorStatsWidget::setCache(TensorStatsCache* cache)
{
    m_cache = cache;
}

void TensorStatsWidget::setSlice(const tensor::Tensor& slice)
{
    m_slice = slice;
    m_hasSlice = true;
}

void TensorStatsWidget::setWhole(const QString& location, const tensor::Tensor& whole)
{
    m_location = location;
    m_whole = whole;
    m_hasWhole = true;
}

void TensorStatsWidget::clear()
{
    m_hasSlice = m_hasWhole = false;
    m_sliceStats.reset();
    m_wholeStats.reset();
}

void TensorStatsWidget::cancelWhole() { }

void TensorStatsWidget::setHistogramSource(HistogramSource source)
{
    m_histogramSource = source;
}

void TensorStatsWidget::setLogCounts(bool log)
{
    m_logCounts = log;
}

QString TensorStatsWidget::cellText(int row, int column) const
{
    const QTableWidgetItem* item = m_table->item(row, column);
    return item ? item->text() : QString();
}

QStringList TensorStatsWidget::rowNames()
{
    return { tr("count"),   tr("min"), tr("max"),  tr("mean"),      tr("std"),  tr("mean |x|"),
             tr("L2 norm"), tr("NaN"), tr("+Inf"), tr("\u2212Inf"), tr("zeros") };
}

} // namespace runlens::tensorview
