// The Projector panel: what the scatter shows — the components on its axes, the points, their colours, search
// and selection marks, the neighbour list, the status and variance texts, the 3-D choice and the sprites.

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

void ProjectorPanel::updateComponentChoices()
{
    const QSignalBlocker xBlocker(m_xBox);
    const QSignalBlocker yBlocker(m_yBox);
    const QSignalBlocker zBlocker(m_zBox);
    m_xBox->clear();
    m_yBox->clear();
    m_zBox->clear();
    if (!m_pca)
        return;
    for (int c = 0; c < m_pca->components; ++c) {
        const QString text
            = tr("PC%1 (%2%)").arg(c + 1).arg(m_pca->explainedVarianceRatio[std::size_t(c)] * 100.0, 0, 'f', 1);
        m_xBox->addItem(text, c);
        m_yBox->addItem(text, c);
        m_zBox->addItem(text, c);
    }
    m_xBox->setCurrentIndex(0);
    m_yBox->setCurrentIndex(std::min(1, m_pca->components - 1));
    m_zBox->setCurrentIndex(std::min(2, m_pca->components - 1));
}

void ProjectorPanel::setComponents(int x, int y)
{
    m_xBox->setCurrentIndex(x);
    m_yBox->setCurrentIndex(y);
}

void ProjectorPanel::setZComponent(int z)
{
    m_zBox->setCurrentIndex(z);
}

void ProjectorPanel::updateScatterPoints()
{
    if (!m_pca || m_method != Method::Pca)
        return;
    const int cx = std::max(0, m_xBox->currentIndex());
    const int cy = std::max(0, m_yBox->currentIndex());
    if (m_threeD) {
        // With fewer than three components (two-dimensional data) the missing axis stays flat at 0.
        const int cz = m_zBox->currentIndex();
        std::vector<float> xyz(std::size_t(m_pca->rows) * 3);
        for (int i = 0; i < m_pca->rows; ++i) {
            xyz[3 * std::size_t(i)] = m_pca->at(i, cx);
            xyz[3 * std::size_t(i) + 1] = m_pca->components > 1 ? m_pca->at(i, cy) : 0.0f;
            xyz[3 * std::size_t(i) + 2] = m_pca->components > 2 && cz >= 0 ? m_pca->at(i, cz) : 0.0f;
        }
        m_scatter3d->setPoints(std::move(xyz));
        m_scatter3d->setAxisTitles(m_xBox->currentText(), m_yBox->currentText(), m_zBox->currentText());
        updateMarks();
        return;
    }
    std::vector<float> xs(std::size_t(m_pca->rows));
    std::vector<float> ys(std::size_t(m_pca->rows));
    for (int i = 0; i < m_pca->rows; ++i) {
        xs[std::size_t(i)] = m_pca->at(i, cx);
        ys[std::size_t(i)] = m_pca->components > 1 ? m_pca->at(i, cy) : 0.0f;
    }
    m_scatter->setPoints(std::move(xs), std::move(ys));
    m_scatter->setAxisTitles(m_xBox->currentText(), m_yBox->currentText());
    updateMarks();
}

void ProjectorPanel::updateColors()
{
    const models::embeddings::EmbeddingSetPtr set = m_view;
    if (!set)
        return;
    const int column = m_colorBox->currentData().toInt();
    PointColors colors = colorPoints(*set, m_colorBox->currentIndex() > 0 ? column : -1);
    QString legend;
    if (colors.kind == PointColors::Kind::Categorical) {
        QStringList items;
        for (int c = 0; c < colors.categories.size(); ++c) {
            const QString name = colors.categories.at(c).isEmpty() ? tr("(empty)") : colors.categories.at(c);
            items.append(QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2")
                             .arg(colors.categoryColors.at(c).name(), name.toHtmlEscaped()));
        }
        legend = items.join(QStringLiteral("&nbsp;&nbsp; "));
    } else if (colors.kind == PointColors::Kind::Continuous) {
        legend = tr("%1: dark violet %2 … yellow %3")
                     .arg(m_colorBox->currentText().toHtmlEscaped())
                     .arg(colors.minimum, 0, 'g', 4)
                     .arg(colors.maximum, 0, 'g', 4);
    } else {
        legend = colors.note.toHtmlEscaped();
    }
    m_legend->setText(legend);
    m_scatter3d->setColors(colors.colors);
    m_scatter->setColors(std::move(colors.colors));
}

