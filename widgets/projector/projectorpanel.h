#pragma once

#include "models/embeddings/embeddingset.h"
#include "models/embeddings/neighbours.h"
#include "models/embeddings/pca.h"
#include "widgets/common/chartexportmenu.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QSpinBox;
class QToolButton;

namespace runlens::widgets::projector {

class ProjectorScatter;

/// The Projector: embedding sets (TensorBoard projector folders) shown as a 2-D scatter of their
/// principal components. PCA runs in the background with progress and cancel; points are coloured and
/// labelled by a metadata column, a regex over the metadata highlights matches, and clicking a point
/// lists its nearest neighbours in the original space. The panel shares the sets it is given.
class ProjectorPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit ProjectorPanel(QWidget* parent = nullptr);
    ~ProjectorPanel() override;

    /// Adds sets (of a newly read folder); the first one added is shown. A set with the name and source of
    /// one already held replaces it (a log that logged the same tag again). A non-empty `run` precedes the
    /// name in the set list, for folders with several runs.
    void addEmbeddings(const std::vector<models::embeddings::EmbeddingSetPtr>& sets, const QString& run = {});
    void clear();

    int setCount() const { return int(m_sets.size()); }
    models::embeddings::EmbeddingSetPtr currentSet() const;
    const std::optional<models::embeddings::PcaResult>& pca() const { return m_pca; }
    bool isComputing() const { return m_watcher.isRunning(); }
    ProjectorScatter* scatter() const { return m_scatter; }

    void setCurrentSet(int index);
    void setComponents(int x, int y);
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

    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    /// Writes the scatter as PNG (twice the on-screen resolution). False with a message on failure.
    bool exportPng(const QString& fileName, QString* errorMessage = nullptr) const;

signals:
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);
    /// PCA of the current set finished (or failed, or was cancelled).
    void reductionFinished();

private:
    void startPca();
    void pcaFinished();
    void cancelPca();
    void updateComponentChoices();
    void updateScatterPoints();
    void updateColors();
    void updateMarks();
    void updateNeighbourList();
    void updateVarianceText();
    void requestExport();
    QString labelFor(int index) const;

    std::vector<models::embeddings::EmbeddingSetPtr> m_sets;
    std::optional<models::embeddings::PcaResult> m_pca;
    std::unique_ptr<models::embeddings::NeighbourIndex> m_index;
    std::vector<models::embeddings::Neighbour> m_neighbours;
    int m_selected = -1;
    int m_matchCount = 0;
    QString m_search;
    bool m_searchValid = true;

    QFutureWatcher<std::optional<models::embeddings::PcaResult>> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancel;
    std::shared_ptr<std::atomic_int> m_progress;
    int m_computingSet = -1;

    QComboBox* m_setBox = nullptr;
    QComboBox* m_xBox = nullptr;
    QComboBox* m_yBox = nullptr;
    QComboBox* m_colorBox = nullptr;
    QComboBox* m_labelBox = nullptr;
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
