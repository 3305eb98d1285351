#pragma once

#include "models/tensor/tensor.h"
#include "widgets/common/colormap.h"

#include <QAbstractScrollArea>
#include <QImage>

#include <cstdint>
#include <utility>

namespace runlens::widgets::tensor {

/// A rank 1 or 2 tensor view drawn as coloured cells, one per element: a vector is one row. The picture
/// of all elements (one pixel each) is built once per tensor, range and colour map and then only the
/// visible part is scaled onto the screen, so zooming and panning cost nothing per element.
/// NaN is drawn magenta; +Inf and -Inf take the ends of the map with a marker dot.
class HeatmapView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    enum class Scale {
        Slice, ///< the range is the finite min/max of the shown view
        Fixed, ///< the range set with setFixedRange (e.g. the whole tensor's min/max)
    };

    explicit HeatmapView(QWidget* parent = nullptr);
    ~HeatmapView() override;

    /// Shows `view` (rank 1 or 2; anything else shows nothing).
    void setTensor(const models::tensor::Tensor& view);
    const models::tensor::Tensor& tensor() const { return m_tensor; }
    void setColorMap(ColorMap map);
    ColorMap colorMap() const { return m_colorMap; }
    void setScale(Scale scale);
    Scale scale() const { return m_scale; }
    void setFixedRange(double lo, double hi);

    /// Screen pixels (device-independent) per element.
    void setZoom(double pixelsPerElement);
    double zoom() const { return m_zoom; }
    void zoomToFit();
    /// One element per device pixel.
    void zoomToPixels();

    /// One pixel per element, for export.
    QImage renderImage() const;
    /// A colour bar with the shown range's ends written under it.
    QImage colorLegend() const;
    /// The range the colours span: the diverging map's range is symmetric around 0.
    std::pair<double, double> shownRange() const;
    /// Why the current tensor is not drawn (wrong rank, too large), or empty.
    QString message() const { return m_message; }

    std::int64_t rows() const { return m_rows; }
    std::int64_t columns() const { return m_columns; }
    /// The element under a viewport position, or false outside the picture.
    bool elementAt(QPoint viewportPos, std::int64_t* row, std::int64_t* column) const;
    /// The viewport position of the centre of an element.
    QPointF elementCenter(std::int64_t row, std::int64_t column) const;

    static QRgb nanColor();
    static QRgb infMarkerColor();

signals:
    /// The element under the mouse changed; row and column index the view (a vector is row 0).
    void hovered(std::int64_t row, std::int64_t col, double value);
    /// The mouse left the picture.
    void hoverLeft();
    void zoomChanged(double pixelsPerElement);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void invalidateImage();
    void ensureImage() const;
    void updateScrollBars();
    void setZoomAround(double pixelsPerElement, QPointF viewportPos);
    double elementValue(std::int64_t row, std::int64_t column) const;
    void updateHover(QPoint viewportPos);
    void clearHover();
    void computeSliceRange() const;
    QPointF origin() const;
    std::int64_t rowStride() const;
    std::int64_t columnStride() const;
    bool isFastFloat() const;

    models::tensor::Tensor m_tensor;
    std::int64_t m_rows = 0;
    std::int64_t m_columns = 0;
    ColorMap m_colorMap = ColorMap::Viridis;
    Scale m_scale = Scale::Slice;
    double m_fixedLo = 0;
    double m_fixedHi = 1;
    double m_zoom = 1;
    mutable QImage m_image;
    mutable bool m_imageValid = false;
    mutable bool m_sliceRangeValid = false;
    mutable double m_sliceLo = 0;
    mutable double m_sliceHi = 0;
    bool m_dragging = false;
    QPoint m_dragStart;
    QPoint m_dragScrollStart;
    std::int64_t m_hoverRow = -1;
    std::int64_t m_hoverColumn = -1;
    QString m_overlayText;
    QString m_message; ///< why nothing is drawn for the current tensor
    QPoint m_overlayPos;
};

} // namespace runlens::widgets::tensor
