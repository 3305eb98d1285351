#pragma once

#include <QImage>
#include <QRect>
#include <QSize>
#include <QString>

namespace runlens::widgets::projector {

/// A TensorBoard sprite sheet: one image holding a thumbnail per point, `cellSize` each, laid out row by
/// row from the top left (point i in column i % columns, row i / columns), as `add_embedding(label_img=...)`
/// writes it.
class SpriteSheet
{
public:
    SpriteSheet() = default;
    SpriteSheet(QImage sheet, QSize cellSize);
    /// Reads the sheet at `path`; null when it cannot be read or the cell size does not fit in it.
    static SpriteSheet load(const QString& path, QSize cellSize);

    bool isNull() const { return m_columns <= 0; }
    const QImage& image() const { return m_sheet; }
    QSize cellSize() const { return m_cell; }
    int columns() const { return m_columns; }
    /// How many whole cells the sheet holds.
    int capacity() const { return m_columns * m_rows; }
    /// Where the thumbnail of point `index` is in the sheet; empty when the sheet has no such cell.
    QRect cellRect(int index) const;
    /// The thumbnail of point `index` (a copy of its cell); null when there is none.
    QImage cell(int index) const;

private:
    QImage m_sheet;
    QSize m_cell;
    int m_columns = 0;
    int m_rows = 0;
};

} // namespace runlens::widgets::projector
