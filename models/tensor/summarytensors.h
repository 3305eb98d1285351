#pragma once

#include "models/summary/summarydata.h"
#include "models/tensor/tensorcatalog.h"

#include <QList>
#include <QMap>
#include <QString>

#include <vector>

namespace runlens::models::tensor {

/// Opens a tensor recorded in a summary: the values are already in memory, so open() only checks that
/// the bytes cover the recorded shape (a message names the file, tag and step when they do not).
class SummaryTensorSource final : public TensorSource
{
public:
    SummaryTensorSource(Tensor tensor, QString file, QString tag, qint64 step);
    TensorResult open() const override;

private:
    Tensor m_tensor;
    QString m_file;
    QString m_tag;
    qint64 m_step = 0;
};

/// The tensors recorded in summary files (TensorBoard tensors of no known plugin, MindSpore
/// TensorSummary) as the tensor inspector lists them: kept per run, file and tag the way the readers
/// deliver them (each poll of a file replaces that file's series of the tags it carries), and offered as
/// catalog series, one per run and tag, whose versions are the kept steps of all the run's files. A
/// version's `path` is the summary file, its `member` is `tag@step`, its `format` is "summary" and its
/// `kind` "summary". A plain value used on one thread; the tensors' bytes are shared, not copied.
class SummaryTensorSet
{
public:
    /// Takes one poll of the summary file `source` of `run`. Returns false when nothing changed (a batch
    /// without tensors).
    bool update(const QString& run, const QString& source, const summary::SummaryBatch& batch);
    bool update(const QString& run, const QString& source, const std::vector<summary::TensorSeries>& series);
    /// Forgets a run; false when it had no summary tensors.
    bool removeRun(const QString& run);
    void clear();

    bool isEmpty() const { return m_runs.isEmpty(); }
    QStringList runs() const { return m_runs.keys(); }
    /// Catalog series, one per run and tag, in run then tag order; versions in step order.
    QList<TensorSeries> series() const;

    static QString format() { return QStringLiteral("summary"); }
    /// Whether a catalog entry holds a summary tensor.
    static bool isSummaryTensor(const TensorInfo& info) { return info.format == format(); }
    /// The tag of a summary tensor's entry (its member without the step).
    static QString tagOf(const TensorInfo& info);

private:
    // run -> tag -> file -> what that file keeps of the tag
    QMap<QString, QMap<QString, QMap<QString, summary::TensorSeries>>> m_runs;
};

} // namespace runlens::models::tensor
