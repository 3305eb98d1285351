#include "widgets/audio/audioplot.h"

#include "widgets/common/colormap.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <bit>
#include <cmath>

namespace runlens::widgets::audio {

namespace {

constexpr int kMinLeftMargin = 44; ///< room for the frequency labels in small fonts
constexpr int kBottomMargin = 16; ///< room for the time labels
constexpr int kGap = 6;

QString frequencyLabel(double hz)
{
    return hz >= 1000.0 ? QStringLiteral("%1 kHz").arg(hz / 1000.0, 0, 'g', 3)
                        : QStringLiteral("%1 Hz").arg(hz, 0, 'f', 0);
}

} // namespace

AudioPlot::AudioPlot(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("audioPlot"));
    setToolTip(tr("Waveform (top) and spectrogram (bottom) of the clip; click to play from that point"));
}

void AudioPlot::setClip(const models::summary::wav::Clip& clip)
{
    m_samples = clip.samples;
    m_channels = clip.header.channels;
    m_frames = clip.samples.empty() ? 0 : clip.header.frames;
    m_sampleRate = clip.header.sampleRate;
    m_columnsWidth = -1;
    m_columns.clear();
    // The spectrogram of the channels' mean: what a listener hears of a stereo clip on one speaker.
    std::vector<float> mono(std::size_t(m_frames), 0.0f);
    for (qint64 f = 0; f < m_frames; ++f) {
        float sum = 0.0f;
        for (int c = 0; c < m_channels; ++c)
            sum += m_samples[size_t(f * m_channels + c)];
        mono[size_t(f)] = m_channels > 0 ? sum / float(m_channels) : 0.0f;
    }
    // Short clips get a short window, so that the picture keeps some time resolution (a quarter-second clip
    // would be a dozen columns wide with a 512-sample window); long ones up to 1024 samples for frequency detail.
    const int window
        = int(std::clamp<qint64>(qint64(std::bit_floor(quint64(std::max<qint64>(1, m_frames / 16)))), 128, 1024));
    m_spectrogram = m_frames > 0 ? models::summary::computeSpectrogram(mono.data(), m_frames, m_sampleRate, window, 800)
                                 : models::summary::Spectrogram();
    renderSpectrogram();
    update();
}

void AudioPlot::renderSpectrogram()
{
    m_spectrogramImage = QImage();
    if (m_spectrogram.frames == 0)
        return;
    const auto& table = colorTable(ColorMap::Viridis);
    QImage image(m_spectrogram.frames, m_spectrogram.bins, QImage::Format_RGB32);
    for (int bin = 0; bin < m_spectrogram.bins; ++bin) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(m_spectrogram.bins - 1 - bin));
        for (int frame = 0; frame < m_spectrogram.frames; ++frame) {
            const double t = (m_spectrogram.at(frame, bin) - kFloorDb) / (kTopDb - kFloorDb);
            line[frame] = table[size_t(std::clamp(int(t * 255.0 + 0.5), 0, 255))];
        }
    }
    m_spectrogramImage = image;
}

void AudioPlot::setPlayPosition(double seconds)
{
    if (seconds == m_cursor)
        return;
    m_cursor = seconds;
    update();
}

int AudioPlot::leftMargin() const
{
    // The widest frequency label ("22.1 kHz") must fit beside the spectrogram in the font in use.
    return std::max(kMinLeftMargin, fontMetrics().horizontalAdvance(QStringLiteral("00.0 kHz")) + 8);
}

QRect AudioPlot::waveformRect() const
{
    const QRect area = rect().adjusted(leftMargin(), 2, -2, -kBottomMargin);
    const int height = std::max(20, int((area.height() - kGap) * 0.4));
    return QRect(area.left(), area.top(), area.width(), height);
}

QRect AudioPlot::spectrogramRect() const
{
    const QRect area = rect().adjusted(leftMargin(), 2, -2, -kBottomMargin);
    const QRect wave = waveformRect();
    return QRect(area.left(), wave.bottom() + 1 + kGap, area.width(),
                 std::max(1, area.bottom() - wave.bottom() - kGap));
}

void AudioPlot::computeColumns(int width)
{
    m_columnsWidth = width;
    m_columns.assign(size_t(m_channels), std::vector<float>(size_t(std::max(0, width)) * 2, 0.0f));
    if (width <= 0 || m_frames <= 0)
        return;
    for (int x = 0; x < width; ++x) {
        const qint64 begin = m_frames * x / width;
        const qint64 end = std::max(begin + 1, m_frames * (x + 1) / width);
        for (int c = 0; c < m_channels; ++c) {
            float lo = 1.0f;
            float hi = -1.0f;
            for (qint64 f = begin; f < end && f < m_frames; ++f) {
                const float v = m_samples[size_t(f * m_channels + c)];
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            m_columns[size_t(c)][size_t(x) * 2] = lo;
            m_columns[size_t(c)][size_t(x) * 2 + 1] = hi;
        }
    }
}

void AudioPlot::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_columnsWidth = -1;
}

