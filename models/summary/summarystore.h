#pragma once

#include "models/summary/lineage.h"
#include "models/summary/summarydata.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QStringList>

namespace runlens::models::summary {

/// The kinds of summary data beyond scalars that the store keeps per run and tag.
enum class SummaryKind { Histograms, Images, Texts, PrCurves, RocCurves, Tensors, Audio };

/// Every run's summary data beyond scalars: histograms, images, texts, audio, PR and ROC curves, summary
/// tensors,
/// hyper-parameters and MindSpore lineage, shared by the Distributions, Images, Text, PR curves and
/// Compare runs panels. Importers deliver per file (`source`); a run's series of a tag is the union of
/// its files' series in step order. Lives on the GUI thread.
class SummaryStore final : public QObject
{
    Q_OBJECT
public:
    explicit SummaryStore(QObject* parent = nullptr);
    ~SummaryStore() override;

    /// Takes one poll's batch of the file `source` of `run`: each series replaces what that file
    /// delivered for its tag before; hparams, when set, replace the file's earlier ones.
    void update(const QString& run, const QString& source, const SummaryBatch& batch);
    /// Sets (or, with an empty lineage, removes) the MindSpore lineage of a run.
    void setLineage(const QString& run, const RunLineage& lineage);
    void removeRun(const QString& run);
    void clear();

    /// The opened folder, which names its own run "." (runDisplayName); kept across clear().
    void setRoot(const QString& root) { m_root = root; }
    /// The run as users see it: runlens::runDisplayName of the root set with setRoot().
    QString runDisplayName(const QString& run) const;

    /// Runs with any data of this store, in name order.
    QStringList runs() const;
    /// Runs with at least one tag of `kind`, in name order.
    QStringList runs(SummaryKind kind) const;
    /// Tags of `kind` in `run`, in name order.
    QStringList tags(SummaryKind kind, const QString& run) const;
    /// Tags of `kind` over all runs, in name order.
    QStringList allTags(SummaryKind kind) const;

    /// The run's series of a tag: the union of its files' kept values, in step order (empty when none).
    HistogramSeries histograms(const QString& run, const QString& tag) const;
    ImageSeries images(const QString& run, const QString& tag) const;
    TextSeries texts(const QString& run, const QString& tag) const;
    AudioSeries audio(const QString& run, const QString& tag) const;
    PrCurveSeries prCurves(const QString& run, const QString& tag) const;
    /// ROC-only curves (VisualDL ROC records); PR curves give ROC views from their counts too.
    PrCurveSeries rocCurves(const QString& run, const QString& tag) const;
    TensorSeries tensors(const QString& run, const QString& tag) const;

    /// The run's hyper-parameters, merged over its files (the latest file's values win); empty when none.
    HParams hparams(const QString& run) const;
    /// Runs with hyper-parameters or lineage, in name order.
    QStringList runsWithParameters() const;
    /// The run's MindSpore lineage, or an empty one.
    RunLineage lineage(const QString& run) const;

signals:
    /// Data of `kind` changed for these tags of `run`.
    void seriesChanged(runlens::models::summary::SummaryKind kind, const QString& run, const QStringList& tags);
    /// A run's hyper-parameters or lineage changed.
    void parametersChanged(const QString& run);
    /// Runs or tags were added or removed.
    void structureChanged();
    void cleared();

private:
    struct Private;
    std::unique_ptr<Private> d;
    QString m_root;
};

} // namespace runlens::models::summary
