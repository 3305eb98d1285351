#include "importers/core/importbudget.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <limits>

namespace runlens::importers {

namespace {

constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

std::int64_t saturatingMultiply(std::int64_t value, std::int64_t factor)
{
    if (value <= 0)
        return 0;
    if (value > std::numeric_limits<std::int64_t>::max() / factor)
        return std::numeric_limits<std::int64_t>::max();
    return value * factor;
}

} // namespace

ImportLimits ImportLimits::forInputSize(std::int64_t inputBytes)
{
    // Traces compress about 10-20x and tensors hold 4-8 bytes a value: 64x and 16x leave room for any real
    // file; the floors keep tiny files (a splat tensor in a small event file) readable, the ceilings keep a
    // hostile file from taking the machine.
    ImportLimits limits;
    limits.maxBytes = std::clamp(saturatingMultiply(inputBytes, 64), 256 * kMiB, 16 * kGiB);
    limits.maxElements = std::clamp(saturatingMultiply(inputBytes, 16), std::int64_t(16) << 20, std::int64_t(4) << 30);
    limits.maxDepth = kMaxDepth;
    return limits;
}

ImportBudget::ImportBudget(std::int64_t inputBytes)
    : m_limits(ImportLimits::forInputSize(inputBytes))
    , m_inputBytes(inputBytes)
{ }

ImportBudget::ImportBudget(const ImportLimits& limits)
    : m_limits(limits)
{ }

bool ImportBudget::spendBytes(std::int64_t n)
{
    if (n < 0 || n > m_limits.maxBytes - m_bytes) {
        if (m_exceeded == Exceeded::None)
            m_exceeded = Exceeded::Bytes;
        m_bytes = m_limits.maxBytes;
        return false;
    }
    m_bytes += n;
    return true;
}

bool ImportBudget::spendElements(std::int64_t n)
{
    if (n < 0 || n > m_limits.maxElements - m_elements) {
        if (m_exceeded == Exceeded::None)
            m_exceeded = Exceeded::Elements;
        m_elements = m_limits.maxElements;
        return false;
    }
    m_elements += n;
    return true;
}

bool ImportBudget::enterDepth(int depth)
{
    if (depth <= m_limits.maxDepth)
        return true;
    if (m_exceeded == Exceeded::None)
        m_exceeded = Exceeded::Depth;
    return false;
}

models::Diagnostic ImportBudget::diagnostic(const QString& file, std::int64_t offset) const
{
    const QLocale locale = QLocale::c();
    QString what;
    switch (m_exceeded) {
    case Exceeded::Bytes:
        what = QCoreApplication::translate("runlens::importers::ImportBudget", "more than %1 of data")
                   .arg(locale.formattedDataSize(m_limits.maxBytes, 1, QLocale::DataSizeTraditionalFormat));
        break;
    case Exceeded::Elements:
        what = QCoreApplication::translate("runlens::importers::ImportBudget", "more than %1 values")
                   .arg(m_limits.maxElements);
        break;
    case Exceeded::Depth:
    case Exceeded::None:
        what
            = QCoreApplication::translate("runlens::importers::ImportBudget", "structures nested deeper than %1 levels")
                  .arg(m_limits.maxDepth);
        break;
    }
    const QString message = m_inputBytes > 0
        ? QCoreApplication::translate("runlens::importers::ImportBudget",
                                      "Reading stopped: the file would produce %1, the limit for an input of %2 "
                                      "bytes. It is damaged or was made to exhaust memory; what was read before is "
                                      "kept.")
              .arg(what)
              .arg(m_inputBytes)
        : QCoreApplication::translate("runlens::importers::ImportBudget",
                                      "Reading stopped: the file would produce %1. It is damaged or was made to "
                                      "exhaust memory; what was read before is kept.")
              .arg(what);
    return { models::Severity::Error, file, offset, -1, message };
}

} // namespace runlens::importers
