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
#include <QStackedWidget>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <limits>

namespace runlens::widgets::projector {

namespace {

// Components computed per set: enough to pick any pair a user looks at, cheap next to the covariance.
constexpr int kComponents = 10;
constexpr int kDefaultNeighbours = 10;

} // namespace

ProjectorPanel::ProjectorPanel(QWidget* parent)
    : QWidget(parent)
{
    m_setBox = new QComboBox(this);
    // Set names can be long ("run / tag (rows × dims)"): the box stays narrow and the list shows them whole.
    m_setBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_setBox->setMinimumContentsLength(10);
    connect(m_setBox, &QComboBox::currentTextChanged, m_setBox, &QWidget::setToolTip);
    m_setBox->setToolTip(tr("The embedding set shown"));
    m_xBox = new QComboBox(this);
    m_yBox = new QComboBox(this);
    m_xBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_yBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_xBox->setToolTip(tr("Principal component on the horizontal axis"));
    m_yBox->setToolTip(tr("Principal component on the vertical axis"));
    m_zBox = new QComboBox(this);
    m_zBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_zBox->setToolTip(tr("Principal component on the depth axis of the 3-D view"));
    m_dimensionsBox = new QComboBox(this);
    m_dimensionsBox->addItem(tr("2-D"), 2);
    m_dimensionsBox->addItem(tr("3-D"), 3);
    m_dimensionsBox->setToolTip(tr("Show the points in two or three dimensions: three principal components, or "
                                   "t-SNE run with three output dimensions"));
    m_spritesButton = new QToolButton(this);
    m_spritesButton->setText(tr("Sprites"));
    m_spritesButton->setCheckable(true);
    m_spritesButton->setChecked(m_showSprites);
    m_resetViewButton = new QToolButton(this);
    m_resetViewButton->setText(tr("Reset view"));
    m_resetViewButton->setToolTip(tr("Back to the starting rotation, zoom and position of the 3-D view"));
    m_colorBox = new QComboBox(this);
    m_colorBox->setToolTip(tr("Metadata column that colours the points"));
    m_labelBox = new QComboBox(this);
    m_labelBox->setToolTip(tr("Metadata column shown beside the point under the mouse and in the neighbour list"));
    // Column names can be long; the boxes stay narrow and their lists show the names whole.
    for (QComboBox* box : { m_colorBox, m_labelBox }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
    }
    m_exportButton = new QToolButton(this);
    m_exportButton->setText(tr("Export PNG…"));
    m_exportButton->setToolTip(tr("Write the scatter as a PNG image"));
    m_methodBox = new QComboBox(this);
    m_methodBox->addItem(tr("PCA"), int(Method::Pca));
    m_methodBox->addItem(tr("t-SNE"), int(Method::Tsne));
    m_methodBox->setToolTip(tr("How the points are laid out in two dimensions"));

    const models::embeddings::TsneOptions defaults;
    m_tsneControls = new QWidget(this);
    m_perplexityBox = new QDoubleSpinBox(m_tsneControls);
    m_perplexityBox->setRange(2.0, 100.0);
    m_perplexityBox->setDecimals(1);
    m_perplexityBox->setValue(defaults.perplexity);
    m_perplexityBox->setToolTip(tr("Effective number of neighbours each point keeps close (lowered for small sets)"));
    m_learningRateBox = new QDoubleSpinBox(m_tsneControls);
    m_learningRateBox->setRange(0.0, 100000.0);
    m_learningRateBox->setDecimals(0);
    m_learningRateBox->setSingleStep(50.0);
    m_learningRateBox->setSpecialValueText(tr("auto"));
    m_learningRateBox->setValue(defaults.learningRate);
    m_learningRateBox->setToolTip(
        tr("Step size of the optimisation; \"auto\" (0) picks one from the number of points"));
    m_iterationsBox = new QSpinBox(m_tsneControls);
    m_iterationsBox->setRange(defaults.exaggerationIterations + 1, 100000);
    m_iterationsBox->setSingleStep(100);
    m_iterationsBox->setValue(defaults.iterations);
    m_iterationsBox->setToolTip(tr("Total iterations of the run"));
    m_seedBox = new QSpinBox(m_tsneControls);
    m_seedBox->setRange(0, std::numeric_limits<int>::max());
    m_seedBox->setValue(int(defaults.seed));
    m_seedBox->setToolTip(tr("Seed of the initial layout: the same seed gives the same picture"));
    m_runButton = new QToolButton(m_tsneControls);
    m_runButton->setText(tr("Run"));
    m_runButton->setToolTip(tr("Start t-SNE on the points shown, or stop it"));
    auto* tsneLayout = new QHBoxLayout(m_tsneControls);
    tsneLayout->setContentsMargins(0, 0, 0, 0);
    tsneLayout->addWidget(new QLabel(tr("Perplexity:"), m_tsneControls));
    tsneLayout->addWidget(m_perplexityBox);
    tsneLayout->addWidget(new QLabel(tr("Learning rate:"), m_tsneControls));
    tsneLayout->addWidget(m_learningRateBox);
    tsneLayout->addWidget(new QLabel(tr("Iterations:"), m_tsneControls));
    tsneLayout->addWidget(m_iterationsBox);
    tsneLayout->addWidget(new QLabel(tr("Seed:"), m_tsneControls));
    tsneLayout->addWidget(m_seedBox);
    tsneLayout->addWidget(m_runButton);
    tsneLayout->addStretch(1);

    auto* xLabel = new QLabel(tr("X:"), this);
    auto* yLabel = new QLabel(tr("Y:"), this);
    m_zLabel = new QLabel(tr("Z:"), this);
    m_pcaWidgets = { xLabel, m_xBox, yLabel, m_yBox };
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Embedding:"), this));
    top->addWidget(m_setBox);
    top->addSpacing(8);
    top->addWidget(m_methodBox);
    top->addWidget(m_dimensionsBox);
    top->addWidget(xLabel);
    top->addWidget(m_xBox);
    top->addWidget(yLabel);
    top->addWidget(m_yBox);
    top->addWidget(m_zLabel);
    top->addWidget(m_zBox);
    top->addStretch(1);

    m_searchEdit = new QLineEdit(this);
    m_searchEdit->setPlaceholderText(tr("Search metadata (regular expression)"));
    m_searchEdit->setClearButtonEnabled(true);
    m_status = new QLabel(this);
    // Long status lines wrap rather than widen the dock (and with it the window).
    m_status->setWordWrap(true);
    m_progressBar = new QProgressBar(this);
    m_progressBar->setRange(0, 1000);
    m_progressBar->setTextVisible(false);
    m_progressBar->setMaximumWidth(160);
    m_progressBar->hide();
    m_cancelButton = new QToolButton(this);
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->hide();
    m_isolateButton = new QToolButton(this);
    m_isolateButton->setText(tr("Isolate"));
    m_isolateButton->setToolTip(
        tr("Show only the search matches (or the selected point and its neighbours) and lay them out again"));
    m_showAllButton = new QToolButton(this);
    m_showAllButton->setText(tr("Show all"));
    m_showAllButton->setToolTip(tr("Show every point of the embedding again"));
    // What the points look like goes with how they are found: in one row the controls would make the panel's
    // minimum wider than the dock beside the Run Browser, and the window would grow past the screen.
    auto* second = new QHBoxLayout;
    second->addWidget(new QLabel(tr("Colour by:"), this));
    second->addWidget(m_colorBox);
    second->addWidget(new QLabel(tr("Label by:"), this));
    second->addWidget(m_labelBox);
    second->addWidget(m_spritesButton);
    second->addSpacing(8);
    second->addWidget(m_searchEdit, 2);
    second->addWidget(m_isolateButton);
    second->addWidget(m_showAllButton);
    // The status, the progress of a reduction and the view's actions sit in the column beside the scatter:
    // a row of their own above it would make the panel taller than the dock has room for.
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_progressBar);
    statusRow->addWidget(m_cancelButton);
    auto* actions = new QHBoxLayout;
    actions->addStretch(1);
    actions->addWidget(m_resetViewButton);
    actions->addWidget(m_exportButton);

