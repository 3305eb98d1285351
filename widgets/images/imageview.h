#pragma once

#include <QImage>
#include <QList>
#include <QWidget>

namespace runlens::widgets::images {

/// Shows the images of one step side by side, scaled by a zoom factor or fitted to the widget. Pixels
/// stay sharp when magnified (no smoothing above 1:1), so a 28x28 digit reads as its pixels. Ctrl+wheel
/// zooms; the mouse position reports the pixel under it (of the original, not the displayed, image).
/// In fit mode the widget takes the size its owner gives it; otherwise its size is the images' size at
/// the zoom, for a scroll area around it.
class ImageView final : public QWidget
{
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);

    /// `shown` are painted; `originals` (same count, or empty to use `shown`) give the hovered pixel values.
    void setImages(const QList<QImage>& shown, const QList<QImage>& originals = {});
    QList<QImage> shownImages() const { return m_shown; }
    int imageCount() const { return int(m_shown.size()); }

    /// Fit: the largest scale (up to kMaxFitScale) at which every image fits the widget.
    void setFitToView(bool fit);
    bool fitToView() const { return m_fit; }
    /// A fixed scale (1.0 is the real size); leaves fit mode.
    void setZoom(double zoom);
    /// The scale the images are painted at now.
    double effectiveZoom() const;
    void zoomIn();
    void zoomOut();

    /// Where image `index` is painted, in widget coordinates.
    QRect imageRect(int index) const;
    /// The image index and pixel under a widget position, or index -1.
    std::pair<int, QPoint> pixelAt(QPoint position) const;
    /// The picture as painted (images at the current zoom on the widget's background).
    QImage renderedImage() const;

    QSize sizeHint() const override;
    QSize contentSize(double zoom) const;

    static constexpr double kMinZoom = 1.0 / 16.0;
    static constexpr double kMaxZoom = 64.0;
    static constexpr double kMaxFitScale = 8.0;
    static constexpr double kZoomStep = 1.25;
    static constexpr int kGap = 8;
    static constexpr int kMargin = 4;

signals:
    /// The zoom or fit mode changed (from the wheel, the buttons or the setters).
    void zoomChanged();
    /// The pixel under the mouse: a description such as "image 2 · x 3, y 7 · R 12 G 200 B 3", empty when
    /// the mouse left the images.
    void hovered(const QString& description);
    /// A paint found the widget visible: the owner may now decode what it shows.
    void exposed();

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void updateGeometryForZoom();

    QList<QImage> m_shown;
    QList<QImage> m_originals;
    bool m_fit = true;
    double m_zoom = 1.0;
};

} // namespace runlens::widgets::images