void ProjectorPanel::setColorColumn(int column)
{
    m_colorBox->setCurrentIndex(column + 1);
}

void ProjectorPanel::setLabelColumn(int column)
{
    m_labelBox->setCurrentIndex(column + 1);
}

void ProjectorPanel::setSearch(const QString& pattern)
{
    if (m_searchEdit->text() != pattern) {
        m_searchEdit->setText(pattern); // comes back here through the signal
        return;
    }
    m_search = pattern;
    updateMarks();
}

void ProjectorPanel::setDistance(models::embeddings::Distance distance)
{
    m_distanceBox->setCurrentIndex(m_distanceBox->findData(int(distance)));
}

void ProjectorPanel::setNeighbourCount(int k)
{
    m_kBox->setValue(k);
}

void ProjectorPanel::updateMarks()
{
    const models::embeddings::EmbeddingSetPtr set = m_view;
    if (!set)
        return;
    std::vector<quint8> marks(std::size_t(set->rows), ProjectorScatter::None);
    m_matchCount = 0;
    m_searchValid = true;
    const QRegularExpression expression(m_search, QRegularExpression::CaseInsensitiveOption);
    const bool searching = !m_search.isEmpty();
    if (searching && !expression.isValid()) {
        m_searchValid = false;
    } else if (searching) {
        for (int i = 0; i < set->rows; ++i) {
            bool match = false;
            if (set->hasMetadata()) {
                for (const QString& cell : set->metadata[std::size_t(i)])
                    match = match || expression.match(cell).hasMatch();
            } else {
                match = expression.match(QString::number(originalIndex(i))).hasMatch();
            }
            if (match) {
                marks[std::size_t(i)] |= ProjectorScatter::Match;
                ++m_matchCount;
            }
        }
    }
    for (const models::embeddings::Neighbour& n : m_neighbours)
        marks[std::size_t(n.index)] |= ProjectorScatter::Neighbour;
    if (m_selected >= 0 && m_selected < set->rows)
        marks[std::size_t(m_selected)] |= ProjectorScatter::Selected;
    const bool dim = (searching && m_searchValid) || m_selected >= 0;
    if (m_scatter3d->pointCount() == set->rows)
        m_scatter3d->setMarks(marks, dim);
    if (m_scatter->pointCount() == set->rows)
        m_scatter->setMarks(std::move(marks), dim);
    m_searchError = searching && !m_searchValid ? expression.errorString() : QString();
    updateStatus();
}

void ProjectorPanel::updateStatus()
{
    const models::embeddings::EmbeddingSetPtr set = m_view;
    if (!set)
        return;
    QString status = tr("%1 points × %2 dimensions").arg(set->rows).arg(set->dims);
    if (m_isolated)
        status += QStringLiteral(" · ") + tr("isolated from %1").arg(currentSet() ? currentSet()->rows : 0);
    if (!m_search.isEmpty() && !m_searchValid)
        status += QStringLiteral(" · ") + tr("invalid regular expression: %1").arg(m_searchError);
    else if (!m_search.isEmpty())
        status += QStringLiteral(" · ") + tr("%1 matches").arg(m_matchCount);
    if (m_method == Method::Tsne && !m_tsneNote.isEmpty())
        status += QStringLiteral(" · ") + m_tsneNote;
    m_status->setText(status);
}

void ProjectorPanel::selectPoint(int index)
{
    const models::embeddings::EmbeddingSetPtr set = m_view;
    m_neighbours.clear();
    m_selected = set && index >= 0 && index < set->rows ? index : -1;
    if (m_selected >= 0 && m_index) {
        const auto distance = models::embeddings::Distance(m_distanceBox->currentData().toInt());
        m_neighbours = m_index->nearest(m_selected, m_kBox->value(), distance);
    }
    updateNeighbourList();
    updateMarks();
}

QString ProjectorPanel::labelFor(int index) const
{
    const models::embeddings::EmbeddingSetPtr set = m_view;
    if (!set)
        return {};
    const int column = m_labelBox->currentData().toInt();
    const QString cell = m_labelBox->currentIndex() > 0 ? set->cell(index, column) : QString();
    return cell.isEmpty() ? tr("#%1").arg(originalIndex(index)) : cell;
}