    m_scatter = new ProjectorScatter(this);
    m_scatter->setLabelProvider([this](int index) { return labelFor(index); });
    m_scatter3d = new ProjectorScatter3d(this);
    m_scatter3d->setLabelProvider([this](int index) { return labelFor(index); });
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_scatter);
    m_stack->addWidget(m_scatter3d);

    auto* side = new QWidget(this);
    m_variance = new QLabel(side);
    m_variance->setWordWrap(true);
    m_variance->setTextFormat(Qt::RichText);
    m_legend = new QLabel(side);
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    m_neighbourTitle = new QLabel(tr("Click a point to list its nearest neighbours."), side);
    m_neighbourTitle->setWordWrap(true);
    m_distanceBox = new QComboBox(side);
    m_distanceBox->addItem(tr("Cosine"), int(models::embeddings::Distance::Cosine));
    m_distanceBox->addItem(tr("Euclidean"), int(models::embeddings::Distance::Euclidean));
    m_distanceBox->setToolTip(tr("Distance in the original space"));
    m_kBox = new QSpinBox(side);
    m_kBox->setRange(1, 1000);
    m_kBox->setValue(kDefaultNeighbours);
    m_kBox->setToolTip(tr("Number of neighbours"));
    m_neighbourList = new QListWidget(side);
    // Three rows are enough when the dock is short; the list takes the column's height otherwise.
    m_neighbourList->setMinimumHeight(m_neighbourList->fontMetrics().lineSpacing() * 3
                                      + 2 * m_neighbourList->frameWidth());
    auto* neighbourOptions = new QHBoxLayout;
    neighbourOptions->addWidget(new QLabel(tr("Neighbours:"), side));
    neighbourOptions->addWidget(m_kBox);
    neighbourOptions->addWidget(m_distanceBox, 1);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(4, 0, 0, 0);
    sideLayout->addLayout(statusRow);
    sideLayout->addWidget(m_variance);
    sideLayout->addWidget(m_legend);
    sideLayout->addLayout(neighbourOptions);
    sideLayout->addWidget(m_neighbourTitle);
    sideLayout->addWidget(m_neighbourList, 1);
    sideLayout->addLayout(actions);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_stack);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_tsneControls); // a row of its own: beside the others it would widen the dock
    layout->addLayout(second);
    layout->addWidget(splitter, 1);

    connect(m_setBox, &QComboBox::currentIndexChanged, this, [this](int index) { setCurrentSet(index); });
    connect(m_xBox, &QComboBox::currentIndexChanged, this, [this] { updateScatterPoints(); });
    connect(m_yBox, &QComboBox::currentIndexChanged, this, [this] { updateScatterPoints(); });
    connect(m_zBox, &QComboBox::currentIndexChanged, this, [this] { updateScatterPoints(); });
    connect(m_dimensionsBox, &QComboBox::currentIndexChanged, this,
            [this] { setThreeD(m_dimensionsBox->currentData().toInt() == 3); });
    connect(m_spritesButton, &QToolButton::toggled, this, [this](bool on) { setSpritesShown(on); });
    connect(m_resetViewButton, &QToolButton::clicked, m_scatter3d, &ProjectorScatter3d::resetView);
    connect(m_scatter3d, &ProjectorScatter3d::pointClicked, this, [this](int index) { selectPoint(index); });
    connect(m_colorBox, &QComboBox::currentIndexChanged, this, [this] { updateColors(); });
    connect(m_labelBox, &QComboBox::currentIndexChanged, this, [this] {
        updateNeighbourList();
        m_scatter->update();
        m_scatter3d->update();
    });
    connect(m_searchEdit, &QLineEdit::textChanged, this, [this](const QString& text) { setSearch(text); });
    connect(m_distanceBox, &QComboBox::currentIndexChanged, this, [this] { selectPoint(m_selected); });
    connect(m_kBox, &QSpinBox::valueChanged, this, [this] { selectPoint(m_selected); });
    connect(m_scatter, &ProjectorScatter::pointClicked, this, [this](int index) { selectPoint(index); });
    connect(m_neighbourList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { selectPoint(item->data(Qt::UserRole).toInt()); });
    connect(m_cancelButton, &QToolButton::clicked, this, [this] {
        if (isTsneRunning())
            stopTsne();
        else
            cancelPca();
    });
    connect(m_exportButton, &QToolButton::clicked, this, [this] { requestExport(); });
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] { pcaFinished(); });
    connect(&m_tsneWatcher, &QFutureWatcherBase::finished, this, [this] { tsneChunkFinished(); });
    connect(m_methodBox, &QComboBox::currentIndexChanged, this,
            [this] { setMethod(Method(m_methodBox->currentData().toInt())); });
    connect(m_runButton, &QToolButton::clicked, this, [this] {
        if (isTsneRunning())
            stopTsne();
        else
            runTsne();
    });
    connect(m_isolateButton, &QToolButton::clicked, this, [this] { isolateSelection(); });
    connect(m_showAllButton, &QToolButton::clicked, this, [this] { showAll(); });

    updateMethodControls();
    clear();
}

