#pragma once

// Stores filled the same way by the run comparison model test and the Compare runs panel test: three runs
// with hparams (a, b, d), one with MindSpore lineage (c), scalars in a, b, c and a's "validation" group.

#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"

#include <limits>
#include <utility>
#include <vector>

namespace runlens::test::comparison {

using Points = std::vector<std::pair<qint64, double>>;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline models::scalars::TagPoints tagPoints(const QString& tag, const Points& points)
{
    models::scalars::TagPoints tp;
    tp.tag = tag;
    for (const auto& [step, value] : points)
        tp.points.push_back(models::scalars::ScalarPoint { step, 1000.0 + double(step), value });
    return tp;
}

inline const Points kLossA { { 0, 2.0 }, { 1, 1.5 }, { 2, 0.7 }, { 3, 0.9 } };
inline const Points kAccA { { 0, 0.5 }, { 1, 0.8 }, { 2, 0.75 } };
inline const Points kLossB { { 0, 3.0 }, { 5, 0.4 }, { 10, 0.6 } };
inline const Points kAccB { { 0, 0.6 }, { 10, 0.9 } };
inline const Points kLossC { { 0, 1.0 }, { 1, kNaN }, { 2, 0.8 }, { 3, kNaN } };
inline const Points kValAccA { { 0, 0.55 }, { 3, 0.85 }, { 6, 0.8 } };

inline models::summary::HParams hparams(double lr, const QString& optimizer, qint64 layers)
{
    models::summary::HParams h;
    models::summary::HParamInfo lrInfo;
    lrInfo.name = QStringLiteral("lr");
    lrInfo.displayName = QStringLiteral("Learning rate");
    models::summary::HParamInfo optInfo;
    optInfo.name = QStringLiteral("optimizer");
    h.hparamInfos << lrInfo << optInfo;
    models::summary::MetricInfo acc;
    acc.tag = QStringLiteral("accuracy");
    models::summary::MetricInfo valAcc;
    valAcc.tag = QStringLiteral("val/acc");
    valAcc.group = QStringLiteral("validation");
    h.metricInfos << acc << valAcc;
    h.values.insert(QStringLiteral("lr"), lr);
    h.values.insert(QStringLiteral("optimizer"), optimizer);
    h.values.insert(QStringLiteral("layers"), double(layers));
    return h;
}

inline models::summary::RunLineage lineageC()
{
    models::summary::RunLineage l;
    models::summary::RunLineage::Train t;
    t.optimizer = QStringLiteral("Momentum");
    t.learningRate = 0.05;
    t.batchSize = 32;
    t.epoch = 10;
    t.lossFunction = QStringLiteral("SoftmaxCrossEntropyWithLogits");
    t.trainDatasetPath = QStringLiteral("/data/mnist/train");
    t.trainDatasetSize = 60000;
    t.network = QStringLiteral("LeNet5");
    t.deviceNum = 8;
    l.train = t;
    models::summary::RunLineage::Evaluation e;
    e.metrics.insert(QStringLiteral("accuracy"), 0.97);
    l.evaluation = e;
    l.userDefined = QMap<QString, QVariant> { { QStringLiteral("note"), QStringLiteral("baseline") } };
    return l;
}

inline void fill(models::scalars::ScalarStore& scalars, models::summary::SummaryStore& summaries)
{
    scalars.append(QStringLiteral("a"),
                   { tagPoints(QStringLiteral("train/loss"), kLossA), tagPoints(QStringLiteral("accuracy"), kAccA) });
    scalars.append(QStringLiteral("a/validation"), { tagPoints(QStringLiteral("val/acc"), kValAccA) });
    scalars.append(QStringLiteral("b"),
                   { tagPoints(QStringLiteral("train/loss"), kLossB), tagPoints(QStringLiteral("accuracy"), kAccB) });
    scalars.append(QStringLiteral("c"), { tagPoints(QStringLiteral("train/loss"), kLossC) });

    models::summary::SummaryBatch a;
    a.hparams = hparams(0.01, QStringLiteral("adam"), 10);
    summaries.update(QStringLiteral("a"), QStringLiteral("a/events.0"), a);
    models::summary::SummaryBatch b;
    b.hparams = hparams(0.1, QStringLiteral("sgd"), 2);
    b.hparams->status = QStringLiteral("success");
    summaries.update(QStringLiteral("b"), QStringLiteral("b/events.0"), b);
    models::summary::SummaryBatch d;
    d.hparams = hparams(0.001, QStringLiteral("adamw"), 100);
    summaries.update(QStringLiteral("d"), QStringLiteral("d/events.0"), d);
    summaries.setLineage(QStringLiteral("c"), lineageC());
}

} // namespace runlens::test::comparison
