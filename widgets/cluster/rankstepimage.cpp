#include "widgets/cluster/rankstepimage.h"

#include <algorithm>
#include <cmath>

namespace runlens::widgets::cluster {

namespace {

/// Level 0 marks a cell without a value: a neutral grey that no colour map uses for values.
constexpr QRgb kMissingColor = 0xffd8d8d8u;

} // namespace

RankStepImage::RankStepImage(std::shared_ptr<const models::cluster::RankStepMatrix> matrix, std::vector<int> rowOrder,
                             ColorMap map)
    : m_matrix(std::move(matrix))
    , m_rowOrder(std::move(rowOrder))
    , m_map(map)
{
    const auto& table = colorTable(map);
    m_colors.reserve(256);
    m_colors << kMissingColor;
    // Levels 1..255 spread over the whole table, so both ends of the map are used.
    for (int level = 1; level < 256; ++level)
        m_colors << table[std::size_t(std::lround((level - 1) * 255.0 / 254.0))];
    if (!m_matrix)
        return;
    if (m_rowOrder.size() != m_matrix->ranks.size()) {
        m_rowOrder.resize(m_matrix->ranks.size());
        for (std::size_t i = 0; i < m_rowOrder.size(); ++i)
            m_rowOrder[i] = int(i);
    }
    const std::size_t columns = std::size_t(m_matrix->columnCount());
    m_levels.resize(m_rowOrder.size() * columns);
    for (std::size_t row = 0; row < m_rowOrder.size(); ++row) {
        const float* values = m_matrix->values.data() + std::size_t(m_rowOrder[row]) * columns;
        std::uint8_t* levels = m_levels.data() + row * columns;
        for (std::size_t c = 0; c < columns; ++c)
            levels[c] = levelOf(values[c], m_matrix->low, m_matrix->high);
    }
}

int RankStepImage::displayRowOfRank(int rank) const
{
    if (!m_matrix)
        return -1;
    const int matrixRow = m_matrix->rowOfRank(rank);
    const auto it = std::find(m_rowOrder.begin(), m_rowOrder.end(), matrixRow);
    return matrixRow < 0 || it == m_rowOrder.end() ? -1 : int(it - m_rowOrder.begin());
}

double RankStepImage::value(int row, int column) const
{
    return m_matrix->value(matrixRow(row), column);
}

std::uint8_t RankStepImage::levelOf(double value, double low, double high)
{
    if (!std::isfinite(value))
        return 0;
    if (!(high > low))
        return 128;
    const double t = std::clamp((value - low) / (high - low), 0.0, 1.0);
    return std::uint8_t(1 + std::lround(t * 254.0));
}

QRgb RankStepImage::colorOf(double value) const
{
    return m_matrix ? colorOfLevel(levelOf(value, m_matrix->low, m_matrix->high)) : kMissingColor;
}

QImage RankStepImage::image() const
{
    const int rows = rowCount();
    const int columns = columnCount();
    if (rows == 0 || columns == 0)
        return {};
    QImage image(columns, rows, QImage::Format_Indexed8);
    image.setColorTable(m_colors);
    for (int y = 0; y < rows; ++y)
        std::copy_n(m_levels.data() + std::size_t(y) * std::size_t(columns), columns, image.scanLine(y));
    return image;
}

QImage RankStepImage::rendered(QSize size) const
{
    const int rows = rowCount();
    const int columns = columnCount();
    if (rows == 0 || columns == 0 || size.isEmpty())
        return {};
    const int width = size.width();
    const int height = size.height();
    // Rows first: one line of `columns` levels per output row, the largest of the rows it covers.
    std::vector<std::uint8_t> byRow(std::size_t(height) * std::size_t(columns));
    for (int y = 0; y < height; ++y) {
        int first = int(std::int64_t(y) * rows / height);
        const int last = std::max(first + 1, int(std::int64_t(y + 1) * rows / height));
        std::uint8_t* out = byRow.data() + std::size_t(y) * std::size_t(columns);
        std::copy_n(m_levels.data() + std::size_t(first) * std::size_t(columns), columns, out);
        for (int r = first + 1; r < last; ++r) {
            const std::uint8_t* in = m_levels.data() + std::size_t(r) * std::size_t(columns);
            for (int c = 0; c < columns; ++c)
                out[c] = std::max(out[c], in[c]);
        }
    }
    std::vector<int> firstColumn(std::size_t(width) + 1);
    for (int x = 0; x <= width; ++x)
        firstColumn[std::size_t(x)] = int(std::int64_t(x) * columns / width);
    QImage image(width, height, QImage::Format_RGB32);
    for (int y = 0; y < height; ++y) {
        const std::uint8_t* in = byRow.data() + std::size_t(y) * std::size_t(columns);
        auto* out = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < width; ++x) {
            const int first = firstColumn[std::size_t(x)];
            const int last = std::max(first + 1, firstColumn[std::size_t(x) + 1]);
            std::uint8_t level = in[first];
            for (int c = first + 1; c < last; ++c)
                level = std::max(level, in[c]);
            out[x] = m_colors[level];
        }
    }
    return image;
}

} // namespace runlens::widgets::cluster