ProjectorPanel::~ProjectorPanel()
{
    // The tasks hold what they work on and report through the application object, so they are safe without
    // the panel; waiting keeps a run from going on unseen (or past the application's end). A chunk is kept
    // short, and the affinity phase checks the flag as it goes, so this wait is brief.
    if (m_cancel)
        m_cancel->store(true);
    if (m_tsneJob)
        m_tsneJob->cancel.store(true);
    m_watcher.waitForFinished();
    m_tsneWatcher.waitForFinished();
}

void ProjectorPanel::addEmbeddings(const std::vector<models::embeddings::EmbeddingSetPtr>& sets, const QString& run)
{
    const bool first = m_sets.empty();
    bool currentReplaced = false;
    {
        const QSignalBlocker blocker(m_setBox);
        for (const models::embeddings::EmbeddingSetPtr& set : sets) {
            if (!set)
                continue;
            const QString name = run.isEmpty() ? set->name : tr("%1 / %2").arg(run, set->name);
            const QString text = tr("%1 (%2 × %3)").arg(name).arg(set->rows).arg(set->dims);
            const auto same = std::find_if(m_sets.begin(), m_sets.end(), [&](const auto& held) {
                return held->name == set->name && held->source == set->source;
            });
            if (same != m_sets.end()) {
                const int index = int(same - m_sets.begin());
                *same = set;
                m_setBox->setItemText(index, text);
                currentReplaced = currentReplaced || index == m_setBox->currentIndex();
                continue;
            }
            m_sets.push_back(set);
            m_setBox->addItem(text);
        }
    }
    if (first && !m_sets.empty())
        setCurrentSet(0);
    else if (currentReplaced)
        setCurrentSet(m_setBox->currentIndex());
}

