#pragma once

#include "models/embeddings/embeddingset.h"
#include "models/embeddings/neighbours.h"
#include "models/embeddings/pca.h"
#include "models/embeddings/tsne.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/projector/spritesheet.h"

#include <QFutureWatcher>
#include <QVariantMap>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QSpinBox;
class QStackedWidget;
class QToolButton;

namespace runlens::widgets::projector {

class ProjectorScatter;
class ProjectorScatter3d;

class TsneJob;

/// The Projector: embedding sets (TensorBoard projector folders) shown as a 2-D or 3-D scatter of their
/// principal components or of a t-SNE layout (a 3-D one runs t-SNE with three output dimensions); points
/// can be drawn as their sprite thumbnails. Both run on the worker pool with progress and cancel;
/// t-SNE runs in chunks of a few iterations and the scatter follows it after each chunk. Points are
/// coloured and labelled by a metadata column, a regex over the metadata highlights matches, and
/// clicking a point lists its nearest neighbours in the original space. "Isolate" makes the matches (or
/// the selected point and its neighbours) the shown set and re-runs the reduction on it. The panel shares
/// the sets it is given.
class ProjectorPanel final : public QWidget
{
    Q_OBJECT
public:
    enum class Method { Pca, Tsne };
    /// Above this many points t-SNE starts from the top kTsneInputDims principal components.
    static constexpr int kTsnePcaThreshold = 10000;
    static constexpr int kTsneInputDims = 50;

    explicit ProjectorPanel(QWidget* parent = nullptr);
    ~ProjectorPanel() override;

    /// Adds sets (of a newly read folder); the first one added is shown. A set with the name and source of
    /// one already held replaces it (a log that logged the same tag again). A non-empty `run` precedes the
    /// name in the set list, for folders with several runs.
    void addEmbeddings(const std::vector<models::embeddings::EmbeddingSetPtr>& sets, const QString& run = {});
    void clear();

    int setCount() const { return int(m_sets.size()); }
    models::embeddings::EmbeddingSetPtr setAt(int index) const
    {
        return index >= 0 && index < setCount() ? m_sets[std::size_t(index)] : nullptr;
    }
    models::embeddings::EmbeddingSetPtr currentSet() const;
    const std::optional<models::embeddings::PcaResult>& pca() const { return m_pca; }
    bool isComputing() const { return m_watcher.isRunning() || isTsneRunning(); }
    ProjectorScatter* scatter() const { return m_scatter; }
    ProjectorScatter3d* scatter3d() const { return m_scatter3d; }

    void setCurrentSet(int index);
    void setComponents(int x, int y);
    /// The principal component on the depth axis of the 3-D view.
    void setZComponent(int z);
    /// Shows the points in three dimensions (PCA components x, y, z, or t-SNE re-run with three output
    /// dimensions) or in two.
    void setThreeD(bool threeD);
    bool isThreeD() const { return m_threeD; }
    /// Draws points as their sprite thumbnails when the set has a sprite sheet.
    void setSpritesShown(bool shown);
    bool spritesShown() const { return m_showSprites; }
    /// The sprite sheet of the current set (null when it has none or it cannot be read).
    const SpriteSheet& spriteSheet() const { return m_sheet; }
    /// The view settings kept with a folder's session: {"dimensions": 2 or 3, "sprites": bool}.
    QVariantMap saveState() const;
    void restoreState(const QVariantMap& state);
    void setColorColumn(int column); ///< -1: one colour
    void setLabelColumn(int column); ///< -1: the point's index
    void setSearch(const QString& pattern);
    void setDistance(models::embeddings::Distance distance);
    void setNeighbourCount(int k);
    /// Selects point `index` and lists its neighbours (-1 clears the selection).
    void selectPoint(int index);
    int selectedPoint() const { return m_selected; }
    const std::vector<models::embeddings::Neighbour>& neighbours() const { return m_neighbours; }
    int matchCount() const { return m_matchCount; }

