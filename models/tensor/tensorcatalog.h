#pragma once

#include "models/core/diagnostic.h"
#include "models/graph/dumpindex.h"
#include "models/tensor/tensor.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace runlens::models::tensor {

/// A tensor opened for viewing, or why it could not be (the message names the file).
struct TensorResult
{
    std::optional<Tensor> tensor;
    QString error;
};

/// Where one tensor's values live and how to reach them: a mapped `.npy`, a member of an `.npz`, an entry
/// of a `.safetensors` file, values from a summary. Implemented by the importers; thread safe.
class TensorSource
{
public:
    virtual ~TensorSource() = default;
    /// The tensor over its bytes. Mapped sources answer at once; a deflated archive member is inflated on
    /// the first call (call it off the GUI thread when `isImmediate()` is false) and kept while a
    /// Tensor still refers to it.
    virtual TensorResult open() const = 0;
    /// Whether open() costs no more than mapping a file.
    virtual bool isImmediate() const { return true; }
};

/// One tensor at one step, as far as its headers tell; values are read through `source`.
struct TensorInfo
{
    QString path; ///< absolute path of the file holding it
    QString member; ///< archive member or safetensors entry; empty when the file is the tensor
    QString format; ///< "npy", "npz", "safetensors", "summary"
    int step = -1; ///< step or iteration; -1 when none is known
    DType dtype = DType::Float32;
    std::vector<std::int64_t> shape;
    std::int64_t byteSize = 0; ///< bytes of values (stored size for compressed members)
    QString note; ///< how it is stored when that matters: "deflated", "bfloat16 from <V2"
    /// The file's free-form metadata (safetensors `__metadata__`), shared by its tensors; may be null.
    std::shared_ptr<const QMap<QString, QString>> fileMetadata;
    std::shared_ptr<const TensorSource> source;

    std::int64_t elementCount() const;
    /// "path" or "path:member", unique within a catalog.
    QString location() const;
    /// "float32[6, 3, 5, 5]".
    QString typeText() const;
};

/// The same tensor across the steps of a run (one entry per step), with what its name says about it.
struct TensorSeries
{
    QString name; ///< unique in the catalog: "conv1.weight", "Conv2D-op12 output 0", "state_dict.npz/fc1.bias"
    QString nodeKey; ///< graph node or module it belongs to ("conv1", MindSpore op full name); may be empty
    QString kind; ///< "weight", "act", "weight_grad", "input", "output", archive key ...
    QString opType; ///< MindSpore op type; empty otherwise
    graph::DumpIo io = graph::DumpIo::Other;
    int slot = -1;
    int rank = -1; ///< from `rank_N/` folders
    QString run; ///< run (folder) it came from
    QList<TensorInfo> versions; ///< ordered by step

    /// The version at `step`, or nullptr.
    const TensorInfo* atStep(int step) const;
    QList<int> steps() const;
};

/// Every tensor of an opened folder, grouped into series across steps and linkable to graph nodes by
/// name. Built once on a worker by the tensor importer, then shared read-only.
class TensorCatalog
{
public:
    TensorCatalog() = default;
    /// Sorts each series' versions by step and the series by run, then name.
    explicit TensorCatalog(QList<TensorSeries> series, Diagnostics diagnostics = {});

    /// A new catalog with this one's series and diagnostics plus `more` (tensors from summaries next to
    /// those of files); this one is left as it is.
    TensorCatalog withSeries(QList<TensorSeries> more) const;

    const QList<TensorSeries>& series() const { return m_series; }
    const Diagnostics& diagnostics() const { return m_diagnostics; }
    bool isEmpty() const { return m_series.isEmpty(); }
    int tensorCount() const;

    /// Index of the series named `name` (in `run` when given), or -1.
    int indexOf(const QString& name, const QString& run = {}) const;
    /// The series and version holding `location()` (a file, or file:member), or {-1, -1}.
    std::pair<int, int> findLocation(const QString& location) const;
    /// Series whose node key matches a graph node key, with '.' and '/' alike ("layer1.0.conv1" meets
    /// "layer1/0/conv1").
    QList<int> findNodeKey(const QString& key) const;
    /// Every step any series has, ascending.
    QList<int> steps() const;

private:
    QList<TensorSeries> m_series;
    Diagnostics m_diagnostics;
    QHash<QString, int> m_byLocation;
    QMultiHash<QString, int> m_byNodeKey;
};

} // namespace runlens::models::tensor
