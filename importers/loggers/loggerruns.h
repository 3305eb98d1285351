#pragma once

#include "importers/core/importcontrol.h"
#include "models/core/diagnostic.h"
#include "models/scalars/scalarseries.h"
#include "models/summary/summarydata.h"

#include <QByteArrayView>
#include <QString>

#include <optional>

namespace runlens::importers::loggers {

/// What a whole-file logger reader produced.
struct LoggerRun
{
    models::scalars::ScalarBatch scalars;
    std::optional<models::summary::HParams> hparams; ///< the run's hyper-parameters and run information
    models::Diagnostics diagnostics;
    bool ok = false; ///< false: nothing could be read
};

/// A Hugging Face Trainer `trainer_state.json`: every numeric value of `log_history` at its entry's `step`,
/// named as the Trainer's TensorBoard callback names them (`loss` -> `train/loss`, `eval_loss` -> `eval/loss`);
/// `best_metric`, `best_model_checkpoint`, `global_step` and the batch settings as run information.
LoggerRun readTrainerState(QByteArrayView text, const QString& path);

/// An MLflow file-store run, given its `meta.yaml`: `metrics/<name>` files (`timestamp value step` lines,
/// names nested with '/'), system metrics (`metrics/system/*`) under the names `runlens record` writes,
/// `params/` as hyper-parameters, the user's `tags/` as `tag/<name>` and `meta.yaml`'s `run_name` as run information.
LoggerRun readMlflowRun(const QString& metaYamlPath, const ImportControl& control);

/// Hyper-parameters from a YAML file beside a table: Lightning's `hparams.yaml` (`key: value` lines) and W&B's
/// `config.yaml` (`key:` with an indented `value: x`). Top-level scalar values only; lists and nested maps are
/// named in `skipped`. `_wandb` (W&B's own settings) is left out.
models::summary::HParams readHparamsYaml(QByteArrayView text, QStringList* skipped = nullptr);

/// The hyper-parameters of the run a table belongs to, from the files its logger writes beside it:
/// `hparams.yaml` (Lightning), `config.yaml` and `wandb-summary.json` (W&B, summary values as `summary/<key>`).
/// Empty when there are none.
std::optional<models::summary::HParams> tableSideHparams(const QString& tablePath, models::Diagnostics& diagnostics);

/// The `runlens record` name of an MLflow system metric (`system/gpu_0_utilization_percentage` ->
/// `system/gpu0_util_percent`) and the factor its values are multiplied by (MLflow's megabytes are 10^6 bytes).
std::pair<QString, double> mlflowSystemTag(const QString& name);

} // namespace runlens::importers::loggers