    void setMethod(Method method);
    Method method() const { return m_method; }
    /// t-SNE settings taken by the next run. Run options not shown in the panel keep their defaults.
    void setTsneOptions(const models::embeddings::TsneOptions& options);
    models::embeddings::TsneOptions tsneOptions() const;
    /// Starts t-SNE on the shown points (cancelling a run in progress).
    void runTsne();
    /// Stops the run after its current chunk; the layout reached so far stays.
    void stopTsne();
    bool isTsneRunning() const;
    /// The last t-SNE layout shown: viewSet()->rows rows of tsneDimensions() floats; empty before the first chunk.
    const std::vector<float>& tsneEmbedding() const { return m_tsneEmbedding; }
    int tsneDimensions() const { return m_tsneDims; }
    int tsneIteration() const { return m_tsneIteration; }
    double tsneKl() const { return m_tsneKl; }
    /// The points shown: the current set, or the subset made by isolateSelection().
    models::embeddings::EmbeddingSetPtr viewSet() const { return m_view; }
    /// Indices into currentSet() of the shown points (identity when nothing is isolated).
    const std::vector<int>& viewRows() const { return m_viewRows; }
    bool isIsolated() const { return m_isolated; }
    /// The status line under the header (points, matches, what the reduction is doing).
    QString statusText() const;
    /// Shows only the search matches, or else the selected point and its neighbours, and re-runs the
    /// reduction on them. False when there is nothing to isolate.
    bool isolateSelection();
    /// Back to the whole set.
    void showAll();

    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    /// Writes the scatter as PNG (twice the on-screen resolution). False with a message on failure.
    bool exportPng(const QString& fileName, QString* errorMessage = nullptr) const;

signals:
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);
    /// PCA of the current set finished (or failed, or was cancelled).
    void reductionFinished();
    /// The scatter shows a new t-SNE layout (after each chunk).
    void tsneUpdated();
    /// The t-SNE run ended: finished, stopped, failed or cancelled.
    void tsneFinished();

private:
    void startReduction();
    void startPca();
    void setView(models::embeddings::EmbeddingSetPtr view, std::vector<int> rows, bool isolated);
    void startTsneChunk();
    void tsneChunkFinished();
    void cancelTsne();
    void showTsneEmbedding();
    void updateMethodControls();
    void updateStatus();
    void pcaFinished();
    void cancelPca();
    void updateComponentChoices();
    void updateScatterPoints();
    void updateSprites();
    void updateColors();
    void updateMarks();
    void updateNeighbourList();
    void updateVarianceText();
    void requestExport();
    QString labelFor(int index) const;
    int originalIndex(int viewIndex) const;

    std::vector<models::embeddings::EmbeddingSetPtr> m_sets;
    std::optional<models::embeddings::PcaResult> m_pca;
    std::unique_ptr<models::embeddings::NeighbourIndex> m_index;
    std::vector<models::embeddings::Neighbour> m_neighbours;
    int m_selected = -1;
    int m_matchCount = 0;
    QString m_search;
    bool m_searchValid = true;
    QString m_searchError;

    QFutureWatcher<std::optional<models::embeddings::PcaResult>> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancel;
    std::shared_ptr<std::atomic_int> m_progress;
    int m_computingSet = -1; ///< m_viewGeneration when the PCA started
    int m_viewGeneration = 0;

    Method m_method = Method::Pca;
    models::embeddings::EmbeddingSetPtr m_view;
    std::vector<int> m_viewRows;
    bool m_isolated = false;
    std::shared_ptr<TsneJob> m_tsneJob;
    QFutureWatcher<void> m_tsneWatcher;
    std::vector<float> m_tsneEmbedding;
    int m_tsneDims = 2; ///< values per point in m_tsneEmbedding
    bool m_threeD = false;
    bool m_showSprites = true;
    SpriteSheet m_sheet;
    QString m_sheetPath; ///< where m_sheet was read from
    int m_tsneIteration = 0;
    int m_tsneTotal = 0;
    double m_tsneKl = 0.0;
    QString m_tsneNote; ///< what the status line says about the run

    QComboBox* m_setBox = nullptr;
    QComboBox* m_xBox = nullptr;
    QComboBox* m_yBox = nullptr;
    QComboBox* m_zBox = nullptr;
    QWidget* m_zLabel = nullptr;
    QComboBox* m_dimensionsBox = nullptr;
    QToolButton* m_spritesButton = nullptr;
    QToolButton* m_resetViewButton = nullptr;
    QStackedWidget* m_stack = nullptr;
    ProjectorScatter3d* m_scatter3d = nullptr;
    QComboBox* m_colorBox = nullptr;
    QComboBox* m_labelBox = nullptr;
    QComboBox* m_methodBox = nullptr;
    std::vector<QWidget*> m_pcaWidgets; ///< shown with PCA only (the axis choices)
    QWidget* m_tsneControls = nullptr;
    QDoubleSpinBox* m_perplexityBox = nullptr;
    QDoubleSpinBox* m_learningRateBox = nullptr;
    QSpinBox* m_iterationsBox = nullptr;
    QSpinBox* m_seedBox = nullptr;
    QToolButton* m_runButton = nullptr;
    QToolButton* m_isolateButton = nullptr;
    QToolButton* m_showAllButton = nullptr;
    QLineEdit* m_searchEdit = nullptr;
    QComboBox* m_distanceBox = nullptr;
    QSpinBox* m_kBox = nullptr;
    QToolButton* m_exportButton = nullptr;
    QProgressBar* m_progressBar = nullptr;
    QToolButton* m_cancelButton = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_variance = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_neighbourTitle = nullptr;
    QListWidget* m_neighbourList = nullptr;
    ProjectorScatter* m_scatter = nullptr;
    ChartExportMenu::FileNameProvider m_fileNameProvider;
};

} // namespace runlens::widgets::projector
