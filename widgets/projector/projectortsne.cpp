#include "widgets/projector/projectorpanel.h"

#include "models/core/workerpool.h"
#include "widgets/projector/pointcolors.h"
#include "widgets/projector/projectorscatter.h"
#include "widgets/projector/projectorscatter3d.h"
#include "widgets/projector/tsnejob.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <limits>

// The Projector's t-SNE: runs on the worker pool in chunks of a few iterations, each drawn when it comes back.

namespace runlens::widgets::projector {

namespace {

// A t-SNE chunk aims at this many milliseconds: short enough for a smooth animation and a prompt stop,
// long enough that the round trip through the GUI thread costs little.
constexpr double kTsneChunkMs = 60.0;
constexpr int kTsneMaxChunk = 50;
// Share of the progress bar's affinity phase taken by the PCA that reduces large sets first.
constexpr int kTsnePcaShare = 300;

/// The first call computes the input affinities (after a PCA for large sets); each later one runs a chunk
/// of iterations, sized from the time the previous chunk took.
void runTsneChunk(TsneJob& job, const std::function<void(int)>& progress)
{
    auto report = [&job, &progress](int permille) {
        if (permille != job.lastProgress) {
            job.lastProgress = permille;
            progress(permille);
        }
    };
    if (!job.run) {
        const models::embeddings::EmbeddingSet& set = *job.data;
        const float* values = set.values.data();
        std::size_t dims = std::size_t(set.dims);
        std::optional<models::embeddings::PcaResult> pca;
        int base = 0;
        if (job.reduce) {
            models::embeddings::OperationControl control;
            control.cancel = &job.cancel;
            control.progress = [&report](int permille) { report(permille * kTsnePcaShare / 1000); };
            pca = models::embeddings::computePca(set, ProjectorPanel::kTsneInputDims, control);
            if (!pca) {
                job.pcaFailed = true;
                return;
            }
            values = pca->projected.data();
            dims = std::size_t(pca->components);
            base = kTsnePcaShare;
        }
        job.run = std::make_unique<models::embeddings::TsneRun>(values, std::size_t(set.rows), dims, job.options,
                                                                [&job, &report, base](double fraction) {
                                                                    report(base + int(fraction * (1000 - base)));
                                                                    return !job.cancel.load();
                                                                });
        if (!job.run->isValid())
            return;
    } else {
        QElapsedTimer timer;
        timer.start();
        const int before = job.run->iteration();
        job.run->step(job.chunk);
        const int done = job.run->iteration() - before;
        if (done > 0) {
            const double perIteration = std::max<double>(double(timer.elapsed()), 1.0) / done;
            job.chunk = std::clamp(int(kTsneChunkMs / perIteration), 1, kTsneMaxChunk);
        }
    }
    job.embedding = job.run->embedding();
    job.iteration = job.run->iteration();
    job.kl = job.run->klDivergence();
}

QString describeTsneError(models::embeddings::TsneError error)
{
    using models::embeddings::TsneError;
    switch (error) {
    case TsneError::None:
        return {};
    case TsneError::InvalidOutputDims:
    case TsneError::InvalidOptions:
        return ProjectorPanel::tr("t-SNE cannot run with these settings.");
    case TsneError::InvalidInput:
        return ProjectorPanel::tr("t-SNE needs points with at least one dimension.");
    case TsneError::NonFiniteInput:
        return ProjectorPanel::tr("t-SNE cannot run: the embeddings contain NaN or infinite values.");
    case TsneError::Cancelled:
        return ProjectorPanel::tr("t-SNE cancelled.");
    }
    return {};
}

} // namespace

void ProjectorPanel::setTsneOptions(const models::embeddings::TsneOptions& options)
{
    m_perplexityBox->setValue(options.perplexity);
    m_learningRateBox->setValue(options.learningRate);
    m_iterationsBox->setValue(options.iterations);
    m_seedBox->setValue(int(std::min<std::uint64_t>(options.seed, std::uint64_t(m_seedBox->maximum()))));
}

models::embeddings::TsneOptions ProjectorPanel::tsneOptions() const
{
    models::embeddings::TsneOptions options;
    options.outputDims = m_threeD ? 3 : 2;
    options.perplexity = m_perplexityBox->value();
    options.learningRate = m_learningRateBox->value() > 0.0 ? m_learningRateBox->value()
                                                            : models::embeddings::TsneOptions::kAutoLearningRate;
    options.iterations = m_iterationsBox->value();
    options.seed = std::uint64_t(m_seedBox->value());
    return options;
}

bool ProjectorPanel::isTsneRunning() const
{
    return m_tsneJob != nullptr;
}

void ProjectorPanel::runTsne()
{
    cancelTsne();
    if (m_method != Method::Tsne) {
        const QSignalBlocker blocker(m_methodBox);
        m_methodBox->setCurrentIndex(m_methodBox->findData(int(Method::Tsne)));
        m_method = Method::Tsne;
        cancelPca();
        updateMethodControls();
    }
    if (!m_view)
        return;
    auto job = std::make_shared<TsneJob>();
    job->data = m_view;
    job->options = tsneOptions();
    job->reduce = m_view->rows > kTsnePcaThreshold && m_view->dims > kTsneInputDims;
    m_tsneJob = job;
    m_tsneTotal = job->options.iterations;
    m_tsneEmbedding.clear();
    m_tsneIteration = 0;
    m_tsneKl = 0.0;
    m_tsneNote = job->reduce
        ? tr("t-SNE: reducing to %1 principal components first, then computing affinities…").arg(kTsneInputDims)
        : tr("t-SNE: computing affinities…");
    m_scatter->setPoints({}, {});
    m_scatter3d->setPoints({});
    m_progressBar->setValue(0);
    m_progressBar->show();
    m_cancelButton->show();
    updateMethodControls();
    updateVarianceText();
    updateStatus();
    startTsneChunk();
}

void ProjectorPanel::startTsneChunk()
{
    const std::shared_ptr<TsneJob> job = m_tsneJob;
    if (!job)
        return;
    // Progress reaches the panel through the application object, which outlives every panel: the QPointer is
    // tested on the GUI thread, and a report about a run that is no longer the panel's is dropped.
    const QPointer<ProjectorPanel> self(this);
    const std::weak_ptr<TsneJob> weak = job;
    std::function<void(int)> progress = [self, weak](int permille) {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, weak, permille] {
                const std::shared_ptr<TsneJob> current = weak.lock();
                if (self && current && self->m_tsneJob == current)
                    self->m_progressBar->setValue(permille);
            },
            Qt::QueuedConnection);
    };
    m_tsneWatcher.setFuture(QtConcurrent::run(models::workerPool(), [job, progress] { runTsneChunk(*job, progress); }));
}

