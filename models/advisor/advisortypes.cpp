#include "models/advisor/advisortypes.h"

#include <QCoreApplication>

#include <array>
#include <cmath>
#include <utility>

namespace runlens::models::advisor {

namespace {

template<typename Enum, std::size_t N>
std::optional<Enum> lookup(const std::array<std::pair<Enum, const char*>, N>& names, const QString& text)
{
    for (const auto& [value, name] : names) {
        if (text.compare(QLatin1String(name), Qt::CaseInsensitive) == 0)
            return value;
    }
    return std::nullopt;
}

template<typename Enum, std::size_t N>
QString nameOf(const std::array<std::pair<Enum, const char*>, N>& names, Enum value)
{
    for (const auto& [candidate, name] : names) {
        if (candidate == value)
            return QString::fromLatin1(name);
    }
    return {};
}

constexpr std::array kSeverities { std::pair { Severity::Info, "info" }, std::pair { Severity::Warning, "warning" },
                                   std::pair { Severity::Error, "error" } };
constexpr std::array kCategories { std::pair { Category::Accuracy, "accuracy" },
                                   std::pair { Category::Performance, "performance" },
                                   std::pair { Category::Memory, "memory" },
                                   std::pair { Category::Distributed, "distributed" },
                                   std::pair { Category::Data, "data" } };
constexpr std::array kComparators { std::pair { Comparator::Greater, ">" },
                                    std::pair { Comparator::GreaterEqual, ">=" }, std::pair { Comparator::Less, "<" },
                                    std::pair { Comparator::LessEqual, "<=" } };
constexpr std::array kScopes { std::pair { ScopeKind::Run, "run" },       std::pair { ScopeKind::Step, "step" },
                               std::pair { ScopeKind::Rank, "rank" },     std::pair { ScopeKind::Layer, "layer" },
                               std::pair { ScopeKind::Tensor, "tensor" }, std::pair { ScopeKind::Op, "op" },
                               std::pair { ScopeKind::Link, "link" },     std::pair { ScopeKind::Device, "device" } };
constexpr std::array kReportModes { std::pair { ReportMode::Each, "each" }, std::pair { ReportMode::Worst, "worst" },
                                    std::pair { ReportMode::First, "first" } };
constexpr std::array kUnits { std::pair { Unit::Value, "value" },     std::pair { Unit::Count, "count" },
                              std::pair { Unit::Ratio, "ratio" },     std::pair { Unit::Percent, "percent" },
                              std::pair { Unit::Milliseconds, "ms" }, std::pair { Unit::Nanoseconds, "ns" },
                              std::pair { Unit::Bytes, "bytes" } };

} // namespace

QString toString(Severity severity)
{
    return nameOf(kSeverities, severity);
}
QString toString(Category category)
{
    return nameOf(kCategories, category);
}
QString toString(Comparator comparator)
{
    return nameOf(kComparators, comparator);
}
QString toString(ScopeKind scope)
{
    return nameOf(kScopes, scope);
}
QString toString(ReportMode mode)
{
    return nameOf(kReportModes, mode);
}
QString toString(Unit unit)
{
    return nameOf(kUnits, unit);
}
std::optional<Severity> severityFromString(const QString& text)
{
    return lookup(kSeverities, text);
}
std::optional<Category> categoryFromString(const QString& text)
{
    return lookup(kCategories, text);
}
std::optional<Comparator> comparatorFromString(const QString& text)
{
    return lookup(kComparators, text);
}
std::optional<ScopeKind> scopeKindFromString(const QString& text)
{
    return lookup(kScopes, text);
}
std::optional<ReportMode> reportModeFromString(const QString& text)
{
    return lookup(kReportModes, text);
}
std::optional<Unit> unitFromString(const QString& text)
{
    return lookup(kUnits, text);
}

bool holds(Comparator comparator, double value, double threshold)
{
    if (std::isnan(value))
        return false;
    switch (comparator) {
    case Comparator::Greater:
        return value > threshold;
    case Comparator::GreaterEqual:
        return value >= threshold;
    case Comparator::Less:
        return value < threshold;
    case Comparator::LessEqual:
        return value <= threshold;
    }
    return false;
}

QString displayName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return QCoreApplication::translate("runlens::advisor", "Info");
    case Severity::Warning:
        return QCoreApplication::translate("runlens::advisor", "Warning");
    case Severity::Error:
        return QCoreApplication::translate("runlens::advisor", "Error");
    }
    return {};
}

QString displayName(Category category)
{
    switch (category) {
    case Category::Accuracy:
        return QCoreApplication::translate("runlens::advisor", "Accuracy");
    case Category::Performance:
        return QCoreApplication::translate("runlens::advisor", "Performance");
    case Category::Memory:
        return QCoreApplication::translate("runlens::advisor", "Memory");
    case Category::Distributed:
        return QCoreApplication::translate("runlens::advisor", "Distributed");
    case Category::Data:
        return QCoreApplication::translate("runlens::advisor", "Data");
    }
    return {};
}

} // namespace runlens::models::advisor
