#pragma once

// Tensors, sources and catalogs in memory for the Tensors panel's tests, and ways to read what it shows.

#include "widgets/tensor/tensorpanel.h"
#include "widgets/tensor/tensortablemodel.h"

#include "models/summary/summarydata.h"
#include "models/tensor/tensorcatalog.h"

#include <QString>
#include <QStringList>
#include <QtTest>

#include <cstring>
#include <memory>
#include <vector>

namespace runlens::test::tensorpanel {

using runlens::widgets::tensor::TensorPanel;
namespace models = runlens::models;

/// A float32 tensor of `shape` in memory whose element (i, j, k, l) is base + 1000 i + 100 j + 10 k + l.
inline models::tensor::Tensor patterned(const std::vector<std::int64_t>& shape, float base)
{
    std::int64_t count = 1;
    for (const std::int64_t n : shape)
        count *= n;
    std::vector<std::byte> bytes(std::size_t(count) * 4);
    for (std::int64_t n = 0; n < count; ++n) {
        std::int64_t rest = n;
        std::vector<std::int64_t> index(shape.size());
        for (int d = int(shape.size()) - 1; d >= 0; --d) {
            index[d] = rest % shape[d];
            rest /= shape[d];
        }
        float value = 0;
        for (const std::int64_t i : index)
            value = value * 10 + float(i);
        value += base;
        std::memcpy(bytes.data() + n * 4, &value, 4);
    }
    models::tensor::Tensor t;
    t.shape = shape;
    t.strides = models::tensor::Tensor::contiguousStrides(shape, 4);
    t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    return t;
}

/// A source over a tensor in memory, or one that fails with a message; optionally not immediate.
class TestSource final : public models::tensor::TensorSource
{
public:
    TestSource(std::optional<models::tensor::Tensor> tensor, QString error, bool immediate = true)
        : m_tensor(std::move(tensor))
        , m_error(std::move(error))
        , m_immediate(immediate)
    { }
    models::tensor::TensorResult open() const override
    {
        ++opens;
        return { m_tensor, m_error };
    }
    bool isImmediate() const override { return m_immediate; }
    mutable std::atomic<int> opens { 0 };

private:
    std::optional<models::tensor::Tensor> m_tensor;
    QString m_error;
    bool m_immediate;
};

models::tensor::TensorInfo version(const QString& path, int step, const std::vector<std::int64_t>& shape, float base,
                                   bool immediate = true)
{
    models::tensor::TensorInfo info;
    info.path = path;
    info.format = QStringLiteral("npy");
    info.step = step;
    info.shape = shape;
    info.byteSize = 4;
    for (const std::int64_t n : shape)
        info.byteSize *= n;
    info.source = std::make_shared<TestSource>(patterned(shape, base), QString(), immediate);
    return info;
}

/// conv1.weight [2, 3, 4, 5] at steps 0, 30, 59 (element base: 10000 * step); conv1.bias [5] at 30 (not
/// immediate); fc1.weight [2, 3, 4, 5] at 59 (base 500000); zz.broken failing to open.
inline std::shared_ptr<const models::tensor::TensorCatalog> catalog()
{
    const std::vector<std::int64_t> shape { 2, 3, 4, 5 };
    QList<models::tensor::TensorSeries> all;
    models::tensor::TensorSeries weight;
    weight.name = QStringLiteral("conv1.weight");
    weight.kind = QStringLiteral("weight");
    weight.nodeKey = QStringLiteral("conv1");
    for (const int step : { 0, 30, 59 })
        weight.versions << version(QStringLiteral("/run/step_%1/conv1.weight.npy").arg(step), step, shape,
                                   10000.0f * step);
    all << weight;
    models::tensor::TensorSeries bias;
    bias.name = QStringLiteral("conv1.bias");
    bias.kind = QStringLiteral("bias");
    bias.nodeKey = QStringLiteral("conv1");
    bias.versions << version(QStringLiteral("/run/step_30/conv1.bias.npy"), 30, { 5 }, 7.0f, false);
    all << bias;
    models::tensor::TensorSeries fc;
    fc.name = QStringLiteral("fc1.weight");
    fc.kind = QStringLiteral("weight");
    fc.nodeKey = QStringLiteral("fc1");
    fc.versions << version(QStringLiteral("/run/step_59/fc1.weight.npy"), 59, shape, 500000.0f);
    all << fc;
    models::tensor::TensorSeries broken;
    broken.name = QStringLiteral("zz.broken");
    models::tensor::TensorInfo info;
    info.path = QStringLiteral("/run/step_59/zz.broken.npy");
    info.step = 59;
    info.shape = { 3 };
    info.source = std::make_shared<TestSource>(std::nullopt,
                                               QStringLiteral("the data "
                                                              "is shorter than the shape claims"));
    broken.versions << info;
    all << broken;
    return std::make_shared<const models::tensor::TensorCatalog>(all);
}

inline double cell(const TensorPanel& panel, int row, int column = 0)
{
    auto* model = panel.tableModel();
    return model->data(model->index(row, column), runlens::widgets::tensor::TensorTableModel::ValueRole).toDouble();
}

inline const QString kSummaryFile = QStringLiteral("/logs/run1/events.out.tfevents.1700000000.host");

/// What the summary tensors of the tests hold at element (i, j) of step s: 0.01 s² + 10 i + j.
inline double summaryValue(qint64 step, int i, int j)
{
    return 0.01 * double(step * step) + 10.0 * i + j;
}

/// One poll of a summary file: tag "layer1/w", float32 [3, 4] at each of `steps`; `shortAt` gets a shape
/// its values do not cover.
inline models::summary::SummaryBatch summaryBatch(std::initializer_list<qint64> steps, qint64 shortAt = -1)
{
    models::summary::TensorSeries series;
    series.tag = QStringLiteral("layer1/w");
    for (const qint64 step : steps) {
        std::vector<std::byte> bytes(12 * sizeof(float));
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 4; ++j) {
                const float v = float(summaryValue(step, i, j));
                std::memcpy(bytes.data() + (i * 4 + j) * sizeof(float), &v, sizeof(float));
            }
        }
        models::summary::SummaryTensor item;
        item.step = step;
        item.tensor.shape = step == shortAt ? std::vector<std::int64_t> { 3, 40 } : std::vector<std::int64_t> { 3, 4 };
        item.tensor.strides = models::tensor::Tensor::contiguousStrides(item.tensor.shape, 4);
        item.tensor.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
        series.items.push_back(item);
    }
    models::summary::SummaryBatch batch;
    batch.tensors.push_back(series);
    return batch;
}

inline QString summaryLocation(qint64 step)
{
    return kSummaryFile + QStringLiteral(":layer1/w@%1").arg(step);
}

/// Every cell of the shown [3, 4] slice against summaryValue() at `step`.
inline bool tableHoldsStep(const TensorPanel& panel, qint64 step)
{
    if (panel.tableModel()->rowCount() != 3 || panel.tableModel()->columnCount() != 4)
        return false;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            if (cell(panel, i, j) != summaryValue(step, i, j))
                return false;
    return true;
}

} // namespace runlens::test::tensorpanel