void ProjectorPanel::clear()
{
    cancelPca();
    cancelTsne();
    m_sets.clear();
    const QSignalBlocker blocker(m_setBox);
    m_setBox->clear();
    m_pca.reset();
    m_index.reset();
    m_view.reset();
    m_viewRows.clear();
    m_isolated = false;
    ++m_viewGeneration;
    m_tsneEmbedding.clear();
    m_tsneIteration = 0;
    m_tsneKl = 0.0;
    m_tsneNote.clear();
    m_selected = -1;
    m_neighbours.clear();
    m_scatter->setPoints({}, {});
    m_scatter3d->setPoints({});
    m_sheet = SpriteSheet();
    m_sheetPath.clear();
    updateSprites();
    m_status->setText(tr("No embeddings in this folder. Open a folder holding a projector_config.pbtxt "
                         "(TensorBoard's add_embedding writes one) or a VisualDL log with add_embeddings values."));
    updateVarianceText();
    updateNeighbourList();
    m_legend->clear();
    updateMethodControls();
}

models::embeddings::EmbeddingSetPtr ProjectorPanel::currentSet() const
{
    const int index = m_setBox->currentIndex();
    return index >= 0 && index < int(m_sets.size()) ? m_sets[std::size_t(index)] : nullptr;
}

void ProjectorPanel::setCurrentSet(int index)
{
    if (index < 0 || index >= int(m_sets.size()))
        return;
    if (m_setBox->currentIndex() != index) {
        m_setBox->setCurrentIndex(index); // comes back here through the signal
        return;
    }
    const models::embeddings::EmbeddingSetPtr set = m_sets[std::size_t(index)];
    {
        const QSignalBlocker colorBlocker(m_colorBox);
        const QSignalBlocker labelBlocker(m_labelBox);
        m_colorBox->clear();
        m_labelBox->clear();
        m_colorBox->addItem(tr("(none)"), -1);
        m_labelBox->addItem(tr("(index)"), -1);
        for (int c = 0; c < set->metadataColumns.size(); ++c) {
            m_colorBox->addItem(set->metadataColumns.at(c), c);
            m_labelBox->addItem(set->metadataColumns.at(c), c);
        }
        // A single column is what most folders have: colour and label by it at once.
        if (!set->metadataColumns.isEmpty()) {
            m_colorBox->setCurrentIndex(1);
            m_labelBox->setCurrentIndex(1);
        }
    }
    setView(set, {}, false);
}

