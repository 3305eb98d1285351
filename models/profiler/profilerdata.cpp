#include "models/profiler/profilerdata.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <cmath>

namespace runlens::models::profiler {

QString deviceTypeId(DeviceType type)
{
    switch (type) {
    case DeviceType::Ascend:
        return QStringLiteral("ascend");
    case DeviceType::Gpu:
        return QStringLiteral("gpu");
    case DeviceType::Cpu:
        return QStringLiteral("cpu");
    case DeviceType::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString deviceTypeName(DeviceType type)
{
    switch (type) {
    case DeviceType::Ascend:
        return QStringLiteral("Ascend");
    case DeviceType::Gpu:
        return QStringLiteral("GPU");
    case DeviceType::Cpu:
        return QStringLiteral("CPU");
    case DeviceType::Unknown:
        break;
    }
    return QCoreApplication::translate("runlens::profiler", "Unknown");
}

void OperatorTable::finish()
{
    if (types.empty() && !ops.empty()) {
        // Type level from the op level: same type and core aggregate.
        QHash<QString, std::size_t> index;
        for (const OpStats& op : ops) {
            const QString key = op.type + QLatin1Char('\x1f') + op.core;
            auto it = index.find(key);
            if (it == index.end()) {
                it = index.insert(key, types.size());
                OpTypeStats type;
                type.type = op.type;
                type.core = op.core;
                types.push_back(type);
            }
            OpTypeStats& type = types[it.value()];
            type.calls += op.calls;
            type.totalUs += op.totalUs;
        }
    }
    totalUs = 0.0;
    for (const OpTypeStats& type : types)
        totalUs += type.totalUs;
    if (types.empty()) {
        for (const OpStats& op : ops)
            totalUs += op.totalUs;
    }
    auto byTotal = [](const auto& a, const auto& b) {
        if (a.totalUs != b.totalUs)
            return a.totalUs > b.totalUs;
        return a.calls > b.calls;
    };
    std::stable_sort(types.begin(), types.end(), byTotal);
    std::stable_sort(ops.begin(), ops.end(), byTotal);
    for (OpTypeStats& type : types)
        type.share = totalUs > 0 ? type.totalUs / totalUs : 0.0;
    // Op shares against the op sum when the op table covers other cores than the type table.
    double opSum = 0.0;
    for (const OpStats& op : ops)
        opSum += op.totalUs;
    const double opBase = std::max(opSum, totalUs);
    for (OpStats& op : ops)
        op.share = opBase > 0 ? op.totalUs / opBase : 0.0;
    hasFlops = std::any_of(ops.begin(), ops.end(), [](const OpStats& op) { return op.mflops.has_value(); });
}

void StepSeries::computeAverage()
{
    average = Step {};
    average.number = -1;
    const std::size_t categories = std::size_t(categoryIds.size());
    const std::size_t extras = std::size_t(extraIds.size());
    average.valuesUs.assign(categories, 0.0);
    average.extrasUs.assign(extras, 0.0);
    if (steps.empty())
        return;
    const std::size_t first = steps.size() > 1 ? 1 : 0;
    const double n = double(steps.size() - first);
    std::vector<double> extraCounts(extras, 0.0);
    for (std::size_t i = first; i < steps.size(); ++i) {
        const Step& step = steps[i];
        average.totalUs += step.totalUs / n;
        for (std::size_t c = 0; c < categories && c < step.valuesUs.size(); ++c)
            average.valuesUs[c] += step.valuesUs[c] / n;
        for (std::size_t e = 0; e < extras && e < step.extrasUs.size(); ++e) {
            if (!std::isnan(step.extrasUs[e])) {
                average.extrasUs[e] += step.extrasUs[e];
                extraCounts[e] += 1.0;
            }
        }
    }
    for (std::size_t e = 0; e < extras; ++e)
        average.extrasUs[e] = extraCounts[e] > 0 ? average.extrasUs[e] / extraCounts[e] : std::nan("");
}

const ProfilerRankData* ProfilerRunData::rank(int rank) const
{
    for (const ProfilerRankData& data : ranks) {
        if (data.rank == rank)
            return &data;
    }
    return nullptr;
}

} // namespace runlens::models::profiler
