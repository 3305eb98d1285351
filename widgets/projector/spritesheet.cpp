#include "widgets/projector/spritesheet.h"

#include <QImageReader>

namespace runlens::widgets::projector {

namespace {

// A larger sheet is refused rather than decoded: 8192² is the most TensorBoard itself accepts.
constexpr int kMaxSheetSide = 16384;

} // namespace

SpriteSheet::SpriteSheet(QImage sheet, QSize cellSize)
    : m_sheet(std::move(sheet))
    , m_cell(cellSize)
{
    if (m_sheet.isNull() || cellSize.width() <= 0 || cellSize.height() <= 0)
        return;
    m_columns = m_sheet.width() / cellSize.width();
    m_rows = m_sheet.height() / cellSize.height();
    if (m_columns <= 0 || m_rows <= 0) {
        m_columns = 0;
        m_rows = 0;
        return;
    }
    // Painting scaled thumbnails needs a format QPainter draws fast; alpha is kept for transparent sprites.
    m_sheet = m_sheet.convertToFormat(QImage::Format_ARGB32_Premultiplied);
}

SpriteSheet SpriteSheet::load(const QString& path, QSize cellSize)
{
    QImageReader reader(path);
    const QSize size = reader.size();
    if (size.width() > kMaxSheetSide || size.height() > kMaxSheetSide)
        return {};
    return SpriteSheet(reader.read(), cellSize);
}

QRect SpriteSheet::cellRect(int index) const
{
    if (index < 0 || index >= capacity())
        return {};
    return QRect((index % m_columns) * m_cell.width(), (index / m_columns) * m_cell.height(), m_cell.width(),
                 m_cell.height());
}

QImage SpriteSheet::cell(int index) const
{
    const QRect rect = cellRect(index);
    return rect.isEmpty() ? QImage() : m_sheet.copy(rect);
}

} // namespace runlens::widgets::projector
