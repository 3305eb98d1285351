#pragma once

#include "models/cluster/rankstepmatrix.h"
#include "widgets/common/colormap.h"

#include <QImage>
#include <QSize>

#include <cstdint>
#include <memory>
#include <vector>

namespace runlens::widgets::cluster {

/// The picture of a rank × step matrix: one pixel per (row, step) in the display order of the rows, the
/// value's level on the colour map's 255 steps from the matrix's low to its high (level 0: no value, drawn
/// grey). Built on a worker; rendered() makes the picture at the size the widget paints so painting is a
/// blit. Shrinking keeps each pixel's largest level, so a slow rank or step never falls between pixels.
class RankStepImage
{
public:
    RankStepImage() = default;
    RankStepImage(std::shared_ptr<const models::cluster::RankStepMatrix> matrix, std::vector<int> rowOrder,
                  ColorMap map = ColorMap::Viridis);

    const models::cluster::RankStepMatrix* matrix() const { return m_matrix.get(); }
    std::shared_ptr<const models::cluster::RankStepMatrix> sharedMatrix() const { return m_matrix; }
    bool isEmpty() const { return !m_matrix || m_matrix->isEmpty(); }
    int rowCount() const { return int(m_rowOrder.size()); }
    int columnCount() const { return m_matrix ? m_matrix->columnCount() : 0; }
    ColorMap colorMap() const { return m_map; }
    /// The matrix row shown at display row `row`.
    int matrixRow(int row) const { return m_rowOrder[std::size_t(row)]; }
    /// The display row of rank `rank`, or -1.
    int displayRowOfRank(int rank) const;
    /// The value at display row `row`, column `column` (ms, NaN when none).
    double value(int row, int column) const;
    /// The level of display row `row`, column `column`: 0 for no value, else 1..255.
    std::uint8_t level(int row, int column) const
    {
        return m_levels[std::size_t(row) * std::size_t(columnCount()) + std::size_t(column)];
    }
    /// The level of `value` on a scale from `low` to `high` (1..255; 0 for NaN).
    static std::uint8_t levelOf(double value, double low, double high);
    /// The colour of a level.
    QRgb colorOfLevel(std::uint8_t level) const { return m_colors[level]; }
    /// The colour of `value` on this image's scale.
    QRgb colorOf(double value) const;

    /// One pixel per cell (columns × rows), Indexed8 with the colour table.
    QImage image() const;
    /// The picture at `size`: each pixel the largest level of the cells it covers (nearest cell when
    /// enlarging). Thread-safe.
    QImage rendered(QSize size) const;

private:
    std::shared_ptr<const models::cluster::RankStepMatrix> m_matrix;
    std::vector<int> m_rowOrder;
    std::vector<std::uint8_t> m_levels; ///< display rows × columns
    ColorMap m_map = ColorMap::Viridis;
    QList<QRgb> m_colors;
};

} // namespace runlens::widgets::cluster
