#include "models/summary/lineage.h"

#include <QStringList>

namespace runlens::models::summary {

namespace {

template<typename T> void insert(QVariantMap& out, const QString& key, const std::optional<T>& value)
{
    if (value)
        out.insert(key, QVariant::fromValue(*value));
}

} // namespace

QVariantMap RunLineage::toVariantMap() const
{
    QVariantMap out;
    if (train) {
        const Train& t = *train;
        insert(out, QStringLiteral("optimizer"), t.optimizer);
        insert(out, QStringLiteral("learning_rate"), t.learningRate);
        insert(out, QStringLiteral("loss_function"), t.lossFunction);
        insert(out, QStringLiteral("epoch"), t.epoch);
        insert(out, QStringLiteral("parallel_mode"), t.parallelMode);
        insert(out, QStringLiteral("device_num"), t.deviceNum);
        insert(out, QStringLiteral("batch_size"), t.batchSize);
        insert(out, QStringLiteral("train_dataset_path"), t.trainDatasetPath);
        insert(out, QStringLiteral("train_dataset_size"), t.trainDatasetSize);
        insert(out, QStringLiteral("network"), t.network);
        insert(out, QStringLiteral("loss"), t.loss);
        insert(out, QStringLiteral("model_path"), t.modelPath);
        insert(out, QStringLiteral("model_size"), t.modelSize);
    }
    if (evaluation) {
        for (auto it = evaluation->metrics.cbegin(); it != evaluation->metrics.cend(); ++it)
            out.insert(QStringLiteral("metric/") + it.key(), it.value());
        insert(out, QStringLiteral("valid_dataset_path"), evaluation->validDatasetPath);
        insert(out, QStringLiteral("valid_dataset_size"), evaluation->validDatasetSize);
    }
    if (datasetGraph) {
        QStringList types;
        for (const DatasetOp& op : *datasetGraph)
            types << op.type;
        out.insert(QStringLiteral("dataset_pipeline"), types.join(QStringLiteral(" -> ")));
    }
    if (userDefined) {
        for (auto it = userDefined->cbegin(); it != userDefined->cend(); ++it)
            out.insert(QStringLiteral("user/") + it.key(), it.value());
    }
    return out;
}

} // namespace runlens::models::summary
