#pragma once

#include "importers/core/importbudget.h"
#include "models/core/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace runlens::importers::memory {

/// Type-checked reads of the JSON files of memory profilers. A member holding the wrong type (a string
/// where a number belongs, an object where a list belongs) is a warning on the file instead of the
/// exception nlohmann's `value()` and `get<>()` throw, and members are looked at where they are, never
/// copied (copying is recursive). parse() checks nesting and size against an ImportBudget before it builds
/// the document. Warnings are counted: the first few are detailed, finish() sums up the rest.
class JsonFields
{
public:
    JsonFields(const QString& file, models::Diagnostics& diagnostics);

    /// The document of `bytes`, or nothing with an error on the file when it is not JSON or passes the
    /// budget's limits.
    std::optional<nlohmann::json> parse(const QByteArray& bytes, ImportBudget& budget);

    /// The member `key` of `object`; null when `object` is not an object, lacks the key or holds null.
    static const nlohmann::json* find(const nlohmann::json& object, std::string_view key);

    /// A number member; nothing when absent, a warning naming `where` (and `index` when not -1, so that
    /// rows need not format their name unless something is wrong) when it is not a number.
    std::optional<double> number(const nlohmann::json& object, std::string_view key, const QString& where,
                                 qint64 index = -1);
    /// An integer member (a float is truncated); a warning when it is not a number in the int64 range.
    std::optional<std::int64_t> integer(const nlohmann::json& object, std::string_view key, const QString& where,
                                        qint64 index = -1);
    /// A list member; null when absent, a warning when it is not a list.
    const nlohmann::json* array(const nlohmann::json& object, std::string_view key, const QString& where,
                                qint64 index = -1);
    /// A member as text: strings as they are, lists joined with commas ([32, 3] -> "32,3", as MindSpore
    /// prints shapes), other values in JSON; empty when absent.
    static QString text(const nlohmann::json& object, std::string_view key);
    static QString text(const nlohmann::json& value);

    /// A warning about a value of the wrong type, detailed for the first few, counted for the rest.
    void wrongType(std::string_view key, const QString& where, qint64 index, const QString& expected);
    /// Sums up the warnings that were only counted.
    void finish();

private:
    const QString& m_file;
    models::Diagnostics& m_diagnostics;
    int m_wrongTypes = 0;
};

} // namespace runlens::importers::memory