void AudioPlot::paintEvent(QPaintEvent* event)
{
    Q_UNUSED(event)
    QPainter painter(this);
    const QRect wave = waveformRect();
    const QRect spec = spectrogramRect();
    painter.fillRect(wave, palette().color(QPalette::Base));
    const QColor muted = palette().color(QPalette::PlaceholderText);
    if (m_frames <= 0) {
        painter.setPen(muted);
        painter.drawText(wave.united(spec), Qt::AlignCenter, tr("No clip to show"));
        return;
    }
    if (m_columnsWidth != wave.width())
        computeColumns(wave.width());

    // Waveform: one lane per channel, a zero line and the min..max extent of each pixel column.
    const QColor ink = palette().color(QPalette::Highlight);
    const int lanes = std::max(1, m_channels);
    const double laneHeight = double(wave.height()) / lanes;
    for (int c = 0; c < m_channels; ++c) {
        const double top = wave.top() + c * laneHeight;
        const double mid = top + laneHeight / 2.0;
        const double half = laneHeight / 2.0 - 1.0;
        painter.setPen(QPen(muted, 0, Qt::DotLine));
        painter.drawLine(QPointF(wave.left(), mid), QPointF(wave.right(), mid));
        painter.setPen(QPen(ink, 1));
        const std::vector<float>& columns = m_columns[size_t(c)];
        for (int x = 0; x < wave.width(); ++x) {
            const double y0 = mid - columns[size_t(x) * 2 + 1] * half;
            const double y1 = mid - columns[size_t(x) * 2] * half;
            painter.drawLine(QPointF(wave.left() + x + 0.5, y0),
                             QPointF(wave.left() + x + 0.5, std::max(y1, y0 + 1.0)));
        }
        if (m_channels > 1) {
            painter.setPen(muted);
            painter.drawText(QRectF(0, top, leftMargin() - 4, laneHeight), Qt::AlignRight | Qt::AlignVCenter,
                             m_channels == 2 ? (c == 0 ? tr("L") : tr("R")) : tr("ch %1").arg(c + 1));
        }
    }

    // Spectrogram, scaled to its rectangle, with the frequency axis on the left.
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.drawImage(spec, m_spectrogramImage);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.setPen(muted);
    const double nyquist = m_sampleRate / 2.0;
    const QFontMetrics metrics = fontMetrics();
    painter.drawText(QRect(0, spec.top() - 2, leftMargin() - 4, metrics.height()), Qt::AlignRight | Qt::AlignTop,
                     frequencyLabel(nyquist));
    painter.drawText(QRect(0, spec.center().y() - metrics.height() / 2, leftMargin() - 4, metrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, frequencyLabel(nyquist / 2.0));
    painter.drawText(QRect(0, spec.bottom() - metrics.height() + 2, leftMargin() - 4, metrics.height()),
                     Qt::AlignRight | Qt::AlignBottom, frequencyLabel(0.0));

    // Time axis under both.
    const double duration = double(m_frames) / m_sampleRate;
    const QRect timeRow(wave.left(), spec.bottom() + 2, wave.width(), kBottomMargin - 2);
    painter.drawText(timeRow, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("0 s"));
    painter.drawText(timeRow, Qt::AlignRight | Qt::AlignVCenter,
                     tr("%1 s").arg(duration, 0, 'f', duration < 10 ? 2 : 1));

    if (m_cursor >= 0.0 && duration > 0.0) {
        const double x = wave.left() + std::clamp(m_cursor / duration, 0.0, 1.0) * (wave.width() - 1);
        painter.setPen(QPen(palette().color(QPalette::Text), 1));
        painter.drawLine(QPointF(x, wave.top()), QPointF(x, spec.bottom()));
    }
}

void AudioPlot::mousePressEvent(QMouseEvent* event)
{
    const QRect wave = waveformRect();
    if (m_frames <= 0 || event->button() != Qt::LeftButton || wave.width() <= 1
        || event->position().x() < wave.left()) {
        QWidget::mousePressEvent(event);
        return;
    }
    const double fraction = std::clamp((event->position().x() - wave.left()) / (wave.width() - 1), 0.0, 1.0);
    emit seekRequested(fraction * double(m_frames) / m_sampleRate);
}

} // namespace runlens::widgets::audio