void ProjectorPanel::setView(models::embeddings::EmbeddingSetPtr view, std::vector<int> rows, bool isolated)
{
    cancelPca();
    cancelTsne();
    m_index.reset(); // it refers to the old view
    m_view = std::move(view);
    m_viewRows = std::move(rows);
    m_isolated = isolated;
    ++m_viewGeneration;
    m_pca.reset();
    m_tsneEmbedding.clear();
    m_tsneIteration = 0;
    m_tsneKl = 0.0;
    m_tsneNote.clear();
    m_selected = -1;
    m_neighbours.clear();
    if (m_view)
        m_index = std::make_unique<models::embeddings::NeighbourIndex>(*m_view);
    m_scatter->setPoints({}, {});
    m_scatter3d->setPoints({});
    updateSprites();
    updateColors();
    updateNeighbourList();
    updateVarianceText();
    updateMethodControls();
    startReduction();
}

void ProjectorPanel::startReduction()
{
    if (!m_view)
        return;
    if (m_method == Method::Pca)
        startPca();
    else
        runTsne();
}

void ProjectorPanel::startPca()
{
    cancelPca();
    const models::embeddings::EmbeddingSetPtr set = m_view;
    if (!set)
        return;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    m_computingSet = m_viewGeneration;
    m_progressBar->setValue(0);
    m_progressBar->show();
    m_cancelButton->show();
    m_status->setText(tr("Computing principal components of %1 points…").arg(set->rows));
    QPointer<QProgressBar> bar = m_progressBar;
    models::embeddings::OperationControl control;
    control.cancel = m_cancel.get();
    control.progress = [bar](int permille) {
        QMetaObject::invokeMethod(
            bar,
            [bar, permille] {
                if (bar)
                    bar->setValue(permille);
            },
            Qt::QueuedConnection);
    };
    std::shared_ptr<std::atomic_bool> cancel = m_cancel;
    m_watcher.setFuture(QtConcurrent::run(models::workerPool(), [set, control, cancel] {
        // `cancel` keeps the flag alive while the computation reads it.
        Q_UNUSED(cancel);
        return models::embeddings::computePca(*set, kComponents, control);
    }));
}

