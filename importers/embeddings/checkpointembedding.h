#pragma once

#include "importers/embeddings/projectorreader.h"
#include "importers/graph/tfcheckpointindex.h"

#include "models/core/diagnostic.h"
#include "models/embeddings/embeddingset.h"

#include <QString>

#include <optional>
#include <string_view>
#include <vector>

namespace runlens::importers::embeddings {

/// The checkpoint prefix ("…/model.ckpt-100", the `.index` and `.data-*` files beside it) whose tensors
/// the config's `tensor_name`-only embeddings name, found as TensorBoard's projector finds it:
/// `model_checkpoint_path` (a prefix, or a folder holding a `checkpoint` state file), else
/// `model_checkpoint_dir`'s `checkpoint` file, else the `checkpoint` file of the log folder (the config's
/// folder, or two levels up from `plugins/projector`) or of its parent. Relative paths are taken from the
/// config's folder (TensorBoard passes them on relative to where it was started, which a desktop program
/// has no equivalent of); those in a `checkpoint` file from that file's folder, as TensorFlow does.
/// Empty with an error on `diagnostics` naming what was looked at when there is none.
QString findProjectorCheckpoint(const ProjectorConfig& config, const QString& configPath,
                                models::Diagnostics& diagnostics);

/// The `model_checkpoint_path` of a text-format CheckpointState (the `checkpoint` file); empty if absent.
QString checkpointStatePath(const QByteArray& text);

/// Converts `bytes` of a tensor of `dtype` (TensorFlow's names as tfDataTypeName gives them: float32,
/// float64, float16, bfloat16, the integer types, bool) to floats, little-endian as TensorFlow writes them on
/// every platform it ships for. Values that are not finite (or do not fit a float) become 0 and are
/// counted in `nonFinite`. False when the dtype is not numeric or `bytes` is not a whole number of elements.
bool tensorBytesToFloats(std::string_view dtype, std::string_view bytes, std::vector<float>& out, qint64& nonFinite);

/// The size of one element of `dtype`, 0 for types the projector cannot show (strings, complex, resources).
int tensorElementSize(std::string_view dtype);

/// Reads 2-D tensors of one checkpoint by name; the index is read once, on first use.
class CheckpointTensorReader
{
public:
    explicit CheckpointTensorReader(QString prefix);

    /// Fills `set`'s rows, dims, values and source from the tensor `tensorName` names: the exact checkpoint
    /// key first, then the TF2 object-based key `<tensorName>/.ATTRIBUTES/VARIABLE_VALUE` (a trailing ":0"
    /// is dropped first, as TensorBoard does). Every size is checked against the shape, the dtype, the
    /// limits and the data file's length; a stored CRC-32C that does not match the bytes is a warning.
    /// False with an error naming the file and the problem when the tensor cannot be shown.
    bool read(const QString& tensorName, const ProjectorLimits& limits, models::embeddings::EmbeddingSet& set,
              models::Diagnostics& diagnostics);

    QString indexPath() const { return m_prefix + QStringLiteral(".index"); }

private:
    bool loadIndex(models::Diagnostics& diagnostics);
    const graph::TfCheckpointEntry* find(const std::string& key) const;

    QString m_prefix;
    bool m_loaded = false;
    bool m_usable = false;
    graph::TfCheckpointIndex m_index;
};

} // namespace runlens::importers::embeddings