void ProjectorPanel::updateNeighbourList()
{
    m_neighbourList->clear();
    if (m_selected < 0) {
        m_neighbourTitle->setText(tr("Click a point to list its nearest neighbours."));
        return;
    }
    m_neighbourTitle->setText(
        tr("Nearest to %1 (#%2), in the original space:").arg(labelFor(m_selected)).arg(originalIndex(m_selected)));
    for (const models::embeddings::Neighbour& n : m_neighbours) {
        auto* item = new QListWidgetItem(
            tr("%1 (#%2) — %3").arg(labelFor(n.index)).arg(originalIndex(n.index)).arg(n.distance, 0, 'g', 4),
            m_neighbourList);
        item->setData(Qt::UserRole, n.index);
    }
}

void ProjectorPanel::updateVarianceText()
{
    if (m_method == Method::Tsne) {
        if (m_tsneEmbedding.empty() && !isTsneRunning()) {
            m_variance->clear();
            return;
        }
        m_variance->setText(tr("<b>t-SNE</b><br>Iteration: %1 / %2<br>KL divergence: %3")
                                .arg(m_tsneIteration)
                                .arg(m_tsneTotal)
                                .arg(m_tsneKl, 0, 'f', 4));
        return;
    }
    if (!m_pca) {
        m_variance->clear();
        return;
    }
    QStringList lines;
    double total = 0.0;
    for (int c = 0; c < m_pca->components; ++c) {
        const double ratio = m_pca->explainedVarianceRatio[std::size_t(c)];
        total += ratio;
        lines.append(tr("PC%1: %2%").arg(c + 1).arg(ratio * 100.0, 0, 'f', 2));
    }
    m_variance->setText(tr("<b>Explained variance</b> (top %1: %2%)<br>%3")
                            .arg(m_pca->components)
                            .arg(total * 100.0, 0, 'f', 1)
                            .arg(lines.join(QStringLiteral("<br>"))));
}

void ProjectorPanel::setThreeD(bool threeD)
{
    if (m_dimensionsBox->currentData().toInt() != (threeD ? 3 : 2)) {
        m_dimensionsBox->setCurrentIndex(m_dimensionsBox->findData(threeD ? 3 : 2)); // back through the signal
        return;
    }
    if (m_threeD == threeD)
        return;
    m_threeD = threeD;
    updateMethodControls();
    if (!m_view)
        return;
    if (m_method == Method::Pca) {
        updateScatterPoints();
    } else if (!m_tsneEmbedding.empty() && m_tsneDims == (threeD ? 3 : 2) && !isTsneRunning()) {
        showTsneEmbedding();
    } else {
        // A layout has as many dimensions as its run had: the other view needs a run of its own.
        runTsne();
    }
    updateColors();
    updateMarks();
}

void ProjectorPanel::setSpritesShown(bool shown)
{
    if (m_spritesButton->isChecked() != shown) {
        m_spritesButton->setChecked(shown); // back through the signal
        return;
    }
    m_showSprites = shown;
    m_scatter->setShowSprites(shown);
    m_scatter3d->setShowSprites(shown);
}

void ProjectorPanel::updateSprites()
{
    const models::embeddings::EmbeddingSetPtr set = currentSet();
    const QString path = set && set->hasSprite() ? set->spritePath : QString();
    if (path != m_sheetPath || (set && m_sheet.cellSize() != set->spriteImageSize)) {
        m_sheetPath = path;
        m_sheet = path.isEmpty() ? SpriteSheet() : SpriteSheet::load(path, set->spriteImageSize);
    }
    std::vector<int> cells;
    if (!m_sheet.isNull() && m_view) {
        // The sheet is indexed by the rows of the whole set, also when a subset is isolated.
        cells.resize(std::size_t(m_view->rows));
        for (int i = 0; i < m_view->rows; ++i)
            cells[std::size_t(i)] = originalIndex(i);
    }
    m_scatter->setSprites(m_sheet, cells);
    m_scatter3d->setSprites(m_sheet, std::move(cells));
    m_scatter->setShowSprites(m_showSprites);
    m_scatter3d->setShowSprites(m_showSprites);
    updateMethodControls();
}

} // namespace runlens::widgets::projector
