#include "models/pipeline/datapipeline.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <unordered_map>

namespace runlens::models::pipeline {

namespace {

double mean(const std::vector<double>& values)
{
    if (values.empty())
        return kUnknown;
    return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

const CpuCurve* findCurve(const std::vector<CpuCurve>& curves, const QString& key)
{
    for (const auto& curve : curves) {
        if (curve.key == key)
            return &curve;
    }
    return nullptr;
}

} // namespace

QString PipelineOp::displayType() const
{
    if (type.size() > 2 && type.endsWith(QLatin1String("Op")))
        return type.left(type.size() - 2);
    return type;
}

int HostQueue::emptyCount() const
{
    return int(std::count_if(samples.begin(), samples.end(), [](const HostQueueSample& s) { return s.empty(); }));
}

int HostQueue::fullCount() const
{
    return int(std::count_if(samples.begin(), samples.end(), [](const HostQueueSample& s) { return s.full(); }));
}

double HostQueue::emptyRatio() const
{
    return samples.empty() ? kUnknown : double(emptyCount()) / double(samples.size());
}

double HostQueue::fullRatio() const
{
    return samples.empty() ? kUnknown : double(fullCount()) / double(samples.size());
}

int DeviceQueue::sizedCount() const
{
    return int(std::count_if(samples.begin(), samples.end(), [](const DeviceQueueSample& s) { return s.size >= 0; }));
}

int DeviceQueue::emptyCount() const
{
    return int(std::count_if(samples.begin(), samples.end(), [](const DeviceQueueSample& s) { return s.size == 0; }));
}

double DeviceQueue::emptyRatio() const
{
    const int sized = sizedCount();
    return sized ? double(emptyCount()) / double(sized) : kUnknown;
}

double DeviceQueue::averageWaitMs() const
{
    if (samples.empty())
        return kUnknown;
    double total = 0;
    for (const auto& s : samples)
        total += s.waitMs();
    return total / double(samples.size());
}

double CpuCurve::average() const
{
    return mean(values);
}

double OpCpuUsage::averagePercent() const
{
    const CpuCurve* user = findCurve(curves, QStringLiteral("user_utilization"));
    const CpuCurve* sys = findCurve(curves, QStringLiteral("sys_utilization"));
    const std::size_t n = std::max(user ? user->values.size() : 0, sys ? sys->values.size() : 0);
    if (n == 0)
        return kUnknown;
    double total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (user && i < user->values.size())
            total += user->values[i];
        if (sys && i < sys->values.size())
            total += sys->values[i];
    }
    return total / double(n);
}

const CpuCurve* CpuUtilization::deviceCurve(const QString& key) const
{
    return findCurve(device, key);
}

const CpuCurve* CpuUtilization::processCurve(const QString& key) const
{
    return findCurve(process, key);
}

const OpCpuUsage* CpuUtilization::op(int opId) const
{
    for (const auto& o : ops) {
        if (o.opId == opId)
            return &o;
    }
    return nullptr;
}

double CpuUtilization::deviceBusyPercent() const
{
    const CpuCurve* idle = deviceCurve(QStringLiteral("idle_utilization"));
    if (!idle || idle->values.empty())
        return 0.0;
    return 100.0 - idle->average();
}

const PipelineOp* DataPipeline::op(int id) const
{
    const auto it = std::lower_bound(ops.begin(), ops.end(), id, [](const PipelineOp& o, int v) { return o.id < v; });
    return it != ops.end() && it->id == id ? &*it : nullptr;
}

const PipelineOp* DataPipeline::root() const
{
    for (const auto& o : ops) {
        if (o.parent < 0 || !op(o.parent))
            return &o;
    }
    return ops.empty() ? nullptr : &ops.front();
}

bool DataPipeline::isBottleneck(int opId) const
{
    return std::any_of(bottlenecks.begin(), bottlenecks.end(), [opId](const Bottleneck& b) { return b.opId == opId; });
}

std::vector<int> DataPipeline::depths() const
{
    // Longest path from a source, memoised; a cycle in a corrupt file is cut where it closes.
    std::unordered_map<int, std::size_t> index;
    for (std::size_t i = 0; i < ops.size(); ++i)
        index.emplace(ops[i].id, i);
    std::vector<int> depth(ops.size(), -1);
    std::vector<char> visiting(ops.size(), 0);
    std::function<int(std::size_t)> visit = [&](std::size_t i) -> int {
        if (depth[i] >= 0)
            return depth[i];
        if (visiting[i])
            return 0;
        visiting[i] = 1;
        int d = 0;
        for (int child : ops[i].children) {
            const auto it = index.find(child);
            if (it != index.end())
                d = std::max(d, visit(it->second) + 1);
        }
        visiting[i] = 0;
        depth[i] = d;
        return d;
    };
    for (std::size_t i = 0; i < ops.size(); ++i)
        visit(i);
    return depth;
}

std::vector<int> DataPipeline::pipelineOrder() const
{
    const std::vector<int> depth = depths();
    std::vector<std::size_t> order(ops.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    // Deeper in the pipeline (closer to the root) later; among equals, larger ids first, since MindSpore
    // numbers ops from the root down.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (depth[a] != depth[b])
            return depth[a] < depth[b];
        return ops[a].id > ops[b].id;
    });
    std::vector<int> ids;
    ids.reserve(order.size());
    for (std::size_t i : order)
        ids.push_back(ops[i].id);
    return ids;
}

} // namespace runlens::models::pipeline