void ProjectorPanel::cancelPca()
{
    if (m_cancel)
        m_cancel->store(true);
    if (m_watcher.isRunning()) {
        m_watcher.waitForFinished();
    }
    if (!isTsneRunning()) {
        m_progressBar->hide();
        m_cancelButton->hide();
    }
}

void ProjectorPanel::pcaFinished()
{
    if (!isTsneRunning()) {
        m_progressBar->hide();
        m_cancelButton->hide();
    }
    const bool canceled = m_cancel && m_cancel->load();
    if (m_computingSet != m_viewGeneration || !m_watcher.future().isValid())
        return;
    m_pca = m_watcher.future().result();
    if (!m_pca) {
        m_status->setText(canceled ? tr("Principal components cancelled.")
                                   : tr("The principal components could not be computed."));
        emit reductionFinished();
        return;
    }
    updateComponentChoices();
    if (m_method == Method::Pca) {
        updateScatterPoints();
        updateVarianceText();
        updateMarks();
    }
    emit reductionFinished();
}

void ProjectorPanel::setMethod(Method method)
{
    if (Method(m_methodBox->currentData().toInt()) != method) {
        m_methodBox->setCurrentIndex(m_methodBox->findData(int(method))); // comes back here through the signal
        return;
    }
    if (m_method == method)
        return;
    m_method = method;
    updateMethodControls();
    if (method == Method::Pca) {
        cancelTsne();
        if (m_pca) {
            updateScatterPoints();
            updateVarianceText();
        } else {
            m_scatter->setPoints({}, {});
            m_scatter3d->setPoints({});
            startPca();
        }
    } else {
        cancelPca();
        if (!m_tsneEmbedding.empty() && m_tsneDims == (m_threeD ? 3 : 2)) {
            showTsneEmbedding();
        } else {
            m_scatter->setPoints({}, {});
            m_scatter3d->setPoints({});
            runTsne();
        }
    }
    updateStatus();
}

void ProjectorPanel::updateMethodControls()
{
    const bool pca = m_method == Method::Pca;
    for (QWidget* widget : m_pcaWidgets)
        widget->setVisible(pca);
    m_zLabel->setVisible(pca && m_threeD);
    m_zBox->setVisible(pca && m_threeD);
    m_resetViewButton->setVisible(m_threeD);
    m_stack->setCurrentWidget(m_threeD ? static_cast<QWidget*>(m_scatter3d) : m_scatter);
    m_spritesButton->setEnabled(!m_sheet.isNull());
    m_spritesButton->setToolTip(m_sheet.isNull() ? tr("This embedding has no sprite image")
                                                 : tr("Draw each point as its image from the sprite sheet"));
    m_tsneControls->setVisible(!pca);
    const bool running = isTsneRunning();
    m_runButton->setText(running ? tr("Stop") : tr("Run"));
    m_runButton->setEnabled(m_view != nullptr);
    m_perplexityBox->setEnabled(!running);
    m_learningRateBox->setEnabled(!running);
    m_iterationsBox->setEnabled(!running);
    m_seedBox->setEnabled(!running);
    m_isolateButton->setEnabled(m_view != nullptr);
    m_showAllButton->setEnabled(m_isolated);
}

QString ProjectorPanel::statusText() const
{
    return m_status->text();
}

int ProjectorPanel::originalIndex(int viewIndex) const
{
    return viewIndex >= 0 && viewIndex < int(m_viewRows.size()) ? m_viewRows[std::size_t(viewIndex)] : viewIndex;
}

