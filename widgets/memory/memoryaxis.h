#pragma once

#include <QString>

#include <qcustomplot.h>

namespace runlens::widgets::memory {

/// Byte sizes on a chart axis: ticks at 1, 2 or 5 times a power of ten of the unit that fits the range
/// (B, KB, MB, GB, TB; decimal like the rest of RunLens), labelled "512 MB", "1.5 GB". Negative values
/// (relative curves) get a minus sign.
class MemoryByteTicker final : public QCPAxisTicker
{
public:
    MemoryByteTicker();

    /// The unit (1, 1e3, 1e6 ...) labels use for a range whose largest magnitude is `magnitude`.
    static double unitFor(double magnitude);
    /// "1.5 GB", "-340 KB", "12 B" with up to three significant digits.
    static QString text(double bytes);

protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    double m_unit = 1.0;
};

} // namespace runlens::widgets::memory