void ProjectorPanel::tsneChunkFinished()
{
    const std::shared_ptr<TsneJob> job = m_tsneJob;
    if (!job || m_tsneWatcher.isRunning())
        return;
    const bool stopped = job->cancel.load();
    auto finish = [this](const QString& note) {
        m_tsneJob.reset();
        m_tsneNote = note;
        if (!m_watcher.isRunning()) {
            m_progressBar->hide();
            m_cancelButton->hide();
        }
        updateMethodControls();
        updateVarianceText();
        updateStatus();
        emit tsneFinished();
    };
    if (job->pcaFailed) {
        finish(stopped ? tr("t-SNE cancelled.") : tr("t-SNE cannot run: the principal components failed."));
        return;
    }
    if (!job->run || !job->run->isValid()) {
        finish(describeTsneError(job->run ? job->run->error() : models::embeddings::TsneError::Cancelled));
        return;
    }
    const models::embeddings::TsneRun& run = *job->run;
    m_tsneEmbedding = job->embedding;
    m_tsneDims = job->options.outputDims;
    m_tsneIteration = job->iteration;
    m_tsneKl = job->kl;
    QString settings = tr("perplexity %1").arg(run.effectivePerplexity(), 0, 'g', 4);
    if (run.perplexityClipped())
        settings += QStringLiteral(" ") + tr("(lowered: few points)");
    settings += QStringLiteral(", ") + tr("learning rate %1").arg(run.learningRate(), 0, 'f', 0);
    if (job->reduce)
        settings += QStringLiteral(", ") + tr("on the top %1 principal components").arg(kTsneInputDims);
    const QString progress = tr("iteration %1 / %2, KL divergence %3")
                                 .arg(m_tsneIteration)
                                 .arg(job->options.iterations)
                                 .arg(m_tsneKl, 0, 'f', 4);
    showTsneEmbedding();
    const QPointer<ProjectorPanel> alive(this);
    emit tsneUpdated();
    if (!alive)
        return; // a slot deleted the panel; `job` and `run` are still held here
    if (run.isFinished()) {
        finish(tr("t-SNE finished: %1 (%2)").arg(progress, settings));
        return;
    }
    if (stopped) {
        finish(tr("t-SNE stopped at %1 (%2)").arg(progress, settings));
        return;
    }
    m_tsneNote = tr("t-SNE running: %1 (%2)").arg(progress, settings);
    m_progressBar->setValue(int(qint64(m_tsneIteration) * 1000 / std::max(1, job->options.iterations)));
    updateStatus();
    startTsneChunk();
}

void ProjectorPanel::stopTsne()
{
    if (m_tsneJob)
        m_tsneJob->cancel.store(true); // takes effect when the running chunk ends
}

void ProjectorPanel::cancelTsne()
{
    if (!m_tsneJob)
        return;
    m_tsneJob->cancel.store(true);
    m_tsneWatcher.waitForFinished();
    m_tsneJob.reset();
    m_tsneNote = m_tsneEmbedding.empty()
        ? tr("t-SNE cancelled.")
        : tr("t-SNE stopped at iteration %1 / %2").arg(m_tsneIteration).arg(m_tsneTotal);
    if (!m_watcher.isRunning()) {
        m_progressBar->hide();
        m_cancelButton->hide();
    }
    updateMethodControls();
}

void ProjectorPanel::showTsneEmbedding()
{
    const std::size_t dims = std::size_t(m_tsneDims);
    if (!m_view || m_tsneEmbedding.size() != std::size_t(m_view->rows) * dims)
        return;
    if (dims == 3) {
        // Each chunk moves every point: the view is fitted to the new layout, keeping the user's rotation.
        m_scatter3d->setPoints(m_tsneEmbedding, m_scatter3d->pointCount() == m_view->rows);
        m_scatter3d->setAxisTitles(tr("t-SNE 1"), tr("t-SNE 2"), tr("t-SNE 3"));
    } else {
        std::vector<float> xs(std::size_t(m_view->rows));
        std::vector<float> ys(std::size_t(m_view->rows));
        for (std::size_t i = 0; i < xs.size(); ++i) {
            xs[i] = m_tsneEmbedding[dims * i];
            ys[i] = m_tsneEmbedding[dims * i + 1];
        }
        m_scatter->setPoints(std::move(xs), std::move(ys));
        m_scatter->setAxisTitles(tr("t-SNE 1"), tr("t-SNE 2"));
    }
    updateMarks();
    updateVarianceText();
}

} // namespace runlens::widgets::projector