bool ProjectorPanel::isolateSelection()
{
    const models::embeddings::EmbeddingSetPtr set = currentSet();
    if (!set || !m_view)
        return false;
    std::vector<int> viewRows; // into the view
    if (!m_search.isEmpty() && m_searchValid && m_matchCount > 0) {
        const QRegularExpression expression(m_search, QRegularExpression::CaseInsensitiveOption);
        for (int i = 0; i < m_view->rows; ++i) {
            bool match = false;
            if (m_view->hasMetadata() && std::size_t(i) < m_view->metadata.size()) {
                for (const QString& cell : m_view->metadata[std::size_t(i)])
                    match = match || expression.match(cell).hasMatch();
            } else {
                match = expression.match(QString::number(originalIndex(i))).hasMatch();
            }
            if (match)
                viewRows.push_back(i);
        }
    } else if (m_selected >= 0) {
        viewRows.push_back(m_selected);
        for (const models::embeddings::Neighbour& n : m_neighbours)
            viewRows.push_back(n.index);
        std::sort(viewRows.begin(), viewRows.end());
    }
    if (viewRows.empty())
        return false;

    auto subset = std::make_shared<models::embeddings::EmbeddingSet>();
    subset->name = set->name;
    subset->source = set->source;
    subset->dims = set->dims;
    subset->rows = int(viewRows.size());
    subset->metadataColumns = set->metadataColumns;
    subset->values.reserve(viewRows.size() * std::size_t(set->dims));
    std::vector<int> originals;
    originals.reserve(viewRows.size());
    for (int row : viewRows) {
        const int original = originalIndex(row);
        originals.push_back(original);
        const float* values = set->row(original);
        subset->values.insert(subset->values.end(), values, values + set->dims);
        if (set->hasMetadata())
            subset->metadata.push_back(
                std::size_t(original) < set->metadata.size() ? set->metadata[std::size_t(original)] : QStringList());
    }
    // The sprite sheet is indexed by the original rows, so the subset goes without it.
    setView(std::move(subset), std::move(originals), true);
    return true;
}

void ProjectorPanel::showAll()
{
    const models::embeddings::EmbeddingSetPtr set = currentSet();
    if (!set || !m_isolated)
        return;
    setView(set, {}, false);
}

QVariantMap ProjectorPanel::saveState() const
{
    return { { QStringLiteral("dimensions"), m_threeD ? 3 : 2 }, { QStringLiteral("sprites"), m_showSprites } };
}

void ProjectorPanel::restoreState(const QVariantMap& state)
{
    if (state.contains(QStringLiteral("sprites")))
        setSpritesShown(state.value(QStringLiteral("sprites")).toBool());
    if (state.contains(QStringLiteral("dimensions")))
        setThreeD(state.value(QStringLiteral("dimensions")).toInt() == 3);
}

void ProjectorPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_fileNameProvider = std::move(provider);
}

bool ProjectorPanel::exportPng(const QString& fileName, QString* errorMessage) const
{
    const QWidget* shown = m_threeD ? static_cast<const QWidget*>(m_scatter3d) : m_scatter;
    const QSize size = shown->size().isEmpty() ? ChartExporter::kDefaultSize : shown->size();
    const QImage image = m_threeD ? m_scatter3d->render(size, ChartExporter::kPngScale)
                                  : m_scatter->render(size, ChartExporter::kPngScale);
    if (image.save(fileName, "PNG"))
        return true;
    if (errorMessage)
        *errorMessage = tr("Could not write %1.").arg(QDir::toNativeSeparators(fileName));
    return false;
}

void ProjectorPanel::requestExport()
{
    const models::embeddings::EmbeddingSetPtr set = currentSet();
    const QString base = ChartExportMenu::safeFileName(set ? set->name : QStringLiteral("projector"));
    QString directory = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (directory.isEmpty())
        directory = QDir::homePath();
    const QString suggested = QDir(directory).filePath(base + QStringLiteral(".png"));
    const QString fileName = m_fileNameProvider ? m_fileNameProvider(ChartExporter::Format::Png, suggested) : suggested;
    if (fileName.isEmpty())
        return;
    QString error;
    if (exportPng(fileName, &error))
        emit chartExported(fileName);
    else
        emit chartExportFailed(error);
}

} // namespace runlens::widgets::projector
