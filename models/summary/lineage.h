#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QVariant>
#include <QVariantMap>

#include <optional>

namespace runlens::models::summary {

/// One operation of a dataset pipeline, as MindSpore's lineage records it.
struct DatasetOp
{
    QString type; ///< "MnistDataset", "MapDataset", "BatchDataset", ...
    QMap<QString, QString> parameters; ///< every recorded parameter, as text
};

/// What MindSpore's lineage file says about one training run: the hyper-parameters and data of the
/// training, the evaluation metrics, the dataset pipeline and the user's own values. Each part holds the
/// latest record of its kind in the file; absent values are empty optionals. A plain value type, filled
/// by the lineage importer and read by the run comparison.
struct RunLineage
{
    struct Train
    {
        std::optional<QString> optimizer;
        std::optional<double> learningRate;
        std::optional<QString> lossFunction;
        std::optional<qint64> epoch;
        std::optional<QString> parallelMode;
        std::optional<qint64> deviceNum;
        std::optional<qint64> batchSize;
        std::optional<QString> trainDatasetPath;
        std::optional<qint64> trainDatasetSize;
        std::optional<QString> network;
        std::optional<double> loss;
        std::optional<QString> modelPath;
        std::optional<qint64> modelSize;
    };

    struct Evaluation
    {
        QMap<QString, double> metrics; ///< numeric members of the metric JSON object
        std::optional<QString> validDatasetPath;
        std::optional<qint64> validDatasetSize;
    };

    std::optional<Train> train;
    std::optional<Evaluation> evaluation;
    /// The dataset pipeline from its source to its last operation.
    std::optional<QList<DatasetOp>> datasetGraph;
    /// User defined values (QString or a number), nested dictionaries flattened to "outer/inner".
    std::optional<QMap<QString, QVariant>> userDefined;

    bool isEmpty() const { return !train && !evaluation && !datasetGraph && !userDefined; }

    /// One flat map for a run comparison table: `optimizer`, `learning_rate`, `loss_function`, `epoch`,
    /// `parallel_mode`, `device_num`, `batch_size`, `train_dataset_path`, `train_dataset_size`, `network`,
    /// `loss`, `model_path`, `model_size`, `metric/<name>`, `valid_dataset_path`, `valid_dataset_size`,
    /// `dataset_pipeline` (op types joined by " -> ") and `user/<name>`. Absent values have no key.
    QVariantMap toVariantMap() const;
};

} // namespace runlens::models::summary
