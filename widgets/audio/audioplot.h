#pragma once

#include "models/summary/spectrogram.h"
#include "models/summary/wavdecode.h"

#include <QImage>
#include <QWidget>

#include <vector>

namespace runlens::widgets::audio {

/// The picture of one audio clip: its waveform on top (per channel, the smallest and largest sample under
/// each pixel column) and its spectrogram below (power in dB over time and frequency, Viridis), both drawn
/// here from the decoded samples, with a play-position cursor. A click asks to play from that point.
class AudioPlot final : public QWidget
{
    Q_OBJECT
public:
    explicit AudioPlot(QWidget* parent = nullptr);

    /// Takes a decoded clip (an empty one clears the plot) and computes its spectrogram.
    void setClip(const models::summary::wav::Clip& clip);
    bool hasClip() const { return m_frames > 0; }
    const models::summary::Spectrogram& spectrogram() const { return m_spectrogram; }

    /// The play position in seconds, or a negative value for none.
    void setPlayPosition(double seconds);
    double playPosition() const { return m_cursor; }

    /// Where the waveform and spectrogram are drawn (widget coordinates), for tests.
    QRect waveformRect() const;
    QRect spectrogramRect() const;
    /// Room left of the plots for the frequency labels.
    int leftMargin() const;

    static constexpr double kFloorDb = -100.0; ///< the bottom of the colour scale
    static constexpr double kTopDb = 0.0;

    QSize sizeHint() const override { return { 320, 200 }; }
    QSize minimumSizeHint() const override { return { 120, 100 }; }

signals:
    /// The user clicked at this time of the clip.
    void seekRequested(double seconds);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    void computeColumns(int width);
    void renderSpectrogram();

    std::vector<float> m_samples; ///< interleaved, as decoded
    int m_channels = 0;
    qint64 m_frames = 0;
    int m_sampleRate = 0;
    double m_cursor = -1.0;
    models::summary::Spectrogram m_spectrogram;
    QImage m_spectrogramImage; ///< one pixel per frame and bin, low frequencies at the bottom
    /// min and max per pixel column per channel: [channel][column * 2 + 0/1]
    std::vector<std::vector<float>> m_columns;
    int m_columnsWidth = -1;
};

} // namespace runlens::widgets::audio
